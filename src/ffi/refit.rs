//! The C API of deformable models: build one, move its vertices (all or some) and refit its
//! hierarchy, rebuild it, read and set its quality figure and threshold. The work is
//! [`Model::update_vertices`] and its kin (`crate::model::refit`); this file checks arguments
//! and handles.
//!
//! **Concurrency.** A deformable model counts the calls that borrow it (an atomic counter on
//! the model, touched only for deformable models): an update takes the model only when no
//! other call has it, and a query finds it busy while an update runs; either side gets
//! `RPQ_ERR_BUSY` instead of racing. Queries of one model from many threads at once stay
//! allowed, as for any model.

use std::ffi::c_int;

use super::guard;
use super::native::{
    RPQ_ERR_EMPTY_MODEL, RPQ_ERR_INTERNAL, RPQ_ERR_INVALID_ARGUMENT, RPQ_ERR_NON_FINITE, RPQ_ERR_NOT_DEFORMABLE,
    RPQ_ERR_NULL_POINTER, RPQ_ERR_OUT_OF_MEMORY, RPQ_ERR_OUT_OF_RANGE, RPQ_OK, RpqModel, RpqStatus,
    check_indexed_build, model_handle, model_ref, with_model_mut,
};
use crate::math::Vec3;
use crate::model::{Model, RefitError, RefitReport};

/// What a vertex update did.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct RpqRefitReport {
    /// The refitted tree's cost over its cost at the last build: 1 is as good as built (see
    /// `rpq_model_degradation`). Measured before any rebuild the update made.
    pub degradation: f64,
    /// Nonzero when the update rebuilt the tree (degradation above the model's threshold).
    pub rebuilt: c_int,
}

pub(crate) fn status_of(e: RefitError) -> RpqStatus {
    match e {
        RefitError::NotDeformable => RPQ_ERR_NOT_DEFORMABLE,
        RefitError::NonFiniteCoordinate => RPQ_ERR_NON_FINITE,
        RefitError::OutOfRange => RPQ_ERR_OUT_OF_RANGE,
        RefitError::EmptyModel => RPQ_ERR_EMPTY_MODEL,
        RefitError::WrongLength { .. }
        | RefitError::LengthMismatch
        | RefitError::IndexOutOfRange
        | RefitError::DuplicateIndex
        | RefitError::TooMany
        | RefitError::InvalidThreshold => RPQ_ERR_INVALID_ARGUMENT,
    }
}

/// `count` points of 3 doubles each, copied; `None` when the copy cannot be allocated.
///
/// # Safety
/// `coords` holds `3 * count` doubles (or `count` is 0).
pub(crate) unsafe fn read_points(coords: *const f64, count: usize) -> Result<Vec<Vec3>, RpqStatus> {
    let len = count.checked_mul(3).ok_or(RPQ_ERR_INVALID_ARGUMENT)?;
    let mut points = Vec::new();
    points.try_reserve_exact(count).map_err(|_| RPQ_ERR_OUT_OF_MEMORY)?;
    if count > 0 {
        // SAFETY: non-NULL (checked by the callers) and holding 3 * count doubles per contract.
        let c = unsafe { std::slice::from_raw_parts(coords, len) };
        points.extend(c.chunks_exact(3).map(|p| Vec3::new(p[0], p[1], p[2])));
    }
    Ok(points)
}

/// Writes `report` to `out` when it is not NULL.
///
/// # Safety
/// `out` is NULL or writable.
unsafe fn put_report(out: *mut RpqRefitReport, report: RefitReport) {
    // SAFETY: NULL or writable per the contract.
    if let Some(out) = unsafe { out.as_mut() } {
        *out = RpqRefitReport { degradation: report.degradation, rebuilt: c_int::from(report.rebuilt) };
    }
}

