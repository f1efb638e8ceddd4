//! Exact orientation predicates: thin wrappers over Shewchuk's adaptive-precision `orient2d` and
//! `orient3d` (the `robust` crate), plus small helpers built only from them and from exact
//! operations (copying, comparing and negating doubles).
//!
//! Every *sign* returned here is exact for the given doubles, under Shewchuk's standing assumption
//! that no intermediate product overflows or underflows (true for coordinates of ordinary
//! magnitude; trouble starts only near 1e±100). The magnitudes are approximations.

use crate::math::Vec3;
use robust::{Coord, Coord3D};

#[inline(always)]
fn c3(p: &Vec3) -> Coord3D<f64> {
    Coord3D { x: p.x, y: p.y, z: p.z }
}

#[inline(always)]
fn c2(p: [f64; 2]) -> Coord<f64> {
    Coord { x: p[0], y: p[1] }
}

/// Shewchuk's `orient3d`: positive when `d` lies *below* the plane through `a`, `b`, `c` ("below"
/// being the side from which `a`, `b`, `c` appear clockwise), negative above, zero iff the four
/// points are coplanar. It is the sign of `(a−d)·((b−d)×(c−d))`. Sign exact.
#[inline]
pub fn orient3d(a: &Vec3, b: &Vec3, c: &Vec3, d: &Vec3) -> f64 {
    robust::orient3d(c3(a), c3(b), c3(c), c3(d))
}

/// Shewchuk's `orient2d`: positive when `a`, `b`, `c` turn counter-clockwise (`c` left of the
/// directed line `a→b`), negative clockwise, zero iff collinear. Sign exact.
#[inline]
pub fn orient2d(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    robust::orient2d(c2(a), c2(b), c2(c))
}

/// `orient3d` with the sign convention of the normal: the exact sign of
/// `((b−a)×(c−a))·(d−a)` (six times the signed volume of the tetrahedron `abcd`), i.e. positive
/// when `d` is on the side the normal `(b−a)×(c−a)` points to. Returns −1, 0 or 1.
#[inline]
pub fn volume_sign(a: &Vec3, b: &Vec3, c: &Vec3, d: &Vec3) -> i8 {
    // Shewchuk's determinant is the negated triple product (row reduction of its 3×3 form).
    sign(-orient3d(a, b, c, d))
}

/// Exact sign of `orient2d` as −1, 0 or 1.
#[inline]
pub fn orient2d_sign(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> i8 {
    sign(orient2d(a, b, c))
}

/// −1, 0 or 1 by the sign of `x` (`x` is never NaN here).
#[inline(always)]
pub fn sign(x: f64) -> i8 {
    (x > 0.0) as i8 - (x < 0.0) as i8
}

/// The point seen along coordinate axis `axis` (0, 1, 2): the other two coordinates, in cyclic
/// order (`x` dropped → `(y, z)`, `y` → `(z, x)`, `z` → `(x, y)`). Exact. With that order
/// `orient2d` of three projected points is the `axis` component of `(b−a)×(c−a)`.
#[inline]
pub fn project(p: &Vec3, axis: usize) -> [f64; 2] {
    match axis {
        0 => [p.y, p.z],
        1 => [p.z, p.x],
        _ => [p.x, p.y],
    }
}

/// Exact sign of component `axis` of the normal `(b−a)×(c−a)`.
#[inline]
pub fn normal_component_sign(a: &Vec3, b: &Vec3, c: &Vec3, axis: usize) -> i8 {
    orient2d_sign(project(a, axis), project(b, axis), project(c, axis))
}

/// True iff `a`, `b`, `c` lie on one line (including coincident points): every component of
/// `(b−a)×(c−a)` is exactly zero.
pub fn collinear(a: &Vec3, b: &Vec3, c: &Vec3) -> bool {
    (0..3).all(|k| normal_component_sign(a, b, c, k) == 0)
}

/// An axis along which the projection of triangle `abc` is non-degenerate (the normal's
/// component on it is exactly non-zero), preferring the normal's largest component for
/// conditioning; `None` iff the three points are collinear. Projecting along such an axis is
/// injective on the triangle's plane, so it preserves every incidence inside that plane.
pub fn projection_axis(a: &Vec3, b: &Vec3, c: &Vec3) -> Option<usize> {
    // A floating-point normal only orders the candidates; the exact test decides.
    let n = (b - a).cross(&(c - a)).abs();
    let first = if n.x >= n.y && n.x >= n.z {
        0
    } else if n.y >= n.z {
        1
    } else {
        2
    };
    [first, (first + 1) % 3, (first + 2) % 3].into_iter().find(|&k| normal_component_sign(a, b, c, k) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_conventions() {
        let o = Vec3::zeros();
        let (x, y, z) = (Vec3::x(), Vec3::y(), Vec3::z());
        // z is on the side of the normal x × y = z: Shewchuk calls that "above" (negative).
        assert!(orient3d(&o, &x, &y, &z) < 0.0);
        assert_eq!(volume_sign(&o, &x, &y, &z), 1);
        assert_eq!(volume_sign(&o, &x, &y, &(-z)), -1);
        assert_eq!(volume_sign(&o, &x, &y, &(x + y)), 0);
        assert!(orient2d([0.0, 0.0], [1.0, 0.0], [0.0, 1.0]) > 0.0);
        assert_eq!(orient2d_sign([0.0, 0.0], [1.0, 1.0], [3.0, 3.0]), 0);
    }

    #[test]
    fn projections_give_normal_components() {
        let a = Vec3::new(0.5, -1.0, 2.0);
        let b = Vec3::new(3.0, 0.25, -1.0);
        let c = Vec3::new(-2.0, 4.0, 1.5);
        let n = (b - a).cross(&(c - a));
        for k in 0..3 {
            assert_eq!(normal_component_sign(&a, &b, &c, k), sign(n[k]));
        }
        assert!(!collinear(&a, &b, &c));
        assert_eq!(projection_axis(&a, &b, &c), Some(2)); // n = (-13.75, -8.75, 16.5625)
    }

    #[test]
    fn degenerate_triangles() {
        let a = Vec3::new(1.0, 2.0, 3.0);
        let d = Vec3::new(0.1, 0.7, -0.3);
        // 0.1, 0.7 and -0.3 are not exact, but a + 2(b − a) with b = a + d is computed exactly
        // only for dyadic d; use dyadic steps so the points really are collinear.
        let d = d.map(|v| (v * 1024.0).round() / 1024.0);
        let b = a + d;
        let c = a + d * 4.0;
        assert!(collinear(&a, &b, &c));
        assert!(collinear(&a, &a, &c));
        assert!(collinear(&a, &a, &a));
        assert_eq!(projection_axis(&a, &b, &c), None);
        // A triangle in the plane x = 1 projects non-degenerately only along x.
        let p = Vec3::new(1.0, 0.0, 0.0);
        let q = Vec3::new(1.0, 1.0, 0.0);
        let r = Vec3::new(1.0, 0.0, 1.0);
        assert_eq!(projection_axis(&p, &q, &r), Some(0));
        // One ulp off the line is not collinear.
        let c2 = Vec3::new(c.x, c.y, f64::from_bits(c.z.to_bits() + 1));
        assert!(!collinear(&a, &b, &c2));
    }
}
