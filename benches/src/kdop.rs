//! The `kdop` scene (issue 16): a refitted k-DOP-18 tree against our refitted OBB tree on the
//! deforming scenes of `refit` (cloth over the bunny, wobbling bunny).
//!
//! The k-DOP-18 tree lives here, in the benchmark only: 9 directions (the 3 axes and
//! (1,±1,0), (1,0,±1), (0,1,±1)), a min and a max along each; a binary tree over a mesh's
//! faces, built once top-down (median split of centroids on the longest axis, one triangle
//! per leaf, nodes in a flat array in preorder), refitted bottom-up from new vertex positions
//! (exact: leaf = its 3 vertices' projections, parent = union of its children). Each leaf
//! value is widened outward by a relative rounding margin, so the overlap test stays
//! conservative (projections on the diagonal directions round).
//!
//! k-DOPs are not rotation invariant: both trees must be in one frame. The deforming scenes
//! place both models at identity (the wobble scene's still bunny_15k is baked into world
//! coordinates), so no vertex transform is needed here; a rigidly moving model would need its
//! vertices moved to world (and its tree refitted) every frame, which is the known weakness.

use std::time::Instant;

use rapidpqp::geometry::tri_intersect::triangles_intersect;
use rapidpqp::query::{CollideRequest, CollideResult, collide};
use rapidpqp::{Mat3, Model, Placement, Triangle, Vec3};

use crate::refit::scenes::{Cloth, Wobble, bounds};
use crate::refit::{load, sorted_pairs, time_us, triangles};
use crate::timing::median;

/// Directions: 9.
const K: usize = 9;
const NO_CHILD: u32 = u32::MAX;

/// A k-DOP-18: `lo[i] <= d_i · p <= hi[i]` for every point p inside.
#[derive(Clone, Copy, Debug)]
pub struct Dop {
    lo: [f64; K],
    hi: [f64; K],
}

/// A point's 9 projections (the diagonal directions unnormalized: x ± y and so on).
#[inline]
fn project(p: &Vec3) -> [f64; K] {
    let (x, y, z) = (p.x, p.y, p.z);
    [x, y, z, x + y, x - y, x + z, x - z, y + z, y - z]
}

/// Outward widening of a computed projection: `fl(x ± y)` is within `|x ± y| ε/2` of the
/// exact value, so 4 ε of the magnitude plus the smallest normal covers it with room.
#[inline]
fn margin(v: f64) -> f64 {
    v.abs() * (4.0 * f64::EPSILON) + f64::MIN_POSITIVE
}

impl Dop {
    const EMPTY: Dop = Dop { lo: [f64::INFINITY; K], hi: [f64::NEG_INFINITY; K] };

    fn of_triangle(a: &Vec3, b: &Vec3, c: &Vec3) -> Dop {
        let (pa, pb, pc) = (project(a), project(b), project(c));
        let mut d = Dop::EMPTY;
        for i in 0..K {
            let lo = pa[i].min(pb[i]).min(pc[i]);
            let hi = pa[i].max(pb[i]).max(pc[i]);
            d.lo[i] = lo - margin(lo);
            d.hi[i] = hi + margin(hi);
        }
        d
    }

    #[inline]
    fn union(a: &Dop, b: &Dop) -> Dop {
        let mut d = Dop::EMPTY;
        for i in 0..K {
            d.lo[i] = a.lo[i].min(b.lo[i]);
            d.hi[i] = a.hi[i].max(b.hi[i]);
        }
        d
    }

    /// All 9 slab pairs overlap (axes first: they reject most).
    #[inline]
    fn overlaps(&self, o: &Dop) -> bool {
        for i in 0..K {
            if self.lo[i] > o.hi[i] || o.lo[i] > self.hi[i] {
                return false;
            }
        }
        true
    }

    /// The volume proxy that picks which node to split: the summed axis extents.
    #[inline]
    fn size(&self) -> f64 {
        (self.hi[0] - self.lo[0]) + (self.hi[1] - self.lo[1]) + (self.hi[2] - self.lo[2])
    }
}

