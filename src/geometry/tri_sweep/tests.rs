//! [`triangle_sweep`] against an exact oracle: for triangles with integer coordinates, the
//! first contact is a rational number computed exactly (`i128`) by enumerating the vertices of
//! the linear program `min s : Σλ_i a_i + s·v = Σμ_j b_j, λ, μ ≥ 0, Σλ = Σμ = 1`.

use super::*;
use crate::test_rng::{Rng, budget};

/// An exact rational `num / den`, `den > 0`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rat {
    pub num: i128,
    pub den: i128,
}

impl Rat {
    pub fn lt(self, o: Rat) -> bool {
        self.num * o.den < o.num * self.den
    }
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

fn det3(c: [[i128; 3]; 3]) -> i128 {
    c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1]) - c[1][0] * (c[0][1] * c[2][2] - c[0][2] * c[2][1])
        + c[2][0] * (c[0][1] * c[1][2] - c[0][2] * c[1][1])
}

/// The unique solution `x = num / den` of `Σ x_k cols[k] = rhs` (`cols` given as columns),
/// `None` when it is not unique or does not exist.
fn solve(cols: &[[i128; 3]], rhs: [i128; 3]) -> Option<(Vec<i128>, i128)> {
    let n = cols.len();
    let (mut num, mut den) = match n {
        3 => {
            let d = det3([cols[0], cols[1], cols[2]]);
            if d == 0 {
                return None;
            }
            let x = (0..3)
                .map(|k| {
                    let mut c = [cols[0], cols[1], cols[2]];
                    c[k] = rhs;
                    det3(c)
                })
                .collect::<Vec<_>>();
            (x, d)
        }
        2 => {
            let pairs = [(0, 1), (0, 2), (1, 2)];
            let (r1, r2) =
                *pairs.iter().find(|&&(r1, r2)| cols[0][r1] * cols[1][r2] - cols[1][r1] * cols[0][r2] != 0)?;
            let d = cols[0][r1] * cols[1][r2] - cols[1][r1] * cols[0][r2];
            let x0 = rhs[r1] * cols[1][r2] - cols[1][r1] * rhs[r2];
            let x1 = cols[0][r1] * rhs[r2] - rhs[r1] * cols[0][r2];
            (vec![x0, x1], d)
        }
        1 => {
            let r = (0..3).find(|&r| cols[0][r] != 0)?;
            (vec![rhs[r]], cols[0][r])
        }
        _ => unreachable!(),
    };
    // Consistency with every equation.
    for r in 0..3 {
        let lhs: i128 = (0..n).map(|k| cols[k][r] * num[k]).sum();
        if lhs != rhs[r] * den {
            return None;
        }
    }
    if den < 0 {
        den = -den;
        num.iter_mut().for_each(|x| *x = -*x);
    }
    Some((num, den))
}

fn int3(p: &Vec3) -> [i128; 3] {
    [p.x as i128, p.y as i128, p.z as i128]
}

