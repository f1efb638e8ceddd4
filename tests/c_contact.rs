//! `c_tests/contact.c`: the C API of contact geometry (per-pair geometry through
//! `rpq_collide`, `rpq_contacts`, `rpq_intersection_curves`) from a C program linked with
//! `librapidpqp.a`, plainly and under AddressSanitizer: known properties on two crossing
//! cubes, size queries and every error path; then this test compares what it wrote, bitwise,
//! with the Rust core's answers for the same models and poses.

use std::process::Command;

mod common;
use common::built_library;
use common::cbuild::{header_dir, report, run, scratch_dir, static_link, text, try_compile_asan};
use rapidpqp::query::{CollideRequest, CollideResult, chain_segments, collide_geometry, merge_contacts};
use rapidpqp::{Model, Placement, Vec3};

fn c_compiler() -> Command {
    common::cbuild::compiler(false, "c99").include(header_dir()).get_compiler().to_command()
}

fn run_contact(mut command: Command, answers: &std::path::Path, what: &str) {
    command.arg(answers);
    let output = run(command, what);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{what} failed ({}):\n{}", output.status, report(&output));
    assert!(
        output.stderr.is_empty() && stdout.lines().count() == 1 && stdout.starts_with("contact: "),
        "{what}: unexpected output:\n{}",
        report(&output)
    );
}

/// The cube of `c_tests/native_shapes.h` (`box_model(lo, hi, 0)`), same vertex and face order.
fn cube() -> Model {
    let (lo, hi) = (-1.0, 1.0);
    let v: Vec<Vec3> = (0..8)
        .map(|c| {
            Vec3::new(
                if c & 4 != 0 { hi } else { lo },
                if c & 2 != 0 { hi } else { lo },
                if c & 1 != 0 { hi } else { lo },
            )
        })
        .collect();
    let f: [u32; 36] =
        [0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3];
    let faces: Vec<[u32; 3]> = f.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
    Model::from_indexed(&v, &faces).expect("cube")
}

fn numbers(line: &str) -> Vec<f64> {
    line.split_whitespace().skip(1).map(|w| w.parse::<f64>().unwrap_or_else(|e| panic!("{w}: {e}"))).collect()
}

fn check_answers(answers: &std::path::Path) {
    let text = std::fs::read_to_string(answers).expect("the answers");
    let mut lines = text.lines();
    let v = numbers(lines.next().expect("POSE line"));
    let p2 = Placement::from_rows(
        &[[v[0], v[1], v[2]], [v[3], v[4], v[5]], [v[6], v[7], v[8]]],
        &[v[9], v[10], v[11]],
        v[12],
    );
    let p1 = Placement::IDENTITY;
    let m = cube();
    let mut out = CollideResult::new();
    collide_geometry(&m, &p1, &m, &p2, &CollideRequest::default(), &mut out).expect("valid");
    let (mut g_rows, mut c_rows, mut l_rows) = (Vec::new(), Vec::new(), Vec::new());
    for line in lines {
        match &line[..1] {
            "G" => g_rows.push(numbers(line)),
            "C" => c_rows.push(numbers(line)),
            "L" => l_rows.push(numbers(line)),
            other => panic!("unexpected line kind {other}"),
        }
    }
    assert_eq!(g_rows.len(), out.pairs.len());
    for ((row, pair), g) in g_rows.iter().zip(&out.pairs).zip(&out.geometry) {
        let mut want = vec![
            f64::from(pair.id1),
            f64::from(pair.id2),
            f64::from(g.len),
            f64::from(g.flags),
            g.error_bound,
            g.normal1.x,
            g.normal1.y,
            g.normal1.z,
            g.normal2.x,
            g.normal2.y,
            g.normal2.z,
        ];
        want.extend(g.points().iter().flat_map(|p| [p.x, p.y, p.z]));
        assert_eq!(
            row.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            want.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
    }
    let contacts = merge_contacts(&out.geometry, 1e-6);
    assert_eq!(c_rows.len(), contacts.len());
    for (row, c) in c_rows.iter().zip(&contacts) {
        let want = [
            f64::from(c.count),
            f64::from(c.flags),
            c.point.x,
            c.point.y,
            c.point.z,
            c.normal.x,
            c.normal.y,
            c.normal.z,
        ];
        assert_eq!(row.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), want.map(f64::to_bits).to_vec());
    }
    let curves = chain_segments(&out.geometry);
    assert_eq!(l_rows.len(), curves.len());
    assert!(!curves.is_empty());
    for (row, c) in l_rows.iter().zip(&curves) {
        assert!(c.closed);
        assert_eq!(row[0] as usize, c.points.len());
        let want: Vec<u64> = c.points.iter().flat_map(|p| [p.x, p.y, p.z]).map(f64::to_bits).collect();
        assert_eq!(row[1..].iter().map(|x| x.to_bits()).collect::<Vec<_>>(), want);
    }
}

#[test]
fn contact_c_api_matches_the_rust_core() {
    let static_lib = built_library("librapidpqp.a");
    let exe = common::cbuild::compile(c_compiler(), "contact.c", "contact", &static_link(&static_lib));
    let answers = scratch_dir("c_tests").join("contact_answers.txt");
    run_contact(Command::new(&exe), &answers, "contact");
    check_answers(&answers);
    if let Some(exe) = try_compile_asan(c_compiler(), "contact.c", "contact_asan", &static_lib) {
        let mut command = Command::new(&exe);
        command.env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0");
        let answers = scratch_dir("c_tests").join("contact_answers_asan.txt");
        run_contact(command, &answers, "contact (AddressSanitizer)");
        check_answers(&answers);
    }
}
