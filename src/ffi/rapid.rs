//! The legacy RAPID 2.01 interface, callable from C: the same names, codes, globals and
//! behaviour as RAPID (see `RAPID.md` §2), as a thin layer over the native core.
//!
//! Differences on purpose, all documented in the header: input RAPID never checked (NULL
//! pointers, NaN or infinite numbers, a non-positive scale, a deleted model) gets a new error
//! code and changes nothing; deleting a model twice is ignored; zero-area triangles take part
//! in contacts (RAPID silently never reports them); contacts between tiny features far from
//! the origin are not lost to rounding.
//!
//! Like RAPID's, the results live in shared globals: this layer is not for concurrent use.
//! Threads should use the native `rpq_*` API.
#![allow(non_camel_case_types, non_upper_case_globals)]

use std::ffi::{CStr, c_int};
use std::sync::OnceLock;

use super::handle::{self, Handle, Kind};
use super::pqp::read_corners;
use super::{Exclusive, PoseError, guard, read_legacy_pose};
use crate::model::{BuildError, Model, ModelBuilder};
use crate::query::collide::{self, CollideRequest, CollideResult, TriangleFrame};

/// Success.
pub const RAPID_OK: c_int = 0;
/// Memory could not be allocated while storing or building a model.
pub const RAPID_ERR_MODEL_OUT_OF_MEMORY: c_int = 1;
/// Memory could not be allocated while growing the contact list.
pub const RAPID_ERR_COLLIDE_OUT_OF_MEMORY: c_int = 2;
/// A model passed to `RAPID_Collide` has not been built by `RAPID_EndModel`.
pub const RAPID_ERR_UNPROCESSED_MODEL: c_int = 3;
/// Build calls out of order: `RAPID_BeginModel` twice, or `RAPID_AddTri` after `RAPID_EndModel`
/// (the triangle is not added).
pub const RAPID_ERR_BUILD_OUT_OF_SEQUENCE: c_int = 4;
/// `RAPID_EndModel` with no triangles; the model stays unbuilt.
pub const RAPID_ERR_BUILD_EMPTY_MODEL: c_int = 5;
/// rapidpqp only: a required pointer argument was NULL; nothing changed.
pub const RAPID_ERR_NULL_POINTER: c_int = 6;
/// rapidpqp only: a coordinate, rotation or translation entry or a scale was NaN or
/// infinite; nothing changed.
pub const RAPID_ERR_NON_FINITE: c_int = 7;
/// rapidpqp only: a scale was not within [1e-100, 1e100] (zero or negative among others);
/// nothing changed.
pub const RAPID_ERR_INVALID_SCALE: c_int = 8;
/// rapidpqp only: the model pointer is not a live model (already deleted, or not made by
/// `RAPID_model_new`); nothing changed.
pub const RAPID_ERR_INVALID_MODEL: c_int = 9;
/// rapidpqp only: an internal error (a bug); nothing changed.
pub const RAPID_ERR_INTERNAL: c_int = 10;
/// rapidpqp only: a rotation is plainly not one: some entry of `RᵀR − I` exceeds 1e-3 in
/// magnitude (a zero, scaled or sheared matrix, for which RAPID silently computed contacts of
/// no placement at all: put a uniform scale in `RAPID_Collide`'s scale arguments); nothing
/// changed. Rotations that drift by rounding or were written with 6 decimals are far inside the
/// bound; reflections are accepted.
pub const RAPID_ERR_NOT_ROTATION: c_int = 11;
/// rapidpqp only: a coordinate, placed in the other model's frame, would exceed 2^1000
/// (about 1e301), or the relative scale leaves [2^-1000, 2^1000] (the supported range, see
/// the README); nothing changed.
pub const RAPID_ERR_OUT_OF_RANGE: c_int = 12;

/// `RAPID_Collide` flag: report every intersecting triangle pair (any flag other than
/// `RAPID_FIRST_CONTACT` means this, as in RAPID).
pub const RAPID_ALL_CONTACTS: c_int = 1;
/// `RAPID_Collide` flag: stop at the first intersecting triangle pair.
pub const RAPID_FIRST_CONTACT: c_int = 2;

/// Build state of a model made by `RAPID_model_new` and not yet begun.
pub const RAPID_BUILD_STATE_CONST: c_int = 0;
/// Build state after `RAPID_BeginModel`.
pub const RAPID_BUILD_STATE_BEGIN: c_int = 1;
/// Declared by RAPID, never assigned (AddTri does not change the state).
pub const RAPID_BUILD_STATE_ADDTRI: c_int = 2;
/// Build state after a successful `RAPID_EndModel`.
pub const RAPID_BUILD_STATE_PROCESSED: c_int = 3;

