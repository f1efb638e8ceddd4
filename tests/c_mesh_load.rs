//! `c_tests/mesh_load.c`: the C API of mesh files from a C program linked with
//! `librapidpqp.a`, plainly and under AddressSanitizer. The program loads an OBJ, a binary STL
//! and ASCII and big-endian PLY files written here, copies their arrays out and writes them;
//! this test compares them with the Rust reader's. Then every error path (missing,
//! unreadable, truncated, out-of-range, NaN, empty, unknown files; NULL arguments, short
//! message buffers, bad handles).

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::built_library;
use common::cbuild::{header_dir, manifest_dir, report, run, scratch_dir, static_link, text, try_compile_asan};
use rapidpqp::io::{Mesh, load};

fn c_compiler() -> Command {
    common::cbuild::compiler(false, "c99").include(header_dir()).get_compiler().to_command()
}

fn binary_stl(mesh: &Mesh) -> Vec<u8> {
    let mut out = b"solid binary, in spite of its first word".to_vec();
    out.resize(80, b' ');
    out.extend_from_slice(&(mesh.faces.len() as u32).to_le_bytes());
    for f in &mesh.faces {
        out.extend_from_slice(&[0; 12]);
        for &i in f {
            let v = mesh.vertices[i as usize];
            for c in [v.x, v.y, v.z] {
                out.extend_from_slice(&(c as f32).to_le_bytes());
            }
        }
        out.extend_from_slice(&[0; 2]);
    }
    out
}

fn ply(mesh: &Mesh, big_endian: bool) -> Vec<u8> {
    let format = if big_endian { "binary_big_endian" } else { "ascii" };
    let mut out = format!(
        "ply\nformat {format} 1.0\nelement vertex {}\nproperty double x\nproperty double y\nproperty double z\n\
         element face {}\nproperty list uchar int vertex_indices\nend_header\n",
        mesh.vertices.len(),
        mesh.faces.len()
    )
    .into_bytes();
    for v in &mesh.vertices {
        if big_endian {
            for c in [v.x, v.y, v.z] {
                out.extend_from_slice(&c.to_be_bytes());
            }
        } else {
            out.extend_from_slice(format!("{:?} {:?} {:?}\n", v.x, v.y, v.z).as_bytes());
        }
    }
    for f in &mesh.faces {
        if big_endian {
            out.push(3);
            for &i in f {
                out.extend_from_slice(&(i as i32).to_be_bytes());
            }
        } else {
            out.extend_from_slice(format!("3 {} {} {}\n", f[0], f[1], f[2]).as_bytes());
        }
    }
    out
}

/// Writes the good files and the bad ones; returns the good files' paths.
fn write_files(dir: &Path) -> Vec<PathBuf> {
    let teapot = manifest_dir().join("meshes/teapot.obj");
    let mesh = load(&teapot).expect("teapot");
    let good = vec![
        (teapot.clone(), None),
        (dir.join("teapot.stl"), Some(binary_stl(&mesh))),
        (dir.join("teapot_ascii.ply"), Some(ply(&mesh, false))),
        (dir.join("teapot_be.ply"), Some(ply(&mesh, true))),
    ];
    for (path, bytes) in &good {
        if let Some(bytes) = bytes {
            std::fs::write(path, bytes).unwrap();
        }
    }
    let stl = binary_stl(&mesh);
    let mut out_of_range = mesh.clone();
    out_of_range.faces[5][1] = 1_000_000;
    let mut nan = mesh.clone();
    nan.vertices[2].z = f64::NAN;
    let bad: [(&str, Vec<u8>); 5] = [
        ("truncated.stl", stl[..stl.len() - 7].to_vec()),
        ("out_of_range.ply", ply(&out_of_range, true)),
        ("nan.ply", ply(&nan, false)),
        ("empty.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\n".to_vec()),
        ("unknown.dat", b"OFF\n3 1 0\n".to_vec()),
    ];
    for (name, bytes) in bad {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let _ = std::fs::remove_file(dir.join("missing.obj"));
    good.into_iter().map(|(p, _)| p).collect()
}

fn run_mesh_load(mut command: Command, answers: &Path, dir: &Path, good: &[PathBuf], what: &str) {
    command.arg(answers).arg(dir).args(good);
    let output = run(command, what);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{what} failed ({}):\n{}", output.status, report(&output));
    assert!(
        output.stderr.is_empty() && stdout.lines().count() == 1 && stdout.starts_with("mesh_load: "),
        "{what}: unexpected output:\n{}",
        report(&output)
    );
    // The arrays the C program copied out are the Rust reader's, bit for bit.
    let written = std::fs::read_to_string(answers).expect("the answers");
    let mut lines = written.lines();
    for path in good {
        let mesh = load(path).unwrap();
        let head: Vec<usize> = lines.next().expect("an M line")[2..].split(' ').map(|w| w.parse().unwrap()).collect();
        assert_eq!(head, [mesh.vertices.len(), mesh.faces.len()], "{}", path.display());
        for v in &mesh.vertices {
            let got: Vec<f64> = lines.next().unwrap().split(' ').map(|w| w.parse().unwrap()).collect();
            assert_eq!(got.iter().map(|c| c.to_bits()).collect::<Vec<_>>(), [v.x, v.y, v.z].map(f64::to_bits));
        }
        for f in &mesh.faces {
            let got: Vec<u32> = lines.next().unwrap().split(' ').map(|w| w.parse().unwrap()).collect();
            assert_eq!(got, f);
        }
    }
    assert!(lines.next().is_none());
}

#[test]
fn mesh_load_c_api_matches_the_rust_reader() {
    let static_lib = built_library("librapidpqp.a");
    let exe = common::cbuild::compile(c_compiler(), "mesh_load.c", "mesh_load", &static_link(&static_lib));
    let dir = scratch_dir("c_mesh_load");
    let good = write_files(&dir);
    run_mesh_load(Command::new(&exe), &dir.join("answers.txt"), &dir, &good, "mesh_load");
    if let Some(exe) = try_compile_asan(c_compiler(), "mesh_load.c", "mesh_load_asan", &static_lib) {
        let mut command = Command::new(&exe);
        command.env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0");
        run_mesh_load(command, &dir.join("answers_asan.txt"), &dir, &good, "mesh_load (AddressSanitizer)");
    }
}
