//! [`triangle_contact`] against an exact rational reference: the extreme points of the exact
//! intersection of the two triangles (as these doubles), found by a different method (all
//! candidate corners in rationals, then those not in the hull of the others).

use super::*;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

type Q = BigRational;
type P = [Q; 3];

fn q(x: f64) -> Q {
    BigRational::from_float(x).unwrap()
}
fn qp(v: &Vec3) -> P {
    [q(v.x), q(v.y), q(v.z)]
}
fn sub(a: &P, b: &P) -> P {
    [&a[0] - &b[0], &a[1] - &b[1], &a[2] - &b[2]]
}
fn add(a: &P, b: &P) -> P {
    [&a[0] + &b[0], &a[1] + &b[1], &a[2] + &b[2]]
}
fn scale(a: &P, s: &Q) -> P {
    [&a[0] * s, &a[1] * s, &a[2] * s]
}
fn cross(a: &P, b: &P) -> P {
    [&a[1] * &b[2] - &a[2] * &b[1], &a[2] * &b[0] - &a[0] * &b[2], &a[0] * &b[1] - &a[1] * &b[0]]
}
fn dot(a: &P, b: &P) -> Q {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}
fn is_zero(a: &P) -> bool {
    a.iter().all(|x| x.is_zero())
}

/// `x` in the closed triangle `t` (a segment or point when it has no area).
fn in_triangle(x: &P, t: &[P; 3]) -> bool {
    let n = cross(&sub(&t[1], &t[0]), &sub(&t[2], &t[0]));
    if is_zero(&n) {
        // The segment between the two farthest-apart vertices.
        let pairs = [(0, 1), (1, 2), (0, 2)];
        let (i, j) = pairs
            .iter()
            .copied()
            .max_by_key(|&(i, j)| {
                let d = sub(&t[i], &t[j]);
                dot(&d, &d)
            })
            .unwrap();
        return on_segment(x, &t[i], &t[j]);
    }
    if !dot(&n, &sub(x, &t[0])).is_zero() {
        return false;
    }
    (0..3).all(|k| dot(&n, &cross(&sub(&t[(k + 1) % 3], &t[k]), &sub(x, &t[k]))) >= Q::zero())
}

fn on_segment(x: &P, s: &P, e: &P) -> bool {
    let (d, w) = (sub(e, s), sub(x, s));
    if is_zero(&d) {
        return is_zero(&w);
    }
    if !is_zero(&cross(&d, &w)) {
        return false;
    }
    let t = dot(&w, &d);
    t >= Q::zero() && t <= dot(&d, &d)
}

/// Where the lines `uv` and `se` meet at one point (coplanar, not parallel).
fn line_line(u: &P, v: &P, s: &P, e: &P) -> Option<P> {
    let (d1, d2) = (sub(v, u), sub(e, s));
    let c = cross(&d1, &d2);
    let cc = dot(&c, &c);
    if cc.is_zero() || !dot(&sub(s, u), &c).is_zero() {
        return None;
    }
    let alpha = dot(&cross(&sub(s, u), &d2), &c) / cc;
    Some(add(u, &scale(&d1, &alpha)))
}

