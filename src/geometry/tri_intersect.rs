//! Exact intersection test of two closed triangles.
//!
//! [`triangles_intersect`] answers, for exactly the given doubles and in real arithmetic, whether
//! the two closed triangles share a point. Touching counts (a shared vertex, a vertex on an edge,
//! edges crossing, coplanar overlap or containment), and zero-area triangles are the point sets
//! they are (a segment, or a point).
//!
//! Method (all decisions are signs of exact predicates, so there is no tolerance anywhere):
//! 1. Bounding boxes apart → disjoint (comparisons of doubles are exact).
//! 2. Each triangle's vertices against the other's plane: a floating-point evaluation with a
//!    certified error bound decides most signs; `orient3d` decides the rest. All three strictly
//!    on one side → disjoint.
//! 3. Neither triangle in the other's plane (so both have area): each meets the common line of
//!    the two planes in a segment, and the triangles meet iff these two segments overlap. After
//!    a canonical relabelling this is two more `orient3d` signs (the Guigue–Devillers test).
//! 4. Otherwise they are coplanar or one has no area: a zero-area triangle is a segment (or a
//!    point), tested against the other triangle exactly; two coplanar triangles are projected
//!    onto a coordinate plane the projection is injective on and tested in 2-D.

use super::predicates::{collinear, orient2d_sign, project, projection_axis, volume_sign};
use crate::math::{Triangle, Vec3};

/// True iff the closed triangles `a` and `b` share at least one point (exactly, for these
/// doubles). Degenerate triangles are their segment or point. Inputs must not be NaN.
pub fn triangles_intersect(a: &Triangle, b: &Triangle) -> bool {
    // Cheapest exact rejection first: the bounding boxes are strictly apart on some axis.
    if !boxes_overlap(a, b) {
        return false;
    }
    // Side of each vertex of one triangle w.r.t. the other's plane, where floats can certify it.
    let fa = filtered_sides(b, a);
    if one_side(fa) {
        return false;
    }
    let fb = filtered_sides(a, b);
    if one_side(fb) {
        return false;
    }
    // The undecided signs are resolved exactly.
    let sa = resolve_sides(b, a, fa);
    if one_side(sa) {
        return false;
    }
    let sb = resolve_sides(a, b, fb);
    if one_side(sb) {
        return false;
    }
    // All zero: the triangles are coplanar, or the plane owner has no area (its "plane" is null).
    if sa == [0; 3] || sb == [0; 3] {
        return coplanar_or_degenerate(a, b);
    }
    crossing_segments_overlap(a, b, sa, sb)
}

/// True when the axis-aligned boxes of `a` and `b` overlap (closed), on every axis.
#[inline(always)]
fn boxes_overlap(a: &Triangle, b: &Triangle) -> bool {
    // Plain comparisons (inputs are never NaN) compile to single min/max instructions.
    #[inline(always)]
    fn lo(x: f64, y: f64) -> f64 {
        if x < y { x } else { y }
    }
    #[inline(always)]
    fn hi(x: f64, y: f64) -> f64 {
        if x > y { x } else { y }
    }
    let mut overlap = true;
    for k in 0..3 {
        let (amin, amax) = (lo(lo(a[0][k], a[1][k]), a[2][k]), hi(hi(a[0][k], a[1][k]), a[2][k]));
        let (bmin, bmax) = (lo(lo(b[0][k], b[1][k]), b[2][k]), hi(hi(b[0][k], b[1][k]), b[2][k]));
        // Non-short-circuit `&`: branch-free over the three axes.
        overlap &= (amin <= bmax) & (bmin <= amax);
    }
    overlap
}

/// Marks a side the floating-point filter could not certify.
const UNKNOWN: i8 = 2;

/// Shewchuk's first-stage error bound for `orient3d`, `(7 + 56ε)ε`, rounded up to `8ε`: the slack
/// covers the one extra rounding of adding the underflow term below.
const O3D_ERR: f64 = 8.0 * (f64::EPSILON / 2.0);

/// Per unit of `|w|₁ + 2`, far more than the absolute error gradual underflow can add to `d` (at
/// most `2⁻¹⁰⁷⁴(|w|₁ + 2)`), which Shewchuk's relative bound does not cover.
const UNDERFLOW_ERR: f64 = f64::MIN_POSITIVE;

