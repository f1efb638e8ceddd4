//! Shared fixture reading for the integration tests (format: tests/data/conformance/FORMAT.md).
#![allow(dead_code)]

use std::path::PathBuf;

use rapidpqp::geometry::tri_intersect::triangles_intersect;
use rapidpqp::io::load_obj;
use rapidpqp::query::TriangleFrame;
use rapidpqp::{Model, Placement, Triangle, Vec3};

pub mod cbuild;

pub fn conformance_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance")
}

/// One conformance case: both meshes (triangles in file order, triangle k has id k), the
/// models built from them, and the poses.
pub struct Case {
    pub name: String,
    pub a_tris: Vec<Triangle>,
    pub b_tris: Vec<Triangle>,
    pub a: Model,
    pub b: Model,
    pub poses: Vec<(Placement, Placement)>,
}

impl Case {
    pub fn load(name: &str) -> Case {
        let dir = conformance_dir().join(name);
        let a_tris = load_obj(dir.join("a.obj")).unwrap().triangles();
        let b_tris = load_obj(dir.join("b.obj")).unwrap().triangles();
        let ids = |n: usize| (0..n as i32).collect::<Vec<_>>();
        let a = Model::new(a_tris.clone(), ids(a_tris.len())).unwrap();
        let b = Model::new(b_tris.clone(), ids(b_tris.len())).unwrap();
        let poses = numbers_per_line(&dir.join("poses.txt"))
            .into_iter()
            .map(|v| {
                assert_eq!(v.len(), 26);
                let p = |o: usize| {
                    Placement::from_rows(
                        &[[v[o], v[o + 1], v[o + 2]], [v[o + 3], v[o + 4], v[o + 5]], [v[o + 6], v[o + 7], v[o + 8]]],
                        &[v[o + 9], v[o + 10], v[o + 11]],
                        v[o + 12],
                    )
                };
                (p(0), p(13))
            })
            .collect();
        Case { name: name.to_string(), a_tris, b_tris, a, b, poses }
    }

    pub fn has(&self, file: &str) -> bool {
        conformance_dir().join(&self.name).join(file).exists()
    }

    pub fn lines(&self, file: &str) -> Vec<Vec<f64>> {
        numbers_per_line(&conformance_dir().join(&self.name).join(file))
    }
}

/// The names of all cases (folders holding poses.txt).
pub fn all_cases() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(conformance_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("poses.txt").exists())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

pub fn numbers_per_line(path: &std::path::Path) -> Vec<Vec<f64>> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|w| w.parse::<f64>().unwrap()).collect())
        .collect()
}

/// A recorded contact line: `rc tests tri_tests n id1 id2 ...`.
pub struct ContactLine {
    pub rc: i32,
    pub bv_tests: f64,
    pub tri_tests: f64,
    pub pairs: Vec<(i32, i32)>,
}

pub fn contact_lines(case: &Case, file: &str) -> Vec<ContactLine> {
    case.lines(file)
        .into_iter()
        .map(|v| {
            let n = v[3] as usize;
            assert_eq!(v.len(), 4 + 2 * n);
            ContactLine {
                rc: v[0] as i32,
                bv_tests: v[1],
                tri_tests: v[2],
                pairs: (0..n).map(|k| (v[4 + 2 * k] as i32, v[5 + 2 * k] as i32)).collect(),
            }
        })
        .collect()
}

pub fn sorted(mut pairs: Vec<(i32, i32)>) -> Vec<(i32, i32)> {
    pairs.sort_unstable();
    pairs
}

/// Every pair of triangles of `a` (placed at `p1`) and `b` (at `p2`) that intersect, tested
/// exactly in the frame `frame` names, with the very transform the collide query applies
/// (`query::Relative::between`, then `apply`); indices in slice order.
pub fn brute_force(
    a: &[Triangle],
    b: &[Triangle],
    p1: &Placement,
    p2: &Placement,
    frame: TriangleFrame,
) -> Vec<(i32, i32)> {
    let (from, to) = match frame {
        TriangleFrame::Model1 => (p2, p1),
        TriangleFrame::Model2 => (p1, p2),
    };
    // (The inverse as the queries take it: the transpose only for a rotation orthonormal to
    // rounding; a rotation accepted within the tolerance is used as given.)
    let at = to.rotation_inverse();
    let rot = at * from.rotation;
    let trans = at * (from.translation - to.translation) / to.scale;
    let scale = from.scale / to.scale;
    let map = |p: &Vec3| if scale == 1.0 { rot * p + trans } else { (rot * p) * scale + trans };
    let mut pairs = Vec::new();
    for (i, ta) in a.iter().enumerate() {
        for (j, tb) in b.iter().enumerate() {
            let hit = match frame {
                TriangleFrame::Model1 => triangles_intersect(ta, &tb.map(|p| map(&p))),
                TriangleFrame::Model2 => triangles_intersect(&ta.map(|p| map(&p)), tb),
            };
            if hit {
                pairs.push((i as i32, j as i32));
            }
        }
    }
    pairs
}

/// `target/<profile>`: the test binary lives in `target/<profile>/deps`.
pub fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("path of the test binary");
    exe.parent().and_then(std::path::Path::parent).expect("target/<profile>/deps/<test binary>").to_path_buf()
}

/// The command that builds the C library (`librapidpqp.so` with its SONAME and the SONAME's
/// link, and `librapidpqp.a`) in `target/<profile>`: the workspace's `rapidpqp-capi` package,
/// which a plain `cargo build` at the root builds too.
pub fn c_library_build(profile: &str) -> std::process::Command {
    let mut cargo = std::process::Command::new(env!("CARGO"));
    cargo
        .args(["build", "--package", "rapidpqp-capi"])
        .arg("--manifest-path")
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"));
    match profile {
        "debug" => {}
        "release" => {
            cargo.arg("--release");
        }
        other => {
            cargo.args(["--profile", other]);
        }
    }
    cargo
}

/// A C library artifact (`librapidpqp.a` or `.so`) of this very build. `cargo test` builds
/// the library only as an rlib for the tests, so the C library is brought up to date here (a
/// no-op when it is), never used stale. The build itself leaves the SONAME's link beside the
/// `.so` (capi/build.rs): nothing is added here, so the tests link as a user does.
pub fn built_library(file: &str) -> PathBuf {
    static BUILT: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    let profile = profile_dir();
    BUILT.get_or_init(|| {
        let target_dir = profile.parent().expect("target dir");
        let name = profile.file_name().and_then(|n| n.to_str());
        let name = name.unwrap_or_else(|| panic!("unexpected target layout {}", profile.display()));
        let status = c_library_build(name)
            .arg("--quiet")
            .arg("--target-dir")
            .arg(target_dir)
            .status()
            .expect("run cargo build for the C library");
        assert!(status.success(), "building the C library (cargo build --package rapidpqp-capi) failed");
    });
    let path = profile.join(file);
    assert!(path.is_file(), "{} not found after building the C library", path.display());
    path
}

/// The SONAME recorded in a shared library (`objdump -p`), if any.
pub fn soname(library: &std::path::Path) -> Option<String> {
    let output = std::process::Command::new("objdump").arg("-p").arg(library).output().expect("run objdump -p");
    assert!(output.status.success(), "objdump -p {} failed", library.display());
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|line| line.trim().strip_prefix("SONAME").map(|name| name.trim().to_owned()))
}

/// The six faces of a cube as quads of corner numbers 0..8, each bit of a corner number
/// choosing the low or high side on one axis (which bit is which axis is the user's).
pub const CUBE_QUADS: [[usize; 4]; 6] =
    [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