/// The extreme points of the exact intersection of `a` and `b`.
fn exact_corners(a: &Triangle, b: &Triangle) -> Vec<P> {
    let (ta, tb) = (a.map(|v| qp(&v)), b.map(|v| qp(&v)));
    let mut cand: Vec<P> = Vec::new();
    for (t, o) in [(&ta, &tb), (&tb, &ta)] {
        for v in t.iter() {
            if in_triangle(v, o) {
                cand.push(v.clone());
            }
        }
        let n = cross(&sub(&o[1], &o[0]), &sub(&o[2], &o[0]));
        for k in 0..3 {
            let (u, v) = (&t[k], &t[(k + 1) % 3]);
            if !is_zero(&n) {
                let (du, dv) = (dot(&n, &sub(u, &o[0])), dot(&n, &sub(v, &o[0])));
                if du != dv {
                    let tau = &du / (&du - &dv);
                    if tau >= Q::zero() && tau <= Q::from_integer(BigInt::from(1)) {
                        let x = add(u, &scale(&sub(v, u), &tau));
                        if in_triangle(&x, o) {
                            cand.push(x);
                        }
                    }
                }
            }
            for m in 0..3 {
                if let Some(x) = line_line(u, v, &o[m], &o[(m + 1) % 3]) {
                    if on_segment(&x, u, v) && on_segment(&x, &o[m], &o[(m + 1) % 3]) {
                        cand.push(x);
                    }
                }
            }
        }
    }
    let mut distinct: Vec<P> = Vec::new();
    for c in cand {
        if !distinct.contains(&c) {
            distinct.push(c);
        }
    }
    // Extreme: not on a segment or in a triangle of three others.
    let n = distinct.len();
    (0..n)
        .filter(|&i| {
            let others: Vec<usize> = (0..n).filter(|&j| j != i).collect();
            for (x, &j) in others.iter().enumerate() {
                for (y, &k) in others.iter().enumerate().skip(x + 1) {
                    if on_segment(&distinct[i], &distinct[j], &distinct[k]) {
                        return false;
                    }
                    for &l in &others[y + 1..] {
                        let t = [distinct[j].clone(), distinct[k].clone(), distinct[l].clone()];
                        if in_triangle(&distinct[i], &t) {
                            return false;
                        }
                    }
                }
            }
            true
        })
        .map(|i| distinct[i].clone())
        .collect()
}

fn dist(x: &Vec3, p: &P) -> f64 {
    let d = sub(&qp(x), p);
    let f = d.map(|v| v.to_f64().unwrap());
    (f[0] * f[0] + f[1] * f[1] + f[2] * f[2]).sqrt()
}

/// Checks the contact of `a` and `b` against the exact reference; returns the bound relative
/// to the triangles' size (to check it is not vacuous).
fn check(a: &Triangle, b: &Triangle) -> Option<f64> {
    let got = triangle_contact(a, b);
    assert_eq!(got.is_some(), triangles_intersect(a, b));
    let got = got?;
    let exact = exact_corners(a, b);
    assert!(!exact.is_empty(), "{a:?} {b:?}");
    assert_eq!(got.len as usize, exact.len(), "corner count {a:?} {b:?}: {:?}", got.points());
    // A matching within the bound (greedy suffices: exact corners are far apart compared
    // with the bound in these fixtures, and the bound is certified).
    let mut used = vec![false; exact.len()];
    for x in got.points() {
        let k = (0..exact.len())
            .filter(|&k| !used[k])
            .min_by(|&i, &j| dist(x, &exact[i]).total_cmp(&dist(x, &exact[j])))
            .unwrap();
        let d = dist(x, &exact[k]);
        assert!(d <= got.error_bound, "{x:?} is {d:e} from the exact corner, bound {:e}: {a:?} {b:?}", got.error_bound);
        used[k] = true;
    }
    for (t, n, flag) in [(a, got.normal1, NORMAL1_DEGENERATE), (b, got.normal2, NORMAL2_DEGENERATE)] {
        assert!(n.iter().all(|v| v.is_finite()));
        if collinear(&t[0], &t[1], &t[2]) {
            assert_eq!(n, Vec3::zeros());
            assert!(got.flags & flag != 0);
        } else if got.flags & flag == 0 {
            assert!((n.norm() - 1.0).abs() < 1e-12);
            let e = (t[1] - t[0]).cross(&(t[2] - t[0]));
            if e.norm().is_finite() && e.norm() > 0.0 {
                assert!(n.dot(&e) > 0.0);
            }
        }
    }
    let size = a.iter().chain(b.iter()).map(|p| (p - a[0]).amax()).fold(0.0, f64::max);
    Some(got.error_bound / size.max(f64::MIN_POSITIVE))
}

fn t(p: [[f64; 3]; 3]) -> Triangle {
    p.map(|c| Vec3::new(c[0], c[1], c[2]))
}

const PERMS: [[usize; 3]; 6] = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]];

