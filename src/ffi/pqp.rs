//! The legacy PQP 1.3 interface, callable from C: PQP's names, codes and result structs
//! with their exact layout (`PQP.md` §1–3), as a thin layer over the native core.
//!
//! Differences on purpose: bad input (NULL pointers, NaN, negative error bounds, deleted
//! models) gets a new error code and changes nothing; for intersecting models the distance
//! query returns a point of the intersection as both `p1` and `p2` (PQP returned unrelated
//! points); a tolerance query that is not closer writes a lower bound of the distance and
//! NaN points (PQP left stale values). The warm start of distance queries is kept in the
//! models, as PQP's `last_tri`: the legacy layer is not for concurrent use.
#![allow(non_camel_case_types, non_snake_case)]

use std::ffi::c_int;
use std::time::Instant;

use super::{free_handle, guard, is_live, new_handle, read_array};
use crate::math::{Mat3, Placement, Vec3};
use crate::model::{BuildError, Model, ModelBuilder};
use crate::query::collide::{self, CollideRequest, CollideResult, TriangleFrame};
use crate::query::distance::{self, DistanceCache, DistanceRequest};

/// Success.
pub const PQP_OK: c_int = 0;
/// Memory could not be allocated while building a model.
pub const PQP_ERR_MODEL_OUT_OF_MEMORY: c_int = -1;
/// Declared by PQP, never returned.
pub const PQP_ERR_OUT_OF_MEMORY: c_int = -2;
/// A query got a model that has not been built by `PQP_EndModel`.
pub const PQP_ERR_UNPROCESSED_MODEL: c_int = -3;
/// `PQP_BeginModel` on a non-empty model (it is restarted all the same), or `PQP_AddTri` /
/// `PQP_EndModel` on a built model (ignored).
pub const PQP_ERR_BUILD_OUT_OF_SEQUENCE: c_int = -4;
/// `PQP_EndModel` with no triangles.
pub const PQP_ERR_BUILD_EMPTY_MODEL: c_int = -5;
/// rapidpqp only: a required pointer argument was NULL; nothing changed.
pub const PQP_ERR_NULL_POINTER: c_int = -6;
/// rapidpqp only: a coordinate, rotation or translation was NaN or infinite, or the
/// tolerance NaN (an infinite tolerance is accepted: everything is closer); nothing changed.
pub const PQP_ERR_NON_FINITE: c_int = -7;
/// rapidpqp only: `rel_err` or `abs_err` negative or NaN; nothing changed.
pub const PQP_ERR_INVALID_ARGUMENT: c_int = -8;
/// rapidpqp only: the model pointer is not a live model (deleted, or not from
/// `PQP_Model_new`); nothing changed.
pub const PQP_ERR_INVALID_MODEL: c_int = -9;
/// rapidpqp only: an internal error (a bug); nothing changed.
pub const PQP_ERR_INTERNAL: c_int = -10;

/// `PQP_Collide` flag: all contacts (any value other than `PQP_FIRST_CONTACT` means this).
pub const PQP_ALL_CONTACTS: c_int = 1;
/// `PQP_Collide` flag: stop at the first contact.
pub const PQP_FIRST_CONTACT: c_int = 2;

const PQP_BUILD_STATE_EMPTY: c_int = 0;
const PQP_BUILD_STATE_BEGUN: c_int = 1;
const PQP_BUILD_STATE_PROCESSED: c_int = 2;

/// A contact: ids of model 1's and model 2's triangles.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CollisionPair {
    pub id1: c_int,
    pub id2: c_int,
}

/// Result of `PQP_Collide`, PQP's exact layout (128 bytes). Zero-fill it before first use;
/// release the pair array with `PQP_CollideResult_FreePairsList`.
#[repr(C)]
#[derive(Debug)]
pub struct PQP_CollideResult {
    pub num_bv_tests: c_int,
    pub num_tri_tests: c_int,
    pub query_time_secs: f64,
    /// Model 2's rotation relative to model 1: `R1ᵀ R2`.
    pub R: [[f64; 3]; 3],
    /// Model 2's translation relative to model 1: `R1ᵀ (T2 − T1)`.
    pub T: [f64; 3],
    pub num_pairs_alloced: c_int,
    pub num_pairs: c_int,
    /// `num_pairs` contacts (malloc'd by the library, grown as PQP grows it).
    pub pairs: *mut CollisionPair,
}

