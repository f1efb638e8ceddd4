//! Bounding spheres: the smallest enclosing sphere of a point set (Welzl's algorithm), padded
//! so that every point is inside in floating point too.
//!
//! The collide query's Dual test (Chang, Wang, Kim 2010) tries the spheres of a node pair
//! before any box axis: a sphere test needs no rotation, only the distance of two centres.

use crate::bv::obb::Obb;
use crate::math::Vec3;

/// The ball of all points within `radius` of `center`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sphere {
    /// The ball's centre.
    pub center: Vec3,
    /// The ball's radius.
    pub radius: f64,
}

impl Sphere {
    /// A sphere holding every point of `points` (which must not be empty), all of which lie
    /// in the box `bound`: the smallest one (Welzl), or the one about the box centre when
    /// rounding in a degenerate support set throws the former's centre out of the box.
    ///
    /// Enclosure is what the collide query relies on, so the radius is re-measured from the
    /// chosen centre over *all* points and padded by more than the rounding of that measure:
    /// each point `p` satisfies `|p - center| <= radius` in exact arithmetic.
    pub fn enclosing(points: &[Vec3], bound: &Obb) -> Sphere {
        Sphere::enclosing_with_support(points, bound).0
    }

    /// [`Sphere::enclosing`], also returning the support points found (at most 4).
    pub fn enclosing_with_support(points: &[Vec3], bound: &Obb) -> (Sphere, Support) {
        assert!(!points.is_empty(), "a sphere needs at least one point");
        if points.len() <= 3 {
            // A triangle (a leaf): the ball over its longest edge if it holds the third
            // corner, else the circumscribed one.
            let (i, j) = farthest_pair_indices(points);
            let edge = ball_through(&[points[i], points[j]]);
            let ball = if points.iter().all(|p| edge.holds(p)) { edge } else { ball_through(points) };
            return finish(&mut &*points, &ball, bound);
        }
        Sphere::enclosing_set(&mut &*points, &[], bound)
    }

    /// [`Sphere::enclosing`] for a point set known through [`PointSet`] queries, given
    /// `hints`: points of the set likely on the sphere (the support points of the spheres
    /// of parts of the set, say). Also returns the support points found (at most 4).
    ///
    /// The set is not searched whole: Welzl runs on a small candidate set (the hints), then
    /// the farthest point outside its ball joins the candidates, until none is outside. The
    /// ball of the candidates then holds every point, so it is the smallest ball of the whole
    /// set too (and a point outside the smallest ball of a set lies on the smallest ball of
    /// the set with it, so each addition is one Welzl search with it on the boundary).
    pub fn enclosing_set(set: &mut impl PointSet, hints: &[Vec3], bound: &Obb) -> (Sphere, Support) {
        const ROUNDS: usize = 64;
        let mut candidates: Vec<Vec3> = hints.to_vec();
        if candidates.is_empty() {
            candidates.extend(set.farthest(&bound.center, -1.0).map(|(_, p)| p));
        }
        shuffle(&mut candidates);
        let mut support = [Vec3::zeros(); 4];
        let n = candidates.len();
        let mut ball = welzl(&mut candidates, n, &mut support, 0);
        let mut settled = false;
        for _ in 0..ROUNDS {
            let Some((_, p)) = set.farthest(&ball.center, ball.radius2 * (1.0 + 1e-12)) else {
                settled = true;
                break;
            };
            support[0] = p;
            let n = candidates.len();
            ball = welzl(&mut candidates, n, &mut support, 1);
            candidates.insert(0, p);
        }
        if !settled {
            // A set the rounds do not settle: Welzl on all of it.
            let mut all = Vec::new();
            set.collect(&mut all);
            shuffle(&mut all);
            let n = all.len();
            ball = welzl(&mut all, n, &mut support, 0);
        }
        finish(set, &ball, bound)
    }

    /// True when `p` is within the sphere (up to `tolerance`); for tests and validation.
    pub fn contains(&self, p: &Vec3, tolerance: f64) -> bool {
        (p - self.center).norm() <= self.radius + tolerance
    }
}

