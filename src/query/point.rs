//! Closest points: the point of a model's surface nearest to a query point (unsigned
//! distance), for one point or a batch.
//!
//! The search visits the packed nodes by a lower bound on their distance, only while it may
//! still beat the best triangle found (and is within the caller's `max_distance`): best
//! first for a single point (then it visits only the nodes whose bound is below the answer),
//! depth first, nearer child first, in a batch (see below). The bound of a node is the largest of three, each a
//! true lower bound of the distance to every triangle below it:
//! * its box: the stored axes `A` (rows) are within 9.2e-8 of orthonormal, so `‖A‖₂ ≤ 1 +
//!   1e-7` and `|x − q| ≥ |A(x − q)| / ‖A‖₂ ≥ dist(A(q − c), box of half-extents h) / (1 + 1e-7)`
//!   for every point `x` of the (convex) slab intersection;
//! * its swept-sphere rectangle, likewise in the stored axes (every vertex is within `h₀` of
//!   the rectangle as measured there, and so is every point of its triangles, by convexity);
//! * its bounding sphere, whose precision is relative to the node's size rather than to the
//!   point's distance (the box bounds lose 1e-7 of the distance: far points need the sphere).
//!
//! A rounding allowance relative to the coordinates is taken off each bound. Nodes whose
//! bound is 0 are always visited until a triangle at distance exactly 0 is found, so that a
//! point on the surface is always reported as on it; others only when their bound is below
//! the best distance less that allowance, which bounds the work for far points (whose
//! triangles are all equally far to the precision of the coordinates).
//!
//! A batch visits its points along a Morton curve over their bounding box and tests each
//! point's predecessor's triangle first: consecutive searches then read nearly the same
//! nodes (the tree of a large model does not fit the caches) and start with a close bound,
//! with which depth first (a stack) outruns best first (a heap) although it tests about
//! 10 % more nodes.

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::bv::obb::{NodePair, P32};
use crate::geometry::tri_distance::point_triangle_distance;
use crate::lanes::F2;
use crate::math::{RANGE_LIMIT, Vec3};
use crate::model::{Model, slot_of};

/// The closest point of a model's surface to a query point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestPoint {
    /// The distance from the query point to the surface (model units): the least
    /// point–triangle distance but for rounding, within about `32 ε` of the coordinates'
    /// magnitude (the query point's and the model's bounding box's, `ε` = 2^-52). Exactly 0
    /// iff `on_surface`.
    pub distance: f64,
    /// The closest point, on the surface, in the model's frame (the query point itself when
    /// it lies on the surface).
    pub point: Vec3,
    /// The triangle it lies on (leaf order, as [`Model::triangles`]).
    pub triangle: u32,
    /// That triangle's caller id.
    pub id: i32,
    /// True iff the query point lies exactly on a (closed) triangle of the model, decided by
    /// exact predicates; a zero-area triangle counts as its segment or point.
    pub on_surface: bool,
    /// Bounding-volume tests of this query (one per node bound computed).
    pub bv_tests: u64,
    /// Point–triangle tests of this query.
    pub tri_tests: u64,
}

/// Work done by a batch of closest-point queries, found or not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PointStats {
    /// Box tests of the batch.
    pub bv_tests: u64,
    /// Point–triangle tests of the batch.
    pub tri_tests: u64,
}

/// Why a closest-point query was refused; nothing was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointError {
    /// Query point `index` (0 for a single point) has a NaN or infinite coordinate.
    NonFinite {
        /// Index of the refused point.
        index: usize,
    },
    /// Query point `index` has a coordinate beyond the supported range ([`RANGE_LIMIT`]).
    OutOfRange {
        /// Index of the refused point.
        index: usize,
    },
    /// `max_distance` is NaN or negative.
    InvalidMaxDistance,
    /// The output slice's length differs from the points'.
    LengthMismatch,
}

impl std::fmt::Display for PointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PointError::NonFinite { index } => write!(f, "query point {index} has a NaN or infinite coordinate"),
            PointError::OutOfRange { index } => {
                write!(f, "query point {index} has a coordinate beyond 2^1000 (about 1.07e301), the supported range")
            }
            PointError::InvalidMaxDistance => f.write_str("max_distance must be non-negative (infinity for no limit)"),
            PointError::LengthMismatch => f.write_str("the output slice must have one entry per query point"),
        }
    }
}

