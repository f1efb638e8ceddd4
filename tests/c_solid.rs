//! `c_tests/solid.c`: the C API of solid models (facts, closest points, signed distance,
//! contains, ray casts, segment hits, solid collide, separation) from a C program linked with
//! `librapidpqp.a`, plainly and under AddressSanitizer. The program checks known answers on a
//! cube and a sphere, batches against one-point calls and thread counts on
//! `meshes/fandisk.obj`, and every error path (with `meshes/bunny.obj` as the open mesh); then
//! this test compares the answers it wrote for fandisk with the Rust core's.

use std::process::Command;

mod common;
use common::built_library;
use common::cbuild::{header_dir, manifest_dir, report, run, scratch_dir, static_link, text, try_compile_asan};
use rapidpqp::io::load_obj;
use rapidpqp::query::{Ray, Winding, closest_points, contains, ray_any_hits, ray_first_hits, signed_distances};
use rapidpqp::{Model, Vec3};

fn c_compiler() -> Command {
    common::cbuild::compiler(false, "c99").include(header_dir()).get_compiler().to_command()
}

/// Runs the program on fandisk and the bunny, writing its answers to `answers`; checks it
/// passed and printed only its summary line.
fn run_solid(mut command: Command, answers: &std::path::Path, what: &str) {
    let meshes = manifest_dir().join("meshes");
    command.arg(meshes.join("fandisk.obj")).arg(meshes.join("bunny.obj")).arg(answers);
    let output = run(command, what);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{what} failed ({}):\n{}", output.status, report(&output));
    assert!(
        output.stderr.is_empty() && stdout.lines().count() == 1 && stdout.starts_with("solid: "),
        "{what}: unexpected output:\n{}",
        report(&output)
    );
}

fn numbers(line: &str) -> Vec<f64> {
    line.split_whitespace().skip(1).map(|w| w.parse::<f64>().unwrap_or_else(|e| panic!("{w}: {e}"))).collect()
}

#[test]
fn solid_c_api_matches_the_rust_core() {
    let static_lib = built_library("librapidpqp.a");
    let exe = common::cbuild::compile(c_compiler(), "solid.c", "solid", &static_link(&static_lib));
    let answers = scratch_dir("c_tests").join("solid_answers.txt");
    run_solid(Command::new(&exe), &answers, "solid");

    // The same model as the C program's: fandisk's triangles in file order, ids 0, 1, 2, ...
    let tris = load_obj(manifest_dir().join("meshes/fandisk.obj")).expect("fandisk").triangles();
    let model = Model::new(tris.clone(), (0..tris.len() as i32).collect()).expect("model");
    let text = std::fs::read_to_string(&answers).expect("the answers");
    let mut lines = text.lines();
    let max_distance = numbers(lines.next().expect("M line"))[0];
    let (mut points, mut rows, mut rays, mut ray_rows) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for line in lines {
        let v = numbers(line);
        match &line[..1] {
            "P" => {
                points.push(Vec3::new(v[0], v[1], v[2]));
                rows.push(v[3..].to_vec());
            }
            "R" => {
                rays.push(Ray { origin: Vec3::new(v[0], v[1], v[2]), direction: Vec3::new(v[3], v[4], v[5]) });
                ray_rows.push(v[6..].to_vec());
            }
            other => panic!("unexpected line kind {other}"),
        }
    }
    assert_eq!((points.len(), rays.len()), (3000, 600));

    // The C program's threads = 1 answers are one core batch call each: the very same answers.
    let n = points.len();
    let (mut distance, mut closest) = (vec![0.0; n], vec![None; n]);
    signed_distances(&model, &points, &mut distance, Some(&mut closest)).expect("closed");
    let mut sides = vec![Winding::OnSurface; n];
    contains(&model, &points, &mut sides).expect("closed");
    let mut bounded = vec![None; n];
    closest_points(&model, &points, max_distance, &mut bounded).expect("valid");
    let mut on = 0;
    for i in 0..n {
        let row = &rows[i];
        let c = closest[i].expect("unbounded");
        assert_eq!(row[0].to_bits(), distance[i].to_bits(), "point {i}: signed distance");
        let (place, number) = match sides[i] {
            Winding::OnSurface => (2.0, 0.0),
            Winding::Number(0) => (0.0, 0.0),
            Winding::Number(k) => (1.0, f64::from(k)),
        };
        assert_eq!((row[1], row[2]), (place, number), "point {i}: contains");
        assert_eq!((row[3], row[4].to_bits()), (f64::from(c.triangle), c.distance.to_bits()), "point {i}: closest");
        let b = bounded[i];
        assert_eq!(row[5], f64::from(u8::from(b.is_some())), "point {i}: found within {max_distance}");
        assert_eq!(row[6], b.map_or(f64::from(u32::MAX), |b| f64::from(b.triangle)), "point {i}");
        on += usize::from(place == 2.0);
    }
    assert!(on >= 60, "{on} points on the surface");

    let mut first = vec![None; rays.len()];
    ray_first_hits(&model, &rays, f64::INFINITY, &mut first).expect("valid rays");
    let mut any = vec![false; rays.len()];
    ray_any_hits(&model, &rays, f64::INFINITY, &mut any).expect("valid rays");
    for (i, (row, hit)) in ray_rows.iter().zip(&first).enumerate() {
        match hit {
            Some(h) => assert_eq!(
                (row[0], row[1].to_bits(), row[2]),
                (1.0, h.t.to_bits(), f64::from(h.id)),
                "ray {i}: first hit"
            ),
            None => assert_eq!((row[0], row[1], row[2]), (0.0, f64::INFINITY, -1.0), "ray {i}: no hit"),
        }
        assert_eq!(row[3], f64::from(u8::from(any[i])), "ray {i}: any hit");
    }

    if let Some(exe) = try_compile_asan(c_compiler(), "solid.c", "solid_asan", &static_lib) {
        let mut command = Command::new(&exe);
        command.env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0");
        run_solid(command, &scratch_dir("c_tests").join("solid_answers_asan.txt"), "solid (AddressSanitizer)");
    }
}

/// The "Solid models from C" program of docs/c.md compiles as C99 with the warnings as errors,
/// runs, and prints what its comment says.
#[test]
fn readme_solid_snippet_runs() {
    let readme = std::fs::read_to_string(manifest_dir().join("docs/c.md")).expect("docs/c.md");
    let section = &readme[readme.find("### Solid models from C").expect("the section")..];
    let start = section.find("```c\n").expect("a C block") + 5;
    let code = &section[start..start + section[start..].find("```").expect("the block's end")];
    let dir = scratch_dir("c_tests");
    let source = dir.join("readme_solid.c");
    std::fs::write(&source, code).expect("write the snippet");
    let static_lib = built_library("librapidpqp.a");
    let exe = dir.join("readme_solid");
    let mut compiler = c_compiler();
    compiler.arg(&source).args(static_link(&static_lib)).arg("-o").arg(&exe);
    let output = run(compiler, "the C compiler");
    assert!(output.status.success(), "the README snippet does not compile:\n{}", report(&output));
    let output = run(Command::new(&exe), "the README snippet");
    assert!(output.status.success(), "the README snippet failed:\n{}", report(&output));
    assert_eq!(text(&output.stdout).trim(), "-1 1 1 2 -0.5");
}
