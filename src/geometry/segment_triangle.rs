//! Exact contact of a segment with a closed triangle: the one classification behind ray casts
//! and inside/outside ([`crate::query::ray`], [`crate::query::winding`](mod@crate::query::winding)).
//!
//! Every decision is the sign of an exact predicate ([`super::predicates`]), so a segment
//! through a shared edge or vertex of a mesh touches every triangle that has it, whatever the
//! doubles. The floating-point part ([`hit_location`]) only says *where* a contact is.
//!
//! Notation: the segment runs from `p` to `q`; `sp`, `sq` are the exact sides of `p` and `q`
//! with respect to the triangle's plane (sign of `((t1−t0)×(t2−t0))·(x−t0)`), and
//! `e_i = volume_sign(p, q, t_i, t_{i+1})` tells on which side of edge `t_i t_{i+1}` the line
//! `pq` passes (all three share one sign iff the line meets the triangle's interior).

use super::predicates::{
    collinear, log2_floor, normal_component_sign, project, projection_axis, times_pow2, volume_sign,
};
use super::tri_distance::segment_params;
use super::tri_intersect::segment_meets_triangle;
use crate::math::{Triangle, Vec3};

/// How a closed segment meets a closed triangle, decided exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegmentContact {
    /// No common point.
    Miss,
    /// The segment crosses the triangle's interior transversally: its endpoints are strictly
    /// on opposite sides of the plane and the crossing point is strictly inside the triangle
    /// (not on an edge or vertex). The sign is +1 when the segment runs towards the side the
    /// normal `(t1−t0)×(t2−t0)` points to, −1 otherwise.
    Cross(i8),
    /// Any other contact: through an edge or a vertex, an endpoint on the triangle, the segment
    /// in the triangle's plane and meeting it, or a zero-area triangle (a segment or a point)
    /// met.
    Touch,
}

/// The exact contact of the closed segment `pq` with the closed triangle `t`. Zero-area
/// triangles are the segment or point they are; `p == q` is a point.
#[inline]
pub fn segment_triangle(p: &Vec3, q: &Vec3, t: &Triangle) -> SegmentContact {
    let sp = volume_sign(&t[0], &t[1], &t[2], p);
    let sq = volume_sign(&t[0], &t[1], &t[2], q);
    if sp * sq > 0 {
        return SegmentContact::Miss;
    }
    if sp == 0 && sq == 0 {
        // In the plane, or the triangle has no area (every point is "in its plane").
        return if segment_meets_triangle(p, q, t) { SegmentContact::Touch } else { SegmentContact::Miss };
    }
    // The line pq meets the plane at one point X of the segment; X is in the closed triangle
    // iff no two edge signs are strictly opposite (see `segment_meets_triangle`).
    let e = edge_signs(p, q, t);
    if e.contains(&1) && e.contains(&-1) {
        SegmentContact::Miss
    } else if sp != 0 && sq != 0 && e[0] != 0 && e[0] == e[1] && e[1] == e[2] {
        SegmentContact::Cross(sq)
    } else {
        SegmentContact::Touch
    }
}

#[inline(always)]
fn edge_signs(p: &Vec3, q: &Vec3, t: &Triangle) -> [i8; 3] {
    [volume_sign(p, q, &t[0], &t[1]), volume_sign(p, q, &t[1], &t[2]), volume_sign(p, q, &t[2], &t[0])]
}

/// True iff `p` lies on the closed triangle `t` (exactly; degenerate triangles included).
#[inline]
pub fn point_on_triangle(p: &Vec3, t: &Triangle) -> bool {
    segment_meets_triangle(p, p, t)
}

