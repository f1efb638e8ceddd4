//! Distance and tolerance: how far apart two placed models are, with closest points.
//!
//! The search visits node pairs of the two hierarchies with PQP's rules (descend into the
//! larger volume; a pair is visited only while its volume distance may still beat the best
//! triangle distance found). What makes it fast:
//!
//! * Order (`qsize <= 2` distance queries): best first until the first leaf pair, then depth
//!   first from the pending pairs, closest first. The first leaf pair reached best first gives a
//!   tight bound early, which on typical scenes prunes most of what a plain depth-first search
//!   would visit before finding a good pair.
//! * Placement: a volume test needs b's rectangle in a's rectangle frame. The node that is not
//!   split is placed once per expansion ([`Kept`]) and reused by both child tests (and by the
//!   next expansion that keeps the same node), so a test costs one 3×3 product.
//! * Early exits: a volume distance above the current pruning threshold only needs to be
//!   shown to be above it (see [`rss_distance_placed`]), and a triangle pair farther than the
//!   best so far only needs to be shown to be farther ([`triangle_distance_within`]). Both
//!   return exactly what the full computation would whenever the value matters, so the search
//!   visits the same pairs and returns the same answer.
//! * Tolerance queries test lazily ([`Search::expand_lazy`]): only whether a pair is within
//!   the tolerance matters, so the child pair whose centres are closer is visited without a
//!   volume test when the distance from its centre to the kept rectangle already shows it within
//!   the tolerance, and its sibling is tested only if the search comes back to it. A dive to a
//!   leaf pair within the tolerance then costs no volume test at all.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::Relative;
use crate::bv::Rss;
use crate::bv::rss::{Rows3, amax3, axis, dot3, rss_distance_placed};
use crate::geometry::tri_distance::triangle_distance_within;
use crate::math::{Placement, Triangle, Vec3};
use crate::model::{Model, Node};

/// What a distance query should do. A zero-filled request asks for the exact distance.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct DistanceRequest {
    /// Accept a result within this fraction of the true distance (≥ 0).
    pub rel_err: f64,
    /// Accept a result within this absolute amount of the true distance (≥ 0).
    pub abs_err: f64,
    /// Search order. More than 2: best first with a queue of at most this many node pairs (a
    /// full queue continues depth first from the pair at hand). 2 or less: best first down to
    /// the first leaf pair (which gives a tight bound early), then depth first from each pending
    /// pair, closest first; tolerance queries: depth first.
    pub qsize: usize,
}

/// Queue size of the best-first descent that starts a distance search with `qsize <= 2`.
const DESCENT_QUEUE: usize = 1024;

/// Caller-owned warm start: the closest triangle pair of the previous query on the same
/// model pair. Starting from it makes the first bound tight and prunes sooner.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DistanceCache {
    /// Leaf-order triangle indices in model 1 and model 2.
    pub last_pair: Option<(u32, u32)>,
}

/// Result of a distance or tolerance query. Distances are in the world's units.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DistanceResult {
    /// The distance found: within the requested error of the true minimum. For a tolerance
    /// query that is not closer, a lower bound of the true distance (above the tolerance).
    pub distance: f64,
    /// Closest point on model 1, in model 1's own frame.
    pub p1: Vec3,
    /// Closest point on model 2, in model 2's own frame. For intersecting models p1 and p2
    /// are the same world point, a point of the intersection.
    pub p2: Vec3,
    /// Bounding-volume distance tests performed.
    pub bv_tests: u64,
    /// Triangle-pair distance tests performed.
    pub tri_tests: u64,
    /// Leaf-order indices of the closest triangle pair (model 1, model 2), when one was found.
    pub closest_pair: Option<(u32, u32)>,
    /// Tolerance queries: true when the models are at most the tolerance apart.
    pub closer: bool,
}

/// Size used to decide which node of a pair to split (the RSS's extent).
#[inline]
fn size(node: &Node) -> f64 {
    node.rss.size()
}

/// `max |xᵢ|`.
#[inline(always)]
fn amax(x: &Vec3) -> f64 {
    amax3(&[x.x, x.y, x.z])
}

