//! Touching and near-touching configurations of zero-area, sliver and tiny triangles, at many
//! scales and offsets, through every collide path, against brute force (every triangle pair
//! tested with the exact triangle test, in the frame of the path):
//!
//! - native `collide`: every box test, both triangle frames, all contacts and first contact;
//! - the legacy `RAPID_Collide` / `RAPID_CollideScaled` (RAPID's frame) and `PQP_Collide`
//!   (PQP's frame), called through their `extern "C"` functions;
//! - `distance` (for cases within 2^±100 of unit size): a reported contact means distance 0
//!   (up to the rounding of a distance), and a distance above that rounding means no contact.
//!
//! The generated cases have no recorded original answer, so brute force decides for the
//! legacy paths too (the documented exceptions concern the recorded `degenerate` fixture).
//!
//! `RAPIDPQP_TOUCHING_CASES=N` sets the number of cases (default 30,000, about 3 s);
//! `RAPIDPQP_TOUCHING_SEED=S` the seed. A long run: `RAPIDPQP_TOUCHING_CASES=2000000
//! cargo test --release --features capi --test collide_touching -- --nocapture`.

mod common;

use std::ffi::c_int;

use common::{brute_force, sorted};

use rapidpqp::bv::obb::BoxTest;
use rapidpqp::ffi::pqp::{
    PQP_ALL_CONTACTS, PQP_AddTri, PQP_BeginModel, PQP_Collide, PQP_CollideResult, PQP_CollideResult_FreePairsList,
    PQP_EndModel, PQP_FIRST_CONTACT, PQP_Model, PQP_Model_delete, PQP_Model_new, PQP_OK,
};
use rapidpqp::ffi::rapid::{
    RAPID_ALL_CONTACTS, RAPID_AddTri, RAPID_BeginModel, RAPID_CollideScaled, RAPID_EndModel, RAPID_FIRST_CONTACT,
    RAPID_OK, RAPID_contact, RAPID_model, RAPID_model_delete, RAPID_model_new, RAPID_num_contacts,
};
use rapidpqp::query::distance::{DistanceRequest, distance};
use rapidpqp::query::{CollideRequest, CollideResult, TriangleFrame, collide};
use rapidpqp::{Mat3, Model, Placement, Triangle, Vec3};

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
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    /// A dyadic number k/16, |k| < 64 (exact, and exact sums and halves).
    fn dy(&mut self) -> f64 {
        self.int(-63, 63) as f64 / 16.0
    }
    fn dyv(&mut self) -> Vec3 {
        Vec3::new(self.dy(), self.dy(), self.dy())
    }
    fn rotation(&mut self) -> Mat3 {
        let q = nalgebra::Vector4::new(self.unit() - 0.5, self.unit() - 0.5, self.unit() - 0.5, self.unit() - 0.5);
        nalgebra::UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(q[0] + 1e-9, q[1], q[2], q[3]))
            .to_rotation_matrix()
            .into_inner()
    }
    /// A rotation whose entries are exactly 0 and ±1 (an axis permutation with signs).
    fn signed_permutation(&mut self) -> Mat3 {
        let perms = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]];
        let p = perms[self.below(6) as usize];
        let mut m = Mat3::zeros();
        for (i, &j) in p.iter().enumerate() {
            m[(i, j)] = if self.below(2) == 0 { 1.0 } else { -1.0 };
        }
        // A rotation (the queries refuse reflections): flip a row when the determinant is -1.
        if m.determinant() < 0.0 {
            m.row_mut(0).neg_mut();
        }
        m
    }
}

/// One generated case: two small soups and their placements.
struct Case {
    a: Vec<Triangle>,
    b: Vec<Triangle>,
    p1: Placement,
    p2: Placement,
    /// Where the touching (or nearly touching) pair sits in `a` and `b`.
    pair: (i32, i32),
    /// The scale of the case: its features are about `2^exp` long.
    exp: i64,
}

/// A zero-area triangle over the segment p-q: a collinear third vertex or a repeated one.
fn segment(rng: &mut Rng, p: Vec3, q: Vec3) -> Triangle {
    match rng.below(4) {
        0 => [p, q, p + (q - p) * 0.5],
        1 => [p, p, q],
        2 => [q, p, q],
        _ => [p + (q - p) * 0.25, q, p],
    }
}

