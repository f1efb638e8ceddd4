//! `PQP.h`'s C++ symbols: `PQP_Model`, `PQP_CollideResult` and `BV` members and the three
//! queries, over the legacy PQP C layer ([`crate::ffi::pqp`]), whose result structs already
//! have PQP's layout.
//!
//! `PQP_Model::last_tri` holds the handle of a `CxxPqpModel`: the C layer's model object
//! (whose members both layers share) and the `Tri` array `tris` points to (the triangles in the
//! order they were added, PQP's layout); `b` stays NULL and `num_bvs` 0 (the hierarchy is not
//! exposed as a BV array). The C layer decides every return code; the public fields are
//! updated from its answers.
//!
//! `PQP_CollideResult::pairs` is allocated with `malloc`/`realloc` (as the C layer does) and
//! registered while live, so that a result copied by the implicit copy constructor and
//! destroyed twice, or used after its copy freed the array, never frees or reuses a dead
//! array: an unregistered non-NULL `pairs` is treated as empty.
#![allow(non_snake_case)]

use std::ffi::c_int;
use std::ptr;

use crate::bv::obb::{BoxTest, disjoint};
use crate::bv::rss::rectangle_distance;
use crate::bv::{Obb, Rss};
use crate::ffi::clock::Stopwatch;
use crate::ffi::guard;
use crate::ffi::handle::{self, Handle, Kind};
use crate::ffi::pqp::{
    self as c, CollisionPair, PQP_CollideResult, PQP_DistanceResult, PQP_ERR_BUILD_OUT_OF_SEQUENCE, PQP_ERR_INTERNAL,
    PQP_ERR_INVALID_MODEL, PQP_ERR_MODEL_OUT_OF_MEMORY, PQP_ERR_NULL_POINTER, PQP_OK, PQP_ToleranceResult,
};
use crate::math::{Mat3, Vec3};

const STATE_EMPTY: c_int = 0;
const STATE_BEGUN: c_int = 1;
const STATE_PROCESSED: c_int = 2;

/// PQP's `struct Tri` (80 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct TriAbi {
    pub p1: [f64; 3],
    pub p2: [f64; 3],
    pub p3: [f64; 3],
    pub id: c_int,
}

/// PQP's `struct BV` with `PQP_BV_TYPE = RSS_TYPE | OBB_TYPE` (176 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct BvAbi {
    pub R: [[f64; 3]; 3],
    pub Tr: [f64; 3],
    pub l: [f64; 2],
    pub r: f64,
    pub To: [f64; 3],
    pub d: [f64; 3],
    pub first_child: c_int,
}

/// `class PQP_Model` as laid out by PQP_Internal.h (48 bytes).
#[repr(C)]
pub struct PqpModelAbi {
    pub build_state: c_int,
    pub tris: *mut TriAbi,
    pub num_tris: c_int,
    pub num_tris_alloced: c_int,
    /// NULL: the hierarchy is not exposed.
    pub b: *mut BvAbi,
    pub num_bvs: c_int,
    pub num_bvs_alloced: c_int,
    /// `Tri *last_tri`: here the handle of the model's [`CxxPqpModel`].
    pub last_tri: *mut CxxPqpModel,
}

/// What a C++ `PQP_Model` owns.
pub struct CxxPqpModel {
    model: c::PQP_Model,
    tris: Vec<TriAbi>,
}

// SAFETY: the only type of kind CxxPqpModel.
unsafe impl Handle for CxxPqpModel {
    const KIND: Kind = Kind::CxxPqpModel;
}

const _: () = {
    use std::mem::{align_of, offset_of, size_of};
    assert!(size_of::<TriAbi>() == 80 && align_of::<TriAbi>() == 8);
    assert!(offset_of!(TriAbi, p2) == 24 && offset_of!(TriAbi, p3) == 48);
    assert!(offset_of!(TriAbi, id) == 72);
    assert!(size_of::<BvAbi>() == 176 && align_of::<BvAbi>() == 8);
    assert!(offset_of!(BvAbi, Tr) == 72 && offset_of!(BvAbi, l) == 96);
    assert!(offset_of!(BvAbi, r) == 112 && offset_of!(BvAbi, To) == 120);
    assert!(offset_of!(BvAbi, d) == 144 && offset_of!(BvAbi, first_child) == 168);
    assert!(size_of::<PqpModelAbi>() == 48 && align_of::<PqpModelAbi>() == 8);
    assert!(offset_of!(PqpModelAbi, tris) == 8);
    assert!(offset_of!(PqpModelAbi, num_tris) == 16);
    assert!(offset_of!(PqpModelAbi, num_tris_alloced) == 20);
    assert!(offset_of!(PqpModelAbi, b) == 24);
    assert!(offset_of!(PqpModelAbi, num_bvs) == 32);
    assert!(offset_of!(PqpModelAbi, num_bvs_alloced) == 36);
    assert!(offset_of!(PqpModelAbi, last_tri) == 40);
};