/// A contact: `id1` is the id of the triangle of the model passed first to `RAPID_Collide`,
/// `id2` of the model passed second.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct collision_pair {
    pub id1: c_int,
    pub id2: c_int,
}

/// Box-pair overlap tests of the last successful `RAPID_Collide`.
#[unsafe(no_mangle)]
pub static mut RAPID_num_box_tests: c_int = 0;
/// Triangle-pair tests of the last successful `RAPID_Collide`.
#[unsafe(no_mangle)]
pub static mut RAPID_num_tri_tests: c_int = 0;
/// Number of contacts found by the last successful `RAPID_Collide`.
#[unsafe(no_mangle)]
pub static mut RAPID_num_contacts: c_int = 0;
/// The contacts of the last successful `RAPID_Collide` (`RAPID_num_contacts` of them).
/// Owned by the library, valid until the next `RAPID_Collide`; re-read it after each call.
#[unsafe(no_mangle)]
pub static mut RAPID_contact: *mut collision_pair = std::ptr::null_mut();

/// A RAPID model (opaque in C): the triangles added so far, then (after `RAPID_EndModel`,
/// which moves them into it) the hierarchy.
pub struct RAPID_model {
    state: c_int,
    triangles: ModelBuilder,
    built: Option<Model>,
}

// SAFETY: the only type of kind RapidModel.
unsafe impl Handle for RAPID_model {
    const KIND: Kind = Kind::RapidModel;
}

/// The addresses the globals are written through. A program linked against the shared
/// library without -fPIC holds its own copies of the globals (copy relocations), and those
/// are the ones it reads; the dynamic linker's global scope finds them.
struct GlobalSlots {
    box_tests: usize,
    tri_tests: usize,
    num_contacts: usize,
    contact: usize,
}

fn global_slots() -> &'static GlobalSlots {
    static SLOTS: OnceLock<GlobalSlots> = OnceLock::new();
    SLOTS.get_or_init(|| {
        fn resolve(name: &CStr, own: usize) -> usize {
            // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only looks up.
            let found = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
            if found.is_null() { own } else { found as usize }
        }
        GlobalSlots {
            box_tests: resolve(c"RAPID_num_box_tests", &raw mut RAPID_num_box_tests as usize),
            tri_tests: resolve(c"RAPID_num_tri_tests", &raw mut RAPID_num_tri_tests as usize),
            num_contacts: resolve(c"RAPID_num_contacts", &raw mut RAPID_num_contacts as usize),
            contact: resolve(c"RAPID_contact", &raw mut RAPID_contact as usize),
        }
    })
}

/// The collide query's buffers, whose contact array `RAPID_contact` points to: shared by every
/// `RAPID_Collide` (the legacy layer is not for concurrent use; a second thread waits).
static LEGACY: Exclusive<CollideResult> = Exclusive::new();

/// Runs `f` on a checked model handle, or returns the handle's error code:
/// `RAPID_ERR_NULL_POINTER` for NULL, `RAPID_ERR_INVALID_MODEL` for anything that is not a live
/// `RAPID_model` (deleted, foreign, another kind of handle). Nothing is read through an invalid
/// handle.
fn with_model(model: *mut RAPID_model, f: impl FnOnce(&mut RAPID_model) -> c_int) -> c_int {
    match model_ptr(model) {
        // SAFETY: a live RAPID_model; the legacy layer is not for concurrent use.
        Ok(m) => f(unsafe { &mut *m }),
        Err(code) => code,
    }
}

/// A model handle checked as [`with_model`] says.
#[inline(always)]
fn model_ptr(model: *const RAPID_model) -> Result<*mut RAPID_model, c_int> {
    if model.is_null() {
        return Err(RAPID_ERR_NULL_POINTER);
    }
    handle::get(model).map(|p| p.as_ptr()).ok_or(RAPID_ERR_INVALID_MODEL)
}

/// A new, empty model (NULL only when out of memory). Delete it with `RAPID_model_delete`.
#[unsafe(no_mangle)]
pub extern "C" fn RAPID_model_new() -> *mut RAPID_model {
    guard(std::ptr::null_mut(), || {
        let model = RAPID_model { state: RAPID_BUILD_STATE_CONST, triangles: ModelBuilder::new(), built: None };
        handle::create(model).unwrap_or(std::ptr::null_mut())
    })
}

/// Deletes a model. NULL is a no-op; anything that is not a live model (deleted already,
/// foreign, another kind of handle) is ignored.
///
/// # Safety
/// No query using `m` is running.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn RAPID_model_delete(m: *mut RAPID_model) {
    guard((), || {
        handle::destroy(m);
    })
}