/// Result of `PQP_Distance`, PQP's exact layout (192 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PQP_DistanceResult {
    pub num_bv_tests: c_int,
    pub num_tri_tests: c_int,
    pub query_time_secs: f64,
    pub R: [[f64; 3]; 3],
    pub T: [f64; 3],
    pub rel_err: f64,
    pub abs_err: f64,
    pub distance: f64,
    /// Closest point on model 1, in model 1's frame.
    pub p1: [f64; 3],
    /// Closest point on model 2, in model 2's frame.
    pub p2: [f64; 3],
    pub qsize: c_int,
}

/// Result of `PQP_Tolerance`, PQP's exact layout (192 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PQP_ToleranceResult {
    pub num_bv_tests: c_int,
    pub num_tri_tests: c_int,
    pub query_time_secs: f64,
    pub R: [[f64; 3]; 3],
    pub T: [f64; 3],
    pub closer_than_tolerance: c_int,
    pub tolerance: f64,
    /// When closer: the distance of the pair found (at most the tolerance). Otherwise a
    /// lower bound of the true distance.
    pub distance: f64,
    /// Closest points (model 1's frame, model 2's frame); NaN when not closer.
    pub p1: [f64; 3],
    pub p2: [f64; 3],
    pub qsize: c_int,
}

const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(size_of::<CollisionPair>() == 8);
    assert!(size_of::<PQP_CollideResult>() == 128);
    assert!(offset_of!(PQP_CollideResult, query_time_secs) == 8);
    assert!(offset_of!(PQP_CollideResult, R) == 16);
    assert!(offset_of!(PQP_CollideResult, T) == 88);
    assert!(offset_of!(PQP_CollideResult, num_pairs_alloced) == 112);
    assert!(offset_of!(PQP_CollideResult, num_pairs) == 116);
    assert!(offset_of!(PQP_CollideResult, pairs) == 120);
    assert!(size_of::<PQP_DistanceResult>() == 192);
    assert!(offset_of!(PQP_DistanceResult, rel_err) == 112);
    assert!(offset_of!(PQP_DistanceResult, abs_err) == 120);
    assert!(offset_of!(PQP_DistanceResult, distance) == 128);
    assert!(offset_of!(PQP_DistanceResult, p1) == 136);
    assert!(offset_of!(PQP_DistanceResult, p2) == 160);
    assert!(offset_of!(PQP_DistanceResult, qsize) == 184);
    assert!(size_of::<PQP_ToleranceResult>() == 192);
    assert!(offset_of!(PQP_ToleranceResult, closer_than_tolerance) == 112);
    assert!(offset_of!(PQP_ToleranceResult, tolerance) == 120);
    assert!(offset_of!(PQP_ToleranceResult, distance) == 128);
    assert!(offset_of!(PQP_ToleranceResult, p1) == 136);
    assert!(offset_of!(PQP_ToleranceResult, p2) == 160);
    assert!(offset_of!(PQP_ToleranceResult, qsize) == 184);
};

/// A PQP model (opaque in C).
pub struct PQP_Model {
    state: c_int,
    triangles: ModelBuilder,
    built: Option<Model>,
    /// Leaf-order index of this model's triangle in the last closest pair (PQP's `last_tri`).
    last_tri: u32,
}

/// # Safety
/// `model` is NULL or a pointer the program got from `PQP_Model_new`.
unsafe fn model_mut<'a>(model: *mut PQP_Model) -> Result<&'a mut PQP_Model, c_int> {
    if model.is_null() {
        return Err(PQP_ERR_NULL_POINTER);
    }
    if !is_live(model) {
        return Err(PQP_ERR_INVALID_MODEL);
    }
    // SAFETY: the registry says it is a live PQP_Model.
    Ok(unsafe { &mut *model })
}

/// A new, empty model (NULL only when out of memory).
#[unsafe(no_mangle)]
pub extern "C" fn PQP_Model_new() -> *mut PQP_Model {
    guard(std::ptr::null_mut(), || {
        new_handle(PQP_Model { state: PQP_BUILD_STATE_EMPTY, triangles: ModelBuilder::new(), built: None, last_tri: 0 })
    })
}