/// The node of a pair that is not split, placed for testing the other model's nodes: either b's
/// volume in a's model frame (`f[j]`: b's axis j, `o`: b's corner, lengths and radius scaled)
/// or a's volume seen from b's model frame (`f[i]`: a's axis i in b's model frame, `o`: b's
/// model origin in a's rectangle frame).
#[derive(Clone, Copy)]
struct Kept {
    f: Rows3,
    o: [f64; 3],
    lengths: [f64; 2],
    radius: f64,
    /// [`Search::coords`].
    coords: f64,
}

impl Kept {
    /// Kept b against a node `a` of model a.
    #[inline(always)]
    fn test_a(&self, a: &Rss, cut: f64) -> f64 {
        // b's axes and corner in a's axes.
        let ai = [axis(&a.axes, 0), axis(&a.axes, 1), axis(&a.axes, 2)];
        let inner = |v: &[f64; 3]| [dot3(&ai[0], v), dot3(&ai[1], v), dot3(&ai[2], v)];
        let q = &self.f;
        let bj = [inner(&q[0]), inner(&q[1]), inner(&q[2])];
        let t = inner(&[self.o[0] - a.corner.x, self.o[1] - a.corner.y, self.o[2] - a.corner.z]);
        let (la, rsum) = (a.lengths, a.radius + self.radius);
        rss_distance_placed(la, self.lengths, rsum, &bj, &t, self.coords, cut)
    }

    /// An upper bound of the distance between the kept rectangle and `a`'s rectangle minus
    /// the radii (kept b, node `a` of model a): the distance from `a`'s centre to the kept
    /// rectangle. Used to order and to skip tests, never to prune.
    #[inline(always)]
    fn upper_a(&self, a: &Rss) -> f64 {
        let (h0, h1) = (0.5 * a.lengths[0], 0.5 * a.lengths[1]);
        let (x0, x1) = (axis(&a.axes, 0), axis(&a.axes, 1));
        let p = [
            a.corner.x + h0 * x0[0] + h1 * x1[0] - self.o[0],
            a.corner.y + h0 * x0[1] + h1 * x1[1] - self.o[1],
            a.corner.z + h0 * x0[2] + h1 * x1[2] - self.o[2],
        ];
        let q = &self.f;
        let (x, y, z) = (dot3(&q[0], &p), dot3(&q[1], &p), dot3(&q[2], &p));
        self.rect_point(x, y, z) - a.radius - self.radius
    }

    /// [`Kept::upper_a`] for kept a and a node `b` of model b (scale `s`).
    #[inline(always)]
    fn upper_b(&self, b: &Rss, s: f64) -> f64 {
        let (h0, h1) = (0.5 * b.lengths[0], 0.5 * b.lengths[1]);
        let (x0, x1) = (axis(&b.axes, 0), axis(&b.axes, 1));
        let c = [
            (b.corner.x + h0 * x0[0] + h1 * x1[0]) * s,
            (b.corner.y + h0 * x0[1] + h1 * x1[1]) * s,
            (b.corner.z + h0 * x0[2] + h1 * x1[2]) * s,
        ];
        let p = &self.f;
        let x = dot3(&p[0], &c) + self.o[0];
        let y = dot3(&p[1], &c) + self.o[1];
        let z = dot3(&p[2], &c) + self.o[2];
        self.rect_point(x, y, z) - b.radius * s - self.radius
    }

    /// Distance from a point in the kept rectangle's frame to the kept rectangle.
    #[inline(always)]
    fn rect_point(&self, x: f64, y: f64, z: f64) -> f64 {
        let dx = (-x).max(x - self.lengths[0]).max(0.0);
        let dy = (-y).max(y - self.lengths[1]).max(0.0);
        (dx * dx + dy * dy + z * z).sqrt()
    }

    /// Kept a against a node `b` of model b (scale `s`).
    #[inline(always)]
    fn test_b(&self, b: &Rss, s: f64, cut: f64) -> f64 {
        // b's axes and corner in a's axes: p_i·x for a's axes p_i in b's model frame.
        let p = &self.f;
        let inner = |v: &[f64; 3]| [dot3(&p[0], v), dot3(&p[1], v), dot3(&p[2], v)];
        let bj = [inner(&axis(&b.axes, 0)), inner(&axis(&b.axes, 1)), inner(&axis(&b.axes, 2))];
        let pc = inner(&[b.corner.x * s, b.corner.y * s, b.corner.z * s]);
        let t = [pc[0] + self.o[0], pc[1] + self.o[1], pc[2] + self.o[2]];
        let lb = [b.lengths[0] * s, b.lengths[1] * s];
        rss_distance_placed(self.lengths, lb, self.radius + b.radius * s, &bj, &t, self.coords, cut)
    }
}

