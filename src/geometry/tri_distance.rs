//! Minimum distance between two triangles, with a closest pair of points.
//!
//! For disjoint closed triangles the minimum is attained by a pair of edges (one of each
//! triangle, closest points clamped to the segments) or by a vertex of one triangle and its
//! orthogonal projection onto the other triangle's face, when that projection falls inside the
//! face. Any such pair `(P, Q)` is certified optimal when the slab between the two planes
//! through `P` and `Q` perpendicular to `Q − P` separates the triangles, so in the separated case
//! the search stops at the first certified candidate. The certificate is checked with a margin
//! for the rounding of `P` and `Q`, which turns the slab by up to `ε·m / |Q − P|` (`m` the
//! largest coordinate): without it a needle's far vertex, 1e6 away across a gap of 1e-6, could
//! be taken to clear a slab it crosses. Intersecting triangles have no certified candidate;
//! when none is certified, the least candidate is the distance unless the exact predicate
//! ([`triangles_intersect`]) says the triangles meet.
//!
//! Contract: the distance is 0 exactly when [`triangles_intersect`] says the closed triangles
//! meet (then `p == q` is a point of the intersection, up to rounding), and otherwise positive
//! (at least the least positive double) and within a few rounding units of `m` of the true
//! distance: each candidate is computed to that, and a certified one is the least up to the
//! rounding of its points. Measured against exact rational distances of needles (aspect
//! ratios up to 1e6) and caps (up to 1e12) with coordinates to 2^20, moved up to 4e15 from the
//! origin and scaled by 2^±300 (`sliver_tests`, 2 × 1e6 pairs): at most 1.2 ε·m.
//!
//! The computation is done in a canonical order of the two triangles (lexicographic on their
//! coordinates), so swapping the arguments swaps `p` and `q` and gives bit-identical numbers.

use crate::geometry::tri_intersect::triangles_intersect;
use crate::math::{Triangle, Vec3};

/// Result of [`triangle_distance`]: `p` lies on the first triangle, `q` on the second and
/// `|p − q| = distance` up to rounding. For intersecting triangles `distance == 0` and `p == q`
/// (bit-identical) is a point of the intersection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TriDistance {
    /// Distance between the triangles.
    pub distance: f64,
    /// Closest point on the first triangle.
    pub p: Vec3,
    /// Closest point on the second triangle.
    pub q: Vec3,
}

/// Clamps to `[0, 1]`; NaN goes to 0.
#[inline(always)]
fn clamp01(x: f64) -> f64 {
    if x > 0.0 { if x < 1.0 { x } else { 1.0 } } else { 0.0 }
}

/// Closest points of the segments `[p0, p1]` and `[q0, q1]`: returns `(P, Q)` with `P` on the
/// first segment and `Q` on the second. Handles parallel and zero-length segments (never NaN
/// for finite input).
///
/// The unconstrained line parameter is computed from cross products, `s = ((q0−p0)×d2)·n / |n|²`
/// with `n = d1×d2`, which stays accurate for nearly parallel segments (the textbook
/// `(b f − c e)/(a e − b²)` loses all precision there); then the other parameter is the
/// projection, and if it must be clamped the first is re-projected.
#[inline]
pub fn segment_closest_points(p0: &Vec3, p1: &Vec3, q0: &Vec3, q1: &Vec3) -> (Vec3, Vec3) {
    let d1 = p1 - p0;
    let d2 = q1 - q0;
    segment_pair([p0, p1], &d1, d1.dot(&d1), [q0, q1], &d2, d2.dot(&d2))
}

/// [`segment_closest_points`] with the directions `d1 = p1 − p0`, `d2 = q1 − q0` and their
/// squared lengths `a`, `e` given. Clamped closest points are the endpoints themselves.
#[inline(always)]
fn segment_pair(p: [&Vec3; 2], d1: &Vec3, a: f64, q: [&Vec3; 2], d2: &Vec3, e: f64) -> (Vec3, Vec3) {
    let (s, t) = segment_params(p[0], d1, a, q[0], d2, e);
    let at = |x: [&Vec3; 2], d: &Vec3, s: f64| {
        if s == 0.0 {
            *x[0]
        } else if s == 1.0 {
            *x[1]
        } else {
            x[0] + d * s
        }
    };
    (at(p, d1, s), at(q, d2, t))
}

/// The parameters `(s, t)` in `[0, 1]` of the closest points `p0 + s·d1` and `q0 + t·d2`
/// (exactly 0 or 1 when clamped).
#[inline(always)]
#[allow(clippy::neg_cmp_op_on_partial_ord)] // `!(x > 0)` deliberately also catches NaN
pub(crate) fn segment_params(p0: &Vec3, d1: &Vec3, a: f64, q0: &Vec3, d2: &Vec3, e: f64) -> (f64, f64) {
    let r = p0 - q0;
    if !(a > 0.0) {
        if !(e > 0.0) {
            return (0.0, 0.0);
        }
        return (0.0, clamp01(d2.dot(&r) / e));
    }
    if !(e > 0.0) {
        return (clamp01(-d1.dot(&r) / a), 0.0);
    }
    let b = d1.dot(d2);
    let f = d2.dot(&r);
    let n = d1.cross(d2);
    let nn = n.dot(&n);
    let s = if nn > 0.0 { clamp01(d2.cross(&r).dot(&n) / nn) } else { 0.0 };
    let t = (b * s + f) / e;
    if t < 0.0 {
        (clamp01(-d1.dot(&r) / a), 0.0)
    } else if t > 1.0 {
        (clamp01((b - d1.dot(&r)) / a), 1.0)
    } else {
        // `t` is finite here (e > 0); NaN would have failed both comparisons, so clamp anyway.
        (s, clamp01(t))
    }
}

/// Minimum distance between two closed triangles (degenerate ones included), with a closest
/// pair: `p` on `a`, `q` on `b`. Exactly 0 when they meet, otherwise positive and within a few
/// rounding units of the largest coordinate of the true distance; see the module
/// documentation.
pub fn triangle_distance(a: &Triangle, b: &Triangle) -> TriDistance {
    triangle_distance_within(a, b, f64::INFINITY).expect("no cut")
}

/// [`triangle_distance`] for a caller that only needs pairs at most `cut` apart: `None` when
/// the plane of one triangle (moved to its nearest vertex) separates the other by more than
/// `cut`, so that the distance is surely above `cut` (a rounding margin is the caller's);
/// otherwise exactly the [`triangle_distance`] result.
pub fn triangle_distance_within(a: &Triangle, b: &Triangle, cut: f64) -> Option<TriDistance> {
    // The computation squares coordinate differences: they must stay normal numbers.
    let m = 0f64.max(a[0].amax()).max(a[1].amax()).max(a[2].amax()).max(b[0].amax()).max(b[1].amax()).max(b[2].amax());
    if !(TINY..=HUGE).contains(&m) && m > 0.0 && m.is_finite() {
        return rescaled(a, b, cut, m);
    }
    canonical(a, b, cut, m)
}

/// Pairs whose coordinates all lie below `TINY` or reach beyond `HUGE` in magnitude are
/// computed rescaled: the computation forms products of up to six coordinates (squared
/// heights over a plane), and `2^±150` to the sixth power stays clear of overflow and
/// underflow.
const TINY: f64 = 7.006492321624085e-46; // 2^-150
const HUGE: f64 = 1.42724769270596e45; // 2^150

/// [`triangle_distance_within`] for a pair of magnitude `m` outside `[TINY, HUGE]`: a tiny
/// pair is scaled up by a power of two (exact); a huge one is first translated to `a`'s first
/// vertex (which rounds each coordinate by at most half an ulp of its magnitude, the precision
/// it has) and then scaled so that its extent is about 1. Results are scaled back.
#[cold]
fn rescaled(a: &Triangle, b: &Triangle, cut: f64, m: f64) -> Option<TriDistance> {
    // (The origin is the canonically first triangle's first vertex, so that swapping the
    // arguments still swaps the points exactly.)
    let origin = if m <= HUGE {
        Vec3::zeros()
    } else if precedes(b, a) {
        b[0]
    } else {
        a[0]
    };
    let (a, b) = (a.map(|p| p - origin), b.map(|p| p - origin));
    let extent = a.iter().chain(&b).map(|p| p.amax()).fold(0.0, f64::max);
    if extent == 0.0 {
        return Some(TriDistance { distance: 0.0, p: origin, q: origin });
    }
    // 2^-e with 2^e the power of two at or just above `extent` (|e| < 1100: `powi` is exact
    // for these as long as the result is normal, which 2^±1074 would not be; split in two).
    let e = extent.log2().ceil() as i32;
    let (s1, s2) = (2f64.powi(-e / 2), 2f64.powi(-e + e / 2));
    let scale = |t: &Triangle| t.map(|p| p * s1 * s2);
    let r = canonical(&scale(&a), &scale(&b), cut * s1 * s2, extent * s1 * s2)?;
    let back = |p: Vec3| p / s2 / s1 + origin;
    // (A positive distance stays positive: scaling down may underflow it.)
    let distance = if r.distance > 0.0 { (r.distance / s2 / s1).max(NOT_ON) } else { 0.0 };
    Some(TriDistance { distance, p: back(r.p), q: back(r.q) })
}

/// The computation in the canonical order of the two triangles (see the module
/// documentation).
#[inline(always)]
fn canonical(a: &Triangle, b: &Triangle, cut: f64, m: f64) -> Option<TriDistance> {
    if precedes(b, a) {
        let r = ordered(b, a, cut, m)?;
        Some(TriDistance { distance: r.distance, p: r.q, q: r.p })
    } else {
        ordered(a, b, cut, m)
    }
}

/// True when the heights `h` (scaled by `|n| = sqrt(nn)`) of a triangle's vertices over a plane
/// put all of them on one side farther than `cut`.
#[inline(always)]
fn beyond(h: &[f64; 3], nn: f64, cut: f64) -> bool {
    let lo = h[0].min(h[1]).min(h[2]);
    let hi = h[0].max(h[1]).max(h[2]);
    let g = if lo > 0.0 {
        lo
    } else if hi < 0.0 {
        -hi
    } else {
        0.0
    };
    g > 0.0 && g * g > cut * cut * nn
}

/// Lexicographic order on the nine coordinates (total order, so NaN cannot break it).
#[inline(always)]
fn precedes(x: &Triangle, y: &Triangle) -> bool {
    use std::cmp::Ordering::*;
    for i in 0..3 {
        for k in 0..3 {
            match x[i][k].total_cmp(&y[i][k]) {
                Less => return true,
                Greater => return false,
                Equal => {}
            }
        }
    }
    false
}

