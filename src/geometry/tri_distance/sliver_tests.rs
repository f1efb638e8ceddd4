//! `triangle_distance` on slivers and needles against an exact reference: integer coordinates
//! (exact in `f64`, then moved far from the origin and scaled by powers of two, both exact),
//! the squared distance of every candidate (nine edge pairs, six vertex–face feet) computed
//! exactly in `i128` and rounded once, and the exact intersection predicate for the zero case.

use super::*;
use crate::geometry::tri_intersect::triangles_intersect;
use crate::test_rng::{Rng, budget};

type I3 = [i128; 3];

fn sub(a: I3, b: I3) -> I3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: I3, b: I3) -> i128 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: I3, b: I3) -> I3 {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// Squared distance from `x` to the segment `[p0, p1]` (coordinates below 2^21 in magnitude
/// difference: every intermediate fits), rounded from the exact rational.
fn point_segment2(x: I3, p0: I3, p1: I3) -> f64 {
    let (d, r) = (sub(p1, p0), sub(x, p0));
    let (dd, t) = (dot(d, d), dot(r, d));
    if dd == 0 || t <= 0 {
        dot(r, r) as f64
    } else if t >= dd {
        let r1 = sub(x, p1);
        dot(r1, r1) as f64
    } else {
        let c = cross(r, d);
        dot(c, c) as f64 / dd as f64
    }
}

/// Squared distance of two segments: the interior pair of the lines when both parameters are
/// strictly inside, else the least endpoint–segment distance.
fn segment_segment2(p0: I3, p1: I3, q0: I3, q1: I3) -> f64 {
    let mut best = point_segment2(p0, q0, q1)
        .min(point_segment2(p1, q0, q1))
        .min(point_segment2(q0, p0, p1))
        .min(point_segment2(q1, p0, p1));
    let (d1, d2, r) = (sub(p1, p0), sub(q1, q0), sub(q0, p0));
    let n = cross(d1, d2);
    let nn = dot(n, n);
    if nn > 0 {
        let s = dot(cross(r, d2), n);
        let t = dot(cross(r, d1), n);
        if 0 < s && s < nn && 0 < t && t < nn {
            let h = dot(r, n) as f64;
            best = best.min(h * h / nn as f64);
        }
    }
    best
}

/// Squared distance from `x` to its foot on the face of `t` when the foot is in the closed
/// triangle (non-degenerate `t`).
fn vertex_face2(x: I3, t: &[I3; 3]) -> Option<f64> {
    let n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
    let nn = dot(n, n);
    if nn == 0 {
        return None;
    }
    let inside = (0..3).all(|k| dot(n, cross(sub(t[(k + 1) % 3], t[k]), sub(x, t[k]))) >= 0);
    inside.then(|| {
        let h = dot(n, sub(x, t[0])) as f64;
        h * h / nn as f64
    })
}

/// The exact squared distance of two disjoint triangles (rounded once per candidate).
fn exact_distance2(a: &[I3; 3], b: &[I3; 3]) -> f64 {
    let mut best = f64::INFINITY;
    for i in 0..3 {
        for j in 0..3 {
            best = best.min(segment_segment2(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3]));
        }
        if let Some(d) = vertex_face2(a[i], b) {
            best = best.min(d);
        }
        if let Some(d) = vertex_face2(b[i], a) {
            best = best.min(d);
        }
    }
    best
}

fn to_f64(t: &[I3; 3], offset: &Vec3, scale: f64) -> Triangle {
    t.map(|p| (Vec3::new(p[0] as f64, p[1] as f64, p[2] as f64) + offset) * scale)
}

/// Worst error seen, in units of ε times the largest coordinate, and counts.
#[derive(Default, Debug)]
struct Stats {
    worst: f64,
    pairs: usize,
    meeting: usize,
    near: usize,
}

