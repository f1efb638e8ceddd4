//! The native C API of contact geometry: the per-pair intersection of `rpq_collide` (switched
//! on per result by `rpq_collide_result_set_geometry`), the deduplicated contact set
//! (`rpq_contacts`) and the intersection curves (`rpq_intersection_curves`). Each function
//! checks its arguments, calls the Rust core (`crate::query::contact`) and copies its answers
//! into caller buffers.
//!
//! Buffers follow one rule: the call always reports the size it needs (`*count`, ...) and
//! copies only when every buffer is large enough; a first call with capacity 0 (and NULL
//! buffers) asks for the sizes. Everything is in the world frame of the poses (see the README,
//! "Contact geometry").

use std::ffi::c_int;

use super::guard;
use super::native::{
    RPQ_ERR_INTERNAL, RPQ_ERR_INVALID_ARGUMENT, RPQ_ERR_NON_FINITE, RPQ_ERR_NULL_POINTER, RPQ_ERR_OUT_OF_RANGE, RPQ_OK,
    RpqCollideResult, RpqModel, RpqPose, RpqStatus, collide_handle_mut, model_ref, read_pose,
};
use crate::geometry::tri_contact::{MAX_CONTACT_POINTS, TriContact};
use crate::math::{Placement, to_array};
use crate::model::Model;
use crate::query::collide::{self, CollideRequest, CollideResult};
use crate::query::contact::{Contact, chain_segments, merge_contacts};

/// `RpqTriContact::flags`: model 1's triangle has zero area (or its normal underflows);
/// `normal1` is zero.
pub const RPQ_CONTACT_NORMAL1_DEGENERATE: u32 = 1;
/// Model 2's triangle has zero area (or its normal underflows); `normal2` is zero.
pub const RPQ_CONTACT_NORMAL2_DEGENERATE: u32 = 2;
/// The triangles are coplanar: the points are a convex polygon (or a segment or a point).
pub const RPQ_CONTACT_COPLANAR: u32 = 4;
/// The triangles cross: each has corners strictly on both sides of the other's plane and they
/// share a segment of positive length (decided exactly); touching pairs never have it.
pub const RPQ_CONTACT_CROSSING: u32 = 8;
/// `RpqContact::flags`: no pair reaching the contact has a usable normal; `normal` is zero.
pub const RPQ_CONTACT_NO_NORMAL: u32 = 1;

/// The intersection of one intersecting triangle pair, in the world frame.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RpqTriContact {
    /// The first `num_points`: 1 a point, 2 a segment's endpoints, 3 to 6 a convex polygon's
    /// corners in order (coplanar pairs). The rest are zero.
    pub points: [[f64; 3]; 6],
    /// Unit normal of model 1's triangle, `(v1 − v0) × (v2 − v0)` normalised; zero when it is
    /// degenerate (`RPQ_CONTACT_NORMAL1_DEGENERATE`), never NaN.
    pub normal1: [f64; 3],
    /// Unit normal of model 2's triangle, likewise.
    pub normal2: [f64; 3],
    /// Every point is within this distance of the exact intersection's corner (README).
    pub error_bound: f64,
    pub num_points: u32,
    /// `RPQ_CONTACT_NORMAL1_DEGENERATE`, `RPQ_CONTACT_NORMAL2_DEGENERATE`, `RPQ_CONTACT_COPLANAR`,
    /// `RPQ_CONTACT_CROSSING`.
    pub flags: u32,
}

/// One contact of a deduplicated contact set, in the world frame.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RpqContact {
    pub point: [f64; 3],
    /// Unit normal from model 1 into model 2 (README), or zero with `RPQ_CONTACT_NO_NORMAL`.
    pub normal: [f64; 3],
    /// Number of pair points merged into this contact.
    pub count: u32,
    pub flags: u32,
}

impl From<&TriContact> for RpqTriContact {
    fn from(c: &TriContact) -> RpqTriContact {
        let mut points = [[0.0; 3]; MAX_CONTACT_POINTS];
        for (k, p) in c.points().iter().enumerate() {
            points[k] = to_array(p);
        }
        RpqTriContact {
            points,
            normal1: to_array(&c.normal1),
            normal2: to_array(&c.normal2),
            error_bound: c.error_bound,
            num_points: c.len.into(),
            flags: c.flags.into(),
        }
    }
}

impl From<&Contact> for RpqContact {
    fn from(c: &Contact) -> RpqContact {
        RpqContact { point: to_array(&c.point), normal: to_array(&c.normal), count: c.count, flags: c.flags.into() }
    }
}