/// Builds a deformable model from `num_vertices` vertices (3 doubles each) and `num_faces`
/// triangles (3 zero-based `uint32_t` vertex indices each), triangle k reporting `ids[k]` (k
/// when `ids` is NULL). Its vertices can then be moved (`rpq_model_update_vertices`,
/// `rpq_model_update_vertex_subset`); it answers every query as any model. It costs 12 bytes
/// a triangle more than `rpq_model_build_indexed` (the faces, kept to refit). For a triangle
/// soup, pass vertex `3k + c` as corner c of triangle k and faces `{3k, 3k + 1, 3k + 2}`.
///
/// Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_EMPTY_MODEL` (no faces), `RPQ_ERR_NON_FINITE` (a
/// NaN or infinite coordinate in any vertex, used or not), `RPQ_ERR_OUT_OF_RANGE` (beyond
/// 2^1000), `RPQ_ERR_INVALID_ARGUMENT` (an index out of range, or more than 2^31 - 1
/// triangles or 2^32 - 1 vertices), `RPQ_ERR_OUT_OF_MEMORY`.
///
/// # Safety
/// The arrays hold the stated numbers of elements; `ids` may be NULL; `out_model` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_build_deformable(
    vertices: *const f64,
    num_vertices: usize,
    faces: *const u32,
    num_faces: usize,
    ids: *const i32,
    out_model: *mut *mut RpqModel,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        if let Err(status) = check_indexed_build(vertices, num_vertices, faces, num_faces, out_model) {
            return status;
        }
        let run = || -> Result<*mut RpqModel, RpqStatus> {
            // SAFETY: 3 * num_vertices doubles per the contract.
            let verts = unsafe { read_points(vertices, num_vertices) }?;
            let len = num_faces.checked_mul(3).ok_or(RPQ_ERR_INVALID_ARGUMENT)?;
            // SAFETY: 3 * num_faces indices per the contract (non-NULL, checked above).
            let flat = unsafe { std::slice::from_raw_parts(faces, len) };
            let mut tris = Vec::new();
            tris.try_reserve_exact(num_faces).map_err(|_| RPQ_ERR_OUT_OF_MEMORY)?;
            tris.extend(flat.chunks_exact(3).map(|f| [f[0], f[1], f[2]]));
            let ids = if ids.is_null() {
                None
            } else {
                let mut own = Vec::new();
                own.try_reserve_exact(num_faces).map_err(|_| RPQ_ERR_OUT_OF_MEMORY)?;
                // SAFETY: one id per face per the contract.
                own.extend_from_slice(unsafe { std::slice::from_raw_parts(ids, num_faces) });
                Some(own)
            };
            let model = Model::deformable(&verts, &tris, ids).map_err(status_of)?;
            model_handle(model)
        };
        match run() {
            Ok(handle) => {
                // SAFETY: non-NULL and writable per the contract.
                unsafe { *out_model = handle };
                RPQ_OK
            }
            Err(status) => status,
        }
    })
}

/// Moves every vertex of a deformable model: `vertices` holds `num_vertices` new positions
/// (3 doubles each), one per vertex the model was built with, and refits the hierarchy
/// (linear time), rebuilding it when its degradation passes the model's threshold
/// (`rpq_model_set_rebuild_threshold`). `out_report` may be NULL; it is written on success.
/// Every query after the update is exact for the new positions.
///
/// Errors (the model unchanged): `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE` (not a live
/// native model: legacy PQP and RAPID models are not deformable),
/// `RPQ_ERR_NOT_DEFORMABLE` (built by another `rpq_model_build*`), `RPQ_ERR_BUSY` (another
/// call is using the model), `RPQ_ERR_INVALID_ARGUMENT` (`num_vertices` is not the model's),
/// `RPQ_ERR_NON_FINITE`, `RPQ_ERR_OUT_OF_RANGE`, `RPQ_ERR_OUT_OF_MEMORY`.
///
/// # Safety
/// `vertices` holds `3 * num_vertices` doubles; `out_report` is NULL or writable; `model` is
/// not freed during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_update_vertices(
    model: *mut RpqModel,
    vertices: *const f64,
    num_vertices: usize,
    out_report: *mut RpqRefitReport,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        if vertices.is_null() && num_vertices > 0 {
            return RPQ_ERR_NULL_POINTER;
        }
        // SAFETY: forwarded contract.
        unsafe {
            with_model_mut(model, |m| {
                if num_vertices != m.num_vertices() {
                    return RPQ_ERR_INVALID_ARGUMENT;
                }
                let points = match read_points(vertices, num_vertices) {
                    Ok(p) => p,
                    Err(status) => return status,
                };
                match m.update_vertices(&points) {
                    Ok(report) => {
                        put_report(out_report, report);
                        RPQ_OK
                    }
                    Err(e) => status_of(e),
                }
            })
        }
    })
}

