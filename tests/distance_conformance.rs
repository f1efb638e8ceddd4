//! Distance and tolerance queries against the recorded PQP 1.3 outputs, with the rules of
//! tests/data/conformance/FORMAT.md.

mod common;

use common::{Case, all_cases};
use rapidpqp::geometry::tri_distance::triangle_distance;
use rapidpqp::query::distance::{DistanceCache, DistanceRequest, distance, tolerance};
use rapidpqp::{Triangle, Vec3};

/// Half the diagonal of the larger model's bounding box: the size the tolerances scale with.
fn model_size(case: &Case) -> f64 {
    let half_diagonal = |tris: &[Triangle]| {
        let mut lo = Vec3::repeat(f64::INFINITY);
        let mut hi = Vec3::repeat(f64::NEG_INFINITY);
        for p in tris.iter().flatten() {
            lo = lo.inf(p);
            hi = hi.sup(p);
        }
        (hi - lo).norm() / 2.0
    };
    half_diagonal(&case.a_tris).max(half_diagonal(&case.b_tris))
}

/// Distance from a point to the nearest triangle of a soup (brute force).
fn distance_to_soup(p: &Vec3, tris: &[Triangle]) -> f64 {
    let point = [*p, *p, *p];
    tris.iter().map(|t| triangle_distance(&point, t).distance).fold(f64::INFINITY, f64::min)
}

#[test]
fn distance_agrees_with_recorded_pqp() {
    let mut failures = Vec::new();
    println!(
        "{:<14} {:>9} {:>14} {:>14} {:>12} {:>12}",
        "case", "agree", "PQP bv tests", "our bv tests", "PQP tri", "our tri"
    );
    for name in all_cases() {
        let case = Case::load(&name);
        if !case.has("pqp_distance.txt") {
            continue;
        }
        let size = model_size(&case);
        let tol = 1e-12 * size;
        let recorded = case.lines("pqp_distance.txt");
        let mut cache = DistanceCache::default();
        let (mut agree, mut theirs_bv, mut ours_bv, mut theirs_tri, mut ours_tri) = (0, 0.0, 0.0, 0.0, 0.0);
        for (pose, line) in recorded.iter().enumerate() {
            let (p1, p2) = &case.poses[pose];
            let r =
                distance(&case.a, p1, &case.b, p2, &DistanceRequest::default(), Some(&mut cache)).expect("a placement");
            theirs_bv += line[8];
            theirs_tri += line[9];
            ours_bv += r.bv_tests as f64;
            ours_tri += r.tri_tests as f64;
            let world1 = p1.apply(&r.p1);
            let world2 = p2.apply(&r.p2);
            let ok_distance = (r.distance - line[1]).abs() <= tol;
            let ok_apart = ((world1 - world2).norm() - r.distance).abs() <= tol;
            let ok_on1 = distance_to_soup(&r.p1, &case.a_tris) <= tol;
            let ok_on2 = distance_to_soup(&r.p2, &case.b_tris) <= tol;
            if ok_distance && ok_apart && ok_on1 && ok_on2 {
                agree += 1;
            } else {
                eprintln!(
                    "{name} pose {pose}: ours {:.17e} PQP {:.17e} apart {ok_apart} on1 {ok_on1} on2 {ok_on2}",
                    r.distance, line[1]
                );
            }
        }
        let n = recorded.len() as f64;
        println!(
            "{name:<14} {agree:>5}/{:<4} {:>14.1} {:>14.1} {:>12.1} {:>12.1}",
            recorded.len(),
            theirs_bv / n,
            ours_bv / n,
            theirs_tri / n,
            ours_tri / n
        );
        if agree != recorded.len() {
            failures.push(format!("{name}: {agree}/{}", recorded.len()));
        }
    }
    assert!(failures.is_empty(), "disagreements: {failures:?}");
}

#[test]
fn tolerance_agrees_with_recorded_pqp() {
    let mut failures = Vec::new();
    println!("{:<14} {:>11} {:>14} {:>14}", "case", "agree", "PQP bv tests", "our bv tests");
    for name in all_cases() {
        let case = Case::load(&name);
        if !case.has("pqp_tolerance.txt") {
            continue;
        }
        let size = model_size(&case);
        let tol = 1e-12 * size;
        let min_distance: Vec<f64> = case.lines("pqp_distance.txt").iter().map(|l| l[1]).collect();
        let recorded = case.lines("pqp_tolerance.txt");
        let (mut agree, mut theirs_bv, mut ours_bv) = (0, 0.0, 0.0);
        for line in &recorded {
            let pose = line[0] as usize;
            let t = line[1];
            let (p1, p2) = &case.poses[pose];
            let r = tolerance(&case.a, p1, &case.b, p2, t, 2, None).expect("a placement");
            theirs_bv += line[11];
            ours_bv += r.bv_tests as f64;
            let at_boundary = (t.max(0.0) - min_distance[pose]).abs() <= tol;
            let flag_ok = r.closer == (line[3] != 0.0) || at_boundary;
            let values_ok = if r.closer {
                r.distance <= t.max(0.0) && r.distance >= min_distance[pose] - tol && {
                    let apart = (p1.apply(&r.p1) - p2.apply(&r.p2)).norm();
                    (apart - r.distance).abs() <= tol
                }
            } else {
                r.distance > t.max(0.0) - tol
            };
            if flag_ok && values_ok {
                agree += 1;
            } else {
                eprintln!("{name} pose {pose} t {t}: ours closer {} d {} PQP closer {}", r.closer, r.distance, line[3]);
            }
        }
        let n = recorded.len() as f64;
        println!("{name:<14} {agree:>6}/{:<4} {:>14.1} {:>14.1}", recorded.len(), theirs_bv / n, ours_bv / n);
        if agree != recorded.len() {
            failures.push(format!("{name}: {agree}/{}", recorded.len()));
        }
    }
    assert!(failures.is_empty(), "disagreements: {failures:?}");
}