struct Search<'a> {
    a: &'a Model,
    b: &'a Model,
    rel: Relative,
    /// Rows and columns of `rel.rotation`.
    rot_rows: Rows3,
    rot_cols: Rows3,
    /// Bounds the magnitude of every coordinate the volume tests compose (their rounding
    /// margin is relative to it).
    coords: f64,
    /// The last placed kept node of each model (consecutive expansions often keep the same one).
    kept_a: Option<(u32, Kept)>,
    kept_b: Option<(u32, Kept)>,
    /// [`Search::compute_cut`], updated whenever `best` or `pruned_bound` changes.
    cut: f64,
    best: f64,
    best_points: (Vec3, Vec3),
    best_pair: Option<(u32, u32)>,
    bv_tests: u64,
    tri_tests: u64,
    /// Stop as soon as a pair at most this far is found (tolerance queries).
    stop_at: Option<f64>,
    rel_err: f64,
    abs_err: f64,
    /// Tolerance queries: the smallest volume distance of a pruned pair (a lower bound of the
    /// distance of everything not searched).
    pruned_bound: f64,
}

impl Search<'_> {
    /// The two child pairs of an inner pair (split on the larger node) with their volume
    /// distances. The placement of the kept node is composed once and shared by both tests.
    fn expand(&mut self, ia: u32, ib: u32) -> [(f64, u32, u32); 2] {
        let na = &self.a.nodes()[ia as usize];
        let nb = &self.b.nodes()[ib as usize];
        let s = self.rel.scale;
        let split_a = !na.is_leaf() && (nb.is_leaf() || size(na) > size(nb) * s);
        self.bv_tests += 2;
        let cut = self.cut;
        if split_a {
            let kept = match self.kept_b {
                Some((n, k)) if n == ib => k,
                _ => {
                    let k = self.b_in_a(&nb.rss);
                    self.kept_b = Some((ib, k));
                    k
                }
            };
            let c = na.first_child();
            let nodes = &self.a.nodes()[c..c + 2];
            let d0 = kept.test_a(&nodes[0].rss, cut);
            let d1 = kept.test_a(&nodes[1].rss, cut);
            [(d0, c as u32, ib), (d1, c as u32 + 1, ib)]
        } else {
            let kept = match self.kept_a {
                Some((n, k)) if n == ia => k,
                _ => {
                    let k = self.a_in_b(&na.rss);
                    self.kept_a = Some((ia, k));
                    k
                }
            };
            let c = nb.first_child();
            let nodes = &self.b.nodes()[c..c + 2];
            let d0 = kept.test_b(&nodes[0].rss, s, cut);
            let d1 = kept.test_b(&nodes[1].rss, s, cut);
            [(d0, ia, c as u32), (d1, ia, c as u32 + 1)]
        }
    }

    /// Depth-first expansion: the child pair whose centre bound ([`Kept::upper_a`]) is smaller
    /// first. That pair is tested only when its upper bound does not already show it must be
    /// visited (then its value is the parent's, a lower bound of it too); the other one is
    /// returned untested ([`Lazy`]) and tested when popped, against the bound of that time.
    #[inline(always)]
    fn expand_lazy(&mut self, d: f64, ia: u32, ib: u32) -> [Entry; 2] {
        let na = &self.a.nodes()[ia as usize];
        let nb = &self.b.nodes()[ib as usize];
        let s = self.rel.scale;
        let split_a = !na.is_leaf() && (nb.is_leaf() || size(na) > size(nb) * s);
        let cut = self.cut;
        if split_a {
            let kept = self.kept_b(ib);
            let c = na.first_child();
            let nodes = &self.a.nodes()[c..c + 2];
            let (u0, u1) = (kept.upper_a(&nodes[0].rss), kept.upper_a(&nodes[1].rss));
            let (near, far) = if u1 < u0 { (1, 0) } else { (0, 1) };
            let un = if u1 < u0 { u1 } else { u0 };
            let dn = if self.worth_visiting(un) {
                d
            } else {
                self.bv_tests += 1;
                kept.test_a(&nodes[near].rss, cut)
            };
            [
                Entry { d, a: (c + far) as u32, b: ib, lazy: Lazy::KeptB },
                Entry { d: dn, a: (c + near) as u32, b: ib, lazy: Lazy::Tested },
            ]
        } else {
            let kept = self.kept_a(ia);
            let c = nb.first_child();
            let nodes = &self.b.nodes()[c..c + 2];
            let (u0, u1) = (kept.upper_b(&nodes[0].rss, s), kept.upper_b(&nodes[1].rss, s));
            let (near, far) = if u1 < u0 { (1, 0) } else { (0, 1) };
            let un = if u1 < u0 { u1 } else { u0 };
            let dn = if self.worth_visiting(un) {
                d
            } else {
                self.bv_tests += 1;
                kept.test_b(&nodes[near].rss, s, cut)
            };
            [
                Entry { d, a: ia, b: (c + far) as u32, lazy: Lazy::KeptA },
                Entry { d: dn, a: ia, b: (c + near) as u32, lazy: Lazy::Tested },
            ]
        }
    }

    /// The volume test of an untested pair.
    #[inline(always)]
    fn test_lazy(&mut self, e: &Entry) -> f64 {
        self.bv_tests += 1;
        let cut = self.cut;
        match e.lazy {
            Lazy::KeptB => {
                let kept = self.kept_b(e.b);
                kept.test_a(&self.a.nodes()[e.a as usize].rss, cut)
            }
            _ => {
                let kept = self.kept_a(e.a);
                kept.test_b(&self.b.nodes()[e.b as usize].rss, self.rel.scale, cut)
            }
        }
    }

    /// The placement of node `ib` of model b as kept node (cached).
    #[inline(always)]
    fn kept_b(&mut self, ib: u32) -> Kept {
        match self.kept_b {
            Some((n, k)) if n == ib => k,
            _ => {
                let k = self.b_in_a(&self.b.nodes()[ib as usize].rss);
                self.kept_b = Some((ib, k));
                k
            }
        }
    }

    /// The placement of node `ia` of model a as kept node (cached).
    #[inline(always)]
    fn kept_a(&mut self, ia: u32) -> Kept {
        match self.kept_a {
            Some((n, k)) if n == ia => k,
            _ => {
                let k = self.a_in_b(&self.a.nodes()[ia as usize].rss);
                self.kept_a = Some((ia, k));
                k
            }
        }
    }

    /// b's volume in a's model frame, for testing it against a's nodes.
    #[inline(always)]
    fn b_in_a(&self, b: &Rss) -> Kept {
        let s = self.rel.scale;
        let m = &self.rot_rows;
        let tr = &self.rel.translation;
        // f[j] = M·b_j: b's axes in a's model frame.
        let rotate = |v: &[f64; 3]| [dot3(&m[0], v), dot3(&m[1], v), dot3(&m[2], v)];
        let f = [rotate(&axis(&b.axes, 0)), rotate(&axis(&b.axes, 1)), rotate(&axis(&b.axes, 2))];
        let cb = [b.corner.x * s, b.corner.y * s, b.corner.z * s];
        let o = [dot3(&m[0], &cb) + tr.x, dot3(&m[1], &cb) + tr.y, dot3(&m[2], &cb) + tr.z];
        Kept { f, o, lengths: [b.lengths[0] * s, b.lengths[1] * s], radius: b.radius * s, coords: self.coords }
    }

    /// a's volume in b's model frame (unscaled), for testing it against b's nodes.
    #[inline(always)]
    fn a_in_b(&self, a: &Rss) -> Kept {
        let mc = &self.rot_cols;
        let tr = &self.rel.translation;
        // f[i] = Mᵀ·a_i: a's axis i in b's model frame.
        let unrotate = |u: &[f64; 3]| [dot3(&mc[0], u), dot3(&mc[1], u), dot3(&mc[2], u)];
        let f = [unrotate(&axis(&a.axes, 0)), unrotate(&axis(&a.axes, 1)), unrotate(&axis(&a.axes, 2))];
        // o_i = a_i·(T − c_a).
        let dt = [tr.x - a.corner.x, tr.y - a.corner.y, tr.z - a.corner.z];
        let o = [dot3(&axis(&a.axes, 0), &dt), dot3(&axis(&a.axes, 1), &dt), dot3(&axis(&a.axes, 2), &dt)];
        Kept { f, o, lengths: a.lengths, radius: a.radius, coords: self.coords }
    }

    fn triangle_in_a(&self, ib: usize) -> Triangle {
        let t = &self.b.triangles()[ib];
        [self.rel.apply(&t[0]), self.rel.apply(&t[1]), self.rel.apply(&t[2])]
    }

    /// Tests a leaf pair and keeps it if closer than the best so far.
    fn leaf_pair(&mut self, ta: usize, tb: usize, counted: bool) {
        if counted {
            self.tri_tests += 1;
        }
        // Only a pair closer than the best so far matters (the margin covers the rounding of
        // the separating-plane test, relative to the coordinates).
        let cut = self.best + 1e-12 * self.coords;
        let Some(d) = triangle_distance_within(&self.a.triangles()[ta], &self.triangle_in_a(tb), cut) else {
            return;
        };
        if d.distance < self.best || self.best_pair.is_none() {
            self.best = d.distance;
            self.cut = self.compute_cut();
            self.best_points = (d.p, d.q);
            self.best_pair = Some((ta as u32, tb as u32));
        }
    }

    fn done(&self) -> bool {
        self.stop_at.is_some_and(|t| self.best_pair.is_some() && self.best <= t)
    }

    /// A volume distance above which a pair is surely not worth visiting now (nor later: the
    /// bound only drops) and, for tolerance queries, would not lower `pruned_bound`: such
    /// distances need not be computed exactly.
    #[inline]
    fn compute_cut(&self) -> f64 {
        match self.stop_at {
            Some(t) => t.max(self.pruned_bound),
            None => (self.best - self.abs_err).max(self.best / (1.0 + self.rel_err)),
        }
    }

    /// Records a pair pruned at volume distance `d`.
    #[inline]
    fn prune(&mut self, d: f64) {
        if d < self.pruned_bound {
            self.pruned_bound = d;
            self.cut = self.compute_cut();
        }
    }

    /// Whether a node pair at volume distance `d` may still hold a closer pair.
    #[inline]
    fn worth_visiting(&self, d: f64) -> bool {
        match self.stop_at {
            Some(t) => d <= t,
            None => d < self.best - self.abs_err || d * (1.0 + self.rel_err) < self.best,
        }
    }

    /// Depth first from a pair, closer child pair first (tolerance queries: see
    /// [`Search::expand_lazy`]).
    fn depth_first(&mut self, start: (u32, u32), stack: &mut Vec<Entry>) {
        let base = stack.len();
        stack.push(Entry { d: f64::NEG_INFINITY, a: start.0, b: start.1, lazy: Lazy::Tested });
        while stack.len() > base {
            let e = stack.pop().expect("non-empty");
            if self.done() {
                stack.truncate(base);
                return;
            }
            let mut d = e.d;
            if !self.worth_visiting(d) {
                self.prune(d);
                continue;
            }
            if e.lazy != Lazy::Tested {
                d = self.test_lazy(&e);
                if !self.worth_visiting(d) {
                    self.prune(d);
                    continue;
                }
            }
            let (ia, ib) = (e.a, e.b);
            let na = &self.a.nodes()[ia as usize];
            let nb = &self.b.nodes()[ib as usize];
            if na.is_leaf() && nb.is_leaf() {
                self.leaf_pair(na.triangle(), nb.triangle(), true);
                continue;
            }
            if self.stop_at.is_some() {
                let [far, near] = self.expand_lazy(d, ia, ib);
                stack.push(far);
                stack.push(near);
                continue;
            }
            let [c1, c2] = self.expand(ia, ib).map(|(d, a, b)| Entry { d, a, b, lazy: Lazy::Tested });
            // Push the farther pair first so the closer one is visited first.
            if c2.d < c1.d {
                stack.push(c1);
                stack.push(c2);
            } else {
                stack.push(c2);
                stack.push(c1);
            }
        }
    }

    /// Best first with a queue of at most `qsize` pairs; a pair that finds the queue full is
    /// searched depth first. With `dive`, every pair popped after the first leaf pair is also
    /// searched depth first (the queue then only orders the pending subtrees).
    fn best_first(&mut self, qsize: usize, dive: bool, stack: &mut Vec<Entry>) {
        let mut queue = BinaryHeap::with_capacity(qsize);
        let mut diving = false;
        queue.push(Pending::new(f64::NEG_INFINITY, 0, 0));
        while let Some(p) = queue.pop() {
            let (d, ia, ib) = (p.d(), p.a, p.b);
            if self.done() || !self.worth_visiting(d) {
                // The queue is ordered: nothing after this is worth visiting either.
                if self.stop_at.is_none() || self.done() {
                    break;
                }
                self.prune(d);
                continue;
            }
            let na = &self.a.nodes()[ia as usize];
            let nb = &self.b.nodes()[ib as usize];
            if na.is_leaf() && nb.is_leaf() {
                self.leaf_pair(na.triangle(), nb.triangle(), true);
                diving = dive;
                continue;
            }
            if diving || queue.len() + 2 > qsize {
                self.depth_first((ia, ib), stack);
                continue;
            }
            for (d, ca, cb) in self.expand(ia, ib) {
                if self.worth_visiting(d) {
                    queue.push(Pending::new(d, ca, cb));
                } else {
                    self.prune(d);
                }
            }
        }
    }
}