/// Deletes a model. NULL is a no-op; a second delete of the same pointer is ignored.
///
/// # Safety
/// `m` is NULL or a pointer returned by `PQP_Model_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQP_Model_delete(m: *mut PQP_Model) {
    // SAFETY: free_handle ignores pointers that are not live.
    guard((), || unsafe { free_handle(m) })
}

/// Starts a model (`num_tris` is a capacity hint; ≤ 0 means 8). On a model that is not
/// empty it discards everything and returns `PQP_ERR_BUILD_OUT_OF_SEQUENCE`, as PQP.
///
/// # Safety
/// `m` is NULL or a pointer returned by `PQP_Model_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQP_BeginModel(m: *mut PQP_Model, num_tris: c_int) -> c_int {
    let _ = num_tris;
    guard(PQP_ERR_INTERNAL, || {
        // SAFETY: forwarded contract.
        let model = match unsafe { model_mut(m) } {
            Ok(model) => model,
            Err(code) => return code,
        };
        let code = if model.state == PQP_BUILD_STATE_EMPTY { PQP_OK } else { PQP_ERR_BUILD_OUT_OF_SEQUENCE };
        model.triangles.clear();
        model.built = None;
        model.last_tri = 0;
        model.state = PQP_BUILD_STATE_BEGUN;
        code
    })
}

/// Adds a triangle (begins the model if needed, as PQP). On a built model:
/// `PQP_ERR_BUILD_OUT_OF_SEQUENCE`, nothing added. NaN/infinite: `PQP_ERR_NON_FINITE`.
///
/// # Safety
/// `m` NULL or from `PQP_Model_new`; points NULL or 3 readable doubles each.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQP_AddTri(
    m: *mut PQP_Model,
    p1: *const f64,
    p2: *const f64,
    p3: *const f64,
    id: c_int,
) -> c_int {
    guard(PQP_ERR_INTERNAL, || {
        // SAFETY: forwarded contract.
        let model = match unsafe { model_mut(m) } {
            Ok(model) => model,
            Err(code) => return code,
        };
        if p1.is_null() || p2.is_null() || p3.is_null() {
            return PQP_ERR_NULL_POINTER;
        }
        if model.state == PQP_BUILD_STATE_PROCESSED {
            return PQP_ERR_BUILD_OUT_OF_SEQUENCE;
        }
        // SAFETY: 3 readable doubles each.
        let corners = unsafe { [read_array::<3>(p1), read_array::<3>(p2), read_array::<3>(p3)] };
        match model.triangles.add_triangle(corners.map(Vec3::from), id) {
            Ok(()) => {
                model.state = PQP_BUILD_STATE_BEGUN;
                PQP_OK
            }
            Err(BuildError::NonFiniteCoordinate) => PQP_ERR_NON_FINITE,
            Err(_) => PQP_ERR_MODEL_OUT_OF_MEMORY,
        }
    })
}

/// Builds the model. `PQP_ERR_BUILD_OUT_OF_SEQUENCE` if already built,
/// `PQP_ERR_BUILD_EMPTY_MODEL` if there are no triangles.
///
/// # Safety
/// `m` is NULL or a pointer returned by `PQP_Model_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQP_EndModel(m: *mut PQP_Model) -> c_int {
    guard(PQP_ERR_INTERNAL, || {
        // SAFETY: forwarded contract.
        let model = match unsafe { model_mut(m) } {
            Ok(model) => model,
            Err(code) => return code,
        };
        if model.state == PQP_BUILD_STATE_PROCESSED {
            return PQP_ERR_BUILD_OUT_OF_SEQUENCE;
        }
        match model.triangles.build() {
            Ok(built) => {
                model.built = Some(built);
                model.last_tri = 0;
                model.state = PQP_BUILD_STATE_PROCESSED;
                PQP_OK
            }
            Err(BuildError::EmptyModel) => PQP_ERR_BUILD_EMPTY_MODEL,
            Err(BuildError::NonFiniteCoordinate) => PQP_ERR_NON_FINITE,
            Err(BuildError::TooManyTriangles) => PQP_ERR_MODEL_OUT_OF_MEMORY,
        }
    })
}