impl std::error::Error for PointError {}

/// The closest point of `model`'s surface to `point` (model frame).
///
/// Refused when a coordinate is NaN, infinite or beyond [`RANGE_LIMIT`].
pub fn closest_point(model: &Model, point: &Vec3) -> Result<ClosestPoint, PointError> {
    check_point(point, 0)?;
    let found = with_scratch(|scratch| PointSearch::new(model, point, f64::INFINITY).run(scratch, false));
    // (Unlimited: some triangle is always found.)
    Ok(found.expect("an unlimited search finds a triangle"))
}

/// [`closest_point`] when the surface is at most `max_distance` away (`None` otherwise):
/// nodes farther than that are not searched, so a narrow band (a signed-distance field near
/// the surface) costs little. `f64::INFINITY` means no limit.
///
/// Whether the distance is within `max_distance` is decided on the computed distance (which
/// errs by a few rounding units of the coordinates).
pub fn closest_point_within(
    model: &Model,
    point: &Vec3,
    max_distance: f64,
) -> Result<Option<ClosestPoint>, PointError> {
    check_max_distance(max_distance)?;
    check_point(point, 0)?;
    Ok(with_scratch(|scratch| PointSearch::new(model, point, max_distance).run(scratch, false)))
}

/// [`closest_point_within`] for each of `points`, into `out` (one entry per point); returns
/// the work done. Everything is checked before anything is computed: a refused batch leaves
/// `out` unchanged. The points are searched along a Morton curve, each depth first from its
/// predecessor's triangle (see the module notes); nothing is allocated once the thread's
/// scratch (search stack and order) has grown.
pub fn closest_points(
    model: &Model,
    points: &[Vec3],
    max_distance: f64,
    out: &mut [Option<ClosestPoint>],
) -> Result<PointStats, PointError> {
    check_max_distance(max_distance)?;
    if out.len() != points.len() {
        return Err(PointError::LengthMismatch);
    }
    for (index, p) in points.iter().enumerate() {
        check_point(p, index)?;
    }
    Ok(with_scratch(|scratch| {
        let mut order = std::mem::take(&mut scratch.order);
        let mut stats = PointStats::default();
        // (In chunks: the order's indices are 32 bits, and its memory stays bounded.)
        for (points, out) in points.chunks(BATCH_CHUNK).zip(out.chunks_mut(BATCH_CHUNK)) {
            spatial_order(points, &mut order);
            let mut previous = None;
            for &key in order.iter() {
                let i = key as u32 as usize;
                let mut search = PointSearch::new(model, &points[i], max_distance);
                // The previous point's triangle (a neighbour along the curve) bounds this
                // one's distance from the start.
                if let Some(t) = previous {
                    search.leaf(t);
                }
                // Without a predecessor's bound, depth first would wander: the first point of a
                // batch (a lone point above all) searches best first, as a single query does.
                out[i] = search.run(scratch, previous.is_some());
                previous = search.best.map(|(_, _, t)| t);
                stats.bv_tests += search.bv_tests;
                stats.tri_tests += search.tri_tests;
            }
        }
        scratch.order = order;
        stats
    }))
}

/// The most points a batch orders at once.
const BATCH_CHUNK: usize = 1 << 20;

/// The indices of `points` (in the low 32 bits of each entry) in the order of a Morton curve
/// over their bounding box (10 bits per axis), so that consecutive queries visit nearly the
/// same nodes (which stay in cache) and the previous answer is a close bound.
fn spatial_order(points: &[Vec3], order: &mut Vec<u64>) {
    order.clear();
    let lo = points.iter().fold(Vec3::repeat(f64::INFINITY), |a, p| a.inf(p));
    let hi = points.iter().fold(Vec3::repeat(f64::NEG_INFINITY), |a, p| a.sup(p));
    // (Halves first: the extent of points up to 2^1000 apart still fits a double.)
    let extent = hi * 0.5 - lo * 0.5;
    let cell = |v: f64, lo: f64, half: f64| -> u64 {
        if half > 0.0 { ((v * 0.5 - lo * 0.5) / half * 511.99) as u64 } else { 0 }
    };
    // Every other bit of a 10-bit number, spread to every third bit.
    let spread = |x: u64| {
        let mut x = x & 0x3ff;
        x = (x | x << 16) & 0x0300_00ff;
        x = (x | x << 8) & 0x0300_f00f;
        x = (x | x << 4) & 0x030c_30c3;
        (x | x << 2) & 0x0924_9249
    };
    order.extend(points.iter().enumerate().map(|(i, p)| {
        let code = spread(cell(p.x, lo.x, extent.x))
            | spread(cell(p.y, lo.y, extent.y)) << 1
            | spread(cell(p.z, lo.z, extent.z)) << 2;
        code << 32 | i as u64
    }));
    order.sort_unstable();
}