/// Sign of `((t1−t0)×(t2−t0))·(p_i−t0)` for each vertex `p_i`, or [`UNKNOWN`] where the rounding
/// error could reach it.
///
/// The expression is evaluated with the same operations, in the same grouping, as the first
/// stage of Shewchuk's `orient3d` (nine rounded differences, 2×2 minors, three products summed
/// left to right), so his bound `|error| ≤ (7 + 56ε)ε · permanent` applies as is.
#[inline]
fn filtered_sides(t: &Triangle, p: &Triangle) -> [i8; 3] {
    let e1 = t[1] - t[0];
    let e2 = t[2] - t[0];
    // Products of the normal's 2×2 minors, kept separately for the permanent.
    let (yz, zy) = (e1.y * e2.z, e1.z * e2.y);
    let (zx, xz) = (e1.z * e2.x, e1.x * e2.z);
    let (xy, yx) = (e1.x * e2.y, e1.y * e2.x);
    let n = [yz - zy, zx - xz, xy - yx];
    let m = [yz.abs() + zy.abs(), zx.abs() + xz.abs(), xy.abs() + yx.abs()];
    let mut s = [UNKNOWN; 3];
    for i in 0..3 {
        let w = p[i] - t[0];
        let d = w.x * n[0] + w.y * n[1] + w.z * n[2];
        let (ax, ay, az) = (w.x.abs(), w.y.abs(), w.z.abs());
        let permanent = ax * m[0] + ay * m[1] + az * m[2];
        let bound = O3D_ERR * permanent + UNDERFLOW_ERR * (ax + ay + az + 2.0);
        // Strict comparisons: an overflowed (infinite or NaN) evaluation never certifies.
        // (Arithmetic rather than branches: the signs vary from one call to the next, and a
        // mispredicted branch costs more than this whole test.)
        let (pos, neg) = ((d > bound) as i8, (-d > bound) as i8);
        s[i] = pos - neg + UNKNOWN * (1 - pos - neg);
    }
    s
}

/// Replaces each [`UNKNOWN`] in `s` by the exact side of `p_i` w.r.t. the plane of `t`.
#[inline(always)]
fn resolve_sides(t: &Triangle, p: &Triangle, mut s: [i8; 3]) -> [i8; 3] {
    if !s.contains(&UNKNOWN) {
        return s; // the usual case: the filter decided all three
    }
    for i in 0..3 {
        if s[i] == UNKNOWN {
            s[i] = volume_sign(&t[0], &t[1], &t[2], &p[i]);
        }
    }
    s
}

/// True when all three (known) sides are strictly the same: the triangle misses the plane.
#[inline(always)]
fn one_side(s: [i8; 3]) -> bool {
    // (`&`, `|`: one branch, on the answer, instead of one per comparison.)
    ((s[0] == 1) & (s[1] == 1) & (s[2] == 1)) | ((s[0] == -1) & (s[1] == -1) & (s[2] == -1))
}

/// The vertex whose side sign is a strict unique minimum or maximum of `s`, and the direction
/// (+1: the other two are on the normal's side of it; −1: the opposite side). One exists whenever
/// the three sides are neither all zero nor strictly one-sided; both edges from it then cross the
/// plane transversally (their endpoints are not strictly on one side, nor both on the plane).
#[inline]
pub(crate) fn lone_vertex(s: [i8; 3]) -> (usize, i8) {
    // A table of the 27 sign triples (a lookup, not branches that mispredict).
    let (i, dir) = LONE_VERTEX[(9 * (s[0] + 1) + 3 * (s[1] + 1) + (s[2] + 1)) as usize];
    assert!(dir != 0, "sides {s:?} are all zero or strictly one-sided");
    (i as usize, dir)
}

/// [`lone_vertex`] of every triple of signs in −1..=1, indexed `9(s0+1) + 3(s1+1) + (s2+1)`;
/// direction 0 for the triples that have none.
const LONE_VERTEX: [(u8, i8); 27] = {
    let mut table = [(0, 0); 27];
    let mut n = 0;
    while n < 27 {
        let s = [(n / 9) as i8 - 1, (n / 3 % 3) as i8 - 1, (n % 3) as i8 - 1];
        let mut i = 3;
        while i > 0 {
            i -= 1;
            let (j, k) = (s[(i + 1) % 3], s[(i + 2) % 3]);
            // The first vertex in index order wins, as in a scan from 0.
            if j > s[i] && k > s[i] {
                table[n] = (i as u8, 1);
            } else if j < s[i] && k < s[i] {
                table[n] = (i as u8, -1);
            }
        }
        n += 1;
    }
    table
};

