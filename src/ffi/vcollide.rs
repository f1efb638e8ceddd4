//! The legacy V-COLLIDE 1.x C interface (`VCol.h`: `vcOpen` … `vcReport`), with the names,
//! types, codes and behaviour of `VCOLLIDE.md` §3–4, as a thin layer over
//! [`crate::nbody::World`]; plus a C form of V-COLLIDE 2.01's all-contacts report
//! (`vcCollideAll`, `vcReportTriPairs`) and `vcAddTriWithId`.
//!
//! Differences from V-COLLIDE, on purpose and documented in the header:
//! * input V-COLLIDE never checked gets an error code and changes nothing: a NULL or closed
//!   handle, NULL pointers, negative ids (`VC_ERR_INVALID_ID`), NaN or infinite numbers,
//!   coordinates and translations beyond 2^900 (`VC_ERR_OUT_OF_RANGE`, refused by the
//!   `vcAddTri` or `vcUpdateTrans` that gives them), a rotation block that is not orthonormal within 1e-6 (V-COLLIDE silently gave wrong
//!   answers for scaled or sheared matrices), out-of-range report indices;
//! * closing a handle twice is ignored; `vcClose(NULL)` is a no-op;
//! * no pose change can hang the library (`VCOLLIDE.md` §5.6).
//!
//! Unlike V-COLLIDE (whose narrow phase keeps its results in RAPID's globals), handles share
//! no state: different handles may be used from different threads at the same time. One
//! handle must not be used by two threads at once.
#![allow(non_snake_case)]

use std::ffi::{c_char, c_int, c_void};

use super::handle::{self, Handle, Kind};
use super::{guard, read_array};
use crate::math::{Triangle, Vec3};
use crate::nbody::{NBODY_RANGE, NBodyError, ObjectId, Pose, World};

/// Success (note: 1, not 0).
pub const VC_OK: c_int = 1;
/// Other error: all object ids (up to 2^31 − 1) or triangle slots of one object are used,
/// or an internal error (a bug); nothing changed.
pub const VC_ERR: c_int = -1;
/// The call is not allowed in the current build state: between `vcNewObject` and a
/// successful `vcEndObject` every call except `vcAddTri`/`vcAddTriWithId`/`vcEndObject`
/// (and the report calls); `vcAddTri`/`vcEndObject` outside that span.
pub const VC_ERR_CALL_OUT_OF_SEQUENCE: c_int = -2;
/// `vcEndObject` with no triangle added; the object stays open.
pub const VC_ERR_EMPTY_OBJECT: c_int = -3;
/// An id is not an object: never created, deleted, or negative.
pub const VC_ERR_INVALID_ID: c_int = -4;
/// rapidpqp only: a required pointer argument (or the handle) was NULL; nothing changed.
pub const VC_ERR_NULL_POINTER: c_int = -5;
/// rapidpqp only: the handle is not a live V-COLLIDE handle (closed, or not made by
/// `vcOpen`); nothing changed.
pub const VC_ERR_INVALID_HANDLE: c_int = -6;
/// rapidpqp only: a vertex coordinate or a transform entry (rows 0–2) is NaN or infinite;
/// nothing changed.
pub const VC_ERR_NON_FINITE: c_int = -7;
/// rapidpqp only: the rotation block of a transform is not orthonormal (some entry of
/// `R·Rᵀ − I` exceeds 1e-6 in magnitude): scaled or sheared matrices are refused, as
/// V-COLLIDE's bounding cubes and RAPID's box tests assume rigid motion; nothing changed.
/// Reflections (orthonormal, determinant −1) are accepted.
pub const VC_ERR_NOT_RIGID: c_int = -8;
/// rapidpqp only: an index passed to a report call is outside the report; nothing written.
pub const VC_ERR_INVALID_INDEX: c_int = -9;
/// rapidpqp only: a finite vertex coordinate (`vcAddTri`) or translation (`vcUpdateTrans`)
/// beyond 2^900 (about 8.5e270), the range in which every placed coordinate stays within the
/// collide query's; nothing changed (the open object keeps its other triangles).
pub const VC_ERR_OUT_OF_RANGE: c_int = -10;

/// A colliding pair of objects (`vcReport`: `id1 < id2`), or an intersecting pair of
/// triangles (`vcReportTriPairs`: triangle ids, `id1` in the lower-id object).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VCReportType {
    pub id1: c_int,
    pub id2: c_int,
}