/// A node: inner (`left`, `right` children) or leaf (`left == NO_CHILD`, `right` = face).
#[derive(Clone, Copy, Debug)]
struct Node {
    left: u32,
    right: u32,
}

/// A k-DOP-18 tree over a mesh's faces; `vertices` are the current positions.
pub struct DopTree {
    nodes: Vec<Node>,
    dops: Vec<Dop>,
    faces: Vec<[u32; 3]>,
    vertices: Vec<Vec3>,
}

/// Collide's counts and answer.
#[derive(Default)]
pub struct DopCollide {
    pub bv_tests: u64,
    pub tri_tests: u64,
    /// (face of tree 1, face of tree 2), in discovery order.
    pub pairs: Vec<(i32, i32)>,
}

impl DopTree {
    /// Builds the tree (topology once) and fits it to `vertices`.
    pub fn build(vertices: &[Vec3], faces: &[[u32; 3]]) -> DopTree {
        assert!(!faces.is_empty(), "an empty mesh");
        let centroids: Vec<Vec3> = faces
            .iter()
            .map(|f| (vertices[f[0] as usize] + vertices[f[1] as usize] + vertices[f[2] as usize]) / 3.0)
            .collect();
        let mut order: Vec<u32> = (0..faces.len() as u32).collect();
        let mut tree = DopTree {
            nodes: Vec::with_capacity(2 * faces.len()),
            dops: Vec::new(),
            faces: faces.to_vec(),
            vertices: vertices.to_vec(),
        };
        tree.split(&mut order, &centroids);
        tree.dops = vec![Dop::EMPTY; tree.nodes.len()];
        tree.fit();
        tree
    }

    /// Appends the subtree over `faces` in preorder; returns its root's index.
    fn split(&mut self, faces: &mut [u32], centroids: &[Vec3]) -> u32 {
        let at = self.nodes.len() as u32;
        if faces.len() == 1 {
            self.nodes.push(Node { left: NO_CHILD, right: faces[0] });
            return at;
        }
        self.nodes.push(Node { left: NO_CHILD, right: NO_CHILD });
        let (mut lo, mut hi) = (Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY));
        for &f in faces.iter() {
            lo = lo.inf(&centroids[f as usize]);
            hi = hi.sup(&centroids[f as usize]);
        }
        let axis = (hi - lo).imax();
        let mid = faces.len() / 2;
        faces.select_nth_unstable_by(mid, |&a, &b| centroids[a as usize][axis].total_cmp(&centroids[b as usize][axis]));
        let (l, r) = faces.split_at_mut(mid);
        let left = self.split(l, centroids);
        let right = self.split(r, centroids);
        self.nodes[at as usize] = Node { left, right };
        at
    }

    /// Fits every node to `self.vertices`, bottom-up (children follow their parent in the array).
    fn fit(&mut self) {
        for i in (0..self.nodes.len()).rev() {
            let n = self.nodes[i];
            self.dops[i] = if n.left == NO_CHILD {
                let f = self.faces[n.right as usize];
                let v = &self.vertices;
                Dop::of_triangle(&v[f[0] as usize], &v[f[1] as usize], &v[f[2] as usize])
            } else {
                Dop::union(&self.dops[n.left as usize], &self.dops[n.right as usize])
            };
        }
    }

    /// The per-frame update: new positions, every node refitted exactly.
    pub fn refit(&mut self, vertices: &[Vec3]) {
        assert_eq!(vertices.len(), self.vertices.len(), "vertex count");
        self.vertices.copy_from_slice(vertices);
        self.fit();
    }

    fn triangle(&self, face: u32) -> Triangle {
        self.faces[face as usize].map(|v| self.vertices[v as usize])
    }

    /// Every intersecting triangle pair of `self` and `other` (same frame): simultaneous
    /// descent, splitting the larger node (or the one that is not a leaf).
    pub fn collide(&self, other: &DopTree, out: &mut DopCollide, stack: &mut Vec<(u32, u32)>) {
        out.bv_tests = 0;
        out.tri_tests = 0;
        out.pairs.clear();
        stack.clear();
        stack.push((0, 0));
        while let Some((a, b)) = stack.pop() {
            out.bv_tests += 1;
            let (da, db) = (&self.dops[a as usize], &other.dops[b as usize]);
            if !da.overlaps(db) {
                continue;
            }
            let (na, nb) = (self.nodes[a as usize], other.nodes[b as usize]);
            match (na.left == NO_CHILD, nb.left == NO_CHILD) {
                (true, true) => {
                    out.tri_tests += 1;
                    if triangles_intersect(&self.triangle(na.right), &other.triangle(nb.right)) {
                        out.pairs.push((na.right as i32, nb.right as i32));
                    }
                }
                (false, true) => {
                    stack.push((na.right, b));
                    stack.push((na.left, b));
                }
                (true, false) => {
                    stack.push((a, nb.right));
                    stack.push((a, nb.left));
                }
                (false, false) => {
                    if da.size() >= db.size() {
                        stack.push((na.right, b));
                        stack.push((na.left, b));
                    } else {
                        stack.push((a, nb.right));
                        stack.push((a, nb.left));
                    }
                }
            }
        }
    }
}