/// The non-coplanar case: both triangles have area, cross each other's plane, and neither lies
/// in the other's plane, so the planes meet in a line `L`.
///
/// `a ∩ L` is the segment between the points where the two edges from `a`'s lone vertex `p0`
/// cross `b`'s plane (`X1` on `p0p1`, `X2` on `p0p2`), likewise `b ∩ L` = `[Y1, Y2]`. Relabel so
/// that `p0`'s edges run towards `b`'s normal side and `q0`'s towards `a`'s (swapping the other
/// two vertices of a triangle flips its normal). Then along `L`, directed as `n_a × n_b`,
/// `X1 ≤ X2` and `Y2 ≤ Y1`, and `X` precedes `Y` exactly when `volume_sign(p0, pi, q0, qj) > 0`
/// (zero iff they coincide). So the segments overlap iff `X1 ≤ Y1` and `Y2 ≤ X2`.
fn crossing_segments_overlap(a: &Triangle, b: &Triangle, sa: [i8; 3], sb: [i8; 3]) -> bool {
    let (i, dir_a) = lone_vertex(sa);
    let (j, dir_b) = lone_vertex(sb);
    // Cyclic rotations keep each normal.
    let mut p = [&a[i], &a[(i + 1) % 3], &a[(i + 2) % 3]];
    let mut q = [&b[j], &b[(j + 1) % 3], &b[(j + 2) % 3]];
    // Flipping b's normal makes p0's edges run towards it (it does not touch dir_b, which is
    // measured against a's normal), and vice versa.
    if dir_a < 0 {
        q.swap(1, 2);
    }
    if dir_b < 0 {
        p.swap(1, 2);
    }
    volume_sign(p[0], p[1], q[0], q[1]) >= 0 && volume_sign(p[0], p[2], q[0], q[2]) <= 0
}

/// The rare cases: `a` and `b` coplanar, or at least one of them of zero area.
#[cold]
fn coplanar_or_degenerate(a: &Triangle, b: &Triangle) -> bool {
    // A zero-area triangle is the segment between its two extreme vertices (or a point).
    if collinear(&a[0], &a[1], &a[2]) {
        let (p, q) = collinear_extent(a);
        return segment_meets_triangle(p, q, b);
    }
    if collinear(&b[0], &b[1], &b[2]) {
        let (p, q) = collinear_extent(b);
        return segment_meets_triangle(p, q, a);
    }
    // Both have area and share a plane: test in a coordinate plane that keeps them apart iff
    // they are apart (the projection is injective on the common plane).
    let k = projection_axis(&a[0], &a[1], &a[2]).expect("a has area");
    let pa = a.map(|v| project(&v, k));
    let pb = b.map(|v| project(&v, k));
    !edge_separates_2d(&pa, &pb) && !edge_separates_2d(&pb, &pa)
}

/// The two extreme points of three collinear points (equal when all three coincide): along any
/// axis where their coordinates differ, the order on that axis is the order along the line.
pub(crate) fn collinear_extent(t: &Triangle) -> (&Vec3, &Vec3) {
    for k in 0..3 {
        let lo = (0..3).min_by(|&i, &j| t[i][k].total_cmp(&t[j][k])).unwrap();
        let hi = (0..3).max_by(|&i, &j| t[i][k].total_cmp(&t[j][k])).unwrap();
        if t[lo][k] < t[hi][k] {
            return (&t[lo], &t[hi]);
        }
    }
    (&t[0], &t[0])
}

/// True iff the closed segment `pq` (possibly a point) meets the closed triangle `t` (possibly
/// degenerate).
pub(crate) fn segment_meets_triangle(p: &Vec3, q: &Vec3, t: &Triangle) -> bool {
    if collinear(&t[0], &t[1], &t[2]) {
        let (u, v) = collinear_extent(t);
        return segments_meet(p, q, u, v);
    }
    let sp = volume_sign(&t[0], &t[1], &t[2], p);
    let sq = volume_sign(&t[0], &t[1], &t[2], q);
    if sp * sq > 0 {
        return false; // strictly on one side of the plane
    }
    if sp == 0 && sq == 0 {
        // In the plane: an injective projection keeps the answer.
        let k = projection_axis(&t[0], &t[1], &t[2]).expect("t has area");
        let pt = t.map(|v| project(&v, k));
        return segment_meets_triangle_2d(project(p, k), project(q, k), &pt);
    }
    // The line pq crosses the plane at a single point X of the segment. volume_sign(p, q, ti, tj)
    // is the side of X w.r.t. edge titj (times one common factor), so X is in the closed
    // triangle iff no two of these signs are strictly opposite.
    let s = [volume_sign(p, q, &t[0], &t[1]), volume_sign(p, q, &t[1], &t[2]), volume_sign(p, q, &t[2], &t[0])];
    !(s.contains(&1) && s.contains(&-1))
}

/// True iff closed segments `pq` and `uv` (either possibly a point) meet, in 3-D.
pub(crate) fn segments_meet(p: &Vec3, q: &Vec3, u: &Vec3, v: &Vec3) -> bool {
    if volume_sign(p, q, u, v) != 0 {
        return false; // not even coplanar
    }
    // Coplanar sets meet iff their projections meet on all three coordinate planes: one of the
    // projections is injective on a plane containing both.
    (0..3).all(|k| segments_meet_2d(project(p, k), project(q, k), project(u, k), project(v, k)))
}

