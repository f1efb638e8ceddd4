//! [`sweep`] against brute force: the exact oracle of every triangle pair for integer models,
//! and the triangle sweep of every pair (no hierarchy) for random soups, meshes and extreme
//! placements.

use super::*;
use crate::geometry::tri_distance::triangle_distance;
use crate::geometry::tri_sweep::tests::{Rat, exact_interval, int_tri};
use crate::geometry::tri_sweep::{contact_tolerance, triangle_sweep};
use crate::math::Triangle;
use crate::test_rng::{Rng, budget};

fn model(tris: &[Triangle]) -> Model {
    Model::new(tris.to_vec(), (0..tris.len() as i32).collect()).unwrap()
}

fn request(direction: Vec3, s_max: f64, cylinder_cull: bool) -> SweepRequest {
    SweepRequest { direction, s_max, cylinder_cull }
}

/// Model `m`'s triangle `i` (leaf order) in the world.
fn world(m: &Model, p: &Placement, i: u32) -> Triangle {
    m.triangles()[i as usize].map(|x| p.apply(&x))
}

/// Checks that the reported pair touches at the reported time, within the tolerance (world
/// coordinates, recomputed here).
fn check_touching(m1: &Model, p1: &Placement, m2: &Model, p2: &Placement, v: &Vec3, c: &SweepContact) {
    let a0 = world(m1, p1, c.pair.0);
    let a = a0.map(|x| x + v * c.s);
    let b = world(m2, p2, c.pair.1);
    let mag = |t: &Triangle| t.iter().map(|p| p.amax()).fold(0.0, f64::max);
    let d = triangle_distance(&a, &b).distance;
    // The contract's magnitude (start, motion, model 2), here in the world: with model 2's
    // translation, and a factor for the rotations' norms.
    let m = mag(&a0) + c.s * v.amax() + mag(&b) + p2.translation.amax();
    assert!(d <= 8.0 * contact_tolerance(m), "pair {:?} is {d} apart at {}", c.pair, c.s);
    assert_eq!(c.ids, (m1.ids()[c.pair.0 as usize], m2.ids()[c.pair.1 as usize]));
    // The points: on model 2's triangle, and model 1's point moved along is near it.
    assert!((p2.apply(&c.point2) - c.point).amax() <= 1e-9 * (1.0 + c.point.amax()));
    let moved = p1.apply(&c.point1) + v * c.s;
    assert!((moved - c.point).norm() <= 1e-9 * (1.0 + c.point.amax()), "{moved:?} vs {:?}", c.point);
}

/// Integer models under exact placements (quarter turns, integer translations): the first and
/// last contacts against the exact oracle over all triangle pairs.
#[test]
fn integer_models_match_the_exact_oracle_over_all_pairs() {
    let mut rng = Rng(0x5eed_0101);
    let quarter = Mat3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0);
    let (mut hits, n) = (0, budget(300, 5_000));
    for case in 0..n {
        let count = 1 + rng.below(30) as usize;
        let t1: Vec<Triangle> = (0..count).map(|_| int_tri(&mut rng, 6)).collect();
        let t2: Vec<Triangle> = (0..1 + rng.below(30) as usize).map(|_| int_tri(&mut rng, 6)).collect();
        let (m1, m2) = (model(&t1), model(&t2));
        let int_vec = |rng: &mut Rng, r: u64| Vec3::from_fn(|_, _| rng.below(2 * r + 1) as f64 - r as f64);
        let rot = |rng: &mut Rng| if rng.below(2) == 0 { Mat3::identity() } else { quarter };
        let p1 = Placement { rotation: rot(&mut rng), translation: int_vec(&mut rng, 12), scale: 1.0 };
        let p2 = Placement { rotation: rot(&mut rng), translation: int_vec(&mut rng, 3), scale: 1.0 };
        let v = loop {
            let v = int_vec(&mut rng, 3);
            if v != Vec3::zeros() {
                break v;
            }
        };
        let d = rng.below(10) as i128;
        // The oracle: every pair's contact interval, clipped to [0, d].
        let (mut first, mut last): (Option<Rat>, Option<Rat>) = (None, None);
        let zero = Rat { num: 0, den: 1 };
        let end = Rat { num: d, den: 1 };
        for i in 0..m1.num_triangles() as u32 {
            for j in 0..m2.num_triangles() as u32 {
                let Some((lo, hi)) = exact_interval(&world(&m1, &p1, i), &world(&m2, &p2, j), &v) else { continue };
                let (lo, hi) = (if lo.lt(zero) { zero } else { lo }, if end.lt(hi) { end } else { hi });
                if hi.lt(lo) {
                    continue;
                }
                first = Some(first.map_or(lo, |f| if lo.lt(f) { lo } else { f }));
                last = Some(last.map_or(hi, |l| if l.lt(hi) { hi } else { l }));
            }
        }
        hits += first.is_some() as usize;
        for cull in [false, true] {
            let req = request(v, d as f64, cull);
            let r = sweep(&m1, &p1, &m2, &p2, &req).unwrap();
            match (first, r.contact) {
                (None, None) => {}
                (Some(s0), Some(c)) => {
                    let s0 = s0.to_f64();
                    assert!(c.s <= s0 && s0 - c.s <= 1e-9 * (1.0 + s0), "case {case}: {} vs {s0}", c.s);
                    check_touching(&m1, &p1, &m2, &p2, &v, &c);
                }
                (e, g) => panic!("case {case} cull {cull}: exact {e:?} vs swept {g:?}"),
            }
            let r = sweep_last_contact(&m1, &p1, &m2, &p2, &req).unwrap();
            match (last, r.contact) {
                (None, None) => {}
                (Some(s1), Some(c)) => {
                    let s1 = s1.to_f64();
                    assert!(
                        c.s >= s1 - 1e-12 * (1.0 + s1) && c.s - s1 <= 1e-9 * (1.0 + s1),
                        "case {case}: last {} vs {s1}",
                        c.s
                    );
                    check_touching(&m1, &p1, &m2, &p2, &v, &c);
                }
                (e, g) => panic!("case {case} cull {cull}: exact last {e:?} vs swept {g:?}"),
            }
        }
    }
    assert!(hits > n / 5, "{hits} of {n} cases touch");
}