/// `check` for both orders and every vertex order, scaled by `2^s` and shifted by `shift`
/// (exact maps for these fixtures).
fn check_all(a: Triangle, b: Triangle, expect: bool) {
    for (s, shift) in [(0, 0.0), (300, 0.0), (-300, 0.0), (0, 1024.0), (-20, 3.0), (40, -2f64.powi(60))] {
        let m = |x: &Triangle| x.map(|p| p.map(|v| times_pow2(v, s) + shift));
        let (a, b) = (m(&a), m(&b));
        for pa in PERMS {
            for pb in PERMS {
                let (x, y) = ([a[pa[0]], a[pa[1]], a[pa[2]]], [b[pb[0]], b[pb[1]], b[pb[2]]]);
                assert_eq!(check(&x, &y).is_some(), expect, "{x:?} {y:?}");
                assert_eq!(check(&y, &x).is_some(), expect, "{y:?} {x:?}");
            }
        }
    }
}

const BASE: [[f64; 3]; 3] = [[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]];

#[test]
fn degenerate_fixtures_match_the_exact_intersection() {
    let a = t(BASE);
    let cases: Vec<(Triangle, bool)> = vec![
        // Shared vertex only.
        (t([[0.0, 0.0, 0.0], [-1.0, -2.0, 3.0], [-3.0, 1.0, 2.0]]), true),
        // Vertex on an edge's midpoint.
        (t([[2.0, 0.0, 0.0], [2.0, -1.0, 1.0], [3.0, -2.0, -1.0]]), true),
        // Vertex in the face.
        (t([[1.0, 1.0, 0.0], [1.0, 1.0, 2.0], [2.0, 3.0, 5.0]]), true),
        // Edge through the face, crossing it: a segment with one vertex end.
        (t([[1.0, 1.0, 0.0], [1.0, 1.0, 2.0], [2.0, 3.0, -5.0]]), true),
        // Edge-on-edge: b's edge crosses a's edge (x axis) at (2,0,0), otherwise apart.
        (t([[2.0, -1.0, 1.0], [2.0, 1.0, -1.0], [2.0, -3.0, -1.0]]), true),
        // Shared edge, b folded up.
        (t([[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [2.0, -1.0, 3.0]]), true),
        // Part of an edge shared.
        (t([[1.0, 0.0, 0.0], [6.0, 0.0, 0.0], [3.0, -1.0, 2.0]]), true),
        // Clean crossing (interlocked).
        (t([[1.0, 1.0, -1.0], [1.0, 1.0, 1.0], [-3.0, 1.0, 0.0]]), true),
        (t([[0.5, 0.5, -1.0], [3.0, 0.25, 2.0], [0.25, 3.0, 1.0]]), true),
        // Apart.
        (t([[3.0, 3.0, -1.0], [3.0, 3.0, 1.0], [5.0, 5.0, 0.0]]), false),
        // Zero-area triangles: a segment through the face, lying in it, a point.
        (t([[1.0, 1.0, -1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 0.5]]), true),
        (t([[-1.0, 1.0, 0.0], [5.0, 1.0, 0.0], [2.0, 1.0, 0.0]]), true),
        (t([[1.0, 0.5, 0.0]; 3]), true),
        (t([[4.0, 0.0, 0.0], [5.0, 0.0, 0.0], [6.0, 0.0, 0.0]]), true),
        (t([[-1.0, 2.0, 0.0], [1.0, 2.0, 0.0], [3.0, 2.0, 0.0]]), true),
    ];
    for (b, expect) in cases {
        check_all(a, b, expect);
    }
    // Coplanar, in z = 0 and lifted onto z = x + 2y.
    for lift in [false, true] {
        let l = |p: [[f64; 2]; 3]| t(p.map(|[x, y]| [x, y, if lift { x + 2.0 * y } else { 0.0 }]));
        let a = l([[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]]);
        for (b, expect) in [
            (l([[1.0, 1.0], [5.0, 1.0], [1.0, 5.0]]), true),   // partial overlap
            (l([[1.0, 1.0], [2.0, 1.0], [1.0, 2.0]]), true),   // containment
            (l([[2.0, 2.0], [5.0, 2.0], [2.0, 5.0]]), true),   // vertex on the hypotenuse
            (l([[1.0, 0.0], [6.0, 0.0], [3.0, -2.0]]), true),  // edge on edge
            (l([[-1.0, 3.0], [3.0, -1.0], [3.0, 3.0]]), true), // star of David: a hexagon
            (l([[4.0, 0.0], [6.0, 0.0], [5.0, -2.0]]), true),  // corner to corner
            (a, true),                                         // identical
            (l([[5.0, 5.0], [6.0, 5.0], [5.0, 6.0]]), false),
            (l([[-1.0, 1.0], [5.0, 1.0], [2.0, 1.0]]), true), // zero-area chord
        ] {
            check_all(a, b, expect);
        }
    }
}

#[test]
fn star_of_david_is_a_hexagon_and_shared_edge_a_segment() {
    let a = t(BASE);
    let star = t([[-1.0, 3.0, 0.0], [3.0, -1.0, 0.0], [3.0, 3.0, 0.0]]);
    let c = triangle_contact(&a, &star).unwrap();
    assert_eq!(c.len, 6);
    assert!(c.flags & COPLANAR != 0);
    let fold = t([[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [2.0, -1.0, 3.0]]);
    let c = triangle_contact(&a, &fold).unwrap();
    let mut pts: Vec<[f64; 3]> = c.points().iter().map(|p| [p.x, p.y, p.z]).collect();
    pts.sort_by(|x, y| x.partial_cmp(y).unwrap());
    assert_eq!(pts, vec![[0.0, 0.0, 0.0], [4.0, 0.0, 0.0]]);
    assert_eq!(c.error_bound, 0.0, "vertices are reported exactly");
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn int(&mut self, lo: i64, hi: i64) -> f64 {
        (lo + (self.next() % (hi - lo + 1) as u64) as i64) as f64
    }
}

/// Random doubles (generic crossings) and random small-grid integers (touching, coplanar,
/// collinear and coincident vertices), at scales `2^-300`, 1 and `2^300` and far from the origin.
#[test]
fn random_pairs_match_the_exact_intersection() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut hits, mut kinds) = (0, [0usize; 7]);
    let mut worst = 0.0f64;
    for round in 0..6000 {
        let grid = round % 2 == 0;
        let tri = |rng: &mut Rng| -> Triangle {
            [0; 3].map(|_| {
                if grid && round % 3 == 0 {
                    Vec3::new(rng.int(-2, 2), rng.int(-2, 2), 0.0) // coplanar
                } else if grid {
                    Vec3::new(rng.int(-2, 2), rng.int(-2, 2), rng.int(-1, 1))
                } else {
                    Vec3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5)
                }
            })
        };
        let (a, b) = (tri(&mut rng), tri(&mut rng));
        let (s, shift) = [(0, 0.0), (300, 0.0), (-300, 0.0), (0, 2f64.powi(30))][round % 4];
        let m = |x: &Triangle| x.map(|p| p.map(|v| times_pow2(v, s) + shift));
        let (a, b) = (m(&a), m(&b));
        if let Some(rel) = check(&a, &b) {
            hits += 1;
            kinds[triangle_contact(&a, &b).unwrap().len as usize] += 1;
            if !grid && shift == 0.0 {
                worst = worst.max(rel);
            }
        }
    }
    assert!(
        hits > 1000 && kinds[1] > 50 && kinds[2] > 500 && kinds[3..].iter().sum::<usize>() > 20,
        "{hits} {kinds:?}"
    );
    // Not a vacuous bound: generic random crossings are well conditioned.
    assert!(worst < 1e-9, "worst relative bound {worst:e}");
}

