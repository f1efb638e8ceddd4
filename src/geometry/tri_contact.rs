//! Contact geometry of two intersecting triangles: the set they share, as a point, a segment
//! or (coplanar pairs) a convex polygon of up to six corners, with both unit normals.
//!
//! Every decision (which case, which corner is where, whether two corners coincide) is a sign
//! of an exact predicate (`orient3d`/`orient2d` of [`super::predicates`]) on the triangles as
//! given, the same predicates [`super::tri_intersect::triangles_intersect`] decides with, so the
//! answer is never empty when that test says the triangles meet (and `None` when it says they
//! do not). Only the coordinates of corners that are not input vertices are rounded:
//!
//! * a vertex of one triangle that lies in the other (exactly) is reported as is;
//! * an edge crossing the other triangle's plane is reported as `lo + t (hi − lo)`, with
//!   `lo`, `hi` the edge's endpoints in lexicographic order and `t` from the endpoints'
//!   signed volumes against the plane of the other triangle *in its stored vertex order*.
//!   The inputs of that computation are canonical, so the two triangle pairs that share such a
//!   crossing (the edge's two faces against one face) produce bitwise-identical points, which
//!   is what lets [`crate::query::contact`] chain segments into curves exactly;
//! * an edge crossing another edge (in 3-D where the curves pass exactly through an edge of
//!   each mesh, in coplanar pairs, with zero-area triangles) is computed likewise from the 2-D
//!   orientations in an injective coordinate projection, from canonical inputs too: both edges
//!   in lexicographic order and the pair ordered, so all four face pairs around such a point
//!   agree bitwise. (A zero-area triangle crossing a face is computed against that face's
//!   plane; where it also crosses an edge of that face exactly, its neighbours may differ.)
//!
//! Each computed corner carries a certified bound on its distance to the exact corner (the
//! same corner of the exact intersection of these very doubles): the first-stage error bound
//! of the orientation (Shewchuk's, as in the filter of `triangles_intersect`) propagated
//! through the crossing parameter, plus the rounding of `lo + t (hi − lo)`. It grows as the
//! edge turns parallel to the plane it crosses (it is capped at the edge's length).
//! [`TriContact::error_bound`] is the largest over the corners; zero when all are vertices.

use super::predicates::{collinear, log2_floor, orient2d_sign, project, projection_axis, times_pow2, volume_sign};
use super::tri_intersect::{collinear_extent, lone_vertex, segments_meet, segments_meet_2d, triangles_intersect};
use crate::math::{Placement, Triangle, Vec3};

/// The most corners a contact has (two triangles overlap in at most a hexagon).
pub const MAX_CONTACT_POINTS: usize = 6;

/// [`TriContact::flags`]: the first triangle has zero area (or a normal that underflows), so
/// `normal1` is the zero vector.
pub const NORMAL1_DEGENERATE: u8 = 1;
/// The second triangle has zero area (or a normal that underflows): `normal2` is zero.
pub const NORMAL2_DEGENERATE: u8 = 2;
/// The triangles lie in one plane (both have area): the points are a convex polygon (or its
/// degenerate cases, a segment or a point).
pub const COPLANAR: u8 = 4;
/// The triangles cross: each has corners strictly on both sides of the other's plane and they
/// share a segment of positive length, whose inner points are inner points of both (decided
/// exactly). Where two closed surfaces have such a pair, their solids overlap; where they
/// only touch (along an edge, at a vertex, face on face) no pair has it.
pub const CROSSING: u8 = 8;

/// The intersection of two closed triangles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TriContact {
    /// The first `len` entries: 1 a point, 2 a segment's endpoints, 3 to 6 a convex polygon's
    /// corners in order around it (coplanar pairs only). The rest are zero.
    pub points: [Vec3; MAX_CONTACT_POINTS],
    /// How many entries of `points` are used (1 to 6).
    pub len: u8,
    /// Unit normal of the first triangle, `(v1 − v0) × (v2 − v0)` normalised; the zero vector
    /// when it is degenerate (never NaN; see [`NORMAL1_DEGENERATE`]).
    pub normal1: Vec3,
    /// Likewise for the second triangle.
    pub normal2: Vec3,
    /// [`NORMAL1_DEGENERATE`], [`NORMAL2_DEGENERATE`], [`COPLANAR`], [`CROSSING`].
    pub flags: u8,
    /// Every point lies within this distance of the corresponding corner of the exact
    /// intersection (see the module notes).
    pub error_bound: f64,
}

