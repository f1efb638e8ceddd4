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
    pub center: Vec3,
    pub radius: f64,
}

impl Sphere {
    /// A sphere holding every point of `points` (which must not be empty, and which this
    /// reorders), all of which lie in the box `bound`: the smallest one (Welzl,
    /// move-to-front, on a deterministic shuffle), or the one about the box centre when
    /// rounding in a degenerate support set throws the former's centre out of the box.
    ///
    /// Enclosure is what the collide query relies on, so the radius is re-measured from the
    /// chosen centre over *all* points and padded by more than the rounding of that measure:
    /// each point `p` satisfies `|p - center| <= radius` in exact arithmetic.
    pub fn enclosing(points: &mut [Vec3], bound: &Obb) -> Sphere {
        Sphere::enclosing_with_hints(points, 0, bound).0
    }

    /// [`Sphere::enclosing`], where the first `hints` points are likely on the sphere (the
    /// support points of the spheres of parts of the set, say). Also returns the support
    /// points found (at most 4).
    ///
    /// Large sets are not searched whole: Welzl runs on a small candidate set (the hints),
    /// then one pass over the points adds the farthest one outside its ball, until none is.
    /// The ball of the candidates then holds every point, so it is the smallest ball of the
    /// whole set too; each pass is a distance per point, where Welzl's recursion costs many.
    pub fn enclosing_with_hints(points: &mut [Vec3], hints: usize, bound: &Obb) -> (Sphere, Support) {
        assert!(!points.is_empty(), "a sphere needs at least one point");
        const SMALL: usize = 6;
        const ROUNDS: usize = 32;
        let hints = hints.min(points.len());
        let mut ball = None;
        if points.len() > SMALL && hints > 0 {
            let mut candidates: Vec<Vec3> = points[..hints].to_vec();
            for _ in 0..ROUNDS {
                let mut support = [Vec3::zeros(); 4];
                let n = candidates.len();
                shuffle(&mut candidates);
                let b = welzl(&mut candidates, n, &mut support, 0);
                let farthest = points[hints..]
                    .iter()
                    .map(|p| ((p - b.center).norm_squared(), p))
                    .filter(|(d2, _)| *d2 > b.radius2 * (1.0 + 1e-12))
                    .max_by(|x, y| x.0.total_cmp(&y.0));
                match farthest {
                    Some((_, p)) => candidates.push(*p),
                    None => {
                        ball = Some(b);
                        break;
                    }
                }
            }
        }
        let ball = ball.unwrap_or_else(|| {
            // Small sets, and the rare set the rounds above do not settle: Welzl on all.
            shuffle(&mut points[hints..]);
            let mut support = [Vec3::zeros(); 4];
            let n = points.len();
            welzl(points, n, &mut support, 0)
        });
        // The true centre lies in the convex hull of the points, so in the box; one outside
        // it comes from a degenerate support set. (The collide query's rounding bound counts
        // on centres no farther out than the points.)
        let tol = 1e-9 * bound.size();
        let center = if ball.center.iter().all(|v| v.is_finite()) && bound.contains(&ball.center, tol) {
            ball.center
        } else {
            bound.center
        };
        (Sphere { center, radius: pad(reach(points, &center)) }, ball.support)
    }

    /// True when `p` is within the sphere (up to `tolerance`); for tests and validation.
    pub fn contains(&self, p: &Vec3, tolerance: f64) -> bool {
        (p - self.center).norm() <= self.radius + tolerance
    }
}

/// The largest distance from `c` to a point.
fn reach(points: &[Vec3], c: &Vec3) -> f64 {
    points.iter().map(|p| (p - c).norm_squared()).fold(0.0, f64::max).sqrt()
}

/// Pads a measured radius past the rounding of the measure: the difference `p - c` is rounded
/// per coordinate (relative error ≤ ε/2), the sum of squares and the root add a few ε more,
/// so `(1 + 16ε)` is a safe bound on the true distance over the computed one.
#[inline]
fn pad(r: f64) -> f64 {
    r * (1.0 + 16.0 * f64::EPSILON) + f64::MIN_POSITIVE
}

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
    pub points: [Vec3; 4],
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
            if !(den > 1e-24 * scale) {
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
            if !(det.abs() > 1e-12 * scale) {
                farthest_pair(s)
            } else {
                let offset =
                    (v.cross(&w) * u.norm_squared() + w.cross(&u) * v.norm_squared() + u.cross(&v) * w.norm_squared()) / det;
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

/// Centre and squared radius of the ball over the farthest pair of `s`, grown to hold all of
/// `s` (for degenerate support sets).
fn farthest_pair(s: &[Vec3]) -> (Vec3, f64) {
    let mut best = (0, 0, -1.0);
    for i in 0..s.len() {
        for j in i + 1..s.len() {
            let d = (s[i] - s[j]).norm_squared();
            if d > best.2 {
                best = (i, j, d);
            }
        }
    }
    let c = (s[best.0] + s[best.1]) * 0.5;
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
        Sphere::enclosing(&mut points.to_vec(), &bound(points))
    }

    #[test]
    fn encloses_and_is_nearly_minimal() {
        let mut seed = 0x1234_5678u64;
        for round in 0..300 {
            let n = 1 + round % 40;
            let pts: Vec<Vec3> = (0..n)
                .map(|_| Vec3::new(rng(&mut seed) - 0.5, rng(&mut seed) - 0.5, (rng(&mut seed) - 0.5) * 0.3))
                .collect();
            let s = Sphere::enclosing(&mut pts.clone(), &bound(&pts));
            assert!(pts.iter().all(|p| s.contains(p, 0.0)), "round {round}");
            // Minimal: a random sample of directions cannot shrink it by moving the centre.
            for _ in 0..20 {
                let dir = Vec3::new(rng(&mut seed) - 0.5, rng(&mut seed) - 0.5, rng(&mut seed) - 0.5) * 1e-3;
                let c = s.center + dir;
                assert!(reach(&pts, &c) >= s.radius * (1.0 - 1e-9), "round {round}");
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
        let t = [Vec3::new(1.0, 1.0, 1.0), Vec3::new(1.0, -1.0, -1.0), Vec3::new(-1.0, 1.0, -1.0), Vec3::new(-1.0, -1.0, 1.0)];
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