/// The crossing of an edge with a face does not depend on which of the edge's faces it is
/// computed for: neighbouring pairs give bitwise-identical points.
#[test]
fn shared_crossings_are_bitwise_identical() {
    let mut rng = Rng(12345);
    for _ in 0..2000 {
        let v = |rng: &mut Rng| Vec3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5) * 4.0;
        // Two faces sharing the edge (p, q), in both orientations, and a big face crossing it.
        let (p, q, r1, r2) = (v(&mut rng), v(&mut rng), v(&mut rng), v(&mut rng));
        let f = [v(&mut rng) * 3.0, v(&mut rng) * 3.0, v(&mut rng) * 3.0];
        let (t1, t2) = ([p, q, r1], [q, p, r2]);
        let (Some(c1), Some(c2)) = (triangle_contact(&t1, &f), triangle_contact(&t2, &f)) else { continue };
        let key = |c: &TriContact| {
            c.points().iter().map(|x| [x.x.to_bits(), x.y.to_bits(), x.z.to_bits()]).collect::<Vec<_>>()
        };
        let (k1, k2) = (key(&c1), key(&c2));
        // Both reach the edge iff the edge crosses f's interior; then they share that point.
        let on_edge = |x: &Vec3| {
            let d = (x - p).cross(&(q - p)).norm() / (q - p).norm();
            d < 1e-9
        };
        let e1: Vec<_> = c1.points().iter().filter(|x| on_edge(x)).collect();
        let e2: Vec<_> = c2.points().iter().filter(|x| on_edge(x)).collect();
        if e1.len() == 1 && e2.len() == 1 {
            assert!(k1.iter().any(|k| k2.contains(k)), "{c1:?} {c2:?}");
        }
    }
}