/// The point `x` as a feature: a point triangle, a segment ending or passing there, a sliver
/// or a tiny triangle at it, or an ordinary triangle with a vertex there.
fn feature_at(rng: &mut Rng, x: Vec3, tiny: f64) -> Triangle {
    let d = rng.dyv();
    let e = rng.dyv();
    match rng.below(6) {
        0 => [x; 3],
        1 => segment(rng, x, x + d),
        2 => segment(rng, x - d * 0.5, x + d * 0.25),
        // A sliver: the third vertex off the segment by one part in 2^40.
        3 => [x - d, x + d, x + e * tiny],
        4 => [x, x + d * tiny, x + e * tiny],
        _ => [x, x + d, x + e],
    }
}

/// The touching (or nearly touching) pair of features, in model coordinates before scaling.
fn touching_pair(rng: &mut Rng) -> (Triangle, Triangle) {
    let tiny = 2f64.powi(-rng.int(20, 45) as i32);
    let (p, q) = (rng.dyv(), rng.dyv());
    // The contact point: on the segment p-q (dyadic steps, exact), at an end or inside.
    let x = p + (q - p) * (rng.below(9) as f64 / 8.0);
    let a = match rng.below(3) {
        0 => segment(rng, p, q),
        1 => [p, q, p + (q - p) * tiny],
        _ => [p, q, rng.dyv()],
    };
    let mut b = feature_at(rng, x, tiny);
    // Near-touching: moved off by a tiny amount, or by one unit in the last place.
    match rng.below(5) {
        0 => {
            let d = rng.dyv() * tiny * tiny;
            b = b.map(|v| v + d);
        }
        1 => {
            let k = rng.below(3) as usize;
            let i = rng.below(3) as usize;
            // (By about one ulp: x + k ε |x|, or k times the least subnormal at zero.)
            let x = b[i][k];
            b[i][k] = x + rng.int(-2, 2) as f64 * (x.abs() * f64::EPSILON).max(5e-324);
        }
        _ => {}
    }
    (a, b)
}

/// A generated case: the touching pair at scale `2^e` (anywhere in the supported range) and offset, with 0 to 5 more triangles
/// in each model (ordinary, degenerate or tiny, some near the contact), placed exactly (so
/// touching stays exact) or by random rotations and scales.
fn generate(rng: &mut Rng) -> Case {
    let (ta, tb) = touching_pair(rng);
    // Half the cases at moderate scales, half across the whole supported range (coordinates
    // from subnormal to 2^990 with the offsets below).
    let exp = if rng.below(2) == 0 { rng.int(-60, 60) } else { rng.int(-1000, 940) };
    let mag = 2f64.powi(exp as i32);
    let off = match rng.below(3) {
        0 => Vec3::zeros(),
        // Offsets up to 2^45 times the size: coordinates far from the origin.
        _ => rng.dyv() * mag * 2f64.powi(rng.int(0, 45) as i32),
    };
    let place = |t: &Triangle| t.map(|v| v * mag + off);
    let mut a = vec![place(&ta)];
    let mut b = vec![place(&tb)];
    let mut pair = [0; 2];
    for (tris, at) in [&mut a, &mut b].into_iter().zip(&mut pair) {
        for _ in 0..rng.below(6) {
            let c = rng.dyv();
            let t = match rng.below(4) {
                0 => {
                    let d = rng.dyv();
                    segment(rng, c, c + d)
                }
                1 => [c, c + rng.dyv() * 2f64.powi(-30), c + rng.dyv() * 2f64.powi(-30)],
                2 => [c; 3],
                _ => [c, rng.dyv(), rng.dyv()],
            };
            tris.push(place(&t));
        }
        // The touching feature anywhere in the model's order.
        *at = rng.below(tris.len() as u64) as usize;
        tris.swap(0, *at);
    }
    let (p1, p2) = match rng.below(4) {
        0 => (Placement::IDENTITY, Placement::IDENTITY),
        // The same exact placement for both: the relative placement is exactly the identity.
        1 => {
            let t = rng.dyv() * mag;
            let p = Placement { rotation: rng.signed_permutation(), translation: t, scale: 1.0 };
            (p, p)
        }
        // The same random placement: the relative rotation is the identity up to rounding.
        2 => {
            let p = Placement { rotation: rng.rotation(), translation: rng.dyv() * mag, scale: 1.0 };
            (p, p)
        }
        // Model 2 scaled about its origin by a power of two, model 1 by the same, or random.
        _ => {
            let s = 2f64.powi(rng.int(-3, 3) as i32);
            let scale = |rng: &mut Rng| if rng.below(2) == 0 { s } else { 0.5 + 2.0 * rng.unit() };
            let r = rng.rotation();
            (
                Placement { rotation: r, translation: Vec3::zeros(), scale: scale(rng) },
                Placement { rotation: r, translation: Vec3::zeros(), scale: scale(rng) },
            )
        }
    };
    Case { a, b, p1, p2, pair: (pair[0] as i32, pair[1] as i32), exp }
}

