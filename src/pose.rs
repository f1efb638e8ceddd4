//! What a placement may be: finite, a scale within [`MIN_SCALE`, `MAX_SCALE`], and a rotation
//! that is one within the rotation tolerance. One implementation for every interface: the Rust
//! queries check their placements with it, and the C and Python layers with the same
//! functions (the legacy C layers with their own, looser bound; see `ffi::pose`).
//!
//! **Rotations.** A rotation block `R` (row-major 3×3) passes when its columns are orthonormal
//! within the tolerance and its determinant is positive. The check is relative to the block's
//! mean squared column length `s²`, so that a rotation times a uniform scale `k = s` can be
//! recognised (`block_scale`): every squared column length within `tol·s²` of `s²`, every dot
//! product of two columns within `tol·s²` of 0. A placement's rotation must moreover have
//! `|k − 1| <= tol` (its scale is the scale field: `3·I` with scale 1 is refused, `I` with
//! scale 3 is the way to say it). The entries are divided by the largest one first, so no
//! finite input overflows or underflows in the check. The tolerance is one process-wide
//! setting ([`set_rotation_tolerance`]), 1e-5 by default: rotations written with 6 decimals
//! (orthonormal to about 2e-6) pass.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::math::{Mat3, Placement, Vec3};

/// The smallest scale a placement may have.
///
/// cbindgen:ignore
pub const MIN_SCALE: f64 = 1e-100;
/// The largest scale a placement may have.
///
/// cbindgen:ignore
pub const MAX_SCALE: f64 = 1e100;
/// The rotation tolerance until [`set_rotation_tolerance`] changes it.
///
/// cbindgen:ignore
pub const ROTATION_TOLERANCE_DEFAULT: f64 = 1e-5;
/// The largest rotation tolerance [`set_rotation_tolerance`] accepts.
///
/// cbindgen:ignore
pub const MAX_ROTATION_TOLERANCE: f64 = 1e-2;

static ROTATION_TOLERANCE: AtomicU64 = AtomicU64::new(ROTATION_TOLERANCE_DEFAULT.to_bits());

/// The process-wide rotation tolerance (see the module documentation).
#[inline(always)]
pub fn rotation_tolerance() -> f64 {
    f64::from_bits(ROTATION_TOLERANCE.load(Ordering::Relaxed))
}

/// Sets the rotation tolerance of every later check, process-wide: how far from orthonormal,
/// relative to its scale, a placement's rotation may be. Refused (nothing changed) unless
/// `0 <= tolerance <= MAX_ROTATION_TOLERANCE`. Not for use while other threads run queries
/// whose outcome should not change.
pub fn set_rotation_tolerance(tolerance: f64) -> Result<(), InvalidTolerance> {
    if !(0.0..=MAX_ROTATION_TOLERANCE).contains(&tolerance) {
        return Err(InvalidTolerance);
    }
    ROTATION_TOLERANCE.store(tolerance.to_bits(), Ordering::Relaxed);
    Ok(())
}

/// A rotation tolerance outside `[0, MAX_ROTATION_TOLERANCE]` (or NaN).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidTolerance;

impl std::fmt::Display for InvalidTolerance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a rotation tolerance must lie in [0, {MAX_ROTATION_TOLERANCE}]")
    }
}

impl std::error::Error for InvalidTolerance {}

/// True when every value is finite (integer operations without early exit: the loop
/// vectorizes).
#[inline(always)]
pub(crate) fn all_finite(values: &[f64]) -> bool {
    const EXPONENT: u64 = 0x7ff << 52;
    // The exponent field is all ones exactly for NaN and the infinities; adding one to it then
    // carries into the top bit, which no other exponent reaches.
    values.iter().fold(0, |any, x| any | ((x.to_bits() & EXPONENT) + (1 << 52))) >> 63 == 0
}

