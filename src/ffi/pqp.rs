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

use super::clock::Stopwatch;
use super::handle::{self, AddressSet, Handle, Kind};
use super::pose::queue_size;
use super::{Exclusive, PoseError, guard, read_legacy_pose};
use crate::math::{Placement, Vec3};
use crate::model::{BuildError, Model, ModelBuilder};
use crate::query::collide::{self, CollideRequest, CollideResult, TriangleFrame};
use crate::query::distance::{self, DistanceCache, DistanceRequest};

/// Success.
pub const PQP_OK: c_int = 0;
/// Memory could not be allocated while building a model.
pub const PQP_ERR_MODEL_OUT_OF_MEMORY: c_int = -1;
/// A query's result could not grow (the pair array of `PQP_Collide`); the result is unchanged.
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
/// rapidpqp only: a rotation is plainly not one: some entry of `RᵀR − I` exceeds 1e-3 in
/// magnitude (a zero, scaled or sheared matrix, for which PQP silently computed answers of no
/// placement at all); nothing changed. Rotations that drift by rounding or were written with 6
/// decimals are far inside the bound; reflections are accepted.
pub const PQP_ERR_NOT_ROTATION: c_int = -11;
/// rapidpqp only: a coordinate, placed in the other model's frame, would exceed 2^1000
/// (about 1e301), or the relative scale leaves [2^-1000, 2^1000] (the supported range, see
/// the README); nothing changed.
pub const PQP_ERR_OUT_OF_RANGE: c_int = -12;

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
/// release the pair array with `PQP_CollideResult_FreePairsList`. The library keeps track of
/// the arrays it allocated: a copy of a result whose array was freed through another copy counts
/// as empty (its stale `pairs` is dropped, never freed or written).
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

/// A PQP model (opaque in C): the triangles added so far, then (after `PQP_EndModel`, which
/// moves them into it) the built hierarchy.
pub struct PQP_Model {
    state: c_int,
    triangles: ModelBuilder,
    built: Option<Model>,
    /// Leaf-order index of this model's triangle in the last closest pair (PQP's `last_tri`).
    last_tri: u32,
    /// The distance of that pair when it was found (NaN: none yet); tells coherent steps.
    last_distance: f64,
}

// SAFETY: the only type of kind PqpModel.
unsafe impl Handle for PQP_Model {
    const KIND: Kind = Kind::PqpModel;
}

/// What `PQP_Model`'s members do; the C functions and the C++ members (`super::cxx::pqp`) both
/// call these.
impl PQP_Model {
    pub(crate) fn new() -> PQP_Model {
        PQP_Model {
            state: PQP_BUILD_STATE_EMPTY,
            triangles: ModelBuilder::new(),
            built: None,
            last_tri: 0,
            last_distance: f64::NAN,
        }
    }

    /// `BeginModel`: discards everything; `PQP_ERR_BUILD_OUT_OF_SEQUENCE` when the model was
    /// not empty (restarted all the same, as PQP).
    pub(crate) fn begin(&mut self) -> c_int {
        let code = if self.state == PQP_BUILD_STATE_EMPTY { PQP_OK } else { PQP_ERR_BUILD_OUT_OF_SEQUENCE };
        self.triangles = ModelBuilder::new();
        self.built = None;
        self.last_tri = 0;
        self.last_distance = f64::NAN;
        self.state = PQP_BUILD_STATE_BEGUN;
        code
    }

    /// `AddTri` with corners already read.
    pub(crate) fn add_tri(&mut self, corners: [Vec3; 3], id: c_int) -> c_int {
        if self.state == PQP_BUILD_STATE_PROCESSED {
            return PQP_ERR_BUILD_OUT_OF_SEQUENCE;
        }
        if self.triangles.try_reserve(1).is_err() {
            return PQP_ERR_MODEL_OUT_OF_MEMORY;
        }
        match self.triangles.add_triangle(corners, id) {
            Ok(()) => {
                self.state = PQP_BUILD_STATE_BEGUN;
                PQP_OK
            }
            Err(BuildError::NonFiniteCoordinate) => PQP_ERR_NON_FINITE,
            Err(BuildError::OutOfRange) => PQP_ERR_OUT_OF_RANGE,
            Err(_) => PQP_ERR_MODEL_OUT_OF_MEMORY,
        }
    }