fn check_point(p: &Vec3, index: usize) -> Result<(), PointError> {
    if !p.iter().all(|v| v.is_finite()) {
        Err(PointError::NonFinite { index })
    } else if p.amax() > RANGE_LIMIT {
        Err(PointError::OutOfRange { index })
    } else {
        Ok(())
    }
}

fn check_max_distance(max_distance: f64) -> Result<(), PointError> {
    if max_distance >= 0.0 { Ok(()) } else { Err(PointError::InvalidMaxDistance) }
}

/// Nodes waiting to be searched, least bound first: `(bound's bits, node)`.
type Queue = BinaryHeap<Reverse<(u64, u32)>>;

/// A thread's search stack, queue and batch order, kept so that queries allocate nothing once
/// they have grown.
#[derive(Default)]
struct Scratch {
    stack: Vec<(f64, u32)>,
    queue: Queue,
    order: Vec<u64>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut Scratch::default()),
    })
}

/// The stored axes' stretch: `‖A‖₂ ≤ 1 + 9.2e-8` (see the module notes), so dividing a
/// distance measured along them by `1 + 1e-7` (multiplying by `1 − STRETCH`) bounds the true
/// one from below.
const STRETCH: f64 = 1e-7;

/// Beyond this many packed units (2^400) from the model's centre a query point is more than
/// 2^399 times the model's size away: every triangle is equally far to the precision of the
/// coordinates, and the bounds' squares would approach overflow. The first triangle answers.
const FAR: f64 = 2.5822498780869086e120;

/// One closest-point search.
struct PointSearch<'a> {
    model: &'a Model,
    slots: &'a [NodePair],
    /// The query point, model frame.
    p: Vec3,
    /// The query point in packed coordinates, one copy per lane.
    q: [F2; 3],
    /// Rounding allowance of a bound (packed units): taken off every bound, and the least
    /// improvement a node must promise to be visited.
    margin: f64,
    /// Packed units per model unit (the inverse of the frame's power-of-two unit).
    per_unit: f64,
    max_distance: f64,
    /// Nodes whose bound exceeds this are not visited (`max_distance` in packed units).
    limit: f64,
    /// Nodes whose bound is positive and at least this are not visited (packed units).
    cut: f64,
    best: Option<(f64, Vec3, usize)>,
    bv_tests: u64,
    tri_tests: u64,
}

