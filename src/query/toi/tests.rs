use super::*;
use crate::math::Triangle;
use crate::query::closed_meshes::{cuboid, sphere, torus};
use crate::query::{CollideRequest, CollideResult, collide};
use crate::test_rng::{Rng, budget};

fn model(t: Vec<Triangle>) -> Model {
    let ids = (0..t.len() as i32).collect();
    Model::new(t, ids).unwrap()
}

fn at(t: Vec3) -> Placement {
    Placement { rotation: Mat3::identity(), translation: t, scale: 1.0 }
}

fn touching(m1: &Model, p1: &Placement, m2: &Model, p2: &Placement) -> bool {
    let mut r = CollideResult::new();
    collide(m1, p1, m2, p2, &CollideRequest { first_contact: true, ..Default::default() }, &mut r).unwrap();
    !r.pairs.is_empty()
}

/// Checks a result against dense sampling of the motion with the exact collide: no contact at
/// any sampled time before the one returned; within the tolerance there (for a contact); a
/// free motion has no sampled contact.
fn check_against_sampling(
    m1: &Model,
    start: &Placement,
    end: &Placement,
    m2: &Model,
    p2: &Placement,
    tol: f64,
    samples: usize,
) -> Toi {
    let request = ToiRequest { tolerance: Some(tol), ..Default::default() };
    let toi = time_of_impact(m1, start, end, m2, p2, &request).unwrap();
    let motion = RigidMotion::new(start, end);
    let first_sampled = (0..=samples).map(|k| k as f64 / samples as f64).find(|&t| touching(m1, &motion.at(t), m2, p2));
    match toi.outcome {
        ToiOutcome::Contact => {
            assert!(toi.distance <= tol, "{toi:?}");
            if let Some(t) = first_sampled {
                assert!(toi.time <= t, "late: {} after a sampled contact at {t}", toi.time);
            }
            // Nothing touches before it.
            for k in 0..samples {
                let t = toi.time * k as f64 / samples as f64;
                assert!(t >= toi.time || !touching(m1, &motion.at(t), m2, p2), "contact at {t} before {}", toi.time);
            }
        }
        ToiOutcome::Free => assert_eq!(first_sampled, None, "{toi:?}"),
        ToiOutcome::StepLimit => panic!("step limit: {toi:?}"),
    }
    toi
}

#[test]
fn a_turning_bar_hits_a_post() {
    // A bar along x from the origin turns about z by 90° towards a post standing on the y axis.
    let bar = model(cuboid(Vec3::new(0.0, -0.05, -0.05), Vec3::new(2.0, 0.05, 0.05)));
    let post = model(cuboid(Vec3::new(-0.1, 1.0, -1.0), Vec3::new(0.1, 1.2, 1.0)));
    let start = at(Vec3::zeros());
    let quarter = Rotation3::from_axis_angle(&Vec3::z_axis(), std::f64::consts::FRAC_PI_2).into_inner();
    let end = Placement { rotation: quarter, ..start };
    let toi = check_against_sampling(&bar, &start, &end, &post, &at(Vec3::zeros()), 1e-4, 400);
    assert_eq!(toi.outcome, ToiOutcome::Contact);
    // The bar's leading edge (y = 0.05 side) reaches the post's face x = 0.1 when the bar's
    // upper long edge passes the post's corner (0.1, 1.0): the corner is hit at angle
    // atan2(1.0, 0.1) − asin(0.05 / |(0.1, 1.0)|) from the y axis side, i.e. at time θ/(π/2).
    let r = (0.1f64 * 0.1 + 1.0).sqrt();
    let theta = 1.0f64.atan2(0.1) - (0.05 / r).asin();
    let exact = theta / std::f64::consts::FRAC_PI_2;
    assert!(toi.time <= exact && exact - toi.time < 1e-3, "{} vs {exact}", toi.time);
}