/// Moves the `count` vertices `indices[k]` to `positions[3k..3k+3]` (each index below the
/// model's number of vertices, none twice), the others staying, and refits as
/// `rpq_model_update_vertices` (the whole tree: time linear in the model's size). `count` 0
/// refits in place. Errors as `rpq_model_update_vertices`, and `RPQ_ERR_INVALID_ARGUMENT` for
/// an index out of range or repeated.
///
/// # Safety
/// `indices` holds `count` indices and `positions` `3 * count` doubles (either may be NULL
/// when `count` is 0); `out_report` is NULL or writable; `model` is not freed during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_update_vertex_subset(
    model: *mut RpqModel,
    indices: *const u32,
    positions: *const f64,
    count: usize,
    out_report: *mut RpqRefitReport,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        if count > 0 && (indices.is_null() || positions.is_null()) {
            return RPQ_ERR_NULL_POINTER;
        }
        // SAFETY: forwarded contract.
        unsafe {
            with_model_mut(model, |m| {
                let points = match read_points(positions, count) {
                    Ok(p) => p,
                    Err(status) => return status,
                };
                let indices = if count == 0 { &[][..] } else { std::slice::from_raw_parts(indices, count) };
                match m.update_vertex_subset(indices, &points) {
                    Ok(report) => {
                        put_report(out_report, report);
                        RPQ_OK
                    }
                    Err(e) => status_of(e),
                }
            })
        }
    })
}

/// Rebuilds a deformable model's hierarchy from its current vertex positions (as a fresh
/// build of its triangles would), resetting its degradation to 1. Errors as
/// `rpq_model_update_vertices` (argument errors aside).
///
/// # Safety
/// `model` is not freed during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_rebuild(model: *mut RpqModel) -> RpqStatus {
    // SAFETY: forwarded contract.
    guard(RPQ_ERR_INTERNAL, || unsafe { with_model_mut(model, |m| m.rebuild().map_or_else(status_of, |()| RPQ_OK)) })
}

/// A deformable model's degradation: the summed surface area of its inner nodes' boxes over
/// the surface area of its vertices' axis-aligned bounding box, divided by the same figure
/// at its last build. 1 just after a build; refitting unmoved vertices gives a little more
/// (boxes of boxes); large values mean queries visit many more nodes than on a fresh tree.
/// Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`, `RPQ_ERR_NOT_DEFORMABLE`,
/// `RPQ_ERR_BUSY` (an update is running). `*out` is written on success only.
///
/// # Safety
/// `out` is NULL or writable; `model` is not freed during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_degradation(model: *const RpqModel, out: *mut f64) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract.
        let m = match unsafe { model_ref(model) } {
            Ok(m) => m,
            Err(status) => return status,
        };
        if out.is_null() {
            return RPQ_ERR_NULL_POINTER;
        }
        match m.degradation() {
            Ok(d) => {
                // SAFETY: non-NULL and writable per the contract.
                unsafe { *out = d };
                RPQ_OK
            }
            Err(e) => status_of(e),
        }
    })
}

/// Sets the degradation past which an update rebuilds a deformable model's tree (default 2):
/// at least 1, or `INFINITY` to rebuild only on request (`rpq_model_rebuild`). Errors:
/// `RPQ_ERR_INVALID_ARGUMENT` (below 1 or NaN), and the handle errors of
/// `rpq_model_update_vertices`. Nothing changes on error.
///
/// # Safety
/// `model` is not freed during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_set_rebuild_threshold(model: *mut RpqModel, threshold: f64) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract.
        unsafe { with_model_mut(model, |m| m.set_rebuild_threshold(threshold).map_or_else(status_of, |()| RPQ_OK)) }
    })
}