impl<'a> PointSearch<'a> {
    fn new(model: &'a Model, p: &Vec3, max_distance: f64) -> PointSearch<'a> {
        let frame = model.packed_frame();
        let per_unit = 1.0 / frame.unit;
        let q = (p - frame.origin) * per_unit;
        // The rounding of q itself, of the differences and projections of the bounds
        // (packed node coordinates are within a few units of 0).
        let margin = 32.0 * f64::EPSILON * ((p.amax() + frame.origin.amax()) * per_unit + q.amax() + 4.0);
        PointSearch {
            model,
            slots: model.collide_slots(),
            p: *p,
            q: [F2::splat(q.x), F2::splat(q.y), F2::splat(q.z)],
            margin,
            per_unit,
            max_distance,
            limit: max_distance * per_unit,
            cut: f64::INFINITY,
            best: None,
            bv_tests: 0,
            tri_tests: 0,
        }
    }

    /// The search, best first for a single query, depth first in a batch (`in_batch`, the
    /// predecessor's triangle tested).
    fn run(&mut self, scratch: &mut Scratch, in_batch: bool) -> Option<ClosestPoint> {
        let root = &self.slots[0];
        let q_far = self.q.iter().map(|v| v.to_array()[0].abs()).fold(0.0, f64::max);
        if root.is_leaf(0) {
            self.leaf(root.triangle(0));
        } else if q_far > FAR {
            self.leaf(0);
        } else {
            let [lb, _] = self.bounds(root).to_array();
            self.bv_tests += 1;
            if in_batch {
                scratch.stack.clear();
                scratch.stack.push((lb, 0));
                self.depth_first(&mut scratch.stack);
            } else {
                scratch.queue.clear();
                scratch.queue.push(Reverse((lb.to_bits(), 0)));
                self.best_first(&mut scratch.queue);
            }
        }
        let (distance, point, t) = self.best?;
        if distance > self.max_distance {
            return None;
        }
        Some(ClosestPoint {
            distance,
            point,
            triangle: t as u32,
            id: self.model.ids()[t],
            on_surface: distance == 0.0,
            bv_tests: self.bv_tests,
            tri_tests: self.tri_tests,
        })
    }

    /// Whether a node whose bound is `lb` may hold a closer triangle (or the query point).
    #[inline(always)]
    fn worth_visiting(&self, lb: f64) -> bool {
        lb <= self.limit && (lb < self.cut || lb == 0.0)
    }

    #[inline(always)]
    fn on_surface(&self) -> bool {
        matches!(self.best, Some((d, _, _)) if d == 0.0)
    }

    /// Best first: the node of least bound next (the bounds are non-negative, so their
    /// bits order as they do). Visits only the nodes whose bound is below the answer (and
    /// the leaves that give it): about 30 % fewer than depth first from scratch.
    fn best_first(&mut self, queue: &mut Queue) {
        while let Some(Reverse((bits, node))) = queue.pop() {
            let lb = f64::from_bits(bits);
            if self.on_surface() || !self.worth_visiting(lb) {
                // Nothing left is closer than 0, or everything left is at least this far.
                queue.clear();
                return;
            }
            let (slot, lane) = slot_of(node as usize);
            let n = &self.slots[slot];
            if n.is_leaf(lane) {
                self.leaf(n.triangle(lane));
                continue;
            }
            let c = n.first_child(lane);
            let children = &self.slots[slot_of(c as usize).0];
            let bounds = self.bounds(children).to_array();
            self.bv_tests += 2;
            for (k, lb) in bounds.into_iter().enumerate() {
                if self.worth_visiting(lb) {
                    queue.push(Reverse((lb.to_bits(), c + k as u32)));
                }
            }
        }
    }

    /// Depth first, nearer child first: in a batch, where the predecessor's triangle has
    /// set a close bound and the path is mostly in cache, this beats [`Self::best_first`]'s
    /// queue although it tests about 10 % more nodes.
    fn depth_first(&mut self, stack: &mut Vec<(f64, u32)>) {
        while let Some((lb, node)) = stack.pop() {
            if self.on_surface() {
                // Nothing is closer than 0.
                stack.clear();
                return;
            }
            if !self.worth_visiting(lb) {
                continue;
            }
            let (slot, lane) = slot_of(node as usize);
            let n = &self.slots[slot];
            if n.is_leaf(lane) {
                self.leaf(n.triangle(lane));
                continue;
            }
            let c = n.first_child(lane);
            let children = &self.slots[slot_of(c as usize).0];
            let [b0, b1] = self.bounds(children).to_array();
            self.bv_tests += 2;
            // The farther child is pushed first, so the nearer is searched first.
            let (near, far) = if b1 < b0 { ((b1, c + 1), (b0, c)) } else { ((b0, c), (b1, c + 1)) };
            if self.worth_visiting(far.0) {
                stack.push(far);
            }
            if self.worth_visiting(near.0) {
                stack.push(near);
            }
        }
    }

    fn leaf(&mut self, t: usize) {
        self.tri_tests += 1;
        let r = point_triangle_distance(&self.p, &self.model.triangles()[t]);
        if self.best.is_none_or(|(d, _, _)| r.distance < d) {
            self.best = Some((r.distance, r.point, t));
            self.cut = r.distance * self.per_unit - self.margin;
        }
    }

    /// Lower bounds on the distances from the query point to the two nodes of `slot` (packed
    /// units, see the module notes), clamped at 0.
    #[inline(always)]
    fn bounds(&self, slot: &NodePair) -> F2 {
        let ld = P32::load;
        let zero = F2::splat(0.0);
        let v: [F2; 3] = std::array::from_fn(|k| self.q[k] - ld(&slot.frame[k][3]));
        let along =
            |i: usize| ld(&slot.frame[0][i]) * v[0] + ld(&slot.frame[1][i]) * v[1] + ld(&slot.frame[2][i]) * v[2];
        let y = [along(0), along(1), along(2)];
        let h: [F2; 3] = std::array::from_fn(|i| ld(&slot.half[i]));
        let outside = |u: F2, half: F2| (u.abs() - half).max(zero);
        let g: [F2; 3] = std::array::from_fn(|i| outside(y[i], h[i]));
        let in_box = (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]).sqrt();
        let r = [
            outside(y[1] - ld(&slot.rect[0]), ld(&slot.rect[2])),
            outside(y[2] - ld(&slot.rect[1]), ld(&slot.rect[3])),
        ];
        let to_rect = (y[0] * y[0] + r[0] * r[0] + r[1] * r[1]).sqrt() - h[0];
        let along_axes = in_box.max(to_rect) * F2::splat(1.0 - STRETCH);
        let w: [F2; 3] = std::array::from_fn(|k| self.q[k] - ld(&slot.sphere[k]));
        let ball = (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]).sqrt() - ld(&slot.sphere[3]);
        (along_axes.max(ball) - F2::splat(self.margin)).max(zero)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Triangle;
    use crate::model::slot_of;
    use crate::test_rng::{Rng, budget};

