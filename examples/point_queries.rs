//! Closest-point throughput on the bundled meshes (one thread).
//!
//! `cargo run --release --example point_queries -- [points]` prints, for `meshes/bunny.obj`
//! and `meshes/dragon_100k.obj`, points per second with the box and triangle tests per query
//! (as one batch, which orders the points along a space-filling curve and starts each search
//! from its predecessor's triangle, and as one call per point in random order),
//! for points sampled uniformly in the bounding box enlarged by 10 % and for points near the
//! surface (within 1 % of the box's diagonal of a random surface point); then the cost of the
//! leaf routine against the general triangle–triangle distance with the point as a
//! degenerate triangle.

use std::path::PathBuf;
use std::time::Instant;

use rapidpqp::geometry::tri_distance::{point_triangle_distance, triangle_distance};
use rapidpqp::io::load_obj;
use rapidpqp::query::point::{ClosestPoint, closest_point, closest_points};
use rapidpqp::{Model, Triangle, Vec3};

/// xorshift64*: deterministic samples.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn vec(&mut self) -> Vec3 {
        Vec3::new(self.unit(), self.unit(), self.unit())
    }
}

fn bounds(tris: &[Triangle]) -> (Vec3, Vec3) {
    let lo = tris.iter().flatten().fold(Vec3::repeat(f64::INFINITY), |a, p| a.inf(p));
    let hi = tris.iter().flatten().fold(Vec3::repeat(f64::NEG_INFINITY), |a, p| a.sup(p));
    (lo, hi)
}

fn run(model: &Model, label: &str, points: &[Vec3]) {
    let mut out: Vec<Option<ClosestPoint>> = vec![None; points.len()];
    // Warm-up (grows the thread's stack), then the timed pass.
    closest_points(model, &points[..points.len().min(100)], f64::INFINITY, &mut out[..points.len().min(100)])
        .expect("valid points");
    let start = Instant::now();
    let stats = closest_points(model, points, f64::INFINITY, &mut out).expect("valid points");
    let secs = start.elapsed().as_secs_f64();
    let n = points.len() as f64;
    let on = out.iter().flatten().filter(|r| r.on_surface).count();
    println!(
        "  {label:<28} batch  {:>9.0} points/s  {:>6.1} box tests  {:>5.1} triangle tests per query  ({on} on the surface)",
        n / secs,
        stats.bv_tests as f64 / n,
        stats.tri_tests as f64 / n,
    );
    // One call per point, in the given (random) order: no reordering, no warm start.
    let start = Instant::now();
    let (mut bv, mut tri) = (0, 0);
    for p in points {
        let r = closest_point(model, p).expect("valid point");
        (bv, tri) = (bv + r.bv_tests, tri + r.tri_tests);
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "  {:<28} single {:>9.0} points/s  {:>6.1} box tests  {:>5.1} triangle tests per query",
        "",
        n / secs,
        bv as f64 / n,
        tri as f64 / n,
    );
}

fn main() {
    let count: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("meshes");
    let mut rng = Rng(0x5eed_0f90_1700);
    for name in ["bunny.obj", "dragon_100k.obj"] {
        let tris = load_obj(dir.join(name)).expect("mesh loads").triangles();
        let ids = (0..tris.len() as i32).collect();
        let model = Model::new(tris.clone(), ids).expect("model builds");
        let (lo, hi) = bounds(&tris);
        let diag = (hi - lo).norm();
        println!("{name}: {} triangles, {count} points", tris.len());
        let in_box: Vec<Vec3> =
            (0..count).map(|_| lo - (hi - lo) * 0.05 + (hi - lo).component_mul(&rng.vec()) * 1.1).collect();
        run(&model, "bounding box + 10 %", &in_box);
        let near: Vec<Vec3> = (0..count)
            .map(|_| {
                let t = tris[(rng.unit() * tris.len() as f64) as usize];
                let (u, v) = (rng.unit(), rng.unit());
                let (u, v) = if u + v > 1.0 { (1.0 - u, 1.0 - v) } else { (u, v) };
                let on = t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v;
                on + (rng.vec() * 2.0 - Vec3::repeat(1.0)) * (0.01 * diag)
            })
            .collect();
        run(&model, "near the surface (1 % diag)", &near);
        let vertices: Vec<Vec3> = (0..count).map(|i| tris[i % tris.len()][i % 3]).collect();
        run(&model, "on vertices", &vertices);
    }

    // The leaf routine against the general triangle distance with the point as a triangle.
    let tris: Vec<Triangle> = (0..1000).map(|_| [rng.vec(), rng.vec(), rng.vec()]).collect();
    let points: Vec<Vec3> = (0..1000).map(|_| rng.vec() * 2.0 - Vec3::repeat(0.5)).collect();
    let time = |f: &dyn Fn(&Vec3, &Triangle) -> f64| {
        let start = Instant::now();
        let mut sum = 0.0;
        for p in &points {
            for t in &tris {
                sum += f(p, t);
            }
        }
        (start.elapsed().as_secs_f64() * 1e9 / (points.len() * tris.len()) as f64, sum)
    };
    let (dedicated, s1) = time(&|p, t| point_triangle_distance(p, t).distance);
    let (general, s2) = time(&|p, t| triangle_distance(t, &[*p; 3]).distance);
    println!(
        "point-triangle: {dedicated:.1} ns dedicated, {general:.1} ns as a degenerate triangle pair (sums {s1:.6} {s2:.6})"
    );
}
