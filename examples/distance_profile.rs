//! Profiling driver for the distance and tolerance queries (callgrind-friendly: fixed work).
//!
//! `cargo run --release --example distance_profile -- [gap|tol|linked|bunny|all] [repeats]`
//! prints per scene the answer (full precision), BV/triangle test counts and the time per query.

use std::f64::consts::PI;
use std::path::PathBuf;
use std::time::Instant;

use rapidpqp::io::load_obj;
use rapidpqp::query::distance::{DistanceCache, DistanceRequest, distance, tolerance};
use rapidpqp::{Mat3, Model, Placement, Triangle, Vec3};

fn torus(big: f64, small: f64, n: usize, m: usize) -> Vec<Triangle> {
    let v = |i: usize, j: usize| {
        let (u, w) = (2.0 * PI * (i % n) as f64 / n as f64, 2.0 * PI * (j % m) as f64 / m as f64);
        Vec3::new((big + small * w.cos()) * u.cos(), (big + small * w.cos()) * u.sin(), small * w.sin())
    };
    let mut tris = Vec::with_capacity(2 * n * m);
    for i in 0..n {
        for j in 0..m {
            tris.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
            tris.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]);
        }
    }
    tris
}

fn model_from(tris: Vec<Triangle>) -> Model {
    let ids = (0..tris.len() as i32).collect();
    Model::new(tris, ids).expect("model builds")
}

fn placement(rotation: Mat3, translation: Vec3) -> Placement {
    Placement { rotation, translation, scale: 1.0 }
}

fn rot_x(a: f64) -> Mat3 {
    *nalgebra::Rotation3::from_axis_angle(&Vec3::x_axis(), a).matrix()
}

fn fixture(case: &str) -> (Model, Model, Vec<(Placement, Placement)>) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance").join(case);
    let a = model_from(load_obj(dir.join("a.obj")).unwrap().triangles());
    let b = model_from(load_obj(dir.join("b.obj")).unwrap().triangles());
    let text = std::fs::read_to_string(dir.join("poses.txt")).unwrap();
    let poses = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Vec<f64> = l.split_whitespace().map(|w| w.parse().unwrap()).collect();
            let p = |o: usize| {
                Placement::from_rows(
                    &[[v[o], v[o + 1], v[o + 2]], [v[o + 3], v[o + 4], v[o + 5]], [v[o + 6], v[o + 7], v[o + 8]]],
                    &[v[o + 9], v[o + 10], v[o + 11]],
                    v[o + 12],
                )
            };
            (p(0), p(13))
        })
        .collect();
    (a, b, poses)
}

/// Runs `query` over the poses `repeats` times (cache per sweep, as the benchmark).
fn scene(name: &str, a: &Model, b: &Model, poses: &[(Placement, Placement)], tol: Option<f64>, repeats: usize) {
    let queries: Vec<(Placement, Placement, Option<f64>)> = poses.iter().map(|&(p, q)| (p, q, tol)).collect();
    queries_scene(name, a, b, &queries, repeats);
}

/// The fixture's tolerance queries: (pose, tolerance) per line of `pqp_tolerance.txt`.
fn tolerance_queries(case: &str, poses: &[(Placement, Placement)]) -> Vec<(Placement, Placement, Option<f64>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance").join(case);
    let text = std::fs::read_to_string(dir.join("pqp_tolerance.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut w = l.split_whitespace();
            let pose: usize = w.next().unwrap().parse().unwrap();
            let tol: f64 = w.next().unwrap().parse().unwrap();
            (poses[pose].0, poses[pose].1, Some(tol))
        })
        .collect()
}

