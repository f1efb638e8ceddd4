//! The native C API of the n-body engine ([`World`]): reentrant (each world is its own
//! object, no globals), with status codes, beside the legacy V-COLLIDE API (`vcollide.rs`),
//! which keeps its own behaviour.
//!
//! **Objects come from models.** `rpq_world_add_model` copies a built `RpqModel` into the
//! world: a rigid one (`rpq_model_build`, `rpq_model_build_indexed`, ...) makes a rigid
//! object, a deformable one (`rpq_model_build_deformable`) a deforming object whose vertices
//! `rpq_world_update_vertices` moves. The copy (the built tree, not a rebuild) keeps handle
//! safety simple: the model handle is checked and borrowed only during the call (NULL, freed,
//! foreign, wrong-kind and busy handles refused), the world never refers to it afterwards, so
//! the caller may free, query or update its model independently, and a deforming object
//! changes only through the world (whose own vertex updates need no cross-object locking).
//!
//! A world is used by one thread at a time (as a collide result); different worlds are
//! independent.

use std::ffi::c_int;

use super::guard;
use super::handle::{self, Handle, Kind};
use super::native::{
    RPQ_ERR_EMPTY_MODEL, RPQ_ERR_INTERNAL, RPQ_ERR_INVALID_ARGUMENT, RPQ_ERR_INVALID_HANDLE, RPQ_ERR_INVALID_SCALE,
    RPQ_ERR_NON_FINITE, RPQ_ERR_NOT_DEFORMABLE, RPQ_ERR_NOT_ROTATION, RPQ_ERR_NULL_POINTER, RPQ_ERR_OUT_OF_MEMORY,
    RPQ_ERR_OUT_OF_RANGE, RPQ_OK, RpqContactPair, RpqModel, RpqPose, RpqStatus, model_ref, read_pose,
};
use super::refit::{RpqRefitReport, read_points};
use crate::math::Vec3;
use crate::model::RefitReport;
use crate::nbody::{NBodyError, Pose, World};

/// An n-body world (opaque): objects, their poses, activation, and the last collide result.
pub struct RpqWorld {
    world: World,
}

// SAFETY: the only type of kind RpqWorld.
unsafe impl Handle for RpqWorld {
    const KIND: Kind = Kind::RpqWorld;
}

/// One colliding object pair of the last `rpq_world_collide`: the lower id first, and (all
/// contacts) the intersecting triangle pairs, `id1` a triangle id of object `id1`. The array
/// is owned by the world and valid until its next `rpq_world_collide` or `rpq_world_free`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RpqObjectContact {
    pub id1: u32,
    pub id2: u32,
    /// 0 after a first-contact collide.
    pub num_tri_pairs: usize,
    /// NULL when `num_tri_pairs` is 0.
    pub tri_pairs: *const RpqContactPair,
}

/// The status of an n-body refusal (nothing changed).
fn status_of(e: NBodyError) -> RpqStatus {
    match e {
        NBodyError::InvalidId | NBodyError::TooManyObjects | NBodyError::TooManyTriangles => RPQ_ERR_INVALID_ARGUMENT,
        NBodyError::EmptyObject => RPQ_ERR_EMPTY_MODEL,
        NBodyError::NonFinite => RPQ_ERR_NON_FINITE,
        NBodyError::OutOfRange => RPQ_ERR_OUT_OF_RANGE,
        NBodyError::NotRigid => RPQ_ERR_NOT_ROTATION,
        NBodyError::Deform(e) => super::refit::status_of(e),
    }
}

/// Borrows a world handle: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE` (freed, foreign,
/// wild or another kind of handle: nothing is read through it).
///
/// # Safety
/// When `world` is a live world, no other call uses it meanwhile and it is not freed.
unsafe fn world_mut<'a>(world: *const RpqWorld) -> Result<&'a mut World, RpqStatus> {
    if world.is_null() {
        return Err(RPQ_ERR_NULL_POINTER);
    }
    match handle::get(world) {
        // SAFETY: the registry says it is a live RpqWorld; the caller gives exclusive use.
        Some(mut object) => Ok(unsafe { &mut object.as_mut().world }),
        None => Err(RPQ_ERR_INVALID_HANDLE),
    }
}

