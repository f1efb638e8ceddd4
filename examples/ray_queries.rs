//! Throughput of ray casts and inside/outside queries on one thread.
//!
//! `cargo run --release --example ray_queries -- [mesh.obj ...] [--rays N] [--points N]`
//! (defaults: `meshes/bunny.obj`, `meshes/dragon_100k.obj` and the closed
//! `meshes/armadillo_50k.obj`; 200,000 rays and 50,000 points). Rays run from random points
//! on a sphere twice the model's size towards random points of its bounding box; query points
//! are uniform in the box grown by 10 %. Prints queries per second, box and triangle tests per
//! query, and for inside/outside how often a direction had to be retried or the perturbation
//! decided.

use std::path::PathBuf;
use std::time::Instant;

use rapidpqp::io::load_obj;
use rapidpqp::query::{Ray, RayHit, Winding, ray_any_hits, ray_first_hits, windings};
use rapidpqp::{Model, Vec3};

/// Deterministic pseudo-random numbers in [0, 1).
struct Lcg(u64);
impl Lcg {
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn vec(&mut self) -> Vec3 {
        Vec3::new(self.unit(), self.unit(), self.unit())
    }
}

fn main() {
    let mut paths = Vec::new();
    let (mut n_rays, mut n_points) = (200_000usize, 50_000usize);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rays" => n_rays = args.next().and_then(|v| v.parse().ok()).expect("--rays N"),
            "--points" => n_points = args.next().and_then(|v| v.parse().ok()).expect("--points N"),
            _ => paths.push(PathBuf::from(a)),
        }
    }
    if paths.is_empty() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("meshes");
        paths = ["bunny.obj", "dragon_100k.obj", "armadillo_50k.obj"].iter().map(|n| dir.join(n)).collect();
    }
    grid_points_on_a_cube();
    for path in paths {
        let mesh = load_obj(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let model = Model::from_indexed(&mesh.vertices, &mesh.faces).expect("a valid mesh");
        let mut lo = Vec3::repeat(f64::INFINITY);
        let mut hi = Vec3::repeat(f64::NEG_INFINITY);
        for v in model.triangles().iter().flatten() {
            lo = lo.inf(v);
            hi = hi.sup(v);
        }
        let (centre, size) = ((lo + hi) * 0.5, (hi - lo).norm());
        let mut rng = Lcg(1);
        let rays: Vec<Ray> = (0..n_rays)
            .map(|_| {
                let dir = loop {
                    let v = rng.vec() * 2.0 - Vec3::repeat(1.0);
                    if v.norm() > 0.1 && v.norm() <= 1.0 {
                        break v.normalize();
                    }
                };
                let origin = centre + dir * size;
                let target = lo + (hi - lo).component_mul(&rng.vec());
                Ray { origin, direction: target - origin }
            })
            .collect();
        println!("{} ({} triangles)", path.file_name().unwrap().to_string_lossy(), model.num_triangles());

        let mut first = vec![None::<RayHit>; rays.len()];
        let start = Instant::now();
        let work = ray_first_hits(&model, &rays, f64::INFINITY, &mut first).expect("valid rays");
        let secs = start.elapsed().as_secs_f64();
        let hits = first.iter().filter(|h| h.is_some()).count();
        println!(
            "  first hit: {:>10.0} rays/s   {:6.1} box tests, {:5.1} triangle tests per ray   ({:.1} % hit)",
            rays.len() as f64 / secs,
            work.box_tests as f64 / rays.len() as f64,
            work.triangle_tests as f64 / rays.len() as f64,
            100.0 * hits as f64 / rays.len() as f64
        );
        let mut any = vec![false; rays.len()];
        let start = Instant::now();
        let work = ray_any_hits(&model, &rays, f64::INFINITY, &mut any).expect("valid rays");
        let secs = start.elapsed().as_secs_f64();
        assert!(any.iter().zip(&first).all(|(a, f)| *a == f.is_some()));
        println!(
            "  any hit:   {:>10.0} rays/s   {:6.1} box tests, {:5.1} triangle tests per ray",
            rays.len() as f64 / secs,
            work.box_tests as f64 / rays.len() as f64,
            work.triangle_tests as f64 / rays.len() as f64
        );

        let grow = (hi - lo) * 0.1;
        let points: Vec<Vec3> =
            (0..n_points).map(|_| lo - grow + (hi - lo + grow * 2.0).component_mul(&rng.vec())).collect();
        let mut out = vec![Winding::OnSurface; points.len()];
        let start = Instant::now();
        let work = windings(&model, &points, &mut out).expect("valid points");
        let secs = start.elapsed().as_secs_f64();
        let inside = out.iter().filter(|w| w.is_inside()).count();
        println!(
            "  winding:   {:>10.0} points/s {:6.1} box tests, {:5.1} triangle tests per point   ({:.1} % inside; {} of {} retried, {} perturbed)",
            points.len() as f64 / secs,
            work.box_tests as f64 / points.len() as f64,
            work.triangle_tests as f64 / points.len() as f64,
            100.0 * inside as f64 / points.len() as f64,
            work.retried,
            points.len(),
            work.perturbed
        );
    }
}

/// The adversarial case for the direction sequence: every point of a 1/8 grid around a cube
/// whose faces are split into 8 × 8 squares (so the points lie on the lines and planes of many
/// edges and faces), counted as OnSurface / inside / outside, with the retries.
fn grid_points_on_a_cube() {
    let n = 8;
    let mut tris = Vec::new();
    let s = 1.0 / n as f64;
    type Face = fn(f64, f64) -> Vec3;
    let faces: [Face; 6] = [
        |u, v| Vec3::new(v, u, 0.0),
        |u, v| Vec3::new(u, v, 1.0),
        |u, v| Vec3::new(u, 0.0, v),
        |u, v| Vec3::new(v, 1.0, u),
        |u, v| Vec3::new(0.0, v, u),
        |u, v| Vec3::new(1.0, u, v),
    ];
    for f in faces {
        for i in 0..n {
            for j in 0..n {
                let (u0, u1, v0, v1) = (i as f64 * s, (i + 1) as f64 * s, j as f64 * s, (j + 1) as f64 * s);
                tris.push([f(u0, v0), f(u1, v0), f(u1, v1)]);
                tris.push([f(u0, v0), f(u1, v1), f(u0, v1)]);
            }
        }
    }
    let ids = (0..tris.len() as i32).collect();
    let model = Model::new(tris, ids).expect("a valid mesh");
    let coords: Vec<f64> = (-4..=12).map(|k| k as f64 / 8.0).collect();
    let mut points = Vec::new();
    for &x in &coords {
        for &y in &coords {
            for &z in &coords {
                points.push(Vec3::new(x, y, z));
            }
        }
    }
    let mut out = vec![Winding::OnSurface; points.len()];
    let start = Instant::now();
    let work = windings(&model, &points, &mut out).expect("valid points");
    let secs = start.elapsed().as_secs_f64();
    let on = out.iter().filter(|w| **w == Winding::OnSurface).count();
    let inside = out.iter().filter(|w| w.is_inside()).count();
    println!(
        "grid points on a cube ({} triangles): {} points, {on} on the surface, {inside} inside; {} retried, {} perturbed; {:.0} points/s",
        model.num_triangles(),
        points.len(),
        work.retried,
        work.perturbed,
        points.len() as f64 / secs
    );
}