    /// `EndModel`: builds the hierarchy; the triangles move into it (no copy is kept).
    pub(crate) fn end(&mut self) -> c_int {
        if self.state == PQP_BUILD_STATE_PROCESSED {
            return PQP_ERR_BUILD_OUT_OF_SEQUENCE;
        }
        if self.triangles.is_empty() {
            return PQP_ERR_BUILD_EMPTY_MODEL;
        }
        match self.triangles.finish() {
            Ok(built) => {
                self.triangles = ModelBuilder::new();
                self.built = Some(built);
                self.last_tri = 0;
                self.state = PQP_BUILD_STATE_PROCESSED;
                PQP_OK
            }
            Err(BuildError::EmptyModel) => PQP_ERR_BUILD_EMPTY_MODEL,
            Err(BuildError::NonFiniteCoordinate) => PQP_ERR_NON_FINITE,
            Err(BuildError::OutOfRange) => PQP_ERR_OUT_OF_RANGE,
            // (A builder pairs every triangle with its id and names no vertex indices.)
            Err(BuildError::TooManyTriangles | BuildError::IdCountMismatch { .. } | BuildError::IndexOutOfRange) => {
                PQP_ERR_MODEL_OUT_OF_MEMORY
            }
        }
    }

    /// Bytes the model holds: this object, the triangles added so far or the built model.
    pub(crate) fn memory_bytes(&self) -> usize {
        std::mem::size_of::<PQP_Model>()
            + self.triangles.memory_bytes()
            + self.built.as_ref().map_or(0, |b| b.memory_bytes() - std::mem::size_of::<Model>())
    }
}

/// The three corners of an `AddTri` call; `PQP_ERR_NULL_POINTER` when one is NULL.
///
/// # Safety
/// Each point is NULL or 3 readable doubles.
#[inline]
pub(crate) unsafe fn read_corners(p1: *const f64, p2: *const f64, p3: *const f64) -> Result<[Vec3; 3], c_int> {
    if p1.is_null() || p2.is_null() || p3.is_null() {
        return Err(PQP_ERR_NULL_POINTER);
    }
    // SAFETY: 3 readable doubles each.
    let read = |p: *const f64| Vec3::from(unsafe { p.cast::<[f64; 3]>().read() });
    Ok([read(p1), read(p2), read(p3)])
}

/// A C model handle checked: `PQP_ERR_NULL_POINTER` for NULL, `PQP_ERR_INVALID_MODEL` for
/// anything that is not a live `PQP_Model` (deleted, foreign, another kind of handle). Nothing
/// is read through an invalid handle.
#[inline(always)]
fn model_ptr(model: *mut PQP_Model) -> Result<*mut PQP_Model, c_int> {
    if model.is_null() {
        return Err(PQP_ERR_NULL_POINTER);
    }
    handle::get(model).map(|p| p.as_ptr()).ok_or(PQP_ERR_INVALID_MODEL)
}

/// Runs `f` on a checked C model handle, or returns the handle's error code.
fn with_model(model: *mut PQP_Model, f: impl FnOnce(&mut PQP_Model) -> c_int) -> c_int {
    match model_ptr(model) {
        // SAFETY: a live PQP_Model; the legacy layer is not for concurrent use.
        Ok(m) => f(unsafe { &mut *m }),
        Err(code) => code,
    }
}

/// A new, empty model (NULL only when out of memory).
#[unsafe(no_mangle)]
pub extern "C" fn PQP_Model_new() -> *mut PQP_Model {
    guard(std::ptr::null_mut(), || handle::create(PQP_Model::new()).unwrap_or(std::ptr::null_mut()))
}

/// Deletes a model. NULL is a no-op; anything that is not a live model (deleted already,
/// foreign, another kind of handle) is ignored.
///
/// # Safety
/// No query using `m` is running.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQP_Model_delete(m: *mut PQP_Model) {
    guard((), || {
        handle::destroy(m);
    })
}

