//! Demo: two Stanford bunnies (15,536 triangles each) at a few poses — contacts, distance
//! work counts and timings. Run with `cargo run --release --example demo`.

use std::time::Instant;

use rapidpqp::io::load_obj;
use rapidpqp::query::{CollideRequest, CollideResult, collide};
use rapidpqp::{Mat3, Model, Placement, Vec3};

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/meshes/bunny_15k.obj").to_string());
    let mesh = load_obj(&path).unwrap_or_else(|e| panic!("{e}"));
    let tris = mesh.triangles();
    let ids: Vec<i32> = (0..tris.len() as i32).collect();
    let start = Instant::now();
    let model = Model::new(tris, ids).expect("mesh builds");
    let build = start.elapsed();
    println!(
        "{path}: {} triangles, built in {:.1} ms, {} bytes ({:.0} per triangle)",
        model.num_triangles(),
        build.as_secs_f64() * 1e3,
        model.memory_bytes(),
        model.memory_bytes() as f64 / model.num_triangles() as f64
    );

    use std::f64::consts::{FRAC_PI_2, FRAC_PI_6, PI};
    let rotation = |angle: f64| *nalgebra::Rotation3::from_axis_angle(&Vec3::y_axis(), angle).matrix();
    let at = |angle: f64, shift: Vec3| Placement { rotation: rotation(angle), translation: shift, scale: 1.0 };
    let poses: [(&str, Placement); 5] = [
        ("same place", Placement::IDENTITY),
        ("shifted 2 cm, turned 30°", at(FRAC_PI_6, Vec3::new(0.02, 0.0, 0.0))),
        ("shifted 8 cm, turned 90°", at(FRAC_PI_2, Vec3::new(0.08, 0.01, 0.0))),
        ("shifted 15 cm (apart)", at(0.0, Vec3::new(0.15, 0.0, 0.0))),
        ("mirror-turned, 5 cm up", at(PI, Vec3::new(0.0, 0.05, 0.0))),
    ];
    let mut result = CollideResult::new();
    println!(
        "\n{:<28} {:>9} {:>11} {:>11} {:>10}",
        "pose of bunny 2", "contacts", "box tests", "tri tests", "time (µs)"
    );
    for (name, pose) in &poses {
        let request = CollideRequest::default();
        let start = Instant::now();
        collide(&model, &Placement::IDENTITY, &model, pose, &request, &mut result).unwrap();
        let time = start.elapsed();
        println!(
            "{name:<28} {:>9} {:>11} {:>11} {:>10.1}",
            result.pairs.len(),
            result.bv_tests,
            result.tri_tests,
            time.as_secs_f64() * 1e6
        );
    }
    let _ = Mat3::identity();
}