fn clamp(n: usize) -> c_int {
    c_int::try_from(n).unwrap_or(c_int::MAX)
}

/// Points the public fields at the state's triangle array.
fn sync(m: &mut PqpModelAbi, tris: &mut Vec<TriAbi>) {
    m.tris = if tris.capacity() == 0 { ptr::null_mut() } else { tris.as_mut_ptr() };
    m.num_tris = clamp(tris.len());
    m.num_tris_alloced = clamp(tris.capacity());
}

/// Room reserved at `BeginModel(num_tris)` at most: a larger hint is not a reason to allocate
/// (the array doubles as triangles come).
const MAX_TRI_HINT: usize = 1 << 16;

/// A fresh triangle array with room for `n` (at most [`MAX_TRI_HINT`]; less if that much memory
/// is not available).
fn tri_array(n: usize) -> Vec<TriAbi> {
    let n = n.min(MAX_TRI_HINT);
    let mut tris = Vec::new();
    if tris.try_reserve_exact(n).is_err() {
        let _ = tris.try_reserve_exact(8);
    }
    tris
}

/// The model and its state, checked: `Err` with the C layer's code for a NULL model or one
/// whose state is not live (destroyed, or a copy of a destroyed model). Nothing is read
/// through `last_tri` unless the registry knows it.
///
/// # Safety
/// `this` is NULL or a constructed `PQP_Model`.
#[inline(always)]
unsafe fn model<'a>(this: *mut PqpModelAbi) -> Result<(&'a mut PqpModelAbi, &'a mut CxxPqpModel), c_int> {
    // SAFETY: per the contract.
    let m = unsafe { this.as_mut() }.ok_or(PQP_ERR_NULL_POINTER)?;
    let mut state = handle::get(m.last_tri).ok_or(PQP_ERR_INVALID_MODEL)?;
    // SAFETY: a live CxxPqpModel; the legacy layer is not for concurrent use.
    Ok((m, unsafe { state.as_mut() }))
}

/// The C-layer model object of a C++ model (a raw pointer: a program may pass the same model
/// twice to a query).
///
/// # Safety
/// `this` is NULL or a constructed `PQP_Model`.
#[inline(always)]
unsafe fn core(this: *mut PqpModelAbi) -> Result<*mut c::PQP_Model, c_int> {
    // SAFETY: per the contract.
    let m = unsafe { this.as_ref() }.ok_or(PQP_ERR_NULL_POINTER)?;
    let state = handle::get(m.last_tri).ok_or(PQP_ERR_INVALID_MODEL)?;
    // SAFETY: a live CxxPqpModel: a field's address, nothing read.
    Ok(unsafe { &raw mut (*state.as_ptr()).model })
}

/// `PQP_Model::PQP_Model()`: an empty model.
///
/// # Safety
/// `this` is NULL or points to 48 writable bytes (a `PQP_Model` being constructed).
#[unsafe(export_name = "_ZN9PQP_ModelC1Ev")]
pub unsafe extern "C" fn pqp_model_construct(this: *mut PqpModelAbi) {
    guard((), || {
        // SAFETY: per the contract; the old contents are not read.
        if let Some(m) = unsafe { this.as_mut() } {
            // Out of memory: `last_tri` NULL, and every member then reports an invalid model
            // (a constructor has no way to report it; PQP would have thrown std::bad_alloc).
            let state = handle::create(CxxPqpModel { model: c::PQP_Model::new(), tris: Vec::new() });
            *m = PqpModelAbi {
                build_state: STATE_EMPTY,
                tris: ptr::null_mut(),
                num_tris: 0,
                num_tris_alloced: 0,
                b: ptr::null_mut(),
                num_bvs: 0,
                num_bvs_alloced: 0,
                last_tri: state.unwrap_or(ptr::null_mut()),
            };
        }
    })
}