/// Starts a model (`num_tris` is a capacity hint; ≤ 0 means 8). On a model that is not
/// empty it discards everything and returns `PQP_ERR_BUILD_OUT_OF_SEQUENCE`, as PQP.
///
/// # Safety
/// `m` is not deleted during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQP_BeginModel(m: *mut PQP_Model, num_tris: c_int) -> c_int {
    let _ = num_tris;
    guard(PQP_ERR_INTERNAL, || with_model(m, PQP_Model::begin))
}

/// Adds a triangle (begins the model if needed, as PQP). On a built model:
/// `PQP_ERR_BUILD_OUT_OF_SEQUENCE`, nothing added. NaN/infinite: `PQP_ERR_NON_FINITE`; beyond
/// 2^1000 (about 1.07e301): `PQP_ERR_OUT_OF_RANGE`; nothing added.
///
/// # Safety
/// `m` is not deleted during the call; points NULL or 3 readable doubles each.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQP_AddTri(
    m: *mut PQP_Model,
    p1: *const f64,
    p2: *const f64,
    p3: *const f64,
    id: c_int,
) -> c_int {
    guard(PQP_ERR_INTERNAL, || {
        with_model(m, |model| {
            // SAFETY: forwarded contract.
            match unsafe { read_corners(p1, p2, p3) } {
                Ok(corners) => model.add_tri(corners, id),
                Err(code) => code,
            }
        })
    })
}

/// Builds the model; its triangles move into the hierarchy (no copy is kept).
/// `PQP_ERR_BUILD_OUT_OF_SEQUENCE` if already built, `PQP_ERR_BUILD_EMPTY_MODEL` if there are
/// no triangles.
///
/// # Safety
/// `m` is not deleted during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQP_EndModel(m: *mut PQP_Model) -> c_int {
    guard(PQP_ERR_INTERNAL, || with_model(m, PQP_Model::end))
}

/// Bytes the model holds (0 for NULL or a deleted model): before `PQP_EndModel` the triangles
/// added so far, after it the built hierarchy (triangles, ids, nodes). `msg` is accepted and
/// ignored: PQP printed a report when it was nonzero, but this library never prints.
///
/// # Safety
/// `m` is not deleted during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQP_MemUsage(m: *mut PQP_Model, msg: c_int) -> c_int {
    let _ = msg;
    guard(0, || match model_ptr(m) {
        // SAFETY: a live PQP_Model.
        Ok(model) => c_int::try_from(unsafe { &*model }.memory_bytes()).unwrap_or(c_int::MAX),
        Err(_) => 0,
    })
}

/// Frees the pair array of a collide result and sets its counts to 0. A `pairs` that is not a
/// live array of this library (freed already through a copy of the result) is not freed.
///
/// # Safety
/// `result` is NULL or a writable result.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQP_CollideResult_FreePairsList(result: *mut PQP_CollideResult) {
    guard((), || {
        // SAFETY: forwarded contract.
        if let Some(r) = unsafe { result.as_mut() } {
            free_pairs(r);
        }
    })
}

/// Checked query inputs. The models stay raw pointers: a program may pass the same model
/// twice, so no `&mut` to one may coexist with a borrow of the other.
pub(crate) struct Inputs<'a> {
    m1: *mut PQP_Model,
    m2: *mut PQP_Model,
    b1: &'a Model,
    b2: &'a Model,
    p1: Placement,
    p2: Placement,
}