/// Bytes used by the model (0 for NULL or a deleted model); with `msg` nonzero also prints
/// them to stderr.
///
/// # Safety
/// `m` is NULL or a pointer returned by `PQP_Model_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQP_MemUsage(m: *mut PQP_Model, msg: c_int) -> c_int {
    guard(0, || {
        // SAFETY: forwarded contract.
        let Ok(model) = (unsafe { model_mut(m) }) else {
            return 0;
        };
        let stored = model.triangles.len() * (std::mem::size_of::<crate::Triangle>() + 4);
        let bytes = stored + model.built.as_ref().map_or(0, |b| b.memory_bytes());
        if msg != 0 {
            eprintln!("PQP_Model {m:p}: {} triangles, {bytes} bytes", model.triangles.len());
        }
        bytes.min(c_int::MAX as usize) as c_int
    })
}

/// Frees the pair array of a collide result and sets its counts to 0.
///
/// # Safety
/// `result` is NULL or a result whose `pairs` is NULL or was allocated by this library.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQP_CollideResult_FreePairsList(result: *mut PQP_CollideResult) {
    guard((), || {
        // SAFETY: forwarded contract.
        if let Some(r) = unsafe { result.as_mut() } {
            // SAFETY: pairs is NULL or from libc::realloc below.
            unsafe { libc::free(r.pairs.cast()) };
            r.pairs = std::ptr::null_mut();
            r.num_pairs = 0;
            r.num_pairs_alloced = 0;
        }
    })
}

/// Checked query inputs. The models stay raw pointers: a program may pass the same model
/// twice, so no `&mut` to one may coexist with a borrow of the other.
struct Inputs {
    m1: *mut PQP_Model,
    m2: *mut PQP_Model,
    p1: Placement,
    p2: Placement,
}

/// Checks the models and reads the poses, in PQP's order (models first).
///
/// # Safety
/// As the query functions.
unsafe fn inputs(
    r1: *const [f64; 3],
    t1: *const f64,
    o1: *mut PQP_Model,
    r2: *const [f64; 3],
    t2: *const f64,
    o2: *mut PQP_Model,
) -> Result<Inputs, c_int> {
    // SAFETY: forwarded contract; each borrow ends within its statement.
    let built1 = unsafe { model_mut(o1) }?.built.is_some();
    // SAFETY: as above.
    let built2 = unsafe { model_mut(o2) }?.built.is_some();
    if !built1 || !built2 {
        return Err(PQP_ERR_UNPROCESSED_MODEL);
    }
    if r1.is_null() || t1.is_null() || r2.is_null() || t2.is_null() {
        return Err(PQP_ERR_NULL_POINTER);
    }
    let read = |r: *const [f64; 3], t: *const f64| {
        // SAFETY: 9 and 3 readable doubles per the contract.
        let (r, t) = unsafe { (read_array::<9>(r.cast()), read_array::<3>(t)) };
        Placement::from_rows(&[[r[0], r[1], r[2]], [r[3], r[4], r[5]], [r[6], r[7], r[8]]], &t, 1.0)
    };
    let (p1, p2) = (read(r1, t1), read(r2, t2));
    if !p1.is_valid() || !p2.is_valid() {
        return Err(PQP_ERR_NON_FINITE);
    }
    Ok(Inputs { m1: o1, m2: o2, p1, p2 })
}

impl Inputs {
    /// The two built models, borrowed shared.
    ///
    /// # Safety
    /// Both pointers were checked live by `inputs` and nothing writes them meanwhile.
    unsafe fn models(&self) -> (&Model, &Model) {
        // SAFETY: per the function's contract.
        let (m1, m2) = unsafe { (&*self.m1, &*self.m2) };
        (m1.built.as_ref().expect("checked"), m2.built.as_ref().expect("checked"))
    }
}

/// `R1ᵀ R2` and `R1ᵀ (T2 − T1)`, the relative placement every PQP result reports.
fn relative(p1: &Placement, p2: &Placement) -> ([[f64; 3]; 3], [f64; 3]) {
    let r: Mat3 = p1.rotation.transpose() * p2.rotation;
    let t = p1.rotation.transpose() * (p2.translation - p1.translation);
    let mut rows = [[0.0; 3]; 3];
    for (i, row) in rows.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = r[(i, j)];
        }
    }
    (rows, [t.x, t.y, t.z])
}

