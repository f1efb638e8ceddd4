//! `c_tests/sweep.c`: the C API of motion queries (`rpq_sweep`, `rpq_sweep_batch`,
//! `rpq_time_of_impact`, `rpq_removal_directions`) from a C program linked with
//! `librapidpqp.a`, plainly and under AddressSanitizer. The program checks known answers on
//! cubes, a bar turning into a post and a peg in a hole, batches against single calls and
//! thread counts on `meshes/fandisk.obj`, and every error path; then this test compares the
//! answers it wrote for fandisk with the Rust core's.

use std::process::Command;

mod common;
use common::built_library;
use common::cbuild::{header_dir, manifest_dir, report, run, scratch_dir, static_link, text, try_compile_asan};
use rapidpqp::io::load_obj;
use rapidpqp::query::{SweepRequest, sweep, sweep_last_contact};
use rapidpqp::{Mat3, Model, Placement, Vec3};

fn c_compiler() -> Command {
    common::cbuild::compiler(false, "c99").include(header_dir()).get_compiler().to_command()
}

/// Runs the program on fandisk, writing its answers to `answers`; checks it passed and printed
/// only its summary line.
fn run_sweep(mut command: Command, answers: &std::path::Path, what: &str) {
    command.arg(manifest_dir().join("meshes/fandisk.obj")).arg(answers);
    let output = run(command, what);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{what} failed ({}):\n{}", output.status, report(&output));
    assert!(
        output.stderr.is_empty() && stdout.lines().count() == 1 && stdout.starts_with("sweep: "),
        "{what}: unexpected output:\n{}",
        report(&output)
    );
}

fn numbers(line: &str) -> Vec<f64> {
    line.split_whitespace().skip(1).map(|w| w.parse::<f64>().unwrap_or_else(|e| panic!("{w}: {e}"))).collect()
}

#[test]
fn sweep_c_api_matches_the_rust_core() {
    let static_lib = built_library("librapidpqp.a");
    let exe = common::cbuild::compile(c_compiler(), "sweep.c", "sweep", &static_link(&static_lib));
    let answers = scratch_dir("c_tests").join("sweep_answers.txt");
    run_sweep(Command::new(&exe), &answers, "sweep");

    // The same model as the C program's: fandisk's triangles in file order, ids 0, 1, 2, ...
    let tris = load_obj(manifest_dir().join("meshes/fandisk.obj")).expect("fandisk").triangles();
    let model = Model::new(tris.clone(), (0..tris.len() as i32).collect()).expect("model");
    let text = std::fs::read_to_string(&answers).expect("the answers");
    let mut lines = text.lines();
    let p = numbers(lines.next().expect("P line"));
    let p1 =
        Placement { rotation: Mat3::from_row_slice(&p[..9]), translation: Vec3::new(p[9], p[10], p[11]), scale: p[12] };
    let s_max = p[13];
    let origin = Placement { rotation: Mat3::identity(), translation: Vec3::zeros(), scale: 1.0 };
    let (mut rows, mut hits) = (0, 0);
    for line in lines {
        let v = numbers(line);
        assert!(line.starts_with("S "), "unexpected line {line}");
        let request = SweepRequest { direction: Vec3::new(v[1], v[2], v[3]), s_max, cylinder_cull: false };
        let run = if v[0] == 1.0 { sweep_last_contact } else { sweep };
        let r = run(&model, &p1, &model, &origin, &request).expect("a valid sweep");
        match r.contact {
            Some(c) => {
                hits += 1;
                assert_eq!(v[4], 1.0, "line {line}: the core finds a contact");
                assert_eq!(v[5].to_bits(), c.s.to_bits(), "line {line}: s");
                assert_eq!((v[6], v[7]), (f64::from(c.pair.0), f64::from(c.pair.1)), "line {line}: triangles");
                let point = [c.point.x, c.point.y, c.point.z].map(f64::to_bits);
                assert_eq!([v[8], v[9], v[10]].map(f64::to_bits), point, "line {line}: point");
            }
            None => {
                assert_eq!(v[4], 0.0, "line {line}: the core finds no contact");
                assert_eq!((v[5], v[6], v[7]), (f64::INFINITY, f64::from(u32::MAX), f64::from(u32::MAX)));
                assert!(v[8].is_nan() && v[9].is_nan() && v[10].is_nan(), "line {line}");
            }
        }
        rows += 1;
    }
    assert_eq!(rows, 96);
    assert!(hits >= 10 && hits <= rows - 10, "{hits} hits of {rows}");

    if let Some(exe) = try_compile_asan(c_compiler(), "sweep.c", "sweep_asan", &static_lib) {
        let mut command = Command::new(&exe);
        command.env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0");
        run_sweep(command, &scratch_dir("c_tests").join("sweep_answers_asan.txt"), "sweep (AddressSanitizer)");
    }
}