/// The three edge vectors `t[k+1] − t[k]`.
#[inline(always)]
fn edges(t: &Triangle) -> [Vec3; 3] {
    [t[1] - t[0], t[2] - t[1], t[0] - t[2]]
}

/// The normal `(t1 − t0) × (t2 − t1)` (twice the area vector) and its squared length, or
/// zero for a triangle taken as degenerate (see [`Flat`]).
///
/// Any two edges give it; the cross product of rounded edges `eᵢ × eⱼ` has a direction error
/// of about ε / sin θᵢⱼ, so the two shorter edges (the largest angle) are used. When even that
/// angle's sine is below 0.1 (a flat "cap" sliver) the error would tilt the face enough to spoil
/// vertex–face distances, and the normal is recomputed in double-double arithmetic from the
/// coordinates, accurate to an ulp or so.
#[inline(always)]
fn normal(t: &Triangle, e: &[Vec3; 3], l: &[f64; 3], flat: &Flat) -> (Vec3, f64) {
    // Edge k is the longest: cross the other two (e₀×e₁ = e₁×e₂ = e₂×e₀).
    let (i, j, k) = if l[0] >= l[1] {
        if l[0] >= l[2] { (1, 2, 0) } else { (0, 1, 2) }
    } else if l[1] >= l[2] {
        (2, 0, 1)
    } else {
        (0, 1, 2)
    };
    let n = e[i].cross(&e[j]);
    let nn = n.norm_squared();
    if nn >= 1e-2 * (l[i] * l[j]) && nn >= flat.normal && l[k] >= flat.edge {
        return (n, nn);
    }
    if l[k] < flat.edge {
        return (Vec3::zeros(), 0.0);
    }
    let n = accurate_normal(t);
    let nn = n.norm_squared();
    if nn < flat.normal { (Vec3::zeros(), 0.0) } else { (n, nn) }
}

/// When a triangle is taken as degenerate (a segment or a point: zero normal), relative to
/// the largest coordinate `m` of the pair: when its longest edge is below 2^-60 m, or its
/// squared normal below 2^-240 m⁴ (then it is thinner than 2^-60 m). Its edges then give the
/// distance to within its size or thickness, far below the coordinates' precision, and no
/// product of its tiny edges and normal with the other's coordinates underflows (a normal
/// whose square underflows would put every vertex of the other triangle beyond any cut, and
/// a tiny edge would put every point inside it).
struct Flat {
    /// Least squared length of the longest edge.
    edge: f64,
    /// Least squared normal.
    normal: f64,
}

impl Flat {
    /// For a pair whose largest coordinate is `m` (within 2^±151, see [`rescaled`]).
    #[inline(always)]
    fn new(m: f64) -> Flat {
        let edge = m * m * 7.52316384526264e-37; // 2^-120
        Flat { edge, normal: edge * edge }
    }
}

/// Error-free transformations for [`accurate_normal`] (Knuth's two-sum, Dekker's product).
#[inline]
pub(crate) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

#[inline]
fn split(a: f64) -> (f64, f64) {
    let c = 134_217_729.0 * a; // 2^27 + 1
    let hi = c - (c - a);
    (hi, a - hi)
}

#[inline]
pub(crate) fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    (p, ((ah * bh - p) + ah * bl + al * bh) + al * bl)
}

/// `(t1 − t0) × (t2 − t1)` in double-double arithmetic, rounded once at the end.
#[cold]
fn accurate_normal(t: &Triangle) -> Vec3 {
    // Edges as unevaluated sums hi + lo (exact).
    let u: [(f64, f64); 3] = std::array::from_fn(|k| two_sum(t[1][k], -t[0][k]));
    let v: [(f64, f64); 3] = std::array::from_fn(|k| two_sum(t[2][k], -t[1][k]));
    // x·y for double-doubles, to double-double accuracy (the lo·lo term is negligible).
    let mul = |x: (f64, f64), y: (f64, f64)| {
        let (p, e) = two_prod(x.0, y.0);
        (p, e + (x.0 * y.1 + x.1 * y.0))
    };
    let det = |i: usize, j: usize| {
        let (p, e) = mul(u[i], v[j]);
        let (q, f) = mul(u[j], v[i]);
        let (s, g) = two_sum(p, -q);
        s + (g + (e - f))
    };
    Vec3::new(det(1, 2), det(2, 0), det(0, 1))
}

/// True when `x` projects (along the normal `n`) into the closed triangle `t`.
#[inline(always)]
fn projects_inside(t: &Triangle, e: &[Vec3; 3], n: &Vec3, x: &Vec3) -> bool {
    // (`&`: the three tests cost less than the mispredicted branches between them.)
    (n.cross(&e[0]).dot(&(x - t[0])) >= 0.0)
        & (n.cross(&e[1]).dot(&(x - t[1])) >= 0.0)
        & (n.cross(&e[2]).dot(&(x - t[2])) >= 0.0)
}

/// Signed in-plane distance from the projection of `x` to the nearest edge line of `t`
/// (positive inside). Requires a non-degenerate `t` (`|n| > 0`).
fn inside_score(t: &Triangle, e: &[Vec3; 3], n: &Vec3, x: &Vec3) -> f64 {
    let nl = n.norm();
    let mut s = f64::INFINITY;
    for k in 0..3 {
        let v = n.cross(&e[k]).dot(&(x - t[k])) / (nl * e[k].norm());
        s = s.min(v);
    }
    s
}

/// The vertex of `o` closest to the plane of `t`, when all of `o` lies on one side of that plane
/// and the vertex projects into `t`: then that vertex and its foot are a closest pair.
#[inline(always)]
#[allow(clippy::neg_cmp_op_on_partial_ord)] // `!(x > 0)` deliberately also catches NaN
fn vertex_face(t: &Triangle, e: &[Vec3; 3], n: &Vec3, nn: f64, o: &Triangle, h: &[f64; 3]) -> Option<usize> {
    if !(nn > 0.0) {
        return None;
    }
    let one_side = ((h[0] >= 0.0) & (h[1] >= 0.0) & (h[2] >= 0.0)) | ((h[0] <= 0.0) & (h[1] <= 0.0) & (h[2] <= 0.0));
    if !one_side {
        return None;
    }
    let (h0, h1, h2) = (h[0].abs(), h[1].abs(), h[2].abs());
    let k = if h0 <= h1 {
        if h0 <= h2 { 0 } else { 2 }
    } else if h1 <= h2 {
        1
    } else {
        2
    };
    if projects_inside(t, e, n, &o[k]) { Some(k) } else { None }
}

/// Index of the largest of three numbers (the first on ties).
#[inline(always)]
fn argmax3(x: [f64; 3]) -> usize {
    if x[0] >= x[1] {
        if x[0] >= x[2] { 0 } else { 2 }
    } else if x[1] >= x[2] {
        1
    } else {
        2
    }
}

/// Below `TOUCH · m` (`m` the largest coordinate of the pair) a computed distance may hide a
/// touch or fake one, and the exact intersection predicate decides whether it is 0. It bounds
/// the error of every candidate distance here: a vertex–face height is off by the normal's
/// direction error (below about 35ε for the edges it is crossed from, see [`normal`]) times
/// the vertex's distance to the face's corner (below 2√3 m), an edge pair by a few ε·m.
const TOUCH: f64 = 256.0 * f64::EPSILON;

/// Bound, in units of `m`, on the error of the difference `v = Q − P` of the closest points
/// computed for a pair of segments against the exact one (`v*`, unique even when the closest
/// points are not): the rounding of the points' coordinates (√3 ε·m each) and of the
/// parameters, whose error moves a point along its segment by about ε·|p0 − q0| / sin φ (φ
/// the angle of the segments), which changes `v` by sin φ times that. Measured on slivers and
/// needles against exact closest points (`sliver_tests`).
const SLOP: f64 = 64.0 * f64::EPSILON;

/// `|x|₁ ≥ |x|`.
#[inline(always)]
fn l1(x: &Vec3) -> f64 {
    x.x.abs() + x.y.abs() + x.z.abs()
}

/// Everything computed once per pair.
struct Setup {
    ea: [Vec3; 3],
    eb: [Vec3; 3],
    na: Vec3,
    nb: Vec3,
    nna: f64,
    nnb: f64,
    /// Signed (scaled) heights of a's vertices over b's plane.
    ha: [f64; 3],
    /// Signed (scaled) heights of b's vertices over a's plane.
    hb: [f64; 3],
    /// The largest coordinate of the pair.
    m: f64,
}