/// One frame's figures.
#[derive(Default, Clone, Copy)]
struct Frame {
    dop_refit_ms: f64,
    our_refit_ms: f64,
    /// `Model::new` over the frame's triangles (what a rebuild costs).
    our_build_ms: f64,
    /// k-DOP refitted, ours refitted, ours fresh.
    collide_us: [f64; 3],
    bv: [u64; 3],
    tri: [u64; 3],
    contacts: usize,
}

/// A deforming mesh (`faces` over `frames`) against a still one (`other_vertices`,
/// `other_faces`, world coordinates), both at identity.
#[allow(clippy::too_many_arguments)]
fn run_scene(
    name: &str,
    faces: &[[u32; 3]],
    frames: &[Vec<Vec3>],
    other_vertices: &[Vec3],
    other_faces: &[[u32; 3]],
    repeats: usize,
    csv: &mut String,
    failures: &mut Vec<String>,
) -> (Vec<Frame>, f64) {
    let ids: Vec<i32> = (0..faces.len() as i32).collect();
    let mut ours = Model::deformable(&frames[0], faces, None).expect("deformable model");
    ours.set_rebuild_threshold(f64::INFINITY).expect("threshold");
    let other =
        Model::new(triangles(other_vertices, other_faces), (0..other_faces.len() as i32).collect()).expect("other");
    let start = Instant::now();
    let mut dop = DopTree::build(&frames[0], faces);
    let dop_build_ms = start.elapsed().as_secs_f64() * 1e3;
    let dop_other = DopTree::build(other_vertices, other_faces);
    let identity = Placement::IDENTITY;
    let request = CollideRequest::default();
    let mut out = CollideResult::new();
    let mut dout = DopCollide::default();
    let mut stack = Vec::new();
    let mut rows = Vec::new();
    for (k, positions) in frames.iter().enumerate().skip(1) {
        let mut f = Frame::default();
        // Our refit, timed on a copy per repeat (as the refit scene does).
        let mut times = Vec::new();
        for _ in 0..repeats {
            let mut m = ours.clone();
            let start = Instant::now();
            m.update_vertices(positions).expect("update");
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
        ours.update_vertices(positions).expect("update");
        f.our_refit_ms = median(&mut times);
        // The k-DOP refit is idempotent for given positions: repeat it in place.
        let mut times = Vec::new();
        for _ in 0..repeats {
            let start = Instant::now();
            dop.refit(positions);
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
        f.dop_refit_ms = median(&mut times);
        let tris = triangles(positions, faces);
        let mut times = Vec::new();
        let mut fresh = None;
        for _ in 0..repeats {
            let t = tris.clone();
            let start = Instant::now();
            fresh = Some(Model::new(t, ids.clone()).expect("build"));
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
        f.our_build_ms = median(&mut times);
        let fresh = fresh.expect("a build");

        f.collide_us[0] = time_us(repeats, || dop.collide(&dop_other, &mut dout, &mut stack));
        dop.collide(&dop_other, &mut dout, &mut stack);
        f.bv[0] = dout.bv_tests;
        f.tri[0] = dout.tri_tests;
        let mut dop_pairs = dout.pairs.clone();
        dop_pairs.sort_unstable();
        let mut answers = Vec::new();
        for (lane, m) in [&ours, &fresh].into_iter().enumerate() {
            f.collide_us[lane + 1] = time_us(repeats, || {
                collide(m, &identity, &other, &identity, &request, &mut out).expect("collide");
            });
            collide(m, &identity, &other, &identity, &request, &mut out).expect("collide");
            f.bv[lane + 1] = out.bv_tests;
            f.tri[lane + 1] = out.tri_tests;
            answers.push(sorted_pairs(&out));
        }
        f.contacts = dop_pairs.len();
        if dop_pairs != answers[0] {
            let missing = answers[0].iter().filter(|p| dop_pairs.binary_search(p).is_err()).count();
            let extra = dop_pairs.iter().filter(|p| answers[0].binary_search(p).is_err()).count();
            failures.push(format!(
                "kdop {name} frame {k}: k-DOP pairs ({}) differ from collide on the refitted model ({}): {missing} missing, {extra} extra",
                dop_pairs.len(),
                answers[0].len()
            ));
        }
        if answers[0] != answers[1] {
            failures.push(format!("kdop {name} frame {k}: refitted collide differs from the fresh build's"));
        }
        use std::fmt::Write as _;
        writeln!(
            csv,
            "{name},{k},{},{},{:.3},{:.3},{:.3},{:.1},{:.1},{:.1},{},{},{},{},{},{},{}",
            faces.len(),
            other_faces.len(),
            f.dop_refit_ms,
            f.our_refit_ms,
            f.our_build_ms,
            f.collide_us[0],
            f.collide_us[1],
            f.collide_us[2],
            f.bv[0],
            f.bv[1],
            f.bv[2],
            f.tri[0],
            f.tri[1],
            f.tri[2],
            f.contacts,
        )
        .expect("a String");
        rows.push(f);
    }
    (rows, dop_build_ms)
}

fn summary(name: &str, tris: usize, rows: &[Frame], dop_build_ms: f64) {
    let med = |f: &dyn Fn(&Frame) -> f64| median(&mut rows.iter().map(f).collect::<Vec<_>>());
    say!(
        "| {name} | {tris} | {} | {dop_build_ms:.1} | {:.2} / {:.2} | {:.0} / {:.0} / {:.0} | {:.0} / {:.0} / {:.0} | {:.0} / {:.0} / {:.0} | {:.0} | {:.1} / {:.1} / {:.1} |",
        rows.len(),
        med(&|f| f.dop_refit_ms),
        med(&|f| f.our_refit_ms),
        med(&|f| f.collide_us[0]),
        med(&|f| f.collide_us[1]),
        med(&|f| f.collide_us[2]),
        med(&|f| f.bv[0] as f64),
        med(&|f| f.bv[1] as f64),
        med(&|f| f.bv[2] as f64),
        med(&|f| f.tri[0] as f64),
        med(&|f| f.tri[1] as f64),
        med(&|f| f.tri[2] as f64),
        med(&|f| f.contacts as f64),
        med(&|f| f.dop_refit_ms + f.collide_us[0] / 1e3),
        med(&|f| f.our_refit_ms + f.collide_us[1] / 1e3),
        med(&|f| f.our_build_ms + f.collide_us[2] / 1e3),
    );
}

/// Runs the scene; returns its CSV. Disagreements go into `failures`.
pub fn run(quick: bool, repeats: usize, failures: &mut Vec<String>) -> (String, String) {
    let frames_n = if quick { 8 } else { 24 };
    let mut csv = String::from(
        "scene,frame,triangles,other_triangles,refit_ms_kdop,refit_ms_ours,build_ms_ours,collide_us_kdop,collide_us_ours_refit,\
         collide_us_ours_fresh,bv_kdop,bv_ours_refit,bv_ours_fresh,tri_kdop,tri_ours_refit,tri_ours_fresh,contacts\n",
    );
    say!("\n## Refitted k-DOP-18 tree vs our refitted OBB tree (`--case kdop`)\n");
    say!(
        "The `refit` scenes. Per frame, medians over the frames (each timed as the median of {repeats} \
         runs). Refit: the deforming model only (the other is still), k-DOP-18 tree \
         (benches/src/kdop.rs: 9 directions, exact bottom-up refit, 1 triangle a leaf) / ours \
         (`Model::update_vertices`, never rebuilding). Collide, all contacts, and its box-pair and \
         triangle-pair tests: k-DOP refitted / ours refitted / ours freshly built (`Model::new`, \
         default box test: OBB with the dual sphere test). k-DOP build: the deforming model's \
         tree, once. Every frame, the k-DOP pair set is checked equal to collide's on our refitted \
         model (a failure otherwise). Frame ms: the deforming model's update plus collide, \
         k-DOP refit + collide / our refit + collide / our rebuild (`Model::new`) + collide.\n"
    );
    say!(
        "| scene | triangles | frames | k-DOP build ms | refit ms k-DOP / ours | collide µs | collide BV tests | collide tri tests | contacts | frame ms |"
    );
    say!("|---|---|---|---|---|---|---|---|---|---|");

    let bunny = load("bunny");
    let (lo, hi) = bounds(&bunny.vertices);
    let size = (hi - lo).amax();

    let cloth = Cloth::new(&bunny, 160, 1);
    let faces = cloth.faces();
    let frames: Vec<Vec<Vec3>> = (0..=frames_n).map(|k| cloth.frame(k, frames_n)).collect();
    eprintln!("kdop: cloth ({} triangles) over the bunny", faces.len());
    let (rows, build) = run_scene("cloth", &faces, &frames, &bunny.vertices, &bunny.faces, repeats, &mut csv, failures);
    summary("cloth over bunny", faces.len(), &rows, build);

    let small = load("bunny_15k");
    let wobble = Wobble::new(bunny.vertices.clone(), 0.03, 2);
    let frames: Vec<Vec<Vec3>> = (0..=frames_n).map(|k| wobble.frame(k as f64 * 12.0 / frames_n as f64)).collect();
    // As in the refit scene: the still bunny_15k, moved to overlap, baked into world coordinates.
    let overlap = Placement { rotation: Mat3::identity(), translation: Vec3::new(0.3 * size, 0.0, 0.0), scale: 1.0 };
    let moved: Vec<Vec3> = small.vertices.iter().map(|p| overlap.apply(p)).collect();
    eprintln!("kdop: wobbling bunny ({} triangles)", bunny.faces.len());
    let (rows, build) = run_scene("wobble", &bunny.faces, &frames, &moved, &small.faces, repeats, &mut csv, failures);
    summary("wobbling bunny", bunny.faces.len(), &rows, build);
    ("kdop.csv".into(), csv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refit::scenes::uv_sphere;

    /// The k-DOP collide against every triangle pair, a small cloth over a wobbling sphere.
    #[test]
    fn collide_equals_brute_force() {
        let body = uv_sphere(16, 20, Vec3::zeros(), 1.0);
        let cloth = Cloth::new(&body, 24, 7);
        let faces = cloth.faces();
        let wobble = Wobble::new(body.vertices.clone(), 0.05, 3);
        let mut sheet = DopTree::build(&cloth.frame(0, 10), &faces);
        let mut ball = DopTree::build(&body.vertices, &body.faces);
        let (mut out, mut stack, mut contacts) = (DopCollide::default(), Vec::new(), 0);
        for k in 1..=10 {
            let (a, b) = (cloth.frame(k, 10), wobble.frame(k as f64));
            sheet.refit(&a);
            ball.refit(&b);
            let (ta, tb) = (triangles(&a, &faces), triangles(&b, &body.faces));
            let mut want = Vec::new();
            for (i, x) in ta.iter().enumerate() {
                for (j, y) in tb.iter().enumerate() {
                    if triangles_intersect(x, y) {
                        want.push((i as i32, j as i32));
                    }
                }
            }
            sheet.collide(&ball, &mut out, &mut stack);
            out.pairs.sort_unstable();
            assert_eq!(out.pairs, want, "frame {k}");
            contacts += want.len();
        }
        assert!(contacts > 0, "the scene has contacts");
    }
}
