//! n-body: the V-COLLIDE 2.01 scene (per-frame time against V-COLLIDE's ~114 µs) and larger
//! scenes of moving objects, to show how a frame's cost grows with the number of objects.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use rapidpqp::io::load_obj;
use rapidpqp::nbody::World;
use rapidpqp::{Model, Triangle, Vec3};

use crate::report::root;
use crate::shapes::torus;

/// Runs both scenes, prints their table and returns its CSV.
pub fn run(repeats: usize, failures: &mut Vec<String>) -> String {
    say!("\n## n-body (V-COLLIDE scene and larger scenes)\n");
    say!(
        "| scene | objects | triangles | frames | µs per frame | candidate pairs per frame | colliding pairs per frame | reference |"
    );
    say!("|---|---|---|---|---|---|---|---|");
    let mut csv =
        String::from("scene,objects,triangles,frames,us_per_frame,candidates_per_frame,colliding_per_frame\n");
    let mut emit =
        |name: &str, objects: usize, tris: usize, frames: usize, us: f64, cand: f64, coll: f64, reference: &str| {
            say!("| {name} | {objects} | {tris} | {frames} | {us:.1} | {cand:.1} | {coll:.2} | {reference} |");
            let _ = writeln!(csv, "{name},{objects},{tris},{frames},{us:.2},{cand:.2},{coll:.3}");
        };

    // The recorded V-COLLIDE scene: objects/*.obj, frames.txt (commands and 16·N numbers).
    let scene = root().join("tests/data/vcollide_scene");
    let mut files: Vec<PathBuf> = std::fs::read_dir(scene.join("objects"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "obj"))
        .collect();
    files.sort();
    let objects: Vec<Vec<Triangle>> = files.iter().map(|f| load_obj(f).unwrap().triangles()).collect();
    let total_tris: usize = objects.iter().map(Vec::len).sum();
    let text = std::fs::read_to_string(scene.join("frames.txt")).unwrap();
    let lines: Vec<Vec<String>> = text
        .lines()
        .map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .filter(|w| !w.is_empty() && !w[0].starts_with('#'))
        .collect();
    let mut best = f64::INFINITY;
    let (mut frames, mut cand, mut coll) = (0usize, 0usize, 0usize);
    for _ in 0..repeats {
        let mut world = World::new();
        for tris in &objects {
            let ids = (0..tris.len() as i32).collect();
            world.add_object(tris.clone(), ids).unwrap();
        }
        let start = Instant::now();
        (frames, cand, coll) = (0, 0, 0);
        for words in &lines {
            let id = |k: usize| words[k].parse::<u32>().unwrap();
            match words[0].as_str() {
                "deactivate_pair" => drop(world.deactivate_pair(id(1), id(2))),
                "activate_pair" => drop(world.activate_pair(id(1), id(2))),
                "deactivate" => drop(world.deactivate(id(1))),
                "activate" => drop(world.activate(id(1))),
                _ => {
                    let v: Vec<f64> = words.iter().map(|w| w.parse().unwrap()).collect();
                    for (k, m) in v.chunks_exact(16).enumerate() {
                        let pose = [
                            [m[0], m[1], m[2], m[3]],
                            [m[4], m[5], m[6], m[7]],
                            [m[8], m[9], m[10], m[11]],
                            [m[12], m[13], m[14], m[15]],
                        ];
                        world.set_pose(k as u32, &pose).unwrap();
                    }
                    cand += world.candidates().count();
                    coll += world.collide(true).len();
                    frames += 1;
                }
            }
        }
        best = best.min(start.elapsed().as_secs_f64() * 1e6 / frames as f64);
    }
    emit(
        "vcollide_scene",
        objects.len(),
        total_tris,
        frames,
        best,
        cand as f64 / frames as f64,
        coll as f64 / frames as f64,
        "V-COLLIDE 2.01 ≈114 µs",
    );

    // Larger scenes: N tori (512 triangles each) drifting in a box sized so that a few percent
    // of the pairs are near each other; 100 frames of coherent motion.
    let piece = torus(0.5, 0.15, 16, 16);
    for n in [50usize, 100, 200, 400, 800] {
        let side = 2.0 * (n as f64).cbrt() * 1.6;
        let mut rnd = uniform(0x2545f4914f6cdd1d);
        let mut world = World::new();
        let mut bodies = Vec::new();
        for _ in 0..n {
            world.add_object(piece.clone(), (0..piece.len() as i32).collect()).unwrap();
            let p = Vec3::new(rnd() * side, rnd() * side, rnd() * side);
            let v = Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5) * 0.02;
            let axis = nalgebra::Unit::new_normalize(Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5 + 1e-3));
            bodies.push((p, v, axis, rnd() * 6.0));
        }
        let frames = 100;
        let (mut cand, mut coll) = (0usize, 0usize);
        let start = Instant::now();
        for f in 0..frames {
            for (k, (p, v, axis, phase)) in bodies.iter_mut().enumerate() {
                *p += *v;
                for c in 0..3 {
                    if p[c] < 0.0 || p[c] > side {
                        v[c] = -v[c];
                    }
                }
                let r = nalgebra::Rotation3::from_axis_angle(axis, *phase + 0.01 * f as f64);
                let m = r.matrix();
                let pose = [
                    [m[(0, 0)], m[(0, 1)], m[(0, 2)], p.x],
                    [m[(1, 0)], m[(1, 1)], m[(1, 2)], p.y],
                    [m[(2, 0)], m[(2, 1)], m[(2, 2)], p.z],
                    [0.0, 0.0, 0.0, 1.0],
                ];
                world.set_pose(k as u32, &pose).unwrap();
            }
            cand += world.candidates().count();
            coll += world.collide(true).len();
        }
        let us = start.elapsed().as_secs_f64() * 1e6 / frames as f64;
        emit(
            &format!("tori x{n}"),
            n,
            n * piece.len(),
            frames,
            us,
            cand as f64 / frames as f64,
            coll as f64 / frames as f64,
            "",
        );
    }

    // The same scenes with deforming tori: each frame every torus's tube breathes (its radius
    // swings by half) through `World::update_vertices`, which refits it and moves its box in
    // the broad phase; the frame's time includes those updates. Every 10th frame is checked
    // against `collide_brute_force`. Each size runs twice, with the same motion: box models
    // (`World::add_deformable`), then k-DOP models (`Model::set_kdop(true)`, then
    // `World::add_model`; placed by translations only, so collide runs on the k-DOP trees),
    // whose checked frames' contacts must also equal the box models'.
    let (rest, faces) = indexed_torus(0.5, 0.15, 16, 16);
    for n in [50usize, 200] {
        let boxes = deforming_tori(n, false, &rest, &faces);
        let kdops = deforming_tori(n, true, &rest, &faces);
        for (run, label) in [(&boxes, ""), (&kdops, " k-DOP")] {
            let name = format!("deforming tori x{n}{label}");
            if !run.checked {
                failures.push(format!("{name}: collide differs from collide_brute_force"));
            }
            // (The k-DOP run against the box run.)
            let differs = if label.is_empty() {
                None
            } else {
                (0..run.snapshots.len()).find(|&k| run.snapshots[k] != boxes.snapshots[k])
            };
            if let Some(k) = differs {
                failures.push(format!(
                    "{name}: frame {}: contacts differ from the box models' ({} vs {} object pairs)",
                    10 * k,
                    run.snapshots[k].len(),
                    boxes.snapshots[k].len()
                ));
            }
            emit(
                &name,
                n,
                n * faces.len(),
                run.frames,
                run.us,
                run.cand,
                run.coll,
                &format!(
                    "of which vertex updates (refit, sphere, box) {:.0} µs; {} rebuilds in {} updates; load {}",
                    run.updating_us,
                    run.rebuilds,
                    n * run.frames,
                    run.load
                ),
            );
        }
    }
    csv
}