fn ordered(a: &Triangle, b: &Triangle, cut: f64, m: f64) -> Option<TriDistance> {
    let ea = edges(a);
    let eb = edges(b);
    let la = [ea[0].dot(&ea[0]), ea[1].dot(&ea[1]), ea[2].dot(&ea[2])];
    let lb = [eb[0].dot(&eb[0]), eb[1].dot(&eb[1]), eb[2].dot(&eb[2])];
    let flat = Flat::new(m);
    let (na, nna) = normal(a, &ea, &la, &flat);
    let (nb, nnb) = normal(b, &eb, &lb, &flat);
    let ha = [nb.dot(&(a[0] - b[0])), nb.dot(&(a[1] - b[0])), nb.dot(&(a[2] - b[0]))];
    let hb = [na.dot(&(b[0] - a[0])), na.dot(&(b[1] - a[0])), na.dot(&(b[2] - a[0]))];
    let su = Setup { ea, eb, na, nb, nna, nnb, ha, hb, m };
    if cut < f64::INFINITY && (beyond(&su.ha, su.nnb, cut) || beyond(&su.hb, su.nna, cut)) {
        return None;
    }

    // Triangles that cross each other's planes (the common case of intersecting ones): a
    // point where an edge of one crosses the other's plane inside the other is a point of
    // the intersection (up to rounding, as every intersection point here), when the exact
    // predicate agrees that they meet (rounding can fake a crossing by a hair); if none is,
    // the general search below decides.
    if let Some(x) = crossing(a, b, &su) {
        if triangles_intersect(a, b) {
            return Some(TriDistance { distance: 0.0, p: x, q: x });
        }
    }

    // Cheap first pass: a vertex over the other face, everything on one side.
    if let Some(k) = vertex_face(b, &su.eb, &su.nb, su.nnb, a, &su.ha) {
        let p = a[k];
        let q = p - su.nb * (su.ha[k] / su.nnb);
        let d = su.ha[k].abs() / su.nnb.sqrt();
        return Some(certified(a, b, &su, p, q, d));
    }
    if let Some(k) = vertex_face(a, &su.ea, &su.na, su.nna, b, &su.hb) {
        let q = b[k];
        let p = q - su.na * (su.hb[k] / su.nna);
        let d = su.hb[k].abs() / su.nna.sqrt();
        return Some(certified(a, b, &su, p, q, d));
    }

    // Edge pairs: the closest points of edge i of a and edge j of b are optimal when the
    // opposite vertices lie on the far sides of the slab (the edges' own endpoints do,
    // since each point is the closest of its segment to the other). Edges at the vertices
    // facing the other triangle (along the line of centroids) are tried first.
    //
    // The slab is that of the exact closest points `P*, Q*` of the two edges, known only to
    // within rounding: `v = Q − P` differs from `v* = Q* − P*` by up to `slop` (see [`SLOP`]),
    // which turns the slab by `slop / |v|` — for a short `v` and a far opposite vertex, far
    // more than the vertex's margin (a needle's far vertex, 1e6 away, seen across a gap of
    // 1e-6). So the opposite vertex `x` must clear the slab's plane by `slop · |x − P|`; then
    // `(x − P*)·v*` has the sign of `(x − P)·v` up to the rounding of `P` itself (√3 ε·m·|v|,
    // an error of that much in the certified distance).
    let dir = (b[0] + b[1] + b[2]) - (a[0] + a[1] + a[2]);
    let ia = argmax3([a[0].dot(&dir), a[1].dot(&dir), a[2].dot(&dir)]);
    let jb = argmax3([-b[0].dot(&dir), -b[1].dot(&dir), -b[2].dot(&dir)]);
    // Edge k joins vertex k to k+1: the edges at vertex v are v and v+2 (mod 3).
    let oa = [ia, (ia + 2) % 3, (ia + 1) % 3];
    let ob = [jb, (jb + 2) % 3, (jb + 1) % 3];
    const ORDER: [(usize, usize); 9] = [(0, 0), (0, 1), (1, 0), (1, 1), (0, 2), (1, 2), (2, 0), (2, 1), (2, 2)];
    let slop = SLOP * m;
    let mut best_d2 = f64::INFINITY;
    let mut best_p = a[0];
    let mut best_q = b[0];
    for &(x, y) in &ORDER {
        let (i, j) = (oa[x], ob[y]);
        let (p, q) =
            segment_pair([&a[i], &a[(i + 1) % 3]], &su.ea[i], la[i], [&b[j], &b[(j + 1) % 3]], &su.eb[j], lb[j]);
        let v = q - p;
        let d2 = v.dot(&v);
        if d2 < best_d2 {
            best_d2 = d2;
            best_p = p;
            best_q = q;
        }
        let (xa, xb) = (a[(i + 2) % 3] - p, b[(j + 2) % 3] - q);
        let (sa, sb) = (xa.dot(&v), xb.dot(&v));
        if d2 > 0.0 && sa <= 0.0 && sb >= 0.0 && sa + slop * l1(&xa) <= 0.0 && sb - slop * l1(&xb) >= 0.0 {
            return Some(certified(a, b, &su, p, q, d2.sqrt()));
        }
    }
    Some(fallback(a, b, &su, best_d2, best_p, best_q))
}

/// A point where an edge of `a` crosses `b`'s plane inside `b`, or an edge of `b` crosses
/// `a`'s plane inside `a`, when each triangle has vertices strictly on both sides of the
/// other's plane (so the two planes cut through both triangles).
#[inline(always)]
fn crossing(a: &Triangle, b: &Triangle, su: &Setup) -> Option<Vec3> {
    let straddles = |h: &[f64; 3]| {
        let (lo, hi) = (h[0].min(h[1]).min(h[2]), h[0].max(h[1]).max(h[2]));
        lo < 0.0 && hi > 0.0
    };
    if !(straddles(&su.ha) && straddles(&su.hb)) {
        return None;
    }
    let through = |t: &Triangle, e: &[Vec3; 3], n: &Vec3, o: &Triangle, h: &[f64; 3]| {
        (0..3).find_map(|k| {
            let l = (k + 1) % 3;
            let (h0, h1) = (h[k], h[l]);
            if ((h0 < 0.0) & (h1 > 0.0)) | ((h0 > 0.0) & (h1 < 0.0)) {
                let x = o[k] + (o[l] - o[k]) * (h0 / (h0 - h1));
                projects_inside(t, e, n, &x).then_some(x)
            } else {
                None
            }
        })
    };
    through(b, &su.eb, &su.nb, a, &su.ha).or_else(|| through(a, &su.ea, &su.na, b, &su.hb))
}

/// A certified closest pair. At rounding-level distances the exact intersection predicate
/// decides whether the triangles actually touch (then the distance is 0; otherwise it is
/// never 0).
#[inline]
fn certified(a: &Triangle, b: &Triangle, su: &Setup, p: Vec3, q: Vec3, d: f64) -> TriDistance {
    if d <= TOUCH * su.m || p == q {
        return decided(a, b, su, p, q, d);
    }
    TriDistance { distance: d, p, q }
}

/// The exact predicate's decision for a pair at a rounding-level distance `d` with the
/// candidate closest pair `(p, q)`: 0 and a point of the intersection when the closed
/// triangles meet, else `d` (at least the least positive double).
#[cold]
fn decided(a: &Triangle, b: &Triangle, su: &Setup, p: Vec3, q: Vec3, d: f64) -> TriDistance {
    if let Some(x) = shared_vertex(a, b) {
        return TriDistance { distance: 0.0, p: x, q: x };
    }
    if triangles_intersect(a, b) {
        // (The intersection's most plausible point; the candidate pair's when that misses
        // by more than rounding.)
        let (score, x) = intersection_candidate(a, b, su, Some((p, q)));
        let x = if score >= -TOUCH * su.m { x } else { p };
        return TriDistance { distance: 0.0, p: x, q: x };
    }
    TriDistance { distance: d.max(NOT_ON), p, q }
}

/// A vertex the two triangles have in common (then they touch there).
#[cold]
fn shared_vertex(a: &Triangle, b: &Triangle) -> Option<Vec3> {
    a.iter().find(|x| b.contains(x)).copied()
}

/// The most plausible point of the intersection and its score: the signed distance by which it
/// is inside both triangles (≥ 0 when it is a point of both up to rounding, negative when the
/// best candidate misses by that much). Candidates: crossings of an edge of one triangle with
/// the other's plane, vertices (their height above the other's plane counts against them), and
/// the closest pair of edges (`pair`, scored by minus its distance).
#[allow(clippy::neg_cmp_op_on_partial_ord)] // `!(x > 0)` deliberately also catches NaN
fn intersection_candidate(a: &Triangle, b: &Triangle, su: &Setup, pair: Option<(Vec3, Vec3)>) -> (f64, Vec3) {
    let mut best_s = f64::NEG_INFINITY;
    let mut best_x = a[0];
    let mut consider = |x: Vec3, s: f64| {
        if s > best_s {
            best_s = s;
            best_x = x;
        }
    };
    if let Some((p, q)) = pair {
        consider(p, -(q - p).norm());
    }
    // Vertices and edges of `o` against the face of `t`.
    let mut against = |t: &Triangle, e: &[Vec3; 3], n: &Vec3, nn: f64, o: &Triangle, h: &[f64; 3]| {
        if !(nn > 0.0) {
            return;
        }
        let inv = 1.0 / nn.sqrt();
        for k in 0..3 {
            let s = inside_score(t, e, n, &o[k]).min(-(h[k].abs() * inv));
            consider(o[k], s);
            let l = (k + 1) % 3;
            let (h0, h1) = (h[k], h[l]);
            if (h0 < 0.0 && h1 > 0.0) || (h0 > 0.0 && h1 < 0.0) {
                let x = o[k] + (o[l] - o[k]) * (h0 / (h0 - h1));
                consider(x, inside_score(t, e, n, &x));
            }
        }
    };
    against(b, &su.eb, &su.nb, su.nnb, a, &su.ha);
    against(a, &su.ea, &su.na, su.nna, b, &su.hb);
    (best_s, best_x)
}

/// No candidate was certified: the triangles intersect, or rounding blurred a certificate.
/// The smallest candidate (edge pairs, vertex–face projections) is the distance of disjoint
/// triangles (each is computed to a few ε·m, and the true distance is one of them); the exact
/// predicate decides whether they are disjoint.
fn fallback(a: &Triangle, b: &Triangle, su: &Setup, edge_d2: f64, edge_p: Vec3, edge_q: Vec3) -> TriDistance {
    if let Some(x) = shared_vertex(a, b) {
        return TriDistance { distance: 0.0, p: x, q: x };
    }
    // Smallest candidate over edge pairs and vertex–face projections.
    let (mut d2, mut p, mut q) = (edge_d2, edge_p, edge_q);
    if su.nnb > 0.0 {
        for (x, &h) in a.iter().zip(&su.ha) {
            let c = h * h / su.nnb;
            if c < d2 && projects_inside(b, &su.eb, &su.nb, x) {
                d2 = c;
                p = *x;
                q = x - su.nb * (h / su.nnb);
            }
        }
    }
    if su.nna > 0.0 {
        for (x, &h) in b.iter().zip(&su.hb) {
            let c = h * h / su.nna;
            if c < d2 && projects_inside(a, &su.ea, &su.na, x) {
                d2 = c;
                q = *x;
                p = x - su.na * (h / su.nna);
            }
        }
    }
    let d = d2.sqrt();
    if d <= TOUCH * su.m || p == q {
        return decided(a, b, su, p, q, d);
    }
    if triangles_intersect(a, b) {
        let (_, x) = intersection_candidate(a, b, su, Some((p, q)));
        return TriDistance { distance: 0.0, p: x, q: x };
    }
    TriDistance { distance: d, p, q }
}

/// Result of [`point_triangle_distance`]: `point` lies on the triangle and `|p − point| =
/// distance` up to rounding; `distance == 0` exactly when `p` lies on the triangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointDistance {
    /// Distance from the point to the triangle.
    pub distance: f64,
    /// Closest point of the triangle.
    pub point: Vec3,
}

/// The least positive double: the distance reported for a point off the triangle whose
/// distance rounds to 0, so that 0 means "on the triangle" and nothing else.
const NOT_ON: f64 = 5e-324;