/// The uniform scale `k` of a row-major 3×3 block that is a rotation (a reflection too when
/// `reflections`) times `k`, its columns orthonormal within `tolerance` relative to `k²`;
/// `None` otherwise (and for a zero or non-finite block).
///
/// A block whose largest entry is outside [2^-300, 2^300] is first multiplied by a power of two
/// that brings it to about 1: exact, so the decision and `k` are those of the plain formulas
/// wherever those do not overflow or underflow. The Python package repeats this arithmetic
/// operation for operation (`rapidpqp._api._pack_pose`).
// Used by the C boundary (`ffi::pose`) only.
#[cfg_attr(not(feature = "capi"), allow(dead_code))]
#[inline]
pub(crate) fn block_scale(a: &[f64; 9], tolerance: f64, reflections: bool) -> Option<f64> {
    // The largest magnitude, on the bit patterns (ordered as the magnitudes for finite values).
    let top = a.iter().fold(0u64, |top, x| top.max(x.to_bits() & !(1 << 63)));
    if top == 0 || top >= 0x7ff << 52 {
        return None; // zero, NaN or infinite
    }
    // Its binary exponent (subnormals count as the smallest normal exponent).
    let exponent = ((top >> 52) as i32 - 1023).max(-1022);
    let (b, unit) = if (-300..=300).contains(&exponent) {
        (*a, 1.0)
    } else {
        let down = pow2(-exponent);
        (a.map(|x| x * down), pow2(exponent))
    };
    gram_check(&b, tolerance, reflections).map(|s2| unit * s2.sqrt())
}

/// The orthogonality test of [`block_scale`] on a block `b` of moderate size: `s²`, the mean
/// squared column length, when the columns are orthogonal and of equal length within
/// `tolerance * s²` (and the determinant positive unless `reflections`); else `None`. A block
/// whose products overflow or underflow is refused (a NaN or infinite `s²` fails the tests).
#[inline(always)]
fn gram_check(b: &[f64; 9], tolerance: f64, reflections: bool) -> Option<f64> {
    let c0 = b[0] * b[0] + b[3] * b[3] + b[6] * b[6];
    let c1 = b[1] * b[1] + b[4] * b[4] + b[7] * b[7];
    let c2 = b[2] * b[2] + b[5] * b[5] + b[8] * b[8];
    let s2 = (c0 + c1 + c2) / 3.0;
    let tol = tolerance * s2;
    // (`&`, not `&&`: one branch instead of six.)
    let orthogonal = ((c0 - s2).abs() <= tol)
        & ((c1 - s2).abs() <= tol)
        & ((c2 - s2).abs() <= tol)
        & ((b[0] * b[1] + b[3] * b[4] + b[6] * b[7]).abs() <= tol)
        & ((b[0] * b[2] + b[3] * b[5] + b[6] * b[8]).abs() <= tol)
        & ((b[1] * b[2] + b[4] * b[5] + b[7] * b[8]).abs() <= tol);
    if !orthogonal || s2 == 0.0 {
        return None;
    }
    // Columns of equal length, orthogonal within tolerance <= 1e-2: |det| is about s³, never
    // 0, so only its sign is left to decide, and only when reflections are refused.
    if !reflections {
        let det = b[0] * (b[4] * b[8] - b[5] * b[7]) - b[1] * (b[3] * b[8] - b[5] * b[6])
            + b[2] * (b[3] * b[7] - b[4] * b[6]);
        if det.is_nan() || det <= 0.0 {
            return None;
        }
    }
    Some(s2)
}

/// `2^e` for `-1022 <= e <= 1023` (exact).
// Used by `block_scale` only.
#[cfg_attr(not(feature = "capi"), allow(dead_code))]
#[inline]
fn pow2(e: i32) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// True when `a` is a rotation within `tolerance` whose own scale is 1 within `tolerance`: the
/// decision of [`block_scale`] followed by `|k − 1| <= tolerance`, without the rescaling (a
/// block that would need it has a scale far from 1, and its products overflow or underflow,
/// which the test refuses).
#[inline]
pub(crate) fn is_rotation(a: &[f64; 9], tolerance: f64, reflections: bool) -> bool {
    gram_check(a, tolerance, reflections).is_some_and(|s2| (s2.sqrt() - 1.0).abs() <= tolerance)
}

/// Why a placement was refused (each C layer has its own code for each), in order of
/// precedence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoseError {
    /// A NaN or infinite number anywhere.
    NonFinite,
    /// The scale outside [`MIN_SCALE`, `MAX_SCALE`].
    InvalidScale,
    /// The rotation is not one within the tolerance (see `is_rotation`).
    NotRotation,
}

/// True for the identity rotation exactly. (The first entry alone rejects any other rotation
/// but a handful: one comparison in the usual case.)
#[inline(always)]
fn is_identity(r: &[f64; 9]) -> bool {
    r[0] == 1.0
        && (r[4] == 1.0) & (r[8] == 1.0)
        && (r[1] == 0.0) & (r[2] == 0.0) & (r[3] == 0.0) & (r[5] == 0.0) & (r[6] == 0.0) & (r[7] == 0.0)
}

