//! The data the benchmark reads: the conformance cases of `tests/data/conformance` (format in
//! FORMAT.md there: the two meshes, the poses, the originals' recorded answers) and the
//! bundled meshes of `meshes/`.

use std::path::{Path, PathBuf};

use rapidpqp::io::load_obj;
use rapidpqp::query::ContactPair;
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

// The records keep what checking answers needs; the work counts are read by the C harness.

/// One line of a recorded collide file: return code and the pairs (sorted).
pub struct ContactRecord {
    pub rc: i32,
    pub pairs: Vec<ContactPair>,
}

/// One line of `pqp_distance.txt`.
pub struct DistanceRecord {
    pub rc: i32,
    pub distance: f64,
}

/// One line of `pqp_tolerance.txt`.
pub struct ToleranceRecord {
    pub pose: usize,
    pub tolerance: f64,
    pub rc: i32,
    pub closer: bool,
}

/// Everything the originals answered on a case.
pub struct Records {
    pub rapid_all: Vec<ContactRecord>,
    pub rapid_first: Vec<ContactRecord>,
    pub pqp_all: Vec<ContactRecord>,
    pub pqp_first: Vec<ContactRecord>,
    pub distances: Vec<DistanceRecord>,
    pub tolerances: Vec<ToleranceRecord>,
}

impl Case {
    pub fn load(name: &str) -> Case {
        let dir = case_dir(name);
        let mesh = |file: &str| load_obj(dir.join(file)).unwrap_or_else(|e| panic!("{name}/{file}: {e}")).triangles();
        Case { name: name.to_string(), a: mesh("a.obj"), b: mesh("b.obj"), poses: poses(name) }
    }

    /// Half the diagonal of the larger model's bounding box: distances agree within 1e-12 of
    /// it (FORMAT.md).
    pub fn size(&self) -> f64 {
        let half_diagonal = |tris: &[Triangle]| {
            let (lo, hi) =
                tris.iter().flatten().fold(([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]), |(mut lo, mut hi), p| {
                    for c in 0..3 {
                        lo[c] = lo[c].min(p[c]);
                        hi[c] = hi[c].max(p[c]);
                    }
                    (lo, hi)
                });
            0.5 * (0..3).map(|c| (hi[c] - lo[c]).powi(2)).sum::<f64>().sqrt()
        };
        half_diagonal(&self.a).max(half_diagonal(&self.b))
    }

    pub fn records(&self) -> Records {
        let dir = case_dir(&self.name);
        let contacts = |file: &str| -> Vec<ContactRecord> {
            number_lines(&dir.join(file))
                .into_iter()
                .map(|v| ContactRecord {
                    rc: v[0] as i32,
                    pairs: {
                        let mut pairs: Vec<ContactPair> = v[4..]
                            .chunks_exact(2)
                            .map(|c| ContactPair { id1: c[0] as i32, id2: c[1] as i32 })
                            .collect();
                        pairs.sort_unstable();
                        pairs
                    },
                })
                .collect()
        };
        let distances = number_lines(&dir.join("pqp_distance.txt"))
            .into_iter()
            .map(|v| DistanceRecord { rc: v[0] as i32, distance: v[1] })
            .collect();
        let tolerances = number_lines(&dir.join("pqp_tolerance.txt"))
            .into_iter()
            .map(|v| ToleranceRecord { pose: v[0] as usize, tolerance: v[1], rc: v[2] as i32, closer: v[3] != 0.0 })
            .collect();
        Records {
            rapid_all: contacts("rapid_all.txt"),
            rapid_first: contacts("rapid_first.txt"),
            pqp_all: contacts("pqp_collide_all.txt"),
            pqp_first: contacts("pqp_collide_first.txt"),
            distances,
            tolerances,
        }
    }
}

/// The poses of a case (`poses.txt`: R1, T1, s1, R2, T2, s2 a line).
pub fn poses(case: &str) -> Vec<Pose> {
    number_lines(&case_dir(case).join("poses.txt"))
        .into_iter()
        .map(|v| {
            let p = |o: usize| {
                Placement::from_rows(
                    &[[v[o], v[o + 1], v[o + 2]], [v[o + 3], v[o + 4], v[o + 5]], [v[o + 6], v[o + 7], v[o + 8]]],
                    &[v[o + 9], v[o + 10], v[o + 11]],
                    v[o + 12],
                )
            };
            (p(0), p(13))
        })
        .collect()
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
    let mut names: Vec<PathBuf> = std::fs::read_dir(root().join("meshes"))
        .expect("meshes/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "obj"))
        .collect();
    names.sort();
    names
}