/// Minimum distance from the point `p` to the closed triangle `t` (a zero-area triangle is its
/// segment or point), with the closest point of `t`.
///
/// The foot of the perpendicular when it falls inside the face (with the face normal of
/// [`triangle_distance`], accurate for slivers), else the closest point of the nearest edge
/// the point sees; computed rescaled (as [`triangle_distance`]) outside `2^±150`, so that any
/// finite input is fine. Errs by a few rounding units of the largest coordinate. Whether the
/// distance is 0 is exact: at rounding-level distances the exact intersection predicate
/// decides, and a point on the triangle gets distance 0 and itself as the closest point,
/// while a point off it never gets 0 (at least the least positive double).
pub fn point_triangle_distance(p: &Vec3, t: &Triangle) -> PointDistance {
    let m = t.iter().fold(p.amax(), |m, v| m.max(v.amax()));
    let mut r =
        if (TINY..=HUGE).contains(&m) || m == 0.0 { point_triangle(p, t, m) } else { point_triangle_rescaled(p, t, m) };
    // Below this the rounding may hide a touch (or fake one): the exact predicate decides.
    if r.distance <= 64.0 * f64::EPSILON * m {
        if triangles_intersect(t, &[*p; 3]) {
            return PointDistance { distance: 0.0, point: *p };
        }
        r.distance = r.distance.max(NOT_ON);
    }
    r
}

/// [`point_triangle_distance`] for coordinates of magnitude `m` outside `[TINY, HUGE]` (as
/// [`rescaled`]: huge ones translated to the triangle's first vertex, then all scaled by a
/// power of two to an extent of about 1).
#[cold]
fn point_triangle_rescaled(p: &Vec3, t: &Triangle, m: f64) -> PointDistance {
    let origin = if m <= HUGE { Vec3::zeros() } else { t[0] };
    let (p, t) = (p - origin, t.map(|v| v - origin));
    let extent = t.iter().fold(p.amax(), |m, v| m.max(v.amax()));
    if extent == 0.0 {
        return PointDistance { distance: 0.0, point: origin };
    }
    let e = extent.log2().ceil() as i32;
    let (s1, s2) = (2f64.powi(-e / 2), 2f64.powi(-e + e / 2));
    let r = point_triangle(&(p * s1 * s2), &t.map(|v| v * s1 * s2), extent * s1 * s2);
    PointDistance { distance: r.distance / s2 / s1, point: r.point / s2 / s1 + origin }
}

/// [`point_triangle_distance`] before the exact decision, for magnitudes within
/// `[TINY, HUGE]`.
#[inline]
fn point_triangle(p: &Vec3, t: &Triangle, m: f64) -> PointDistance {
    let e = edges(t);
    let l = [e[0].dot(&e[0]), e[1].dot(&e[1]), e[2].dot(&e[2])];
    let (n, nn) = normal(t, &e, &l, &Flat::new(m));
    // The edges whose outer side holds p's projection: the closest point of a triangle the
    // projection misses is on one of them. (All three for a triangle taken as degenerate.)
    let mut sees = [true; 3];
    if nn > 0.0 {
        sees = std::array::from_fn(|k| n.cross(&e[k]).dot(&(p - t[k])) < 0.0);
        if sees == [false; 3] {
            let h = n.dot(&(p - t[0]));
            return PointDistance { distance: h.abs() / nn.sqrt(), point: p - n * (h / nn) };
        }
    }
    let (mut best, mut point) = (f64::INFINITY, t[0]);
    for k in (0..3).filter(|&k| sees[k]) {
        let (s, _) = segment_params(&t[k], &e[k], l[k], p, &Vec3::zeros(), 0.0);
        let x = if s == 0.0 {
            t[k]
        } else if s == 1.0 {
            t[(k + 1) % 3]
        } else {
            t[k] + e[k] * s
        };
        let d2 = (p - x).norm_squared();
        if d2 < best {
            (best, point) = (d2, x);
        }
    }
    // (Scaled: the square of a tiny distance may underflow.)
    PointDistance { distance: crate::math::length(&(p - point)), point }
}