/// Starts (or restarts) a model: discards its triangles and hierarchy. Returns `RAPID_OK`,
/// or `RAPID_ERR_BUILD_OUT_OF_SEQUENCE` when the model was already begun (RAPID's code; the
/// model is restarted all the same, as RAPID does).
///
/// # Safety
/// `m` is NULL or a pointer returned by `RAPID_model_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn RAPID_BeginModel(m: *mut RAPID_model) -> c_int {
    guard(RAPID_ERR_INTERNAL, || {
        with_model(m, |model| {
            let code = if model.state == RAPID_BUILD_STATE_BEGIN { RAPID_ERR_BUILD_OUT_OF_SEQUENCE } else { RAPID_OK };
            model.triangles = ModelBuilder::new();
            model.built = None;
            model.state = RAPID_BUILD_STATE_BEGIN;
            code
        })
    })
}

/// Adds a triangle with corners `p1`, `p2`, `p3` (3 doubles each) and the caller's `id`.
/// After `RAPID_EndModel` it returns `RAPID_ERR_BUILD_OUT_OF_SEQUENCE` and adds nothing
/// (as RAPID); before `RAPID_BeginModel` it adds (as RAPID). NaN or infinite coordinates:
/// `RAPID_ERR_NON_FINITE`; beyond 2^1000 (about 1.07e301): `RAPID_ERR_OUT_OF_RANGE`; nothing
/// added.
///
/// # Safety
/// `m` is NULL or from `RAPID_model_new`; each point is NULL or 3 readable doubles.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn RAPID_AddTri(
    m: *mut RAPID_model,
    p1: *const f64,
    p2: *const f64,
    p3: *const f64,
    id: c_int,
) -> c_int {
    guard(RAPID_ERR_INTERNAL, || {
        with_model(m, |model| {
            // SAFETY: forwarded contract.
            let Ok(corners) = (unsafe { read_corners(p1, p2, p3) }) else {
                return RAPID_ERR_NULL_POINTER;
            };
            if model.state == RAPID_BUILD_STATE_PROCESSED {
                return RAPID_ERR_BUILD_OUT_OF_SEQUENCE;
            }
            if model.triangles.try_reserve(1).is_err() {
                return RAPID_ERR_MODEL_OUT_OF_MEMORY;
            }
            match model.triangles.add_triangle(corners, id) {
                Ok(()) => RAPID_OK,
                Err(BuildError::NonFiniteCoordinate) => RAPID_ERR_NON_FINITE,
                Err(BuildError::OutOfRange) => RAPID_ERR_OUT_OF_RANGE,
                Err(_) => RAPID_ERR_MODEL_OUT_OF_MEMORY,
            }
        })
    })
}

/// Builds the model's hierarchy from its triangles, which move into it (no copy is kept).
/// `RAPID_ERR_BUILD_EMPTY_MODEL` when there are none (the model stays unbuilt). Calling it
/// again returns `RAPID_OK` (RAPID rebuilt the same hierarchy: no triangle can be added
/// after `RAPID_EndModel`).
///
/// # Safety
/// `m` is not deleted during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn RAPID_EndModel(m: *mut RAPID_model) -> c_int {
    guard(RAPID_ERR_INTERNAL, || {
        with_model(m, |model| {
            if model.state == RAPID_BUILD_STATE_PROCESSED {
                return RAPID_OK;
            }
            if model.triangles.is_empty() {
                return RAPID_ERR_BUILD_EMPTY_MODEL;
            }
            match model.triangles.finish() {
                Ok(built) => {
                    model.triangles = ModelBuilder::new();
                    model.built = Some(built);
                    model.state = RAPID_BUILD_STATE_PROCESSED;
                    RAPID_OK
                }
                Err(BuildError::EmptyModel) => RAPID_ERR_BUILD_EMPTY_MODEL,
                Err(BuildError::NonFiniteCoordinate) => RAPID_ERR_NON_FINITE,
                Err(BuildError::OutOfRange) => RAPID_ERR_OUT_OF_RANGE,
                // (A builder pairs every triangle with its id and names no vertex indices.)
                Err(
                    BuildError::TooManyTriangles | BuildError::IdCountMismatch { .. } | BuildError::IndexOutOfRange,
                ) => RAPID_ERR_MODEL_OUT_OF_MEMORY,
            }
        })
    })
}

