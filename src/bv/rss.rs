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

use crate::geometry::tri_distance::segment_params;
use crate::math::{Mat3, Vec3};

/// A rectangle swept sphere: all points within `radius` of the rectangle
/// `corner + u·axes.col(0) + v·axes.col(1)`, `u ∈ [0, lengths[0]]`, `v ∈ [0, lengths[1]]`.
/// `axes` is orthonormal and right-handed; its third column is the rectangle's normal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rss {
    pub axes: Mat3,
    pub corner: Vec3,
    pub lengths: [f64; 2],
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
        if points.is_empty() {
            return Rss { axes: *axes, corner: Vec3::zeros(), lengths: [0.0; 2], radius: 0.0 };
        }
        let at = axes.transpose();
        let local: Vec<Vec3> = points.iter().map(|p| at * p).collect();
        let (mut zlo, mut zhi) = (f64::INFINITY, f64::NEG_INFINITY);
        for l in &local {
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
        for l in &local {
            let s = slack2(l).sqrt();
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
        for l in &local {
            let dx = outside(l.x, xlo, xhi);
            let dy = outside(l.y, ylo, yhi);
            if dx > 0.0 && dy > 0.0 {
                let s2 = slack2(l);
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
        for l in &local {
            let dx = outside(l.x, xlo, xhi);
            let dy = outside(l.y, ylo, yhi);
            let dz = l.z - zc;
            need2 = need2.max(dx * dx + dy * dy + dz * dz);
        }
        let radius = r.max(need2.sqrt());
        Rss {
            axes: *axes,
            corner: axes * Vec3::new(xlo, ylo, zc),
            lengths: [xhi - xlo, yhi - ylo],
            radius,
        }
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
        let tol = 1e-12
            * (self.radius + self.lengths[0] + self.lengths[1] + self.corner.amax() + p.amax());
        self.rectangle_point_distance(p) <= self.radius + tol
    }

    /// The volume's size for choosing which of two volumes to split: the rectangle's diagonal
    /// plus the sphere's diameter.
    #[inline]
    pub fn size(&self) -> f64 {
        (self.lengths[0] * self.lengths[0] + self.lengths[1] * self.lengths[1]).sqrt()
            + 2.0 * self.radius
    }
}

/// A lower bound on the distance between volume `a` and volume `b`, `b` being placed in `a`'s
/// model frame by `x ↦ rot·x + trans` (`rot` a rotation). Exact up to rounding:
/// `max(rectangle distance − a.radius − b.radius, 0)`, minus a safety margin of `1e-13` relative
/// to the numbers involved, so rounding never makes it exceed the true distance. 0 when the
/// volumes overlap.
pub fn rss_distance(a: &Rss, b: &Rss, rot: &Mat3, trans: &Vec3) -> f64 {
    let at = a.axes.transpose();
    let r = at * (rot * b.axes);
    let bc = rot * b.corner + trans;
    let t = at * (bc - a.corner);
    let rsum = a.radius + b.radius;
    let lb = rect_lower_bound(a.lengths, &r, &t, b.lengths, rsum);
    let margin = 1e-13
        * (a.corner.amax()
            + bc.amax()
            + t.amax()
            + a.lengths[0]
            + a.lengths[1]
            + b.lengths[0]
            + b.lengths[1]
            + rsum);
    // `max` also maps a NaN to 0, the safe answer.
    (lb - rsum - margin).max(0.0)
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
    let at = a_axes.transpose();
    let r = at * b_axes;
    let t = at * (b_corner - a_corner);
    let lb = rect_lower_bound(a_lengths, &r, &t, b_lengths, 0.0);
    let margin = 1e-13
        * (a_corner.amax()
            + b_corner.amax()
            + t.amax()
            + a_lengths[0]
            + a_lengths[1]
            + b_lengths[0]
            + b_lengths[1]);
    (lb - margin).max(0.0)
}

/// Lower bound on the distance between the rectangle `[0, la0] × [0, la1] × {0}` and the
/// rectangle `t + u·r.col(0) + v·r.col(1)`, `u ∈ [0, lb0]`, `v ∈ [0, lb1]` (`r` orthonormal; its
/// third column is that rectangle's normal). Exact up to rounding when they are apart; ≤ 0 when
/// they intersect. Stops early with a value `≤ stop` once a pair of points closer than `stop`
/// is found (the caller subtracts `stop` and clamps at 0).
fn rect_lower_bound(la: [f64; 2], r: &Mat3, t: &Vec3, lb: [f64; 2], stop: f64) -> f64 {
    let (a0, a1) = (la[0], la[1]);
    let bu: Vec3 = r.column(0).into_owned();
    let bv: Vec3 = r.column(1).into_owned();
    let bn: Vec3 = r.column(2).into_owned();
    let eu = bu * lb[0];
    let ev = bv * lb[1];
    let scale = t.amax() + a0 + a1 + lb[0] + lb[1];
    let tol = 64.0 * f64::EPSILON * scale;

    // Gap along a's normal (a lies in z = 0). When b lies on one side and its corner nearest
    // to a's plane projects into a, that corner and its foot are a closest pair: done.
    let zlo = t.z + eu.z.min(0.0) + ev.z.min(0.0);
    let zhi = t.z + eu.z.max(0.0) + ev.z.max(0.0);
    let gap_a = zlo.max(-zhi);
    if gap_a > 0.0 {
        let up = zlo > 0.0;
        let mut y = *t;
        if (eu.z < 0.0) == up {
            y += eu;
        }
        if (ev.z < 0.0) == up {
            y += ev;
        }
        if y.x >= 0.0 && y.x <= a0 && y.y >= 0.0 && y.y <= a1 {
            return gap_a;
        }
    }
    // Gap along b's normal, and a's corner nearest to b's plane over b's face.
    let tn = t.dot(&bn);
    let (un, vn) = (eu.dot(&bn), ev.dot(&bn));
    let (ax, ay) = (a0 * bn.x, a1 * bn.y);
    let alo = ax.min(0.0) + ay.min(0.0);
    let ahi = ax.max(0.0) + ay.max(0.0);
    let blo = tn + un.min(0.0) + vn.min(0.0);
    let bhi = tn + un.max(0.0) + vn.max(0.0);
    let gap_b = (blo - ahi).max(alo - bhi);
    let (tu, tv) = (t.dot(&bu), t.dot(&bv));
    if gap_b > 0.0 {
        // a below b's plane (along bn) when blo − ahi is the gap: its highest corner is nearest.
        let below = blo - ahi >= alo - bhi;
        let sx = if (bn.x > 0.0) == below { a0 } else { 0.0 };
        let sy = if (bn.y > 0.0) == below { a1 } else { 0.0 };
        let u = sx * bu.x + sy * bu.y - tu;
        let v = sx * bv.x + sy * bv.y - tv;
        if u >= 0.0 && u <= lb[0] && v >= 0.0 && v <= lb[1] {
            return gap_b.max(gap_a);
        }
    }
    let mut lo = gap_a.max(gap_b);
    let mut hi = f64::INFINITY;

    // Edge pairs, those facing the other rectangle first.
    let c = t + (eu + ev) * 0.5;
    let yn = if c.y < 0.5 * a1 { 0.0 } else { a1 };
    let xn = if c.x < 0.5 * a0 { 0.0 } else { a0 };
    let ea = [
        (Vec3::new(0.0, yn, 0.0), Vec3::new(a0, 0.0, 0.0), a0 * a0),
        (Vec3::new(xn, 0.0, 0.0), Vec3::new(0.0, a1, 0.0), a1 * a1),
        (Vec3::new(0.0, a1 - yn, 0.0), Vec3::new(a0, 0.0, 0.0), a0 * a0),
        (Vec3::new(a0 - xn, 0.0, 0.0), Vec3::new(0.0, a1, 0.0), a1 * a1),
    ];
    // a's centre in b's rectangle coordinates.
    let cu = 0.5 * (a0 * bu.x + a1 * bu.y) - tu;
    let cv = 0.5 * (a0 * bv.x + a1 * bv.y) - tv;
    let (vnear, vfar) = if cv < 0.5 * lb[1] { (*t, t + ev) } else { (t + ev, *t) };
    let (unear, ufar) = if cu < 0.5 * lb[0] { (*t, t + eu) } else { (t + eu, *t) };
    let (lu, lv) = (eu.dot(&eu), ev.dot(&ev));
    let eb = [(vnear, eu, lu), (unear, ev, lv), (vfar, eu, lu), (ufar, ev, lv)];
    const ORDER: [(usize, usize); 16] = [
        (0, 0),
        (0, 1),
        (1, 0),
        (1, 1),
        (0, 2),
        (0, 3),
        (1, 2),
        (1, 3),
        (2, 0),
        (3, 0),
        (2, 1),
        (3, 1),
        (2, 2),
        (2, 3),
        (3, 2),
        (3, 3),
    ];
    for &(i, j) in &ORDER {
        let (p0, d1, l1) = &ea[i];
        let (q0, d2, l2) = &eb[j];
        let (s, u) = segment_params(p0, d1, *l1, q0, d2, *l2);
        let v = (q0 + d2 * u) - (p0 + d1 * s);
        let d = v.norm();
        if d < hi {
            hi = d;
            if hi <= stop {
                return lo.min(hi);
            }
        }
        // The separating direction. `v` itself is only accurate to rounding/|v|, and a tilt
        // costs the gap (tilt × edge length) when an edge is perpendicular to it; so the
        // edges on which the closest points are interior are projected out exactly:
        // for two such edges the direction is their cross product.
        let (s_in, u_in) = (s > 0.0 && s < 1.0, u > 0.0 && u < 1.0);
        let mut w = v;
        if s_in {
            // a's edges are axis-aligned: drop the component along the edge.
            if i % 2 == 0 { w.x = 0.0 } else { w.y = 0.0 }
        }
        if u_in {
            let c = if s_in {
                if i % 2 == 0 { Vec3::new(0.0, -d2.z, d2.y) } else { Vec3::new(d2.z, 0.0, -d2.x) }
            } else {
                Vec3::zeros()
            };
            if s_in && c.dot(&c) > 1e-20 * l2 {
                w = if c.dot(&v) >= 0.0 { c } else { -c };
            } else {
                w -= d2 * (w.dot(d2) / l2);
            }
        }
        let wn = w.norm();
        if wn > 0.0 {
            // Gap between the projections onto w: min over b minus max over a.
            let (uw, vw) = (eu.dot(&w), ev.dot(&w));
            let bmin = t.dot(&w) + uw.min(0.0) + vw.min(0.0);
            let amax = (a0 * w.x).max(0.0) + (a1 * w.y).max(0.0);
            lo = lo.max((bmin - amax) / wn);
        }
        if lo >= hi - tol {
            return lo;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::tri_distance::triangle_distance;

    /// xorshift64* — deterministic, no dependencies.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn unit(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }
        fn range(&mut self, lo: f64, hi: f64) -> f64 {
            lo + (hi - lo) * self.unit()
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        fn vec(&mut self, lo: f64, hi: f64) -> Vec3 {
            Vec3::new(self.range(lo, hi), self.range(lo, hi), self.range(lo, hi))
        }
        fn dir(&mut self) -> Vec3 {
            loop {
                let v = self.vec(-1.0, 1.0);
                let n = v.norm();
                if n > 0.1 && n <= 1.0 {
                    return v / n;
                }
            }
        }
        fn rotation(&mut self) -> Mat3 {
            let q = loop {
                let v = nalgebra::Vector4::new(
                    self.range(-1.0, 1.0),
                    self.range(-1.0, 1.0),
                    self.range(-1.0, 1.0),
                    self.range(-1.0, 1.0),
                );
                let n = v.norm();
                if n > 0.1 && n <= 1.0 {
                    break v / n;
                }
            };
            nalgebra::UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(
                q[0], q[1], q[2], q[3],
            ))
            .to_rotation_matrix()
            .into_inner()
        }
        /// A random rotation, sometimes axis-aligned (exact entries) or a quarter turn.
        fn rotation_mixed(&mut self) -> Mat3 {
            match self.below(4) {
                0 => Mat3::identity(),
                1 => Mat3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0),
                _ => self.rotation(),
            }
        }
    }

    fn corners(axes: &Mat3, corner: &Vec3, l: [f64; 2]) -> [Vec3; 4] {
        let (u, v) = (axes.column(0) * l[0], axes.column(1) * l[1]);
        [*corner, corner + u, corner + u + v, corner + v]
    }

    /// Reference rectangle distance: each rectangle as two triangles, the minimum of the four
    /// exact triangle distances.
    fn ref_rect_distance(
        aa: &Mat3,
        ac: &Vec3,
        al: [f64; 2],
        ba: &Mat3,
        bc: &Vec3,
        bl: [f64; 2],
    ) -> f64 {
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
        let on = s.corner
            + s.axes.column(0) * (s.lengths[0] * rng.unit())
            + s.axes.column(1) * (s.lengths[1] * rng.unit());
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
            let spread = zs.iter().cloned().fold(f64::NEG_INFINITY, f64::max)
                - zs.iter().cloned().fold(f64::INFINITY, f64::min);
            assert!(
                (s.radius - 0.5 * spread).abs() <= 1e-12 * (1.0 + center.amax()),
                "{} vs {}",
                s.radius,
                0.5 * spread
            );
            for p in &pts {
                let d = s.rectangle_point_distance(p);
                assert!(
                    d <= s.radius * (1.0 + 1e-12) + 1e-12 * (1.0 + p.amax()),
                    "point {p:?} at {d} > {}",
                    s.radius
                );
                assert!(s.contains_point(p));
            }
            total_points += n;
            // The rectangle is no larger than the points' extent along its axes.
            let xs: Vec<f64> = pts.iter().map(|p| axes.column(0).dot(p)).collect();
            let xspread = xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max)
                - xs.iter().cloned().fold(f64::INFINITY, f64::min);
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
        for &(h, ra, rb) in
            &[(3.0, 0.5, 0.25), (1.0, 0.0, 0.0), (0.75, 0.25, 0.5), (10.0, 1.0, 2.0)]
        {
            let a = Rss { axes: id, corner: Vec3::zeros(), lengths: [2.0, 1.0], radius: ra };
            let b = Rss {
                axes: id,
                corner: Vec3::new(0.5, 0.25, 0.0),
                lengths: [1.0, 3.0],
                radius: rb,
            };
            let d = rss_distance(&a, &b, &id, &Vec3::new(0.0, 0.0, h));
            assert!(
                (d - (h - ra - rb).max(0.0)).abs() <= 1e-11 * (1.0 + h),
                "{d} vs {}",
                h - ra - rb
            );
            // Same through a rotated frame for b (b's model turned a quarter around z).
            let rz = Mat3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0);
            let b2 = Rss {
                axes: rz.transpose(),
                corner: rz.transpose() * Vec3::new(0.5, 0.25, 0.0),
                ..b
            };
            let d2 = rss_distance(&a, &b2, &rz, &Vec3::new(0.0, 0.0, h));
            assert!((d2 - d).abs() <= 2e-12 * (1.0 + h));
        }
        // Coplanar rectangles side by side, gap g.
        let a = Rss { axes: id, corner: Vec3::zeros(), lengths: [1.0, 1.0], radius: 0.1 };
        let b =
            Rss { axes: id, corner: Vec3::new(1.5, 0.5, 0.0), lengths: [1.0, 1.0], radius: 0.2 };
        let d = rss_distance(&a, &b, &id, &Vec3::zeros());
        assert!((d - 0.2).abs() <= 2e-12);
        // Diagonal corners: corner-to-corner distance.
        let b =
            Rss { axes: id, corner: Vec3::new(2.0, 3.0, 0.0), lengths: [1.0, 1.0], radius: 0.0 };
        let d = rss_distance(&a, &b, &id, &Vec3::zeros());
        assert!((d - (1.0f64 + 4.0).sqrt() + 0.1).abs() <= 2e-12);
        // Perpendicular rectangles: b stands on edge above a's interior.
        let standing = Mat3::new(1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0); // b's y axis = +z
        let b = Rss {
            axes: standing,
            corner: Vec3::new(0.2, 0.5, 0.7),
            lengths: [0.5, 1.0],
            radius: 0.0,
        };
        let d = rss_distance(&a, &b, &id, &Vec3::zeros());
        assert!((d - 0.6).abs() <= 2e-12, "{d}");
        // Crossing rectangles: 0.
        let b = Rss {
            axes: standing,
            corner: Vec3::new(0.2, 0.5, -0.7),
            lengths: [0.5, 1.0],
            radius: 0.0,
        };
        assert_eq!(rss_distance(&a, &b, &id, &Vec3::zeros()), 0.0);
        // Overlapping volumes: 0.
        let b =
            Rss { axes: id, corner: Vec3::new(1.1, 0.0, 0.1), lengths: [1.0, 1.0], radius: 0.1 };
        assert_eq!(rss_distance(&a, &b, &id, &Vec3::zeros()), 0.0);
        // Degenerate rectangles: points and segments.
        let p =
            Rss { axes: id, corner: Vec3::new(0.5, 0.5, 2.0), lengths: [0.0, 0.0], radius: 0.5 };
        let d = rss_distance(&a, &p, &id, &Vec3::zeros());
        assert!((d - 1.4).abs() <= 2e-12);
        let s = Rss {
            axes: standing,
            corner: Vec3::new(3.0, 0.5, 0.0),
            lengths: [0.0, 5.0],
            radius: 0.0,
        };
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
            assert!(
                low <= 1e-12,
                "family {family}: {got} < {want}: {aa:?} {ac:?} {al:?} {ba:?} {bc:?} {bl:?}"
            );
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
            let rect =
                ref_rect_distance(&a.axes, &a.corner, a.lengths, &bw.axes, &bw.corner, b.lengths);
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
            let pa: Vec<Vec3> = (0..8)
                .map(|_| rng.vec(-1.0, 1.0).component_mul(&Vec3::new(1.0, 0.5, 0.1)))
                .collect();
            let pb: Vec<Vec3> = (0..8)
                .map(|_| rng.vec(-1.0, 1.0).component_mul(&Vec3::new(0.2, 1.0, 0.4)))
                .collect();
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