impl TriContact {
    /// The points (1: a point, 2: a segment, 3..=6: a polygon).
    pub fn points(&self) -> &[Vec3] {
        &self.points[..self.len as usize]
    }

    /// The contact seen through `placement` (the frame the triangles were given in mapped to
    /// world): points placed, normals rotated, the bound scaled and widened by the rounding of
    /// the placement (at most `4ε (scale |R|∞ |x|∞ + |t|∞)` per coordinate, covered with room).
    pub fn placed(&self, placement: &Placement) -> TriContact {
        let mut out = *self;
        let r = &placement.rotation;
        let norm = (0..3).map(|k| r.row(k).abs().sum()).fold(0.0, f64::max);
        let mut extra = 0.0f64;
        for k in 0..self.len as usize {
            let x = &self.points[k];
            out.points[k] = placement.apply(x);
            extra = extra.max(placement.scale * norm * x.amax() + placement.translation.amax());
        }
        let unit = |n: Vec3| if n == Vec3::zeros() { n } else { unit_or_zero(r * n) };
        out.normal1 = unit(self.normal1);
        out.normal2 = unit(self.normal2);
        out.error_bound = self.error_bound * placement.scale * norm * (1.0 + 1e-12) + 8.0 * f64::EPSILON * extra + TINY;
        out
    }

    /// The same contact with the triangles' roles exchanged.
    pub fn swapped(&self) -> TriContact {
        let mut out = *self;
        out.normal1 = self.normal2;
        out.normal2 = self.normal1;
        out.flags = (self.flags & (COPLANAR | CROSSING))
            | if self.flags & NORMAL1_DEGENERATE != 0 { NORMAL2_DEGENERATE } else { 0 }
            | if self.flags & NORMAL2_DEGENERATE != 0 { NORMAL1_DEGENERATE } else { 0 };
        out
    }
}

/// Absolute slack for gradual underflow (far more than the few `2^-1074` it can cost).
const TINY: f64 = 1e-300;

/// Shewchuk's first-stage bounds, rounded up (as in `tri_intersect`): `orient3d` and `orient2d`.
const O3D_ERR: f64 = 4.0 * f64::EPSILON;
const O2D_ERR: f64 = 2.0 * f64::EPSILON;

/// A corner and the bound on its distance to the exact corner.
#[derive(Clone, Copy, Debug)]
struct Corner {
    p: Vec3,
    err: f64,
}

impl Corner {
    fn exact(p: &Vec3) -> Corner {
        Corner { p: *p, err: 0.0 }
    }
}