/// Runs each query (distance, or tolerance when it has one) `repeats` times (cache per sweep).
fn queries_scene(name: &str, a: &Model, b: &Model, poses: &[(Placement, Placement, Option<f64>)], repeats: usize) {
    let (mut bv, mut tri, mut sum) = (0u64, 0u64, 0.0f64);
    let mut hash = 0u64;
    let abs_err: f64 = std::env::var("ABS_ERR").map_or(0.0, |s| s.parse().unwrap());
    let qsize: usize = std::env::var("QSIZE").map_or(0, |s| s.parse().unwrap());
    let request = DistanceRequest { abs_err, qsize, ..Default::default() };
    // TOLCACHE=1: tolerance queries share the warm start too.
    let tol_cache = std::env::var("TOLCACHE").is_ok();
    let start = Instant::now();
    for rep in 0..repeats {
        let mut cache = DistanceCache::default();
        if std::env::var("WARM").is_ok() {
            let (p1, p2, _) = &poses[0];
            distance(a, p1, b, p2, &request, Some(&mut cache)).unwrap();
        }
        for (p1, p2, tol) in poses {
            let r = match *tol {
                None => distance(a, p1, b, p2, &request, Some(&mut cache)).unwrap(),
                Some(t) => tolerance(a, p1, b, p2, t, 2, tol_cache.then_some(&mut cache)).unwrap(),
            };
            if rep == 0 {
                bv += r.bv_tests;
                tri += r.tri_tests;
                sum += r.distance;
                for x in [r.distance, r.p1.x, r.p1.y, r.p1.z, r.p2.x, r.p2.y, r.p2.z] {
                    hash = hash.rotate_left(7) ^ x.to_bits();
                }
                hash ^= u64::from(r.closer);
            }
        }
    }
    let us = start.elapsed().as_secs_f64() * 1e6 / (repeats * poses.len()) as f64;
    if std::env::var("SPLIT").is_ok() {
        let (mut nc, mut bc, mut nn, mut bn) = (0, 0u64, 0, 0u64);
        for (p1, p2, tol) in poses {
            if let Some(t) = *tol {
                let r = tolerance(a, p1, b, p2, t, 2, None).unwrap();
                if r.closer {
                    nc += 1;
                    bc += r.bv_tests
                } else {
                    nn += 1;
                    bn += r.bv_tests
                }
            }
        }
        println!(
            "  closer {nc} avg bv {:.1}; not closer {nn} avg bv {:.1}",
            bc as f64 / nc.max(1) as f64,
            bn as f64 / nn.max(1) as f64
        );
    }
    let n = poses.len() as f64;
    println!(
        "{name:<8} {us:>10.2} µs  bv {:>10.1}  tri {:>8.1}  sum {sum:.17e}  hash {hash:016x}",
        bv as f64 / n,
        tri as f64 / n
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map_or("all", |s| s.as_str());
    let repeats: usize = args.get(2).map_or(1, |s| s.parse().unwrap());
    let want = |s: &str| which == "all" || which.split(',').any(|w| w == s);
    let t = model_from(torus(1.0, 0.25, 64, 32));
    let id = Placement::IDENTITY;
    let gap = [(id, placement(Mat3::identity(), Vec3::new(2.6, 0.0, 0.0)))];
    let linked = [(id, placement(rot_x(PI / 2.0), Vec3::new(1.0, 0.0, 0.0)))];
    if want("gap") {
        scene("gap", &t, &t, &gap, None, repeats);
    }
    if want("tol") {
        scene("tol", &t, &t, &gap, Some(0.2), repeats);
    }
    if want("linked") {
        scene("linked", &t, &t, &linked, None, repeats);
    }
    if want("bunny") {
        let (a, b, poses) = fixture("bunny_sphere");
        scene("bunny", &a, &b, &poses, None, repeats);
    }
    for case in ["tori", "soup", "single"] {
        let tol = format!("{case}_tol");
        if want(case) || want(&tol) {
            let (a, b, poses) = fixture(case);
            if want(case) {
                scene(case, &a, &b, &poses, None, repeats);
            }
            if want(&tol) {
                queries_scene(&tol, &a, &b, &tolerance_queries(case, &poses), repeats);
            }
        }
    }
    for case in ["bunny_sphere", "separated"] {
        let tol = format!("{}_tol", &case[..3]);
        if want(&tol) {
            let (a, b, poses) = fixture(case);
            queries_scene(&tol, &a, &b, &tolerance_queries(case, &poses), repeats);
        }
    }
    if want("far") {
        let bunny = model_from(
            load_obj(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("meshes/bunny.obj")).unwrap().triangles(),
        );
        for x in std::env::var("FARX").map_or(vec![1e3, 1e6, 1e12, 1e15, 1e100, 1e300], |s| vec![s.parse().unwrap()]) {
            let p2 = placement(rot_x(0.3), Vec3::new(x, 0.0, 0.0));
            scene(&format!("far{x:e}"), &bunny, &bunny, &[(id, p2)], None, repeats);
        }
    }
    if want("sep") {
        let (a, b, poses) = fixture("separated");
        scene("sep", &a, &b, &poses, None, repeats);
    }
}