/// True iff closed 2-D segments `pq` and `uv` (either possibly a point) meet.
pub(crate) fn segments_meet_2d(p: [f64; 2], q: [f64; 2], u: [f64; 2], v: [f64; 2]) -> bool {
    let (o1, o2) = (orient2d_sign(p, q, u), orient2d_sign(p, q, v));
    if o1 * o2 > 0 {
        return false; // uv strictly on one side of line pq
    }
    let (o3, o4) = (orient2d_sign(u, v, p), orient2d_sign(u, v, q));
    if o3 * o4 > 0 {
        return false;
    }
    if o1 == 0 && o2 == 0 && o3 == 0 && o4 == 0 {
        // All on one line: overlap on both axes (one of them is injective on the line).
        return (0..2).all(|k| p[k].min(q[k]) <= u[k].max(v[k]) && u[k].min(v[k]) <= p[k].max(q[k]));
    }
    // Not all collinear: each segment reaches the other's line at one point, the lines' unique
    // common point, so that point is on both segments.
    true
}

/// True iff the closed 2-D segment `pq` (possibly a point) meets the closed non-degenerate
/// triangle `t`. Separating-axis test: disjoint convex sets are strictly separated by a line
/// parallel to an edge of one of them.
fn segment_meets_triangle_2d(p: [f64; 2], q: [f64; 2], t: &[[f64; 2]; 3]) -> bool {
    // The triangle strictly on one side of the segment's line (never, when p = q).
    let s = t.map(|c| orient2d_sign(p, q, c));
    if s == [1; 3] || s == [-1; 3] {
        return false;
    }
    let seg = [p, q, q]; // the segment as a (degenerate) triangle, for the edge test
    !edge_separates_2d(t, &seg)
}