/// An object being defined between `vcNewObject` and `vcEndObject`.
struct Building {
    id: ObjectId,
    triangles: Vec<Triangle>,
    tri_ids: Vec<i32>,
}

/// What a V-COLLIDE handle stands for.
struct VcEngine {
    world: World,
    building: Option<Building>,
}

// SAFETY: the only type of kind VcEngine.
unsafe impl Handle for VcEngine {
    const KIND: Kind = Kind::VcEngine;
}

/// Borrows the engine behind a handle after checking it is a live `vcOpen` handle (a NULL,
/// closed or foreign pointer, or another kind of handle passed as `void *`, is refused and
/// nothing is read through it).
///
/// # Safety
/// No other reference to that engine is in use (no concurrent call on the same handle) and it
/// is not closed during the call.
unsafe fn engine<'a>(vc_handle: *mut c_void) -> Result<&'a mut VcEngine, c_int> {
    if vc_handle.is_null() {
        return Err(VC_ERR_NULL_POINTER);
    }
    match handle::get(vc_handle.cast::<VcEngine>()) {
        // SAFETY: a live VcEngine; the caller guarantees exclusive use for the call.
        Some(mut engine) => Ok(unsafe { engine.as_mut() }),
        None => Err(VC_ERR_INVALID_HANDLE),
    }
}

/// Borrows the engine in the default build state (no object open).
///
/// # Safety
/// As [`engine`].
unsafe fn idle_engine<'a>(handle: *mut c_void) -> Result<&'a mut VcEngine, c_int> {
    // SAFETY: forwarded contract.
    let engine = unsafe { engine(handle) }?;
    if engine.building.is_some() {
        return Err(VC_ERR_CALL_OUT_OF_SEQUENCE);
    }
    Ok(engine)
}

/// A C id as an object id; negative ids are not objects.
fn object_id(id: c_int) -> Result<ObjectId, c_int> {
    ObjectId::try_from(id).map_err(|_| VC_ERR_INVALID_ID)
}

fn code_of(error: NBodyError) -> c_int {
    match error {
        NBodyError::InvalidId => VC_ERR_INVALID_ID,
        NBodyError::EmptyObject => VC_ERR_EMPTY_OBJECT,
        NBodyError::NonFinite => VC_ERR_NON_FINITE,
        NBodyError::OutOfRange => VC_ERR_OUT_OF_RANGE,
        NBodyError::NotRigid => VC_ERR_NOT_RIGID,
        // (Deform: deforming objects are not made through this API.)
        NBodyError::TooManyObjects | NBodyError::TooManyTriangles | NBodyError::Deform(_) => VC_ERR,
    }
}

/// `Ok(())` → `VC_OK`, `Err(code)` → code.
fn status(result: Result<(), c_int>) -> c_int {
    result.map_or_else(|code| code, |()| VC_OK)
}

/// A count as a C int (saturating; counts never come near it in practice).
fn count(n: usize) -> c_int {
    c_int::try_from(n).unwrap_or(c_int::MAX)
}

/// Copies `min(size, items.len())` items to `out`; `size <= 0` writes nothing. Returns the
/// total, or `VC_ERR_NULL_POINTER` when `out` is NULL and `size > 0`.
///
/// # Safety
/// `out` is NULL or points to `size` writable `VCReportType`s.
unsafe fn fill(items: impl ExactSizeIterator<Item = VCReportType>, size: c_int, out: *mut VCReportType) -> c_int {
    let total = items.len();
    if size <= 0 {
        return count(total);
    }
    if out.is_null() {
        return VC_ERR_NULL_POINTER;
    }
    for (k, item) in items.take(size as usize).enumerate() {
        // SAFETY: k < size, and the caller guarantees `size` writable elements.
        unsafe { out.add(k).write(item) };
    }
    count(total)
}

/// A new, empty V-COLLIDE engine (NULL only when out of memory); release it with `vcClose`.
/// Engines are independent: different handles may be used from different threads at the
/// same time, one handle from one thread at a time.
#[unsafe(no_mangle)]
pub extern "C" fn vcOpen() -> *mut c_void {
    guard(std::ptr::null_mut(), || {
        handle::create(VcEngine { world: World::new(), building: None }).map_or(std::ptr::null_mut(), |p| p.cast())
    })
}