/// Runs `body` on a checked world, as a status.
///
/// # Safety
/// As [`world_mut`].
unsafe fn with_world(world: *const RpqWorld, body: impl FnOnce(&mut World) -> Result<(), RpqStatus>) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract.
        match unsafe { world_mut(world) }.and_then(body) {
            Ok(()) => RPQ_OK,
            Err(status) => status,
        }
    })
}

/// Writes `value` to `out`.
///
/// # Safety
/// `out` is non-NULL and writable.
unsafe fn put<T>(out: *mut T, value: T) {
    // SAFETY: per the contract.
    unsafe { out.write(value) }
}

/// Creates an empty world and writes it to `*out_world`; free it with `rpq_world_free`.
/// Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_OUT_OF_MEMORY`.
///
/// # Safety
/// `out_world` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_world_new(out_world: *mut *mut RpqWorld) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        if out_world.is_null() {
            return RPQ_ERR_NULL_POINTER;
        }
        match handle::create(RpqWorld { world: World::new() }) {
            // SAFETY: non-NULL and writable per the contract.
            Some(w) => unsafe {
                put(out_world, w);
                RPQ_OK
            },
            None => RPQ_ERR_OUT_OF_MEMORY,
        }
    })
}

/// Frees a world and its objects; NULL is a no-op, and anything that is not a live world
/// (freed already, foreign, another kind of handle) is ignored.
///
/// # Safety
/// No call using `world` is running.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_world_free(world: *mut RpqWorld) {
    guard((), || {
        handle::destroy(world);
    })
}

/// Adds a copy of `model` as a new object at the identity pose, active, and writes its id to
/// `*out_id` (ids count up from 0 and are never reused). A deformable model makes a deforming
/// object (`rpq_world_update_vertices`); any other a rigid one. The world keeps its own copy:
/// the model may be freed, queried or updated afterwards without affecting the object.
///
/// Errors (nothing added): `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE` (world or
/// model), `RPQ_ERR_BUSY` (the deformable model is being updated by another call),
/// `RPQ_ERR_OUT_OF_RANGE` (a coordinate beyond 2^900, the world's range),
/// `RPQ_ERR_INVALID_ARGUMENT` (ids exhausted: 2^31 objects).
///
/// # Safety
/// `world` is a live world used by no other call; `model` a live model not freed during the
/// call; `out_id` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_world_add_model(
    world: *mut RpqWorld,
    model: *const RpqModel,
    out_id: *mut u32,
) -> RpqStatus {
    // SAFETY: forwarded contract for every pointer.
    unsafe {
        with_world(world, |w| {
            if out_id.is_null() {
                return Err(RPQ_ERR_NULL_POINTER);
            }
            let m = model_ref(model)?;
            let id = w.add_model(m.get().clone()).map_err(status_of)?;
            put(out_id, id);
            Ok(())
        })
    }
}

/// Deletes an object: its pairs go from the broad phase; its id stays invalid for ever. The
/// last collide result is kept. Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`,
/// `RPQ_ERR_INVALID_ARGUMENT` (not an object).
///
/// # Safety
/// `world` is a live world used by no other call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_world_remove(world: *mut RpqWorld, id: u32) -> RpqStatus {
    // SAFETY: forwarded contract.
    unsafe { with_world(world, |w| w.delete(id).map_err(status_of)) }
}