/// What the segment from `p` to `q + δ` does at `t` for an infinitesimal `δ = ε x̂ + ε² ŷ +
/// ε³ ẑ` (`ε → 0⁺`), given that `p` is not on `t`: `Some(±1)` for a transversal crossing
/// (signed as in [`SegmentContact::Cross`]), `None` for no contact. The perturbed segment
/// never touches an edge, a vertex or a zero-area triangle, and never lies in a plane (see
/// below), so summing these over a closed mesh gives the winding number of the mesh about `p`
/// when `q` is outside its bounding box, whatever the degeneracies of the unperturbed segment.
///
/// Why this is exact and never ambiguous: `vol(p, q + δ, a, b) = vol(p, q, a, b) + δ·((a−p) ×
/// (b−p))`, so its sign is the first nonzero of `vol(p, q, a, b)` and the x, y, z components
/// of `(a−p)×(b−p)` (each an exact `orient2d` of projections); that is zero only when `p`,
/// `a`, `b` are collinear. Likewise `q + δ`'s side of the plane is the first nonzero of `sq`
/// and the normal's components, nonzero for a triangle with area. With `sp != 0` the point
/// `p` is off the plane, so off every edge's line, and every edge sign is nonzero: the
/// crossing point is strictly inside or strictly outside. With `sp == 0` the perturbed
/// segment meets the plane only at `p`, which is not on `t`. A zero-area triangle is met by
/// no perturbed segment that misses its (one-dimensional) point set at `p`.
pub fn perturbed_crossing(p: &Vec3, q: &Vec3, t: &Triangle) -> Option<i8> {
    let sp = volume_sign(&t[0], &t[1], &t[2], p);
    if sp == 0 {
        return None; // p in the plane (and not on t), or t of zero area
    }
    let sq = first_nonzero(volume_sign(&t[0], &t[1], &t[2], q), || {
        (0..3).map(|k| normal_component_sign(&t[0], &t[1], &t[2], k)).find(|&s| s != 0).unwrap_or(0)
    });
    if sp * sq >= 0 {
        return None;
    }
    let edge = |a: &Vec3, b: &Vec3| {
        first_nonzero(volume_sign(p, q, a, b), || {
            // δ·((a−p)×(b−p)): the components of the normal of triangle p, a, b.
            (0..3).map(|k| normal_component_sign(p, a, b, k)).find(|&s| s != 0).unwrap_or(0)
        })
    };
    let e = [edge(&t[0], &t[1]), edge(&t[1], &t[2]), edge(&t[2], &t[0])];
    (e[0] == e[1] && e[1] == e[2] && e[0] != 0).then_some(sq)
}

#[inline(always)]
fn first_nonzero(s: i8, next: impl FnOnce() -> i8) -> i8 {
    if s != 0 { s } else { next() }
}

/// Where the segment `p + u (q − p)`, `u ∈ [0, 1]`, first meets `t`, for a segment the exact
/// test found touching or crossing it: the parameter `u` and the point's barycentric
/// coordinates on `t` (weights of `t0`, `t1`, `t2`, each in `[0, 1]`, summing to 1 up to
/// rounding). Floating point:
/// * transversal contacts (`p`, `q` not both in the plane): `u = dp / (dp − dq)` with `d` the
///   points' distances to the plane along the normal, and the weights proportional to
///   `vol(p, q, t1, t2)`, `vol(p, q, t2, t0)`, `vol(p, q, t0, t1)` (the crossing point's
///   position with respect to the edges: accurate even for rays grazing the plane);
/// * the segment in the plane: the entry point, by clipping the segment against the edges in
///   the projection along the normal's largest component;
/// * a zero-area triangle: the segment's point closest to the triangle's extent.
///
/// The parameter is clamped to `[0, 1]` and the weights to `[0, 1]` (then normalized).
pub fn hit_location(p: &Vec3, q: &Vec3, t: &Triangle) -> (f64, [f64; 3]) {
    // The exact facts first, on the coordinates as given.
    let degenerate = collinear(&t[0], &t[1], &t[2]);
    let in_plane = !degenerate && volume_sign(&t[0], &t[1], &t[2], p) == 0 && volume_sign(&t[0], &t[1], &t[2], q) == 0;
    let axis = if degenerate { None } else { projection_axis(&t[0], &t[1], &t[2]) };
    // Then floating point on coordinates relative to t0, scaled by a power of two to
    // magnitudes near 1, so that products neither overflow nor underflow (u and the weights do
    // not depend on the scale).
    let rel = [p - t[0], q - t[0], t[1] - t[0], t[2] - t[0]];
    let m = rel.iter().map(|v| v.amax()).fold(0.0, f64::max);
    let k = if m > 0.0 && m.is_finite() { -log2_floor(m) } else { 0 };
    let [p, q, t1, t2] = rel.map(|v| v.map(|x| times_pow2(x, k)));
    let (p, q, t) = (&p, &q, &[Vec3::zeros(), t1, t2]);
    let w = q - p;
    if degenerate {
        return degenerate_location(p, &w, t);
    }
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let dp = n.dot(&(p - t[0]));
    let dq = n.dot(&(q - t[0]));
    if !in_plane && dp != dq {
        let u = clamp01(dp / (dp - dq));
        let vol = |a: &Vec3, b: &Vec3| (a - p).cross(&(b - p)).dot(&w);
        let b = [vol(&t[1], &t[2]), vol(&t[2], &t[0]), vol(&t[0], &t[1])];
        return (u, normalized(b));
    }
    // In the plane: clip u against each edge's inner half-plane (2-D, projected injectively).
    let k = axis.unwrap_or(2);
    let pt = t.map(|v| project(&v, k));
    let (p2, w2) = (project(p, k), project(&w, k));
    let area = cross2(sub2(pt[1], pt[0]), sub2(pt[2], pt[0]));
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for i in 0..3 {
        let (a, b) = (pt[i], pt[(i + 1) % 3]);
        // f(u) = cross(b − a, x(u) − a) · sign(area) >= 0 inside.
        let e = sub2(b, a);
        let f0 = cross2(e, sub2(p2, a)) * area.signum();
        let f1 = cross2(e, w2) * area.signum();
        if f1 > 0.0 {
            lo = lo.max(-f0 / f1);
        } else if f1 < 0.0 {
            hi = hi.min(-f0 / f1);
        }
    }
    let u = if lo <= hi { clamp01(lo) } else { clamp01(0.5 * (lo + hi)) };
    let x = project(&(p + w * u), k);
    let bary = [
        cross2(sub2(pt[1], x), sub2(pt[2], x)) / area,
        cross2(sub2(pt[2], x), sub2(pt[0], x)) / area,
        cross2(sub2(pt[0], x), sub2(pt[1], x)) / area,
    ];
    (u, normalized(bary))
}