/// Whether a depth-first entry's volume test is still to do, and which node keeps its place.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lazy {
    /// `d` is the pair's volume distance.
    Tested,
    /// Untested (`d` is its parent pair's distance); model b's node is the kept one.
    KeptB,
    /// Untested; model a's node is the kept one.
    KeptA,
}

/// A node pair on the depth-first stack.
#[derive(Clone, Copy)]
struct Entry {
    /// A lower bound of the pair's distance (see `lazy`).
    d: f64,
    a: u32,
    b: u32,
    lazy: Lazy,
}

/// A node pair waiting in the best-first queue (a min-heap on its volume distance).
struct Pending {
    /// The volume distance as an integer with the same order (see [`Pending::new`]).
    key: u64,
    a: u32,
    b: u32,
}

impl Pending {
    /// Volume distances are never negative or NaN; the root's −∞ is mapped below everything.
    #[inline(always)]
    fn new(d: f64, a: u32, b: u32) -> Pending {
        let key = if d >= 0.0 { (d + 0.0).to_bits() + 1 } else { 0 };
        Pending { key, a, b }
    }

    #[inline(always)]
    fn d(&self) -> f64 {
        if self.key == 0 { f64::NEG_INFINITY } else { f64::from_bits(self.key - 1) }
    }
}

impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl Eq for Pending {}
impl PartialOrd for Pending {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Pending {
    #[inline(always)]
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key)
    }
}

fn run(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    qsize: usize,
    warm_start: Option<(u32, u32)>,
    stop_at: Option<f64>,
    rel_err: f64,
    abs_err: f64,
) -> DistanceResult {
    let rel = Relative::between(p1, p2);
    // Errors and tolerances are in world units; the search runs in model 1's frame.
    let to_local = 1.0 / p1.scale;
    let mut search = Search {
        a: m1,
        b: m2,
        rel,
        rot_rows: std::array::from_fn(|i| std::array::from_fn(|j| rel.rotation[(i, j)])),
        rot_cols: std::array::from_fn(|j| std::array::from_fn(|i| rel.rotation[(i, j)])),
        // The volumes' corners lie within a few times the models' magnitudes (largest absolute
        // coordinates); the margin (1e-13 relative) covers rounding of a few ulps of that.
        coords: 3.0 * (m1.magnitude() + rel.scale * m2.magnitude()) + amax(&rel.translation),
        kept_a: None,
        kept_b: None,
        cut: f64::INFINITY,
        best: f64::INFINITY,
        best_points: (Vec3::zeros(), Vec3::zeros()),
        best_pair: None,
        bv_tests: 0,
        tri_tests: 0,
        stop_at: stop_at.map(|t| t * to_local),
        rel_err,
        abs_err: abs_err * to_local,
        pruned_bound: f64::INFINITY,
    };
    search.cut = search.compute_cut();
    if stop_at.is_none() {
        // Seed the bound from the warm start (or any pair): not counted as a test.
        let (ta, tb) = warm_start
            .filter(|&(a, b)| (a as usize) < m1.num_triangles() && (b as usize) < m2.num_triangles())
            .unwrap_or((0, 0));
        search.leaf_pair(ta as usize, tb as usize, false);
    }
    // Depth-first stack: two entries a level at most, trees are rarely deeper than 64 levels.
    let mut stack = Vec::with_capacity(128);
    // Tolerance queries, as PQP: the root pair's volume distance first (not counted); beyond
    // the tolerance nothing can be closer.
    let root_apart = search.stop_at.is_some_and(|t| {
        let root = search.b_in_a(&m2.nodes()[0].rss).test_a(&m1.nodes()[0].rss, f64::INFINITY);
        let apart = root > t;
        if apart {
            search.prune(root);
        }
        apart
    });
    if root_apart {
        // Nothing to search.
    } else if qsize > 2 {
        search.best_first(qsize, false, &mut stack);
    } else if stop_at.is_none() {
        search.best_first(DESCENT_QUEUE, true, &mut stack);
    } else {
        search.depth_first((0, 0), &mut stack);
    }
    let mut result = DistanceResult { bv_tests: search.bv_tests, tri_tests: search.tri_tests, ..Default::default() };
    let found = match stop_at {
        None => true,
        Some(t) => search.best_pair.is_some() && search.best <= t * to_local,
    };
    if found {
        let (p, q) = search.best_points;
        result.distance = search.best * p1.scale;
        result.p1 = p;
        // q is in model 1's frame; map back into model 2's.
        result.p2 = rel.rotation.transpose() * (q - rel.translation) / rel.scale;
        result.closest_pair = search.best_pair;
        result.closer = stop_at.is_some();
    } else {
        // Everything was pruned above the tolerance or tested farther than it.
        result.distance = search.pruned_bound.min(search.best) * p1.scale;
        result.p1 = Vec3::repeat(f64::NAN);
        result.p2 = Vec3::repeat(f64::NAN);
    }
    result
}