/// True when some edge line of the non-degenerate 2-D triangle `t` has all of `o` strictly on
/// its outer side.
fn edge_separates_2d(t: &[[f64; 2]; 3], o: &[[f64; 2]; 3]) -> bool {
    let inner = orient2d_sign(t[0], t[1], t[2]); // the side of t's interior, for every edge
    (0..3).any(|i| {
        let (u, v) = (t[i], t[(i + 1) % 3]);
        o.iter().all(|&c| orient2d_sign(u, v, c) == -inner)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(p: [[f64; 3]; 3]) -> Triangle {
        p.map(|c| Vec3::new(c[0], c[1], c[2]))
    }

    /// The table behind `lone_vertex` is the scan from vertex 0 it replaces.
    #[test]
    fn lone_vertex_table() {
        for n in 0..27 {
            let s = [(n / 9) as i8 - 1, (n / 3 % 3) as i8 - 1, (n % 3) as i8 - 1];
            let scan = (0..3).find_map(|i| {
                let (j, k) = (s[(i + 1) % 3], s[(i + 2) % 3]);
                if j > s[i] && k > s[i] {
                    Some((i, 1))
                } else if j < s[i] && k < s[i] {
                    Some((i, -1))
                } else {
                    None
                }
            });
            let one_sided = s == [0; 3] || one_side(s);
            assert_eq!(scan.is_none(), one_sided, "{s:?}");
            if let Some(want) = scan {
                assert_eq!(lone_vertex(s), want, "{s:?}");
            }
        }
    }

    /// A second exact method (no filter, no interval logic): some edge of one triangle meets the
    /// other closed triangle.
    fn by_edges(a: &Triangle, b: &Triangle) -> bool {
        (0..3).any(|i| segment_meets_triangle(&a[i], &a[(i + 1) % 3], b))
            || (0..3).any(|i| segment_meets_triangle(&b[i], &b[(i + 1) % 3], a))
    }

    const PERMS: [[usize; 3]; 6] = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]];

    fn permute(a: &Triangle, p: [usize; 3]) -> Triangle {
        [a[p[0]], a[p[1]], a[p[2]]]
    }

    /// An exact map of space: shift the axes cyclically by `r`, negate the axes in `mask`, scale
    /// by a power of two and translate by a dyadic vector (the callers keep all exact).
    fn transform(a: &Triangle, r: usize, mask: usize, scale: f64, shift: [f64; 3]) -> Triangle {
        a.map(|p| {
            Vec3::from_fn(|k, _| {
                let v = p[(k + r) % 3];
                let v = if mask >> k & 1 == 1 { -v } else { v };
                v * scale + shift[k]
            })
        })
    }

    /// Asserts `expect` for both argument orders, every vertex order of either triangle, cyclic
    /// axis shifts, coordinate negations and power-of-two scalings, and (when `translate`, i.e.
    /// the coordinates leave room for it) dyadic translations.
    fn check(a: Triangle, b: Triangle, expect: bool, translate: bool) {
        let mut maps = vec![(1.0, [0.0; 3]), (0.5f64.powi(20), [0.0; 3]), (2f64.powi(30), [0.0; 3])];
        if translate {
            maps.push((1.0, [0.25, -3.5, 1024.0]));
            maps.push((0.5, [-7.0, 0.125, 3.0]));
        }
        assert_eq!(by_edges(&a, &b), expect, "edge method disagrees on {a:?} {b:?}");
        for r in 0..3 {
            for mask in 0..8 {
                for &(scale, shift) in &maps {
                    let ta = transform(&a, r, mask, scale, shift);
                    let tb = transform(&b, r, mask, scale, shift);
                    for pa in PERMS {
                        for pb in PERMS {
                            let (x, y) = (permute(&ta, pa), permute(&tb, pb));
                            assert_eq!(triangles_intersect(&x, &y), expect, "{x:?} {y:?}");
                            assert_eq!(triangles_intersect(&y, &x), expect, "{y:?} {x:?}");
                        }
                    }
                }
            }
        }
    }

    const BASE: [[f64; 3]; 3] = [[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]];
    const D40: f64 = 1.0 / (1u64 << 40) as f64;

    #[test]
    fn touching_at_a_point() {
        let a = t(BASE);
        // Shared vertex, the rest of b above and beside a.
        check(a, t([[0.0, 0.0, 0.0], [-1.0, -2.0, 3.0], [-3.0, 1.0, 2.0]]), true, true);
        // Vertex on the midpoint of an edge, b otherwise on the far side (y < 0) of that edge.
        check(a, t([[2.0, 0.0, 0.0], [2.0, -1.0, 1.0], [3.0, -2.0, -1.0]]), true, true);
        check(a, t([[2.0, -D40, 0.0], [2.0, -1.0, 1.0], [3.0, -2.0, -1.0]]), false, true);
        // Vertex inside the face, b otherwise above.
        check(a, t([[1.0, 1.0, 0.0], [1.0, 1.0, 2.0], [2.0, 3.0, 5.0]]), true, true);
    }

    #[test]
    fn lifted_and_lowered_by_1e_300() {
        let a = t(BASE);
        check(a, t([[1.0, 1.0, 1e-300], [1.0, 1.0, 2.0], [2.0, 3.0, 5.0]]), false, false);
        check(a, t([[1.0, 1.0, -1e-300], [1.0, 1.0, 2.0], [2.0, 3.0, 5.0]]), true, false);
        // The same with a point-triangle.
        check(a, t([[1.0, 1.0, 1e-300]; 3]), false, false);
        check(a, t([[1.0, 1.0, 0.0]; 3]), true, true);
    }

    #[test]
    fn coplanar() {
        // In z = 0 and, lifted exactly onto the plane z = x + 2y, in a slanted plane.
        for lift in [false, true] {
            let l = |p: [[f64; 2]; 3]| t(p.map(|[x, y]| [x, y, if lift { x + 2.0 * y } else { 0.0 }]));
            let a = l([[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]]);
            // Partial overlap.
            check(a, l([[1.0, 1.0], [5.0, 1.0], [1.0, 5.0]]), true, true);
            // Containment.
            check(a, l([[1.0, 1.0], [2.0, 1.0], [1.0, 2.0]]), true, true);
            // A vertex on the hypotenuse x + y = 4, and just beyond it.
            check(a, l([[2.0, 2.0], [5.0, 2.0], [2.0, 5.0]]), true, true);
            check(a, l([[2.0 + D40, 2.0], [5.0, 2.0], [2.0, 5.0]]), false, true);
            // Edge along edge (sharing a piece of the x axis), and a sliver apart.
            check(a, l([[1.0, 0.0], [6.0, 0.0], [3.0, -2.0]]), true, true);
            check(a, l([[1.0, -D40], [6.0, -D40], [3.0, -2.0]]), false, true);
            // Star of David: edges cross, no vertex inside the other.
            check(a, l([[-1.0, 3.0], [3.0, -1.0], [3.0, 3.0]]), true, true);
            // Identical.
            check(a, a, true, true);
        }
    }

    #[test]
    fn crossing_in_3d() {
        let a = t(BASE);
        // Edge of b (in the plane x = 2) through the midpoint of a's edge on the x axis; b ∩ {z=0}
        // is the segment y ∈ [-2, 0], so only that point is shared.
        let b = t([[2.0, -1.0, 1.0], [2.0, 1.0, -1.0], [2.0, -3.0, -1.0]]);
        check(a, b, true, true);
        let shift = |b: Triangle, dy: f64| b.map(|p| p + Vec3::new(0.0, dy, 0.0));
        check(a, shift(b, -D40), false, true);
        check(a, shift(b, D40), true, true);
        // Two interlocked triangles (like chain links) and one passing beside.
        check(a, t([[1.0, 1.0, -1.0], [1.0, 1.0, 1.0], [-3.0, 1.0, 0.0]]), true, true);
        check(a, t([[3.0, 3.0, -1.0], [3.0, 3.0, 1.0], [5.0, 5.0, 0.0]]), false, true);
        // Parallel planes.
        check(a, t(BASE).map(|p| p + Vec3::new(0.0, 0.0, 1.0)), false, true);
        check(a, t(BASE).map(|p| p + Vec3::new(0.5, 0.5, D40 * D40)), false, false);
    }

    #[test]
    fn zero_area_triangles() {
        let a = t(BASE);
        // A segment (three collinear vertices, or a repeated one) through the face.
        check(a, t([[1.0, 1.0, -1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 0.5]]), true, true);
        check(a, t([[1.0, 1.0, -1.0], [1.0, 1.0, -1.0], [1.0, 1.0, 1.0]]), true, true);
        check(a, t([[1.0, 1.0, 1.0], [1.0, 1.0, 2.0], [1.0, 1.0, 1.5]]), false, true);
        // Ending exactly on an edge, and a hair short of it.
        check(a, t([[2.0, 0.0, 0.0], [2.0, 0.0, 3.0], [2.0, 0.0, 1.0]]), true, true);
        check(a, t([[2.0, -D40, 0.0], [2.0, -D40, 3.0], [2.0, -D40, 1.0]]), false, true);
        // In the plane, crossing the boundary, and outside.
        check(a, t([[-1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [3.0, 1.0, 0.0]]), true, true);
        check(a, t([[-3.0, 1.0, 0.0], [-1.0, 1.0, 0.0], [-2.0, 1.0, 0.0]]), false, true);
        // Skew to an edge, passing under it.
        check(a, t([[2.0, -1.0, -D40], [2.0, 1.0, -D40], [2.0, 1.0, -D40]]), false, true);
        // Point-triangles: inside the face, on a vertex, on the hypotenuse, just off it.
        check(a, t([[1.0, 1.0, 0.0]; 3]), true, true);
        check(a, t([[4.0, 0.0, 0.0]; 3]), true, true);
        check(a, t([[2.0, 2.0, 0.0]; 3]), true, true);
        check(a, t([[2.0, 2.0 + D40, 0.0]; 3]), false, true);
        check(a, t([[1.0, 1.0, 1.0]; 3]), false, true);
    }

    #[test]
    fn degenerate_pairs() {
        let s = t([[0.0, 0.0, 0.0], [2.0, 2.0, 2.0], [1.0, 1.0, 1.0]]);
        // Collinear segments: overlapping, touching end to end, apart.
        check(s, t([[1.5, 1.5, 1.5], [3.0, 3.0, 3.0], [3.0, 3.0, 3.0]]), true, true);
        check(s, t([[2.0, 2.0, 2.0], [3.0, 3.0, 3.0], [4.0, 4.0, 4.0]]), true, true);
        check(s, t([[2.5, 2.5, 2.5], [3.0, 3.0, 3.0], [4.0, 4.0, 4.0]]), false, true);
        // Crossing segments, and skew ones.
        check(s, t([[0.0, 2.0, 1.0], [2.0, 0.0, 1.0], [2.0, 0.0, 1.0]]), true, true);
        check(s, t([[0.0, 2.0, 1.5], [2.0, 0.0, 1.5], [2.0, 0.0, 1.5]]), false, true);
        // Parallel segments on distinct lines.
        check(s, t([[0.0, 0.0, 1.0], [2.0, 2.0, 3.0], [2.0, 2.0, 3.0]]), false, true);
        // Points against segments and points.
        check(s, t([[0.5, 0.5, 0.5]; 3]), true, true);
        check(s, t([[0.5, 0.5, 0.5 + D40]; 3]), false, true);
        check(t([[1.0, 2.0, 3.0]; 3]), t([[1.0, 2.0, 3.0]; 3]), true, true);
        check(t([[1.0, 2.0, 3.0]; 3]), t([[1.0, 2.0, 3.0 + D40]; 3]), false, true);
        check(s, s, true, true);
    }

    // ---------------------------------------------------------------------------------------
    // Randomized cross-check against an independent exact method: the separating-axis theorem
    // over every candidate axis, in i128 integer arithmetic on small integer coordinates.

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            // xorshift64
            let mut x = self.0;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.0 = x;
            x
        }
        fn int(&mut self, lo: i64, hi: i64) -> i64 {
            lo + (self.next() % (hi - lo + 1) as u64) as i64
        }
        fn unit(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    type P = [i128; 3];
    type ITri = [P; 3];

    fn sub(a: P, b: P) -> P {
        [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
    }
    fn cross(a: P, b: P) -> P {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }
    fn dot(a: P, b: P) -> i128 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }

    /// Closed convex sets A, B are disjoint iff 0 ∉ A − B, iff some facet of the polytope
    /// A − B (or, when it is flat, its plane or an edge inside that plane; when it is a segment,
    /// its direction or the perpendicular towards 0; when a point, that point) separates it from
    /// 0. Its edges are parallel to edges of A or B, so every such normal is among: the edges
    /// `e`, their cross products `n`, the in-plane normals `n × e`, the perpendiculars
    /// `(e × s) × e` with `s = a0 − b0`, and `s`.
    fn sat_reference(a: &ITri, b: &ITri) -> bool {
        let mut edges = Vec::with_capacity(6);
        for t in [a, b] {
            for i in 0..3 {
                edges.push(sub(t[(i + 1) % 3], t[i]));
            }
        }
        let s = sub(a[0], b[0]);
        let mut normals = Vec::with_capacity(15);
        for i in 0..6 {
            for j in i + 1..6 {
                normals.push(cross(edges[i], edges[j]));
            }
        }
        let mut axes = edges.clone();
        axes.extend(&normals);
        for &n in &normals {
            for &e in &edges {
                axes.push(cross(n, e));
            }
        }
        for &e in &edges {
            axes.push(cross(cross(e, s), e));
        }
        axes.push(s);
        !axes.iter().any(|&ax| {
            let pa = a.map(|p| dot(ax, p));
            let pb = b.map(|p| dot(ax, p));
            let (amin, amax) = (*pa.iter().min().unwrap(), *pa.iter().max().unwrap());
            let (bmin, bmax) = (*pb.iter().min().unwrap(), *pb.iter().max().unwrap());
            amax < bmin || bmax < amin
        })
    }

    fn to_f(a: &ITri) -> Triangle {
        a.map(|p| Vec3::new(p[0] as f64, p[1] as f64, p[2] as f64))
    }

    /// A random pair of integer triangles from a mix of distributions rich in touching,
    /// coplanar and degenerate configurations.
    fn random_pair(rng: &mut Rng) -> (ITri, ITri) {
        let mode = rng.int(0, 5);
        let r = if mode == 0 { 2 } else { 4 };
        let pt = |rng: &mut Rng| [0; 3].map(|_| rng.int(-r, r) as i128);
        let mut a: ITri = [pt(rng), pt(rng), pt(rng)];
        let mut b: ITri = [pt(rng), pt(rng), pt(rng)];
        match mode {
            // b reuses some of a's vertices (shared vertex / shared edge / identical).
            2 => {
                for v in b.iter_mut() {
                    if rng.int(0, 2) == 0 {
                        *v = a[rng.int(0, 2) as usize];
                    }
                }
            }
            // Both in one plane: z = 0, or z = c − x − y.
            3 => {
                let c = rng.int(-2, 2) as i128;
                let slant = rng.int(0, 1) == 1;
                for v in a.iter_mut().chain(b.iter_mut()) {
                    v[2] = if slant { c - v[0] - v[1] } else { c };
                }
            }
            // Degenerate triangles: a repeated vertex, a collinear third vertex, a point.
            4 | 5 => {
                for tri in [&mut a, &mut b] {
                    match rng.int(0, 3) {
                        0 => tri[2] = tri[rng.int(0, 1) as usize],
                        1 => {
                            let k = rng.int(-1, 2) as i128;
                            let d = sub(tri[1], tri[0]);
                            tri[2] = [0, 1, 2].map(|i| tri[0][i] + k * d[i]);
                        }
                        2 => *tri = [tri[0]; 3],
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        (a, b)
    }

    #[test]
    fn random_integer_pairs_match_separating_axis_reference() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let n = 400_000;
        let (mut hits, mut degenerate, mut coplanar) = (0, 0, 0);
        for iter in 0..n {
            let (ia, ib) = random_pair(&mut rng);
            let expect = sat_reference(&ia, &ib);
            let (a, b) = (to_f(&ia), to_f(&ib));
            hits += expect as usize;
            let deg = |t: &Triangle| collinear(&t[0], &t[1], &t[2]);
            degenerate += (deg(&a) || deg(&b)) as usize;
            coplanar += (!deg(&a) && (0..3).all(|i| volume_sign(&a[0], &a[1], &a[2], &b[i]) == 0)) as usize;
            assert_eq!(triangles_intersect(&a, &b), expect, "#{iter}: {ia:?} {ib:?}");
            assert_eq!(by_edges(&a, &b), expect, "edges #{iter}: {ia:?} {ib:?}");
            // The same pair, relabelled, swapped and moved by an exact map.
            let pa = PERMS[rng.int(0, 5) as usize];
            let pb = PERMS[rng.int(0, 5) as usize];
            let (r, mask) = (rng.int(0, 2) as usize, rng.int(0, 7) as usize);
            let scale = 2f64.powi(rng.int(-30, 30) as i32);
            let shift = [0; 3].map(|_| rng.int(-1 << 20, 1 << 20) as f64 / 64.0);
            let ta = transform(&permute(&a, pa), r, mask, scale, shift);
            let tb = transform(&permute(&b, pb), r, mask, scale, shift);
            assert_eq!(triangles_intersect(&tb, &ta), expect, "moved #{iter}: {ia:?} {ib:?}");
        }
        eprintln!(
            "{n} pairs: {hits} intersecting, {degenerate} with a zero-area triangle, \
             {coplanar} coplanar with area"
        );
        // The mix must really exercise every kind of case.
        assert!(hits > n / 5 && n - hits > n / 5);
        assert!(degenerate > n / 5 && coplanar > n / 20);
    }

    /// Integer configurations (many touching) sent through an inexact map, so the doubles are
    /// near-touching and the float filter's undecided band matters: the fast path must agree
    /// with the filter-free edge method.
    #[test]
    fn near_touching_doubles_match_edge_method() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut disagreements = 0;
        for iter in 0..200_000 {
            let (ia, ib) = random_pair(&mut rng);
            let s = 0.1 + rng.unit();
            let off = [rng.unit(), rng.unit(), rng.unit()];
            let m = |t: &ITri| t.map(|p| Vec3::from_fn(|k, _| p[k] as f64 * s + off[k]));
            let (a, b) = (m(&ia), m(&ib));
            let fast = triangles_intersect(&a, &b);
            if fast != by_edges(&a, &b) || fast != triangles_intersect(&b, &a) {
                disagreements += 1;
                eprintln!("#{iter}: {a:?} {b:?}");
            }
        }
        assert_eq!(disagreements, 0);
    }

    /// Whatever sign the floating-point filter certifies is the exact sign, also for points
    /// within rounding of the plane and across magnitudes.
    #[test]
    fn filter_certifies_only_exact_signs() {
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        let (mut certified, mut total) = (0, 0);
        for _ in 0..200_000 {
            let e = 2f64.powi(rng.int(-60, 60) as i32);
            let mut r = || (rng.unit() * 2.0 - 1.0) * e;
            let tri = [Vec3::new(r(), r(), r()), Vec3::new(r(), r(), r()), Vec3::new(r(), r(), r())];
            let (al, be) = (rng.unit() * 3.0 - 1.0, rng.unit() * 3.0 - 1.0);
            // Points on the plane up to rounding, some nudged by a few ulps.
            let mut p = [0; 3].map(|_| {
                let q = tri[0] + (tri[1] - tri[0]) * al + (tri[2] - tri[0]) * be;
                q.map(|v| f64::from_bits((v.to_bits() as i64 + rng.int(-3, 3)) as u64))
            });
            if rng.int(0, 3) == 0 {
                p[0] = tri[1]; // exactly on the plane
            }
            let f = filtered_sides(&tri, &p);
            for i in 0..3 {
                total += 1;
                if f[i] != UNKNOWN {
                    certified += 1;
                    assert_eq!(f[i], volume_sign(&tri[0], &tri[1], &tri[2], &p[i]));
                }
            }
        }
        eprintln!("filter certified {certified} of {total} near-plane signs");
    }

    /// Rough cost per call, on in-cache working sets (best of several runs, the machine may be
    /// shared); `cargo test --release -- --ignored --nocapture timing`.
    #[test]
    #[ignore]
    fn timing() {
        use std::hint::black_box;
        use std::time::Instant;
        const N: usize = 1000;
        let mut rng = Rng(0x1234_5678_9ABC_DEF1);
        // Triangles of size ~0.3 scattered in a unit cube.
        let tri = |rng: &mut Rng| {
            let c = Vec3::new(rng.unit(), rng.unit(), rng.unit());
            let mut r = || Vec3::new(rng.unit(), rng.unit(), rng.unit()).add_scalar(-0.5) * 0.3;
            [c + r(), c + r(), c + r()]
        };
        let (mut hit, mut miss, mut miss_box) = (vec![], vec![], vec![]);
        while hit.len() < N || miss.len() < N || miss_box.len() < N {
            let (a, b) = (tri(&mut rng), tri(&mut rng));
            let set = if !boxes_overlap(&a, &b) {
                &mut miss_box
            } else if triangles_intersect(&a, &b) {
                &mut hit
            } else {
                &mut miss
            };
            if set.len() < N {
                set.push((a, b));
            }
        }
        // Small-integer pairs: touching, coplanar and degenerate cases, decided exactly.
        let exact: Vec<_> = (0..N)
            .map(|_| {
                let (a, b) = random_pair(&mut rng);
                (to_f(&a), to_f(&b))
            })
            .collect();
        let sets = [
            ("intersecting", &hit),
            ("disjoint, boxes overlap", &miss),
            ("disjoint boxes", &miss_box),
            ("small-integer mix", &exact),
        ];
        for (name, set) in sets {
            let mut best = f64::INFINITY;
            for _ in 0..7 {
                let start = Instant::now();
                for _ in 0..100 {
                    for (a, b) in set.iter() {
                        black_box(triangles_intersect(black_box(a), black_box(b)));
                    }
                }
                best = best.min(start.elapsed().as_nanos() as f64 / (100 * set.len()) as f64);
            }
            eprintln!("{name}: {best:.1} ns/call");
        }
    }
}
