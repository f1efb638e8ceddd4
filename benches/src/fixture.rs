//! The data the benchmark reads: the conformance cases of `tests/data/conformance` (format in
//! FORMAT.md there: the two meshes, the poses, the originals' recorded answers, which the C
//! harness checks) and the bundled meshes (`meshes/`, `../shared/meshes`).

use std::path::{Path, PathBuf};

use rapidpqp::io::load_obj;
use rapidpqp::{Placement, Triangle};

use crate::report::root;

/// Where model 1 and model 2 are placed for one query.
pub type Pose = (Placement, Placement);

pub fn case_dir(name: &str) -> PathBuf {
    root().join("tests/data/conformance").join(name)
}

/// A case's meshes (triangle k has id k) and poses.
pub struct Case {
    pub name: String,
    pub a: Vec<Triangle>,
    pub b: Vec<Triangle>,
    pub poses: Vec<Pose>,
}

impl Case {
    pub fn load(name: &str) -> Case {
        let dir = case_dir(name);
        let mesh = |file: &str| load_obj(dir.join(file)).unwrap_or_else(|e| panic!("{name}/{file}: {e}")).triangles();
        Case { name: name.to_string(), a: mesh("a.obj"), b: mesh("b.obj"), poses: poses(name) }
    }

    /// The PQP_Tolerance queries of `pqp_tolerance.txt`: pose and tolerance, a line each.
    pub fn tolerance_queries(&self) -> Vec<(usize, f64)> {
        number_lines(&case_dir(&self.name).join("pqp_tolerance.txt")).iter().map(|v| (v[0] as usize, v[1])).collect()
    }
}

/// The poses of a case (`poses.txt`: R1, T1, s1, R2, T2, s2 a line).
pub fn poses(case: &str) -> Vec<Pose> {
    number_lines(&case_dir(case).join("poses.txt")).iter().map(|v| pose_of_line(v)).collect()
}

/// A pose from the 26 numbers of a `poses.txt` line.
pub fn pose_of_line(v: &[f64]) -> Pose {
    let p = |o: usize| {
        Placement::from_rows(
            &[[v[o], v[o + 1], v[o + 2]], [v[o + 3], v[o + 4], v[o + 5]], [v[o + 6], v[o + 7], v[o + 8]]],
            &[v[o + 9], v[o + 10], v[o + 11]],
            v[o + 12],
        )
    };
    (p(0), p(13))
}

/// The numbers of each non-empty line of a file.
fn number_lines(path: &Path) -> Vec<Vec<f64>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .map(|w| w.parse().unwrap_or_else(|e| panic!("{}: {w:?}: {e}", path.display())))
                .collect()
        })
        .collect()
}

/// Every mesh of `meshes/`, by name.
pub fn meshes() -> Vec<PathBuf> {
    obj_files(&root().join("meshes"))
}

/// Every bundled mesh: `meshes/`, and those of `../shared/meshes` (when it is there) that
/// `meshes/` has not the same bytes of.
pub fn bundled_meshes() -> Vec<PathBuf> {
    let mut all = meshes();
    for shared in obj_files(&root().join("../shared/meshes")) {
        let ours = root().join("meshes").join(shared.file_name().expect("a file"));
        if std::fs::read(&ours).ok() != std::fs::read(&shared).ok() {
            all.push(shared);
        }
    }
    all
}

fn obj_files(dir: &Path) -> Vec<PathBuf> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    names.retain(|p| p.extension().is_some_and(|x| x == "obj"));
    names.sort();
    names
}
