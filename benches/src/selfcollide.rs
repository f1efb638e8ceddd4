//! Self-collision: a seeded cloth-like sheet, folded back over itself and crumpled so that its
//! layers pass through each other, at 20k to 100k triangles; every box test, with the work
//! counts. A small sheet of the same kind is checked against a brute force over all pairs
//! first (same adjacency rule, the exact triangle test).

use std::fmt::Write as _;

use rapidpqp::bv::obb::BoxTest;
use rapidpqp::geometry::tri_intersect::triangles_intersect;
use rapidpqp::query::self_collide::{self_collide, share_a_vertex};
use rapidpqp::query::{CollideRequest, CollideResult};
use rapidpqp::{Model, Triangle, Vec3};

use crate::report::root;
use crate::shapes::Rng;
use crate::timing::{median, time_passes};

use crate::refit::scenes::{Cloth, Wobble};

/// A deforming scene: name, faces, and the vertex positions of each frame.
type Scene = (&'static str, Vec<[u32; 3]>, Vec<Vec<rapidpqp::Vec3>>);

/// A sheet of `n` x `n` cells (2n² triangles) on the unit square, folded back at its middle
/// with the upper layer tilted through the lower one, and crumpled by 24 random Gaussian bumps
/// (seeded) as tall as the fold's gap, so the two layers cross many times.
pub fn crumpled_fold(n: usize, seed: u64) -> Vec<Triangle> {
    let mut rng = Rng(seed);
    let bumps: Vec<(f64, f64, f64, Vec3)> = (0..24)
        .map(|_| {
            let d = Vec3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5);
            (rng.unit(), rng.unit(), 0.03 + 0.1 * rng.unit(), d * 0.12)
        })
        .collect();
    let at = |i: usize, j: usize| {
        let (u, v) = (i as f64 / n as f64, j as f64 / n as f64);
        // Folded at u = 0.5: the upper half comes back over the lower, 0.02 above it at the
        // crease and sinking through it.
        let (x, z) = if u <= 0.5 { (u, 0.0) } else { (1.0 - u + 0.01, 0.02 - 0.15 * (u - 0.5)) };
        let mut p = Vec3::new(x, v, z);
        for &(bu, bv, r, d) in &bumps {
            p += d * (-((u - bu).powi(2) + (v - bv).powi(2)) / (r * r)).exp();
        }
        p
    };
    let mut out = Vec::with_capacity(2 * n * n);
    for i in 0..n {
        for j in 0..n {
            out.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            out.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    out
}

fn model(tris: &[Triangle]) -> Model {
    Model::new(tris.to_vec(), (0..tris.len() as i32).collect()).expect("a valid sheet")
}

fn sorted_pairs(r: &CollideResult) -> Vec<(i32, i32)> {
    let mut v: Vec<_> = r.pairs.iter().map(|p| (p.id1, p.id2)).collect();
    v.sort_unstable();
    v
}

/// Runs the scene, prints its table and returns its CSV.
pub fn run(repeats: usize, failures: &mut Vec<String>) -> String {
    say!("\n## Self-collision (crumpled folded sheet)\n");
    // The brute-force check on a small sheet of the same kind.
    let small = crumpled_fold(40, 0x5e1f);
    let mut want = Vec::new();
    for i in 0..small.len() {
        for j in i + 1..small.len() {
            if !share_a_vertex(&small[i], &small[j]) && triangles_intersect(&small[i], &small[j]) {
                want.push((i as i32, j as i32));
            }
        }
    }
    let small_model = model(&small);
    let mut result = CollideResult::new();
    for box_test in BoxTest::ALL {
        self_collide(&small_model, &CollideRequest { box_test, ..Default::default() }, &mut result);
        if sorted_pairs(&result) != want {
            failures.push(format!(
                "self-collision of the {}-triangle sheet ({box_test:?}) differs from brute force",
                small.len()
            ));
        }
    }
    say!(
        "Checked against brute force over all {} pairs of a {}-triangle sheet of the same kind: {} intersecting non-adjacent pairs, every box test equal.\n",
        small.len() * (small.len() - 1) / 2,
        small.len(),
        want.len()
    );
    say!("| triangles | box test | ms per query | box tests | leaf pairs reached | pairs found | first contact µs |");
    say!("|---|---|---|---|---|---|---|");
    let mut csv = String::from("triangles,box_test,ms_per_query,bv_tests,leaf_pairs,pairs,first_contact_us\n");
    for n in [100, 160, 224] {
        let tris = crumpled_fold(n, 0x5e1f);
        let m = model(&tris);
        let mut counts = Vec::new();
        for box_test in BoxTest::ALL {
            let request = CollideRequest { box_test, ..Default::default() };
            let t = time_passes(repeats, 1, || self_collide(&m, &request, &mut result));
            let (bv, leaves, pairs) = (result.bv_tests, result.tri_tests, result.pairs.len());
            counts.push(sorted_pairs(&result));
            let first = CollideRequest { first_contact: true, ..request };
            let tf = time_passes(repeats, 1, || self_collide(&m, &first, &mut result));
            if result.pairs.len() != usize::from(pairs > 0) {
                failures.push(format!("self-collision first contact on {} triangles", tris.len()));
            }
            say!(
                "| {} | {box_test:?} | {:.2} | {bv} | {leaves} | {pairs} | {:.1} |",
                tris.len(),
                t.median / 1e3,
                tf.median
            );
            let _ = writeln!(
                csv,
                "{},{box_test:?},{:.3},{bv},{leaves},{pairs},{:.2}",
                tris.len(),
                t.median / 1e3,
                tf.median
            );
        }
        if counts.iter().any(|c| c != &counts[0]) {
            failures.push(format!("self-collision box tests disagree on {} triangles", tris.len()));
        }
    }
    deforming_scenes(repeats, &mut csv, failures);
    say!(
        "\nLeaf pairs reached include the adjacent ones (about 6 per triangle: in a grid each triangle shares a vertex with 12 others, and they touch, so no box test can prune them), which the vertex comparison discards before the exact test. The crumpled sheet is a triangle soup (adjacency by coordinates; no two of its distinct vertices coincide); the refit scenes are deformable models (adjacency by index). Times are on a shared 2-core machine (see the load averages): compare rows of one run."
    );
    csv
}

/// Self-collision of the refit scenes' deforming models (`tests/scenes/deform.rs`, shared with
/// the refit benchmark), refitted frame by frame: the cloth draped over the bunny (a height
/// field over its grid, so no two non-adjacent triangles can meet: the answer must be empty)
/// and the wobbling bunny. Both are deformable models: adjacency by index.
fn deforming_scenes(repeats: usize, csv: &mut String, failures: &mut Vec<String>) {
    let bunny = rapidpqp::io::load_obj(root().join("meshes/bunny.obj")).expect("meshes/bunny.obj");
    let frames = 6;
    let cloth = Cloth::new(&bunny, 160, 1);
    let wobble = Wobble::new(bunny.vertices.clone(), 0.03, 2);
    let scenes: [Scene; 2] = [
        ("draped cloth", cloth.faces(), (0..=frames).map(|k| cloth.frame(k, frames)).collect()),
        ("wobbling bunny", bunny.faces.clone(), (0..=frames).map(|k| wobble.frame(k as f64 * 2.0)).collect()),
    ];
    say!(
        "\nThe refit scenes' deforming models, refitted then self-collided each frame ({frames} frames, Dual box test):\n"
    );
    say!(
        "| scene | triangles | refit ms per frame | self-collide ms per frame | box tests | leaf pairs reached | pairs found (last frame) |"
    );
    say!("|---|---|---|---|---|---|---|");
    for (name, faces, positions) in scenes {
        let mut m = Model::deformable(&positions[0], &faces, None).expect("deformable model");
        let mut result = CollideResult::new();
        let (mut refit, mut query) = (Vec::new(), Vec::new());
        for p in &positions[1..] {
            let start = std::time::Instant::now();
            m.update_vertices(p).expect("valid positions");
            refit.push(start.elapsed().as_secs_f64() * 1e3);
            let t = time_passes(repeats, 1, || self_collide(&m, &CollideRequest::default(), &mut result));
            query.push(t.median / 1e3);
            if name == "draped cloth" && !result.pairs.is_empty() {
                failures.push(format!(
                    "self-collision of the draped cloth (a height field) found {} pairs",
                    result.pairs.len()
                ));
            }
        }
        let (r, q) = (median(&mut refit), median(&mut query));
        say!(
            "| {name} | {} | {r:.2} | {q:.2} | {} | {} | {} |",
            m.num_triangles(),
            result.bv_tests,
            result.tri_tests,
            result.pairs.len()
        );
        let _ = writeln!(
            csv,
            "{name},{},Dual,{q:.3},{},{},{},",
            m.num_triangles(),
            result.bv_tests,
            result.tri_tests,
            result.pairs.len()
        );
    }
}