/// Checks the models (live, already checked by the caller) are built and reads the poses, in
/// PQP's order.
///
/// # Safety
/// `m1`, `m2` are live models not deleted during the query; each pose pointer is NULL or
/// readable (9 doubles for a rotation, 3 for a translation).
#[inline(always)]
unsafe fn inputs<'a>(
    r1: *const [f64; 3],
    t1: *const f64,
    m1: *mut PQP_Model,
    r2: *const [f64; 3],
    t2: *const f64,
    m2: *mut PQP_Model,
) -> Result<Inputs<'a>, c_int> {
    // SAFETY: live models; shared borrows only (the same model may be both).
    let (Some(b1), Some(b2)) = (unsafe { (*m1).built.as_ref() }, unsafe { (*m2).built.as_ref() }) else {
        return Err(PQP_ERR_UNPROCESSED_MODEL);
    };
    if r1.is_null() || t1.is_null() || r2.is_null() || t2.is_null() {
        return Err(PQP_ERR_NULL_POINTER);
    }
    let code = |e: PoseError| match e {
        PoseError::NotRotation => PQP_ERR_NOT_ROTATION,
        PoseError::NonFinite | PoseError::InvalidScale => PQP_ERR_NON_FINITE,
    };
    // SAFETY: non-NULL and readable per the contract.
    let (p1, p2) = unsafe { (read_legacy_pose(r1, t1, 1.0), read_legacy_pose(r2, t2, 1.0)) };
    match (p1, p2) {
        (Ok(p1), Ok(p2)) => Ok(Inputs { m1, m2, b1, b2, p1, p2 }),
        (Err(PoseError::NonFinite), _) | (_, Err(PoseError::NonFinite)) => Err(PQP_ERR_NON_FINITE),
        (Err(e), _) | (_, Err(e)) => Err(code(e)),
    }
}

/// The pose and model arguments every PQP query takes, the models already checked live (the
/// same model may be both).
pub(crate) struct Placed {
    pub(crate) r1: *const [f64; 3],
    pub(crate) t1: *const f64,
    pub(crate) m1: *mut PQP_Model,
    pub(crate) r2: *const [f64; 3],
    pub(crate) t2: *const f64,
    pub(crate) m2: *mut PQP_Model,
}

/// [`inputs`], then the result pointer (writable, not NULL): the checks every query makes, in
/// PQP's order.
///
/// # Safety
/// `args` as [`inputs`] wants them; `result` is NULL or writable and not otherwise borrowed.
#[inline(always)]
unsafe fn query_inputs<'a, T>(args: &Placed, result: *mut T) -> Result<(Inputs<'a>, &'a mut T), c_int> {
    // SAFETY: forwarded contract.
    let input = unsafe { inputs(args.r1, args.t1, args.m1, args.r2, args.t2, args.m2) }?;
    // SAFETY: forwarded contract.
    let res = unsafe { result.as_mut() }.ok_or(PQP_ERR_NULL_POINTER)?;
    Ok((input, res))
}

/// `R1ᵀ R2` and `R1ᵀ (T2 − T1)`, the relative placement every PQP result reports: the
/// numbers of `Relative::between` (the same products, summed in the same order), written out
/// inline where that function would be a second call.
#[inline(always)]
fn relative(p1: &Placement, p2: &Placement) -> ([[f64; 3]; 3], [f64; 3]) {
    // Column i of a rotation is `as_slice()[3i..3i + 3]` (column-major storage).
    let (a, b) = (p1.rotation.as_slice(), p2.rotation.as_slice());
    let dot = |u: &[f64], v: &[f64]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    let (a0, a1, a2) = (&a[0..3], &a[3..6], &a[6..9]);
    let (b0, b1, b2) = (&b[0..3], &b[3..6], &b[6..9]);
    let d = p2.translation - p1.translation;
    let d = [d.x, d.y, d.z];
    (
        [
            [dot(a0, b0), dot(a0, b1), dot(a0, b2)],
            [dot(a1, b0), dot(a1, b1), dot(a1, b2)],
            [dot(a2, b0), dot(a2, b1), dot(a2, b2)],
        ],
        [dot(a0, &d), dot(a1, &d), dot(a2, &d)],
    )
}

fn count(n: u64) -> c_int {
    n.min(c_int::MAX as u64) as c_int
}

/// The collide query's buffers, kept between calls (the legacy layer is not for concurrent use;
/// a second thread that finds them taken uses its own).
static COLLIDE_SCRATCH: Exclusive<CollideResult> = Exclusive::new();