/// `PQP_Model::PQP_Model()`, base-object variant.
///
/// # Safety
/// As [`pqp_model_construct`].
#[unsafe(export_name = "_ZN9PQP_ModelC2Ev")]
pub unsafe extern "C" fn pqp_model_construct_base(this: *mut PqpModelAbi) {
    // SAFETY: forwarded contract.
    unsafe { pqp_model_construct(this) }
}

/// `PQP_Model::~PQP_Model()`: frees the model (ignored when a copy already did) and clears
/// the fields.
///
/// # Safety
/// `this` is NULL or a constructed `PQP_Model`.
#[unsafe(export_name = "_ZN9PQP_ModelD1Ev")]
pub unsafe extern "C" fn pqp_model_destroy(this: *mut PqpModelAbi) {
    guard((), || {
        // SAFETY: per the contract.
        if let Some(m) = unsafe { this.as_mut() } {
            // Anything but a live CxxPqpModel (freed through a copy, NULL) is ignored.
            handle::destroy(m.last_tri);
            m.build_state = STATE_EMPTY;
            m.tris = ptr::null_mut();
            m.num_tris = 0;
            m.num_tris_alloced = 0;
            m.last_tri = ptr::null_mut();
        }
    })
}

/// `PQP_Model::~PQP_Model()`, base-object variant.
///
/// # Safety
/// As [`pqp_model_destroy`].
#[unsafe(export_name = "_ZN9PQP_ModelD2Ev")]
pub unsafe extern "C" fn pqp_model_destroy_base(this: *mut PqpModelAbi) {
    // SAFETY: forwarded contract.
    unsafe { pqp_model_destroy(this) }
}

/// `int PQP_Model::BeginModel(int num_tris)`: room for `num_tris` triangles (≤ 0: 8); -4 on
/// a model that was not empty (restarted all the same), as PQP.
///
/// # Safety
/// `this` is NULL or a constructed `PQP_Model`.
#[unsafe(export_name = "_ZN9PQP_Model10BeginModelEi")]
pub unsafe extern "C" fn pqp_model_begin(this: *mut PqpModelAbi, num_tris: c_int) -> c_int {
    guard(PQP_ERR_INTERNAL, || {
        // SAFETY: per the contract.
        let (m, state) = match unsafe { model(this) } {
            Ok(ms) => ms,
            Err(code) => return code,
        };
        let code = state.model.begin();
        if code == PQP_OK || code == PQP_ERR_BUILD_OUT_OF_SEQUENCE {
            state.tris = tri_array(if num_tris <= 0 { 8 } else { num_tris as usize });
            sync(m, &mut state.tris);
            m.build_state = STATE_BEGUN;
        }
        code
    })
}

/// `int PQP_Model::AddTri(const PQP_REAL *p1, const PQP_REAL *p2, const PQP_REAL *p3, int id)`:
/// begins the model if needed; -4 (nothing added) once built.
///
/// # Safety
/// `this` is NULL or a constructed `PQP_Model`; each point NULL or 3 readable doubles.
#[unsafe(export_name = "_ZN9PQP_Model6AddTriEPKdS1_S1_i")]
pub unsafe extern "C" fn pqp_model_add_tri(
    this: *mut PqpModelAbi,
    p1: *const f64,
    p2: *const f64,
    p3: *const f64,
    id: c_int,
) -> c_int {
    guard(PQP_ERR_INTERNAL, || {
        // SAFETY: per the contract.
        let (m, state) = match unsafe { model(this) } {
            Ok(ms) => ms,
            Err(code) => return code,
        };
        // SAFETY: forwarded contract.
        let corners = match unsafe { c::read_corners(p1, p2, p3) } {
            Ok(corners) => corners,
            Err(code) => return code,
        };
        if m.build_state == STATE_EMPTY && state.tris.capacity() == 0 {
            state.tris = tri_array(8);
        }
        // Room in PQP's Tri array first (it doubles when full), so that the two stores never
        // disagree: out of memory changes nothing. (A built model refuses the triangle below.)
        let tris = &mut state.tris;
        if m.build_state != STATE_PROCESSED && tris.len() == tris.capacity() {
            let grow = tris.capacity().max(1);
            if tris.try_reserve_exact(grow).is_err() && tris.try_reserve(1).is_err() {
                return PQP_ERR_MODEL_OUT_OF_MEMORY;
            }
        }
        let code = state.model.add_tri(corners, id);
        if code == PQP_OK {
            m.build_state = STATE_BEGUN;
            let [a, b, c] = corners.map(|p| [p.x, p.y, p.z]);
            state.tris.push(TriAbi { p1: a, p2: b, p3: c, id });
            sync(m, &mut state.tris);
        }
        code
    })
}