/// PQP's queue size: below 2 means 2 (the default search order); capped so a huge value cannot make
/// the queue's first allocation fail.
fn clamp_qsize(qsize: c_int) -> usize {
    qsize.clamp(2, 1 << 16) as usize
}

fn count(n: u64) -> c_int {
    n.min(c_int::MAX as u64) as c_int
}

/// Finds the intersecting triangle pairs of two placed models (`flag` `PQP_FIRST_CONTACT`
/// stops at the first). Returns `PQP_OK`, `PQP_ERR_UNPROCESSED_MODEL` (nothing written),
/// or a rapidpqp code for NULL pointers, deleted models or NaN poses, and
/// `PQP_ERR_INVALID_ARGUMENT` for coordinates beyond the supported range (README).
///
/// # Safety
/// `result` NULL or a zero-filled or previously used result; rotations NULL or 9 doubles;
/// translations NULL or 3; models NULL or from `PQP_Model_new`. Not for concurrent use.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQP_Collide(
    result: *mut PQP_CollideResult,
    R1: *mut [f64; 3],
    T1: *mut f64,
    o1: *mut PQP_Model,
    R2: *mut [f64; 3],
    T2: *mut f64,
    o2: *mut PQP_Model,
    flag: c_int,
) -> c_int {
    guard(PQP_ERR_INTERNAL, || {
        let start = Instant::now();
        // SAFETY: forwarded contract.
        let input = match unsafe { inputs(R1, T1, o1, R2, T2, o2) } {
            Ok(i) => i,
            Err(code) => return code,
        };
        // SAFETY: forwarded contract.
        let Some(res) = (unsafe { result.as_mut() }) else {
            return PQP_ERR_NULL_POINTER;
        };
        let request = CollideRequest {
            first_contact: flag == PQP_FIRST_CONTACT,
            frame: TriangleFrame::Model1,
            ..CollideRequest::default()
        };
        let mut out = CollideResult::new();
        // SAFETY: checked live by `inputs`; only shared borrows during the query.
        let (b1, b2) = unsafe { input.models() };
        if collide::collide(b1, &input.p1, b2, &input.p2, &request, &mut out).is_err() {
            return PQP_ERR_INVALID_ARGUMENT;
        }
        // Grow the pair array as PQP does (capacity 2·n + 8 when full).
        let needed = out.pairs.len();
        if needed > res.num_pairs_alloced.max(0) as usize {
            let mut capacity = res.num_pairs_alloced.max(0) as usize;
            while capacity < needed {
                capacity = 2 * capacity + 8;
            }
            // SAFETY: pairs is NULL or from a previous realloc here.
            let grown = unsafe { libc::realloc(res.pairs.cast(), capacity * std::mem::size_of::<CollisionPair>()) };
            if grown.is_null() {
                return PQP_ERR_OUT_OF_MEMORY;
            }
            res.pairs = grown.cast();
            res.num_pairs_alloced = capacity.min(c_int::MAX as usize) as c_int;
        }
        for (k, p) in out.pairs.iter().enumerate() {
            // SAFETY: k < needed ≤ capacity.
            unsafe { *res.pairs.add(k) = CollisionPair { id1: p.id1, id2: p.id2 } };
        }
        res.num_pairs = needed as c_int;
        res.num_bv_tests = count(out.bv_tests);
        res.num_tri_tests = count(out.tri_tests);
        (res.R, res.T) = relative(&input.p1, &input.p2);
        res.query_time_secs = start.elapsed().as_secs_f64();
        PQP_OK
    })
}

/// Writes the fields `PQP_DistanceResult` and `PQP_ToleranceResult` share (work counts,
/// relative pose, distance, closest points, queue size, time) from a query's result.
macro_rules! write_distance_fields {
    ($res:expr, $r:expr, $input:expr, $qsize:expr, $start:expr) => {
        $res.num_bv_tests = count($r.bv_tests);
        $res.num_tri_tests = count($r.tri_tests);
        ($res.R, $res.T) = relative(&$input.p1, &$input.p2);
        $res.distance = $r.distance;
        $res.p1 = [$r.p1.x, $r.p1.y, $r.p1.z];
        $res.p2 = [$r.p2.x, $r.p2.y, $r.p2.z];
        if $qsize > 2 {
            $res.qsize = $qsize;
        }
        $res.query_time_secs = $start.elapsed().as_secs_f64();
    };
}

