//! Rectangle swept sphere bounding volumes (Larsen, Gottschalk, Lin, Manocha 2000): the points
//! within a radius of a rectangle. Their distance is a rectangle–rectangle distance minus the two
//! radii, which makes them the distance-query volumes.
//!
//! [`rss_distance`] returns a lower bound that is exact (to rounding) when the rectangles are
//! apart: every candidate closest pair `(P, Q)` of the rectangles (edge–edge, vertex–face) gives
//! the direction `V = Q − P`, and the gap between the projections of the two rectangles onto `V`
//! divided by `|V|` is a lower bound on their distance for *any* `V`, equal to it for the optimal
//! pair. The search stops once that lower bound meets the smallest `|P − Q|` seen (an upper
//! bound), and only the lower bound is ever returned, so rounding in the choice of candidates can
//! only make the answer smaller, never larger than the truth.
//!
//! For speed the candidates are tried cheapest and likeliest first (the gaps along the two
//! normals, each with its vertex–face certificate, then the edge pairs facing each other), the
//! edge-pair closest points are specialised to a's axis-aligned edges, and a caller that only
//! needs values below some threshold ([`rss_distance_placed`]'s `cut`) gets a lower bound as
//! soon as one exceeds it. [`rss_distance_placed`] takes b already placed in a's rectangle frame,
//! so a traversal can compose that placement once per node pair it expands.

use crate::math::{Mat3, Vec3};

/// A rectangle swept sphere: all points within `radius` of the rectangle
/// `corner + u·axes.col(0) + v·axes.col(1)`, `u ∈ [0, lengths[0]]`, `v ∈ [0, lengths[1]]`.
/// `axes` is orthonormal and right-handed; its third column is the rectangle's normal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rss {
    /// Rectangle axes, one per column: the first two span the rectangle, the third is its normal.
    pub axes: Mat3,
    /// The rectangle's corner at `u = v = 0`.
    pub corner: Vec3,
    /// Side lengths along the first and second axes.
    pub lengths: [f64; 2],
    /// Radius of the swept sphere.
    pub radius: f64,
}

/// `max(x − hi, lo − x, 0)`: how far `x` lies outside `[lo, hi]`.
#[inline(always)]
fn outside(x: f64, lo: f64, hi: f64) -> f64 {
    (lo - x).max(x - hi).max(0.0)
}

impl Rss {
    /// The RSS with the given axes containing every point (a degenerate one at the origin when
    /// `points` is empty).
    ///
    /// The radius is half the spread of the points along the normal, with the rectangle's plane
    /// in the middle. A point at height `dz` from that plane only needs the rectangle within
    /// `s = sqrt(r² − dz²)` of its in-plane position, so the x range is first
    /// `[min(x + s), max(x − s)]` (collapsed to its midpoint when empty), the same for y; points
    /// beyond both an x and a y bound are then brought into the rounded corner by growing
    /// whichever of the two bounds needs the smaller growth. A last pass raises the radius to
    /// cover any rounding.
    pub fn fit(axes: &Mat3, points: &[Vec3]) -> Rss {
        Rss::fit_iter(axes, points.iter().copied())
    }

    /// [`Rss::fit`] over points that can be listed more than once (each pass lists them
    /// again and computes their coordinates on the axes anew), so that the build needs no
    /// copy of a node's vertices.
    pub fn fit_iter(axes: &Mat3, points: impl Iterator<Item = Vec3> + Clone) -> Rss {
        let at = axes.transpose();
        let local = points.map(move |p| at * p);
        if local.clone().next().is_none() {
            return Rss { axes: *axes, corner: Vec3::zeros(), lengths: [0.0; 2], radius: 0.0 };
        }
        let (mut zlo, mut zhi) = (f64::INFINITY, f64::NEG_INFINITY);
        for l in local.clone() {
            zlo = zlo.min(l.z);
            zhi = zhi.max(l.z);
        }
        let r = 0.5 * (zhi - zlo);
        let zc = 0.5 * zlo + 0.5 * zhi;
        let r2 = r * r;
        let slack2 = |l: &Vec3| {
            let dz = l.z - zc;
            (r2 - dz * dz).max(0.0)
        };

        let (mut xlo, mut xhi) = (f64::INFINITY, f64::NEG_INFINITY);
        let (mut ylo, mut yhi) = (f64::INFINITY, f64::NEG_INFINITY);
        for l in local.clone() {
            let s = slack2(&l).sqrt();
            xlo = xlo.min(l.x + s);
            xhi = xhi.max(l.x - s);
            ylo = ylo.min(l.y + s);
            yhi = yhi.max(l.y - s);
        }
        if xlo > xhi {
            let m = 0.5 * xlo + 0.5 * xhi;
            (xlo, xhi) = (m, m);
        }
        if ylo > yhi {
            let m = 0.5 * ylo + 0.5 * yhi;
            (ylo, yhi) = (m, m);
        }

        // Corner pass: each fix only grows the rectangle, so earlier points stay covered.
        for l in local.clone() {
            let dx = outside(l.x, xlo, xhi);
            let dy = outside(l.y, ylo, yhi);
            if dx > 0.0 && dy > 0.0 {
                let s2 = slack2(&l);
                if dx * dx + dy * dy > s2 {
                    let gx = dx - (s2 - dy * dy).max(0.0).sqrt();
                    let gy = dy - (s2 - dx * dx).max(0.0).sqrt();
                    if gx <= gy {
                        if l.x < xlo { xlo -= gx } else { xhi += gx }
                    } else if l.y < ylo {
                        ylo -= gy
                    } else {
                        yhi += gy
                    }
                }
            }
        }

        // Cover rounding: the radius reaches every point as the rectangle ended up.
        let mut need2 = r2;
        for l in local.clone() {
            let dx = outside(l.x, xlo, xhi);
            let dy = outside(l.y, ylo, yhi);
            let dz = l.z - zc;
            need2 = need2.max(dx * dx + dy * dy + dz * dz);
        }
        let radius = r.max(need2.sqrt());
        Rss { axes: *axes, corner: axes * Vec3::new(xlo, ylo, zc), lengths: [xhi - xlo, yhi - ylo], radius }
    }

