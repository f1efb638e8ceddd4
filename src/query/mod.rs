//! Queries on pairs of placed models.

#[cfg(test)]
mod closed_meshes;
pub mod collide;
pub mod contact;
pub mod disassembly;
pub mod distance;
pub mod point;
pub mod ray;
pub mod self_collide;
pub mod solid;
pub mod sweep;
pub mod toi;
pub mod winding;

pub use crate::geometry::tri_contact::TriContact;
pub use collide::{CollideRequest, CollideResult, ContactPair, TriangleFrame, collide};
pub use contact::{
    CONTACT_NO_NORMAL, Contact, Curve, chain_segments, collide_geometry, contact_set, intersection_curves,
    merge_contacts,
};
pub use disassembly::{Part, RemovalResult, removal_directions};
pub use distance::{DistanceCache, DistanceRequest, DistanceResult, distance, tolerance};
pub use point::{ClosestPoint, PointError, PointStats, closest_point, closest_point_within, closest_points};
pub use ray::{Ray, RayHit, RayWork, ray_any_hit, ray_any_hits, ray_first_hit, ray_first_hits, segment_hits};
pub use self_collide::self_collide;
pub use solid::{
    Separation, SeparationBound, SolidCollideResult, SolidQueryError, SolidRelation, contains, separation,
    signed_distances, solid_collide,
};
pub use sweep::{SweepContact, SweepRequest, SweepResult, sweep, sweep_last_contact};
pub use toi::{Toi, ToiOutcome, ToiRequest, time_of_impact};
pub use winding::{Winding, WindingWork, winding, windings};

use crate::math::{Mat3, Placement, Vec3};
pub(crate) use crate::math::{TRANSPOSE_INVERTS, gram_deviation, inverse_rotation, refined_inverse};
use crate::model::Model;
use crate::pose::PoseError;

pub use crate::math::RANGE_LIMIT;

/// A query refused because its coordinates or placements leave the supported range
/// ([`RANGE_LIMIT`]); nothing was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RangeError;

impl std::fmt::Display for RangeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(
            "coordinates or placements beyond the supported range (placed coordinates up to 2^1000, about 1e301)",
        )
    }
}

impl std::error::Error for RangeError {}

/// Why a query was refused; nothing was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryError {
    /// A placement has a NaN or infinite number.
    NonFinite,
    /// A placement's scale is outside [`crate::pose::MIN_SCALE`], [`crate::pose::MAX_SCALE`].
    InvalidScale,
    /// A placement's rotation is not a rotation within [`crate::pose::rotation_tolerance`].
    NotRotation,
    /// Coordinates or placements beyond the supported range ([`RANGE_LIMIT`]).
    OutOfRange,
    /// A request's number out of its documented range (a negative or NaN error bound or
    /// tolerance, an infinite error bound).
    InvalidArgument,
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueryError::NonFinite => PoseError::NonFinite.fmt(f),
            QueryError::InvalidScale => PoseError::InvalidScale.fmt(f),
            QueryError::NotRotation => PoseError::NotRotation.fmt(f),
            QueryError::OutOfRange => RangeError.fmt(f),
            QueryError::InvalidArgument => f.write_str("a request's number is out of its documented range"),
        }
    }
}

impl std::error::Error for QueryError {}

impl From<PoseError> for QueryError {
    fn from(e: PoseError) -> QueryError {
        match e {
            PoseError::NonFinite => QueryError::NonFinite,
            PoseError::InvalidScale => QueryError::InvalidScale,
            PoseError::NotRotation => QueryError::NotRotation,
        }
    }
}

impl From<RangeError> for QueryError {
    fn from(_: RangeError) -> QueryError {
        QueryError::OutOfRange
    }
}

/// The placements of a query from the Rust API: checked as the native C API checks them
/// ([`Placement::check`]).
pub(crate) fn check_placements(p1: &Placement, p2: &Placement) -> Result<(), QueryError> {
    p1.check()?;
    p2.check()?;
    Ok(())
}

/// Model `b`'s placement in model `a`'s frame: a point `x` of `b` sits at `scale * rotation * x
/// + translation` in `a`'s coordinates.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Relative {
    pub rotation: Mat3,
    pub translation: Vec3,
    pub scale: f64,
}

impl Relative {
    /// From the world placements of `a` and `b` (`a`'s rotation inverted as
    /// [`TRANSPOSE_INVERTS`] says).
    pub fn between(a: &Placement, b: &Placement) -> Relative {
        Relative::between_telling(a, b).0
    }

    /// [`Relative::between`], and whether `a`'s rotation is beyond [`TRANSPOSE_INVERTS`] from
    /// orthonormal (so that a query measuring distances knows, without asking again).
    pub fn between_telling(a: &Placement, b: &Placement) -> (Relative, bool) {
        let deviates = gram_deviation(&a.rotation) > TRANSPOSE_INVERTS;
        let inverse = if deviates { refined_inverse(&a.rotation) } else { None };
        let at = inverse.unwrap_or_else(|| a.rotation.transpose());
        let t = at * (b.translation - a.translation);
        // (Dividing by a scale of 1, the usual one, changes nothing: skip the divisions.)
        let (translation, scale) = if a.scale == 1.0 { (t, b.scale) } else { (t / a.scale, b.scale / a.scale) };
        (Relative { rotation: at * b.rotation, translation, scale }, deviates)
    }

    /// `Ok` when `a`'s coordinates and `b`'s placed in `a`'s frame by `self` stay within
    /// [`RANGE_LIMIT`] (and the placement is finite, its scale within `[2^-1000, 2^1000]`), so
    /// that no coordinate a query computes overflows.
    pub fn check_range(&self, a: &Model, b: &Model) -> Result<(), RangeError> {
        // (Written on the arrays: nalgebra's iterators and views cost a few times more, which
        // shows in a one-triangle query.)
        let r = self.rotation.as_slice();
        let t = [self.translation.x, self.translation.y, self.translation.z];
        let scale_ok = self.scale >= 1.0 / RANGE_LIMIT && self.scale <= RANGE_LIMIT;
        if !(crate::pose::all_finite(r) && crate::pose::all_finite(&t) && scale_ok) {
            return Err(RangeError);
        }
        // ‖R‖∞ (the largest row sum of magnitudes; row k is r[k], r[k + 3], r[k + 6] in the
        // column-major storage) bounds |R p|∞ by |p|∞; the factor covers the rounding of this
        // bound.
        let row = |k: usize| r[k].abs() + r[k + 3].abs() + r[k + 6].abs();
        let norm = row(0).max(row(1)).max(row(2));
        let rotated = norm * b.magnitude() * (1.0 + 1e-12);
        let amax = t[0].abs().max(t[1].abs()).max(t[2].abs());
        let placed = (self.scale * rotated + amax) * (1.0 + 1e-12);
        if a.magnitude() <= RANGE_LIMIT && rotated <= 1e305 && placed <= RANGE_LIMIT { Ok(()) } else { Err(RangeError) }
    }

    /// Whether `b` is only translated in `a`'s frame: the rotation exactly the identity and
    /// the scale 1, so that [`Relative::apply`] computes `fl(p + translation)`.
    pub fn is_translation(&self) -> bool {
        self.scale == 1.0 && self.rotation == Mat3::identity()
    }

    #[inline]
    pub fn apply(&self, p: &Vec3) -> Vec3 {
        if self.scale == 1.0 {
            self.rotation * p + self.translation
        } else {
            (self.rotation * p) * self.scale + self.translation
        }
    }
}