/// The intersection of the closed triangles `a` and `b` (degenerate ones are their segment or
/// point), or `None` exactly when [`triangles_intersect`] says they do not meet.
pub fn triangle_contact(a: &Triangle, b: &Triangle) -> Option<TriContact> {
    if !triangles_intersect(a, b) {
        return None;
    }
    let (na, nb) = (unit_normal(a), unit_normal(b));
    let mut flags =
        if na.is_none() { NORMAL1_DEGENERATE } else { 0 } | if nb.is_none() { NORMAL2_DEGENERATE } else { 0 };
    let (da, db) = (collinear(&a[0], &a[1], &a[2]), collinear(&b[0], &b[1], &b[2]));
    let corners = match (da, db) {
        (false, false) => {
            let sa = a.map(|p| volume_sign(&b[0], &b[1], &b[2], &p));
            let sb = b.map(|p| volume_sign(&a[0], &a[1], &a[2], &p));
            if sa == [0; 3] {
                flags |= COPLANAR;
                coplanar_polygon(a, b)
            } else {
                let segment = crossing_segment(a, b, sa, sb);
                let straddles = |s: [i8; 3]| s.contains(&1) && s.contains(&-1);
                if segment.len() == 2 && straddles(sa) && straddles(sb) {
                    flags |= CROSSING;
                }
                segment
            }
        }
        (true, false) => {
            let (p, q) = collinear_extent(a);
            segment_triangle(p, q, b)
        }
        (false, true) => {
            let (p, q) = collinear_extent(b);
            segment_triangle(p, q, a)
        }
        (true, true) => {
            let (p, q) = collinear_extent(a);
            let (u, v) = collinear_extent(b);
            segment_segment(p, q, u, v)
        }
    };
    debug_assert!(!corners.is_empty() && corners.len() <= MAX_CONTACT_POINTS, "{a:?} {b:?} {corners:?}");
    let mut out = TriContact {
        points: [Vec3::zeros(); MAX_CONTACT_POINTS],
        len: 0,
        normal1: na.unwrap_or_else(Vec3::zeros),
        normal2: nb.unwrap_or_else(Vec3::zeros),
        flags,
        error_bound: 0.0,
    };
    for c in corners.iter().take(MAX_CONTACT_POINTS) {
        out.points[out.len as usize] = c.p;
        out.len += 1;
        out.error_bound = out.error_bound.max(c.err);
    }
    Some(out)
}

/// The unit normal `(t1 − t0) × (t2 − t0)` normalised, `None` when the three points are
/// collinear (exactly) or the normal underflows even after scaling the edges to unit size.
pub fn unit_normal(t: &Triangle) -> Option<Vec3> {
    if collinear(&t[0], &t[1], &t[2]) {
        return None;
    }
    let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
    let k = -log2_floor(e1.amax().max(e2.amax()));
    let (e1, e2) = (e1.map(|x| times_pow2(x, k)), e2.map(|x| times_pow2(x, k)));
    let n = unit_or_zero(e1.cross(&e2));
    (n != Vec3::zeros()).then_some(n)
}

/// `v / |v|`, or zero when `v` is zero or its norm is not a positive finite number.
pub(crate) fn unit_or_zero(v: Vec3) -> Vec3 {
    let k = if v.amax() > 0.0 { -log2_floor(v.amax()) } else { 0 };
    let v = v.map(|x| times_pow2(x, k));
    let n = v.norm();
    if n > 0.0 && n.is_finite() { v / n } else { Vec3::zeros() }
}

/// `u`, `v` in lexicographic order of their coordinates: the canonical order of an edge.
fn ordered<'a>(u: &'a Vec3, v: &'a Vec3) -> (&'a Vec3, &'a Vec3) {
    let key = |p: &Vec3| [p.x, p.y, p.z];
    let (ku, kv) = (key(u), key(v));
    let less =
        ku.iter().zip(kv.iter()).map(|(x, y)| x.total_cmp(y)).find(|o| o.is_ne()) == Some(std::cmp::Ordering::Less);
    if less { (u, v) } else { (v, u) }
}

/// Exponent that scales the largest magnitude among `vs` to `[1, 2)` (0 when all are zero).
fn unit_scale(vs: &[f64]) -> i32 {
    let m = vs.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if m > 0.0 { -log2_floor(m) } else { 0 }
}

/// The point `lo + t (hi − lo)` for a crossing parameter `t = dl / (dl − dh)` from two signed
/// values of exactly opposite signs with error bounds `el`, `eh`, and its error bound.
fn interpolate(lo: &Vec3, hi: &Vec3, dl: f64, el: f64, dh: f64, eh: f64) -> Corner {
    let den = dl - dh;
    let t = dl / den;
    let t = if t.is_nan() { 0.5 } else { t.clamp(0.0, 1.0) };
    // |t − t*| ≤ (el + eh) / (S − el − eh), S the exact |dl − dh| ≥ |den| (1 − ε).
    let spare = den.abs() * (1.0 - f64::EPSILON) - (el + eh) * (1.0 + f64::EPSILON);
    let dt =
        if spare > 0.0 { ((el + eh) / spare * (1.0 + 4.0 * f64::EPSILON) + 2.0 * f64::EPSILON).min(1.0) } else { 1.0 };
    let d = hi - lo;
    let p = lo + d * t;
    // Per coordinate: dt |d| for the parameter, 3u |d| + u |p| for the three roundings.
    let err = Vec3::from_fn(|k, _| {
        dt * d[k].abs() * (1.0 + f64::EPSILON) + 2.0 * f64::EPSILON * d[k].abs() + f64::EPSILON * p[k].abs()
    });
    // The norm of the per-coordinate errors, scaled first: squaring them directly overflows
    // past about 1e154, within the supported range (2^1000).
    Corner { p, err: crate::math::length(&err) * (1.0 + 1e-12) + TINY }
}

