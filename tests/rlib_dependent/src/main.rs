//! Two crossing triangles through rapidpqp's Rust API: prints their one contact.
use rapidpqp::query::{CollideRequest, CollideResult, collide};
use rapidpqp::{Model, Placement, Vec3};

fn main() {
    let a = [Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0)];
    let b = [Vec3::new(0.2, 0.2, -1.0), Vec3::new(0.2, 0.2, 1.0), Vec3::new(1.0, 1.0, 0.0)];
    let a = Model::new(vec![a], vec![7]).expect("model a");
    let b = Model::new(vec![b], vec![9]).expect("model b");
    let mut result = CollideResult::new();
    let at = Placement::IDENTITY;
    collide(&a, &at, &b, &at, &CollideRequest::default(), &mut result).expect("collide");
    let pairs: Vec<_> = result.pairs.iter().map(|p| (p.id1, p.id2)).collect();
    println!("contacts {pairs:?}");
}
