//! Collide queries against the recorded RAPID 2.01 and PQP 1.3 outputs, and against brute
//! force over all triangle pairs.

mod common;

use common::{Case, all_cases, brute_force, contact_lines, sorted};
use rapidpqp::query::{CollideRequest, CollideResult, TriangleFrame, collide};

/// Every pair of triangles tested exactly, in the frame the request names.
fn brute(case: &Case, pose: usize, frame: TriangleFrame) -> Vec<(i32, i32)> {
    let (p1, p2) = &case.poses[pose];
    brute_force(&case.a_tris, &case.b_tris, p1, p2, frame)
}

fn ours(
    case: &Case,
    pose: usize,
    first_contact: bool,
    frame: TriangleFrame,
    out: &mut CollideResult,
) -> Vec<(i32, i32)> {
    let (p1, p2) = &case.poses[pose];
    let request = CollideRequest { first_contact, frame, ..Default::default() };
    collide(&case.a, p1, &case.b, p2, &request, out).unwrap();
    out.pairs.iter().map(|p| (p.id1, p.id2)).collect()
}

/// Compares one recorded file; returns (agreeing poses, poses, mean recorded tests, mean ours).
fn check_file(
    case: &Case,
    file: &str,
    frame: TriangleFrame,
    first: bool,
    skip: &dyn Fn(usize) -> bool,
) -> (usize, usize, f64, f64) {
    let recorded = contact_lines(case, file);
    assert_eq!(recorded.len(), case.poses.len(), "{}: {file}", case.name);
    let mut out = CollideResult::new();
    let mut all = CollideResult::new();
    let (mut agree, mut theirs, mut mine) = (0, 0.0, 0.0);
    for (pose, line) in recorded.iter().enumerate() {
        assert_eq!(line.rc, 0);
        let got = ours(case, pose, first, frame, &mut out);
        theirs += line.bv_tests;
        mine += out.bv_tests as f64;
        if skip(pose) {
            agree += 1;
            continue;
        }
        let ok = if first {
            got.len() == line.pairs.len() && {
                let everything = sorted(ours(case, pose, false, frame, &mut all));
                got.iter().all(|p| everything.binary_search(p).is_ok())
            }
        } else {
            sorted(got.clone()) == sorted(line.pairs.clone())
        };
        if ok {
            agree += 1;
        } else {
            eprintln!("{} {file} pose {pose}: ours {} pairs, recorded {}", case.name, got.len(), line.pairs.len());
        }
    }
    let n = recorded.len() as f64;
    (agree, recorded.len(), theirs / n, mine / n)
}

#[test]
fn collide_agrees_with_recorded_rapid_and_pqp() {
    let mut failures = Vec::new();
    println!("{:<14} {:<22} {:>10} {:>14} {:>14}", "case", "file", "agree", "their tests", "our tests");
    for name in all_cases() {
        if name == "degenerate" {
            continue; // checked against brute force below
        }
        let case = Case::load(&name);
        for (file, frame, first) in [
            ("rapid_all.txt", TriangleFrame::Model2, false),
            ("rapid_first.txt", TriangleFrame::Model2, true),
            ("pqp_collide_all.txt", TriangleFrame::Model1, false),
            ("pqp_collide_first.txt", TriangleFrame::Model1, true),
        ] {
            if !case.has(file) {
                continue;
            }
            let (agree, n, theirs, mine) = check_file(&case, file, frame, first, &|_| false);
            println!("{name:<14} {file:<22} {agree:>5}/{n:<4} {theirs:>14.1} {mine:>14.1}");
            if agree != n {
                failures.push(format!("{name} {file}: {agree}/{n}"));
            }
        }
    }
    assert!(failures.is_empty(), "disagreements: {failures:?}");
}

#[test]
fn degenerate_case_matches_brute_force() {
    let case = Case::load("degenerate");
    let mut out = CollideResult::new();
    for frame in [TriangleFrame::Model1, TriangleFrame::Model2] {
        for pose in 0..case.poses.len() {
            let got = sorted(ours(&case, pose, false, frame, &mut out));
            let want = sorted(brute(&case, pose, frame));
            assert_eq!(got, want, "pose {pose} frame {frame:?}");
            let first = ours(&case, pose, true, frame, &mut out);
            assert_eq!(first.len(), usize::from(!want.is_empty()));
            assert!(first.iter().all(|p| want.binary_search(p).is_ok()));
        }
    }
}

#[test]
fn small_cases_match_brute_force() {
    for name in ["single", "soup", "scaled"] {
        let case = Case::load(name);
        let mut out = CollideResult::new();
        let step = if name == "single" { 1 } else { 7 };
        for pose in (0..case.poses.len()).step_by(step) {
            for frame in [TriangleFrame::Model1, TriangleFrame::Model2] {
                let got = sorted(ours(&case, pose, false, frame, &mut out));
                let want = sorted(brute(&case, pose, frame));
                assert_eq!(got, want, "{name} pose {pose} frame {frame:?}");
            }
        }
    }
}