    fn build(tris: &[Triangle]) -> Model {
        Model::new(tris.to_vec(), (0..tris.len() as i32).map(|i| 1000 + i).collect()).unwrap()
    }

    /// The nearest triangle by testing them all: (distance, leaf index).
    fn brute_force(m: &Model, p: &Vec3) -> (f64, usize) {
        m.triangles()
            .iter()
            .enumerate()
            .map(|(i, t)| (point_triangle_distance(p, t).distance, i))
            .fold((f64::INFINITY, 0), |a, b| if b.0 < a.0 { b } else { a })
    }

    /// Checks one query against brute force: the distance (within `tol`), the point on the
    /// reported triangle at that distance, the id, `on_surface` exactly, the work bounded by
    /// the tree; and `closest_point_within` on both sides of the distance.
    fn check(m: &Model, p: &Vec3, tol: f64, what: &str) -> ClosestPoint {
        let (truth, _) = brute_force(m, p);
        let r = closest_point(m, p).unwrap();
        assert!((r.distance - truth).abs() <= tol, "{what}: {} vs {truth} at {p:?}", r.distance);
        assert_eq!(r.on_surface, truth == 0.0, "{what}: on the surface at {p:?}");
        assert_eq!(r.on_surface, r.distance == 0.0);
        let t = &m.triangles()[r.triangle as usize];
        let own = point_triangle_distance(p, t);
        assert_eq!((own.distance, own.point), (r.distance, r.point), "{what}");
        assert_eq!(r.id, m.ids()[r.triangle as usize]);
        assert!(r.bv_tests <= 2 * m.num_nodes() as u64 && r.tri_tests <= m.num_triangles() as u64, "{what}");
        // (Subnormal distances may have no representable 0.1 % below them.)
        if truth > 2.0 * tol && truth * 0.999 - tol < truth {
            let below = closest_point_within(m, p, truth * 0.999 - tol).unwrap();
            assert!(below.is_none(), "{what}: found {below:?} below the distance {truth} at {p:?}");
        }
        let above = closest_point_within(m, p, truth * 1.001 + tol).unwrap().expect("within");
        assert!((above.distance - truth).abs() <= tol);
        r
    }