/// Switches the contact geometry of every later `rpq_collide` into `result` on (`enable`
/// nonzero) or off (the default). With it on, `rpq_collide_result_geometry` reads each pair's
/// intersection; collide costs more (see the README's benchmark row).
/// Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`.
///
/// # Safety
/// `result` is not freed or used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_collide_result_set_geometry(result: *mut RpqCollideResult, enable: c_int) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract.
        match unsafe { collide_handle_mut(result) } {
            Ok(h) => {
                h.geometry = enable != 0;
                RPQ_OK
            }
            Err(status) => status,
        }
    })
}

/// Copies the geometry of contact pair `index` (the pair `rpq_collide_result_pairs()[index]`)
/// of the last `rpq_collide` into `*out`.
/// Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`, `RPQ_ERR_INVALID_ARGUMENT`
/// (`index` not below `rpq_collide_result_num_pairs`, or the last query ran without geometry).
/// Nothing is written on error.
///
/// # Safety
/// `result` is not freed or used by another thread during the call; `out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_collide_result_geometry(
    result: *const RpqCollideResult,
    index: usize,
    out: *mut RpqTriContact,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract.
        let h = match unsafe { collide_handle_mut(result) } {
            Ok(h) => h,
            Err(status) => return status,
        };
        if out.is_null() {
            return RPQ_ERR_NULL_POINTER;
        }
        let r = &h.result;
        if index >= r.pairs.len() || r.geometry.len() != r.pairs.len() {
            return RPQ_ERR_INVALID_ARGUMENT;
        }
        // SAFETY: `out` is writable (checked non-NULL above).
        unsafe { out.write(RpqTriContact::from(&r.geometry[index])) };
        RPQ_OK
    })
}

/// Copies the geometry of every contact pair of the last `rpq_collide` (in the order of
/// `rpq_collide_result_pairs`) to `out` when `capacity` is at least their number, which is
/// written to `*count` in any case.
/// Errors: `RPQ_ERR_NULL_POINTER` (`result` or `count` NULL, or `out` NULL with `capacity` >
/// 0), `RPQ_ERR_INVALID_HANDLE`, `RPQ_ERR_INVALID_ARGUMENT` (the last query ran without
/// geometry and found pairs). Nothing is written on error.
///
/// # Safety
/// `result` is not freed or used by another thread during the call; `count` is NULL or
/// writable; `out` NULL or writable for `capacity` entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_collide_result_geometries(
    result: *const RpqCollideResult,
    out: *mut RpqTriContact,
    capacity: usize,
    count: *mut usize,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract.
        let h = match unsafe { collide_handle_mut(result) } {
            Ok(h) => h,
            Err(status) => return status,
        };
        if count.is_null() || (out.is_null() && capacity > 0) {
            return RPQ_ERR_NULL_POINTER;
        }
        let r = &h.result;
        if r.geometry.len() != r.pairs.len() {
            return RPQ_ERR_INVALID_ARGUMENT;
        }
        // SAFETY: `count` is writable; `out` holds `capacity` entries.
        unsafe {
            if r.geometry.len() <= capacity {
                for (k, g) in r.geometry.iter().enumerate() {
                    out.add(k).write(RpqTriContact::from(g));
                }
            }
            count.write(r.geometry.len());
        }
        RPQ_OK
    })
}

/// The models, poses and the geometry of their pairs, for the set and curve functions.
///
/// # Safety
/// As `rpq_collide`'s models and poses.
unsafe fn geometry_of(
    model1: *const RpqModel,
    pose1: *const RpqPose,
    model2: *const RpqModel,
    pose2: *const RpqPose,
) -> Result<Vec<TriContact>, RpqStatus> {
    // SAFETY: forwarded contract. The guards hold the models (a deformable one cannot be
    // updated meanwhile) until the function returns.
    let (g1, g2) = unsafe { (model_ref(model1)?, model_ref(model2)?) };
    let (m1, m2): (&Model, &Model) = (&g1, &g2);
    // SAFETY: forwarded contract.
    let (p1, p2): (Placement, Placement) = unsafe { (read_pose(pose1)?, read_pose(pose2)?) };
    let mut result = CollideResult::new();
    let request = CollideRequest { geometry: true, ..CollideRequest::default() };
    collide::collide_placed(m1, &p1, m2, &p2, &request, &mut result).map_err(|_| RPQ_ERR_OUT_OF_RANGE)?;
    Ok(result.geometry)
}