/// The first contact by brute force: every pair's triangle sweep, on the triangles placed
/// as the query places them (in model 2's frame).
fn brute_force(m1: &Model, p1: &Placement, m2: &Model, p2: &Placement, v: &Vec3, s_max: f64) -> Option<f64> {
    let rel = Relative::between(p2, p1);
    let v2 = p2.rotation.transpose() * v / p2.scale;
    let mut best: Option<f64> = None;
    for ta in m1.triangles() {
        let a = ta.map(|x| rel.apply(&x));
        for b in m2.triangles() {
            if let Some(hit) = triangle_sweep(&a, b, &v2, best.unwrap_or(s_max)) {
                best = Some(best.map_or(hit.s, |s: f64| s.min(hit.s)));
            }
        }
    }
    best
}

/// Compares the query with brute force; returns the work counts of the two variants.
fn compare(m1: &Model, p1: &Placement, m2: &Model, p2: &Placement, v: &Vec3, s_max: f64) -> [(u64, u64); 2] {
    let expected = brute_force(m1, p1, m2, p2, v, s_max);
    let mut work = [(0, 0); 2];
    for (k, cull) in [false, true].into_iter().enumerate() {
        let r = sweep(m1, p1, m2, p2, &request(*v, s_max, cull)).unwrap();
        work[k] = (r.bv_tests, r.tri_tests);
        match (expected, r.contact) {
            (None, None) => {}
            (Some(s0), Some(c)) => {
                // (The query's direction is rescaled by a power of two: s may differ by rounding.)
                let slack = 1e-9 * (s0.abs() + 1e-300);
                assert!((c.s - s0).abs() <= slack, "cull {cull}: {} vs {s0}", c.s);
                check_touching(m1, p1, m2, p2, v, &c);
            }
            (e, g) => panic!("cull {cull}: brute force {e:?} vs sweep {g:?} (v {v:?}, s_max {s_max})"),
        }
    }
    work
}

#[test]
fn random_soups_match_brute_force_at_any_scale_and_offset() {
    let mut rng = Rng(0x5eed_0102);
    for case in 0..budget(60, 2_000) {
        let tris = |rng: &mut Rng, n: usize, size: f64| -> Vec<Triangle> {
            (0..n)
                .map(|_| {
                    let c = rng.vec(-1.0, 1.0);
                    [c + rng.vec(-size, size), c + rng.vec(-size, size), c + rng.vec(-size, size)]
                })
                .collect()
        };
        let n1 = 1 + rng.below(60) as usize;
        let n2 = 1 + rng.below(60) as usize;
        let (m1, m2) = (model(&tris(&mut rng, n1, 0.3)), model(&tris(&mut rng, n2, 0.3)));
        // Scale and offset of the whole scene (both placements).
        let (scale, offset) = match case % 4 {
            0 => (1.0, 0.0),
            1 => (1e-100, 1e-99),
            2 => (1e100, 3e100),
            _ => (1.0, 1e6),
        };
        let p1 = Placement {
            rotation: rng.rotation_mixed(),
            translation: (rng.vec(-3.0, 3.0) + Vec3::repeat(offset / scale)) * scale,
            scale,
        };
        let p2 = Placement { rotation: rng.rotation_mixed(), translation: Vec3::repeat(offset), scale };
        // Aimed at model 2 from model 1's position, or random.
        let aim = -p1.translation + Vec3::repeat(offset);
        let v = if rng.below(3) == 0 {
            rng.dir() * scale
        } else {
            (aim + rng.vec(-1.0, 1.0) * scale) * rng.range(0.5, 2.0)
        };
        let s_max = [0.0, 0.5, 1.0, 2.0, 1e12][rng.below(5) as usize];
        compare(&m1, &p1, &m2, &p2, &v, s_max);
    }
}

