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

use crate::shapes::Rng;
use crate::timing::time_passes;

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
    say!(
        "\nLeaf pairs reached include the adjacent ones (about 6 per triangle: in a grid each triangle shares a vertex with 12 others, and they touch, so no box test can prune them), which the vertex comparison discards before the exact test. The sheet is a triangle soup here (adjacency by coordinates; no two distinct vertices coincide). Times are on a shared 2-core machine (see the load averages): compare rows of one run."
    );
    csv
}