/// The distance between two placed models with closest points (`p1` in model 1's frame,
/// `p2` in model 2's), within `rel_err`/`abs_err` (the smaller bound wins, as PQP).
/// `qsize` ≤ 2: best first down to the first leaf pair, then depth first (the answer is
/// PQP's, only the work differs); more: best first with a queue of `qsize` pairs. The warm
/// start is kept in the models, as PQP. Negative or NaN error bounds: `PQP_ERR_INVALID_ARGUMENT`, nothing written.
///
/// # Safety
/// As `PQP_Collide`, with a writable `result`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQP_Distance(
    result: *mut PQP_DistanceResult,
    R1: *mut [f64; 3],
    T1: *mut f64,
    o1: *mut PQP_Model,
    R2: *mut [f64; 3],
    T2: *mut f64,
    o2: *mut PQP_Model,
    rel_err: f64,
    abs_err: f64,
    qsize: c_int,
) -> c_int {
    guard(PQP_ERR_INTERNAL, || {
        let start = Instant::now();
        // SAFETY: forwarded contract.
        let input = match unsafe { inputs(R1, T1, o1, R2, T2, o2) } {
            Ok(i) => i,
            Err(code) => return code,
        };
        if result.is_null() {
            return PQP_ERR_NULL_POINTER;
        }
        let valid = |e: f64| !e.is_nan() && e >= 0.0;
        if !valid(rel_err) || !valid(abs_err) {
            return PQP_ERR_INVALID_ARGUMENT;
        }
        // SAFETY: both checked live by `inputs`.
        let last = unsafe { ((*input.m1).last_tri, (*input.m2).last_tri) };
        let mut cache = DistanceCache { last_pair: Some(last) };
        let request = DistanceRequest { rel_err, abs_err, qsize: clamp_qsize(qsize) };
        let r = {
            // SAFETY: checked live; only shared borrows during the query.
            let (b1, b2) = unsafe { input.models() };
            distance::distance(b1, &input.p1, b2, &input.p2, &request, Some(&mut cache))
        };
        if let Some((t1, t2)) = cache.last_pair {
            // SAFETY: both live, no borrow outstanding; the same model twice gets both writes,
            // as PQP's.
            unsafe {
                (*input.m1).last_tri = t1;
                (*input.m2).last_tri = t2;
            }
        }
        // SAFETY: checked non-NULL; writable per the contract.
        let res = unsafe { &mut *result };
        res.rel_err = rel_err;
        res.abs_err = abs_err;
        write_distance_fields!(res, r, input, qsize, start);
        PQP_OK
    })
}

/// Whether two placed models are at most `tolerance` apart (inclusive; negative counts as 0
/// and is stored as 0). Stops at the first triangle pair within the tolerance.
///
/// # Safety
/// As `PQP_Collide`, with a writable `result`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQP_Tolerance(
    result: *mut PQP_ToleranceResult,
    R1: *mut [f64; 3],
    T1: *mut f64,
    o1: *mut PQP_Model,
    R2: *mut [f64; 3],
    T2: *mut f64,
    o2: *mut PQP_Model,
    tolerance: f64,
    qsize: c_int,
) -> c_int {
    guard(PQP_ERR_INTERNAL, || {
        let start = Instant::now();
        // SAFETY: forwarded contract.
        let input = match unsafe { inputs(R1, T1, o1, R2, T2, o2) } {
            Ok(i) => i,
            Err(code) => return code,
        };
        if result.is_null() {
            return PQP_ERR_NULL_POINTER;
        }
        if tolerance.is_nan() {
            return PQP_ERR_NON_FINITE;
        }
        let tolerance = tolerance.max(0.0);
        let r = {
            // SAFETY: checked live; only shared borrows during the query.
            let (b1, b2) = unsafe { input.models() };
            distance::tolerance(b1, &input.p1, b2, &input.p2, tolerance, clamp_qsize(qsize))
        };
        // SAFETY: checked non-NULL; writable per the contract.
        let res = unsafe { &mut *result };
        res.closer_than_tolerance = c_int::from(r.closer);
        res.tolerance = tolerance;
        write_distance_fields!(res, r, input, qsize, start);
        PQP_OK
    })
}