/// Destroys an engine and everything in it. NULL is a no-op; closing the same handle again
/// (or passing anything `vcOpen` did not return) is detected and ignored.
///
/// # Safety
/// `vc_handle` is not in use by another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vcClose(vc_handle: *mut c_void) {
    guard((), || {
        handle::destroy(vc_handle.cast::<VcEngine>());
    })
}

/// Starts defining an object and writes its id to `*id`. Ids are handed out 0, 1, 2, … per
/// engine and never reused. Returns `VC_OK`; `VC_ERR_CALL_OUT_OF_SEQUENCE` if an object is
/// already open (`*id` not written); `VC_ERR_NULL_POINTER` if `id` is NULL (no object
/// started); `VC_ERR` when 2^31 ids have been used.
///
/// # Safety
/// `vc_handle` is NULL or a pointer returned by `vcOpen`; `id` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vcNewObject(vc_handle: *mut c_void, id: *mut c_int) -> c_int {
    guard(VC_ERR, || {
        status((|| {
            // SAFETY: forwarded contract.
            let engine = unsafe { idle_engine(vc_handle) }?;
            if id.is_null() {
                return Err(VC_ERR_NULL_POINTER);
            }
            let new_id = engine.world.next_id().ok_or(VC_ERR)?;
            engine.building = Some(Building { id: new_id, triangles: Vec::new(), tri_ids: Vec::new() });
            // SAFETY: non-NULL and writable by contract; new_id <= i32::MAX.
            unsafe { id.write(new_id as c_int) };
            Ok(())
        })())
    })
}

/// Shared body of `vcAddTri` and `vcAddTriWithId`; `tri_id` None means "the triangle's
/// index in its object".
///
/// # Safety
/// As `vcAddTriWithId`.
unsafe fn add_tri(
    vc_handle: *mut c_void,
    v1: *const f64,
    v2: *const f64,
    v3: *const f64,
    tri_id: Option<c_int>,
) -> Result<(), c_int> {
    // SAFETY: forwarded contract.
    let engine = unsafe { engine(vc_handle) }?;
    let building = engine.building.as_mut().ok_or(VC_ERR_CALL_OUT_OF_SEQUENCE)?;
    if v1.is_null() || v2.is_null() || v3.is_null() {
        return Err(VC_ERR_NULL_POINTER);
    }
    // SAFETY: each vertex points to 3 readable doubles by contract.
    let corners = unsafe { [read_array::<3>(v1), read_array::<3>(v2), read_array::<3>(v3)] };
    let triangle: Triangle = corners.map(Vec3::from);
    if !corners.iter().flatten().all(|v| v.is_finite()) {
        return Err(VC_ERR_NON_FINITE);
    }
    // (Refused here, not by vcEndObject, which would have to drop the whole object.)
    if corners.iter().flatten().any(|v| v.abs() > NBODY_RANGE) {
        return Err(VC_ERR_OUT_OF_RANGE);
    }
    if building.triangles.len() >= i32::MAX as usize - 1 {
        return Err(VC_ERR);
    }
    let index = building.triangles.len() as c_int;
    building.triangles.push(triangle);
    building.tri_ids.push(tri_id.unwrap_or(index));
    Ok(())
}

/// Adds a triangle (the three corners are copied) to the open object; its triangle id, which
/// only all-contacts reports show, is its index in the object (0, 1, 2, …). Returns `VC_OK`;
/// `VC_ERR_CALL_OUT_OF_SEQUENCE` if no object is open; `VC_ERR_NULL_POINTER`,
/// `VC_ERR_NON_FINITE` (a NaN or infinite coordinate) or `VC_ERR_OUT_OF_RANGE` (a coordinate
/// beyond 2^900): nothing stored, the triangles added before are kept.
///
/// # Safety
/// `vc_handle` is NULL or a pointer returned by `vcOpen`; `v1`, `v2`, `v3` are NULL or each
/// point to 3 readable doubles.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vcAddTri(vc_handle: *mut c_void, v1: *mut f64, v2: *mut f64, v3: *mut f64) -> c_int {
    // SAFETY: forwarded contract (the vertices are only read; V-COLLIDE 1.x declared them
    // `double v[]`, so the header keeps that type).
    guard(VC_ERR, || status(unsafe { add_tri(vc_handle, v1, v2, v3, None) }))
}

