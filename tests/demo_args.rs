//! The demo's command line (`examples/demo.rs`, run by `run_demo.sh`): `--help` prints the
//! usage instead of being taken for a mesh path, unknown options and extra arguments are
//! refused with a reason, and the table is labelled with the mesh's own name.

#[path = "../examples/demo.rs"]
#[allow(dead_code)] // its `main` is not called here
mod demo;

use demo::{Command, DEFAULT_MESH, mesh_name, parse_args, poses, usage};

fn args(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

#[test]
fn help_flags_ask_for_the_usage() {
    for a in [&["--help"][..], &["-h"], &["meshes/teapot.obj", "--help"]] {
        assert_eq!(parse_args(&args(a)), Ok(Command::Help), "{a:?}");
    }
    assert!(usage().starts_with("usage: run_demo.sh [MESH]"));
    assert!(usage().contains("OBJ, STL or PLY"));
    assert!(usage().contains("--help"));
}

#[test]
fn a_mesh_path_or_the_default_runs() {
    assert_eq!(parse_args(&[]), Ok(Command::Run { mesh: DEFAULT_MESH.to_string() }));
    assert!(std::path::Path::new(DEFAULT_MESH).is_file(), "{DEFAULT_MESH}");
    assert_eq!(parse_args(&args(&["meshes/teapot.obj"])), Ok(Command::Run { mesh: "meshes/teapot.obj".into() }));
}

#[test]
fn unknown_options_and_extra_arguments_are_refused_with_a_reason() {
    let err = parse_args(&args(&["--quick"])).unwrap_err();
    assert!(err.contains("unknown option") && err.contains("--quick"), "{err}");
    let err = parse_args(&args(&["a.obj", "b.obj"])).unwrap_err();
    assert!(err.contains("one mesh at most"), "{err}");
}

#[test]
fn labels_name_the_mesh_and_the_poses_as_they_are() {
    assert_eq!(mesh_name("meshes/teapot.obj"), "teapot");
    assert_eq!(mesh_name(DEFAULT_MESH), "bunny_15k");
    let size = 6.434;
    let poses = poses(size);
    for (label, _) in &poses {
        assert!(!label.contains("bunny") && !label.contains("mirror"), "{label}");
    }
    // The half-turn pose is a rotation (determinant +1), and its label says so.
    let (label, half_turn) = &poses[4];
    assert!(label.contains("turned 180°"), "{label}");
    assert!((half_turn.rotation.determinant() - 1.0).abs() < 1e-12);
    assert!((half_turn.rotation[(0, 0)] + 1.0).abs() < 1e-12 && (half_turn.rotation[(1, 1)] - 1.0).abs() < 1e-12);
    // Shifts scale with the mesh: "apart" is 1.1 sizes along x.
    let (label, apart) = &poses[3];
    assert!(label.contains("apart"));
    assert!((apart.translation.x - 1.1 * size).abs() < 1e-12);
}