    /// Distance from `p` to the rectangle (not the swept volume).
    pub fn rectangle_point_distance(&self, p: &Vec3) -> f64 {
        let l = self.axes.transpose() * (p - self.corner);
        let dx = outside(l.x, 0.0, self.lengths[0]);
        let dy = outside(l.y, 0.0, self.lengths[1]);
        (dx * dx + dy * dy + l.z * l.z).sqrt()
    }

    /// True when `p` is inside the volume, up to a rounding allowance of `1e-12` relative to the
    /// numbers involved. For tests and validation.
    pub fn contains_point(&self, p: &Vec3) -> bool {
        let tol = 1e-12 * (self.radius + self.lengths[0] + self.lengths[1] + self.corner.amax() + p.amax());
        self.rectangle_point_distance(p) <= self.radius + tol
    }

    /// The volume's size for choosing which of two volumes to split: the rectangle's diagonal
    /// plus the sphere's diameter.
    #[inline]
    pub fn size(&self) -> f64 {
        (self.lengths[0] * self.lengths[0] + self.lengths[1] * self.lengths[1]).sqrt() + 2.0 * self.radius
    }
}

/// A 3×3 matrix as rows: `m[i][j]` is row `i`, column `j`.
pub type Rows3 = [[f64; 3]; 3];

/// Column `i` of a matrix (an axis of a frame).
#[inline(always)]
pub fn axis(m: &Mat3, i: usize) -> [f64; 3] {
    [m[(0, i)], m[(1, i)], m[(2, i)]]
}

/// `x·y`.
#[inline(always)]
pub fn dot3(x: &[f64; 3], y: &[f64; 3]) -> f64 {
    x[0] * y[0] + x[1] * y[1] + x[2] * y[2]
}

/// `max |xᵢ|`.
#[inline(always)]
pub fn amax3(x: &[f64; 3]) -> f64 {
    let (a, b, c) = (x[0].abs(), x[1].abs(), x[2].abs());
    let m = if a > b { a } else { b };
    if m > c { m } else { c }
}

/// A lower bound on the distance between volume `a` and volume `b`, `b` being placed in `a`'s
/// model frame by `x ↦ rot·x + trans` (`rot` a rotation). Exact up to rounding:
/// `max(rectangle distance − a.radius − b.radius, 0)`, minus a safety margin of `1e-13` relative
/// to the numbers involved, so rounding never makes it exceed the true distance. 0 when the
/// volumes overlap.
pub fn rss_distance(a: &Rss, b: &Rss, rot: &Mat3, trans: &Vec3) -> f64 {
    rss_distance_cut(a, b, rot, trans, f64::INFINITY)
}

/// [`rss_distance`] for a caller that only needs the exact value when it is at most `cut` (see
/// [`rss_distance_placed`]).
pub fn rss_distance_cut(a: &Rss, b: &Rss, rot: &Mat3, trans: &Vec3, cut: f64) -> f64 {
    // b's axes and corner in a's model frame, then in a's rectangle frame.
    let rb = rot * b.axes;
    let q = [axis(&rb, 0), axis(&rb, 1), axis(&rb, 2)];
    let bc = rot * b.corner + trans;
    let ac = [a.corner.x, a.corner.y, a.corner.z];
    let d = [bc.x - ac[0], bc.y - ac[1], bc.z - ac[2]];
    let ai = [axis(&a.axes, 0), axis(&a.axes, 1), axis(&a.axes, 2)];
    let inner = |v: &[f64; 3]| [dot3(&ai[0], v), dot3(&ai[1], v), dot3(&ai[2], v)];
    let (bj, t) = ([inner(&q[0]), inner(&q[1]), inner(&q[2])], inner(&d));
    let coords = a.corner.amax() + bc.amax();
    rss_distance_placed(a.lengths, b.lengths, a.radius + b.radius, &bj, &t, coords, cut)
}

/// [`rss_distance`] from b's rectangle placed in a's rectangle frame: `bj[j]` is b's axis j in
/// a's axes (`bj[j][i] = aᵢ·bⱼ` for the axes in any common frame), `t` b's corner relative to
/// a's corner in a's axes.
/// `rsum` is the sum of the two radii; `coords` bounds the magnitude of the coordinates `bj` and
/// `t` were computed from (it scales the rounding margin, `1e-13` relative), e.g. the largest
/// absolute coordinates of the two corners in the common frame.
///
/// `cut`: the caller only needs the exact value when it is at most `cut`. Once a lower bound
/// above `cut` is established the computation stops and returns that bound (still a lower
/// bound of the distance, and above `cut` up to rounding); `f64::INFINITY` always gives the
/// exact value.
#[inline]
pub fn rss_distance_placed(
    la: [f64; 2],
    lb: [f64; 2],
    rsum: f64,
    bj: &[[f64; 3]; 3],
    t: &[f64; 3],
    coords: f64,
    cut: f64,
) -> f64 {
    // `coords` also bounds |t| (up to a factor √3): the margin covers the composition.
    let scale = coords + la[0] + la[1] + lb[0] + lb[1];
    let margin = 1e-13 * (scale + rsum);
    let lbnd = rect_lower_bound(la, bj, t, lb, rsum, cut + rsum + margin, scale);
    // `max` also maps a NaN to 0, the safe answer.
    (lbnd - rsum - margin).max(0.0)
}