/// Where the edge `uv` crosses the plane of `t` (its endpoints strictly on opposite sides),
/// from canonical inputs: the edge in lexicographic order, `t` in its stored order.
fn edge_plane(u: &Vec3, v: &Vec3, t: &Triangle) -> Corner {
    let (lo, hi) = ordered(u, v);
    let (e1, e2, wl, wh) = (t[1] - t[0], t[2] - t[0], lo - t[0], hi - t[0]);
    // A power of two keeps the products in range at any scale (exact unless it underflows,
    // which the absolute terms cover).
    let k = unit_scale(&[e1.amax(), e2.amax(), wl.amax(), wh.amax()]);
    let s = |w: Vec3| w.map(|x| times_pow2(x, k));
    let (e1, e2, wl, wh) = (s(e1), s(e2), s(wl), s(wh));
    // The operations of `tri_intersect`'s filter, whose error bound is Shewchuk's.
    let (yz, zy) = (e1.y * e2.z, e1.z * e2.y);
    let (zx, xz) = (e1.z * e2.x, e1.x * e2.z);
    let (xy, yx) = (e1.x * e2.y, e1.y * e2.x);
    let n = [yz - zy, zx - xz, xy - yx];
    let m = [yz.abs() + zy.abs(), zx.abs() + xz.abs(), xy.abs() + yx.abs()];
    let side = |w: &Vec3| {
        let d = w.x * n[0] + w.y * n[1] + w.z * n[2];
        let permanent = w.x.abs() * m[0] + w.y.abs() * m[1] + w.z.abs() * m[2];
        (d, O3D_ERR * permanent + f64::MIN_POSITIVE * (w.x.abs() + w.y.abs() + w.z.abs() + 2.0))
    };
    let ((dl, el), (dh, eh)) = (side(&wl), side(&wh));
    interpolate(lo, hi, dl, el, dh, eh)
}

/// Where the segment `pq` crosses the segment `uv` at a point inside both (a proper crossing
/// in the projection along `axis`, which is injective on a plane holding both), from
/// canonical inputs: both segments in lexicographic order.
fn edge_edge(p: &Vec3, q: &Vec3, u: &Vec3, v: &Vec3, axis: usize) -> Corner {
    let (lo, hi) = ordered(p, q);
    let (u, v) = ordered(u, v);
    let (l2, h2, u2, v2) = (project(lo, axis), project(hi, axis), project(u, axis), project(v, axis));
    let diffs = |x: [f64; 2]| [u2[0] - x[0], u2[1] - x[1], v2[0] - x[0], v2[1] - x[1]];
    let (dl, dh) = (diffs(l2), diffs(h2));
    let k = unit_scale(&[dl[0], dl[1], dl[2], dl[3], dh[0], dh[1], dh[2], dh[3]]);
    // orient2d(u, v, x) = (u − x) × (v − x), Shewchuk's first stage.
    let side = |d: [f64; 4]| {
        let d = d.map(|x| times_pow2(x, k));
        let (left, right) = (d[0] * d[3], d[1] * d[2]);
        (left - right, O2D_ERR * (left.abs() + right.abs()) + f64::MIN_POSITIVE)
    };
    let ((ol, el), (oh, eh)) = (side(dl), side(dh));
    interpolate(lo, hi, ol, el, oh, eh)
}