/// `int PQP_Model::EndModel()`: builds the model; -4 if already built, -5 with no
/// triangles.
///
/// # Safety
/// `this` is NULL or a constructed `PQP_Model`.
#[unsafe(export_name = "_ZN9PQP_Model8EndModelEv")]
pub unsafe extern "C" fn pqp_model_end(this: *mut PqpModelAbi) -> c_int {
    guard(PQP_ERR_INTERNAL, || {
        // SAFETY: per the contract.
        let (m, state) = match unsafe { model(this) } {
            Ok(ms) => ms,
            Err(code) => return code,
        };
        let code = state.model.end();
        if code == PQP_OK {
            state.tris.shrink_to_fit();
            sync(m, &mut state.tris);
            m.build_state = STATE_PROCESSED;
        }
        code
    })
}

/// `int PQP_Model::MemUsage(int msg)`: bytes used by the model (the C layer's count plus the
/// `Tri` array and the object itself). `msg` is ignored: the library never prints.
///
/// # Safety
/// `this` is NULL or a constructed `PQP_Model`.
#[unsafe(export_name = "_ZN9PQP_Model8MemUsageEi")]
pub unsafe extern "C" fn pqp_model_mem_usage(this: *mut PqpModelAbi, msg: c_int) -> c_int {
    let _ = msg;
    guard(0, || {
        // SAFETY: per the contract.
        let Ok((_, state)) = (unsafe { model(this) }) else {
            return 0;
        };
        // The C layer's count includes its model object, which lives inside the state.
        let own = std::mem::size_of::<PqpModelAbi>() + std::mem::size_of::<CxxPqpModel>()
            - std::mem::size_of::<c::PQP_Model>()
            + state.tris.capacity() * std::mem::size_of::<TriAbi>();
        clamp(state.model.memory_bytes().saturating_add(own))
    })
}

// ------------------------------------------------------------------------------------------
// PQP_CollideResult

/// `PQP_CollideResult::PQP_CollideResult()`: an empty result (every field zeroed).
///
/// # Safety
/// `this` is NULL or points to 128 writable bytes.
#[unsafe(export_name = "_ZN17PQP_CollideResultC1Ev")]
pub unsafe extern "C" fn collide_result_construct(this: *mut PQP_CollideResult) {
    // SAFETY: per the contract; all-zero bytes are a valid PQP_CollideResult.
    guard((), || unsafe {
        if !this.is_null() {
            ptr::write_bytes(this, 0, 1);
        }
    })
}

/// `PQP_CollideResult::PQP_CollideResult()`, base-object variant.
///
/// # Safety
/// As [`collide_result_construct`].
#[unsafe(export_name = "_ZN17PQP_CollideResultC2Ev")]
pub unsafe extern "C" fn collide_result_construct_base(this: *mut PQP_CollideResult) {
    // SAFETY: forwarded contract.
    unsafe { collide_result_construct(this) }
}

/// `void PQP_CollideResult::FreePairsList()`: frees the pair array, counts to 0.
///
/// # Safety
/// `this` is NULL or a constructed `PQP_CollideResult`.
#[unsafe(export_name = "_ZN17PQP_CollideResult13FreePairsListEv")]
pub unsafe extern "C" fn collide_result_free_pairs(this: *mut PQP_CollideResult) {
    guard((), || {
        // SAFETY: per the contract.
        if let Some(res) = unsafe { this.as_mut() } {
            c::free_pairs(res);
        }
    })
}

/// `PQP_CollideResult::~PQP_CollideResult()`: frees the pair array (not again when a copy
/// already did).
///
/// # Safety
/// `this` is NULL or a constructed `PQP_CollideResult`.
#[unsafe(export_name = "_ZN17PQP_CollideResultD1Ev")]
pub unsafe extern "C" fn collide_result_destroy(this: *mut PQP_CollideResult) {
    // SAFETY: forwarded contract.
    unsafe { collide_result_free_pairs(this) }
}