    /// Random soups at scales 1e±100 and offsets up to 1e100 times their size; query points
    /// in and around them, on their vertices, just off them, and far away.
    #[test]
    fn agrees_with_brute_force_on_random_soups() {
        let mut rng = Rng(0x9017_5ea7_c400_0001);
        let mut on = 0;
        for case in 0..budget(120, 3000) {
            let size = 10f64.powi(rng.below(201) as i32 - 100);
            let offset = rng.dir() * size * 10f64.powi(rng.below(8) as i32 * (case % 3) as i32 * 5);
            let n = [1, 2, 7, 60, 200][case % 5];
            let tris = rng.soup(n, case % 3, offset, size);
            let m = build(&tris);
            let tol = 1e-13 * (offset.amax() + 4.0 * size);
            let mut points = Vec::new();
            for k in 0..30 {
                let p = match k % 6 {
                    0 | 1 => offset + rng.vec(-1.5, 1.5) * size,
                    2 => tris[rng.below(n as u64) as usize][rng.below(3) as usize],
                    3 => {
                        // A vertex moved by one ulp in one coordinate.
                        let mut v = tris[rng.below(n as u64) as usize][rng.below(3) as usize];
                        let i = rng.below(3) as usize;
                        v[i] = if v[i] == 0.0 { 5e-324 } else { f64::from_bits(v[i].to_bits() + 1) };
                        v
                    }
                    4 => offset + rng.dir() * size * 10f64.powi(rng.below(150) as i32),
                    _ => offset + rng.vec(-1.0, 1.0) * size * 1e-3,
                };
                if p.amax() > RANGE_LIMIT {
                    continue;
                }
                let far = (p - offset).amax();
                let r = check(&m, &p, tol + 1e-13 * far, &format!("case {case} point {k}"));
                on += usize::from(r.on_surface);
                points.push(p);
            }
            // The batch (reordered, warm-started) agrees with brute force too.
            let mut out = vec![None; points.len()];
            closest_points(&m, &points, f64::INFINITY, &mut out).unwrap();
            for (p, r) in points.iter().zip(&out) {
                let (truth, _) = brute_force(&m, p);
                let r = r.expect("unlimited");
                let tol = tol + 1e-13 * (p - offset).amax();
                assert!((r.distance - truth).abs() <= tol, "case {case} batch: {} vs {truth}", r.distance);
                assert_eq!(r.on_surface, truth == 0.0, "case {case} batch: on the surface at {p:?}");
                let own = point_triangle_distance(p, &m.triangles()[r.triangle as usize]);
                assert_eq!((own.distance, own.point), (r.distance, r.point));
            }
        }
        assert!(on >= 500, "{on} points on the surface");
    }

    /// Points exactly on edges and faces of a lattice mesh (a closed box of 2 × 2 squares per
    /// face, slanted so that the planes are not axis-aligned), scaled by powers of two and
    /// moved far from the origin: distance exactly 0; one lattice step off: not on it.
    #[test]
    fn points_on_edges_and_faces_are_on_the_surface() {
        let mut rng = Rng(0x9017_5ea7_c400_0002);
        for case in 0..24 {
            let s = [-1000, -200, -30, 0, 30, 200, 900][case % 7];
            let shift = if case % 2 == 0 { 0.0 } else { 2f64.powi(s + 30) };
            // Integer lattice points of a sheared box, placed (exact: small integers).
            let place = move |x: [i64; 3]| {
                let y = [x[0] + x[2], x[1] + 2 * x[0], x[2] - x[1]];
                Vec3::from(y.map(|v| v as f64 / 64.0 * 2f64.powi(s) + shift))
            };
            let mut tris = Vec::new();
            let corner = |a: usize, u: i64, b: usize, v: i64, c: usize, w: i64| {
                let mut x = [0i64; 3];
                (x[a], x[b], x[c]) = (u, v, w);
                x
            };
            for axis in 0..3 {
                let (b, c) = ((axis + 1) % 3, (axis + 2) % 3);
                for side in [0i64, 256] {
                    for i in 0..2i64 {
                        for j in 0..2i64 {
                            let q = |di: i64, dj: i64| corner(axis, side, b, (i + di) * 128, c, (j + dj) * 128);
                            tris.push([q(0, 0), q(1, 0), q(1, 1)]);
                            tris.push([q(0, 0), q(1, 1), q(0, 1)]);
                        }
                    }
                }
            }
            let m = build(&tris.iter().map(|t| t.map(place)).collect::<Vec<_>>());
            for _ in 0..40 {
                // A dyadic point of a random triangle's closed face.
                let t = tris[rng.below(tris.len() as u64) as usize];
                let w0 = rng.below(65) as i64;
                let w1 = rng.below(65 - w0 as u64) as i64;
                let w = [w0, w1, 64 - w0 - w1];
                let x: [i64; 3] = std::array::from_fn(|k| (w[0] * t[0][k] + w[1] * t[1][k] + w[2] * t[2][k]) / 64);
                let exact = (0..3).all(|k| (w[0] * t[0][k] + w[1] * t[1][k] + w[2] * t[2][k]) % 64 == 0);
                if !exact {
                    continue;
                }
                let r = closest_point(&m, &place(x)).unwrap();
                assert!(r.on_surface && r.distance == 0.0 && r.point == place(x), "case {case}");
                // Off by one lattice step inward or outward along the face's axis: off.
                let axis = (0..3).find(|&k| t.iter().all(|v| v[k] == t[0][k])).unwrap();
                let mut y = x;
                y[axis] += if x[axis] == 0 { -1 } else { 1 };
                let r = check(&m, &place(y), 1e-13 * (shift + 2f64.powi(s + 4)), "off");
                assert!(!r.on_surface && r.distance > 0.0);
            }
        }
    }