/// Checks `triangle_distance` (both argument orders) on the integer pair `(a, b)` moved by
/// `offset` (integers) and scaled by `scale` (a power of two) against the exact reference:
/// 0 exactly when the closed triangles meet, otherwise positive and within `ulps` rounding
/// units of the largest coordinate of the true distance.
fn check(a: &[I3; 3], b: &[I3; 3], offset: &Vec3, scale: f64, ulps: f64, stats: &mut Stats) {
    let (fa, fb) = (to_f64(a, offset, scale), to_f64(b, offset, scale));
    let m = fa.iter().chain(&fb).map(|p| p.amax()).fold(0.0, f64::max) / scale;
    let meet = triangles_intersect(&fa, &fb);
    let want = if meet { 0.0 } else { exact_distance2(a, b).sqrt() };
    stats.pairs += 1;
    stats.meeting += meet as usize;
    stats.near += (!meet && want <= 1e-6 * m) as usize;
    for (x, y) in [(&fa, &fb), (&fb, &fa)] {
        let got = triangle_distance(x, y).distance / scale;
        if meet {
            assert_eq!(
                got, 0.0,
                "meeting triangles at distance {got:e}: {a:?} {b:?} offset {offset:?} scale {scale:e}"
            );
        } else {
            assert!(
                got > 0.0,
                "disjoint triangles (distance {want:e}) at 0: {a:?} {b:?} offset {offset:?} scale {scale:e}"
            );
            let err = (got - want).abs() / (f64::EPSILON * m);
            stats.worst = stats.worst.max(err);
            assert!(
                err <= ulps,
                "distance {got:e}, exact {want:e} ({err:.1} ulps of {m:e}): {a:?} {b:?} offset {offset:?} scale {scale:e}"
            );
        }
    }
}

fn int_vec(rng: &mut Rng, r: i64) -> I3 {
    std::array::from_fn(|_| rng.below(2 * r as u64 + 1) as i128 - r as i128)
}

/// A random integer vector of length about `len` (at least 1 unit in some coordinate).
fn int_dir(rng: &mut Rng, len: f64) -> I3 {
    loop {
        let d = rng.dir() * len;
        let v = [d.x.round() as i128, d.y.round() as i128, d.z.round() as i128];
        if v != [0, 0, 0] {
            return v;
        }
    }
}

fn add(a: I3, b: I3) -> I3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn mul(a: I3, k: i128) -> I3 {
    [a[0] * k, a[1] * k, a[2] * k]
}

/// A triangle around the integer point `c` with the given shape, whose long edges are about
/// `len` (coordinates stay within 2^20 for `|c| ≤ 2^19`, `len ≤ 2^18`):
/// 0 a needle (two vertices a few units apart, like the sweep's repro), 1 a cap (the third
/// vertex a few units off the middle of the long edge), 2 an ordinary triangle, 3 a segment
/// (collinear vertices), with `c` its centroid (exactly inside) for shapes 0–2.
fn shaped(rng: &mut Rng, c: I3, len: f64, shape: u64) -> [I3; 3] {
    let u = int_dir(rng, len);
    let small = 10f64.powf(rng.range(0.0, 1.5));
    let (p, q) = match shape {
        0 => {
            let w = add(u, int_dir(rng, small));
            (u, w)
        }
        1 => {
            // c + u, c − u + s, c − s: a cap of height about |s|.
            let s = int_dir(rng, small);
            (u, sub(s, u))
        }
        2 => (u, int_dir(rng, len)),
        _ => {
            let k = rng.below(4) as i128 + 1;
            return [add(c, u), sub(c, mul(u, k)), add(c, mul(u, k + 1))];
        }
    };
    [add(c, p), add(c, q), sub(sub(c, p), q)]
}

/// A second triangle meeting `a` at its centroid-ish point `x` (exactly a point of `a`): with
/// a vertex there, an edge through it, or its own centroid there; then sometimes nudged by a
/// unit or two (near-touching at the lattice's resolution) and rotated in its vertex order.
fn near(rng: &mut Rng, x: I3, len: f64) -> [I3; 3] {
    let shape = rng.below(4);
    let mut b = match rng.below(3) {
        0 => {
            let t = shaped(rng, x, len, shape);
            let d = sub(x, t[0]);
            t.map(|p| add(p, d))
        }
        1 => {
            let u = int_dir(rng, len);
            let k = rng.below(3) as i128 + 1;
            let w = int_dir(rng, if shape == 0 { 3.0 } else { len });
            [add(x, u), sub(x, mul(u, k)), add(add(x, u), w)]
        }
        _ => shaped(rng, x, len, shape),
    };
    if rng.below(2) == 0 {
        let nudge = int_vec(rng, 2);
        b = b.map(|p| add(p, nudge));
    }
    b.rotate_left(rng.below(3) as usize);
    b
}