/// `PQP_CollideResult::~PQP_CollideResult()`, base-object variant.
///
/// # Safety
/// As [`collide_result_destroy`].
#[unsafe(export_name = "_ZN17PQP_CollideResultD2Ev")]
pub unsafe extern "C" fn collide_result_destroy_base(this: *mut PQP_CollideResult) {
    // SAFETY: forwarded contract.
    unsafe { collide_result_free_pairs(this) }
}

/// `void PQP_CollideResult::SizeTo(int n)`: makes room for exactly `n` pairs; smaller than
/// `num_pairs` does nothing, as PQP (which also printed a message; this library never prints),
/// and so does running out of memory.
///
/// # Safety
/// `this` is NULL or a constructed `PQP_CollideResult`.
#[unsafe(export_name = "_ZN17PQP_CollideResult6SizeToEi")]
pub unsafe extern "C" fn collide_result_size_to(this: *mut PQP_CollideResult, n: c_int) {
    guard((), || {
        // SAFETY: per the contract.
        let Some(res) = (unsafe { this.as_mut() }) else {
            return;
        };
        c::adopt_pairs(res);
        if n >= res.num_pairs {
            // Out of memory leaves the result unchanged.
            let _ = c::resize_pairs(res, n as usize);
        }
    })
}

/// `void PQP_CollideResult::Add(int i1, int i2)`: appends a pair, growing the array to
/// `2 * alloced + 8` when full, as PQP. Out of memory (where PQP threw `std::bad_alloc`): the
/// pair is not added and `num_pairs` stays as it was.
///
/// # Safety
/// `this` is NULL or a constructed `PQP_CollideResult`.
#[unsafe(export_name = "_ZN17PQP_CollideResult3AddEii")]
pub unsafe extern "C" fn collide_result_add(this: *mut PQP_CollideResult, i1: c_int, i2: c_int) {
    guard((), || {
        // SAFETY: per the contract.
        let Some(res) = (unsafe { this.as_mut() }) else {
            return;
        };
        c::adopt_pairs(res);
        let (len, alloced) = (res.num_pairs.max(0) as usize, res.num_pairs_alloced.max(0) as usize);
        if len == c_int::MAX as usize {
            return;
        }
        if len >= alloced {
            let grown = alloced.saturating_mul(2).saturating_add(8).min(c_int::MAX as usize);
            if !c::resize_pairs(res, grown) {
                return;
            }
        }
        // SAFETY: len < num_pairs_alloced entries of the live array.
        unsafe { res.pairs.add(len).write(CollisionPair { id1: i1, id2: i2 }) };
        res.num_pairs = clamp(len + 1);
    })
}

// ------------------------------------------------------------------------------------------
// Queries

/// `int PQP_Collide(PQP_CollideResult *, PQP_REAL R1[3][3], PQP_REAL T1[3], PQP_Model *,
/// PQP_REAL R2[3][3], PQP_REAL T2[3], PQP_Model *, int flag)`.
///
/// # Safety
/// As [`crate::ffi::pqp::PQP_Collide`], with `result` NULL or a constructed result and the
/// models NULL or constructed `PQP_Model`s.
#[unsafe(export_name = "_Z11PQP_CollideP17PQP_CollideResultPA3_dPdP9PQP_ModelS2_S3_S5_i")]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn pqp_collide(
    result: *mut PQP_CollideResult,
    R1: *mut [f64; 3],
    T1: *mut f64,
    o1: *mut PqpModelAbi,
    R2: *mut [f64; 3],
    T2: *mut f64,
    o2: *mut PqpModelAbi,
    flag: c_int,
) -> c_int {
    guard(PQP_ERR_INTERNAL, || {
        let watch = Stopwatch::start();
        // SAFETY: forwarded contract.
        let (m1, m2) = match unsafe { (core(o1), core(o2)) } {
            (Ok(m1), Ok(m2)) => (m1, m2),
            (Err(code), _) | (_, Err(code)) => return code,
        };
        // SAFETY: live models; forwarded contract (the C layer adopts or drops `pairs`).
        unsafe { c::collide_models(watch, result, &c::Placed { r1: R1, t1: T1, m1, r2: R2, t2: T2, m2 }, flag) }
    })
}