/// The deduplicated contact set of `model1` at `pose1` and `model2` at `pose2`: every pair's
/// points merged within `merge_tolerance` (README, "Contact geometry"). Writes the number of
/// contacts to `*count`, and copies them to `out` when `capacity >= *count` (else nothing is
/// copied: call again with a larger buffer; each call runs the query).
/// Errors: `RPQ_ERR_NULL_POINTER` (a model, pose or `count` NULL, or `out` NULL with
/// `capacity` > 0), `RPQ_ERR_INVALID_HANDLE`, `RPQ_ERR_NON_FINITE` (a pose entry or the
/// tolerance NaN or infinite), `RPQ_ERR_INVALID_ARGUMENT` (a negative tolerance), the pose
/// errors of `rpq_collide`, `RPQ_ERR_OUT_OF_RANGE`. Nothing is written on error.
///
/// # Safety
/// Models live; poses readable; `count` NULL or writable; `out` NULL or writable for
/// `capacity` contacts.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_contacts(
    model1: *const RpqModel,
    pose1: *const RpqPose,
    model2: *const RpqModel,
    pose2: *const RpqPose,
    merge_tolerance: f64,
    out: *mut RpqContact,
    capacity: usize,
    count: *mut usize,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        let run = || -> Result<(), RpqStatus> {
            if count.is_null() || (out.is_null() && capacity > 0) {
                return Err(RPQ_ERR_NULL_POINTER);
            }
            if !merge_tolerance.is_finite() {
                return Err(RPQ_ERR_NON_FINITE);
            }
            if merge_tolerance < 0.0 {
                return Err(RPQ_ERR_INVALID_ARGUMENT);
            }
            // SAFETY: forwarded contract.
            let geometry = unsafe { geometry_of(model1, pose1, model2, pose2) }?;
            let contacts = merge_contacts(&geometry, merge_tolerance);
            // SAFETY: `count` is writable; `out` holds `capacity` contacts.
            unsafe {
                if contacts.len() <= capacity {
                    for (k, c) in contacts.iter().enumerate() {
                        out.add(k).write(RpqContact::from(c));
                    }
                }
                count.write(contacts.len());
            }
            Ok(())
        };
        match run() {
            Ok(()) => RPQ_OK,
            Err(status) => status,
        }
    })
}

/// The intersection curves of the two models' surfaces (README, "Contact geometry"), as
/// polylines: curve `k` is the points `offsets[k] .. offsets[k+1]` of `points` (3 doubles a
/// point); a closed curve repeats its first point at its end. Writes the number of points to
/// `*num_points` and of curves to `*num_curves`, and copies the points and the
/// `*num_curves + 1` offsets only when `point_capacity >= *num_points` and
/// `offset_capacity >= *num_curves + 1` (else nothing is copied; each call runs the query).
/// Errors: `RPQ_ERR_NULL_POINTER` (a model, pose, `num_points` or `num_curves` NULL, or a
/// buffer NULL with its capacity > 0), `RPQ_ERR_INVALID_HANDLE`, the pose errors of
/// `rpq_collide`, `RPQ_ERR_OUT_OF_RANGE`. Nothing is written on error.
///
/// # Safety
/// Models live; poses readable; `num_points`, `num_curves` NULL or writable; `points` NULL or
/// writable for `3·point_capacity` doubles; `offsets` NULL or writable for `offset_capacity`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_intersection_curves(
    model1: *const RpqModel,
    pose1: *const RpqPose,
    model2: *const RpqModel,
    pose2: *const RpqPose,
    points: *mut f64,
    point_capacity: usize,
    offsets: *mut usize,
    offset_capacity: usize,
    num_points: *mut usize,
    num_curves: *mut usize,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        let run = || -> Result<(), RpqStatus> {
            if num_points.is_null()
                || num_curves.is_null()
                || (points.is_null() && point_capacity > 0)
                || (offsets.is_null() && offset_capacity > 0)
            {
                return Err(RPQ_ERR_NULL_POINTER);
            }
            // SAFETY: forwarded contract.
            let geometry = unsafe { geometry_of(model1, pose1, model2, pose2) }?;
            let curves = chain_segments(&geometry);
            let total: usize = curves.iter().map(|c| c.points.len()).sum();
            // SAFETY: the out pointers are writable for their capacities.
            unsafe {
                if total <= point_capacity && curves.len() < offset_capacity {
                    let mut at = 0;
                    for (k, c) in curves.iter().enumerate() {
                        offsets.add(k).write(at);
                        for p in &c.points {
                            for j in 0..3 {
                                points.add(3 * at + j).write(p[j]);
                            }
                            at += 1;
                        }
                    }
                    offsets.add(curves.len()).write(at);
                }
                num_points.write(total);
                num_curves.write(curves.len());
            }
            Ok(())
        };
        match run() {
            Ok(()) => RPQ_OK,
            Err(status) => status,
        }
    })
}