/// The live `pairs` arrays of collide results (allocated by this library and not freed since),
/// so that a result copied by value (C struct assignment, C++'s implicit copy constructor) and
/// freed through one copy never has its array freed or written again through the other.
static PAIRS: AddressSet = AddressSet::new();

/// Forgets a `pairs` array that is not live (freed through a copy of this result, or never
/// allocated here): the result then counts as empty. Nothing is read through a dead array.
pub(crate) fn adopt_pairs(res: &mut PQP_CollideResult) {
    if !res.pairs.is_null() && !PAIRS.contains(res.pairs as usize) {
        res.pairs = std::ptr::null_mut();
    }
    if res.pairs.is_null() {
        res.num_pairs = 0;
        res.num_pairs_alloced = 0;
    }
}

/// Resizes an adopted result's pair array to exactly `n` entries (`n >= num_pairs`, 0 frees
/// it); false when out of memory (nothing changed). (If the new address cannot be recorded,
/// for want of memory, the array is later taken for a dead one and leaked, never freed twice.)
pub(crate) fn resize_pairs(res: &mut PQP_CollideResult, n: usize) -> bool {
    let old = res.pairs;
    let new = if n == 0 {
        // SAFETY: `pairs` is NULL or a live array from malloc/realloc (see `adopt_pairs`).
        unsafe { libc::free(old.cast()) };
        std::ptr::null_mut()
    } else {
        let Some(bytes) = n.checked_mul(std::mem::size_of::<CollisionPair>()) else {
            return false;
        };
        // SAFETY: as above.
        let new = unsafe { libc::realloc(old.cast(), bytes) }.cast::<CollisionPair>();
        if new.is_null() {
            return false;
        }
        new
    };
    if old != new {
        if !old.is_null() {
            PAIRS.remove(old as usize);
        }
        if !new.is_null() {
            PAIRS.insert(new as usize);
        }
    }
    res.pairs = new;
    res.num_pairs_alloced = n.min(c_int::MAX as usize) as c_int;
    true
}

/// Frees an adopted result's pair array and sets its counts to 0.
pub(crate) fn free_pairs(res: &mut PQP_CollideResult) {
    adopt_pairs(res);
    resize_pairs(res, 0);
    res.num_pairs = 0;
}

/// Copies `pairs` into the result's array, growing it as PQP does (capacity `2n + 8` when
/// full); `PQP_ERR_OUT_OF_MEMORY` with the counts unchanged when it cannot grow. Nothing is
/// allocated when the array has room.
fn write_pairs(res: &mut PQP_CollideResult, pairs: &[collide::ContactPair]) -> Result<(), c_int> {
    adopt_pairs(res);
    let needed = pairs.len();
    let alloced = res.num_pairs_alloced.max(0) as usize;
    if needed > alloced {
        let mut capacity = alloced;
        while capacity < needed {
            capacity = 2 * capacity + 8;
        }
        if !resize_pairs(res, capacity.min(c_int::MAX as usize)) {
            return Err(PQP_ERR_OUT_OF_MEMORY);
        }
    }
    if needed > 0 {
        // SAFETY: `pairs` has room for `needed`; both types are two C ints (ContactPair is
        // repr(C) with id1, id2), and the query's buffer cannot overlap the result's array.
        unsafe { std::ptr::copy_nonoverlapping(pairs.as_ptr().cast::<CollisionPair>(), res.pairs, needed) };
    }
    res.num_pairs = needed as c_int;
    Ok(())
}