/// `int PQP_Distance(PQP_DistanceResult *, PQP_REAL R1[3][3], PQP_REAL T1[3], PQP_Model *,
/// PQP_REAL R2[3][3], PQP_REAL T2[3], PQP_Model *, PQP_REAL rel_err, PQP_REAL abs_err,
/// int qsize)`.
///
/// # Safety
/// As [`crate::ffi::pqp::PQP_Distance`], the models being NULL or constructed `PQP_Model`s.
#[unsafe(export_name = "_Z12PQP_DistanceP18PQP_DistanceResultPA3_dPdP9PQP_ModelS2_S3_S5_ddi")]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn pqp_distance(
    result: *mut PQP_DistanceResult,
    R1: *mut [f64; 3],
    T1: *mut f64,
    o1: *mut PqpModelAbi,
    R2: *mut [f64; 3],
    T2: *mut f64,
    o2: *mut PqpModelAbi,
    rel_err: f64,
    abs_err: f64,
    qsize: c_int,
) -> c_int {
    guard(PQP_ERR_INTERNAL, || {
        let watch = Stopwatch::start();
        // SAFETY: forwarded contract.
        match unsafe { (core(o1), core(o2)) } {
            // SAFETY: live models; forwarded contract.
            (Ok(m1), Ok(m2)) => unsafe {
                let args = c::Placed { r1: R1, t1: T1, m1, r2: R2, t2: T2, m2 };
                c::distance_models(watch, result, &args, rel_err, abs_err, qsize)
            },
            (Err(code), _) | (_, Err(code)) => code,
        }
    })
}

/// `int PQP_Tolerance(PQP_ToleranceResult *, PQP_REAL R1[3][3], PQP_REAL T1[3], PQP_Model *,
/// PQP_REAL R2[3][3], PQP_REAL T2[3], PQP_Model *, PQP_REAL tolerance, int qsize)`.
///
/// # Safety
/// As [`crate::ffi::pqp::PQP_Tolerance`], the models being NULL or constructed `PQP_Model`s.
#[unsafe(export_name = "_Z13PQP_ToleranceP19PQP_ToleranceResultPA3_dPdP9PQP_ModelS2_S3_S5_di")]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn pqp_tolerance(
    result: *mut PQP_ToleranceResult,
    R1: *mut [f64; 3],
    T1: *mut f64,
    o1: *mut PqpModelAbi,
    R2: *mut [f64; 3],
    T2: *mut f64,
    o2: *mut PqpModelAbi,
    tolerance: f64,
    qsize: c_int,
) -> c_int {
    guard(PQP_ERR_INTERNAL, || {
        let watch = Stopwatch::start();
        // SAFETY: forwarded contract.
        match unsafe { (core(o1), core(o2)) } {
            // SAFETY: live models; forwarded contract.
            (Ok(m1), Ok(m2)) => unsafe {
                let args = c::Placed { r1: R1, t1: T1, m1, r2: R2, t2: T2, m2 };
                c::tolerance_models(watch, result, &args, tolerance, qsize)
            },
            (Err(code), _) | (_, Err(code)) => code,
        }
    })
}

// ------------------------------------------------------------------------------------------
// BV

fn mat(r: &[[f64; 3]; 3]) -> Mat3 {
    Mat3::new(r[0][0], r[0][1], r[0][2], r[1][0], r[1][1], r[1][2], r[2][0], r[2][1], r[2][2])
}

/// `BV::BV()`: `first_child = 0`, as PQP (the other fields are left as they are).
///
/// # Safety
/// `this` is NULL or points to 176 writable bytes.
#[unsafe(export_name = "_ZN2BVC1Ev")]
pub unsafe extern "C" fn bv_construct(this: *mut BvAbi) {
    // SAFETY: per the contract.
    if let Some(bv) = unsafe { this.as_mut() } {
        bv.first_child = 0;
    }
}

/// `BV::BV()`, base-object variant.
///
/// # Safety
/// As [`bv_construct`].
#[unsafe(export_name = "_ZN2BVC2Ev")]
pub unsafe extern "C" fn bv_construct_base(this: *mut BvAbi) {
    // SAFETY: forwarded contract.
    unsafe { bv_construct(this) }
}

/// `BV::~BV()`: nothing to do.
#[unsafe(export_name = "_ZN2BVD1Ev")]
pub extern "C" fn bv_destroy(_this: *mut BvAbi) {}

/// `BV::~BV()`, base-object variant.
#[unsafe(export_name = "_ZN2BVD2Ev")]
pub extern "C" fn bv_destroy_base(_this: *mut BvAbi) {}