/// The corner where edge `p0 pm` meets the other triangle's plane (sides `s0`, `sm` of its
/// endpoints): an endpoint lying in the plane is the corner itself.
fn edge_corner(p0: &Vec3, s0: i8, pm: &Vec3, sm: i8, plane: &Triangle) -> Corner {
    if s0 == 0 {
        Corner::exact(p0)
    } else if sm == 0 {
        Corner::exact(pm)
    } else {
        edge_plane(p0, pm, plane)
    }
}

/// Both triangles have area, neither lies in the other's plane, and they meet: the planes'
/// common line `L` holds `a ∩ L = [X1, X2]` and `b ∩ L = [Y2, Y1]` (in `L`'s order, after the
/// relabelling of `triangles_intersect`), and the contact is `[max(X1, Y2), min(X2, Y1)]`.
/// `volume_sign(p0, pi, q0, qj)` orders `Xi` against `Yj` along `L` (zero iff they coincide).
fn crossing_segment(a: &Triangle, b: &Triangle, sa: [i8; 3], sb: [i8; 3]) -> Vec<Corner> {
    let (i, dir_a) = lone_vertex(sa);
    let (j, dir_b) = lone_vertex(sb);
    let mut pi = [i, (i + 1) % 3, (i + 2) % 3];
    let mut qi = [j, (j + 1) % 3, (j + 2) % 3];
    if dir_a < 0 {
        qi.swap(1, 2);
    }
    if dir_b < 0 {
        pi.swap(1, 2);
    }
    let (p, ps) = (pi.map(|k| a[k]), pi.map(|k| sa[k]));
    let (q, qs) = (qi.map(|k| b[k]), qi.map(|k| sb[k]));
    let order = |m: usize, n: usize| volume_sign(&p[0], &p[m], &q[0], &q[n]);
    // A label: (true, m) is Xm, (false, m) is Ym.
    type Label = (bool, usize);
    let is_vertex = |(x, m): Label| if x { ps[0] == 0 || ps[m] == 0 } else { qs[0] == 0 || qs[m] == 0 };
    let same = |(x1, m): Label, (x2, n): Label| match (x1, x2) {
        (true, true) => m == n || ps[0] == 0,
        (false, false) => m == n || qs[0] == 0,
        (true, false) => order(m, n) == 0,
        (false, true) => order(n, m) == 0,
    };
    let edge = |(x, m): Label| if x { (&p[0], &p[m]) } else { (&q[0], &q[m]) };
    let corner = |(x, m): Label| {
        let (e0, s0, e1, s1, t, other, other_sides) =
            if x { (&p[0], ps[0], &p[m], ps[m], b, &q, qs) } else { (&q[0], qs[0], &q[m], qs[m], a, &p, ps) };
        // An edge crossing the other face where an edge of that face lies in this one's plane
        // (so on the planes' common line): the crossing is on that edge, computed from both
        // edges canonically as at any edge-edge crossing.
        if s0 != 0 && s1 != 0 && other_sides[1] == 0 && other_sides[2] == 0 {
            let (u, v) = (&other[1], &other[2]);
            if segments_meet(e0, e1, u, v) {
                return if segments_meet(u, u, e0, e1) {
                    Corner::exact(u)
                } else if segments_meet(v, v, e0, e1) {
                    Corner::exact(v)
                } else {
                    crossing_edges(e0, e1, u, v)
                };
            }
        }
        edge_corner(e0, s0, e1, s1, t)
    };
    // The corner at a label, given the label of the other triangle found coincident with it:
    // a vertex if either is one; else the two edges cross there, and the point is computed
    // from both edges canonically (the same for all four pairs of their faces).
    let coincident_corner = |l: Label, other: Option<Label>| match other {
        Some(o) if !is_vertex(l) && !is_vertex(o) => {
            let ((e0, e1), (f0, f1)) = (edge(l), edge(o));
            crossing_edges(e0, e1, f0, f1)
        }
        Some(o) if !is_vertex(l) => corner(o),
        _ => corner(l),
    };
    // The later of X1, Y2 and the earlier of X2, Y1 (with the coincident one, if any).
    let start = match order(1, 2) {
        1 => ((false, 2), None),
        -1 => ((true, 1), None),
        _ => ((true, 1), Some((false, 2))),
    };
    let end = match order(2, 1) {
        1 => ((true, 2), None),
        -1 => ((false, 1), None),
        _ => ((true, 2), Some((false, 1))),
    };
    if same(start.0, end.0) {
        // One point, which every label found coincident is: a vertex if one is, else the
        // crossing of an edge of each triangle if both have one there.
        let labels: Vec<Label> = [Some(start.0), start.1, Some(end.0), end.1].into_iter().flatten().collect();
        let x = labels.iter().find(|l| l.0).copied();
        let y = labels.iter().find(|l| !l.0).copied();
        let point = match (labels.iter().find(|&&l| is_vertex(l)), x, y) {
            (Some(&v), _, _) => corner(v),
            (None, Some(x), Some(y)) => coincident_corner(x, Some(y)),
            _ => corner(labels[0]),
        };
        vec![point]
    } else {
        vec![coincident_corner(start.0, start.1), coincident_corner(end.0, end.1)]
    }
}