/// rapidpqp extension (V-COLLIDE 2.01's `AddTri(v1, v2, v3, tri_id)`): as `vcAddTri`, with
/// the triangle id that all-contacts reports (`vcReportTriPairs`) give for this triangle.
///
/// # Safety
/// As `vcAddTri`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vcAddTriWithId(
    vc_handle: *mut c_void,
    v1: *const f64,
    v2: *const f64,
    v3: *const f64,
    tri_id: c_int,
) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || status(unsafe { add_tri(vc_handle, v1, v2, v3, Some(tri_id)) }))
}

/// Finishes the open object: builds its hierarchy and enters it into the broad phase at the
/// identity pose, active. Returns `VC_OK`; `VC_ERR_CALL_OUT_OF_SEQUENCE` if no object is
/// open; `VC_ERR_EMPTY_OBJECT` if it has no triangle (the object stays open: add triangles
/// and call again).
///
/// # Safety
/// `vc_handle` is NULL or a pointer returned by `vcOpen`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vcEndObject(vc_handle: *mut c_void) -> c_int {
    guard(VC_ERR, || {
        status((|| {
            // SAFETY: forwarded contract.
            let engine = unsafe { engine(vc_handle) }?;
            let building = engine.building.as_mut().ok_or(VC_ERR_CALL_OUT_OF_SEQUENCE)?;
            if building.triangles.is_empty() {
                return Err(VC_ERR_EMPTY_OBJECT);
            }
            let building = engine.building.take().ok_or(VC_ERR)?;
            let id = engine.world.add_object(building.triangles, building.tri_ids).map_err(code_of)?;
            debug_assert_eq!(id, building.id, "the id handed out by vcNewObject");
            Ok(())
        })())
    })
}

/// Sets an object's pose from a 4×4 matrix `t[row][col]`: rotation = `t[0..2][0..2]`,
/// translation = column 3 (`t[0][3], t[1][3], t[2][3]`); a model point p goes to `R·p + T`.
/// Row 3 is not read. The broad phase is updated at once. Returns `VC_OK`;
/// `VC_ERR_CALL_OUT_OF_SEQUENCE` while an object is open; `VC_ERR_INVALID_ID`;
/// `VC_ERR_NULL_POINTER`; `VC_ERR_NON_FINITE` (an entry of rows 0–2 NaN or infinite);
/// `VC_ERR_OUT_OF_RANGE` (a translation beyond 2^900); `VC_ERR_NOT_RIGID` (the pose is kept).
///
/// # Safety
/// `vc_handle` is NULL or a pointer returned by `vcOpen`; `t` is NULL or points to 4 rows
/// of 4 readable doubles (only read).
// `t` is declared `double (*)[4]`, exactly as V-COLLIDE's `double t[][4]`: in ISO C before
// C23 a `double[4][4]` does not convert to `const double (*)[4]` without a -Wpedantic warning.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vcUpdateTrans(vc_handle: *mut c_void, id: c_int, t: *mut [f64; 4]) -> c_int {
    guard(VC_ERR, || {
        status((|| {
            // SAFETY: forwarded contract.
            let engine = unsafe { idle_engine(vc_handle) }?;
            let id = object_id(id)?;
            if !engine.world.contains(id) {
                return Err(VC_ERR_INVALID_ID);
            }
            if t.is_null() {
                return Err(VC_ERR_NULL_POINTER);
            }
            // SAFETY: 16 readable doubles by contract.
            let m = unsafe { read_array::<16>(t.cast_const().cast()) };
            let pose: Pose = [
                [m[0], m[1], m[2], m[3]],
                [m[4], m[5], m[6], m[7]],
                [m[8], m[9], m[10], m[11]],
                [m[12], m[13], m[14], m[15]],
            ];
            engine.world.set_pose(id, &pose).map_err(code_of)
        })())
    })
}

/// Runs `op` on the engine in the default state with a checked id.
///
/// # Safety
/// As [`engine`].
unsafe fn with_id(
    vc_handle: *mut c_void,
    id: c_int,
    op: impl FnOnce(&mut World, ObjectId) -> Result<(), NBodyError>,
) -> c_int {
    status((|| {
        // SAFETY: forwarded contract.
        let engine = unsafe { idle_engine(vc_handle) }?;
        op(&mut engine.world, object_id(id)?).map_err(code_of)
    })())
}