/// A set of points the enclosing-sphere search asks questions of, rather than scanning it:
/// a hierarchy answers them looking only near the sphere.
pub trait PointSet {
    /// The point farthest from `c` among those whose squared distance (rounded as
    /// `(p - c).norm_squared()`) exceeds `beyond2`, with that squared distance.
    fn farthest(&mut self, c: &Vec3, beyond2: f64) -> Option<(f64, Vec3)>;
    /// Appends every point to `out`.
    fn collect(&mut self, out: &mut Vec<Vec3>);
}

impl PointSet for &[Vec3] {
    fn farthest(&mut self, c: &Vec3, beyond2: f64) -> Option<(f64, Vec3)> {
        let mut best = (beyond2, None);
        for p in self.iter() {
            let d2 = (p - c).norm_squared();
            if d2 > best.0 {
                best = (d2, Some(*p));
            }
        }
        best.1.map(|p| (best.0, p))
    }
    fn collect(&mut self, out: &mut Vec<Vec3>) {
        out.extend_from_slice(self);
    }
}

/// The sphere of `ball`'s centre (or the box centre, if rounding threw it out of the box)
/// with the radius re-measured over the whole set and padded.
fn finish(set: &mut impl PointSet, ball: &Ball, bound: &Obb) -> (Sphere, Support) {
    // The true centre lies in the convex hull of the points, so in the box; one outside it
    // comes from a degenerate support set. (The collide query's rounding bound counts on
    // centres no farther out than the points.)
    let tol = 1e-9 * bound.size();
    let center = if ball.center.iter().all(|v| v.is_finite()) && bound.contains(&ball.center, tol) {
        ball.center
    } else {
        bound.center
    };
    let reach2 = set.farthest(&center, -1.0).map_or(0.0, |(d2, _)| d2);
    (Sphere { center, radius: pad(reach2.sqrt()) }, ball.support)
}

/// The largest distance from `c` to a point.
#[cfg(test)]
fn reach(points: &[Vec3], c: &Vec3) -> f64 {
    points.iter().map(|p| (p - c).norm_squared()).fold(0.0, f64::max).sqrt()
}

/// Pads a measured radius past the rounding of the measure: the difference `p - c` is rounded
/// per coordinate (relative error ≤ ε/2), the sum of squares and the root add a few ε more,
/// so `(1 + 16ε)` is a safe bound on the true distance over the computed one while nothing
/// underflows. Squares of distances below about 2^-511 underflow (absolute error up to
/// 3·2^-1075 in the sum, so at most 2^-536 in the root): the absolute `2^-470` covers that,
/// for the searches' pruning by these spheres too. (So the spheres of models smaller than
/// about 1e-140 are wider than the models and prune little; their boxes still prune. A
/// square that overflows, for distances beyond 2^511, gives an infinite radius: a sphere
/// that prunes nothing.)
#[inline]
fn pad(r: f64) -> f64 {
    r * (1.0 + 16.0 * f64::EPSILON) + UNDERFLOW_PAD
}

/// 2^-470: see [`pad`].
const UNDERFLOW_PAD: f64 = 3.2802129431479926e-142;

/// A fixed-seed Fisher–Yates shuffle: Welzl's expected linear time wants a random order,
/// and mesh vertices come spatially sorted. Deterministic, so a model rebuilt from its parts
/// gets the very same spheres.
fn shuffle(points: &mut [Vec3]) {
    let mut state = 0x9e37_79b9_7f4a_7c15u64 ^ points.len() as u64;
    for i in (1..points.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let j = (state % (i as u64 + 1)) as usize;
        points.swap(i, j);
    }
}

/// The points a smallest enclosing ball rests on: `points[..len]`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Support {
    /// Support points; only the first `len` are used.
    pub points: [Vec3; 4],
    /// Number of support points in use (0 to 4).
    pub len: usize,
}

/// A candidate ball during the search; the radius is kept squared.
#[derive(Clone, Copy)]
struct Ball {
    center: Vec3,
    radius2: f64,
    support: Support,
}