/// Every intersecting pair (indices), tested in `frame` with the very transform `collide`
/// applies.
fn brute(case: &Case, frame: TriangleFrame) -> Vec<(i32, i32)> {
    brute_force(&case.a, &case.b, &case.p1, &case.p2, frame)
}

fn rows(m: &Mat3) -> [[f64; 3]; 3] {
    std::array::from_fn(|i| std::array::from_fn(|j| m[(i, j)]))
}

/// The legacy models of a case, built through the C functions.
struct Legacy {
    rapid: [*mut RAPID_model; 2],
    pqp: [*mut PQP_Model; 2],
}

impl Legacy {
    fn build(case: &Case) -> Legacy {
        let mut out = Legacy { rapid: [std::ptr::null_mut(); 2], pqp: [std::ptr::null_mut(); 2] };
        for (k, tris) in [&case.a, &case.b].into_iter().enumerate() {
            // SAFETY: fresh handles, 3 readable doubles per point.
            unsafe {
                let (r, p) = (RAPID_model_new(), PQP_Model_new());
                assert_eq!(RAPID_BeginModel(r), RAPID_OK);
                assert_eq!(PQP_BeginModel(p, tris.len() as c_int), PQP_OK);
                for (id, t) in tris.iter().enumerate() {
                    let v = t.map(|p| [p.x, p.y, p.z]);
                    let id = id as c_int;
                    assert_eq!(RAPID_AddTri(r, v[0].as_ptr(), v[1].as_ptr(), v[2].as_ptr(), id), RAPID_OK);
                    assert_eq!(PQP_AddTri(p, v[0].as_ptr(), v[1].as_ptr(), v[2].as_ptr(), id), PQP_OK);
                }
                assert_eq!(RAPID_EndModel(r), RAPID_OK);
                assert_eq!(PQP_EndModel(p), PQP_OK);
                (out.rapid[k], out.pqp[k]) = (r, p);
            }
        }
        out
    }

    /// `RAPID_CollideScaled`'s contacts.
    fn rapid(&self, case: &Case, flag: c_int) -> Vec<(i32, i32)> {
        let (mut r1, mut r2) = (rows(&case.p1.rotation), rows(&case.p2.rotation));
        let (mut t1, mut t2): ([f64; 3], [f64; 3]) = (case.p1.translation.into(), case.p2.translation.into());
        // SAFETY: live models, 9 and 3 doubles; the globals are read right after the call on
        // this thread (the only test of this file calling RAPID).
        unsafe {
            let rc = RAPID_CollideScaled(
                r1.as_mut_ptr(),
                t1.as_mut_ptr(),
                case.p1.scale,
                self.rapid[0],
                r2.as_mut_ptr(),
                t2.as_mut_ptr(),
                case.p2.scale,
                self.rapid[1],
                flag,
            );
            assert_eq!(rc, RAPID_OK);
            let n = RAPID_num_contacts as usize;
            (0..n)
                .map(|k| {
                    let c = *RAPID_contact.add(k);
                    (c.id1, c.id2)
                })
                .collect()
        }
    }

