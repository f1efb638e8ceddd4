//! `c_tests/self_collide.c`: the C API of self-collision from a C program linked with
//! `librapidpqp.a`, plainly and under AddressSanitizer. The program checks known answers and
//! every error path, and writes a crumpled folded sheet with the pairs it found; this test
//! compares those pairs with a brute force over all triangle pairs (same adjacency rule, the
//! exact triangle test).

use std::process::Command;

mod common;
use common::built_library;
use common::cbuild::{header_dir, report, run, scratch_dir, static_link, text, try_compile_asan};
use rapidpqp::Vec3;
use rapidpqp::geometry::tri_intersect::triangles_intersect;
use rapidpqp::query::self_collide::share_a_vertex;

fn c_compiler() -> Command {
    common::cbuild::compiler(false, "c99").include(header_dir()).get_compiler().to_command()
}

fn run_program(mut command: Command, answers: &std::path::Path, what: &str) {
    command.arg(answers);
    let output = run(command, what);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{what} failed ({}):\n{}", output.status, report(&output));
    assert!(
        output.stderr.is_empty() && stdout.lines().count() == 1 && stdout.starts_with("self_collide: "),
        "{what}: unexpected output:\n{}",
        report(&output)
    );
}

/// The sheet and pairs the program wrote; checks the pairs against brute force.
fn check_answers(answers: &std::path::Path) {
    let text = std::fs::read_to_string(answers).expect("the answers");
    let (mut tris, mut got) = (Vec::new(), Vec::new());
    let mut declared = 0;
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w[0] {
            "N" => declared = w[1].parse().unwrap(),
            "T" => {
                let v: Vec<f64> = w[1..].iter().map(|x| x.parse().unwrap()).collect();
                tris.push([Vec3::new(v[0], v[1], v[2]), Vec3::new(v[3], v[4], v[5]), Vec3::new(v[6], v[7], v[8])]);
            }
            "P" => got.push((w[1].parse::<i32>().unwrap(), w[2].parse::<i32>().unwrap())),
            other => panic!("unexpected line kind {other}"),
        }
    }
    assert_eq!(tris.len(), declared);
    let mut want = Vec::new();
    for i in 0..tris.len() {
        for j in i + 1..tris.len() {
            if !share_a_vertex(&tris[i], &tris[j]) && triangles_intersect(&tris[i], &tris[j]) {
                want.push((i as i32, j as i32));
            }
        }
    }
    got.sort_unstable();
    assert_eq!(got, want);
    assert!(want.len() > 20, "the sheet should pass through itself ({} pairs)", want.len());
}

#[test]
fn self_collide_c_api_matches_brute_force() {
    let static_lib = built_library("librapidpqp.a");
    let exe = common::cbuild::compile(c_compiler(), "self_collide.c", "self_collide", &static_link(&static_lib));
    let answers = scratch_dir("c_tests").join("self_collide_answers.txt");
    run_program(Command::new(&exe), &answers, "self_collide");
    check_answers(&answers);
    if let Some(exe) = try_compile_asan(c_compiler(), "self_collide.c", "self_collide_asan", &static_lib) {
        let mut command = Command::new(&exe);
        command.env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0");
        let answers = scratch_dir("c_tests").join("self_collide_answers_asan.txt");
        run_program(command, &answers, "self_collide (AddressSanitizer)");
        check_answers(&answers);
    }
}