#[test]
fn screws_and_free_motions_agree_with_dense_sampling() {
    let mut rng = Rng(0x7011_0001);
    let ring = model(torus(16, 8, 1.0, 0.25));
    let ball = model(sphere(12, 6, Vec3::zeros(), 0.3));
    let block = model(cuboid(Vec3::new(-0.4, -0.4, -0.4), Vec3::new(0.4, 0.4, 0.4)));
    let (mut contacts, mut free) = (0, 0);
    for case in 0..budget(12, 120) {
        let m1 = if case % 2 == 0 { &ring } else { &ball };
        let start = Placement { rotation: rng.rotation(), translation: rng.vec(-3.0, 3.0), scale: 1.0 };
        let end = Placement { rotation: rng.rotation(), translation: rng.vec(-1.0, 1.0), scale: 1.0 };
        let toi = check_against_sampling(m1, &start, &end, &block, &at(Vec3::zeros()), 1e-3, 200);
        match toi.outcome {
            ToiOutcome::Contact => contacts += 1,
            _ => free += 1,
        }
    }
    assert!(contacts >= 2 && free >= 2, "{contacts} contacts, {free} free");
}

#[test]
fn pure_translations_are_swept_exactly() {
    let ball = model(sphere(12, 6, Vec3::zeros(), 0.5));
    let block = model(cuboid(Vec3::new(2.0, -1.0, -1.0), Vec3::new(3.0, 1.0, 1.0)));
    let start = at(Vec3::zeros());
    let end = at(Vec3::new(4.0, 0.0, 0.0));
    let toi = time_of_impact(&ball, &start, &end, &block, &at(Vec3::zeros()), &ToiRequest::default()).unwrap();
    // The sphere's vertex at +x (0.5, 0, 0) meets the face x = 2 after 1.5 of 4.
    assert_eq!(toi.outcome, ToiOutcome::Contact);
    assert!(toi.time <= 1.5 / 4.0 && 1.5 / 4.0 - toi.time < 1e-12, "{toi:?}");
    let miss = at(Vec3::new(0.0, 3.0, 0.0));
    let toi = time_of_impact(
        &ball,
        &miss,
        &Placement { translation: Vec3::new(4.0, 3.0, 0.0), ..miss },
        &block,
        &at(Vec3::zeros()),
        &ToiRequest::default(),
    )
    .unwrap();
    assert_eq!(toi.outcome, ToiOutcome::Free);
    // A lower bound of the distance at the end (1.5 there).
    assert!(toi.distance > 0.0 && toi.distance <= 1.5 + 1e-12, "{toi:?}");
}

#[test]
fn touching_at_the_start_and_refusals() {
    let a = model(cuboid(Vec3::zeros(), Vec3::repeat(1.0)));
    let b = model(cuboid(Vec3::new(1.0, 0.0, 0.0), Vec3::new(2.0, 1.0, 1.0)));
    let o = at(Vec3::zeros());
    let turned = Placement { rotation: Rotation3::from_axis_angle(&Vec3::x_axis(), 0.3).into_inner(), ..o };
    let toi = time_of_impact(&a, &o, &turned, &b, &o, &ToiRequest::default()).unwrap();
    assert_eq!((toi.outcome, toi.time), (ToiOutcome::Contact, 0.0));
    let scaled = Placement { scale: 2.0, ..o };
    assert_eq!(time_of_impact(&a, &o, &scaled, &b, &o, &ToiRequest::default()), Err(QueryError::InvalidArgument));
    let bad = ToiRequest { tolerance: Some(-1.0), ..Default::default() };
    assert_eq!(time_of_impact(&a, &o, &turned, &b, &o, &bad), Err(QueryError::InvalidArgument));
    let none = ToiRequest { max_steps: 0, ..Default::default() };
    assert_eq!(time_of_impact(&a, &o, &turned, &b, &o, &none), Err(QueryError::InvalidArgument));
    // A step budget of one on a far approach stops early with a lower bound.
    let far = at(Vec3::new(-10.0, 0.0, 0.0));
    let spin = Placement { rotation: turned.rotation, translation: Vec3::new(0.5, 0.0, 0.0), ..far };
    let one = ToiRequest { max_steps: 1, ..Default::default() };
    let toi = time_of_impact(&a, &far, &spin, &b, &o, &one).unwrap();
    assert_eq!((toi.outcome, toi.time, toi.steps), (ToiOutcome::StepLimit, 0.0, 1));
}