/// The distance between `m1` placed at `p1` and `m2` at `p2`, within the request's error
/// bounds, with a closest point on each model (each in its own model's frame). `cache` is
/// read as a warm start and updated with the closest pair.
pub fn distance(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    request: &DistanceRequest,
    cache: Option<&mut DistanceCache>,
) -> DistanceResult {
    let warm = cache.as_ref().and_then(|c| c.last_pair);
    let result = run(m1, p1, m2, p2, request.qsize, warm, None, request.rel_err.max(0.0), request.abs_err.max(0.0));
    if let Some(cache) = cache {
        cache.last_pair = result.closest_pair;
    }
    result
}

/// Whether `m1` at `p1` and `m2` at `p2` are at most `tolerance` apart (a negative tolerance
/// counts as 0). Stops at the first triangle pair within the tolerance: when closer,
/// `distance` and the points are that pair's (at most the tolerance, not necessarily the
/// minimum); when not closer, `distance` is a lower bound of the true distance (greater than
/// the tolerance) and the points are NaN.
pub fn tolerance(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    tolerance: f64,
    qsize: usize,
) -> DistanceResult {
    run(m1, p1, m2, p2, qsize, None, Some(tolerance.max(0.0)), 0.0, 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::tri_distance::triangle_distance;
    use crate::test_rng::Rng;

    /// A soup of small triangles around a wavy sheet or a sphere (so that many pairs are close).
    fn model(rng: &mut Rng, n: usize, sphere: bool) -> (Model, Vec<Triangle>) {
        let tris: Vec<Triangle> = (0..n)
            .map(|_| {
                let c = if sphere {
                    let v = rng.vec(-1.0, 1.0);
                    v / v.norm().max(1e-9)
                } else {
                    let (x, y) = (rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
                    Vec3::new(x, y, 0.2 * (3.0 * x).sin() * (2.0 * y).cos())
                };
                [c + rng.vec(-0.15, 0.15), c + rng.vec(-0.15, 0.15), c + rng.vec(-0.15, 0.15)]
            })
            .collect();
        let ids = (0..n as i32).collect();
        (Model::new(tris.clone(), ids).unwrap(), tris)
    }

    fn placement(rng: &mut Rng, scaled: bool) -> Placement {
        Placement {
            rotation: rng.rotation(),
            translation: rng.vec(-1.5, 1.5),
            scale: if scaled { rng.range(0.5, 2.0) } else { 1.0 },
        }
    }

    /// The exact minimum over all pairs, in the world.
    fn brute_force(a: &[Triangle], pa: &Placement, b: &[Triangle], pb: &Placement) -> f64 {
        let wa: Vec<Triangle> = a.iter().map(|t| t.map(|p| pa.apply(&p))).collect();
        let wb: Vec<Triangle> = b.iter().map(|t| t.map(|p| pb.apply(&p))).collect();
        let mut d = f64::INFINITY;
        for x in &wa {
            for y in &wb {
                d = d.min(triangle_distance(x, y).distance);
            }
        }
        d
    }

    /// Distance and tolerance queries against brute force, every search order, warm starts,
    /// error bounds and scales.
    #[test]
    fn queries_agree_with_brute_force() {
        let mut rng = Rng(0x5eed_d157_a4ce_0001);
        let mut separated = 0;
        for case in 0..24 {
            let (ma, ta) = model(&mut rng, 120, case % 2 == 0);
            let (mb, tb) = model(&mut rng, 90, case % 3 == 0);
            let mut cache = DistanceCache::default();
            for _ in 0..4 {
                let pa = placement(&mut rng, case % 4 == 1);
                let mut pb = placement(&mut rng, case % 4 == 3);
                pb.translation += rng.vec(-1.0, 1.0) * 2.0;
                let truth = brute_force(&ta, &pa, &tb, &pb);
                separated += usize::from(truth > 0.0);
                let size = 4.0 * (pa.scale + pb.scale) + pa.translation.amax() + pb.translation.amax();
                let tol = 1e-12 * size;
                for qsize in [2, 3, 16] {
                    let request = DistanceRequest { qsize, ..Default::default() };
                    let r = distance(&ma, &pa, &mb, &pb, &request, Some(&mut cache));
                    assert!((r.distance - truth).abs() <= tol, "case {case} qsize {qsize}: {} vs {truth}", r.distance);
                    let apart = (pa.apply(&r.p1) - pb.apply(&r.p2)).norm();
                    assert!((apart - r.distance).abs() <= tol, "points {apart} vs {}", r.distance);
                    let (ia, ib) = r.closest_pair.unwrap();
                    let pair = triangle_distance(
                        &ta[ma.ids()[ia as usize] as usize].map(|p| pa.apply(&p)),
                        &tb[mb.ids()[ib as usize] as usize].map(|p| pb.apply(&p)),
                    );
                    assert!((pair.distance - truth).abs() <= tol);
                    // Within the requested error, never below the truth.
                    let (rel_err, abs_err) = (0.25, 0.05 * truth);
                    let r = distance(&ma, &pa, &mb, &pb, &DistanceRequest { rel_err, abs_err, qsize }, None);
                    assert!(r.distance >= truth - tol);
                    assert!(r.distance <= truth + abs_err.min(rel_err * truth) + tol);
                    // Tolerance queries on both sides of the distance.
                    for t in [0.0, truth * 0.5, truth * 0.999, truth * 1.001, truth * 2.0, truth + 1.0] {
                        let r = tolerance(&ma, &pa, &mb, &pb, t, qsize);
                        if (t - truth).abs() <= tol {
                            continue;
                        }
                        assert_eq!(r.closer, truth <= t, "case {case} t {t} truth {truth}");
                        if r.closer {
                            assert!(r.distance <= t + tol && r.distance >= truth - tol);
                            let apart = (pa.apply(&r.p1) - pb.apply(&r.p2)).norm();
                            assert!((apart - r.distance).abs() <= tol);
                        } else {
                            assert!(r.distance > t && r.distance <= truth + tol, "{} {t} {truth}", r.distance);
                        }
                    }
                }
            }
        }
        assert!(separated >= 40, "{separated} of 96 poses apart");
    }
}