#[cfg(test)]
mod sliver_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    // ---------- independent reference ----------

    fn ref_point_segment(x: &Vec3, p0: &Vec3, p1: &Vec3) -> f64 {
        let d = p1 - p0;
        let dd = d.dot(&d);
        if dd == 0.0 {
            return (x - p0).norm();
        }
        let t = ((x - p0).dot(&d) / dd).clamp(0.0, 1.0);
        (x - (p0 + d * t)).norm()
    }

    /// Segment–segment distance by golden-section search of the convex function
    /// s ↦ dist(p(s), [q0, q1]) (a formulation unrelated to the closed form under test).
    fn ref_segment_segment(p0: &Vec3, p1: &Vec3, q0: &Vec3, q1: &Vec3) -> f64 {
        let g = |s: f64| ref_point_segment(&(p0 + (p1 - p0) * s), q0, q1);
        let phi = 0.5 * (5f64.sqrt() - 1.0);
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        let mut x1 = hi - phi * (hi - lo);
        let mut x2 = lo + phi * (hi - lo);
        let (mut f1, mut f2) = (g(x1), g(x2));
        for _ in 0..90 {
            if f1 <= f2 {
                hi = x2;
                x2 = x1;
                f2 = f1;
                x1 = hi - phi * (hi - lo);
                f1 = g(x1);
            } else {
                lo = x1;
                x1 = x2;
                f1 = f2;
                x2 = lo + phi * (hi - lo);
                f2 = g(x2);
            }
        }
        f1.min(f2).min(g(0.0)).min(g(1.0)).min(g(0.5 * (lo + hi)))
    }

    /// Barycentric coordinates of the projection of x by sub-triangle areas; None if degenerate.
    fn ref_bary(x: &Vec3, t: &Triangle) -> Option<(Vec3, [f64; 3])> {
        let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
        let nn = n.dot(&n);
        if nn == 0.0 {
            return None;
        }
        let foot = x - n * (n.dot(&(x - t[0])) / nn);
        let l = [
            n.dot(&(t[1] - foot).cross(&(t[2] - foot))) / nn,
            n.dot(&(t[2] - foot).cross(&(t[0] - foot))) / nn,
            n.dot(&(t[0] - foot).cross(&(t[1] - foot))) / nn,
        ];
        Some((foot, l))
    }

    fn ref_point_triangle(x: &Vec3, t: &Triangle) -> f64 {
        let mut d = ref_point_segment(x, &t[0], &t[1])
            .min(ref_point_segment(x, &t[1], &t[2]))
            .min(ref_point_segment(x, &t[2], &t[0]));
        if let Some((foot, l)) = ref_bary(x, t) {
            if l.iter().all(|&v| v >= 0.0) {
                d = d.min((x - foot).norm());
            }
        }
        d
    }

    /// Does a segment cross the (non-degenerate) triangle's face transversally?
    fn ref_segment_crosses(p: &Vec3, q: &Vec3, t: &Triangle) -> bool {
        let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
        if n.dot(&n) == 0.0 {
            return false;
        }
        let (hp, hq) = (n.dot(&(p - t[0])), n.dot(&(q - t[0])));
        if hp * hq > 0.0 || (hp == 0.0 && hq == 0.0) {
            return false;
        }
        let x = p + (q - p) * (hp / (hp - hq));
        ref_bary(&x, t).is_some_and(|(_, l)| l.iter().all(|&v| v >= 0.0))
    }

    /// Reference distance: 0 when an edge pierces the other triangle, else the minimum over the
    /// 9 segment pairs and the 6 vertex–triangle distances (coplanar overlap shows up there as 0).
    fn ref_distance(a: &Triangle, b: &Triangle) -> f64 {
        for k in 0..3 {
            if ref_segment_crosses(&a[k], &a[(k + 1) % 3], b) || ref_segment_crosses(&b[k], &b[(k + 1) % 3], a) {
                return 0.0;
            }
        }
        let mut d = f64::INFINITY;
        for i in 0..3 {
            for j in 0..3 {
                d = d.min(ref_segment_segment(&a[i], &a[(i + 1) % 3], &b[j], &b[(j + 1) % 3]));
            }
            d = d.min(ref_point_triangle(&a[i], b)).min(ref_point_triangle(&b[i], a));
        }
        d
    }

    /// Euclidean projection onto the probability simplex in R³.
    fn project_simplex(x: [f64; 3]) -> [f64; 3] {
        let mut u = x;
        u.sort_by(|p, q| q.total_cmp(p));
        let mut css = 0.0;
        let mut theta = 0.0;
        for (k, &v) in u.iter().enumerate() {
            css += v;
            let t = (css - 1.0) / (k as f64 + 1.0);
            if v - t > 0.0 {
                theta = t;
            }
        }
        [(x[0] - theta).max(0.0), (x[1] - theta).max(0.0), (x[2] - theta).max(0.0)]
    }

    /// Global minimisation over the barycentric coordinates of both triangles: the best point of
    /// a coarse barycentric grid, then accelerated projected gradient (FISTA with restarts) on
    /// |Σλᵢaᵢ − Σμⱼbⱼ|². Returns an achieved distance (an upper bound converging to the minimum).
    fn grid_distance(a: &Triangle, b: &Triangle) -> f64 {
        let c = (a[0] + a[1] + a[2] + b[0] + b[1] + b[2]) / 6.0;
        let a = [a[0] - c, a[1] - c, a[2] - c];
        let b = [b[0] - c, b[1] - c, b[2] - c];
        let res = |l: &[f64; 3], m: &[f64; 3]| {
            a[0] * l[0] + a[1] * l[1] + a[2] * l[2] - (b[0] * m[0] + b[1] * m[1] + b[2] * m[2])
        };
        let n = 8;
        let mut bl = [1.0, 0.0, 0.0];
        let mut bm = [1.0, 0.0, 0.0];
        let mut fb = f64::INFINITY;
        let mut grid = Vec::new();
        for i in 0..=n {
            for j in 0..=n - i {
                grid.push([i as f64 / n as f64, j as f64 / n as f64, (n - i - j) as f64 / n as f64]);
            }
        }
        for l in &grid {
            for m in &grid {
                let v = res(l, m).norm_squared();
                if v < fb {
                    fb = v;
                    bl = *l;
                    bm = *m;
                }
            }
        }
        let lip = 2.0 * a.iter().chain(b.iter()).map(|v| v.norm_squared()).sum::<f64>();
        let step = 1.0 / lip;
        let (mut xl, mut xm) = (bl, bm);
        let (mut yl, mut ym) = (bl, bm);
        let mut tk = 1.0f64;
        let mut fprev = fb;
        for _ in 0..20_000 {
            let r = res(&yl, &ym);
            let gl = [2.0 * a[0].dot(&r), 2.0 * a[1].dot(&r), 2.0 * a[2].dot(&r)];
            let gm = [-2.0 * b[0].dot(&r), -2.0 * b[1].dot(&r), -2.0 * b[2].dot(&r)];
            let nl = project_simplex([yl[0] - step * gl[0], yl[1] - step * gl[1], yl[2] - step * gl[2]]);
            let nm = project_simplex([ym[0] - step * gm[0], ym[1] - step * gm[1], ym[2] - step * gm[2]]);
            let fnew = res(&nl, &nm).norm_squared();
            if fnew < fb {
                fb = fnew;
            }
            if fnew > fprev {
                // Adaptive restart.
                tk = 1.0;
                yl = nl;
                ym = nm;
            } else {
                let tn = 0.5 * (1.0 + (1.0 + 4.0 * tk * tk).sqrt());
                let w = (tk - 1.0) / tn;
                for k in 0..3 {
                    yl[k] = nl[k] + w * (nl[k] - xl[k]);
                    ym[k] = nm[k] + w * (nm[k] - xm[k]);
                }
                tk = tn;
            }
            yl = project_simplex(yl);
            ym = project_simplex(ym);
            xl = nl;
            xm = nm;
            fprev = fnew;
        }
        fb.sqrt()
    }

    fn scale(a: &Triangle, b: &Triangle) -> f64 {
        a.iter().chain(b.iter()).map(|v| v.amax()).fold(1e-300, f64::max)
    }

    /// Checks one result against the reference and the structural promises; returns the error.
    fn check(a: &Triangle, b: &Triangle, tol_rel: f64) -> f64 {
        let r = triangle_distance(a, b);
        let s = scale(a, b);
        let tol = tol_rel * s;
        assert!(r.distance.is_finite() && r.p.iter().all(|v| v.is_finite()) && r.q.iter().all(|v| v.is_finite()));
        assert!(r.distance >= 0.0);
        // p on a, q on b.
        assert!(ref_point_triangle(&r.p, a) <= tol, "p off a: {a:?} {b:?} {r:?}");
        assert!(ref_point_triangle(&r.q, b) <= tol, "q off b: {a:?} {b:?} {r:?}");
        assert!(((r.p - r.q).norm() - r.distance).abs() <= tol, "|p-q| != d: {a:?} {b:?} {r:?}");
        if r.distance == 0.0 {
            assert_eq!(r.p, r.q);
            assert_eq!(r.p.map(f64::to_bits), r.q.map(f64::to_bits));
        }
        // Symmetry, bit for bit.
        let t = triangle_distance(b, a);
        assert_eq!(t.distance.to_bits(), r.distance.to_bits(), "asymmetric {a:?} {b:?}");
        assert_eq!(t.p, r.q);
        assert_eq!(t.q, r.p);
        let want = ref_distance(a, b);
        let err = (r.distance - want).abs();
        assert!(err <= tol, "distance {} reference {} (err {:e}, scale {s}): {a:?} {b:?}", r.distance, want, err);
        err / s
    }

    #[test]
    fn segments_basic() {
        let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
        // Crossing skew segments.
        let (p, q) = segment_closest_points(&v(-1., 0., 0.), &v(1., 0., 0.), &v(0., -1., 1.), &v(0., 1., 1.));
        assert_eq!(p, v(0., 0., 0.));
        assert_eq!(q, v(0., 0., 1.));
        // Parallel overlapping: distance is the offset.
        let (p, q) = segment_closest_points(&v(0., 0., 0.), &v(2., 0., 0.), &v(1., 1., 0.), &v(3., 1., 0.));
        assert!(((p - q).norm() - 1.0).abs() < 1e-15);
        // Parallel, disjoint in projection: endpoint to endpoint.
        let (p, q) = segment_closest_points(&v(0., 0., 0.), &v(1., 0., 0.), &v(2., 1., 0.), &v(3., 1., 0.));
        assert_eq!((p, q), (v(1., 0., 0.), v(2., 1., 0.)));
        // Antiparallel and collinear.
        let (p, q) = segment_closest_points(&v(0., 0., 0.), &v(1., 0., 0.), &v(3., 0., 0.), &v(2., 0., 0.));
        assert_eq!((p, q), (v(1., 0., 0.), v(2., 0., 0.)));
        // Zero-length segments.
        let (p, q) = segment_closest_points(&v(1., 1., 1.), &v(1., 1., 1.), &v(0., 0., 0.), &v(2., 0., 0.));
        assert_eq!((p, q), (v(1., 1., 1.), v(1., 0., 0.)));
        let (p, q) = segment_closest_points(&v(0., 0., 0.), &v(2., 0., 0.), &v(1., 1., 1.), &v(1., 1., 1.));
        assert_eq!((p, q), (v(1., 0., 0.), v(1., 1., 1.)));
        let (p, q) = segment_closest_points(&v(0., 0., 0.), &v(0., 0., 0.), &v(1., 1., 1.), &v(1., 1., 1.));
        assert_eq!((p, q), (v(0., 0., 0.), v(1., 1., 1.)));
        // Tiny but nonzero segment lengths (subnormal squared lengths) never give NaN.
        let e = 1e-160;
        let (p, q) = segment_closest_points(&v(0., 0., 0.), &v(e, 0., 0.), &v(0., 1., 0.), &v(0., 1., e));
        assert!(p.iter().chain(q.iter()).all(|x| x.is_finite()));
    }

    #[test]
    fn segments_random_against_reference() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut worst = 0.0f64;
        for it in 0..200_000 {
            let p0 = rng.vec(-1.0, 1.0);
            let mut p1 = rng.vec(-1.0, 1.0);
            let mut q0 = rng.vec(-1.0, 1.0);
            let mut q1 = rng.vec(-1.0, 1.0);
            match it % 6 {
                // Nearly parallel.
                1 => {
                    let d = (p1 - p0) * rng.range(-2.0, 2.0);
                    q1 = q0 + d + rng.vec(-1.0, 1.0) * 10f64.powi(-(rng.below(16) as i32));
                }
                // Exactly parallel / collinear.
                2 => {
                    q1 = q0 + (p1 - p0) * rng.range(-2.0, 2.0);
                    if rng.below(2) == 0 {
                        q0 = p0 + (p1 - p0) * rng.range(-2.0, 2.0);
                        q1 = p0 + (p1 - p0) * rng.range(-2.0, 2.0);
                    }
                }
                // Zero-length.
                3 => {
                    p1 = p0;
                }
                // Nearly intersecting, nearly parallel.
                4 => {
                    let c = p0 + (p1 - p0) * rng.range(0.0, 1.0);
                    let d = (p1 - p0) + rng.vec(-1.0, 1.0) * 10f64.powi(-(rng.below(14) as i32));
                    q0 = c - d * rng.range(0.0, 1.0);
                    q1 = c + d * rng.range(0.0, 1.0);
                }
                _ => {}
            }
            let (p, q) = segment_closest_points(&p0, &p1, &q0, &q1);
            assert!(
                ref_point_segment(&p, &p0, &p1) <= 4e-15 * (p0.amax() + p1.amax())
                    && ref_point_segment(&q, &q0, &q1) <= 4e-15 * (q0.amax() + q1.amax()),
                "{it} {p0:?} {p1:?} {q0:?} {q1:?} {p:?} {q:?} {} {}",
                ref_point_segment(&p, &p0, &p1),
                ref_point_segment(&q, &q0, &q1)
            );
            let d = (p - q).norm();
            let want = ref_segment_segment(&p0, &p1, &q0, &q1);
            let err = d - want;
            worst = worst.max(err.abs());
            assert!(
                err.abs() <= 4e-15 * (p0.amax() + p1.amax() + q0.amax() + q1.amax()),
                "{p0:?} {p1:?} {q0:?} {q1:?}: {d} vs {want}"
            );
        }
        eprintln!("segment worst abs error {worst:e}");
    }

    fn v(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3::new(x, y, z)
    }

    #[test]
    fn constructed_cases() {
        let a = [v(0., 0., 0.), v(1., 0., 0.), v(0., 1., 0.)];
        // Parallel offset triangles.
        for &h in &[1.0, 0.25, 1e-3, 1e-9, 3.5] {
            let b = [v(0.1, 0.1, h), v(0.6, 0.1, h), v(0.1, 0.6, h)];
            let r = triangle_distance(&a, &b);
            assert_eq!(r.distance, h);
            assert_eq!(r.q.z, h);
            assert_eq!(r.p.z, 0.0);
            check(&a, &b, 1e-14);
            // Rotated copies of the same configuration.
            let b2 = [v(1.0, 1.0, h), v(-0.5, 0.2, h), v(0.2, -0.5, h)];
            assert!((triangle_distance(&a, &b2).distance - h).abs() <= 1e-15);
            check(&a, &b2, 1e-14);
        }
        // Coplanar separated.
        let b = [v(2., 0., 0.), v(3., 0., 0.), v(2., 1., 0.)];
        let r = triangle_distance(&a, &b);
        assert_eq!(r.distance, 1.0);
        assert_eq!((r.p, r.q), (v(1., 0., 0.), v(2., 0., 0.)));
        let b = [v(1., 1., 0.), v(2., 1., 0.), v(1., 2., 0.)];
        assert!((triangle_distance(&a, &b).distance - 0.5f64.sqrt()).abs() < 1e-15);
        // Vertex above the face centre.
        let b = [v(1. / 3., 1. / 3., 2.), v(5., 5., 7.), v(-4., 6., 9.)];
        let r = triangle_distance(&a, &b);
        assert_eq!(r.distance, 2.0);
        assert_eq!(r.q, b[0]);
        assert_eq!(r.p, v(1. / 3., 1. / 3., 0.));
        // Vertex below, face of the second triangle.
        let r = triangle_distance(&b, &a);
        assert_eq!(r.distance, 2.0);
        assert_eq!(r.p, b[0]);
        // Edge over edge (skew).
        let b = [v(0.5, -1.0, 0.5), v(0.5, 0.0, 1.0), v(0.5, -1.0, 3.)];
        let r = triangle_distance(&a, &b);
        assert!((r.distance - 0.8f64.sqrt()).abs() <= 1e-15);
        assert!((r.p - v(0.5, 0.0, 0.0)).norm() <= 1e-15);
        assert!((r.q - v(0.5, -0.4, 0.8)).norm() <= 1e-15);
        // Edge parallel to the face above it: distance 1, attained along a segment.
        let b = [v(0.5, -0.5, 1.), v(0.5, 0.5, 1.), v(0.5, 0.0, 3.)];
        let r = triangle_distance(&a, &b);
        assert_eq!(r.distance, 1.0);
        assert!(r.p.x == 0.5 && r.p.z == 0.0 && (0.0..=0.5).contains(&r.p.y));
        // Crossing triangles: distance 0, p == q on both.
        let b = [v(0.2, 0.2, -1.), v(0.3, 0.2, 1.), v(0.25, 5., 0.)];
        let r = triangle_distance(&a, &b);
        assert_eq!(r.distance, 0.0);
        assert_eq!(r.p, r.q);
        assert!(ref_point_triangle(&r.p, &a) <= 1e-12 && ref_point_triangle(&r.p, &b) <= 1e-12);
        check(&a, &b, 1e-14);
        // Piercing through the interior of the other face only (no vertex inside, no edge pair touching).
        let b = [v(0.2, 0.2, -1.), v(0.2, 0.2, 1.), v(-3., -3., 0.)];
        let r = triangle_distance(&a, &b);
        assert_eq!(r.distance, 0.0);
        assert!(ref_point_triangle(&r.p, &a) <= 1e-12 && ref_point_triangle(&r.p, &b) <= 1e-12);
        // Coplanar overlap: star of David (edges cross, no vertex inside the other).
        let t1 = [v(0., 1., 0.), v(-0.866, -0.5, 0.), v(0.866, -0.5, 0.)];
        let t2 = [v(0., -1., 0.), v(0.866, 0.5, 0.), v(-0.866, 0.5, 0.)];
        let r = triangle_distance(&t1, &t2);
        assert_eq!(r.distance, 0.0);
        assert!(ref_point_triangle(&r.p, &t1) <= 1e-12 && ref_point_triangle(&r.p, &t2) <= 1e-12);
        // Coplanar, one inside the other.
        let t3 = [v(0., 0.2, 0.), v(-0.1, 0., 0.), v(0.1, 0., 0.)];
        let r = triangle_distance(&t1, &t3);
        assert_eq!(r.distance, 0.0);
        assert!(ref_point_triangle(&r.p, &t1) <= 1e-12 && ref_point_triangle(&r.p, &t3) <= 1e-12);
        // Touching: shared vertex, shared edge, vertex on face, vertex on edge.
        let b = [v(1., 0., 0.), v(2., 0., 0.), v(1., 0., 1.)];
        let r = triangle_distance(&a, &b);
        assert_eq!((r.distance, r.p, r.q), (0.0, v(1., 0., 0.), v(1., 0., 0.)));
        let b = [v(1., 0., 0.), v(0., 1., 0.), v(1., 1., 1.)];
        let r = triangle_distance(&a, &b);
        assert_eq!(r.distance, 0.0);
        assert!(ref_point_triangle(&r.p, &a) == 0.0 && ref_point_triangle(&r.p, &b) <= 1e-15);
        let b = [v(0.25, 0.25, 0.), v(1., 1., 1.), v(0., 1., 1.)];
        let r = triangle_distance(&a, &b);
        assert_eq!((r.distance, r.p, r.q), (0.0, b[0], b[0]));
        let b = [v(0.5, 0.5, 0.), v(1., 1., 1.), v(2., 1., 1.)];
        let r = triangle_distance(&a, &b);
        assert_eq!(r.distance, 0.0);
        // Identical triangles.
        let r = triangle_distance(&a, &a);
        assert_eq!(r.distance, 0.0);
        assert!(ref_point_triangle(&r.p, &a) == 0.0);
        let t = [v(0.1, 7.3, -2.), v(3.3, 1.1, 0.7), v(-1.9, 0.4, 2.2)];
        assert_eq!(triangle_distance(&t, &t).distance, 0.0);
        // Degenerate: segment triangles and point triangles.
        let seg = [v(0.2, 0.2, 1.), v(0.2, 0.2, 3.), v(0.2, 0.2, 2.)];
        let r = triangle_distance(&a, &seg);
        assert_eq!((r.distance, r.p, r.q), (1.0, v(0.2, 0.2, 0.), v(0.2, 0.2, 1.)));
        let seg = [v(0.2, 0.2, -1.), v(0.2, 0.2, 3.), v(0.2, 0.2, 3.)];
        let r = triangle_distance(&a, &seg);
        assert_eq!(r.distance, 0.0);
        assert_eq!(r.p, v(0.2, 0.2, 0.));
        let pt = [v(2., 2., 2.); 3];
        let r = triangle_distance(&a, &pt);
        assert!((r.distance - (1.5f64 * 1.5 * 2.0 + 4.0).sqrt()).abs() < 1e-15);
        assert_eq!(r.q, pt[0]);
        let pt2 = [v(0.25, 0.25, 0.); 3];
        let r = triangle_distance(&a, &pt2);
        assert_eq!((r.distance, r.p, r.q), (0.0, pt2[0], pt2[0]));
        let r = triangle_distance(&pt, &pt);
        assert_eq!((r.distance, r.p, r.q), (0.0, pt[0], pt[0]));
        let r = triangle_distance(&pt, &pt2);
        assert_eq!((r.distance, r.p, r.q), ((pt[0] - pt2[0]).norm(), pt[0], pt2[0]));
        let s1 = [v(0., 0., 0.), v(1., 0., 0.), v(1., 0., 0.)];
        let s2 = [v(0.5, -1., 1.), v(0.5, 1., 1.), v(0.5, 0., 1.)];
        let r = triangle_distance(&s1, &s2);
        assert_eq!((r.distance, r.p, r.q), (1.0, v(0.5, 0., 0.), v(0.5, 0., 1.)));
        let s2 = [v(0.5, -1., 0.), v(0.5, 1., 0.), v(0.5, 0., 0.)];
        let r = triangle_distance(&s1, &s2);
        assert_eq!((r.distance, r.p, r.q), (0.0, v(0.5, 0., 0.), v(0.5, 0., 0.)));
    }

    #[test]
    fn non_finite_input_does_not_panic() {
        let a = [v(0., 0., 0.), v(1., 0., 0.), v(0., 1., 0.)];
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let b = [v(bad, 0., 1.), v(1., 1., 1.), v(0., 1., 1.)];
            let _ = triangle_distance(&a, &b);
            let _ = triangle_distance(&b, &a);
            let _ = triangle_distance(&b, &b);
            let _ = segment_closest_points(&b[0], &b[1], &a[0], &a[1]);
        }
    }

    /// Distance from `v` to the plane of `t` in double-double arithmetic (test reference).
    fn dd_plane_distance(t: &Triangle, v: &Vec3) -> f64 {
        type Dd = (f64, f64);
        fn fast(a: f64, b: f64) -> Dd {
            let s = a + b;
            (s, b - (s - a))
        }
        fn add(x: Dd, y: Dd) -> Dd {
            let s = x.0 + y.0;
            let bb = s - x.0;
            let e = (x.0 - (s - bb)) + (y.0 - bb);
            fast(s, e + x.1 + y.1)
        }
        fn mul(x: Dd, y: Dd) -> Dd {
            let p = x.0 * y.0;
            let e = x.0.mul_add(y.0, -p); // exact (software fma if need be)
            fast(p, e + x.0 * y.1 + x.1 * y.0)
        }
        let sub = |x: f64, y: f64| add((x, 0.0), (-y, 0.0));
        let neg = |x: Dd| (-x.0, -x.1);
        let u: Vec<Dd> = (0..3).map(|k| sub(t[1][k], t[0][k])).collect();
        let w: Vec<Dd> = (0..3).map(|k| sub(t[2][k], t[0][k])).collect();
        let n = [
            add(mul(u[1], w[2]), neg(mul(u[2], w[1]))),
            add(mul(u[2], w[0]), neg(mul(u[0], w[2]))),
            add(mul(u[0], w[1]), neg(mul(u[1], w[0]))),
        ];
        let r: Vec<Dd> = (0..3).map(|k| sub(v[k], t[0][k])).collect();
        let h = add(add(mul(n[0], r[0]), mul(n[1], r[1])), mul(n[2], r[2]));
        let nn = add(add(mul(n[0], n[0]), mul(n[1], n[1])), mul(n[2], n[2]));
        (h.0 + h.1).abs() / (nn.0 + nn.1).sqrt()
    }

    #[test]
    fn vertex_over_sliver_faces() {
        // Thin triangles (width down to 1e-8 of their length) in random orientations, a vertex
        // above a point well inside: the distance is the exact height (the rounded edges'
        // cross product alone would tilt the face by ~1e-16/width).
        let mut rng = Rng(0x51_1ce5);
        let mut worst = 0.0f64;
        for it in 0..30_000 {
            let w = 10f64.powi(-2 - (it % 7));
            let r = rng.rotation();
            let o = rng.vec(-1.0, 1.0);
            let apex = v(rng.unit(), w, 0.0);
            let t = [o, r * v(1.0, 0.0, 0.0) + o, r * apex + o];
            let (l1, l2) = (0.2 + 0.3 * rng.unit(), 0.2 + 0.3 * rng.unit());
            let h = 0.01 + 0.5 * rng.unit();
            let top = r * (v(1.0, 0.0, 0.0) * l1 + apex * l2 + v(0.0, 0.0, h)) + o;
            let other = [top, top + r * v(0.1, 0.5, 0.3), top + r * v(-0.1, 0.4, 0.5)];
            let want = dd_plane_distance(&t, &top);
            let (r1, r2) = (triangle_distance(&t, &other), triangle_distance(&other, &t));
            assert_eq!((r1.q, r2.p), (top, top));
            for res in [r1, r2] {
                let err = (res.distance - want).abs();
                worst = worst.max(err);
                assert!(err <= 1e-14, "width {w:e}: {} vs {want}", res.distance);
            }
        }
        eprintln!("sliver faces: worst error {worst:e}");
    }

    /// A random configuration of one of several families.
    fn random_pair(rng: &mut Rng, family: u64) -> (Triangle, Triangle) {
        let mut a = rng.tri(-1.0, 1.0);
        let mut b = rng.tri(-1.0, 1.0);
        match family {
            // Plain random (many intersect).
            0 => {}
            // Separated by a random offset.
            1 => {
                let o = rng.dir() * rng.range(0.0, 3.0);
                for x in &mut b {
                    *x += o;
                }
            }
            // Pushed to near-touching (or slightly overlapping) along the closest direction.
            2 | 3 => {
                let o = rng.dir() * 3.0;
                for x in &mut b {
                    *x += o;
                }
                let r = triangle_distance(&a, &b);
                let dir = r.p - r.q;
                let target = if family == 2 {
                    10f64.powi(-(rng.below(15) as i32))
                } else {
                    -(10f64.powi(-(rng.below(15) as i32)))
                };
                let shift = dir * (1.0 - target.max(-0.5) / r.distance.max(1e-300));
                for x in &mut b {
                    *x += shift;
                }
            }
            // Coplanar (exactly in z = c), sometimes rotated (then only nearly coplanar).
            4 | 5 => {
                let c = rng.range(-1.0, 1.0);
                for x in a.iter_mut().chain(b.iter_mut()) {
                    x.z = c;
                }
                if family == 5 {
                    let r = rng.rotation();
                    for x in a.iter_mut().chain(b.iter_mut()) {
                        *x = r * *x;
                    }
                }
            }
            // Parallel planes with a small offset.
            6 => {
                let h = 10f64.powi(-(rng.below(12) as i32)) * if rng.below(2) == 0 { 1.0 } else { -1.0 };
                for x in &mut a {
                    x.z = 0.0;
                }
                for x in &mut b {
                    x.z = h;
                }
                let r = rng.rotation();
                for x in a.iter_mut().chain(b.iter_mut()) {
                    *x = r * *x;
                }
            }
            // Degenerate triangles: collinear or coincident points.
            7 => {
                let which = rng.below(4);
                let t = if rng.below(2) == 0 { &mut a } else { &mut b };
                match which {
                    0 => t[2] = t[0] + (t[1] - t[0]) * rng.range(-1.0, 2.0),
                    1 => t[1] = t[0],
                    2 => {
                        t[1] = t[0];
                        t[2] = t[0];
                    }
                    _ => {
                        t[2] = t[1];
                    }
                }
                if rng.below(3) == 0 {
                    b[1] = b[0] + (b[2] - b[0]) * rng.range(-1.0, 2.0);
                }
            }
            // Mesh-like neighbours: shared vertex or shared edge.
            8 => {
                b[0] = a[rng.below(3) as usize];
                if rng.below(2) == 0 {
                    b[1] = a[(rng.below(3)) as usize];
                }
                b.swap(0, rng.below(3) as usize);
            }
            // Far from the origin and at very different sizes.
            9 => {
                let off = rng.vec(-1.0, 1.0) * 1e3;
                let s = 10f64.powi(rng.below(7) as i32 - 3);
                for x in &mut a {
                    *x += off;
                }
                for x in &mut b {
                    *x = *x * s + off + rng.dir() * rng.range(0.0, 2.0);
                }
            }
            // A vertex hovering just above or on the other face / edge.
            _ => {
                let l = [rng.unit(), rng.unit(), rng.unit()];
                let sum = l[0] + l[1] + l[2];
                let on = (a[0] * l[0] + a[1] * l[1] + a[2] * l[2]) / sum;
                let n = (a[1] - a[0]).cross(&(a[2] - a[0])).normalize();
                let h = if rng.below(3) == 0 { 0.0 } else { 10f64.powi(-(rng.below(15) as i32)) };
                let k = rng.below(3) as usize;
                b[k] = on + n * h;
                let side = if rng.below(2) == 0 { 1.0 } else { -1.0 };
                for (i, x) in b.iter_mut().enumerate() {
                    if i != k {
                        *x = *x + n * (side * (n.dot(&(*x - on))).abs() + 0.1);
                        if side < 0.0 {
                            *x -= n * 0.2;
                        }
                    }
                }
            }
        }
        (a, b)
    }

    #[test]
    fn random_against_reference() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let families = 11;
        let mut worst = vec![0.0f64; families as usize];
        let mut zero = vec![0usize; families as usize];
        let n = 121_000;
        for it in 0..n {
            let family = it % families;
            let (a, b) = random_pair(&mut rng, family);
            let e = check(&a, &b, 1e-13);
            worst[family as usize] = worst[family as usize].max(e);
            if triangle_distance(&a, &b).distance == 0.0 {
                zero[family as usize] += 1;
            }
        }
        eprintln!("worst relative error per family {worst:?}");
        eprintln!("distance 0 per family {zero:?} of {}", n / families);
    }

    #[test]
    fn random_against_grid_search_and_samples() {
        let mut rng = Rng(0xdead_beef_cafe_f00d);
        let mut worst = 0.0f64;
        for it in 0..2200 {
            let (a, b) = random_pair(&mut rng, it % 11);
            let r = triangle_distance(&a, &b);
            let s = scale(&a, &b);
            let g = grid_distance(&a, &b);
            assert!(r.distance <= g + 1e-13 * s, "{a:?} {b:?}: {} > grid {}", r.distance, g);
            assert!(r.distance.powi(2) >= g * g - 1e-10 * s * s, "{a:?} {b:?}: {} << grid {}", r.distance, g);
            worst = worst.max((g * g - r.distance.powi(2)) / (s * s));
            // No sampled pair of points is closer than the answer.
            for _ in 0..50 {
                let (l, m) = ([rng.unit(), rng.unit(), rng.unit()], [rng.unit(), rng.unit(), rng.unit()]);
                let x = (a[0] * l[0] + a[1] * l[1] + a[2] * l[2]) / (l[0] + l[1] + l[2]);
                let y = (b[0] * m[0] + b[1] * m[1] + b[2] * m[2]) / (m[0] + m[1] + m[2]);
                assert!(r.distance <= (x - y).norm() + 1e-13 * s);
            }
        }
        eprintln!("grid search: worst (grid² − d²)/scale² = {worst:e}");
    }

    #[test]
    fn within_agrees_with_the_full_distance() {
        // `triangle_distance_within` either gives the very same result or refuses a pair that
        // is farther than the cut (up to rounding, relative to the coordinates).
        let mut rng = Rng(0x7e57_c0de_0bad_f00d);
        let mut refused = 0;
        for it in 0..20_000 {
            let (a, b) = random_pair(&mut rng, it % 11);
            let full = triangle_distance(&a, &b);
            let cut = match it % 4 {
                0 => full.distance,
                1 => full.distance * rng.range(0.0, 2.0),
                2 => rng.range(0.0, 3.0),
                _ => f64::INFINITY,
            };
            match triangle_distance_within(&a, &b, cut) {
                Some(r) => assert_eq!(r, full, "{a:?} {b:?} cut {cut}"),
                None => {
                    refused += 1;
                    let slack = 1e-14 * scale(&a, &b);
                    assert!(full.distance > cut - slack, "{a:?} {b:?}: {} refused at {cut}", full.distance);
                }
            }
            // Swapped arguments: the same decision.
            let swapped = triangle_distance_within(&b, &a, cut);
            assert_eq!(swapped.is_none(), triangle_distance_within(&a, &b, cut).is_none());
        }
        assert!(refused > 1000, "{refused}");
    }

    /// The distance scales with the coordinates over the whole range: by powers of two, the
    /// same numbers (tiny pairs are rescaled exactly), and far from the origin and at huge
    /// scales, the same distance to the coordinates' precision.
    #[test]
    fn every_scale_gives_the_same_distance() {
        let mut rng = Rng(0x05ca_1e0f_d157_0006);
        for it in 0..4000 {
            let (a, b) = random_pair(&mut rng, it % 11);
            let d = triangle_distance(&a, &b);
            for k in [-1060, -900, -600, -450, -300, -160, 160, 300, 450, 600, 900] {
                let s = 2f64.powi(k / 2) * 2f64.powi(k - k / 2);
                let (sa, sb) = (a.map(|p| p * s), b.map(|p| p * s));
                let r = triangle_distance(&sa, &sb);
                if k > -1000 && k < 150 {
                    // Scaled exactly (or not at all): the very same numbers, but that a
                    // positive distance stays positive where its scaled value underflows.
                    let want = if d.distance > 0.0 { (d.distance * s).max(NOT_ON) } else { 0.0 };
                    assert_eq!(r.distance, want, "pair {it} at 2^{k}");
                } else if k > 0 {
                    // Translated first: the coordinates' precision.
                    let ulps = 64.0 * f64::EPSILON * s * a.iter().chain(&b).map(|p| p.amax()).fold(0.0, f64::max);
                    assert!((r.distance - d.distance * s).abs() <= ulps, "pair {it} at 2^{k}");
                } else {
                    // Subnormal coordinates: the inputs themselves lost digits.
                    assert!((r.distance - d.distance * s).abs() <= 1e-3 * (d.distance * s) + 1e-300);
                }
                // (Measured scaled back: the squares of the points' offsets would not fit.)
                let apart = ((r.p - r.q) / s).norm();
                let slack =
                    1e-9 * d.distance + 64.0 * f64::EPSILON * a.iter().chain(&b).map(|p| p.amax()).fold(0.0, f64::max);
                assert!(
                    r.distance.is_finite() && apart <= d.distance + slack + 1e-300 / s.min(1.0),
                    "pair {it} at 2^{k}"
                );
            }
            // Far from the origin at a huge scale: translated, then rescaled.
            let far = Vec3::new(3.0, -2.0, 1.0) * 2f64.powi(990);
            let s = 2f64.powi(900);
            let (fa, fb) = (a.map(|p| p * s + far), b.map(|p| p * s + far));
            let r = triangle_distance(&fa, &fb);
            let ulps = 64.0 * f64::EPSILON * far.amax();
            assert!((r.distance - d.distance * s).abs() <= ulps, "pair {it} far: {} vs {}", r.distance, d.distance * s);
        }
    }

    /// A triangle tiny against the other's size and coordinates (down to 2^-1000 of them):
    /// the distance from its vertices to the other, to its own size and the coordinates'
    /// precision, and never refused at a cut above that (its normal's square would underflow
    /// unscaled).
    #[test]
    fn tiny_against_huge_gives_the_point_distance() {
        let mut rng = Rng(0x71e7_0b16_d157_0008);
        for it in 0..20_000 {
            let (big, small) = if it % 4 < 2 {
                // Where the tiny triangle's squared normal underflows but its heights over
                // its plane, across the other's distance, do not (|n|² ≈ small⁴, h² ≈
                // small⁴·big²).
                let e = 20 + rng.below(80) as i32;
                let lo = (-1074 - 2 * e) / 4;
                (2f64.powi(e), 2f64.powi(lo + rng.below((-269 - lo) as u64 + 1) as i32))
            } else {
                let big = 2f64.powi(rng.below(200) as i32 - 100);
                (big, big * 2f64.powi(-(30 + rng.below(970) as i32)))
            };
            let b = [rng.vec(-1.0, 1.0) * big, rng.vec(-1.0, 1.0) * big, rng.vec(-1.0, 1.0) * big];
            let p = match it % 3 {
                // (Near the origin, the tiny triangle keeps its shape.)
                0 => rng.vec(-1.0, 1.0) * small * 2f64.powi(rng.below(40) as i32),
                1 => b[0] * rng.unit(),
                _ => rng.vec(-2.0, 2.0) * big,
            };
            let a = [p, p + rng.vec(-1.0, 1.0) * small, p + rng.vec(-1.0, 1.0) * small];
            let (a, b) = if it % 2 == 0 { (a, b) } else { (b, a) };
            let reference = ref_point_triangle(&p, if it % 2 == 0 { &b } else { &a });
            let slack = 4.0 * small + 1e-13 * big;
            let r = triangle_distance(&a, &b);
            assert!((r.distance - reference).abs() <= slack, "pair {it}: {} vs {reference} ({a:?} {b:?})", r.distance);
            assert!(triangle_distance_within(&a, &b, reference + slack).is_some(), "pair {it} refused ({a:?} {b:?})");
        }
    }

    /// Pairs far from the origin compared with their size (computed in place, not translated):
    /// the distance of the same pair moved back to the origin (exactly: the coordinates are
    /// near the offset) to the coordinates' precision, however thin the triangles. Slivers
    /// past the end of a sliver, within a rounding unit of its edges' lines, are not a touch.
    #[test]
    fn far_from_the_origin_gives_the_same_distance() {
        let mut rng = Rng(0xfa4_0f0f_d157_0007);
        for it in 0..22_000 {
            let (a, b, far) = if it % 2 == 0 {
                let (a, b) = random_pair(&mut rng, it % 11);
                let size = a.iter().chain(&b).map(|p| p.amax()).fold(0.0, f64::max);
                (a, b, rng.dir() * size * 2f64.powi(10 + rng.below(120) as i32))
            } else {
                // A needle (three nearly collinear vertices) and a segment-like sliver across
                // its line, a distance `d` past its end; far enough out that `d` is 2 to 50
                // rounding tolerances of the coordinates.
                let (u, l) = (rng.dir(), rng.range(0.5, 2.0));
                let v = u.cross(&rng.dir()).normalize();
                let b = [Vec3::zeros(), u * l, u * (l * rng.unit()) + v * (l * 1e-7 * rng.unit())];
                let d = l * rng.range(0.01, 1.0);
                let p = u * (l + d) + v * (d * 1e-6 * rng.range(-1.0, 1.0));
                // (Across the line: the certificates' dot products are then rounding-level.)
                let w = u.cross(&v);
                let a = [
                    p + w * (d * rng.range(0.1, 0.5)),
                    p - w * (d * rng.range(0.1, 0.5)),
                    p + w * (d * rng.range(-0.1, 0.1)),
                ];
                let tolerance_per_unit = 16.0 * f64::EPSILON * 6f64.sqrt();
                (a, b, rng.dir() * (d / tolerance_per_unit / rng.range(2.0, 50.0)))
            };
            let size = a.iter().chain(&b).map(|p| p.amax()).fold(0.0, f64::max);
            let (fa, fb) = (a.map(|p| p + far), b.map(|p| p + far));
            // (Nearly exact: the coordinates are near the offset's, or small.)
            let (ba, bb) = (fa.map(|p| p - far), fb.map(|p| p - far));
            let r = triangle_distance(&fa, &fb);
            let reference = triangle_distance(&ba, &bb).distance;
            let ulps = 64.0 * f64::EPSILON * (far.amax() + size);
            assert!((r.distance - reference).abs() <= ulps, "pair {it}: {} vs {reference} at {far:?}", r.distance);
        }
    }

    // ---------- point–triangle ----------

    /// Random triangles of several kinds (ordinary, slivers, segments, points) and points
    /// around them: the distance agrees with the reference (nearest of the edges and the foot
    /// of the perpendicular), the closest point is on the triangle and at that distance.
    #[test]
    fn point_triangle_against_reference() {
        let mut rng = Rng(0x9017_7a1e_0001);
        for it in 0..20_000 {
            let t = match it % 5 {
                0 | 1 => rng.tri(-1.0, 1.0),
                2 => {
                    let (a, b) = (rng.vec(-1.0, 1.0), rng.vec(-1.0, 1.0));
                    [a, b, a + (b - a) * rng.range(-0.5, 1.5) + rng.vec(-1e-9, 1e-9)]
                }
                3 => {
                    let (a, b) = (rng.vec(-1.0, 1.0), rng.vec(-1.0, 1.0));
                    [a, b, if it % 2 == 0 { a } else { a + (b - a) * rng.unit() }]
                }
                _ => [rng.vec(-1.0, 1.0); 3],
            };
            let p = if it % 3 == 0 { t[0] * rng.unit() + t[1] * 0.3 + rng.vec(-0.1, 0.1) } else { rng.vec(-2.0, 2.0) };
            let r = point_triangle_distance(&p, &t);
            let reference = ref_point_triangle(&p, &t);
            assert!((r.distance - reference).abs() <= 1e-12, "{it}: {} vs {reference}", r.distance);
            assert!(((p - r.point).norm() - r.distance).abs() <= 1e-12);
            assert!(ref_point_triangle(&r.point, &t) <= 1e-12, "{it}: the closest point is off the triangle");
        }
    }

    /// A triangle of small integers, scaled by `2^s` and moved by `offset` (integers too, so
    /// that every coordinate is exact).
    fn exact_triangle(
        rng: &mut Rng,
        s: i32,
        offset: [i64; 3],
    ) -> ([[i64; 3]; 3], impl Fn([i64; 3], i64) -> Vec3 + use<>) {
        // (Large integers half the time, so that the floating-point computation rounds.)
        let r = if rng.below(2) == 0 { 1 << 6 } else { 1 << 26 };
        let c = |rng: &mut Rng| std::array::from_fn(|_| rng.below(r) as i64 - r as i64 / 2);
        let t = [c(rng), c(rng), c(rng)];
        // A point `x / den` (den a power of two up to 256) of the integer lattice, placed.
        let place = move |x: [i64; 3], den: i64| {
            Vec3::from(std::array::from_fn(|k| (x[k] + offset[k] * den) as f64 / den as f64 * 2f64.powi(s)))
        };
        (t, place)
    }

    /// Points exactly on triangles (vertices, edges, faces, degenerate triangles included) get
    /// distance exactly 0, themselves as closest point; the same points one lattice step off
    /// the plane (or off the segment) never get 0. At scales from 2^-1000 to 2^950, near the
    /// origin and far from it.
    #[test]
    fn point_on_triangle_is_exact() {
        let mut rng = Rng(0x9017_7a1e_0002);
        let (mut on, mut off) = (0, 0);
        for it in 0..6000 {
            let s = [-1000, -300, -60, 0, 40, 300, 950][it % 7];
            let far = if it % 2 == 0 { 1i64 << 20 } else { 0 };
            let offset = [far * (rng.below(3) as i64 - 1), far, -far];
            let (mut t, place) = exact_triangle(&mut rng, s, offset);
            if it % 4 == 3 {
                t[2] = if it % 8 == 3 { t[0] } else { std::array::from_fn(|k| 2 * t[1][k] - t[0][k]) };
            }
            // Dyadic barycentric weights summing to 256: a point of the closed triangle.
            let w0 = rng.below(257) as i64;
            let w1 = rng.below(257 - w0 as u64) as i64;
            let w = match it % 3 {
                0 => [w0, w1, 256 - w0 - w1],
                1 => [w0, 256 - w0, 0],
                _ => [256, 0, 0],
            };
            let x: [i64; 3] = std::array::from_fn(|k| w[0] * t[0][k] + w[1] * t[1][k] + w[2] * t[2][k]);
            let tri = t.map(|v| place(v, 1));
            let r = point_triangle_distance(&place(x, 256), &tri);
            assert_eq!(r.distance, 0.0, "{it}: on the triangle");
            assert_eq!(r.point, place(x, 256));
            on += 1;
            // One lattice step along an axis the plane is not parallel to (for a segment or
            // point, any axis not along it) is off the triangle.
            let d = |a: [i64; 3], b: [i64; 3]| -> [i64; 3] { std::array::from_fn(|k| b[k] - a[k]) };
            let (u, v) = (d(t[0], t[1]), d(t[0], t[2]));
            let n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
            let dir = (0..3).find(|&k| {
                if n != [0; 3] {
                    n[k] != 0
                } else {
                    u[(k + 1) % 3] != 0 || u[(k + 2) % 3] != 0 || u == [0; 3] && v == [0; 3]
                }
            });
            if let Some(k) = dir {
                let mut y = x;
                y[k] += 1;
                let r = point_triangle_distance(&place(y, 256), &tri);
                assert!(r.distance > 0.0, "{it}: off the triangle");
                off += 1;
            }
        }
        assert!(on == 6000 && off > 4000, "{on} on, {off} off");
        // The vertices of random triangles, and points on an axis-parallel edge of a tilted
        // triangle: on it; moved by one ulp across its plane: off it.
        for it in 0..4000 {
            let mut t = rng.tri(-1.0, 1.0).map(|v| v * 2f64.powi(rng.below(200) as i32 - 100));
            t[1].y = t[0].y;
            t[1].z = t[0].z;
            let x = t[0].x + (t[1].x - t[0].x) * rng.unit();
            for p in [t[0], t[1], t[2], Vec3::new(x, t[0].y, t[0].z)] {
                let r = point_triangle_distance(&p, &t);
                assert_eq!((r.distance, r.point), (0.0, p), "{it}");
                let up = if p.z == 0.0 { 5e-324 } else { f64::from_bits(p.z.to_bits() + 1) };
                let q = Vec3::new(p.x, p.y, up);
                assert!(point_triangle_distance(&q, &t).distance > 0.0, "{it}");
            }
        }
    }

    /// Points and triangles anywhere in the finite range: the distance is the one computed
    /// near the origin at scale 1, scaled (powers of two), and never NaN or infinite.
    #[test]
    fn point_triangle_at_every_scale() {
        let mut rng = Rng(0x9017_7a1e_0003);
        for it in 0..4000 {
            let t = rng.tri(-1.0, 1.0);
            let p = rng.vec(-3.0, 3.0);
            let base = point_triangle_distance(&p, &t);
            let s = 2f64.powi(rng.below(2040) as i32 - 1070 + 50);
            let r = point_triangle_distance(&(p * s), &t.map(|v| v * s));
            assert!(r.distance.is_finite() && r.point.iter().all(|v| v.is_finite()));
            let expected = base.distance * s;
            assert!((r.distance - expected).abs() <= 1e-12 * s.max(1e-300) * 4.0, "{it}: {} vs {expected}", r.distance);
        }
    }
}