/// `PQP_Collide` on checked models (shared by the C function and the C++ one).
///
/// # Safety
/// `args.m1`, `args.m2` are live models (possibly the same); the other pointers as
/// `PQP_Collide`'s.
#[inline(always)]
pub(crate) unsafe fn collide_models(
    watch: Stopwatch,
    result: *mut PQP_CollideResult,
    args: &Placed,
    flag: c_int,
) -> c_int {
    // SAFETY: forwarded contract.
    let (input, res) = match unsafe { query_inputs(args, result) } {
        Ok(checked) => checked,
        Err(code) => return code,
    };
    let request = CollideRequest {
        first_contact: flag == PQP_FIRST_CONTACT,
        frame: TriangleFrame::Model1,
        ..CollideRequest::default()
    };
    let mut query = |out: &mut CollideResult| {
        collide::collide_placed(input.b1, &input.p1, input.b2, &input.p2, &request, out)
            .map_err(|_| PQP_ERR_OUT_OF_RANGE)?;
        write_pairs(res, &out.pairs).map(|()| (out.bv_tests, out.tri_tests))
    };
    let counts = match COLLIDE_SCRATCH.try_with(CollideResult::new, &mut query) {
        Some(r) => r,
        None => query(&mut CollideResult::new()),
    };
    let (bv_tests, tri_tests) = match counts {
        Ok(c) => c,
        Err(code) => return code,
    };
    res.num_bv_tests = count(bv_tests);
    res.num_tri_tests = count(tri_tests);
    (res.R, res.T) = relative(&input.p1, &input.p2);
    res.query_time_secs = watch.seconds();
    PQP_OK
}

/// Finds the intersecting triangle pairs of two placed models (`flag` `PQP_FIRST_CONTACT`
/// stops at the first). Returns `PQP_OK`, `PQP_ERR_UNPROCESSED_MODEL` (nothing written),
/// `PQP_ERR_OUT_OF_MEMORY` (the pair array could not grow; nothing written), or a rapidpqp
/// code for NULL pointers, deleted models or NaN poses, and `PQP_ERR_OUT_OF_RANGE` for
/// coordinates beyond the supported range (README).
///
/// # Safety
/// `result` NULL or a zero-filled or previously used result; rotations NULL or 9 doubles;
/// translations NULL or 3; models not deleted during the call. Not for concurrent use.
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
        let watch = Stopwatch::start();
        match (model_ptr(o1), model_ptr(o2)) {
            // SAFETY: checked live; forwarded contract.
            (Ok(m1), Ok(m2)) => unsafe {
                collide_models(watch, result, &Placed { r1: R1, t1: T1, m1, r2: R2, t2: T2, m2 }, flag)
            },
            (Err(code), _) | (_, Err(code)) => code,
        }
    })
}

/// Writes the fields `PQP_DistanceResult` and `PQP_ToleranceResult` share (work counts,
/// relative pose, distance, closest points, queue size, time) from a query's result.
macro_rules! write_distance_fields {
    ($res:expr, $r:expr, $input:expr, $qsize:expr, $watch:expr) => {
        $res.num_bv_tests = count($r.bv_tests);
        $res.num_tri_tests = count($r.tri_tests);
        ($res.R, $res.T) = relative(&$input.p1, &$input.p2);
        $res.distance = $r.distance;
        $res.p1 = [$r.p1.x, $r.p1.y, $r.p1.z];
        $res.p2 = [$r.p2.x, $r.p2.y, $r.p2.z];
        // (PQP stored it only for qsize > 2; the queue size asked for is recorded always.)
        $res.qsize = $qsize;
        $res.query_time_secs = $watch.seconds();
    };
}

/// `PQP_Distance` on checked models (shared by the C function and the C++ one).
///
/// # Safety
/// `args.m1`, `args.m2` are live models (possibly the same); the other pointers as
/// `PQP_Distance`'s.
#[inline(always)]
pub(crate) unsafe fn distance_models(
    watch: Stopwatch,
    result: *mut PQP_DistanceResult,
    args: &Placed,
    rel_err: f64,
    abs_err: f64,
    qsize: c_int,
) -> c_int {
    // SAFETY: forwarded contract.
    let (input, res) = match unsafe { query_inputs(args, result) } {
        Ok(checked) => checked,
        Err(code) => return code,
    };
    let valid = |e: f64| !e.is_nan() && e >= 0.0;
    if !valid(rel_err) || !valid(abs_err) {
        return PQP_ERR_INVALID_ARGUMENT;
    }
    // SAFETY: both live; plain reads.
    let (last, previous) = unsafe { (((*input.m1).last_tri, (*input.m2).last_tri), (*input.m1).last_distance) };
    let mut cache = DistanceCache { last_pair: Some(last) };
    let request = DistanceRequest { rel_err, abs_err, qsize: queue_size(qsize, input.b1, input.b2) };
    let previous = previous.is_finite().then_some(previous);
    let Ok(r) =
        distance::distance_after(input.b1, &input.p1, input.b2, &input.p2, &request, Some(&mut cache), previous)
    else {
        return PQP_ERR_OUT_OF_RANGE;
    };
    if let Some((t1, t2)) = cache.last_pair {
        // SAFETY: both live; the borrows of the built models do not cover `last_tri`. The same
        // model twice gets both writes, as PQP's.
        unsafe {
            (*input.m1).last_tri = t1;
            (*input.m2).last_tri = t2;
            (*input.m1).last_distance = r.distance;
            (*input.m2).last_distance = r.distance;
        }
    }
    res.rel_err = rel_err;
    res.abs_err = abs_err;
    write_distance_fields!(res, r, input, qsize, watch);
    PQP_OK
}