/// [`hit_location`] for a zero-area triangle: the segment's point closest to its extent.
fn degenerate_location(p: &Vec3, w: &Vec3, t: &Triangle) -> (f64, [f64; 3]) {
    // The two vertices farthest apart span the extent.
    let pairs = [(0, 1), (1, 2), (2, 0)];
    let (i, j) = pairs
        .into_iter()
        .max_by(|&(a, b), &(c, d)| (t[a] - t[b]).norm_squared().total_cmp(&(t[c] - t[d]).norm_squared()))
        .unwrap_or((0, 1));
    let v = t[j] - t[i];
    let (u, s) = segment_params(p, w, w.norm_squared(), &t[i], &v, v.norm_squared());
    let mut bary = [0.0; 3];
    bary[i] += 1.0 - s;
    bary[j] += s;
    (u, bary)
}

/// Weights proportional to `b` (which share the sign of their sum up to rounding), each in
/// `[0, 1]`, summing to 1 up to rounding.
fn normalized(b: [f64; 3]) -> [f64; 3] {
    let sign = if b[0] + b[1] + b[2] < 0.0 { -1.0 } else { 1.0 };
    let b = b.map(|x| if (x * sign) > 0.0 && x.is_finite() { x * sign } else { 0.0 });
    let sum = b[0] + b[1] + b[2];
    if sum > 0.0 && sum.is_finite() { b.map(|x| x / sum) } else { [1.0 / 3.0; 3] }
}

fn clamp01(x: f64) -> f64 {
    if x > 0.0 { if x < 1.0 { x } else { 1.0 } } else { 0.0 }
}