/// Checks a pose's numbers: finite, the scale in range, the rotation (row-major) one within
/// `tolerance` (reflections too when `reflections`). The rotation test refuses any NaN or
/// infinite entry by itself, so the rotation's entries are only scanned for one when it fails.
#[inline(always)]
pub(crate) fn check_pose(
    r: &[f64; 9],
    t: &[f64; 3],
    scale: f64,
    tolerance: f64,
    reflections: bool,
) -> Result<(), PoseError> {
    // The identity (a model left where it was built, the usual first pose) passes at any
    // tolerance; it skips the arithmetic.
    let rotation = is_identity(r) || is_rotation(r, tolerance, reflections);
    if !all_finite(&[t[0], t[1], t[2], scale]) || (!rotation && !all_finite(r)) {
        Err(PoseError::NonFinite)
    } else if !scale_in_range(scale) {
        Err(PoseError::InvalidScale)
    } else if !rotation {
        Err(PoseError::NotRotation)
    } else {
        Ok(())
    }
}

/// The placement of a checked pose ([`check_pose`]); `R` row-major.
// Used by the C boundary (`ffi::pose`) only.
#[cfg_attr(not(feature = "capi"), allow(dead_code))]
#[inline(always)]
pub(crate) fn placement(
    r: &[f64; 9],
    t: &[f64; 3],
    scale: f64,
    tolerance: f64,
    reflections: bool,
) -> Result<Placement, PoseError> {
    check_pose(r, t, scale, tolerance, reflections)?;
    Ok(Placement {
        rotation: Mat3::new(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]),
        translation: Vec3::new(t[0], t[1], t[2]),
        scale,
    })
}

/// True when a scale is within [`MIN_SCALE`], [`MAX_SCALE`] (false for NaN).
#[inline(always)]
pub(crate) fn scale_in_range(scale: f64) -> bool {
    (MIN_SCALE..=MAX_SCALE).contains(&scale)
}

impl std::fmt::Display for PoseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PoseError::NonFinite => "a placement has a NaN or infinite number",
            PoseError::InvalidScale => "a placement's scale is outside [1e-100, 1e100]",
            PoseError::NotRotation => "a placement's rotation is not a rotation within the rotation tolerance",
        })
    }
}

impl std::error::Error for PoseError {}