/// Runs `op` on the engine in the default state with two checked ids.
///
/// # Safety
/// As [`engine`].
unsafe fn with_ids(
    vc_handle: *mut c_void,
    id1: c_int,
    id2: c_int,
    op: impl FnOnce(&mut World, ObjectId, ObjectId) -> Result<(), NBodyError>,
) -> c_int {
    status((|| {
        // SAFETY: forwarded contract.
        let engine = unsafe { idle_engine(vc_handle) }?;
        op(&mut engine.world, object_id(id1)?, object_id(id2)?).map_err(code_of)
    })())
}

/// Lets `vcCollide` test the pairs involving `id` again (objects start active). Independent
/// of the pair layer. Returns `VC_OK`; `VC_ERR_CALL_OUT_OF_SEQUENCE`; `VC_ERR_INVALID_ID`.
///
/// # Safety
/// `vc_handle` is NULL or a pointer returned by `vcOpen`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vcActivateObject(vc_handle: *mut c_void, id: c_int) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { with_id(vc_handle, id, World::activate) })
}

/// Makes `vcCollide` skip every pair involving `id` (the object still moves). Returns
/// `VC_OK`; `VC_ERR_CALL_OUT_OF_SEQUENCE`; `VC_ERR_INVALID_ID`.
///
/// # Safety
/// `vc_handle` is NULL or a pointer returned by `vcOpen`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vcDeactivateObject(vc_handle: *mut c_void, id: c_int) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { with_id(vc_handle, id, World::deactivate) })
}

/// Re-enables the unordered pair {id1, id2} (argument order does not matter; no effect if
/// it was not disabled or `id1 == id2`). Independent of the object layer. Returns `VC_OK`;
/// `VC_ERR_CALL_OUT_OF_SEQUENCE`; `VC_ERR_INVALID_ID` if either id is not an object.
///
/// # Safety
/// `vc_handle` is NULL or a pointer returned by `vcOpen`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vcActivatePair(vc_handle: *mut c_void, id1: c_int, id2: c_int) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { with_ids(vc_handle, id1, id2, World::activate_pair) })
}

/// Disables the unordered pair {id1, id2} (no effect if `id1 == id2`). Returns `VC_OK`;
/// `VC_ERR_CALL_OUT_OF_SEQUENCE`; `VC_ERR_INVALID_ID` if either id is not an object.
///
/// # Safety
/// `vc_handle` is NULL or a pointer returned by `vcOpen`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vcDeactivatePair(vc_handle: *mut c_void, id1: c_int, id2: c_int) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { with_ids(vc_handle, id1, id2, World::deactivate_pair) })
}

/// Deletes an object (its id stays invalid for ever; its disabled pairs are forgotten). The
/// last report is not changed. Returns `VC_OK`; `VC_ERR_CALL_OUT_OF_SEQUENCE`;
/// `VC_ERR_INVALID_ID` (also for an object already deleted).
///
/// # Safety
/// `vc_handle` is NULL or a pointer returned by `vcOpen`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vcDeleteObject(vc_handle: *mut c_void, id: c_int) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { with_id(vc_handle, id, World::delete) })
}

/// Shared body of `vcCollide` and `vcCollideAll`.
///
/// # Safety
/// As [`engine`].
unsafe fn collide(vc_handle: *mut c_void, first_contact: bool) -> c_int {
    status((|| {
        // SAFETY: forwarded contract.
        let engine = unsafe { idle_engine(vc_handle) }?;
        engine.world.collide(first_contact);
        Ok(())
    })())
}

/// Finds the colliding object pairs (first contact per pair): the pairs whose objects are
/// both active, that are not disabled, and whose posed meshes have an intersecting triangle
/// pair (touching counts; an object wholly inside another without surface contact does
/// not). Read them with `vcReport`. Returns `VC_OK` (also with no objects);
/// `VC_ERR_CALL_OUT_OF_SEQUENCE` while an object is open (the last report is kept).
///
/// # Safety
/// `vc_handle` is NULL or a pointer returned by `vcOpen`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vcCollide(vc_handle: *mut c_void) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { collide(vc_handle, true) })
}

/// rapidpqp extension (V-COLLIDE 2.01's `Collide(&report, VC_ALL_CONTACTS)`): as
/// `vcCollide`, and also records every intersecting triangle pair of every colliding object
/// pair; read them with `vcReportTriPairs`. The object pairs are the same as `vcCollide`'s.
///
/// # Safety
/// `vc_handle` is NULL or a pointer returned by `vcOpen`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vcCollideAll(vc_handle: *mut c_void) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { collide(vc_handle, false) })
}

