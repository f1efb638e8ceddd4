//! Collide against brute force (every triangle pair tested exactly) on random and degenerate
//! soups at random poses and scales.

use rapidpqp::bv::obb::BoxTest;
mod common;

use common::brute_force;
use rapidpqp::query::{CollideRequest, CollideResult, TriangleFrame, collide};
use rapidpqp::{Mat3, Model, Placement, Triangle, Vec3};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn vec(&mut self, scale: f64) -> Vec3 {
        Vec3::new(self.next() - 0.5, self.next() - 0.5, self.next() - 0.5) * scale
    }
    fn rotation(&mut self) -> Mat3 {
        let axis = self.vec(1.0) + Vec3::new(1e-3, 0.0, 0.0);
        *nalgebra::Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(axis), 6.3 * self.next()).matrix()
    }
}

/// Random soup; some triangles degenerate (collinear, repeated vertex, point), some snapped
/// to a coarse grid so that exact touching happens.
fn soup(rng: &mut Rng, n: usize) -> Vec<Triangle> {
    (0..n)
        .map(|k| {
            let c = rng.vec(1.0);
            let s = 0.05 + 0.4 * rng.next();
            let mut t = [c + rng.vec(s), c + rng.vec(s), c + rng.vec(s)];
            match k % 11 {
                0 => t[2] = t[0] + (t[1] - t[0]) * 0.5,
                1 => t[1] = t[0],
                2 => t = [t[0], t[0], t[0]],
                3 | 4 => t = t.map(|p| p.map(|v| (v * 8.0).round() / 8.0)),
                _ => {}
            }
            t
        })
        .collect()
}

#[test]
fn random_soups_match_brute_force() {
    let mut rng = Rng(0x9e3779b97f4a7c15);
    let mut out = CollideResult::new();
    let mut total = 0;
    for round in 0..60 {
        let a = soup(&mut rng, 40 + round);
        let b = soup(&mut rng, 30 + 2 * round);
        let ma = Model::new(a.clone(), (0..a.len() as i32).collect()).unwrap();
        let mb = Model::new(b.clone(), (0..b.len() as i32).collect()).unwrap();
        ma.validate().unwrap();
        mb.validate().unwrap();
        for _ in 0..6 {
            let exact = rng.next() < 0.3;
            let (p1, p2) = if exact {
                // Same placement for both: relative transform exactly the identity.
                let p = Placement { rotation: rng.rotation(), translation: rng.vec(4.0), scale: 1.0 };
                (p, p)
            } else {
                let s = |r: &mut Rng| if r.next() < 0.3 { 0.5 + 2.0 * r.next() } else { 1.0 };
                (
                    Placement { rotation: rng.rotation(), translation: rng.vec(0.5), scale: s(&mut rng) },
                    Placement { rotation: rng.rotation(), translation: rng.vec(0.5), scale: s(&mut rng) },
                )
            };
            for frame in [TriangleFrame::Model1, TriangleFrame::Model2] {
                let mut want = brute_force(&a, &b, &p1, &p2, frame);
                want.sort_unstable();
                for box_test in BoxTest::ALL {
                    let request = CollideRequest { first_contact: false, box_test, frame, geometry: false };
                    collide(&ma, &p1, &mb, &p2, &request, &mut out).unwrap();
                    let mut got: Vec<_> = out.pairs.iter().map(|p| (p.id1, p.id2)).collect();
                    got.sort_unstable();
                    assert_eq!(got, want, "round {round} frame {frame:?} {box_test:?}");
                    let request = CollideRequest { first_contact: true, box_test, frame, geometry: false };
                    collide(&ma, &p1, &mb, &p2, &request, &mut out).unwrap();
                    assert_eq!(out.pairs.len(), usize::from(!want.is_empty()));
                    assert!(out.pairs.iter().all(|p| want.binary_search(&(p.id1, p.id2)).is_ok()));
                }
                total += want.len();
            }
        }
    }
    assert!(total > 1000, "the random scenes should produce many contacts ({total})");
}