/// Sets an object's pose (a rigid motion: `pose->scale` must be 1, else
/// `RPQ_ERR_INVALID_SCALE`; the rotation checked as every native pose, and orthonormal
/// within 1e-6 per entry of `R Rᵀ − I`, else `RPQ_ERR_NOT_ROTATION`); its box moves in the
/// broad phase at once. Errors (nothing changed): `RPQ_ERR_NULL_POINTER`,
/// `RPQ_ERR_INVALID_HANDLE`, `RPQ_ERR_INVALID_ARGUMENT` (not an object), `RPQ_ERR_NON_FINITE`,
/// `RPQ_ERR_OUT_OF_RANGE` (a translation beyond 2^900).
///
/// # Safety
/// `world` is a live world used by no other call; `pose` NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_world_set_pose(world: *mut RpqWorld, id: u32, pose: *const RpqPose) -> RpqStatus {
    // SAFETY: forwarded contract.
    unsafe {
        with_world(world, |w| {
            let p = read_pose(pose)?;
            if p.scale != 1.0 {
                return Err(RPQ_ERR_INVALID_SCALE);
            }
            if !w.contains(id) {
                return Err(RPQ_ERR_INVALID_ARGUMENT);
            }
            let (r, t) = (&p.rotation, &p.translation);
            let m: Pose =
                std::array::from_fn(
                    |i| {
                        if i < 3 { [r[(i, 0)], r[(i, 1)], r[(i, 2)], t[i]] } else { [0.0, 0.0, 0.0, 1.0] }
                    },
                );
            w.set_pose(id, &m).map_err(status_of)
        })
    }
}

/// Coordinates for a deforming object: `RPQ_ERR_NON_FINITE` for a NaN or infinity (the world
/// then reports only the range).
fn check_finite(points: &[Vec3]) -> Result<(), RpqStatus> {
    if points.iter().all(|p| p.iter().all(|v| v.is_finite())) { Ok(()) } else { Err(RPQ_ERR_NON_FINITE) }
}

/// Moves every vertex of a deforming object: `vertices` holds `num_vertices` points (3
/// doubles each) in its model frame, one per vertex of its model; the object's hierarchy is
/// refitted (or rebuilt past its threshold, as `rpq_model_update_vertices`) and its box moved
/// in the broad phase at once, so the next `rpq_world_collide` sees pairs that meet only
/// because it deformed. Writes what the refit did to `*report` when it is not NULL.
///
/// Errors (nothing changed): `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`,
/// `RPQ_ERR_INVALID_ARGUMENT` (not an object, or a wrong count), `RPQ_ERR_NOT_DEFORMABLE` (a
/// rigid object), `RPQ_ERR_NON_FINITE`, `RPQ_ERR_OUT_OF_RANGE` (beyond 2^900),
/// `RPQ_ERR_OUT_OF_MEMORY`.
///
/// # Safety
/// `world` is a live world used by no other call; `vertices` holds `3 * num_vertices`
/// doubles; `report` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_world_update_vertices(
    world: *mut RpqWorld,
    id: u32,
    vertices: *const f64,
    num_vertices: usize,
    report: *mut RpqRefitReport,
) -> RpqStatus {
    // SAFETY: forwarded contract.
    unsafe {
        with_world(world, |w| {
            if vertices.is_null() && num_vertices > 0 {
                return Err(RPQ_ERR_NULL_POINTER);
            }
            let model = w.model(id).ok_or(RPQ_ERR_INVALID_ARGUMENT)?;
            // The count first, so that a wrong one is refused before reading any point.
            if !model.is_deformable() {
                return Err(RPQ_ERR_NOT_DEFORMABLE);
            }
            if num_vertices != model.num_vertices() {
                return Err(RPQ_ERR_INVALID_ARGUMENT);
            }
            let points = read_points(vertices, num_vertices)?;
            check_finite(&points)?;
            let r = w.update_vertices(id, &points).map_err(status_of)?;
            put_report(report, r);
            Ok(())
        })
    }
}

/// Moves the vertices `indices[k]` (zero-based, each below the model's vertex count, none
/// twice) of a deforming object to `positions[k]` (3 doubles each), `k < count`, the others
/// staying; otherwise as `rpq_world_update_vertices` (`RPQ_ERR_INVALID_ARGUMENT` also for an
/// index out of range or repeated).
///
/// # Safety
/// `world` is a live world used by no other call; `indices` holds `count` indices and
/// `positions` `3 * count` doubles; `report` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_world_update_vertex_subset(
    world: *mut RpqWorld,
    id: u32,
    indices: *const u32,
    positions: *const f64,
    count: usize,
    report: *mut RpqRefitReport,
) -> RpqStatus {
    // SAFETY: forwarded contract.
    unsafe {
        with_world(world, |w| {
            if (indices.is_null() || positions.is_null()) && count > 0 {
                return Err(RPQ_ERR_NULL_POINTER);
            }
            if !w.contains(id) {
                return Err(RPQ_ERR_INVALID_ARGUMENT);
            }
            let points = read_points(positions, count)?;
            check_finite(&points)?;
            let idx = if count > 0 { std::slice::from_raw_parts(indices, count) } else { &[][..] };
            let r = w.update_vertex_subset(id, idx, &points).map_err(status_of)?;
            put_report(report, r);
            Ok(())
        })
    }
}