    /// The bundled meshes: random points in their bounding box enlarged by 10 %, and points
    /// near the surface, against brute force.
    #[test]
    fn agrees_with_brute_force_on_the_bundled_meshes() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("meshes");
        let mut rng = Rng(0x9017_5ea7_c400_0003);
        for (name, points) in [("bunny.obj", 40), ("teapot.obj", 40), ("dragon_100k.obj", 12), ("fandisk.obj", 40)] {
            let tris = crate::io::load_obj(dir.join(name)).unwrap().triangles();
            let m = build(&tris);
            let lo = tris.iter().flatten().fold(Vec3::repeat(f64::INFINITY), |a, p| a.inf(p));
            let hi = tris.iter().flatten().fold(Vec3::repeat(f64::NEG_INFINITY), |a, p| a.sup(p));
            let tol = 1e-13 * (lo.amax() + hi.amax());
            for k in 0..points {
                let p = if k % 2 == 0 {
                    let u = Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 1.2 - Vec3::repeat(0.1);
                    lo + (hi - lo).component_mul(&u)
                } else {
                    let t = tris[rng.below(tris.len() as u64) as usize];
                    t[0] + rng.vec(-1.0, 1.0) * (hi - lo).amax() * 1e-3
                };
                check(&m, &p, tol, name);
            }
        }
    }

    /// Every node's bound is at most the distance to the triangles below it (brute force),
    /// for points near, inside and far from soups of every kind, size and offset; and most
    /// bounds are tight (within half the distance).
    #[test]
    fn node_bounds_never_exceed_the_distance() {
        let mut rng = Rng(0x9017_5ea7_c400_0005);
        let (mut checked, mut tight) = (0u64, 0u64);
        for case in 0..budget(40, 2000) {
            let size = 10f64.powi(rng.below(201) as i32 - 100);
            let offset = rng.dir() * size * 10f64.powi(rng.below(6) as i32 * (case % 2) as i32 * 10);
            let tris = rng.soup(40, case % 3, offset, size);
            let m = build(&tris);
            let below = |i: usize| -> Vec<usize> {
                let mut out = Vec::new();
                let mut stack = vec![i];
                while let Some(k) = stack.pop() {
                    let (slot, lane) = slot_of(k);
                    let n = &m.collide_slots()[slot];
                    if n.is_leaf(lane) {
                        out.push(n.triangle(lane));
                    } else {
                        stack.extend([n.first_child(lane) as usize, n.first_child(lane) as usize + 1]);
                    }
                }
                out
            };
            for k in 0..10 {
                let p = offset + rng.dir() * size * 10f64.powi(rng.below(12) as i32 - 4) * (k % 5) as f64;
                let search = PointSearch::new(&m, &p, f64::INFINITY);
                let unit = m.packed_frame().unit;
                for node in 0..m.num_nodes() {
                    let (slot, lane) = slot_of(node);
                    let lb = search.bounds(&m.collide_slots()[slot]).to_array()[lane] * unit;
                    let truth = below(node)
                        .iter()
                        .map(|&t| point_triangle_distance(&p, &m.triangles()[t]).distance)
                        .fold(f64::INFINITY, f64::min);
                    let slack = 4.0 * f64::EPSILON * (p.amax() + offset.amax() + size);
                    assert!(lb <= truth + slack, "case {case}: node {node} bound {lb} > {truth}");
                    checked += 1;
                    tight += u64::from(lb >= 0.5 * truth);
                }
            }
        }
        assert!(checked > 10_000 && tight > checked / 3, "{checked} bounds, {tight} tight");
    }

    #[test]
    fn batch_matches_single_queries() {
        let mut rng = Rng(0x9017_5ea7_c400_0004);
        let tris = rng.soup(300, 0, Vec3::zeros(), 1.0);
        let m = build(&tris);
        let mut points: Vec<Vec3> = (0..200).map(|_| rng.vec(-2.0, 2.0)).collect();
        // Some on the surface, some repeated, one far away.
        points.extend(tris[..20].iter().map(|t| t[1]));
        points.extend_from_within(..10);
        points.push(Vec3::new(1e200, 0.0, 0.0));
        let mut out = vec![None; points.len()];
        let stats = closest_points(&m, &points, 0.3, &mut out).unwrap();
        let (mut bv, mut tri) = (0, 0);
        for (p, r) in points.iter().zip(&out) {
            // The same answers as single queries (but for ties: the batch starts each search
            // from another point's triangle).
            let single = closest_point_within(&m, p, 0.3).unwrap();
            assert_eq!(r.is_some(), single.is_some());
            if let (Some(r), Some(single)) = (r, single) {
                assert!((r.distance - single.distance).abs() <= 1e-14 && r.on_surface == single.on_surface);
                let own = point_triangle_distance(p, &m.triangles()[r.triangle as usize]);
                assert_eq!((own.distance, own.point), (r.distance, r.point));
            }
            let full = closest_point(&m, p).unwrap();
            assert_eq!(r.is_some(), full.distance <= 0.3);
            if let Some(r) = r {
                (bv, tri) = (bv + r.bv_tests, tri + r.tri_tests);
            }
        }
        assert!(stats.bv_tests >= bv && stats.tri_tests >= tri && out.iter().any(|r| r.is_none()));
    }

    /// The ends of the range: tiny models seen from 1e301 away, huge ones from the origin,
    /// subnormal coordinates.
    #[test]
    fn extreme_points_and_models() {
        let mut rng = Rng(0x9017_5ea7_c400_0006);
        for (size, offset) in [(1e-300, 0.0), (1e-320, 0.0), (1e280, 1e300), (1e300, -5e300), (1.0, 1e300)] {
            let tris = rng.soup(50, 0, Vec3::new(offset, 0.0, -offset), size);
            let m = build(&tris);
            for p in [
                Vec3::zeros(),
                Vec3::new(1e301, -1e301, 1e-300),
                Vec3::repeat(-1.0e301),
                tris[7][1],
                Vec3::repeat(5e-324),
            ] {
                let (truth, _) = brute_force(&m, &p);
                let r = check(&m, &p, 1e-14 * (p.amax() + offset.abs() + size), "extreme");
                assert!(r.distance.is_finite() && (r.distance == 0.0) == (truth == 0.0));
            }
        }
    }

    #[test]
    fn refuses_bad_input() {
        let m = build(&[[Vec3::zeros(), Vec3::x(), Vec3::y()]]);
        let nan = Vec3::new(0.0, f64::NAN, 0.0);
        assert_eq!(closest_point(&m, &nan), Err(PointError::NonFinite { index: 0 }));
        assert_eq!(closest_point(&m, &Vec3::new(f64::INFINITY, 0.0, 0.0)), Err(PointError::NonFinite { index: 0 }));
        assert_eq!(closest_point(&m, &Vec3::new(0.0, 0.0, -1.1e301)), Err(PointError::OutOfRange { index: 0 }));
        assert!(closest_point(&m, &Vec3::new(0.0, 0.0, -1.0e301)).is_ok());
        for bad in [-1.0, f64::NAN, f64::NEG_INFINITY] {
            assert_eq!(closest_point_within(&m, &Vec3::zeros(), bad), Err(PointError::InvalidMaxDistance));
        }
        let mut out = vec![None; 2];
        let points = [Vec3::zeros(), nan];
        assert_eq!(closest_points(&m, &points, 1.0, &mut out), Err(PointError::NonFinite { index: 1 }));
        assert!(out.iter().all(|r| r.is_none()));
        assert_eq!(closest_points(&m, &points[..1], 1.0, &mut out), Err(PointError::LengthMismatch));
        assert!(PointError::OutOfRange { index: 3 }.to_string().contains("query point 3"));
    }
}