/// A colliding object pair: its ids and its intersecting triangle pairs, sorted.
type Snapshot = (u32, u32, Vec<(i32, i32)>);

/// One run of the deforming tori scene.
struct DeformingRun {
    frames: usize,
    /// µs per frame, and of which vertex updates.
    us: f64,
    updating_us: f64,
    /// Candidate and colliding object pairs per frame.
    cand: f64,
    coll: f64,
    rebuilds: usize,
    /// Every checked frame equal to `collide_brute_force`.
    checked: bool,
    /// The contacts of every checked frame (10th), triangle pairs sorted.
    snapshots: Vec<Vec<Snapshot>>,
    /// The load average when the run ended.
    load: String,
}

/// Uniform numbers in [0, 1) from a xorshift generator seeded with `state` (the scenes'
/// motions, the same every run).
fn uniform(mut state: u64) -> impl FnMut() -> f64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `n` breathing tori drifting in a box (the same motion for the same `n`); k-DOP models when
/// `kdop`.
fn deforming_tori(n: usize, kdop: bool, rest: &[Vec3], faces: &[[u32; 3]]) -> DeformingRun {
    let side = 2.0 * (n as f64).cbrt() * 1.6;
    let mut rnd = uniform(0x9e3779b97f4a7c15);
    let mut world = World::new();
    let mut bodies = Vec::new();
    for _ in 0..n {
        if kdop {
            let mut model = Model::deformable(rest, faces, None).unwrap();
            model.set_kdop(true).unwrap();
            world.add_model(model).unwrap();
        } else {
            world.add_deformable(rest, faces, None).unwrap();
        }
        let p = Vec3::new(rnd() * side, rnd() * side, rnd() * side);
        let v = Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5) * 0.02;
        bodies.push((p, v, rnd() * 6.0));
    }
    let frames = 100;
    let (mut cand, mut coll, mut checked, mut rebuilds) = (0usize, 0usize, true, 0usize);
    let (mut total, mut updating) = (0.0f64, 0.0f64);
    let mut snapshots = Vec::new();
    for f in 0..frames {
        let start = Instant::now();
        for (k, (p, v, phase)) in bodies.iter_mut().enumerate() {
            *p += *v;
            for c in 0..3 {
                if p[c] < 0.0 || p[c] > side {
                    v[c] = -v[c];
                }
            }
            let pose = [[1.0, 0.0, 0.0, p.x], [0.0, 1.0, 0.0, p.y], [0.0, 0.0, 1.0, p.z], [0.0, 0.0, 0.0, 1.0]];
            world.set_pose(k as u32, &pose).unwrap();
            let tube = 1.0 + 0.5 * (*phase + 0.1 * f as f64).sin();
            let moved = breathe(rest, 0.5, tube);
            let before = Instant::now();
            rebuilds += usize::from(world.update_vertices(k as u32, &moved).unwrap().rebuilt);
            updating += before.elapsed().as_secs_f64();
        }
        cand += world.candidates().count();
        coll += world.collide(true).len();
        total += start.elapsed().as_secs_f64();
        // (The checks are not timed.)
        if f % 10 == 0 {
            checked &= world.contacts() == world.collide_brute_force(true).as_slice();
            let all = world.collide_brute_force(false);
            snapshots.push(
                all.iter()
                    .map(|c| {
                        let mut t: Vec<(i32, i32)> = c.tri_pairs.iter().map(|p| (p.id1, p.id2)).collect();
                        t.sort_unstable();
                        (c.id1, c.id2, t)
                    })
                    .collect(),
            );
        }
    }
    DeformingRun {
        frames,
        us: total * 1e6 / frames as f64,
        updating_us: updating * 1e6 / frames as f64,
        cand: cand as f64 / frames as f64,
        coll: coll as f64 / frames as f64,
        rebuilds,
        checked,
        snapshots,
        load: crate::report::load_average(),
    }
}

/// A torus about the z axis as vertices and faces (the `shapes::torus` grid, indexed).
fn indexed_torus(big: f64, small: f64, n: usize, m: usize) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mut vertices = Vec::new();
    for i in 0..n {
        for j in 0..m {
            let (u, v) = (std::f64::consts::TAU * i as f64 / n as f64, std::f64::consts::TAU * j as f64 / m as f64);
            let r = big + small * v.cos();
            vertices.push(Vec3::new(r * u.cos(), r * u.sin(), small * v.sin()));
        }
    }
    let at = |i: usize, j: usize| ((i % n) * m + j % m) as u32;
    let mut faces = Vec::new();
    for i in 0..n {
        for j in 0..m {
            faces.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            faces.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    (vertices, faces)
}

/// The torus with its tube's radius scaled by `tube` about the centre circle of radius `big`.
fn breathe(rest: &[Vec3], big: f64, tube: f64) -> Vec<Vec3> {
    rest.iter()
        .map(|p| {
            let radial = Vec3::new(p.x, p.y, 0.0);
            let centre = radial * (big / radial.norm());
            centre + (p - centre) * tube
        })
        .collect()
}