/// # Safety
/// `out` is NULL or writable.
unsafe fn put_report(out: *mut RpqRefitReport, r: RefitReport) {
    // SAFETY: per the contract.
    if let Some(out) = unsafe { out.as_mut() } {
        *out = RpqRefitReport { degradation: r.degradation, rebuilt: c_int::from(r.rebuilt) };
    }
}

/// Lets `rpq_world_collide` test the pairs of object `id` again (`active` nonzero) or skips
/// them (zero); the object still moves in the broad phase. Independent of the pair layer.
/// Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`, `RPQ_ERR_INVALID_ARGUMENT`.
///
/// # Safety
/// `world` is a live world used by no other call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_world_set_active(world: *mut RpqWorld, id: u32, active: c_int) -> RpqStatus {
    // SAFETY: forwarded contract.
    unsafe { with_world(world, |w| if active != 0 { w.activate(id) } else { w.deactivate(id) }.map_err(status_of)) }
}

/// Enables (`enabled` nonzero) or disables the unordered pair {a, b} (no effect when a == b).
/// Independent of the object layer. Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`,
/// `RPQ_ERR_INVALID_ARGUMENT` (an id that is not an object).
///
/// # Safety
/// `world` is a live world used by no other call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_world_set_pair_active(world: *mut RpqWorld, a: u32, b: u32, enabled: c_int) -> RpqStatus {
    // SAFETY: forwarded contract.
    unsafe {
        with_world(world, |w| {
            if enabled != 0 { w.activate_pair(a, b) } else { w.deactivate_pair(a, b) }.map_err(status_of)
        })
    }
}

/// Finds the colliding object pairs: every pair whose boxes overlap, both objects active and
/// the pair enabled, whose posed meshes have an intersecting triangle pair (touching counts).
/// With `first_contact` nonzero the search stops at the first triangle pair of each object
/// pair (no triangle pairs are kept). Writes the number of colliding object pairs to
/// `*out_num_contacts`; read them with `rpq_world_contact`. Errors: `RPQ_ERR_NULL_POINTER`,
/// `RPQ_ERR_INVALID_HANDLE` (the last result then stays).
///
/// # Safety
/// `world` is a live world used by no other call; `out_num_contacts` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_world_collide(
    world: *mut RpqWorld,
    first_contact: c_int,
    out_num_contacts: *mut usize,
) -> RpqStatus {
    // SAFETY: forwarded contract.
    unsafe {
        with_world(world, |w| {
            if out_num_contacts.is_null() {
                return Err(RPQ_ERR_NULL_POINTER);
            }
            let n = w.collide(first_contact != 0).len();
            put(out_num_contacts, n);
            Ok(())
        })
    }
}

/// Colliding object pair `index` of the last `rpq_world_collide` (sorted by `id1`, then
/// `id2`), written to `*out`. Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`,
/// `RPQ_ERR_INVALID_ARGUMENT` (`index` not below the count).
///
/// # Safety
/// `world` is a live world used by no other call; `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_world_contact(
    world: *mut RpqWorld,
    index: usize,
    out: *mut RpqObjectContact,
) -> RpqStatus {
    // SAFETY: forwarded contract.
    unsafe {
        with_world(world, |w| {
            if out.is_null() {
                return Err(RPQ_ERR_NULL_POINTER);
            }
            let c = w.contacts().get(index).ok_or(RPQ_ERR_INVALID_ARGUMENT)?;
            let tri = &c.tri_pairs;
            put(
                out,
                RpqObjectContact {
                    id1: c.id1,
                    id2: c.id2,
                    num_tri_pairs: tri.len(),
                    tri_pairs: if tri.is_empty() { std::ptr::null() } else { tri.as_ptr().cast::<RpqContactPair>() },
                },
            );
            Ok(())
        })
    }
}