/// Two edges crossing exactly at an interior point (each with its two faces): the four face
/// pairs that reach the crossing all report it bitwise identically (so curves chain there).
#[test]
fn edge_edge_crossings_are_bitwise_identical_for_all_four_pairs() {
    let mut rng = Rng(77);
    let mut seen = 0;
    for round in 0..200 {
        // Exact maps (dyadic scales and offsets), so the edges still cross exactly.
        let k = [1.0, 3.0, 7.0, 0.125][round % 4];
        let o = Vec3::new(rng.int(-50, 50), rng.int(-50, 50), rng.int(-50, 50)) * 0.375;
        let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z) * k + o;
        // eA from p to q and eB from b0 to b1 cross at (1/3, 1/3, 0), not a double: each pair
        // rounds it, and only canonical inputs make them agree.
        let (p, q) = (v(0.0, 0.0, 0.0), v(1.0, 1.0, 0.0));
        let (b0, b1) = (v(1.0, 0.0, -1.0), v(-1.0, 1.0, 2.0));
        let r = |rng: &mut Rng| v(rng.int(-4, 4), rng.int(-4, 4), rng.int(-4, 4));
        let faces_a = [[p, q, r(&mut rng)], [q, p, r(&mut rng)]];
        let faces_b = [[b0, b1, r(&mut rng)], [b1, b0, r(&mut rng)]];
        let x = v(1.0 / 3.0, 1.0 / 3.0, 0.0);
        // (Zero-area faces take the segment path, which does not see the other edge.)
        if faces_a.iter().chain(&faces_b).any(|f| collinear(&f[0], &f[1], &f[2])) {
            continue;
        }
        let mut keys = Vec::new();
        for fa in &faces_a {
            for fb in &faces_b {
                for c in [triangle_contact(fa, fb), triangle_contact(fb, fa)].into_iter().flatten() {
                    for pt in c.points() {
                        if (pt - x).norm() <= 1e-9 * k.max(o.amax()) {
                            keys.push([pt.x.to_bits(), pt.y.to_bits(), pt.z.to_bits()]);
                        }
                    }
                }
            }
        }
        if keys.len() >= 2 {
            seen += 1;
            assert!(keys.iter().all(|key| *key == keys[0]), "round {round}: {keys:?}");
        }
    }
    assert!(seen > 100, "{seen}");
}

/// Near the top of the supported range (coordinates up to 2^1000) a crossing's bound stays
/// finite and scales with the triangles: it is a Euclidean norm of per-coordinate errors,
/// which must not square them into an overflow (it was infinite past about 1e154).
#[test]
fn bounds_stay_finite_at_the_top_of_the_range() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut hits = 0;
    for _ in 0..3000 {
        let tri = |rng: &mut Rng| -> Triangle {
            [0; 3].map(|_| Vec3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5))
        };
        let (a, b) = (tri(&mut rng), tri(&mut rng));
        let Some(unit) = triangle_contact(&a, &b) else { continue };
        hits += 1;
        for s in [200, 600, 900, 1000] {
            let m = |x: &Triangle| x.map(|p| p.map(|v| times_pow2(v, s)));
            let c = triangle_contact(&m(&a), &m(&b)).expect("an exact scaling keeps the crossing");
            let want = times_pow2(unit.error_bound, s);
            assert!(
                c.error_bound.is_finite()
                    && c.error_bound <= want * (1.0 + 1e-9)
                    && c.error_bound >= want * (1.0 - 1e-9),
                "scale 2^{s}: bound {:e}, 2^{s} times the unit one {want:e}: {a:?} {b:?}",
                c.error_bound
            );
        }
    }
    assert!(hits > 300, "{hits} crossings");
}
