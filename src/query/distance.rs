//! Distance and tolerance: how far apart two placed models are, with closest points.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::Relative;
use crate::bv::Rss;
use crate::bv::rss::rss_distance;
use crate::geometry::tri_distance::triangle_distance;
use crate::math::{Placement, Triangle, Vec3};
use crate::model::{Model, Node};

/// What a distance query should do. A zero-filled request asks for the exact distance.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct DistanceRequest {
    /// Accept a result within this fraction of the true distance (≥ 0).
    pub rel_err: f64,
    /// Accept a result within this absolute amount of the true distance (≥ 0).
    pub abs_err: f64,
    /// Search order: 2 or less, depth first; more, best first with a queue of at most this
    /// many node pairs (a full queue continues depth first from the pair at hand).
    pub qsize: usize,
}

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

/// b's volume placed in a's frame, its scale folded in.
#[inline]
fn scaled(rss: &Rss, scale: f64) -> Rss {
    if scale == 1.0 {
        *rss
    } else {
        Rss {
            axes: rss.axes,
            corner: rss.corner * scale,
            lengths: [rss.lengths[0] * scale, rss.lengths[1] * scale],
            radius: rss.radius * scale,
        }
    }
}

/// Size used to decide which node of a pair to split (the RSS's extent).
#[inline]
fn size(node: &Node) -> f64 {
    (node.rss.lengths[0].hypot(node.rss.lengths[1])) + 2.0 * node.rss.radius
}

struct Search<'a> {
    a: &'a Model,
    b: &'a Model,
    rel: Relative,
    /// Rotation with b's scale folded in, for volumes (their corners are scaled by `scaled`).
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
    fn bv_distance(&mut self, ia: u32, ib: u32) -> f64 {
        self.bv_tests += 1;
        let na = &self.a.nodes()[ia as usize];
        let nb = &self.b.nodes()[ib as usize];
        rss_distance(&na.rss, &scaled(&nb.rss, self.rel.scale), &self.rel.rotation, &self.rel.translation)
    }

    fn triangle_in_a(&self, ib: usize) -> Triangle {
        self.b.triangles()[ib].map(|p| self.rel.apply(&p))
    }

    /// Tests a leaf pair and keeps it if closer than the best so far.
    fn leaf_pair(&mut self, ta: usize, tb: usize, counted: bool) {
        if counted {
            self.tri_tests += 1;
        }
        let d = triangle_distance(&self.a.triangles()[ta], &self.triangle_in_a(tb));
        if d.distance < self.best || self.best_pair.is_none() {
            self.best = d.distance;
            self.best_points = (d.p, d.q);
            self.best_pair = Some((ta as u32, tb as u32));
        }
    }

    fn done(&self) -> bool {
        self.stop_at.is_some_and(|t| self.best_pair.is_some() && self.best <= t)
    }

    /// Whether a node pair at volume distance `d` may still hold a closer pair.
    #[inline]
    fn worth_visiting(&self, d: f64) -> bool {
        match self.stop_at {
            Some(t) => d <= t,
            None => d < self.best - self.abs_err || d * (1.0 + self.rel_err) < self.best,
        }
    }

    /// The two child pairs of an inner pair, split on the larger node.
    fn children(&self, ia: u32, ib: u32) -> [(u32, u32); 2] {
        let na = &self.a.nodes()[ia as usize];
        let nb = &self.b.nodes()[ib as usize];
        let split_a = !na.is_leaf() && (nb.is_leaf() || size(na) > size(nb) * self.rel.scale);
        if split_a {
            let c = na.first_child() as u32;
            [(c, ib), (c + 1, ib)]
        } else {
            let c = nb.first_child() as u32;
            [(ia, c), (ia, c + 1)]
        }
    }

    /// Depth first from a pair, closer child pair first.
    fn depth_first(&mut self, start: (u32, u32), stack: &mut Vec<(f64, u32, u32)>) {
        let base = stack.len();
        stack.push((f64::NEG_INFINITY, start.0, start.1));
        while stack.len() > base {
            let (d, ia, ib) = stack.pop().expect("non-empty");
            if self.done() {
                stack.truncate(base);
                return;
            }
            if !self.worth_visiting(d) {
                self.pruned_bound = self.pruned_bound.min(d);
                continue;
            }
            let na = &self.a.nodes()[ia as usize];
            let nb = &self.b.nodes()[ib as usize];
            if na.is_leaf() && nb.is_leaf() {
                self.leaf_pair(na.triangle(), nb.triangle(), true);
                continue;
            }
            let [c1, c2] = self.children(ia, ib);
            let d1 = self.bv_distance(c1.0, c1.1);
            let d2 = self.bv_distance(c2.0, c2.1);
            // Push the farther pair first so the closer one is visited first.
            if d2 < d1 {
                stack.push((d1, c1.0, c1.1));
                stack.push((d2, c2.0, c2.1));
            } else {
                stack.push((d2, c2.0, c2.1));
                stack.push((d1, c1.0, c1.1));
            }
        }
    }

    /// Best first with a bounded queue.
    fn best_first(&mut self, qsize: usize, stack: &mut Vec<(f64, u32, u32)>) {
        let mut queue = BinaryHeap::with_capacity(qsize);
        queue.push(Pending { d: f64::NEG_INFINITY, a: 0, b: 0 });
        while let Some(Pending { d, a: ia, b: ib }) = queue.pop() {
            if self.done() || !self.worth_visiting(d) {
                // The queue is ordered: nothing after this is worth visiting either.
                if self.stop_at.is_none() || self.done() {
                    break;
                }
                self.pruned_bound = self.pruned_bound.min(d);
                continue;
            }
            let na = &self.a.nodes()[ia as usize];
            let nb = &self.b.nodes()[ib as usize];
            if na.is_leaf() && nb.is_leaf() {
                self.leaf_pair(na.triangle(), nb.triangle(), true);
                continue;
            }
            if queue.len() + 2 > qsize {
                self.depth_first((ia, ib), stack);
                continue;
            }
            for (ca, cb) in self.children(ia, ib) {
                let d = self.bv_distance(ca, cb);
                if self.worth_visiting(d) {
                    queue.push(Pending { d, a: ca, b: cb });
                } else {
                    self.pruned_bound = self.pruned_bound.min(d);
                }
            }
        }
    }
}

/// A node pair waiting in the best-first queue (a min-heap on `d`).
struct Pending {
    d: f64,
    a: u32,
    b: u32,
}

impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        self.d == other.d
    }
}
impl Eq for Pending {}
impl PartialOrd for Pending {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Pending {
    fn cmp(&self, other: &Self) -> Ordering {
        other.d.total_cmp(&self.d)
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
    if stop_at.is_none() {
        // Seed the bound from the warm start (or any pair): not counted as a test.
        let (ta, tb) = warm_start
            .filter(|&(a, b)| (a as usize) < m1.num_triangles() && (b as usize) < m2.num_triangles())
            .unwrap_or((0, 0));
        search.leaf_pair(ta as usize, tb as usize, false);
    }
    let mut stack = Vec::new();
    if qsize <= 2 {
        search.depth_first((0, 0), &mut stack);
    } else {
        search.best_first(qsize, &mut stack);
    }
    let mut result = DistanceResult {
        bv_tests: search.bv_tests,
        tri_tests: search.tri_tests,
        ..Default::default()
    };
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
    let result = run(
        m1,
        p1,
        m2,
        p2,
        request.qsize,
        warm,
        None,
        request.rel_err.max(0.0),
        request.abs_err.max(0.0),
    );
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