impl Ball {
    #[inline]
    fn holds(&self, p: &Vec3) -> bool {
        // A relative tolerance keeps the search from chasing rounding; enclosure is restored
        // afterwards by re-measuring the radius over all points.
        (p - self.center).norm_squared() <= self.radius2 * (1.0 + 1e-12)
    }
}

/// Welzl's algorithm with move-to-front: the smallest ball holding `points[..n]` with the
/// `k` points of `support` on its boundary.
fn welzl(points: &mut [Vec3], n: usize, support: &mut [Vec3; 4], k: usize) -> Ball {
    let mut ball = ball_through(&support[..k]);
    if k == 4 {
        return ball;
    }
    for i in 0..n {
        let p = points[i];
        if !ball.holds(&p) {
            support[k] = p;
            ball = welzl(points, i, support, k + 1);
            points[..=i].rotate_right(1);
        }
    }
    ball
}

/// The smallest ball with all of `s` (at most 4 points) on its boundary; degenerate sets
/// (collinear triples, coplanar quadruples) get the ball over their farthest pair, which
/// the caller's re-measure makes safe.
fn ball_through(s: &[Vec3]) -> Ball {
    let (center, radius2) = match s.len() {
        0 => (Vec3::zeros(), -1.0),
        1 => (s[0], 0.0),
        2 => {
            let c = (s[0] + s[1]) * 0.5;
            (c, max_dist2(s, &c))
        }
        3 => {
            let (u, v) = (s[1] - s[0], s[2] - s[0]);
            let w = u.cross(&v);
            let den = 2.0 * w.norm_squared();
            let scale = u.norm_squared() * v.norm_squared();
            // (Also when NaN: then the comparison is not `Greater`.)
            if den.partial_cmp(&(1e-24 * scale)) != Some(std::cmp::Ordering::Greater) {
                farthest_pair(s)
            } else {
                let c = s[0] + (v * u.norm_squared() - u * v.norm_squared()).cross(&w) / den;
                (c, max_dist2(s, &c))
            }
        }
        _ => {
            let (u, v, w) = (s[1] - s[0], s[2] - s[0], s[3] - s[0]);
            let det = 2.0 * u.dot(&v.cross(&w));
            let scale = u.norm() * v.norm() * w.norm();
            if det.abs().partial_cmp(&(1e-12 * scale)) != Some(std::cmp::Ordering::Greater) {
                farthest_pair(s)
            } else {
                let offset =
                    (v.cross(&w) * u.norm_squared() + w.cross(&u) * v.norm_squared() + u.cross(&v) * w.norm_squared())
                        / det;
                let c = s[0] + offset;
                (c, max_dist2(s, &c))
            }
        }
    };
    let mut support = Support { points: [Vec3::zeros(); 4], len: s.len() };
    support.points[..s.len()].copy_from_slice(s);
    Ball { center, radius2, support }
}

fn max_dist2(s: &[Vec3], c: &Vec3) -> f64 {
    s.iter().map(|p| (p - c).norm_squared()).fold(0.0, f64::max)
}

/// The two points of `s` farthest apart.
fn farthest_pair_indices(s: &[Vec3]) -> (usize, usize) {
    let mut best = (0, 0, -1.0);
    for i in 0..s.len() {
        for j in i + 1..s.len() {
            let d = (s[i] - s[j]).norm_squared();
            if d > best.2 {
                best = (i, j, d);
            }
        }
    }
    (best.0, best.1)
}