fn mesh(name: &str, count: usize) -> Vec<Triangle> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("meshes").join(name);
    let all = crate::io::load_obj(path).unwrap().triangles();
    // A connected-ish piece: the triangles nearest the first one's centre.
    let c = all[0][0];
    let mut tris = all;
    tris.sort_by(|a, b| (a[0] - c).norm().total_cmp(&(b[0] - c).norm()));
    tris.truncate(count);
    tris
}

#[test]
fn mesh_pieces_match_brute_force() {
    let teapot = model(&mesh("teapot.obj", 400));
    let bunny = model(&mesh("bunny_15k.obj", 400));
    let mut rng = Rng(0x5eed_0103);
    let centre = |m: &Model| {
        let f = m.packed_frame();
        f.origin
    };
    let size = |m: &Model| m.packed_frame().unit;
    for (m1, m2) in [(&teapot, &bunny), (&bunny, &teapot), (&teapot, &teapot)] {
        for _ in 0..3 {
            let r = rng.rotation();
            // Model 1 placed with its centre 3 sizes from model 2's, swept towards it.
            let reach = 3.0 * (size(m1) + size(m2));
            let dir = rng.dir();
            let t = centre(m2) + dir * reach - r * centre(m1);
            let p1 = Placement { rotation: r, translation: t, scale: 1.0 };
            let v = -dir + rng.vec(-0.2, 0.2);
            compare(m1, &p1, m2, &Placement::IDENTITY, &v, 2.0 * reach);
        }
    }
}

#[test]
fn touching_at_the_start_and_zero_length_sweeps() {
    let t: Triangle = [Vec3::zeros(), Vec3::x(), Vec3::y()];
    let m = model(&[t]);
    let p = Placement::IDENTITY;
    // The same model twice: touching at s = 0 whatever the direction.
    for v in [Vec3::x(), -Vec3::z(), Vec3::zeros()] {
        let r = sweep(&m, &p, &m, &p, &request(v, if v == Vec3::zeros() { 0.0 } else { 5.0 }, false)).unwrap();
        assert_eq!(r.contact.map(|c| c.s), Some(0.0));
    }
    // Apart, zero length: free.
    let far = Placement { translation: Vec3::z(), ..p };
    assert_eq!(sweep(&m, &far, &m, &p, &request(Vec3::zeros(), 0.0, false)).unwrap().contact, None);
    // Dropping onto it face first: contact at exactly 1, 0.5 with a direction twice as long.
    let r = sweep(&m, &far, &m, &p, &request(-Vec3::z(), 10.0, false)).unwrap().contact.unwrap();
    assert!(r.s <= 1.0 && r.s > 1.0 - 1e-12, "{}", r.s);
    let r = sweep(&m, &far, &m, &p, &request(-Vec3::z() * 2.0, 10.0, true)).unwrap().contact.unwrap();
    assert!(r.s <= 0.5 && r.s > 0.5 - 1e-12, "{}", r.s);
    // Ending just short: free; exactly there: contact.
    assert_eq!(sweep(&m, &far, &m, &p, &request(-Vec3::z(), 0.999_999, false)).unwrap().contact, None);
    assert!(sweep(&m, &far, &m, &p, &request(-Vec3::z(), 1.0, false)).unwrap().contact.is_some());
    // The last contact of a drop through: it touches on [1, 1] only (a flat triangle).
    let r = sweep_last_contact(&m, &far, &m, &p, &request(-Vec3::z(), 10.0, false)).unwrap().contact.unwrap();
    assert!(r.s >= 1.0 && r.s < 1.0 + 1e-12, "{}", r.s);
}