fn offset_and_scale(rng: &mut Rng) -> (Vec3, f64) {
    let offset = match rng.below(4) {
        0 | 1 => Vec3::zeros(),
        2 => Vec3::from_fn(|_, _| (rng.range(-1.0, 1.0) * 1e9).round()),
        _ => Vec3::from_fn(|_, _| (rng.range(-1.0, 1.0) * 4e15).round()),
    };
    let scale = match rng.below(4) {
        0 | 1 => 1.0,
        2 => 2f64.powi(300),
        _ => 2f64.powi(-300 - rng.below(20) as i32),
    };
    (offset, scale)
}

/// The pair that showed `triangle_distance` overestimating (found by the sweep's tests): a
/// needle crossing a segment, coordinates about 1e6 (not integers: moved by a sweep step).
#[test]
fn sweep_sliver_meets() {
    let t = |p: [[f64; 3]; 3]| p.map(|q| Vec3::new(q[0], q[1], q[2]));
    let a = t([[-128001.0, 236676.0, 250092.0], [-280352.0, -182793.0, -553275.0], [-280351.0, -182791.0, -553278.0]]);
    let b = t([[-182978.0, 251659.0, -35911.0], [-292930.0, 281627.0, -607919.0], [-210466.0, 259151.0, -178913.0]]);
    let v = Vec3::new(-109953.0, 29969.0, -572007.0) * 1.0075686330576605;
    let moved = a.map(|p| p + v);
    assert!(triangles_intersect(&moved, &b));
    assert_eq!(triangle_distance(&moved, &b).distance, 0.0);
    assert_eq!(triangle_distance(&b, &moved).distance, 0.0);
}

/// Slivers (aspect ratios ~1e3 to ~1e12) against slivers, segments and ordinary triangles, in
/// general position, with coordinates up to 2^20 moved up to 4e15 away and scaled by 2^±300.
#[test]
fn random_slivers_against_exact_distances() {
    let mut rng = Rng(0x5117_e125_0001);
    let mut stats = Stats::default();
    for _ in 0..budget(40_000, 1_000_000) {
        let len = 10f64.powf(rng.range(3.0, 6.0));
        let (ca, sa) = (int_vec(&mut rng, 1 << 19), rng.below(4));
        let a = shaped(&mut rng, ca, len, sa);
        let far = 10f64.powf(rng.range(0.0, 5.0));
        let c = add(a[0], int_dir(&mut rng, far));
        let (lb, sb) = (10f64.powf(rng.range(0.0, 5.4)), rng.below(4));
        let b = shaped(&mut rng, c, lb, sb);
        let (offset, scale) = offset_and_scale(&mut rng);
        check(&a, &b, &offset, scale, 32.0, &mut stats);
    }
    eprintln!("general position: {stats:?}");
}

/// Slivers that meet or nearly meet (a point of one exactly on the other, then sometimes
/// moved by a unit or two): 0 exactly when the closed triangles meet, never 0 otherwise, and
/// the exact distance in between.
#[test]
fn near_touching_slivers() {
    let mut rng = Rng(0x5117_e125_0002);
    let mut stats = Stats::default();
    for _ in 0..budget(40_000, 1_000_000) {
        let len = 10f64.powf(rng.range(3.0, 6.0));
        let c = int_vec(&mut rng, 1 << 19);
        let sa = rng.below(3);
        let a = shaped(&mut rng, c, len, sa);
        // A point exactly on `a`: its centroid or a vertex.
        let x = if rng.below(2) == 0 { c } else { a[rng.below(3) as usize] };
        let lb = 10f64.powf(rng.range(0.0, 5.4));
        let b = near(&mut rng, x, lb);
        let (offset, scale) = offset_and_scale(&mut rng);
        check(&a, &b, &offset, scale, 32.0, &mut stats);
    }
    eprintln!("near touching: {stats:?}");
}