/// Centre and squared radius of the ball over the farthest pair of `s`, grown to hold all of
/// `s` (for degenerate support sets).
fn farthest_pair(s: &[Vec3]) -> (Vec3, f64) {
    let (i, j) = farthest_pair_indices(s);
    let c = (s[i] + s[j]) * 0.5;
    (c, max_dist2(s, &c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Mat3;

    fn rng(seed: &mut u64) -> f64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        (*seed >> 11) as f64 / (1u64 << 53) as f64
    }

    fn bound(points: &[Vec3]) -> Obb {
        Obb::fit(&Mat3::identity(), points.iter().copied(), 0.0)
    }

    fn enclosing(points: &[Vec3]) -> Sphere {
        Sphere::enclosing(points, &bound(points))
    }

    #[test]
    fn encloses_and_is_nearly_minimal() {
        let mut seed = 0x1234_5678u64;
        for round in 0..300 {
            let n = 1 + round % 40;
            let pts: Vec<Vec3> = (0..n)
                .map(|_| Vec3::new(rng(&mut seed) - 0.5, rng(&mut seed) - 0.5, (rng(&mut seed) - 0.5) * 0.3))
                .collect();
            let s = Sphere::enclosing(&pts, &bound(&pts));
            assert!(pts.iter().all(|p| s.contains(p, 0.0)), "round {round}");
            // Minimal: a random sample of directions cannot shrink it by moving the centre.
            for _ in 0..20 {
                let dir = Vec3::new(rng(&mut seed) - 0.5, rng(&mut seed) - 0.5, rng(&mut seed) - 0.5) * 1e-3;
                let c = s.center + dir;
                assert!(reach(&pts, &c) >= s.radius * (1.0 - 1e-9), "round {round}");
            }
        }
    }

    /// Tiny and huge point sets, where squared distances underflow or overflow: every point
    /// is still enclosed (the radius may be wider than needed, or infinite).
    #[test]
    fn encloses_at_every_scale() {
        assert_eq!(UNDERFLOW_PAD, 2f64.powi(-470));
        let mut seed = 0x5ca1_ab1e_u64;
        for e in [-1070, -1000, -700, -520, -480, -300, 0, 300, 500, 520, 1000] {
            let s = 2f64.powi(e);
            for _ in 0..20 {
                let pts: Vec<Vec3> = (0..1 + (rng(&mut seed) * 30.0) as usize)
                    .map(|_| Vec3::new(rng(&mut seed) - 0.5, rng(&mut seed) - 0.5, rng(&mut seed) - 0.5) * s)
                    .collect();
                let sphere = enclosing(&pts);
                for p in &pts {
                    // Exactly: |p - c| <= r, checked on coordinates scaled back to order one.
                    let k = |x: Vec3| x * 2f64.powi(-e / 2) * 2f64.powi(-e - (-e / 2));
                    let d = (k(*p) - k(sphere.center)).norm();
                    let r = k(Vec3::new(sphere.radius, 0.0, 0.0)).x;
                    assert!(d <= r * (1.0 + 1e-15) || sphere.radius.is_infinite(), "2^{e}: {d} > {r}");
                }
            }
        }
    }

    #[test]
    fn known_spheres_and_degenerate_sets() {
        let x = Vec3::x();
        let y = Vec3::y();
        // Right triangle: the hypotenuse's midpoint.
        let s = enclosing(&[Vec3::zeros(), x, y]);
        assert!((s.center - Vec3::new(0.5, 0.5, 0.0)).norm() < 1e-12);
        assert!((s.radius - 0.5f64.sqrt()).abs() < 1e-12);
        // Regular tetrahedron: its circumsphere.
        let t = [
            Vec3::new(1.0, 1.0, 1.0),
            Vec3::new(1.0, -1.0, -1.0),
            Vec3::new(-1.0, 1.0, -1.0),
            Vec3::new(-1.0, -1.0, 1.0),
        ];
        let s = enclosing(&t);
        assert!(s.center.norm() < 1e-12 && (s.radius - 3f64.sqrt()).abs() < 1e-12);
        // Collinear, repeated and single points.
        for pts in [vec![Vec3::zeros(), x, x * 2.0, x * 0.5], vec![x, x, x], vec![y]] {
            let s = enclosing(&pts);
            assert!(pts.iter().all(|p| s.contains(p, 0.0)));
        }
        let s = enclosing(&[Vec3::zeros(), x * 2.0, x]);
        assert!((s.center - x).norm() < 1e-12 && (s.radius - 1.0).abs() < 1e-12);
    }
}