/// Distance between two rectangles given in a common frame (each `corner + u·axes.col(0) +
/// v·axes.col(1)`, `u ∈ [0, lengths[0]]`, `v ∈ [0, lengths[1]]`, axes orthonormal); 0 when they
/// intersect. Like [`rss_distance`] it is a lower bound, exact up to rounding, minus a safety
/// margin of `1e-13` relative to the coordinates.
pub fn rectangle_distance(
    a_axes: &Mat3,
    a_corner: &Vec3,
    a_lengths: [f64; 2],
    b_axes: &Mat3,
    b_corner: &Vec3,
    b_lengths: [f64; 2],
) -> f64 {
    let d = b_corner - a_corner;
    let d = [d.x, d.y, d.z];
    let ai = [axis(a_axes, 0), axis(a_axes, 1), axis(a_axes, 2)];
    let inner = |v: &[f64; 3]| [dot3(&ai[0], v), dot3(&ai[1], v), dot3(&ai[2], v)];
    let bj = [inner(&axis(b_axes, 0)), inner(&axis(b_axes, 1)), inner(&axis(b_axes, 2))];
    let t = inner(&d);
    let scale = a_corner.amax() + b_corner.amax() + amax3(&t);
    let lb = rect_lower_bound(a_lengths, &bj, &t, b_lengths, 0.0, f64::INFINITY, scale);
    let margin = 1e-13
        * (a_corner.amax() + b_corner.amax() + amax3(&t) + a_lengths[0] + a_lengths[1] + b_lengths[0] + b_lengths[1]);
    (lb - margin).max(0.0)
}

/// `min(x, 0)` (0 for NaN).
#[inline(always)]
fn neg_part(x: f64) -> f64 {
    if x < 0.0 { x } else { 0.0 }
}

/// `max(x, 0)` (0 for NaN).
#[inline(always)]
fn pos_part(x: f64) -> f64 {
    if x > 0.0 { x } else { 0.0 }
}

/// Clamps to `[0, 1]`; NaN goes to 0.
#[inline(always)]
fn clamp01(x: f64) -> f64 {
    if x > 0.0 { if x < 1.0 { x } else { 1.0 } } else { 0.0 }
}

/// `clamp01(num / den)` for `den > 0`, dividing only when the quotient is inside.
#[inline(always)]
fn ratio01(num: f64, den: f64) -> f64 {
    if num > 0.0 { if num < den { clamp01(num / den) } else { 1.0 } } else { 0.0 }
}

/// One edge pair: a's edge along axis `K` (0 = x, 1 = y) from 0 to `len`, at `off` on the other
/// in-plane axis; b's edge `q0 + u·d2`, `u ∈ [0, 1]`, `e = |d2|²`; b itself is `t + u·eu +
/// v·ev`. Returns the distance of the pair's closest points (an upper bound of the rectangles'
/// distance) and the lower bound the gap of the projections of both rectangles onto the pair's
/// separating direction gives (`-∞` when there is no direction).
///
/// The closest points are [`segment_params`](crate::geometry::tri_distance::segment_params)
/// specialised to an axis-aligned first segment (same clamping rules, cross products written
/// out).
#[inline(always)]
#[allow(clippy::neg_cmp_op_on_partial_ord)] // `!(x > 0)` deliberately also catches NaN
#[allow(clippy::too_many_arguments)]
fn edge_pair<const K: usize>(
    off: f64,
    len: f64,
    q0: &[f64; 3],
    d2: &[f64; 3],
    e: f64,
    t: &[f64; 3],
    eu: &[f64; 3],
    ev: &[f64; 3],
    la: [f64; 2],
) -> (f64, f64) {
    let m = 1 - K;
    // r = p0 − q0, p0 = a's edge start.
    let rk = -q0[K];
    let rm = off - q0[m];
    let rz = -q0[2];
    let f = d2[K] * rk + d2[m] * rm + d2[2] * rz;
    let (s, u) = if !(len > 0.0) {
        if !(e > 0.0) { (0.0, 0.0) } else { (0.0, clamp01(f / e)) }
    } else if !(e > 0.0) {
        (clamp01(-rk / len), 0.0)
    } else {
        // The lines' closest point on a's edge ((d2 × r)·n / |n|², n = d1 × d2, written out).
        let perp = d2[m] * d2[m] + d2[2] * d2[2];
        let s = if perp > 0.0 { ratio01(d2[K] * (d2[m] * rm + d2[2] * rz) - rk * perp, len * perp) } else { 0.0 };
        let num = len * d2[K] * s + f;
        if num < 0.0 {
            (clamp01(-rk / len), 0.0)
        } else if num > e {
            (clamp01((d2[K] - rk) / len), 1.0)
        } else {
            (s, clamp01(num / e))
        }
    };
    // v = Q − P.
    let mut v = [q0[0] + d2[0] * u, q0[1] + d2[1] * u, q0[2] + d2[2] * u];
    v[K] -= len * s;
    v[m] -= off;
    let d = dot3(&v, &v).sqrt();
    // The separating direction. `v` itself is only accurate to rounding/|v|, and a tilt
    // costs the gap (tilt × edge length) when an edge is perpendicular to it; so the
    // edges on which the closest points are interior are projected out exactly:
    // for two such edges the direction is their cross product.
    let (s_in, u_in) = (s > 0.0 && s < 1.0, u > 0.0 && u < 1.0);
    let mut w = v;
    if s_in {
        // a's edges are axis-aligned: drop the component along the edge.
        w[K] = 0.0;
    }
    if u_in {
        // a's edge direction × d2.
        let c = if K == 0 { [0.0, -d2[2], d2[1]] } else { [d2[2], 0.0, -d2[0]] };
        if s_in && dot3(&c, &c) > 1e-20 * e {
            w = if dot3(&c, &v) >= 0.0 { c } else { [-c[0], -c[1], -c[2]] };
        } else {
            let g = dot3(&w, d2) / e;
            w = [w[0] - d2[0] * g, w[1] - d2[1] * g, w[2] - d2[2] * g];
        }
    }
    let wn = dot3(&w, &w).sqrt();
    let low = if wn > 0.0 {
        // Gap between the projections onto w: min over b minus max over a.
        let bmin = dot3(t, &w) + neg_part(dot3(eu, &w)) + neg_part(dot3(ev, &w));
        let amax = pos_part(la[0] * w[0]) + pos_part(la[1] * w[1]);
        (bmin - amax) / wn
    } else {
        f64::NEG_INFINITY
    };
    (d, low)
}