/// The exact set `{s : (a + s·v) ∩ b ≠ ∅}` as `[min, max]` (all real `s`), for integer
/// coordinates; `None` when empty.
pub(crate) fn exact_interval(a: &Triangle, b: &Triangle, v: &Vec3) -> Option<(Rat, Rat)> {
    let (a, b, v) = (a.map(|p| int3(&p)), b.map(|p| int3(&p)), int3(v));
    let mut best: Option<(Rat, Rat)> = None;
    let sub = |x: [i128; 3], y: [i128; 3]| [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
    for fa in 1..8u32 {
        for fb in 1..8u32 {
            if fa.count_ones() + fb.count_ones() > 4 {
                continue;
            }
            let ia: Vec<usize> = (0..3).filter(|i| fa & (1 << i) != 0).collect();
            let ib: Vec<usize> = (0..3).filter(|i| fb & (1 << i) != 0).collect();
            let mut cols = Vec::new();
            for &i in &ia[1..] {
                cols.push(sub(a[i], a[ia[0]]));
            }
            for &j in &ib[1..] {
                cols.push(sub(b[ib[0]], b[j]));
            }
            cols.push(v);
            let Some((x, den)) = solve(&cols, sub(b[ib[0]], a[ia[0]])) else { continue };
            let la = &x[..ia.len() - 1];
            let mb = &x[ia.len() - 1..x.len() - 1];
            let feasible = |w: &[i128]| w.iter().all(|&t| t >= 0) && w.iter().sum::<i128>() <= den;
            if !(feasible(la) && feasible(mb)) {
                continue;
            }
            let s = Rat { num: x[x.len() - 1], den };
            best = Some(match best {
                None => (s, s),
                Some((lo, hi)) => (if s.lt(lo) { s } else { lo }, if hi.lt(s) { s } else { hi }),
            });
        }
    }
    best
}

/// The exact first contact in `[0, d]` (`d` an integer).
pub(crate) fn exact_first(a: &Triangle, b: &Triangle, v: &Vec3, d: i128) -> Option<Rat> {
    let (lo, hi) = exact_interval(a, b, v)?;
    let zero = Rat { num: 0, den: 1 };
    let first = if lo.lt(zero) { zero } else { lo };
    (!hi.lt(zero) && !(Rat { num: d, den: 1 }).lt(first)).then_some(first)
}

/// A triangle with integer coordinates in `[-r, r]`, often degenerate (a point, collinear,
/// sharing coordinates).
pub(crate) fn int_tri(rng: &mut Rng, r: i64) -> Triangle {
    let mut p = || Vec3::from_fn(|_, _| (rng.below(2 * r as u64 + 1) as i64 - r) as f64);
    let t = [p(), p(), p()];
    match rng.below(10) {
        0 => [t[0], t[0], t[0]],
        1 => [t[0], t[1], t[0] * 2.0 - t[1]],
        2 => [t[0], t[1], t[1]],
        _ => t,
    }
}

/// Checks one case at the scale `k` (coordinates times 2^k) and shifted by `shift` (a multiple
/// of the scaled grid); returns the gap `s0 − s`.
fn check(a: &Triangle, b: &Triangle, v: &Vec3, d: i64, k: i32, shift: f64) -> f64 {
    let exact = exact_first(a, b, v, d as i128);
    let f = 2f64.powi(k);
    let off = Vec3::repeat(shift * f);
    let (sa, sb, sv) = (a.map(|p| p * f + off), b.map(|p| p * f + off), v * f);
    let got = triangle_sweep(&sa, &sb, &sv, d as f64);
    match (exact, got) {
        (None, None) => 0.0,
        (Some(s0), Some(hit)) => {
            let s0f = s0.to_f64();
            assert!(hit.s <= s0f * (1.0 + 2.0 * f64::EPSILON), "late: {} > {s0f} for {a:?} {b:?} {v:?} k={k}", hit.s);
            assert!(hit.steps < 300, "{} steps", hit.steps);
            let mag = |t: &Triangle| t.iter().map(|p| p.amax()).fold(0.0, f64::max);
            let m = mag(&sa) + hit.s * sv.amax() + mag(&sb);
            let moved = translated(&sa, &(sv * hit.s));
            let dist = triangle_distance(&moved, &sb).distance;
            assert!(dist <= contact_tolerance(m) * 2.0, "not touching at {}: {dist} for {a:?} {b:?} {v:?}", hit.s);
            s0f - hit.s
        }
        (e, g) => panic!("exact {e:?} vs swept {g:?} for {a:?} {b:?} {v:?} d={d} k={k} shift={shift}"),
    }
}

#[test]
fn integer_grid_cases_match_the_exact_oracle() {
    let mut rng = Rng(0x5eed_0001);
    let mut hits = 0;
    let mut worst = 0f64;
    let mut worst_far = 0f64;
    let n = budget(40_000, 1_000_000);
    for case in 0..n {
        let r = if case % 2 == 0 { 2 } else { 6 };
        let a = int_tri(&mut rng, r);
        let b = int_tri(&mut rng, r);
        let v = loop {
            let v = Vec3::from_fn(|_, _| rng.below(7) as f64 - 3.0);
            if v != Vec3::zeros() {
                break v;
            }
        };
        // Start A a few steps back along v so that most cases meet on the way.
        let back = rng.below(4) as f64;
        let a = a.map(|p| p - v * back);
        let d = rng.below(8) as i64;
        let (k, shift) = match case % 5 {
            0 => (0, 0.0),
            1 => (-300, 0.0),
            2 => (300, 0.0),
            3 => (-20, 2f64.powi(30)),
            _ => (0, -3.0 * 2f64.powi(35)),
        };
        let gap = check(&a, &b, &v, d, k, shift);
        if exact_first(&a, &b, &v, d as i128).is_some() {
            hits += 1;
        }
        if shift == 0.0 {
            worst = worst.max(gap / (1.0 + d as f64));
        } else {
            worst_far = worst_far.max(gap / (1.0 + d as f64));
        }
    }
    assert!(hits > n / 5, "{hits} hits of {n}");
    // Never late (checked per case), and early by no more than rounding on this grid.
    assert!(worst < 1e-9, "early by {worst}");
    // 2^30 grid units from the origin the tolerance is 2^-10 grid units or so.
    assert!(worst_far < 1e-2, "early by {worst_far} far from the origin");
    eprintln!("early by at most {worst:e} (at the origin), {worst_far:e} (far)");
}

#[test]
fn generic_triangles_match_the_exact_oracle() {
    let mut rng = Rng(0x5eed_0002);
    let r = 1 << 20;
    for _ in 0..budget(5_000, 200_000) {
        let a = int_tri(&mut rng, r);
        let b = int_tri(&mut rng, r);
        let v = Vec3::from_fn(|_, _| (rng.below(2 * r as u64 + 1) as i64 - r) as f64);
        let v = if v == Vec3::zeros() { Vec3::x() } else { v };
        check(&a, &b, &v, 3, 0, 0.0);
    }
}

/// Named grazing configurations: the exact first contact, and the sweep's.
#[test]
fn grazing_contacts_are_found_at_their_time() {
    let t = |p: [[f64; 3]; 3]| p.map(|q| Vec3::new(q[0], q[1], q[2]));
    let floor = t([[0., 0., 0.], [4., 0., 0.], [0., 4., 0.]]);
    let cases: Vec<(&str, Triangle, Vec3, f64)> = vec![
        // A vertex sliding in the plane of the face onto its edge.
        ("vertex slides onto face", t([[-2., 1., 0.], [-3., 1., 1.], [-3., 2., 1.]]), Vec3::x(), 2.0),
        // A needle lying in the plane, sliding onto the face.
        ("needle along face", t([[-5., 1., 0.], [-3., 1., 0.], [-3., 1., 0.]]), Vec3::x(), 3.0),
        // A triangle coplanar with the face, sliding over it.
        ("coplanar faces", t([[-3., 1., 0.], [-1., 1., 0.], [-1., 2., 0.]]), Vec3::x(), 1.0),
        // Parallel edges: A's edge on the line of the floor's edge y = 0.
        ("collinear edges", t([[-4., 0., 0.], [-2., 0., 0.], [-3., 0., 2.]]), Vec3::x(), 2.0),
        // Parallel edges meeting side by side.
        ("parallel edges", t([[1., -1., 0.], [3., -1., 0.], [2., -2., 1.]]), Vec3::y(), 1.0),
        // Crossing edges: an edge above the face dropping onto it edge first.
        ("crossing edge drops", t([[2., -1., 3.], [2., 5., 3.], [2., 2., 6.]]), -Vec3::z(), 3.0),
        // A point dropping onto the face's edge.
        ("point onto edge", t([[2., 0., 5.], [2., 0., 5.], [2., 0., 5.]]), -Vec3::z(), 5.0),
        // A point dropping onto a corner.
        ("point onto corner", t([[0., 0., 5.], [0., 0., 5.], [0., 0., 5.]]), -Vec3::z(), 5.0),
        // Touching at the start.
        ("touching at start", t([[4., 0., 0.], [5., 0., 1.], [5., 1., 1.]]), Vec3::x(), 0.0),
    ];
    for (name, a, v, s0) in cases {
        let e = exact_first(&a, &floor, &v, 100).unwrap_or_else(|| panic!("{name}: oracle misses"));
        assert_eq!(e.to_f64(), s0, "{name}: oracle");
        let hit = triangle_sweep(&a, &floor, &v, 100.0).unwrap_or_else(|| panic!("{name}: missed"));
        assert!(hit.s <= s0 && s0 - hit.s < 1e-12, "{name}: {} vs {s0}", hit.s);
        // Ending exactly at the contact still finds it.
        assert!(triangle_sweep(&a, &floor, &v, s0).is_some(), "{name}: ending at contact");
        // Far away and at extreme scales the same.
        for (f, shift) in [(2f64.powi(-500), 0.0), (2f64.powi(500), 0.0), (1.0, 2f64.powi(45)), (1e-100, 1e-88)] {
            let off = Vec3::repeat(shift);
            let (sa, sb) = (a.map(|p| p * f + off), floor.map(|p| p * f + off));
            let hit = triangle_sweep(&sa, &sb, &(v * f), 100.0).unwrap_or_else(|| panic!("{name}: missed at {f}"));
            let tol = 1e-11 * (1.0 + shift / f);
            assert!(hit.s <= s0 * (1.0 + 1e-15) && s0 - hit.s <= tol, "{name} at {f}, {shift}: {}", hit.s);
        }
    }
}

#[test]
fn misses_by_a_margin_and_sweeps_that_end_early_are_free() {
    let t = |p: [[f64; 3]; 3]| p.map(|q| Vec3::new(q[0], q[1], q[2]));
    let floor = t([[0., 0., 0.], [4., 0., 0.], [0., 4., 0.]]);
    // A vertex sliding just above the face plane: free at any height beyond the tolerance …
    for h in [1e-3, 1e-9, 1e-12] {
        let a = t([[-2., 1., h], [-3., 1., 1.], [-3., 2., 1.]]);
        assert_eq!(triangle_sweep(&a, &floor, &Vec3::x(), 1e6), None, "height {h}");
    }
    // … and touching within it (one ulp above the plane counts as touching, documented).
    let a = t([[-2., 1., f64::from_bits(1)], [-3., 1., 1.], [-3., 2., 1.]]);
    assert!(triangle_sweep(&a, &floor, &Vec3::x(), 1e6).is_some());
    // Ending one step short of the contact: free.
    let a = t([[-2., 1., 0.], [-3., 1., 1.], [-3., 2., 1.]]);
    assert_eq!(triangle_sweep(&a, &floor, &Vec3::x(), 1.999), None);
    // Moving away from a touching start still counts the start.
    assert_eq!(triangle_sweep(&a, &floor, &-Vec3::x(), 5.0).map(|h| h.s), None);
    let touching = a.map(|p| p + Vec3::x() * 2.0);
    assert_eq!(triangle_sweep(&touching, &floor, &-Vec3::x(), 5.0).map(|h| h.s), Some(0.0));
    // Long sweeps: d far beyond the models, and a tiny direction.
    let far = a.map(|p| p - Vec3::x() * 1e15);
    let hit = triangle_sweep(&far, &floor, &Vec3::x(), 1e300).unwrap();
    assert!(hit.s <= 1e15 + 2.0 && hit.s > 1e15 + 2.0 - 1e4, "{}", hit.s);
    let hit = triangle_sweep(&a, &floor, &(Vec3::x() * 1e-200), f64::MAX).unwrap();
    assert!(hit.s <= 2e200 && hit.s > 1.99e200, "{}", hit.s);
    // Bad input gives None rather than a wrong answer.
    assert_eq!(triangle_sweep(&a, &floor, &Vec3::repeat(f64::NAN), 1.0), None);
    assert_eq!(triangle_sweep(&a, &floor, &Vec3::x(), -1.0), None);
}

/// A triangle with integer coordinates up to 2^20 that is nearly a segment: its third vertex
/// a unit or two off the line of the other two (angles of about 2^-19).
fn needle(rng: &mut Rng) -> Triangle {
    let r = 1 << 18;
    let mut int = |r: i64| Vec3::from_fn(|_, _| (rng.below(2 * r as u64 + 1) as i64 - r) as f64);
    let p0 = int(r);
    let d = int(r) * 4.0;
    let off = int(1);
    [p0, p0 + d, p0 + d * 0.25 + off]
}

/// Nearly degenerate triangles and directions nearly parallel to an edge: the separating axes
/// are then rounded noticeably, and the advancement has to finish the job.
#[test]
fn needles_and_grazing_directions_match_the_exact_oracle() {
    let mut rng = Rng(0x5eed_0003);
    let (mut hits, mut steps, mut worst) = (0, 0, 0f64);
    let n = budget(20_000, 500_000);
    for case in 0..n {
        let b = needle(&mut rng);
        let a0 = if case % 2 == 0 { needle(&mut rng) } else { int_tri(&mut rng, 1 << 19) };
        // Direction: along an edge of b, nudged by a unit.
        let e = b[1] - b[0];
        let v = e + Vec3::from_fn(|_, _| rng.below(3) as f64 - 1.0);
        let v = if v == Vec3::zeros() { Vec3::x() } else { v };
        // Start a back along v from somewhere near b.
        let target = b[0] + (b[1] - b[0]) * 0.5;
        let a = a0.map(|p| p - a0[0] + target - v + Vec3::from_fn(|_, _| rng.below(5) as f64 - 2.0));
        let gap = check(&a, &b, &v, 3, 0, 0.0);
        if let Some(hit) = triangle_sweep(&a, &b, &v, 3.0) {
            hits += 1;
            steps = steps.max(hit.steps);
        }
        worst = worst.max(gap);
    }
    eprintln!("{hits} hits of {n}, at most {steps} steps, early by at most {worst:e}");
    assert!(hits > n / 10);
}

/// The pair that showed `triangle_distance` overestimating (a needle crossing a segment): the
/// exact test says they meet, the distance said 4.7e-6 (its edge-pair certificate trusted a
/// slab turned by rounding; see `tri_distance::sliver_tests`). Now 0.
#[test]
fn sliver_distance_is_exact() {
    let t = |p: [[f64; 3]; 3]| p.map(|q| Vec3::new(q[0], q[1], q[2]));
    let a = t([[-128001.0, 236676.0, 250092.0], [-280352.0, -182793.0, -553275.0], [-280351.0, -182791.0, -553278.0]]);
    let b = t([[-182978.0, 251659.0, -35911.0], [-292930.0, 281627.0, -607919.0], [-210466.0, 259151.0, -178913.0]]);
    let v = Vec3::new(-109953.0, 29969.0, -572007.0);
    let moved = translated(&a, &(v * 1.0075686330576605));
    assert!(crate::geometry::tri_intersect::triangles_intersect(&moved, &b));
    assert_eq!(triangle_distance(&moved, &b).distance, 0.0);
}

/// The advancement alone (no separating-axis window) against the exact oracle: never late,
/// touching at the answer, the same hits.
#[test]
fn advancement_alone_matches_the_exact_oracle() {
    let mut rng = Rng(0x5eed_0004);
    let mut most = 0;
    for _ in 0..budget(10_000, 200_000) {
        let a = int_tri(&mut rng, 6);
        let b = int_tri(&mut rng, 6);
        let v = Vec3::from_fn(|_, _| rng.below(7) as f64 - 3.0);
        let v = if v == Vec3::zeros() { Vec3::z() } else { v };
        let a = a.map(|p| p - v * 3.0);
        // At unit magnitude, as triangle_sweep calls it.
        let f = 1.0 / 64.0;
        let (sa, sb, sv) = (a.map(|p| p * f), b.map(|p| p * f), v * f);
        let got = sweep_unit(&sa, &sb, &sv, 8.0, 8.0, false);
        match (exact_first(&a, &b, &v, 8), got) {
            (None, None) => {}
            (Some(s0), Some(hit)) => {
                let s0 = s0.to_f64();
                assert!(hit.s <= s0 * (1.0 + 2.0 * f64::EPSILON), "late: {} > {s0}", hit.s);
                assert!(s0 - hit.s <= 1e-9, "early: {} < {s0}", hit.s);
                most = most.max(hit.steps);
            }
            (e, g) => panic!("exact {e:?} vs advancement {g:?} for {a:?} {b:?} {v:?}"),
        }
    }
    eprintln!("at most {most} steps");
}
