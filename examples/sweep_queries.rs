//! Translational sweeps on the bundled meshes: time per sweep and work counts, with the
//! swept-box hierarchy alone and with the directional-cylinder cull in front of it.
//!
//! `cargo run --release --example sweep_queries -- [repeats]`
//!
//! Scenes: a bunny swept into another bunny (and into a teapot) from several directions,
//! sweeps that just miss, a long sweep (`s_max` a million sizes), and the last contact of two
//! overlapping bunnies (the separating translation along a direction).

use std::path::PathBuf;
use std::time::Instant;

use rapidpqp::io::load_obj;
use rapidpqp::query::sweep::{SweepRequest, SweepResult, sweep, sweep_last_contact};
use rapidpqp::{Mat3, Model, Placement, Triangle, Vec3};

fn model(tris: Vec<Triangle>) -> Model {
    let ids = (0..tris.len() as i32).collect();
    Model::new(tris, ids).expect("model builds")
}

fn mesh(name: &str) -> Model {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("meshes").join(name);
    model(load_obj(path).expect("mesh loads").triangles())
}

/// The gears mesh split in two: one planet gear (the connected component whose centre is
/// nearest `(4.6, 14.1)`), and everything else (ring, sun, the other planets).
fn gears() -> (Model, Model) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("meshes").join("gears.obj");
    let mesh = load_obj(path).expect("mesh loads");
    let mut parts = mesh.components();
    let target = Vec3::new(4.6, 14.1, 7.5);
    let nearest =
        |tris: &Vec<Triangle>| tris.iter().flatten().map(|p| (p - target).norm()).fold(f64::INFINITY, f64::min);
    let planet = (0..parts.len()).min_by(|&a, &b| nearest(&parts[a]).total_cmp(&nearest(&parts[b]))).expect("parts");
    let one = parts.swap_remove(planet);
    let rest = parts.concat();
    (model(one), model(rest))
}

/// Centre and half-size of a model's bounding box.
fn bounds(m: &Model) -> (Vec3, f64) {
    let mut lo = Vec3::repeat(f64::INFINITY);
    let mut hi = Vec3::repeat(f64::NEG_INFINITY);
    for p in m.triangles().iter().flatten() {
        lo = lo.inf(p);
        hi = hi.sup(p);
    }
    ((lo + hi) * 0.5, (hi - lo).amax() * 0.5)
}

fn rotation(axis: Vec3, angle: f64) -> Mat3 {
    *nalgebra::Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle).matrix()
}

type Query =
    fn(&Model, &Placement, &Model, &Placement, &SweepRequest) -> Result<SweepResult, rapidpqp::query::QueryError>;

/// Model 1, its placement, model 2, its placement.
type Scene<'a> = (&'a Model, &'a Placement, &'a Model, &'a Placement);

/// Runs one sweep `repeats` times with and without the cylinder cull; prints a row for each.
fn row(label: &str, query: Query, (a, pa, b, pb): Scene, v: Vec3, s_max: f64, repeats: usize) {
    for cull in [false, true] {
        let req = SweepRequest { direction: v, s_max, cylinder_cull: cull };
        let mut result = query(a, pa, b, pb, &req).expect("valid sweep");
        let start = Instant::now();
        for _ in 0..repeats {
            result = query(a, pa, b, pb, &req).expect("valid sweep");
        }
        let us = start.elapsed().as_secs_f64() * 1e6 / repeats as f64;
        let answer = match result.contact {
            Some(c) => format!("s = {:<12.6} pair ({:>5}, {:>5})", c.s, c.pair.0, c.pair.1),
            None => format!("{:<35}", "free"),
        };
        println!(
            "{label:<28} {:<9} {answer} {:>9} box {:>7} tri {:>10.1} us",
            if cull { "cylinder" } else { "boxes" },
            result.bv_tests,
            result.tri_tests,
            us
        );
    }
}

fn main() {
    let repeats: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let bunny = mesh("bunny_15k.obj");
    let teapot = mesh("teapot.obj");
    let (cb, rb) = bounds(&bunny);
    let (ct, rt) = bounds(&teapot);
    println!(
        "bunny_15k: {} triangles, teapot: {} triangles; {repeats} repeats",
        bunny.num_triangles(),
        teapot.num_triangles()
    );
    let b_place = Placement::IDENTITY;
    let directions = [
        Vec3::x(),
        -Vec3::x(),
        Vec3::y(),
        -Vec3::z(),
        Vec3::new(1.0, 1.0, 1.0).normalize(),
        Vec3::new(-0.3, 0.8, 0.5).normalize(),
    ];
    for (k, dir) in directions.iter().enumerate() {
        // Bunny A starts 3 half-sizes away from B along dir, turned, swept back towards B.
        let r = rotation(Vec3::new(0.2, 1.0, 0.3), 0.7 * k as f64);
        let start = cb + dir * (3.0 * rb);
        let pa = Placement { rotation: r, translation: start - r * cb, scale: 1.0 };
        row(&format!("bunny->bunny dir {k}"), sweep, (&bunny, &pa, &bunny, &b_place), -dir, 6.0 * rb, repeats);
    }
    // Into a teapot scaled to the bunny's size.
    let scale = rb / rt;
    let pt = Placement { rotation: Mat3::identity(), translation: cb - ct * scale, scale };
    for (k, dir) in directions.iter().take(3).enumerate() {
        let start = cb + dir * (3.0 * rb);
        let pa = Placement { rotation: Mat3::identity(), translation: start - cb, scale: 1.0 };
        row(&format!("bunny->teapot dir {k}"), sweep, (&bunny, &pa, &teapot, &pt), -dir, 6.0 * rb, repeats);
    }
    // Passing beside: offset sideways by 2.2 half-sizes (free), and a long sweep.
    let side = Placement { rotation: Mat3::identity(), translation: Vec3::new(-3.0 * rb, 2.2 * rb, 0.0), scale: 1.0 };
    row("bunny beside bunny", sweep, (&bunny, &side, &bunny, &b_place), Vec3::x(), 6.0 * rb, repeats);
    row("bunny beside, s_max 1e6", sweep, (&bunny, &side, &bunny, &b_place), Vec3::x(), 1e6 * rb, repeats);
    // Overlapping bunnies: the last contact along +x (where they separate).
    let overlap = Placement { rotation: Mat3::identity(), translation: Vec3::new(0.3 * rb, 0.0, 0.0), scale: 1.0 };
    row(
        "last contact, overlapping",
        sweep_last_contact,
        (&bunny, &overlap, &bunny, &b_place),
        Vec3::x(),
        4.0 * rb,
        repeats,
    );
    // A planet gear pulled out of the gear set along its axis (its teeth slide along the
    // neighbours' faces), and pushed sideways into them.
    let (planet, others) = gears();
    println!("gears: planet {} triangles, the rest {}", planet.num_triangles(), others.num_triangles());
    let id = Placement::IDENTITY;
    for (label, dir) in [
        ("planet out along +z", Vec3::z()),
        ("planet sideways +x", Vec3::x()),
        ("planet radial", Vec3::new(0.31, 0.95, 0.0)),
    ] {
        row(label, sweep, (&planet, &id, &others, &id), dir, 30.0, repeats);
    }
    let lifted = Placement { translation: Vec3::new(0.0, 0.0, 16.0), ..id };
    row("planet back in along -z", sweep, (&planet, &lifted, &others, &id), -Vec3::z(), 30.0, repeats);
    row("first contact, overlapping", sweep, (&bunny, &overlap, &bunny, &b_place), Vec3::x(), 4.0 * rb, repeats);
}