impl Placement {
    /// `Ok` when the placement may be queried with: finite, its scale in range, its rotation one
    /// within the process-wide [`rotation_tolerance`] (reflections are refused).
    pub fn check(&self) -> Result<(), PoseError> {
        let r = &self.rotation;
        let rows = [r[(0, 0)], r[(0, 1)], r[(0, 2)], r[(1, 0)], r[(1, 1)], r[(1, 2)], r[(2, 0)], r[(2, 1)], r[(2, 2)]];
        let t = [self.translation.x, self.translation.y, self.translation.z];
        check_pose(&rows, &t, self.scale, rotation_tolerance(), false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rot(angle: f64) -> [f64; 9] {
        let (c, s) = (angle.cos(), angle.sin());
        [c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0]
    }

    #[test]
    fn rotations_and_scaled_rotations() {
        let r = rot(0.7);
        assert!(is_rotation(&r, 1e-5, false));
        let k = block_scale(&r.map(|x| 3.0 * x), 1e-5, false).unwrap();
        assert!((k - 3.0).abs() < 1e-15);
        assert!(!is_rotation(&r.map(|x| 3.0 * x), 1e-5, false), "3 R is not a rotation");
        assert!(block_scale(&[0.0; 9], 1e-5, false).is_none(), "zero");
        let tiny = [5e-324, 0.0, 0.0, 0.0, 5e-324, 0.0, 0.0, 0.0, 5e-324];
        assert!(block_scale(&tiny, 1e-5, false).is_some_and(|k| k > 0.0 && k < 1e-300), "subnormal");
        let mut sheared = r;
        sheared[1] += 1e-3;
        assert!(block_scale(&sheared, 1e-5, false).is_none());
        assert!(block_scale(&sheared, 1e-2, false).is_some());
        let reflection = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0];
        assert!(!is_rotation(&reflection, 1e-5, false) && is_rotation(&reflection, 1e-5, true));
        let mut nan = r;
        nan[4] = f64::NAN;
        assert!(block_scale(&nan, 1e-5, true).is_none());
        // No overflow or underflow inside the check, whatever the finite scale.
        for e in [-307, -300, -200, -100, 100, 200, 300, 307] {
            let f = 10f64.powi(e);
            let k = block_scale(&r.map(|x| f * x), 1e-5, false).unwrap();
            assert!((k / f - 1.0).abs() < 1e-14, "{e}");
        }
        assert!(scale_in_range(1.0) && scale_in_range(1e100) && scale_in_range(1e-100));
        assert!(!scale_in_range(1e101) && !scale_in_range(1e-101) && !scale_in_range(f64::NAN));
    }

    #[test]
    fn is_rotation_decides_as_block_scale() {
        let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
        let mut accepted = 0;
        for k in 0..20000 {
            let mut r = rot(rng.range(0.0, 6.3));
            for v in &mut r {
                *v = *v * (1.0 + rng.range(-4e-6, 4e-6)) + rng.range(-4e-6, 4e-6);
            }
            let f = [1.0, 1.0, 1.0 + 1e-5, 1e-200, 1e200, 1e300, 1e-310][k % 7];
            let r = r.map(|x| x * f);
            let want = block_scale(&r, 1e-5, k % 2 == 0).is_some_and(|k| (k - 1.0).abs() <= 1e-5);
            assert_eq!(is_rotation(&r, 1e-5, k % 2 == 0), want, "{r:?}");
            accepted += usize::from(want);
        }
        assert!((2000..12000).contains(&accepted), "both outcomes are exercised ({accepted})");
    }

    #[test]
    fn scaling_by_powers_of_two_changes_nothing() {
        for k in 0..500 {
            let r = rot(0.013 * k as f64).map(|x| x * (1.0 + 1e-7 * (k % 7) as f64));
            let plain = block_scale(&r, 1e-6, false);
            for e in [-900, -400, 400, 900] {
                let scaled = block_scale(&r.map(|x| x * pow2(e)), 1e-6, false);
                assert_eq!(scaled.is_some(), plain.is_some(), "{k} {e}");
                if let (Some(a), Some(b)) = (plain, scaled) {
                    assert_eq!(a * pow2(e), b, "{k} {e}: exactly the plain k, scaled");
                }
            }
        }
        assert_eq!(pow2(0), 1.0);
        assert_eq!(pow2(-1022), f64::MIN_POSITIVE);
        assert_eq!(pow2(10), 1024.0);
    }

    #[test]
    fn six_decimal_rotations_pass_the_default_and_legacy_tolerances() {
        let mut worst = 0.0f64;
        for k in 0..2000 {
            let (a, b) = (0.37 * k as f64, 0.11 * k as f64);
            let (ca, sa, cb, sb) = (a.cos(), a.sin(), b.cos(), b.sin());
            let r = [ca * cb, -sa, ca * sb, sa * cb, ca, sa * sb, -sb, 0.0, cb];
            let rounded = r.map(|x| (x * 1e6).round() / 1e6);
            assert!(is_rotation(&rounded, ROTATION_TOLERANCE_DEFAULT, false), "{rounded:?}");
            assert!(is_rotation(&rounded, 1e-3, true));
            let c0 = rounded[0] * rounded[0] + rounded[3] * rounded[3] + rounded[6] * rounded[6];
            worst = worst.max((c0 - 1.0).abs());
        }
        assert!(worst > 1e-7, "the rounding is felt ({worst})");
    }

    #[test]
    fn the_tolerance_setting_is_checked() {
        let before = rotation_tolerance();
        assert!(set_rotation_tolerance(f64::NAN).is_err());
        assert!(set_rotation_tolerance(-1e-9).is_err());
        assert!(set_rotation_tolerance(0.5).is_err());
        assert_eq!(rotation_tolerance(), before, "nothing changed");
    }

    #[test]
    fn placements_are_checked() {
        let ok =
            Placement { rotation: Mat3::from_row_slice(&rot(0.3)), translation: Vec3::new(1.0, 2.0, 3.0), scale: 2.0 };
        assert_eq!(ok.check(), Ok(()));
        assert_eq!(Placement { scale: 0.0, ..ok }.check(), Err(PoseError::InvalidScale));
        assert_eq!(Placement { scale: f64::NAN, ..ok }.check(), Err(PoseError::NonFinite));
        assert_eq!(
            Placement { translation: Vec3::new(f64::INFINITY, 0.0, 0.0), ..ok }.check(),
            Err(PoseError::NonFinite)
        );
        assert_eq!(Placement { rotation: ok.rotation * 3.0, ..ok }.check(), Err(PoseError::NotRotation));
        assert_eq!(Placement { rotation: Mat3::zeros(), ..ok }.check(), Err(PoseError::NotRotation));
        let mirror = Mat3::from_diagonal(&Vec3::new(1.0, 1.0, -1.0));
        assert_eq!(Placement { rotation: mirror, ..ok }.check(), Err(PoseError::NotRotation));
    }
}