/// Turns the k-DOP option of a deformable model on (`on` nonzero) or off (0).
///
/// On, the model also keeps a k-DOP-18 tree (18 fixed directions: the axes and the diagonals
/// of the coordinate planes; 296 bytes a triangle more) that updates refit exactly and about
/// 15 times faster than its oriented boxes. `rpq_collide` of a k-DOP model with any model
/// whose pose differs from its own by a translation only (the same rotation matrix, typically
/// the identity, and the same scale; a model without the option then builds k-DOPs of its
/// own on first use, 296 bytes a triangle, kept until its vertices move) and `rpq_self_collide` then prune with the k-DOPs, whatever box test the
/// request names: the same pairs as the boxes find, in another order. Every other query
/// (distance, tolerance, collide at other poses, points, rays) uses the oriented boxes, which
/// the first such query after an update refits (once, costing what an update of a model
/// without the option costs). `rpq_model_degradation` then measures the k-DOP tree.
///
/// Off, the boxes are brought up to date and the k-DOPs freed. Errors: those of
/// `rpq_model_update_vertices` (argument errors aside). Nothing changes on error.
///
/// # Safety
/// `model` is not freed during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_set_kdop(model: *mut RpqModel, on: c_int) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract.
        unsafe { with_model_mut(model, |m| m.set_kdop(on != 0).map_or_else(status_of, |()| RPQ_OK)) }
    })
}

/// 1 for a model with the k-DOP option on (`rpq_model_set_kdop`); 0 for any other model, NULL,
/// an invalid handle or a model being updated.
///
/// # Safety
/// `model` is not freed during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_is_kdop(model: *const RpqModel) -> c_int {
    // SAFETY: forwarded contract.
    guard(0, || unsafe { model_ref(model) }.map_or(0, |m| c_int::from(m.is_kdop())))
}

/// Number of vertices of a deformable model (what `rpq_model_update_vertices` takes); 0 for
/// any other model, NULL, an invalid handle or a model being updated.
///
/// # Safety
/// `model` is not freed during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_num_vertices(model: *const RpqModel) -> usize {
    // SAFETY: forwarded contract.
    guard(0, || unsafe { model_ref(model) }.map_or(0, |m| m.num_vertices()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::native::{RPQ_ERR_BUSY, rpq_model_free};

    fn quad() -> *mut RpqModel {
        let v = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0];
        let f = [0u32, 1, 2, 0, 2, 3];
        let mut m = std::ptr::null_mut();
        // SAFETY: arrays of the stated sizes; out pointer writable.
        assert_eq!(unsafe { rpq_model_build_deformable(v.as_ptr(), 4, f.as_ptr(), 2, std::ptr::null(), &mut m) }, 0);
        m
    }

    /// A borrowed deformable model refuses updates, and an updating one refuses borrows: the
    /// borrow counter as the C calls see it.
    #[test]
    fn borrows_and_updates_exclude_each_other() {
        let m = quad();
        let v = [0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0];
        // SAFETY: a live model; arrays of the stated sizes.
        unsafe {
            let borrow = model_ref(m).unwrap();
            assert_eq!(rpq_model_update_vertices(m, v.as_ptr(), 4, std::ptr::null_mut()), RPQ_ERR_BUSY);
            assert_eq!(rpq_model_rebuild(m), RPQ_ERR_BUSY);
            let second = model_ref(m).unwrap(); // readers share
            drop((borrow, second));
            assert_eq!(rpq_model_update_vertices(m, v.as_ptr(), 4, std::ptr::null_mut()), RPQ_OK);
            let status = with_model_mut(m, |_| {
                let mut d = 0.0;
                assert_eq!(model_ref(m).err(), Some(RPQ_ERR_BUSY));
                assert_eq!(rpq_model_degradation(m, &mut d), RPQ_ERR_BUSY);
                assert_eq!(rpq_model_update_vertices(m, v.as_ptr(), 4, std::ptr::null_mut()), RPQ_ERR_BUSY);
                RPQ_OK
            });
            assert_eq!(status, RPQ_OK);
            assert!(model_ref(m).is_ok());
            assert_eq!(model_ref(m).unwrap().triangles().iter().flatten().filter(|p| p.z == 0.5).count(), 2);
            rpq_model_free(m);
        }
    }
}