/// The distance between two placed models with closest points (`p1` in model 1's frame,
/// `p2` in model 2's), within `rel_err`/`abs_err` (the smaller bound wins, as PQP; an
/// infinite bound is accepted and means any distance is good enough).
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
        let watch = Stopwatch::start();
        match (model_ptr(o1), model_ptr(o2)) {
            // SAFETY: checked live; forwarded contract.
            (Ok(m1), Ok(m2)) => unsafe {
                let args = Placed { r1: R1, t1: T1, m1, r2: R2, t2: T2, m2 };
                distance_models(watch, result, &args, rel_err, abs_err, qsize)
            },
            (Err(code), _) | (_, Err(code)) => code,
        }
    })
}

/// `PQP_Tolerance` on checked models (shared by the C function and the C++ one).
///
/// # Safety
/// `args.m1`, `args.m2` are live models (possibly the same); the other pointers as
/// `PQP_Tolerance`'s.
#[inline(always)]
pub(crate) unsafe fn tolerance_models(
    watch: Stopwatch,
    result: *mut PQP_ToleranceResult,
    args: &Placed,
    tolerance: f64,
    qsize: c_int,
) -> c_int {
    // SAFETY: forwarded contract.
    let (input, res) = match unsafe { query_inputs(args, result) } {
        Ok(checked) => checked,
        Err(code) => return code,
    };
    if tolerance.is_nan() {
        return PQP_ERR_NON_FINITE;
    }
    let tolerance = tolerance.max(0.0);
    // The models' warm start (PQP's `last_tri`) serves tolerance queries too: a pair within the
    // tolerance answers at once; the pair found when closer is kept.
    // SAFETY: both live; plain reads.
    let last = unsafe { ((*input.m1).last_tri, (*input.m2).last_tri) };
    let mut cache = DistanceCache { last_pair: Some(last) };
    let qsize_used = queue_size(qsize, input.b1, input.b2);
    let Ok(r) =
        distance::tolerance_placed(input.b1, &input.p1, input.b2, &input.p2, tolerance, qsize_used, Some(&mut cache))
    else {
        return PQP_ERR_OUT_OF_RANGE;
    };
    if let (true, Some((t1, t2))) = (r.closer, cache.last_pair) {
        // SAFETY: as in `distance_models`.
        unsafe {
            (*input.m1).last_tri = t1;
            (*input.m2).last_tri = t2;
            (*input.m1).last_distance = r.distance;
            (*input.m2).last_distance = r.distance;
        }
    }
    res.closer_than_tolerance = c_int::from(r.closer);
    res.tolerance = tolerance;
    write_distance_fields!(res, r, input, qsize, watch);
    PQP_OK
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
        let watch = Stopwatch::start();
        match (model_ptr(o1), model_ptr(o2)) {
            // SAFETY: checked live; forwarded contract.
            (Ok(m1), Ok(m2)) => unsafe {
                tolerance_models(watch, result, &Placed { r1: R1, t1: T1, m1, r2: R2, t2: T2, m2 }, tolerance, qsize)
            },
            (Err(code), _) | (_, Err(code)) => code,
        }
    })
}