/// Where two edges that cross at a point interior to both (in 3-D, so they are coplanar and
/// not parallel) meet, from canonical inputs: each edge in lexicographic order, the two edges
/// in lexicographic order of those, the projection chosen from them exactly.
fn crossing_edges(p: &Vec3, q: &Vec3, u: &Vec3, v: &Vec3) -> Corner {
    let (e, f) = (ordered(p, q), ordered(u, v));
    let key = |(a, b): (&Vec3, &Vec3)| [a.x, a.y, a.z, b.x, b.y, b.z];
    let first_is_e = key(e).iter().zip(key(f).iter()).map(|(x, y)| x.total_cmp(y)).find(|o| o.is_ne())
        != Some(std::cmp::Ordering::Greater);
    let (e, f) = if first_is_e { (e, f) } else { (f, e) };
    // f's endpoints are off e's line (they cross properly), so e and either spans the plane.
    let axis = projection_axis(e.0, e.1, f.0).or_else(|| projection_axis(e.0, e.1, f.1)).expect("crossing edges");
    edge_edge(e.0, e.1, f.0, f.1, axis)
}

/// Both have area and share a plane: the convex overlap. Its corners are the vertices of
/// each triangle inside the other (closed) and the proper crossings of their edges, all
/// decided exactly in a projection that is injective on the plane; ordered around the
/// polygon by angle (in floating point; they are its corners, so any order by angle is it).
fn coplanar_polygon(a: &Triangle, b: &Triangle) -> Vec<Corner> {
    let k = projection_axis(&a[0], &a[1], &a[2]).expect("a has area");
    let (pa, pb) = (a.map(|v| project(&v, k)), b.map(|v| project(&v, k)));
    let mut corners = Vec::with_capacity(12);
    for (t, pt, po) in [(a, &pa, &pb), (b, &pb, &pa)] {
        for m in 0..3 {
            if inside_2d(pt[m], po) {
                corners.push(Corner::exact(&t[m]));
            }
        }
    }
    for m in 0..3 {
        for n in 0..3 {
            let (p, q, u, v) = (pa[m], pa[(m + 1) % 3], pb[n], pb[(n + 1) % 3]);
            if proper_crossing_2d(p, q, u, v) {
                corners.push(crossing_edges(&a[m], &a[(m + 1) % 3], &b[n], &b[(n + 1) % 3]));
            }
        }
    }
    dedup(&mut corners);
    if corners.len() >= 3 {
        let c = corners.iter().fold(Vec3::zeros(), |s, c| s + c.p) / corners.len() as f64;
        let c2 = project(&c, k);
        let angle = |x: &Corner| {
            let p = project(&x.p, k);
            (p[1] - c2[1]).atan2(p[0] - c2[0])
        };
        corners.sort_by(|x, y| angle(x).total_cmp(&angle(y)));
    }
    corners
}