    /// `PQP_Collide`'s contacts (unscaled placements only).
    fn pqp(&self, case: &Case, flag: c_int) -> Vec<(i32, i32)> {
        let (mut r1, mut r2) = (rows(&case.p1.rotation), rows(&case.p2.rotation));
        let (mut t1, mut t2): ([f64; 3], [f64; 3]) = (case.p1.translation.into(), case.p2.translation.into());
        // SAFETY: zero-filled result as PQP asks; live models; freed below.
        unsafe {
            let mut res: PQP_CollideResult = std::mem::zeroed();
            let rc = PQP_Collide(
                &mut res,
                r1.as_mut_ptr(),
                t1.as_mut_ptr(),
                self.pqp[0],
                r2.as_mut_ptr(),
                t2.as_mut_ptr(),
                self.pqp[1],
                flag,
            );
            assert_eq!(rc, PQP_OK);
            let pairs = (0..res.num_pairs as usize)
                .map(|k| {
                    let c = *res.pairs.add(k);
                    (c.id1, c.id2)
                })
                .collect();
            PQP_CollideResult_FreePairsList(&mut res);
            pairs
        }
    }
}

impl Drop for Legacy {
    fn drop(&mut self) {
        // SAFETY: handles from the constructors, deleted once.
        unsafe {
            for m in self.rapid {
                RAPID_model_delete(m);
            }
            for m in self.pqp {
                PQP_Model_delete(m);
            }
        }
    }
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// What one run covered.
#[derive(Default, Debug)]
struct Tally {
    cases: u64,
    /// Cases whose touching pair intersects (brute force, PQP's frame).
    touching: u64,
    /// Cases with a zero-area triangle in a contact.
    zero_area_contacts: u64,
    /// Native queries, and legacy calls, checked.
    native: u64,
    legacy: u64,
    /// Distance queries that found 0 with a contact / a positive distance without one.
    distance_zero: u64,
    distance_positive: u64,
    /// Distance 0 without a contact (a gap below the distance's rounding).
    distance_zero_apart: u64,
    /// The largest distance found with a contact, over the size of the contact triangles.
    worst_ratio: f64,
}

/// Runs `cases` generated cases from `seed` through every path; panics on the first
/// disagreement with brute force.
fn run(seed: u64, cases: u64) -> Tally {
    let mut rng = Rng(seed);
    let mut out = CollideResult::new();
    let mut tally = Tally::default();
    for n in 0..cases {
        let case = generate(&mut rng);
        let ids = |t: &[Triangle]| (0..t.len() as i32).collect::<Vec<_>>();
        let ma = Model::new(case.a.clone(), ids(&case.a)).unwrap();
        let mb = Model::new(case.b.clone(), ids(&case.b)).unwrap();
        let want = [sorted(brute(&case, TriangleFrame::Model1)), sorted(brute(&case, TriangleFrame::Model2))];
        let what = || {
            format!(
                "case {n} (seed {seed:#x}, scale 2^{}): a {:?}\nb {:?}\np1 {:?}\np2 {:?}",
                case.exp, case.a, case.b, case.p1, case.p2
            )
        };
        tally.cases += 1;
        tally.touching += u64::from(want[0].contains(&case.pair));
        let zero_area = |t: &Triangle| (t[1] - t[0]).cross(&(t[2] - t[0])) == Vec3::zeros();
        tally.zero_area_contacts +=
            u64::from(want[0].iter().any(|&(i, j)| zero_area(&case.a[i as usize]) || zero_area(&case.b[j as usize])));
        for (f, frame) in [TriangleFrame::Model1, TriangleFrame::Model2].into_iter().enumerate() {
            for box_test in BoxTest::ALL {
                let request = CollideRequest { first_contact: false, box_test, frame, geometry: false };
                collide(&ma, &case.p1, &mb, &case.p2, &request, &mut out).unwrap();
                let got = sorted(out.pairs.iter().map(|p| (p.id1, p.id2)).collect());
                assert_eq!(got, want[f], "native all {box_test:?} {frame:?}, {}", what());
                let request = CollideRequest { first_contact: true, ..request };
                collide(&ma, &case.p1, &mb, &case.p2, &request, &mut out).unwrap();
                assert_eq!(
                    out.pairs.len(),
                    usize::from(!want[f].is_empty()),
                    "native first {box_test:?} {frame:?}, {}",
                    what()
                );
                assert!(out.pairs.iter().all(|p| want[f].binary_search(&(p.id1, p.id2)).is_ok()), "{}", what());
                tally.native += 2;
            }
        }
        let legacy = Legacy::build(&case);
        assert_eq!(sorted(legacy.rapid(&case, RAPID_ALL_CONTACTS)), want[1], "RAPID all, {}", what());
        let first = legacy.rapid(&case, RAPID_FIRST_CONTACT);
        assert_eq!(first.len(), usize::from(!want[1].is_empty()), "RAPID first, {}", what());
        assert!(first.iter().all(|p| want[1].binary_search(p).is_ok()), "RAPID first, {}", what());
        tally.legacy += 2;
        if case.p1.scale == 1.0 && case.p2.scale == 1.0 {
            assert_eq!(sorted(legacy.pqp(&case, PQP_ALL_CONTACTS)), want[0], "PQP all, {}", what());
            let first = legacy.pqp(&case, PQP_FIRST_CONTACT);
            assert_eq!(first.len(), usize::from(!want[0].is_empty()), "PQP first, {}", what());
            assert!(first.iter().all(|p| want[0].binary_search(p).is_ok()), "PQP first, {}", what());
            tally.legacy += 2;
        }
        // Distance (world units): 0 when touching; above its own rounding only when apart.
        let d =
            distance(&ma, &case.p1, &mb, &case.p2, &DistanceRequest::default(), None).expect("a placement").distance;
        let world = |t: &[Triangle], p: &Placement| {
            t.iter().flatten().map(|v| p.apply(v).amax()).fold(p.translation.amax(), f64::max)
        };
        let rounding = 1e-12 * world(&case.a, &case.p1).max(world(&case.b, &case.p2));
        if want[0].is_empty() {
            // A gap can round to 0 in the distance; then it is within rounding of touching.
            assert!(d <= rounding || d > 0.0, "{}", what());
            tally.distance_positive += u64::from(d > 0.0);
            tally.distance_zero_apart += u64::from(d == 0.0);
        } else {
            // (Lengths measured scaled: squares of 2^±1000 do not fit.)
            let length = |v: Vec3| if v.amax() > 0.0 { (v / v.amax()).norm() * v.amax() } else { 0.0 };
            let size = |t: &Triangle, p: &Placement| {
                (0..3).map(|k| length(t[(k + 1) % 3] - t[k])).fold(0.0, f64::max) * p.scale
            };
            let feature = want[0]
                .iter()
                .map(|&(i, j)| size(&case.a[i as usize], &case.p1).max(size(&case.b[j as usize], &case.p2)))
                .fold(0.0, f64::max);
            // (The distance of sliver triangles is computed to about 1e-6 of their size: the
            // worst seen in 2 million cases was 6.7e-7.)
            let ratio = (d - rounding).max(0.0) / feature;
            tally.worst_ratio = tally.worst_ratio.max(ratio);
            assert!(ratio <= 1e-5, "contact but distance {d:e} (contact triangles of size {feature:e}), {}", what());
            tally.distance_zero += u64::from(d == 0.0);
        }
    }
    tally
}

/// The normal suite's budget; `RAPIDPQP_TOUCHING_CASES` for a long run.
#[test]
fn touching_degenerate_triangles_match_brute_force_on_every_path() {
    let cases = env_or("RAPIDPQP_TOUCHING_CASES", 30_000);
    let seed = env_or("RAPIDPQP_TOUCHING_SEED", 0x7a3c_91e5_0b44_d2f1);
    let tally = run(seed, cases);
    eprintln!("{tally:?}");
    // The generator must really produce what it is for.
    assert!(tally.touching * 2 > tally.cases, "{tally:?}");
    assert!(tally.zero_area_contacts * 4 > tally.cases, "{tally:?}");
    assert!(tally.distance_zero * 8 > tally.cases && tally.distance_positive * 40 > tally.cases, "{tally:?}");
}