#[test]
fn bad_requests_are_refused() {
    let t: Triangle = [Vec3::zeros(), Vec3::x(), Vec3::y()];
    let m = model(&[t]);
    let p = Placement::IDENTITY;
    let go = |v: Vec3, s: f64| sweep(&m, &p, &m, &p, &request(v, s, false)).map(|_| ());
    assert_eq!(go(Vec3::new(f64::NAN, 0.0, 0.0), 1.0), Err(QueryError::NonFinite));
    assert_eq!(go(Vec3::new(f64::INFINITY, 0.0, 0.0), 1.0), Err(QueryError::NonFinite));
    assert_eq!(go(Vec3::zeros(), 1.0), Err(QueryError::InvalidArgument));
    assert_eq!(go(Vec3::x(), -1.0), Err(QueryError::InvalidArgument));
    assert_eq!(go(Vec3::x(), f64::NAN), Err(QueryError::InvalidArgument));
    assert_eq!(go(Vec3::x(), f64::INFINITY), Err(QueryError::InvalidArgument));
    assert_eq!(go(Vec3::zeros(), 0.0), Ok(()));
    let bad = Placement { scale: f64::NAN, ..p };
    assert!(sweep(&m, &bad, &m, &p, &request(Vec3::x(), 1.0, false)).is_err());
    let far = Placement { translation: Vec3::repeat(1e302), ..p };
    assert_eq!(sweep(&m, &far, &m, &p, &request(Vec3::x(), 1.0, false)).map(|_| ()), Err(QueryError::OutOfRange));
    // A sweep whose end leaves the range, backwards.
    let r = sweep_last_contact(&m, &p, &m, &p, &request(Vec3::x() * 1e300, 1e300, false));
    assert!(r.is_err());
    // Long sweeps are fine: the search only looks where contact is possible.
    let r = sweep(&m, &p, &m, &Placement { translation: Vec3::x() * 1e200, ..p }, &request(Vec3::x(), 1e300, false))
        .unwrap();
    let s = r.contact.unwrap().s;
    assert!(s <= 1e200 - 1.0 && s > 1e200 * (1.0 - 1e-12), "{s}");
}

/// The gear set: a planet gear swept out along its axis, sideways and back in. The answer is
/// checked with the exact collide query (an independent path: boxes and the exact triangle
/// test): no contact a little before `s`, the reported pair touching at `s`.
#[test]
fn gear_sweeps_agree_with_collide() {
    use crate::query::collide::{CollideRequest, CollideResult, collide};
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("meshes").join("gears.obj");
    let mesh = crate::io::load_obj(path).unwrap();
    // The planet gear: the connected component (shared vertices) nearest (4.6, 14.1, 7.5);
    // the rest is the ring, the sun and the other planets.
    let mut parts = mesh.components();
    let target = Vec3::new(4.6, 14.1, 7.5);
    let nearest = |tris: &Vec<crate::math::Triangle>| {
        tris.iter().flatten().map(|p| (p - target).norm()).fold(f64::INFINITY, f64::min)
    };
    let gear = (0..parts.len()).min_by(|&a, &b| nearest(&parts[a]).total_cmp(&nearest(&parts[b]))).unwrap();
    let planet = parts.swap_remove(gear);
    let rest = parts.concat();
    let (m1, m2) = (model(&planet), model(&rest));
    let id = Placement::IDENTITY;
    let first = CollideRequest { first_contact: true, ..Default::default() };
    let collides = |p: &Placement| {
        let mut r = CollideResult::new();
        collide(&m1, p, &m2, &id, &first, &mut r).unwrap();
        r.colliding()
    };
    let lifted = Placement { translation: Vec3::new(0.0, 0.0, 16.0), ..id };
    for (start, v) in [(id, Vec3::z()), (id, Vec3::x()), (id, Vec3::new(0.31, 0.95, 0.0)), (lifted, -Vec3::z())] {
        let c = sweep(&m1, &start, &m2, &id, &request(v, 30.0, false)).unwrap().contact.expect("the gears meet");
        check_touching(&m1, &start, &m2, &id, &v, &c);
        let at = |s: f64| Placement { translation: start.translation + v * s, ..start };
        assert!(!collides(&at(c.s * (1.0 - 1e-9))), "contact before {} along {v:?}", c.s);
    }
}

/// Models of wildly different sizes: model 2 is 1e-280 across, so that the query's
/// coordinates in its packed frame leave the reach of the box tests (every box pair is then
/// visited) — still the brute-force answer; and the other way round.
#[test]
fn wildly_different_sizes_match_brute_force() {
    let mut rng = Rng(0x5eed_0104);
    for case in 0..budget(20, 500) {
        let tiny: Vec<Triangle> = (0..1 + rng.below(8)).map(|_| rng.tri(-1e-280, 1e-280)).collect();
        let big: Vec<Triangle> = (0..1 + rng.below(8)).map(|_| rng.tri(-1.0, 1.0)).collect();
        let (t, b) = (model(&tiny), model(&big));
        let start = Placement { rotation: rng.rotation(), translation: rng.dir() * 1e5, ..Placement::IDENTITY };
        let v = -start.translation + rng.vec(-0.5, 0.5);
        if case % 2 == 0 {
            compare(&b, &start, &t, &Placement::IDENTITY, &v, 2.0);
        } else {
            compare(&t, &start, &b, &Placement::IDENTITY, &v, 2.0);
        }
    }
}