/// Lower bound on the distance between the rectangle `[0, la0] × [0, la1] × {0}` and the
/// rectangle `t + u·bj[0] + v·bj[1]`, `u ∈ [0, lb0]`, `v ∈ [0, lb1]` (`bj` orthonormal; `bj[2]`
/// is that rectangle's normal). Exact up to rounding when they are apart; ≤ 0 when
/// they intersect. Stops early with a value `≤ stop` once a pair of points closer than `stop`
/// is found (the caller subtracts `stop` and clamps at 0), and with a value `> cut` once the
/// lower bound exceeds `cut`. `scale` bounds the magnitude of `t` (rounding tolerance).
///
/// Order of the candidates: the gap along a's normal (with b's lowest corner over a's face),
/// the gap along b's normal (with a's lowest corner over b's face), then the edge pairs, those
/// facing each other first.
#[inline(always)]
fn rect_lower_bound(
    la: [f64; 2],
    bj: &[[f64; 3]; 3],
    t: &[f64; 3],
    lb: [f64; 2],
    stop: f64,
    cut: f64,
    scale: f64,
) -> f64 {
    let (a0, a1) = (la[0], la[1]);
    let (b0, b1) = (lb[0], lb[1]);
    let [bu, bv, bn] = *bj;
    let eu = [bu[0] * b0, bu[1] * b0, bu[2] * b0];
    let ev = [bv[0] * b1, bv[1] * b1, bv[2] * b1];

    // Gap along a's normal (a lies in z = 0). When b lies on one side and its corner nearest
    // to a's plane projects into a, that corner and its foot are a closest pair: done.
    let zlo = t[2] + neg_part(eu[2]) + neg_part(ev[2]);
    let zhi = t[2] + pos_part(eu[2]) + pos_part(ev[2]);
    let gap_a = if zlo > -zhi { zlo } else { -zhi };
    if gap_a > 0.0 {
        if gap_a > cut {
            return gap_a;
        }
        let up = zlo > 0.0;
        // 1 where the edge goes down towards a (for b above a), else 0.
        let su = if (eu[2] < 0.0) == up { 1.0 } else { 0.0 };
        let sv = if (ev[2] < 0.0) == up { 1.0 } else { 0.0 };
        let yx = t[0] + su * eu[0] + sv * ev[0];
        let yy = t[1] + su * eu[1] + sv * ev[1];
        if yx >= 0.0 && yx <= a0 && yy >= 0.0 && yy <= a1 {
            return gap_a;
        }
    }
    // Gap along b's normal, and a's corner nearest to b's plane over b's face.
    // (b's edges are perpendicular to bn up to rounding, which the caller's margin covers.)
    let tn = dot3(t, &bn);
    let (ax, ay) = (a0 * bn[0], a1 * bn[1]);
    let alo = neg_part(ax) + neg_part(ay);
    let ahi = pos_part(ax) + pos_part(ay);
    let below = tn - ahi >= alo - tn;
    let gap_b = if below { tn - ahi } else { alo - tn };
    let mut lo = if gap_b > gap_a { gap_b } else { gap_a };
    if lo > cut {
        return lo;
    }
    let (tu, tv) = (dot3(t, &bu), dot3(t, &bv));
    if gap_b > 0.0 {
        // a below b's plane (along bn) when tn − ahi is the gap: its highest corner is nearest.
        let sx = if (bn[0] > 0.0) == below { a0 } else { 0.0 };
        let sy = if (bn[1] > 0.0) == below { a1 } else { 0.0 };
        let u = sx * bu[0] + sy * bu[1] - tu;
        let v = sx * bv[0] + sy * bv[1] - tv;
        if u >= 0.0 && u <= b0 && v >= 0.0 && v <= b1 {
            return lo;
        }
    }
    let mut hi = f64::INFINITY;
    let tol = 64.0 * f64::EPSILON * (scale + a0 + a1 + b0 + b1);

    // The edges: a's along x at the y nearest b's centre (then along y at the nearest x, then
    // the opposite ones); b's along u at the v nearest a's centre (then along v, then the
    // opposite ones). First the axes are relabelled (a distance does not change when two
    // coordinates are swapped) so that the first edges tried are those the other centre lies
    // beyond the most.
    let cx = t[0] + (eu[0] + ev[0]) * 0.5;
    let cy = t[1] + (eu[1] + ev[1]) * 0.5;
    // a's centre in b's rectangle coordinates.
    let cu = 0.5 * (a0 * bu[0] + a1 * bu[1]) - tu;
    let cv = 0.5 * (a0 * bv[0] + a1 * bv[1]) - tv;
    let outside = |x: f64, hi: f64| {
        let o = if x < 0.0 { -x } else { x - hi };
        if o > 0.0 { o } else { 0.0 }
    };
    // b off a's x sides: a's y edges first (swap x and y); a off b's u sides: b's v edges
    // first (swap u and v).
    let sa = outside(cx, a0) > outside(cy, a1);
    let sb = outside(cu, b0) > outside(cv, b1);
    let pick = |c: bool, x: f64, y: f64| if c { y } else { x };
    let xy = |v: &[f64; 3]| [pick(sa, v[0], v[1]), pick(sa, v[1], v[0]), v[2]];
    let t = xy(t);
    let (eu, ev) = (xy(&eu), xy(&ev));
    let (eu, ev) = if sb { (ev, eu) } else { (eu, ev) };
    let la = [pick(sa, a0, a1), pick(sa, a1, a0)];
    let lb = [pick(sb, b0, b1), pick(sb, b1, b0)];
    let (cx, cy) = (pick(sa, cx, cy), pick(sa, cy, cx));
    let (cu, cv) = (pick(sb, cu, cv), pick(sb, cv, cu));
    let t = &t;
    let (a0, a1, b0, b1) = (la[0], la[1], lb[0], lb[1]);
    let yn = if cy < 0.5 * a1 { 0.0 } else { a1 };
    let xn = if cx < 0.5 * a0 { 0.0 } else { a0 };
    let teu = [t[0] + eu[0], t[1] + eu[1], t[2] + eu[2]];
    let tev = [t[0] + ev[0], t[1] + ev[1], t[2] + ev[2]];
    let (vnear, vfar) = if cv < 0.5 * b1 { (t, &tev) } else { (&tev, t) };
    let (unear, ufar) = if cu < 0.5 * b0 { (t, &teu) } else { (&teu, t) };
    // |eu|² and |ev|² (b's axes are unit vectors up to rounding).
    let (lu, lv) = (b0 * b0, b1 * b1);
    // One edge pair (unrolled: each pair's edges are known statically).
    macro_rules! pair {
        ($k:literal, $off:expr, $start:expr, $d2:expr, $l2:expr) => {
            let len = la[$k];
            let (d, low) = edge_pair::<$k>($off, len, $start, $d2, $l2, t, &eu, &ev, la);
            if d < hi {
                hi = d;
                if hi <= stop {
                    return if lo < hi { lo } else { hi };
                }
            }
            if low > lo {
                lo = low;
            }
            if lo >= hi - tol || lo > cut {
                return lo;
            }
        };
    }
    // a's edges: 0 = (x, yn), 1 = (y, xn), 2 = (x, a1 − yn), 3 = (y, a0 − xn);
    // b's: 0 = (u, vnear), 1 = (v, unear), 2 = (u, vfar), 3 = (v, ufar).
    pair!(0, yn, vnear, &eu, lu);
    pair!(0, yn, unear, &ev, lv);
    pair!(1, xn, vnear, &eu, lu);
    pair!(1, xn, unear, &ev, lv);
    pair!(0, yn, vfar, &eu, lu);
    pair!(0, yn, ufar, &ev, lv);
    pair!(1, xn, vfar, &eu, lu);
    pair!(1, xn, ufar, &ev, lv);
    pair!(0, a1 - yn, vnear, &eu, lu);
    pair!(1, a0 - xn, vnear, &eu, lu);
    pair!(0, a1 - yn, unear, &ev, lv);
    pair!(1, a0 - xn, unear, &ev, lv);
    pair!(0, a1 - yn, vfar, &eu, lu);
    pair!(0, a1 - yn, ufar, &ev, lv);
    pair!(1, a0 - xn, vfar, &eu, lu);
    pair!(1, a0 - xn, ufar, &ev, lv);
    lo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::tri_distance::triangle_distance;
    use crate::test_rng::Rng;

    fn corners(axes: &Mat3, corner: &Vec3, l: [f64; 2]) -> [Vec3; 4] {
        let (u, v) = (axes.column(0) * l[0], axes.column(1) * l[1]);
        [*corner, corner + u, corner + u + v, corner + v]
    }

    /// Reference rectangle distance: each rectangle as two triangles, the minimum of the four
    /// exact triangle distances.
    fn ref_rect_distance(aa: &Mat3, ac: &Vec3, al: [f64; 2], ba: &Mat3, bc: &Vec3, bl: [f64; 2]) -> f64 {
        let a = corners(aa, ac, al);
        let b = corners(ba, bc, bl);
        let ta = [[a[0], a[1], a[2]], [a[0], a[2], a[3]]];
        let tb = [[b[0], b[1], b[2]], [b[0], b[2], b[3]]];
        let mut d = f64::INFINITY;
        for x in &ta {
            for y in &tb {
                d = d.min(triangle_distance(x, y).distance);
            }
        }
        d
    }

    fn random_rss(rng: &mut Rng) -> Rss {
        let axes = rng.rotation_mixed();
        let mut l = [rng.range(0.0, 2.0), rng.range(0.0, 2.0)];
        match rng.below(6) {
            0 => l[0] = 0.0,
            1 => l = [0.0, 0.0],
            _ => {}
        }
        let radius = if rng.below(5) == 0 { 0.0 } else { rng.range(0.0, 0.5) };
        Rss { axes, corner: rng.vec(-1.0, 1.0), lengths: l, radius }
    }

    /// A random point of the volume.
    fn sample(rng: &mut Rng, s: &Rss) -> Vec3 {
        let on =
            s.corner + s.axes.column(0) * (s.lengths[0] * rng.unit()) + s.axes.column(1) * (s.lengths[1] * rng.unit());
        on + rng.dir() * (s.radius * rng.unit().sqrt())
    }

    #[test]
    fn fit_contains_points() {
        let mut rng = Rng(0x5eed_1234_abcd_0001);
        let mut total_points = 0;
        for it in 0..4000 {
            let axes = rng.rotation_mixed();
            let n = match it % 5 {
                0 => 1,
                1 => 2,
                2 => 3,
                _ => 1 + rng.below(60) as usize,
            };
            let center = rng.vec(-1.0, 1.0) * if it % 7 == 0 { 1e4 } else { 1.0 };
            let stretch = Vec3::new(
                rng.range(0.0, 2.0),
                rng.range(0.0, 2.0),
                rng.range(0.0, 2.0) * if it % 3 == 0 { 1e-6 } else { 1.0 },
            );
            let shape = rng.rotation();
            let pts: Vec<Vec3> = (0..n)
                .map(|_| {
                    let mut l = rng.vec(-1.0, 1.0).component_mul(&stretch);
                    if it % 11 == 0 {
                        l = l.normalize() * stretch.amax(); // on a sphere: exercises the corners
                    }
                    center + shape * l
                })
                .collect();
            let s = Rss::fit(&axes, &pts);
            assert!(s.lengths[0] >= 0.0 && s.lengths[1] >= 0.0 && s.radius >= 0.0);
            // The radius is half the spread along the normal (up to the rounding cover).
            let zs: Vec<f64> = pts.iter().map(|p| axes.column(2).dot(p)).collect();
            let spread =
                zs.iter().cloned().fold(f64::NEG_INFINITY, f64::max) - zs.iter().cloned().fold(f64::INFINITY, f64::min);
            assert!(
                (s.radius - 0.5 * spread).abs() <= 1e-12 * (1.0 + center.amax()),
                "{} vs {}",
                s.radius,
                0.5 * spread
            );
            for p in &pts {
                let d = s.rectangle_point_distance(p);
                assert!(d <= s.radius * (1.0 + 1e-12) + 1e-12 * (1.0 + p.amax()), "point {p:?} at {d} > {}", s.radius);
                assert!(s.contains_point(p));
            }
            total_points += n;
            // The rectangle is no larger than the points' extent along its axes.
            let xs: Vec<f64> = pts.iter().map(|p| axes.column(0).dot(p)).collect();
            let xspread =
                xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max) - xs.iter().cloned().fold(f64::INFINITY, f64::min);
            assert!(s.lengths[0] <= xspread + 1e-9 * (1.0 + center.amax()));
        }
        assert!(total_points > 50_000);
        // Empty input.
        let s = Rss::fit(&Mat3::identity(), &[]);
        assert_eq!((s.lengths, s.radius), ([0.0, 0.0], 0.0));
    }

    #[test]
    fn fit_flat_points_give_flat_volume() {
        // Points of a 3×2 rectangle in the xy plane: radius 0, the rectangle itself.
        let pts = [
            Vec3::new(1., 1., 5.),
            Vec3::new(4., 1., 5.),
            Vec3::new(4., 3., 5.),
            Vec3::new(1., 3., 5.),
            Vec3::new(2., 2., 5.),
        ];
        let s = Rss::fit(&Mat3::identity(), &pts);
        assert_eq!(s.radius, 0.0);
        assert_eq!(s.corner, Vec3::new(1., 1., 5.));
        assert_eq!(s.lengths, [3.0, 2.0]);
        // A unit sphere's poles and equator: radius 1, the rectangle shrinks to the centre.
        let pts = [
            Vec3::new(0., 0., 1.),
            Vec3::new(0., 0., -1.),
            Vec3::new(1., 0., 0.),
            Vec3::new(-1., 0., 0.),
            Vec3::new(0., 1., 0.),
            Vec3::new(0., -1., 0.),
        ];
        let s = Rss::fit(&Mat3::identity(), &pts);
        assert_eq!(s.radius, 1.0);
        assert_eq!(s.lengths, [0.0, 0.0]);
        assert_eq!(s.corner, Vec3::zeros());
    }

    #[test]
    fn constructed_distances() {
        let id = Mat3::identity();
        // Parallel rectangles offset by h along the normal, overlapping in projection.
        for &(h, ra, rb) in &[(3.0, 0.5, 0.25), (1.0, 0.0, 0.0), (0.75, 0.25, 0.5), (10.0, 1.0, 2.0)] {
            let a = Rss { axes: id, corner: Vec3::zeros(), lengths: [2.0, 1.0], radius: ra };
            let b = Rss { axes: id, corner: Vec3::new(0.5, 0.25, 0.0), lengths: [1.0, 3.0], radius: rb };
            let d = rss_distance(&a, &b, &id, &Vec3::new(0.0, 0.0, h));
            assert!((d - (h - ra - rb).max(0.0)).abs() <= 1e-11 * (1.0 + h), "{d} vs {}", h - ra - rb);
            // Same through a rotated frame for b (b's model turned a quarter around z).
            let rz = Mat3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0);
            let b2 = Rss { axes: rz.transpose(), corner: rz.transpose() * Vec3::new(0.5, 0.25, 0.0), ..b };
            let d2 = rss_distance(&a, &b2, &rz, &Vec3::new(0.0, 0.0, h));
            assert!((d2 - d).abs() <= 2e-12 * (1.0 + h));
        }
        // Coplanar rectangles side by side, gap g.
        let a = Rss { axes: id, corner: Vec3::zeros(), lengths: [1.0, 1.0], radius: 0.1 };
        let b = Rss { axes: id, corner: Vec3::new(1.5, 0.5, 0.0), lengths: [1.0, 1.0], radius: 0.2 };
        let d = rss_distance(&a, &b, &id, &Vec3::zeros());
        assert!((d - 0.2).abs() <= 2e-12);
        // Diagonal corners: corner-to-corner distance.
        let b = Rss { axes: id, corner: Vec3::new(2.0, 3.0, 0.0), lengths: [1.0, 1.0], radius: 0.0 };
        let d = rss_distance(&a, &b, &id, &Vec3::zeros());
        assert!((d - (1.0f64 + 4.0).sqrt() + 0.1).abs() <= 2e-12);
        // Perpendicular rectangles: b stands on edge above a's interior.
        let standing = Mat3::new(1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0); // b's y axis = +z
        let b = Rss { axes: standing, corner: Vec3::new(0.2, 0.5, 0.7), lengths: [0.5, 1.0], radius: 0.0 };
        let d = rss_distance(&a, &b, &id, &Vec3::zeros());
        assert!((d - 0.6).abs() <= 2e-12, "{d}");
        // Crossing rectangles: 0.
        let b = Rss { axes: standing, corner: Vec3::new(0.2, 0.5, -0.7), lengths: [0.5, 1.0], radius: 0.0 };
        assert_eq!(rss_distance(&a, &b, &id, &Vec3::zeros()), 0.0);
        // Overlapping volumes: 0.
        let b = Rss { axes: id, corner: Vec3::new(1.1, 0.0, 0.1), lengths: [1.0, 1.0], radius: 0.1 };
        assert_eq!(rss_distance(&a, &b, &id, &Vec3::zeros()), 0.0);
        // Degenerate rectangles: points and segments.
        let p = Rss { axes: id, corner: Vec3::new(0.5, 0.5, 2.0), lengths: [0.0, 0.0], radius: 0.5 };
        let d = rss_distance(&a, &p, &id, &Vec3::zeros());
        assert!((d - 1.4).abs() <= 2e-12);
        let s = Rss { axes: standing, corner: Vec3::new(3.0, 0.5, 0.0), lengths: [0.0, 5.0], radius: 0.0 };
        let d = rss_distance(&a, &s, &id, &Vec3::zeros());
        assert!((d - 1.9).abs() <= 2e-12);
        // The general rectangle distance agrees with the reference in a rotated frame.
        let mut rng = Rng(42);
        let rot = rng.rotation();
        let off = Vec3::new(0.3, -2.0, 1.0);
        let (ac, bc) = (rot * Vec3::zeros() + off, rot * Vec3::new(0.2, 0.5, 0.7) + off);
        let d = rectangle_distance(&rot, &ac, [1.0, 1.0], &(rot * standing), &bc, [0.5, 1.0]);
        assert!((d - 0.7).abs() <= 2e-12, "{d}");
    }

    /// One random pair of rectangles (b in a's frame) of a family.
    fn random_rects(rng: &mut Rng, family: u64) -> (Mat3, Vec3, [f64; 2], Mat3, Vec3, [f64; 2]) {
        let aa = rng.rotation_mixed();
        let ac = rng.vec(-1.0, 1.0);
        let mut al = [rng.range(0.0, 2.0), rng.range(0.0, 2.0)];
        let mut ba = rng.rotation_mixed();
        let mut bc = rng.vec(-1.0, 1.0) + rng.dir() * rng.range(0.0, 3.0);
        let mut bl = [rng.range(0.0, 2.0), rng.range(0.0, 2.0)];
        match family {
            // Coplanar (same plane), sometimes edges parallel.
            1 => {
                let turn = if rng.below(2) == 0 { 0.0 } else { rng.range(0.0, 6.3) };
                let (c, s) = (turn.cos(), turn.sin());
                ba = aa * Mat3::new(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0);
                bc = ac + aa * Vec3::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), 0.0);
            }
            // Parallel planes at a small offset.
            2 => {
                let turn = rng.range(0.0, 6.3);
                let (c, s) = (turn.cos(), turn.sin());
                ba = aa * Mat3::new(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0);
                let h = 10f64.powi(-(rng.below(10) as i32));
                bc = ac + aa * Vec3::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), h);
            }
            // Degenerate lengths.
            3 => {
                al[rng.below(2) as usize] = 0.0;
                if rng.below(2) == 0 {
                    bl = [0.0, 0.0];
                }
            }
            // Near-touching: pushed along the closest direction to a tiny gap.
            4 => {
                let d = ref_rect_distance(&aa, &ac, al, &ba, &bc, bl);
                if d > 0.0 {
                    // Move b straight towards a by (d − target) along a random-ish approach:
                    // use the difference of the rectangle centres, then re-measure.
                    let ca = ac + aa.column(0) * (0.5 * al[0]) + aa.column(1) * (0.5 * al[1]);
                    let cb = bc + ba.column(0) * (0.5 * bl[0]) + ba.column(1) * (0.5 * bl[1]);
                    let dir = (ca - cb).normalize();
                    // Bisection for the shift giving a distance of about target.
                    let target = 10f64.powi(-(rng.below(12) as i32));
                    let (mut lo, mut hi) = (0.0, 10.0);
                    for _ in 0..60 {
                        let mid = 0.5 * (lo + hi);
                        if ref_rect_distance(&aa, &ac, al, &ba, &(bc + dir * mid), bl) > target {
                            lo = mid;
                        } else {
                            hi = mid;
                        }
                    }
                    bc += dir * lo;
                }
            }
            _ => {}
        }
        (aa, ac, al, ba, bc, bl)
    }

    #[test]
    fn rectangle_distance_against_triangles() {
        let mut rng = Rng(0xfeed_face_0bad_cafe);
        let mut worst = [0.0f64; 5];
        let mut worst_low = [0.0f64; 5];
        for it in 0..40_000 {
            let family = it % 5;
            let (aa, ac, al, ba, bc, bl) = random_rects(&mut rng, family);
            let want = ref_rect_distance(&aa, &ac, al, &ba, &bc, bl);
            let got = rectangle_distance(&aa, &ac, al, &ba, &bc, bl);
            let s = 1.0 + ac.amax() + bc.amax() + al[0] + al[1] + bl[0] + bl[1];
            // A lower bound (up to the reference's own rounding) ...
            assert!(got <= want + 1e-14 * s, "family {family}: {got} > {want}");
            // ... and exact.
            let low = (want - got) / s;
            worst[family as usize] = worst[family as usize].max((got - want).abs() / s);
            worst_low[family as usize] = worst_low[family as usize].max(low);
            assert!(low <= 1e-12, "family {family}: {got} < {want}: {aa:?} {ac:?} {al:?} {ba:?} {bc:?} {bl:?}");
        }
        eprintln!("rectangle distance: worst |err|/scale per family {worst:?}");
    }

    #[test]
    fn rss_distance_is_a_lower_bound_and_exact() {
        let mut rng = Rng(0x0123_4567_89ab_cdef);
        let mut worst_exact = 0.0f64;
        let mut zero = 0;
        for it in 0..50_000 {
            let a = random_rss(&mut rng);
            let mut b = random_rss(&mut rng);
            if it % 4 == 0 {
                b.corner *= 0.3;
            }
            let rot = rng.rotation_mixed();
            let trans = rng.dir() * rng.range(0.0, 4.0);
            let d = rss_distance(&a, &b, &rot, &trans);
            assert!(d >= 0.0 && d.is_finite());
            if d == 0.0 {
                zero += 1;
            }
            // b's volume in a's frame.
            let bw = Rss { axes: rot * b.axes, corner: rot * b.corner + trans, ..b };
            // Lower bound: random points of both volumes are never closer.
            for _ in 0..8 {
                let x = sample(&mut rng, &a);
                let y = sample(&mut rng, &bw);
                assert!(d <= (x - y).norm() + 1e-12, "{d} > sampled {}", (x - y).norm());
            }
            // The exact value from the reference rectangle distance.
            let rect = ref_rect_distance(&a.axes, &a.corner, a.lengths, &bw.axes, &bw.corner, b.lengths);
            let want = (rect - a.radius - b.radius).max(0.0);
            assert!(d <= want + 1e-13, "{d} > exact {want}");
            assert!(d >= want - 1e-11, "{d} < exact {want}");
            worst_exact = worst_exact.max(want - d);
            // The tightest pair: points on both sphere surfaces along the closest direction.
            if want > 0.0 {
                let (p, q) = closest_rect_points(&a, &bw);
                let u = (q - p).normalize();
                let x = p + u * a.radius;
                let y = q - u * b.radius;
                assert!(d <= (x - y).norm() + 1e-12);
            }
        }
        eprintln!("rss: worst (exact − bound) {worst_exact:e}; {zero} of 50000 overlapping");
    }

    #[test]
    fn cut_gives_the_exact_value_below_it_and_a_bound_above() {
        let mut rng = Rng(0x00c0_ffee_1234_5678);
        let (mut exits, mut exact) = (0, 0);
        for it in 0..50_000 {
            let a = random_rss(&mut rng);
            let mut b = random_rss(&mut rng);
            if it % 4 == 0 {
                b.corner *= 0.3;
            }
            let rot = rng.rotation_mixed();
            let trans = rng.dir() * rng.range(0.0, 4.0);
            let full = rss_distance(&a, &b, &rot, &trans);
            let cut = match it % 3 {
                0 => full * rng.range(0.0, 2.0),
                1 => rng.range(0.0, 3.0),
                _ => full,
            };
            let d = rss_distance_cut(&a, &b, &rot, &trans, cut);
            let slack = 1e-12 * (1.0 + trans.amax() + a.corner.amax() + b.corner.amax());
            // Always a lower bound of the exact value ...
            assert!(d <= full + slack, "{d} > {full}");
            if full < cut - slack {
                // ... the exact value itself below the cut ...
                assert_eq!(d, full, "cut {cut}");
                exact += 1;
            } else if d != full {
                // ... and above the cut when it stopped early.
                assert!(d > cut - slack, "{d} <= cut {cut} < {full}");
                exits += 1;
            }
        }
        assert!(exits > 1000 && exact > 1000, "{exits} {exact}");
    }

    /// Closest points of two rectangles through the triangle reference.
    fn closest_rect_points(a: &Rss, b: &Rss) -> (Vec3, Vec3) {
        let ca = corners(&a.axes, &a.corner, a.lengths);
        let cb = corners(&b.axes, &b.corner, b.lengths);
        let ta = [[ca[0], ca[1], ca[2]], [ca[0], ca[2], ca[3]]];
        let tb = [[cb[0], cb[1], cb[2]], [cb[0], cb[2], cb[3]]];
        let mut best = (f64::INFINITY, Vec3::zeros(), Vec3::zeros());
        for x in &ta {
            for y in &tb {
                let r = triangle_distance(x, y);
                if r.distance < best.0 {
                    best = (r.distance, r.p, r.q);
                }
            }
        }
        (best.1, best.2)
    }

    #[test]
    fn rss_distance_bounds_fitted_point_sets() {
        // Fit volumes to point clouds and compare with the true point-set distance.
        let mut rng = Rng(77);
        for _ in 0..3000 {
            let pa: Vec<Vec3> = (0..8).map(|_| rng.vec(-1.0, 1.0).component_mul(&Vec3::new(1.0, 0.5, 0.1))).collect();
            let pb: Vec<Vec3> = (0..8).map(|_| rng.vec(-1.0, 1.0).component_mul(&Vec3::new(0.2, 1.0, 0.4))).collect();
            let a = Rss::fit(&rng.rotation(), &pa);
            let b = Rss::fit(&rng.rotation(), &pb);
            let rot = rng.rotation();
            let trans = rng.dir() * rng.range(0.0, 4.0);
            let d = rss_distance(&a, &b, &rot, &trans);
            let mut truth = f64::INFINITY;
            for x in &pa {
                for y in &pb {
                    truth = truth.min((x - (rot * y + trans)).norm());
                }
            }
            assert!(d <= truth + 1e-12, "{d} > {truth}");
        }
    }
}
