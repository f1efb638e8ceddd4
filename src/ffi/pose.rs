//! What a pose may be, for every layer: the rotation check and its one tolerance setting, the
//! range of scales, and the cap on search queues.
//!
//! **Rotations.** The native API and the Python package accept a rotation block `R` (row-major
//! 3×3) when its columns are orthonormal within the rotation tolerance and its determinant is
//! positive. The check is relative to the block's mean squared column length `s²`, so that a
//! rotation times a uniform scale `k = s` can be recognised (`rpq_poses_from_matrices` and
//! Python fold `k` into the pose's scale): every squared column length within `tol·s²` of
//! `s²`, every dot product of two columns within `tol·s²` of 0. An `RpqPose`'s rotation must
//! moreover have `|k − 1| <= tol` (its scale is the `scale` field: `3·I` with scale 1 is
//! refused, `I` with scale 3 is the way to say it). The entries are divided by the largest
//! one first, so no finite input overflows or underflows in the check. The tolerance is one
//! process-wide setting, `rpq_set_rotation_tolerance` (Python: `rapidpqp.ROTATION_TOLERANCE`),
//! 1e-5 by default: rotations written with 6 decimals (orthonormal to about 2e-6) pass.
//!
//! **Legacy RAPID and PQP calls** check their rotations against a fixed, looser bound
//! (`LEGACY_ROTATION_TOLERANCE`, 1e-3) and accept reflections: programs relinked from RAPID
//! and PQP, whose matrices drift by rounding or come from files with few decimals, keep
//! working, while a matrix that is plainly not a rigid motion (zero, scaled, sheared), for
//! which RAPID and PQP silently returned contacts and distances of no placement at all, gets
//! `RAPID_ERR_NOT_ROTATION` / `PQP_ERR_NOT_ROTATION` and changes nothing.
//!
//! **Scales** (an `RpqPose`'s, RAPID's `s1`/`s2`, a matrix block's `k`) must lie in
//! [`RPQ_MIN_SCALE`, `RPQ_MAX_SCALE`].

use std::ffi::c_int;

use super::guard;
use super::native::{RPQ_ERR_INTERNAL, RPQ_ERR_INVALID_ARGUMENT, RPQ_OK, RpqStatus};
use crate::model::Model;

/// The smallest scale a pose may have (an `RpqPose`'s, one folded from a matrix, RAPID's).
pub const RPQ_MIN_SCALE: f64 = 1e-100;
/// The largest scale a pose may have.
pub const RPQ_MAX_SCALE: f64 = 1e100;
/// The rotation tolerance until `rpq_set_rotation_tolerance` changes it.
pub const RPQ_ROTATION_TOLERANCE_DEFAULT: f64 = 1e-5;
/// The largest rotation tolerance `rpq_set_rotation_tolerance` accepts.
pub const RPQ_MAX_ROTATION_TOLERANCE: f64 = 1e-2;
/// The largest queue a distance or tolerance search is given, whatever `qsize` asks.
pub const RPQ_MAX_QSIZE: c_int = 1 << 16;

/// The bound the legacy RAPID and PQP calls check rotations against (see the module docs).
pub(crate) const LEGACY_ROTATION_TOLERANCE: f64 = 1e-3;

pub(crate) use crate::pose::{PoseError, block_scale, placement, rotation_tolerance, scale_in_range};

// The C names of the core's limits (cbindgen writes literals only).
const _: () = assert!(RPQ_MIN_SCALE == crate::pose::MIN_SCALE && RPQ_MAX_SCALE == crate::pose::MAX_SCALE);
const _: () = assert!(RPQ_ROTATION_TOLERANCE_DEFAULT == crate::pose::ROTATION_TOLERANCE_DEFAULT);
const _: () = assert!(RPQ_MAX_ROTATION_TOLERANCE == crate::pose::MAX_ROTATION_TOLERANCE);

/// Sets the rotation tolerance of every later native call, process-wide (default
/// `RPQ_ROTATION_TOLERANCE_DEFAULT`, 1e-5): how far from orthonormal, relative to its scale, a
/// pose's rotation may be. `RPQ_ERR_INVALID_ARGUMENT` (nothing changed) unless
/// `0 <= tolerance <= RPQ_MAX_ROTATION_TOLERANCE`. Not for use while other threads run queries
/// whose outcome should not change.
#[unsafe(no_mangle)]
pub extern "C" fn rpq_set_rotation_tolerance(tolerance: f64) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || match crate::pose::set_rotation_tolerance(tolerance) {
        Ok(()) => RPQ_OK,
        Err(_) => RPQ_ERR_INVALID_ARGUMENT,
    })
}

/// The rotation tolerance in force (see `rpq_set_rotation_tolerance`).
#[unsafe(no_mangle)]
pub extern "C" fn rpq_rotation_tolerance() -> f64 {
    rotation_tolerance()
}

/// A distance or tolerance search's queue size: 2 for `qsize <= 2` (the default search
/// order); otherwise `qsize` capped by [`RPQ_MAX_QSIZE`] and by the number of node pairs of
/// the two models (a larger queue could never fill), but at least 3 (the best-first order).
/// No caller-supplied number decides an allocation alone.
pub(crate) fn queue_size(qsize: c_int, m1: &Model, m2: &Model) -> usize {
    if qsize <= 2 {
        return 2;
    }
    let pairs = m1.num_nodes().saturating_mul(m2.num_nodes());
    (qsize as usize).min(RPQ_MAX_QSIZE as usize).min(pairs.max(3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pose::is_rotation;

    #[test]
    fn the_tolerance_setting_is_checked() {
        let before = rotation_tolerance();
        assert_eq!(rpq_set_rotation_tolerance(f64::NAN), RPQ_ERR_INVALID_ARGUMENT);
        assert_eq!(rpq_set_rotation_tolerance(-1e-9), RPQ_ERR_INVALID_ARGUMENT);
        assert_eq!(rpq_set_rotation_tolerance(0.5), RPQ_ERR_INVALID_ARGUMENT);
        assert_eq!(rotation_tolerance(), before, "nothing changed");
        assert_eq!(rpq_rotation_tolerance(), before);
    }

    #[test]
    fn six_decimal_rotations_pass_the_legacy_tolerance() {
        for k in 0..2000 {
            let (a, b) = (0.37 * k as f64, 0.11 * k as f64);
            let (ca, sa, cb, sb) = (a.cos(), a.sin(), b.cos(), b.sin());
            let r = [ca * cb, -sa, ca * sb, sa * cb, ca, sa * sb, -sb, 0.0, cb];
            let rounded = r.map(|x| (x * 1e6).round() / 1e6);
            assert!(is_rotation(&rounded, LEGACY_ROTATION_TOLERANCE, true));
        }
    }
}