/// Returns the number of colliding pairs found by the last successful `vcCollide` or
/// `vcCollideAll` (0 before any), and writes the first `min(size, total)` of them to
/// `vcrep`, sorted by `id1` then `id2`, `id1 < id2`. Does not consume the result (call with
/// `size` 0 to get the count). `size <= 0` writes nothing. Allowed in any build state.
/// Errors (negative): `VC_ERR_NULL_POINTER` if `size > 0` and `vcrep` is NULL (nothing
/// written); handle errors.
///
/// # Safety
/// `vc_handle` is NULL or a pointer returned by `vcOpen`; `vcrep` is NULL or points to
/// `size` writable `VCReportType`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vcReport(vc_handle: *mut c_void, size: c_int, vcrep: *mut VCReportType) -> c_int {
    guard(VC_ERR, || {
        // SAFETY: forwarded contract.
        let engine = match unsafe { engine(vc_handle) } {
            Ok(engine) => engine,
            Err(code) => return code,
        };
        let pairs = engine.world.contacts().iter().map(|c| VCReportType { id1: c.id1 as c_int, id2: c.id2 as c_int });
        // SAFETY: forwarded contract.
        unsafe { fill(pairs, size, vcrep) }
    })
}

/// rapidpqp extension (V-COLLIDE 2.01's `numTriPairs(k)`, `tri1ID(k, t)`, `tri2ID(k, t)`):
/// returns the number of intersecting triangle pairs of the `k`-th colliding object pair of
/// the last report (k in `0 .. vcReport(h, 0, NULL)`), and writes the first
/// `min(size, total)` to `tri_pairs`: `id1` is the triangle id in the report's `id1` object
/// (the lower id), `id2` in its `id2` object, in discovery order. After `vcCollide` (first
/// contact) the count is 0, as in V-COLLIDE 2.01. `size <= 0` writes nothing. Errors
/// (negative): `VC_ERR_INVALID_INDEX` if `k` is out of range; `VC_ERR_NULL_POINTER` if
/// `size > 0` and `tri_pairs` is NULL; handle errors.
///
/// # Safety
/// `vc_handle` is NULL or a pointer returned by `vcOpen`; `tri_pairs` is NULL or points to
/// `size` writable `VCReportType`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vcReportTriPairs(
    vc_handle: *mut c_void,
    k: c_int,
    size: c_int,
    tri_pairs: *mut VCReportType,
) -> c_int {
    guard(VC_ERR, || {
        // SAFETY: forwarded contract.
        let engine = match unsafe { engine(vc_handle) } {
            Ok(engine) => engine,
            Err(code) => return code,
        };
        let contacts = engine.world.contacts();
        let Some(contact) = usize::try_from(k).ok().and_then(|k| contacts.get(k)) else {
            return VC_ERR_INVALID_INDEX;
        };
        let pairs = contact.tri_pairs.iter().map(|p| VCReportType { id1: p.id1, id2: p.id2 });
        // SAFETY: forwarded contract.
        unsafe { fill(pairs, size, tri_pairs) }
    })
}

/// A static, NUL-terminated English description of a `VC_*` code (or of an unknown one).
#[unsafe(no_mangle)]
pub extern "C" fn vcStatusMessage(code: c_int) -> *const c_char {
    let text: &'static std::ffi::CStr = match code {
        VC_OK => c"success",
        VC_ERR => c"other error (ids or triangle slots exhausted, or an internal error)",
        VC_ERR_CALL_OUT_OF_SEQUENCE => c"call not allowed in the current build state",
        VC_ERR_EMPTY_OBJECT => c"an object needs at least one triangle",
        VC_ERR_INVALID_ID => c"the id is not an object (never created, deleted, or negative)",
        VC_ERR_NULL_POINTER => c"a required pointer argument was NULL",
        VC_ERR_INVALID_HANDLE => c"the handle is not a live V-COLLIDE handle",
        VC_ERR_NON_FINITE => c"a coordinate or transform entry is NaN or infinite",
        VC_ERR_NOT_RIGID => c"the rotation block of the transform is not orthonormal",
        VC_ERR_INVALID_INDEX => c"a report index is out of range",
        _ => c"unknown status code",
    };
    text.as_ptr()
}