/// The segment `pq` (possibly a point) against the triangle `t` with area.
fn segment_triangle(p: &Vec3, q: &Vec3, t: &Triangle) -> Vec<Corner> {
    let sp = volume_sign(&t[0], &t[1], &t[2], p);
    let sq = volume_sign(&t[0], &t[1], &t[2], q);
    if sp != 0 || sq != 0 {
        // One point of the segment is in the plane (the caller's test found it inside t).
        return vec![edge_corner(p, sp, q, sq, t)];
    }
    let k = projection_axis(&t[0], &t[1], &t[2]).expect("t has area");
    let (p2, q2, pt) = (project(p, k), project(q, k), t.map(|v| project(&v, k)));
    let mut corners = Vec::with_capacity(5);
    for (x, x2) in [(p, p2), (q, q2)] {
        if inside_2d(x2, &pt) {
            corners.push(Corner::exact(x));
        }
    }
    for m in 0..3 {
        if segments_meet_2d(pt[m], pt[m], p2, q2) {
            corners.push(Corner::exact(&t[m]));
        }
        if proper_crossing_2d(p2, q2, pt[m], pt[(m + 1) % 3]) {
            corners.push(crossing_edges(p, q, &t[m], &t[(m + 1) % 3]));
        }
    }
    extremes(corners)
}

/// Two zero-area triangles as segments (or points) `pq` and `uv` that meet.
fn segment_segment(p: &Vec3, q: &Vec3, u: &Vec3, v: &Vec3) -> Vec<Corner> {
    let mut corners = Vec::with_capacity(4);
    // Endpoints on the other segment: on every coordinate projection (one is injective on a
    // plane holding both, which exists as they meet).
    let on = |x: &Vec3, s: &Vec3, e: &Vec3| super::tri_intersect::segments_meet(x, x, s, e);
    for (x, s, e) in [(p, u, v), (q, u, v), (u, p, q), (v, p, q)] {
        if on(x, s, e) {
            corners.push(Corner::exact(x));
        }
    }
    if corners.is_empty() {
        // A proper crossing: p, q and u (or v) span the common plane.
        corners.push(crossing_edges(p, q, u, v));
    }
    extremes(corners)
}

/// True iff the 2-D point `x` is in the closed non-degenerate triangle `t`.
fn inside_2d(x: [f64; 2], t: &[[f64; 2]; 3]) -> bool {
    let inner = orient2d_sign(t[0], t[1], t[2]);
    (0..3).all(|m| orient2d_sign(t[m], t[(m + 1) % 3], x) != -inner)
}

/// True iff the 2-D segments cross at one point interior to both.
fn proper_crossing_2d(p: [f64; 2], q: [f64; 2], u: [f64; 2], v: [f64; 2]) -> bool {
    orient2d_sign(p, q, u) * orient2d_sign(p, q, v) < 0 && orient2d_sign(u, v, p) * orient2d_sign(u, v, q) < 0
}

/// Drops corners with bitwise-equal coordinates (the same input vertex found twice).
fn dedup(corners: &mut Vec<Corner>) {
    let mut seen: Vec<[u64; 3]> = Vec::with_capacity(corners.len());
    corners.retain(|c| {
        let key = [c.p.x.to_bits(), c.p.y.to_bits(), c.p.z.to_bits()];
        if seen.contains(&key) {
            false
        } else {
            seen.push(key);
            true
        }
    });
}

/// The two extreme corners of corners on one line (one when all coincide): along the axis of
/// the widest spread.
fn extremes(mut corners: Vec<Corner>) -> Vec<Corner> {
    dedup(&mut corners);
    if corners.len() <= 2 {
        return corners;
    }
    let spread = |k: usize| {
        let (lo, hi) =
            corners.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), c| (lo.min(c.p[k]), hi.max(c.p[k])));
        hi - lo
    };
    let k = (0..3).max_by(|&x, &y| spread(x).total_cmp(&spread(y))).unwrap();
    let lo = *corners.iter().min_by(|x, y| x.p[k].total_cmp(&y.p[k])).unwrap();
    let hi = *corners.iter().max_by(|x, y| x.p[k].total_cmp(&y.p[k])).unwrap();
    vec![lo, hi]
}

#[cfg(test)]
mod tests;