fn sub2(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

fn cross2(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    fn v(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3::new(x, y, z)
    }

    #[test]
    fn contacts_of_a_unit_triangle() {
        let t = [v(0.0, 0.0, 0.0), v(4.0, 0.0, 0.0), v(0.0, 4.0, 0.0)]; // normal +z
        let c = |p: Vec3, q: Vec3| segment_triangle(&p, &q, &t);
        use SegmentContact::*;
        assert_eq!(c(v(1.0, 1.0, -1.0), v(1.0, 1.0, 1.0)), Cross(1));
        assert_eq!(c(v(1.0, 1.0, 1.0), v(1.0, 1.0, -1.0)), Cross(-1));
        assert_eq!(c(v(5.0, 5.0, -1.0), v(5.0, 5.0, 1.0)), Miss);
        assert_eq!(c(v(1.0, 1.0, 1.0), v(1.0, 1.0, 2.0)), Miss); // one side
        assert_eq!(c(v(0.0, 0.0, -1.0), v(0.0, 0.0, 1.0)), Touch); // through a vertex
        assert_eq!(c(v(2.0, 0.0, -1.0), v(2.0, 0.0, 1.0)), Touch); // through an edge
        assert_eq!(c(v(2.0, 2.0, -1.0), v(2.0, 2.0, 1.0)), Touch); // through the hypotenuse
        assert_eq!(c(v(1.0, 1.0, 0.0), v(1.0, 1.0, 1.0)), Touch); // endpoint inside
        assert_eq!(c(v(-1.0, 1.0, 0.0), v(5.0, 1.0, 0.0)), Touch); // in the plane, across
        assert_eq!(c(v(-1.0, -1.0, 0.0), v(-1.0, 5.0, 0.0)), Miss); // in the plane, beside
        assert_eq!(c(v(-1.0, 1.0, 0.0), v(-1.0, 1.0, 3.0)), Miss); // endpoint in the plane, outside
        assert_eq!(c(v(2.0, 2.0, 0.0), v(2.0, 2.0, 0.0)), Touch); // a point on the hypotenuse
        // One ulp beside the vertex, below and above the plane: missed or crossed exactly.
        let ulp = f64::from_bits(1);
        assert_eq!(c(v(-ulp, 0.0, -1.0), v(-ulp, 0.0, 1.0)), Miss);
        assert_eq!(c(v(ulp, ulp, -1.0), v(ulp, ulp, 1.0)), Cross(1));
        // Zero-area triangles: a segment and a point.
        let s = [v(0.0, 0.0, 0.0), v(2.0, 2.0, 2.0), v(1.0, 1.0, 1.0)];
        assert_eq!(segment_triangle(&v(1.0, 0.0, 1.0), &v(1.0, 2.0, 1.0), &s), Touch);
        assert_eq!(segment_triangle(&v(1.0, 0.0, 1.5), &v(1.0, 2.0, 1.5), &s), Miss);
        let pt = [v(1.0, 1.0, 1.0); 3];
        assert_eq!(segment_triangle(&v(0.0, 0.0, 0.0), &v(3.0, 3.0, 3.0), &pt), Touch);
        assert_eq!(segment_triangle(&v(0.0, 0.0, 0.0), &v(3.0, 3.0, 3.5), &pt), Miss);
        assert!(point_on_triangle(&v(0.0, 4.0, 0.0), &t) && !point_on_triangle(&v(0.0, 4.0, 1e-300), &t));
    }

    /// The perturbed count agrees with the plain one where that is a crossing or a miss, and
    /// on degenerate contacts the perturbed segments around a shared edge cross exactly one of
    /// the two triangles.
    #[test]
    fn perturbation_agrees_and_splits_shared_edges() {
        let mut rng = Rng(0x009e_270b);
        let mut crossings = 0;
        for _ in 0..20_000 {
            let t = rng.tri(-1.0, 1.0);
            let (p, q) = (rng.vec(-1.5, 1.5), rng.vec(-1.5, 1.5));
            if point_on_triangle(&p, &t) {
                continue;
            }
            match segment_triangle(&p, &q, &t) {
                SegmentContact::Cross(s) => {
                    assert_eq!(perturbed_crossing(&p, &q, &t), Some(s));
                    crossings += 1;
                }
                SegmentContact::Miss => assert_eq!(perturbed_crossing(&p, &q, &t), None),
                SegmentContact::Touch => {}
            }
        }
        assert!(crossings > 1000);
        // Two triangles sharing the edge from (0,0,0) to (4,4,0), a segment through its
        // midpoint and through its end: exactly one of the pair is crossed.
        let (a, b) = (v(0.0, 0.0, 0.0), v(4.0, 4.0, 0.0));
        let pair = [[a, v(4.0, 0.0, 0.0), b], [a, b, v(0.0, 4.0, 0.0)]];
        for (p, q) in [
            (v(2.0, 2.0, -1.0), v(2.0, 2.0, 1.0)),
            (v(1.0, 1.0, -1.0), v(3.0, 3.0, 1.0)),
            (v(1.0, 3.0, -1.0), v(3.0, 1.0, 1.0)),
        ] {
            let n: i32 = pair.iter().map(|t| perturbed_crossing(&p, &q, t).unwrap_or(0) as i32).sum();
            assert_eq!(n, 1, "{p:?} {q:?}");
            assert!(pair.iter().all(|t| segment_triangle(&p, &q, t) == SegmentContact::Touch));
        }
    }
}