/// `void BV::FitToTris(PQP_REAL O[3][3], Tri *tris, int num_tris)`: sets `R = O` and fits
/// the OBB (`To`, `d`) and the RSS (`Tr`, `l`, `r`) with those axes around the triangles'
/// corners. Does nothing for NULL pointers or `num_tris <= 0`.
///
/// # Safety
/// `this` is NULL or a `BV`; `o` NULL or 9 readable doubles; `tris` NULL or `num_tris`
/// readable `Tri`s.
#[unsafe(export_name = "_ZN2BV9FitToTrisEPA3_dP3Trii")]
pub unsafe extern "C" fn bv_fit_to_tris(this: *mut BvAbi, o: *const [f64; 3], tris: *const TriAbi, num_tris: c_int) {
    guard((), || {
        if this.is_null() || o.is_null() || tris.is_null() || num_tris <= 0 {
            return;
        }
        // SAFETY: per the contract.
        let (bv, o, tris) =
            unsafe { (&mut *this, &*o.cast::<[[f64; 3]; 3]>(), std::slice::from_raw_parts(tris, num_tris as usize)) };
        let axes = mat(o);
        let points: Vec<Vec3> = tris.iter().flat_map(|t| [t.p1, t.p2, t.p3]).map(Vec3::from).collect();
        if !points.iter().all(|p| p.iter().all(|v| v.is_finite())) || !axes.iter().all(|v| v.is_finite()) {
            return;
        }
        let obb = Obb::fit(&axes, points.iter().copied(), 0.0);
        let rss = Rss::fit(&axes, &points);
        bv.R = *o;
        bv.To = [obb.center.x, obb.center.y, obb.center.z];
        bv.d = [obb.half.x, obb.half.y, obb.half.z];
        bv.Tr = [rss.corner.x, rss.corner.y, rss.corner.z];
        bv.l = rss.lengths;
        bv.r = rss.radius;
    })
}

/// `int BV_Overlap(PQP_REAL R[3][3], PQP_REAL T[3], BV *b1, BV *b2)`: 1 when the OBBs
/// overlap (touching counts), b2's box frame being given in b1's by `R`, `T`. 0 for NULL
/// pointers.
///
/// # Safety
/// Each pointer is NULL or readable (`R` 9 doubles, `T` 3).
#[unsafe(export_name = "_Z10BV_OverlapPA3_dPdP2BVS3_")]
pub unsafe extern "C" fn bv_overlap(r: *const [f64; 3], t: *const f64, b1: *const BvAbi, b2: *const BvAbi) -> c_int {
    guard(0, || {
        if r.is_null() || t.is_null() || b1.is_null() || b2.is_null() {
            return 0;
        }
        // SAFETY: per the contract.
        let (r, t, b1, b2) = unsafe { (&*r.cast::<[[f64; 3]; 3]>(), &*t.cast::<[f64; 3]>(), &*b1, &*b2) };
        let apart = disjoint(&Vec3::from(b1.d), &mat(r), &Vec3::from(*t), &Vec3::from(b2.d), 0.0, BoxTest::Sat15);
        c_int::from(!apart)
    })
}

/// `PQP_REAL BV_Distance(PQP_REAL R[3][3], PQP_REAL T[3], BV *b1, BV *b2)`: distance between
/// the two RSSs (0 when they overlap; a lower bound exact to rounding), b2's rectangle frame
/// (origin at its corner) being given in b1's by `R`, `T`. 0 for NULL pointers.
///
/// # Safety
/// Each pointer is NULL or readable (`R` 9 doubles, `T` 3).
#[unsafe(export_name = "_Z11BV_DistancePA3_dPdP2BVS3_")]
pub unsafe extern "C" fn bv_distance(r: *const [f64; 3], t: *const f64, b1: *const BvAbi, b2: *const BvAbi) -> f64 {
    guard(0.0, || {
        if r.is_null() || t.is_null() || b1.is_null() || b2.is_null() {
            return 0.0;
        }
        // SAFETY: per the contract.
        let (r, t, b1, b2) = unsafe { (&*r.cast::<[[f64; 3]; 3]>(), &*t.cast::<[f64; 3]>(), &*b1, &*b2) };
        let gap = rectangle_distance(&Mat3::identity(), &Vec3::zeros(), b1.l, &mat(r), &Vec3::from(*t), b2.l);
        (gap - b1.r - b2.r).max(0.0)
    })
}