/// `RAPID_Collide` with each model's rotation and translation (scale 1).
///
/// # Safety
/// As `RAPID_CollideScaled`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn RAPID_Collide(
    r1: *mut [f64; 3],
    t1: *mut f64,
    o1: *mut RAPID_model,
    r2: *mut [f64; 3],
    t2: *mut f64,
    o2: *mut RAPID_model,
    flag: c_int,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { RAPID_CollideScaled(r1, t1, 1.0, o1, r2, t2, 1.0, o2, flag) }
}

/// Finds the intersecting triangle pairs of model `o1` placed at `s1 * R1 * p + T1` and model
/// `o2` at `s2 * R2 * p + T2` (R row-major, `R[i][j]` row i column j). Touching triangles
/// intersect. `flag == RAPID_FIRST_CONTACT` stops at the first pair; any other value finds
/// all. On success sets `RAPID_num_box_tests`, `RAPID_num_tri_tests`, `RAPID_num_contacts`
/// and `RAPID_contact` and returns `RAPID_OK`; on error leaves them as they were and returns
/// `RAPID_ERR_UNPROCESSED_MODEL`, `RAPID_ERR_NULL_POINTER`, `RAPID_ERR_INVALID_MODEL`,
/// `RAPID_ERR_NON_FINITE`, `RAPID_ERR_INVALID_SCALE` or `RAPID_ERR_OUT_OF_RANGE`.
///
/// # Safety
/// `R1`, `R2` are NULL or 9 readable doubles; `T1`, `T2` NULL or 3; the models are NULL or
/// pointers from `RAPID_model_new`. Not for concurrent use.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn RAPID_CollideScaled(
    r1: *mut [f64; 3],
    t1: *mut f64,
    s1: f64,
    o1: *mut RAPID_model,
    r2: *mut [f64; 3],
    t2: *mut f64,
    s2: f64,
    o2: *mut RAPID_model,
    flag: c_int,
) -> c_int {
    guard(RAPID_ERR_INTERNAL, || {
        let (m1, m2) = match (model_ptr(o1), model_ptr(o2)) {
            (Ok(m1), Ok(m2)) => (m1, m2),
            (Err(code), _) | (_, Err(code)) => return code,
        };
        // SAFETY: live models, shared borrows only (the same model may be both).
        let (Some(b1), Some(b2)) = (unsafe { (*m1).built.as_ref() }, unsafe { (*m2).built.as_ref() }) else {
            return RAPID_ERR_UNPROCESSED_MODEL;
        };
        if r1.is_null() || t1.is_null() || r2.is_null() || t2.is_null() {
            return RAPID_ERR_NULL_POINTER;
        }
        // SAFETY: 9 and 3 readable doubles per the contract.
        let (p1, p2) = match unsafe { (read_legacy_pose(r1, t1, s1), read_legacy_pose(r2, t2, s2)) } {
            (Ok(p1), Ok(p2)) => (p1, p2),
            // The first failure in the order: NaN anywhere, then scales, then rotations.
            (Err(PoseError::NonFinite), _) | (_, Err(PoseError::NonFinite)) => return RAPID_ERR_NON_FINITE,
            (Err(PoseError::InvalidScale), _) | (_, Err(PoseError::InvalidScale)) => return RAPID_ERR_INVALID_SCALE,
            (Err(PoseError::NotRotation), _) | (_, Err(PoseError::NotRotation)) => return RAPID_ERR_NOT_ROTATION,
        };
        let request = CollideRequest {
            first_contact: flag == RAPID_FIRST_CONTACT,
            frame: TriangleFrame::Model2,
            ..CollideRequest::default()
        };
        LEGACY.with(CollideResult::new, |result| {
            if collide::collide_placed(b1, &p1, b2, &p2, &request, result).is_err() {
                return RAPID_ERR_OUT_OF_RANGE;
            }
            let slots = global_slots();
            let clamp = |n: u64| n.min(c_int::MAX as u64) as c_int;
            // SAFETY: the slots are the addresses of the four globals (the program's copies
            // when it has them); the legacy layer is documented as not for concurrent use.
            // `RAPID_contact` points into the result's pair array (`ContactPair` and
            // `collision_pair` are both two C ints), which lives until the next call changes it.
            unsafe {
                *(slots.box_tests as *mut c_int) = clamp(result.bv_tests);
                *(slots.tri_tests as *mut c_int) = clamp(result.tri_tests);
                *(slots.num_contacts as *mut c_int) = clamp(result.pairs.len() as u64);
                if !result.pairs.is_empty() {
                    // RAPID keeps its old array when there is no contact; so does this.
                    *(slots.contact as *mut *mut collision_pair) = result.pairs.as_mut_ptr().cast();
                }
            }
            RAPID_OK
        })
    })
}
