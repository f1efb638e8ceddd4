//! Distance and tolerance: how far apart two placed models are, with closest points.
//!
//! The search visits node pairs of the two hierarchies: it descends into the larger node of a
//! pair, and visits a pair only while a lower bound on its distance may still beat the best
//! triangle distance found. The lower bounds come from the nodes' boxes, the same packed
//! `f32` boxes the collide query reads, two sibling nodes at a time (see `lower_bounds`).
//!
//! * Order (`qsize <= 2` distance queries): best first until the first leaf pair, then depth
//!   first from the pending pairs, closest first. The first leaf pair reached best first gives a
//!   tight bound early. Tolerance queries go depth first.
//! * Placement: a test needs the node that is not split in the frame of the other model. It is
//!   placed once per expansion (`Kept`) and reused by the two child tests (and by the next
//!   expansions that keep the same node).
//! * Precision: every bound is a lower bound of the distance between the triangles as the
//!   query transforms them, with a rounding allowance relative to the magnitudes of the
//!   coordinates. The search stops refining once the best distance is within `TAU` (a few
//!   rounding units of those magnitudes) of every bound left: the answer is the minimum up to
//!   the precision its own computation has, and the work stays bounded however far apart the
//!   models are.

use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::{QueryError, RangeError, Relative, check_placements, gram_deviation, inverse_rotation, refined_inverse};
use crate::bv::obb::{NodePair, PackedFrame};
use crate::geometry::tri_distance::{TriDistance, triangle_distance_within};
use crate::geometry::tri_intersect::triangles_intersect;
use crate::lanes::F2;
use crate::math::{Mat3, Placement, Triangle, Vec3, length};
use crate::model::{Model, slot_of};

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

/// The largest best-first queue any request gets (a larger `qsize` means this).
pub const MAX_QUEUE: usize = 1 << 16;

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

/// Every box extent is grown by this fraction of the two boxes' half-extents: it covers the
/// packed nodes' `f32` axes being orthonormal only to about 1e-7 (the boxes are slabs along
/// the stored axes, so their extents along other directions differ from what orthonormal
/// axes give by that much per unit of half-extent) and a placement's rotation being
/// orthonormal only to rounding.
pub(crate) const SLOP: f64 = 4e-6;

/// The least squared length the bounds divide by: below it the square may have lost digits
/// to underflow (2^-900; packed units are the model's size, so such lengths are below 2^-450
/// of it).
const NORMAL_SQUARE: f64 = 1.1830521861667747e-271;

/// The largest coordinate (packed units) a frame's bounds are computed with: [`lower_bounds`]
/// multiplies coordinates in pairs, and 2^490 squared, summed a few times, stays finite. A
/// model that small against the query's coordinates (2^-490 of them) has its nodes' bounds
/// computed in the other model's frame, or as balls (see [`Search::pair_bound`]).
const FRAME_REACH: f64 = 3.196670515523576e147;

/// A node of one model placed in the other model's packed frame.
#[derive(Clone, Copy, Default)]
pub(crate) struct Kept {
    /// `axes[j][k]`: coordinate k of axis j (unit, see [`FrameMap::place`]).
    pub axes: [[f64; 3]; 3],
    pub center: [f64; 3],
    /// Half-extents along the axes (scaled to the frame).
    pub half: [f64; 3],
    pub half_sum: f64,
    /// The swept-sphere rectangle: centre, half-lengths along axes 1 and 2.
    rect_center: [f64; 3],
    rect_half: [f64; 2],
}

/// Places one model's packed coordinates in the other's: `x ↦ scale · rot · x + trans`.
///
/// `rot` is used as given: it may be a rotation only within the rotation tolerance (a
/// placement check accepts deviations up to 1e-2). A node's centre goes through `rot`; its
/// axes are turned by an orthonormal `turn` near `rot` (`rot` itself when it is orthonormal
/// to rounding), so that the placed box is a box; and its half-extents grow by
/// `deviation · Σ half-extents`, which covers `|(rot − turn) w| ≤ deviation · |w|` for every
/// offset `w` of a vertex from the centre.
#[derive(Clone, Copy)]
pub(crate) struct FrameMap {
    /// Rows of the rotation.
    rot: [[f64; 3]; 3],
    /// Rows of the orthonormal matrix that turns the axes.
    turn: [[f64; 3]; 3],
    /// At least `‖rot − turn‖₂` (0 when `turn` is `rot`; infinite when `rot` is too far from
    /// a rotation to bound: nothing is then pruned).
    pub deviation: f64,
    scale: f64,
    trans: [f64; 3],
    /// Search units per packed unit of the target frame (see `Search::base`).
    unit: f64,
    /// Rounding allowance of a bound computed in the target frame (its packed units).
    margin: F2,
    /// Whether every coordinate of the query is below `FRAME_REACH` in the target frame's
    /// packed units, so that [`lower_bounds`]' products of them cannot overflow.
    fits: bool,
    /// The factor from a bound in this frame to one in the search's frame, beyond `unit`: the
    /// least stretch of the map back (1 for b's nodes in a's frame; for a's nodes in b's, the
    /// smallest singular value of b's rotation in a's frame, at least `1 − deviation`).
    shrink: f64,
}

impl FrameMap {
    /// The map from packed frame `from` to packed frame `to`, given that model coordinates
    /// of `from` go to model coordinates of `to` by `x ↦ scale · rot · x + trans`.
    pub fn between(from: &PackedFrame, to: &PackedFrame, rot: &[[f64; 3]; 3], scale: f64, trans: &Vec3) -> FrameMap {
        FrameMap::turned(from, to, rot, orthonormal_part(rot), scale, trans)
    }

    /// [`FrameMap::between`] with `rot`'s orthonormal part and deviation given.
    fn turned(
        from: &PackedFrame,
        to: &PackedFrame,
        rot: &[[f64; 3]; 3],
        (turn, deviation): ([[f64; 3]; 3], f64),
        scale: f64,
        trans: &Vec3,
    ) -> FrameMap {
        let o = &from.origin;
        let ro = rot.map(|row| row[0] * o.x + row[1] * o.y + row[2] * o.z);
        let t = std::array::from_fn(|k| (scale * ro[k] + trans[k] - to.origin[k]) / to.unit);
        FrameMap {
            rot: *rot,
            turn,
            deviation,
            scale: scale * from.unit / to.unit,
            trans: t,
            unit: 0.0,
            margin: F2::splat(0.0),
            fits: false,
            shrink: 1.0,
        }
    }

    /// Node `lane` of `slot`, placed.
    #[inline(always)]
    pub fn place(&self, slot: &NodePair, lane: usize) -> Kept {
        let f = |k: usize, j: usize| slot.frame[k][j].0[lane] as f64;
        let rotate = |r: &[[f64; 3]; 3], j: usize| -> [f64; 3] {
            std::array::from_fn(|k| r[k][0] * f(0, j) + r[k][1] * f(1, j) + r[k][2] * f(2, j))
        };
        let c = rotate(&self.rot, 3);
        let axes = [rotate(&self.turn, 0), rotate(&self.turn, 1), rotate(&self.turn, 2)];
        let center: [f64; 3] = std::array::from_fn(|k| self.scale * c[k] + self.trans[k]);
        let rect = |i: usize| slot.rect[i].0[lane] as f64 * self.scale;
        let rc: [f64; 3] = std::array::from_fn(|k| center[k] + rect(0) * axes[1][k] + rect(1) * axes[2][k]);
        // The stored axes are unit only to about 1e-7: normalized here, with the slabs'
        // half-extents divided and the rectangle's half-lengths multiplied by the lengths,
        // which describes the same box and rectangle. (Gaps along them are then exact
        // projections, however far the other node is.)
        let len = axes.map(|a| (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt());
        let mut half: [f64; 3] = std::array::from_fn(|i| slot.half[i].0[lane] as f64 * self.scale / len[i]);
        if self.deviation > 0.0 {
            // A vertex is within |w| ≤ Σ halves (1 + 1e-6) of the centre (the stored axes are
            // orthonormal to about 1e-7); `rot` places it within `deviation · |w|` of where
            // `turn` does.
            let grow = self.deviation * (1.0 + 1e-6) * (half[0] + half[1] + half[2]);
            half = [half[0] + grow, half[1] + grow, half[2] + grow];
        }
        Kept {
            axes: std::array::from_fn(|j| axes[j].map(|v| v / len[j])),
            center,
            half,
            half_sum: half[0] + half[1] + half[2],
            rect_center: rc,
            rect_half: [rect(2) * len[1], rect(3) * len[2]],
        }
    }
}

/// A deviation from orthonormal (`‖MᵀM − I‖_F`) at or below which a matrix is taken as a
/// rotation as it is: about the rounding of a product of two rotations computed in `f64`,
/// which the bounds' rounding allowance covers.
const ROUNDING_DEVIATION: f64 = 8.0 * f64::EPSILON;

/// An orthonormal matrix near `rot` (rows), and a bound on their distance `‖rot − Q‖₂`: `rot`
/// itself and 0 when it is orthonormal to rounding; else its polar factor (Newton–Schulz
/// iterations `Q ← Q (3I − QᵀQ)/2`, which converge fast from any placement the checks accept;
/// an SVD for anything else) and the Frobenius norm of the difference.
fn orthonormal_part(rot: &[[f64; 3]; 3]) -> ([[f64; 3]; 3], f64) {
    let m = Mat3::from_fn(|i, j| rot[i][j]);
    if gram_deviation(&m) <= ROUNDING_DEVIATION {
        return (*rot, 0.0);
    }
    let mut q = m;
    let mut converged = false;
    for _ in 0..8 {
        q = q * (Mat3::identity() * 3.0 - q.transpose() * q) * 0.5;
        if gram_deviation(&q) <= 1e-13 {
            converged = true;
            break;
        }
    }
    if !converged {
        let svd = m.svd(true, true);
        q = match (svd.u, svd.v_t) {
            (Some(u), Some(v_t)) => u * v_t,
            _ => Mat3::identity(),
        };
    }
    // (Q's own deviation, below 1e-13, is rounding to the bounds, as a rotation's.)
    let deviation = (m - q).norm() * (1.0 + 1e-9);
    let deviation = if deviation.is_finite() { deviation } else { f64::MAX };
    (std::array::from_fn(|i| std::array::from_fn(|j| q[(i, j)])), deviation)
}

/// How distances in model a's frame become world distances when a's rotation `R` is not
/// orthonormal (beyond [`super::TRANSPOSE_INVERTS`]; it is used as given): the world distance of two
/// points of a's frame is `scale · |R (x − y)|`, so triangle pairs are measured after `R`, and
/// every bound, a distance in a's frame, is multiplied by `shrink ≤ σ_min(R)`.
#[derive(Clone, Copy)]
struct Metric {
    rotation: Mat3,
    inverse: Mat3,
    shrink: f64,
}

impl Metric {
    /// `None` unless `deviates` ([`Relative::between_telling`]: the rotation is not
    /// orthonormal within [`super::TRANSPOSE_INVERTS`]; else a's frame measures as the world does).
    fn of(rotation: &Mat3, deviates: bool) -> Option<Metric> {
        if !deviates {
            return None;
        }
        let rows: [[f64; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| rotation[(i, j)]));
        let (_, deviation) = orthonormal_part(&rows);
        let inverse = refined_inverse(rotation)?;
        Some(Metric { rotation: *rotation, inverse, shrink: (1.0 - deviation).max(0.0) })
    }
}

/// The distance of triangles `a` and `b` (model a's frame) as the world measures it, with their
/// closest points in a's frame; `None` when more than `cut` (measured as the result). Whether
/// they meet is decided in a's frame, by the exact predicate collide uses, so that the distance
/// is 0 exactly when collide finds the pair; otherwise it is measured after the metric's
/// rotation and kept positive.
#[inline(always)]
fn pair_distance(a: &Triangle, b: &Triangle, metric: Option<&Metric>, cut: f64) -> Option<TriDistance> {
    let Some(m) = metric else {
        return triangle_distance_within(a, b, cut);
    };
    if triangles_intersect(a, b) {
        return triangle_distance_within(a, b, f64::INFINITY);
    }
    let (wa, wb) = (a.map(|p| m.rotation * p), b.map(|p| m.rotation * p));
    let d = triangle_distance_within(&wa, &wb, cut)?;
    Some(TriDistance { distance: d.distance.max(f64::from_bits(1)), p: m.inverse * d.p, q: m.inverse * d.q })
}

/// Lower bounds on the distances between the two nodes of `slot` (one per lane) and `kept`,
/// in the slot's packed units, and the squared distances between their box centres (the
/// order in which the search visits siblings); `margin` is the rounding allowance.
///
/// Each node holds its vertices in its box (the slabs `|a_i · (x − c)| ≤ h_i` along its
/// stored axes) and within `h_0` of its rectangle (see [`NodePair`]'s `rect`), so the gap
/// between two nodes' projections on any direction, divided by the direction's length, bounds
/// the distance from below. The directions tried:
/// * the six box axes (as in the separating-axis test);
/// * the direction between a point of each rectangle found by two rounds of alternating
///   clamping (from `kept`'s rectangle centre into the child's rectangle, from there into
///   `kept`'s rectangle, and again): nearly the rectangles' closest pair when they are apart,
///   which makes the bound nearly the swept spheres' distance, their rounded edges included;
/// * the direction between the two box centres, which is nearly exact for nodes far apart
///   compared with their size, and is measured along a vector computed in the model frame,
///   so that its precision is relative to the nodes' size rather than to their distance.
///
/// `SLOP` covers the stored axes being orthonormal only to about 1e-7 (the
/// formulas treat them as orthonormal), `margin` the rounding of the coordinates. A NaN
/// candidate is skipped; what is left is clamped at 0.
#[inline(always)]
fn lower_bounds(slot: &NodePair, kept: &Kept, margin: F2) -> (F2, F2) {
    let ld = crate::bv::obb::P32::load;
    let ax: [[F2; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|k| ld(&slot.frame[k][i])));
    let h: [F2; 3] = std::array::from_fn(|i| ld(&slot.half[i]));
    let c: [F2; 3] = std::array::from_fn(|k| ld(&slot.frame[k][3]));
    // (The kept node's numbers are loaded into both lanes where used.)
    let ka: [[F2; 3]; 3] = kept.axes.map(|a| a.map(F2::splat));
    let kh: [F2; 3] = kept.half.map(F2::splat);
    // a: the child, b: the kept node. r[i][j] = a_i · b_j; d: b's box centre less a's, dc
    // along a's axes, dk along b's.
    let r: [[F2; 3]; 3] = std::array::from_fn(|i| {
        std::array::from_fn(|j| ax[i][0] * ka[j][0] + ax[i][1] * ka[j][1] + ax[i][2] * ka[j][2])
    });
    let along_a =
        |v: &[F2; 3]| -> [F2; 3] { std::array::from_fn(|i| ax[i][0] * v[0] + ax[i][1] * v[1] + ax[i][2] * v[2]) };
    let d: [F2; 3] = std::array::from_fn(|k| F2::splat(kept.center[k]) - c[k]);
    let dc = along_a(&d);
    let dk: [F2; 3] = std::array::from_fn(|j| ka[j][0] * d[0] + ka[j][1] * d[1] + ka[j][2] * d[2]);
    let (adc, adk) = (dc.map(F2::abs), dk.map(F2::abs));

    // The box axes. b's are unit (see `FrameMap::place`); a's are divided by their length
    // (1/√(1 + e) ≈ 1 − e/2 for |e| ≈ 1e-7 errs low by less than 1e-14 relative).
    let mut gap = F2::splat(f64::NEG_INFINITY);
    for i in 0..3 {
        let inv = F2::splat(1.5) - F2::splat(0.5) * (ax[i][0] * ax[i][0] + ax[i][1] * ax[i][1] + ax[i][2] * ax[i][2]);
        let g = adc[i] - h[i] - (kh[0] * r[i][0].abs() + kh[1] * r[i][1].abs() + kh[2] * r[i][2].abs());
        gap = gap.max(g * inv);
    }
    for j in 0..3 {
        gap = gap.max(adk[j] - kh[j] - (h[0] * r[0][j].abs() + h[1] * r[1][j].abs() + h[2] * r[2][j].abs()));
    }

    // The rectangles: a's at o (along a's axes 1, 2) from its box centre, half-lengths l,
    // radius h0; b's likewise. `dr`: b's rectangle centre from a's, along a's axes; points
    // are kept in a's axes relative to a's rectangle centre, b's rectangle coordinates
    // relative to its centre.
    let o = [ld(&slot.rect[0]), ld(&slot.rect[1])];
    let l = [ld(&slot.rect[2]), ld(&slot.rect[3])];
    let kl = kept.rect_half.map(F2::splat);
    let rd = along_a(&std::array::from_fn(|k| F2::splat(kept.rect_center[k]) - c[k]));
    let dr = [rd[0], rd[1] - o[0], rd[2] - o[1]];
    let clamp = |x: F2, half: F2| x.max(F2::splat(0.0) - half).min(half);
    let into_b = |p: &[F2; 3]| -> [F2; 2] {
        let e: [F2; 3] = std::array::from_fn(|i| p[i] - dr[i]);
        [1, 2].map(|j| clamp(e[0] * r[0][j] + e[1] * r[1][j] + e[2] * r[2][j], kl[j - 1]))
    };
    let from_b = |u: &[F2; 2]| -> [F2; 3] { std::array::from_fn(|i| u[0] * r[i][1] + u[1] * r[i][2] + dr[i]) };
    let zero = F2::splat(0.0);
    let p = [zero, clamp(dr[1], l[0]), clamp(dr[2], l[1])];
    let q = from_b(&into_b(&p));
    let p = [zero, clamp(q[1], l[0]), clamp(q[2], l[1])];
    let q = from_b(&into_b(&p));
    let w: [F2; 3] = std::array::from_fn(|i| q[i] - p[i]);
    let wd = w[0] * dr[0] + w[1] * dr[1] + w[2] * dr[2];
    let ext_a = l[0] * w[1].abs() + l[1] * w[2].abs();
    let wb = [1, 2].map(|j| (w[0] * r[0][j] + w[1] * r[1][j] + w[2] * r[2][j]).abs());
    let ext_b = kl[0] * wb[0] + kl[1] * wb[1];
    // w's length as a vector of the frame (a's axes are not quite orthonormal).
    let wf: [F2; 3] = std::array::from_fn(|k| w[0] * ax[0][k] + w[1] * ax[1][k] + w[2] * ax[2][k]);
    let ww = wf[0] * wf[0] + wf[1] * wf[1] + wf[2] * wf[2];
    // (NaN when the rectangles meet, w = 0, or when |w|² is not a normal number and so not
    // accurate (features below 2^-450 of the model's size): `max` then keeps `gap`.)
    let along_w = (wd - ext_a - ext_b) / ww.sqrt() - h[0] - kh[0];
    gap = ww.select_ge(F2::splat(NORMAL_SQUARE), along_w, F2::splat(f64::NAN)).max(gap);

    // Along the centres' offset: (|d|² − extents · |d|) / |d|.
    let dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    let ext = h[0] * adc[0] + h[1] * adc[1] + h[2] * adc[2] + kh[0] * adk[0] + kh[1] * adk[1] + kh[2] * adk[2];
    let centre = dd.select_ge(F2::splat(NORMAL_SQUARE), (dd - ext) / dd.sqrt(), F2::splat(f64::NAN));
    let slop = F2::splat(SLOP) * (h[0] + h[1] + h[2] + F2::splat(kept.half_sum));
    let lb = centre.max(gap) - slop - margin;
    (lb.max(zero), dd)
}

/// The depth-first stack and best-first queue of a search, kept per thread between queries
/// so that a query allocates nothing once they have grown.
#[derive(Default)]
struct Scratch {
    stack: Vec<Entry>,
    queue: BinaryHeap<Pending>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

struct Search<'a> {
    a: &'a Model,
    b: &'a Model,
    sa: &'a [NodePair],
    sb: &'a [NodePair],
    rel: Relative,
    /// The inverse of `rel`'s rotation: maps points of a's frame back into b's.
    back: Mat3,
    /// a's rotation when it is not orthonormal: distances are measured after it.
    metric: Option<Metric>,
    /// b's packed frame into a's: kept nodes of b, tested against a's children.
    b_in_a: FrameMap,
    /// a's packed frame into b's.
    a_in_b: FrameMap,
    /// The last placed kept node of each model (consecutive expansions often keep the same one).
    kept_a: (u32, Kept),
    kept_b: (u32, Kept),
    /// Pairs whose lower bound is at least this are not worth visiting ([`Search::compute_cut`]).
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
    /// The search's unit of length, in model a's units (a power of two): every distance, bound
    /// and tolerance of the search is in it.
    base: f64,
    /// The precision the search refines to: a few rounding units of the coordinates'
    /// magnitudes.
    tau: f64,
    /// Tolerance queries: the smallest lower bound of a pruned pair (a lower bound of the
    /// distance of everything not searched).
    pruned_bound: f64,
    /// The warm-start pair, tested before the search (a visit to it is counted, not redone).
    seed: Option<(u32, u32)>,
    /// The warm start is that of a coherent step (see [`COHERENT`]): its pair bounds the
    /// search about as tightly as the answer will, so there is nothing for a best-first
    /// descent to find first.
    coherent: bool,
}

/// No node placed yet.
const NONE: u32 = u32::MAX;

impl Search<'_> {
    /// Search units per packed unit of model a.
    #[inline(always)]
    fn unit_a(&self) -> f64 {
        self.b_in_a.unit
    }

    /// Search units per packed unit of model b.
    #[inline(always)]
    fn unit_b(&self) -> f64 {
        self.a_in_b.unit
    }

    /// Node `ib` of model b placed in a's packed frame (cached).
    #[inline(always)]
    fn kept_b(&mut self, ib: u32) -> Kept {
        if self.kept_b.0 != ib {
            let (slot, lane) = slot_of(ib as usize);
            self.kept_b = (ib, self.b_in_a.place(&self.sb[slot], lane));
        }
        self.kept_b.1
    }

    /// Node `ia` of model a placed in b's packed frame (cached).
    #[inline(always)]
    fn kept_a(&mut self, ia: u32) -> Kept {
        if self.kept_a.0 != ia {
            let (slot, lane) = slot_of(ia as usize);
            self.kept_a = (ia, self.a_in_b.place(&self.sa[slot], lane));
        }
        self.kept_a.1
    }

    /// The two child pairs of an inner pair (split on the larger node) with their lower
    /// bounds (model a's units).
    #[inline(always)]
    fn expand(&mut self, ia: u32, ib: u32) -> [(f64, f64, u32, u32); 2] {
        let (slot_a, lane_a) = slot_of(ia as usize);
        let (slot_b, lane_b) = slot_of(ib as usize);
        let (na, nb) = (&self.sa[slot_a], &self.sb[slot_b]);
        let split_a = !na.is_leaf(lane_a)
            && (nb.is_leaf(lane_b) || na.size(lane_a) * self.unit_a() > nb.size(lane_b) * self.unit_b());
        self.bv_tests += 2;
        if split_a && !self.b_in_a.fits || !split_a && !self.a_in_b.fits {
            // The split model is tiny against the coordinates: each child on its own.
            let [ca, cb] = if split_a { [na.first_child(lane_a), ib] } else { [ia, nb.first_child(lane_b)] };
            let (d0, k0) = self.pair_bound(ca, cb);
            let (ia1, ib1) = if split_a { (ca + 1, cb) } else { (ca, cb + 1) };
            let (d1, k1) = self.pair_bound(ia1, ib1);
            return [(d0, k0, ca, cb), (d1, k1, ia1, ib1)];
        }
        if split_a {
            let c = na.first_child(lane_a);
            let kept = self.kept_b(ib);
            let children = &self.sa[slot_of(c as usize).0];
            let (lb, key) = lower_bounds(children, &kept, self.b_in_a.margin);
            let [d0, d1] = (lb * F2::splat(self.b_in_a.unit * self.b_in_a.shrink)).to_array();
            let [k0, k1] = (key * F2::splat(self.b_in_a.unit * self.b_in_a.unit)).to_array();
            [(d0, k0, c, ib), (d1, k1, c + 1, ib)]
        } else {
            let c = nb.first_child(lane_b);
            let kept = self.kept_a(ia);
            let children = &self.sb[slot_of(c as usize).0];
            let (lb, key) = lower_bounds(children, &kept, self.a_in_b.margin);
            let [d0, d1] = (lb * F2::splat(self.a_in_b.unit * self.a_in_b.shrink)).to_array();
            let [k0, k1] = (key * F2::splat(self.a_in_b.unit * self.a_in_b.unit)).to_array();
            [(d0, k0, ia, c), (d1, k1, ia, c + 1)]
        }
    }

    /// Models far apart compared with their size (distance queries): the gap `L` between
    /// their projections on the line between their root boxes' centres is nearly their
    /// distance, and the pair of vertices that bounds it (the extreme vertex of each model
    /// along that line) is at most `(d_a + d_b)² / (8 L)` farther apart than `L`, `d` the
    /// boxes' diagonals: when that is within the precision asked for (at least `tau`), those
    /// two vertices are the answer, found by one search of each tree (work linear in their
    /// sizes at worst). Also true when the root pair's bound already shows the best pair found
    /// close enough. False, and nothing changed, otherwise.
    fn far_apart(&mut self, stack: &mut Vec<Entry>) -> bool {
        if self.metric.is_some() {
            return false; // (its argument measures in a's frame)
        }
        let diagonal = |slots: &[NodePair], unit: f64| {
            let h = |i: usize| slots[0].half[i].0[0] as f64;
            2.0 * unit * (h(0) * h(0) + h(1) * h(1) + h(2) * h(2)).sqrt()
        };
        // (b's diagonal as placed: its rotation may stretch by up to 1 + deviation.)
        let spread =
            diagonal(self.sa, self.unit_a()) + diagonal(self.sb, self.unit_b()) * (1.0 + self.b_in_a.deviation);
        // The error allowed at a distance of at least `l` (see `compute_cut`).
        let (tau, abs_err, rel_err) = (self.tau, self.abs_err, self.rel_err);
        let allowed = |l: f64| tau + abs_err.min(l * rel_err / (1.0 + rel_err));
        // A cheap first look: the root pair's bound is at most L (and when it already shows
        // the warm start close enough, there is nothing to search).
        let root = self.root_bound();
        self.bv_tests += 1;
        if root >= self.cut {
            return true;
        }
        if !(root > 0.0 && spread * (spread / (8.0 * root)) <= allowed(root)) {
            return false;
        }
        let centre = |m: &Model| {
            let (f, n) = (m.packed_frame(), &m.collide_slots()[0]);
            f.origin
                + Vec3::new(n.frame[0][3].0[0] as f64, n.frame[1][3].0[0] as f64, n.frame[2][3].0[0] as f64) * f.unit
        };
        let rel = self.rel;
        let v = rel.apply(&centre(self.b)) - centre(self.a);
        let span = length(&v);
        if !(span > 0.0 && span.is_finite()) {
            return false;
        }
        let u = v / span;
        let mut visits = 0;
        let (xa, pa, ta) = support(self.a, &u, stack, &mut visits);
        // The least u·y over b's vertices y (placed): the most along −Rᵀu in b's frame.
        let (_, pb, tb) = support(self.b, &-(rel.rotation.transpose() * u), stack, &mut visits);
        self.bv_tests += visits;
        let q = rel.apply(&pb);
        let gap = (u.dot(&q) - xa) / self.base;
        if !(gap > 0.0 && spread * (spread / (8.0 * gap)) <= allowed(gap)) {
            return false;
        }
        let d = length(&(q - pa)) / self.base;
        if d < self.best {
            self.best = d;
            self.best_points = (pa, q);
            self.best_pair = Some((ta as u32, tb as u32));
            self.cut = self.compute_cut();
        }
        true
    }

    /// The lower bound of the root pair.
    fn root_bound(&mut self) -> f64 {
        self.pair_bound(0, 0).0
    }

    /// The lower bound and key (see [`Search::expand`]) of one node pair, in whichever frame
    /// fits the query's coordinates (a's, else b's); when neither does, both models are below
    /// 2^-490 of the coordinates and the nodes' bounding balls, at most that much looser than
    /// the boxes, bound them.
    fn pair_bound(&mut self, ia: u32, ib: u32) -> (f64, f64) {
        let (slot_a, lane_a) = slot_of(ia as usize);
        let (slot_b, lane_b) = slot_of(ib as usize);
        let (lb, key, lane, unit) = if self.b_in_a.fits {
            let kept = self.kept_b(ib);
            let (lb, key) = lower_bounds(&self.sa[slot_a], &kept, self.b_in_a.margin);
            (lb * F2::splat(self.b_in_a.shrink), key, lane_a, self.b_in_a.unit)
        } else if self.a_in_b.fits {
            let kept = self.kept_a(ia);
            let (lb, key) = lower_bounds(&self.sb[slot_b], &kept, self.a_in_b.margin);
            (lb * F2::splat(self.a_in_b.shrink), key, lane_b, self.a_in_b.unit)
        } else {
            return self.ball_bound(ia, ib);
        };
        (lb.to_array()[lane] * unit, key.to_array()[lane] * unit * unit)
    }

    /// The distance between the nodes' bounding balls (search units) less the rounding of
    /// their centres, and the squared distance between the centres.
    fn ball_bound(&self, ia: u32, ib: u32) -> (f64, f64) {
        // A node's box centre and a radius of its box (x = c + Σ tᵢ aᵢ, |tᵢ| ≤ hᵢ, so
        // |M x − M c| ≤ Σ hᵢ |M aᵢ|) after the linear part `m` of a placement, in model a's
        // coordinates (to be translated).
        let ball = |model: &Model, i: u32, m: &Mat3| -> (Vec3, f64) {
            let (slot, lane) = slot_of(i as usize);
            let (f, n) = (model.packed_frame(), &model.collide_slots()[slot]);
            let g = |k: usize, j: usize| n.frame[k][j].0[lane] as f64;
            let axis = |j: usize| Vec3::new(g(0, j), g(1, j), g(2, j));
            let r: f64 = (0..3).map(|j| n.half[j].0[lane] as f64 * length(&(m * axis(j)))).sum();
            (m * (f.origin + axis(3) * f.unit), r * f.unit * (1.0 + SLOP))
        };
        let (ca, ra) = ball(self.a, ia, &Mat3::identity());
        let (cb, rb) = ball(self.b, ib, &(self.rel.rotation * self.rel.scale));
        let cb = cb + self.rel.translation;
        let d = length(&((cb - ca) / self.base));
        let lb = d - (ra + rb) / self.base - self.tau;
        (lb.max(0.0) * self.metric.map_or(1.0, |m| m.shrink), d * d)
    }

    fn triangle_in_a(&self, ib: usize) -> Triangle {
        let t = &self.b.triangles()[ib];
        [self.rel.apply(&t[0]), self.rel.apply(&t[1]), self.rel.apply(&t[2])]
    }

    /// Tests a leaf pair and keeps it if closer than the best so far.
    fn leaf_pair(&mut self, ta: usize, tb: usize, counted: bool) {
        if counted {
            self.tri_tests += 1;
            if self.seed == Some((ta as u32, tb as u32)) {
                return;
            }
        }
        // Only a pair closer than the best so far matters (the margin covers the rounding of
        // the separating-plane test, relative to the coordinates).
        let cut = (self.best + self.tau) * self.base;
        let Some(d) = pair_distance(&self.a.triangles()[ta], &self.triangle_in_a(tb), self.metric.as_ref(), cut) else {
            return;
        };
        let distance = positive_as(d.distance, d.distance / self.base);
        if distance < self.best || self.best_pair.is_none() {
            self.best = distance;
            self.cut = self.compute_cut();
            self.best_points = (d.p, d.q);
            self.best_pair = Some((ta as u32, tb as u32));
        }
    }

    fn done(&self) -> bool {
        self.stop_at.is_some_and(|t| self.best_pair.is_some() && self.best <= t)
    }

    /// The bound at and above which a pair is not worth visiting (distance queries): what the
    /// error bounds allow, less the precision `tau`.
    ///
    /// The precision `tau` never hides a crossing: while the error bounds allow no answer but
    /// 0 for models that meet (the best so far is above `abs_err`), a pair whose bound is 0,
    /// which may hold an intersecting triangle pair, is still worth visiting, so that the
    /// distance is 0 exactly when the models meet (as `tolerance(0)` and collide say).
    #[inline]
    fn compute_cut(&self) -> f64 {
        let allowed = (self.best - self.abs_err).max(self.best / (1.0 + self.rel_err));
        let cut = allowed - self.tau;
        if allowed > 0.0 { cut.max(f64::MIN_POSITIVE) } else { cut }
    }

    /// Records a pair pruned at lower bound `d`.
    #[inline]
    fn prune(&mut self, d: f64) {
        let d = d.max(0.0);
        if d < self.pruned_bound {
            self.pruned_bound = d;
        }
    }

    /// Whether a node pair with lower bound `d` may still hold a closer pair.
    #[inline(always)]
    fn worth_visiting(&self, d: f64) -> bool {
        match self.stop_at {
            Some(t) => d <= t,
            None => d < self.cut,
        }
    }

    /// Depth first from a pair, closer child pair first.
    fn depth_first(&mut self, start: Entry, stack: &mut Vec<Entry>) {
        let base = stack.len();
        stack.push(start);
        while let Some(e) = stack.pop() {
            if self.done() {
                stack.truncate(base);
                return;
            }
            if !self.worth_visiting(e.d) {
                self.prune(e.d);
                continue;
            }
            let (slot_a, lane_a) = slot_of(e.a as usize);
            let (slot_b, lane_b) = slot_of(e.b as usize);
            let (na, nb) = (&self.sa[slot_a], &self.sb[slot_b]);
            if na.is_leaf(lane_a) && nb.is_leaf(lane_b) {
                self.leaf_pair(na.triangle(lane_a), nb.triangle(lane_b), true);
                continue;
            }
            let [(d1, k1, a1, b1), (d2, k2, a2, b2)] = self.expand(e.a, e.b);
            let (c1, c2) = (Entry { d: d1, a: a1, b: b1 }, Entry { d: d2, a: a2, b: b2 });
            // Push the farther pair first so the closer one is visited first.
            let (near, far) = if k2 < k1 { (c2, c1) } else { (c1, c2) };
            if self.worth_visiting(far.d) {
                stack.push(far);
            } else {
                self.prune(far.d);
            }
            if self.worth_visiting(near.d) {
                stack.push(near);
            } else {
                self.prune(near.d);
            }
        }
    }

    /// Best first with a queue of at most `qsize` pairs; a pair that finds the queue full is
    /// searched depth first. With `dive`, every pair popped after the first leaf pair is also
    /// searched depth first (the queue then only orders the pending subtrees).
    fn best_first(&mut self, qsize: usize, dive: bool, scratch: &mut Scratch) {
        let Scratch { stack, queue } = scratch;
        queue.clear();
        let mut diving = false;
        queue.push(Pending::new(f64::NEG_INFINITY, 0.0, 0, 0));
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
            let (slot_a, lane_a) = slot_of(ia as usize);
            let (slot_b, lane_b) = slot_of(ib as usize);
            let (na, nb) = (&self.sa[slot_a], &self.sb[slot_b]);
            if na.is_leaf(lane_a) && nb.is_leaf(lane_b) {
                self.leaf_pair(na.triangle(lane_a), nb.triangle(lane_b), true);
                diving = dive;
                continue;
            }
            if diving || queue.len() + 2 > qsize {
                self.depth_first(Entry { d, a: ia, b: ib }, stack);
                continue;
            }
            for (d, dd, ca, cb) in self.expand(ia, ib) {
                if self.worth_visiting(d) {
                    queue.push(Pending::new(d, dd, ca, cb));
                } else {
                    self.prune(d);
                }
            }
        }
        queue.clear();
    }
}

/// A node pair on the depth-first stack, with a lower bound of its distance.
#[derive(Clone, Copy)]
struct Entry {
    d: f64,
    a: u32,
    b: u32,
}

/// A node pair waiting in the best-first queue (a min-heap on its lower bound).
struct Pending {
    /// The lower bound as an integer with the same order (see [`Pending::new`]).
    key: u64,
    /// Among equal bounds (all 0 while boxes overlap), the pair whose centres are nearer
    /// first: the squared distance's bits, which order as the (non-negative) values do.
    tie: u64,
    a: u32,
    b: u32,
}

impl Pending {
    /// `d`: the pair's lower bound (not NaN); `dd`: the squared distance of its centres.
    #[inline(always)]
    fn new(d: f64, dd: f64, a: u32, b: u32) -> Pending {
        // The IEEE order as an unsigned one: negative numbers have all bits flipped, the others
        // their sign bit set.
        let bits = (d + 0.0).to_bits();
        let key = if bits >> 63 == 1 { !bits } else { bits | 1 << 63 };
        Pending { key, tie: (dd.max(0.0) + 0.0).to_bits(), a, b }
    }

    #[inline(always)]
    fn d(&self) -> f64 {
        f64::from_bits(if self.key >> 63 == 1 { self.key & !(1 << 63) } else { !self.key })
    }
}

impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        (self.key, self.tie) == (other.key, other.tie)
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
        (other.key, other.tie).cmp(&(self.key, self.tie))
    }
}

/// What a search is asked: an exact or approximate distance, or a tolerance.
#[derive(Clone, Copy)]
struct Goal {
    qsize: usize,
    warm_start: Option<(u32, u32)>,
    /// The distance (world units) the query that left the warm start found, when known.
    previous: Option<f64>,
    stop_at: Option<f64>,
    rel_err: f64,
    abs_err: f64,
}

/// The warm start counts as coherent when its pair is at most this factor (plus the search's
/// precision) farther apart than the previous answer was.
const COHERENT: f64 = 1.05;

fn run(m1: &Model, p1: &Placement, m2: &Model, p2: &Placement, goal: Goal) -> Result<DistanceResult, RangeError> {
    let (rel, deviates) = Relative::between_telling(p1, p2);
    rel.check_range(m1, m2)?;
    if m1.num_triangles() == 1 && m2.num_triangles() == 1 {
        return Ok(single_pair(m1, p1, m2, &rel, Metric::of(&p1.rotation, deviates), goal));
    }
    let mut search = prepare(m1, p1, m2, p2, goal);
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => search_from_root(&mut search, goal, &mut scratch),
        Err(_) => search_from_root(&mut search, goal, &mut Scratch::default()),
    });
    Ok(finish(&search, goal, p1))
}

/// Models of one triangle each (the roots are a leaf pair): the exact triangle distance is
/// the whole query, with no search to set up.
fn single_pair(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    rel: &Relative,
    metric: Option<Metric>,
    goal: Goal,
) -> DistanceResult {
    let b = m2.triangles()[0].map(|p| rel.apply(&p));
    let d = pair_distance(&m1.triangles()[0], &b, metric.as_ref(), f64::INFINITY).expect("no cut");
    let within = goal.stop_at.is_none_or(|t| d.distance <= t / p1.scale);
    let mut result = DistanceResult {
        distance: positive_as(d.distance, d.distance * p1.scale),
        tri_tests: 1,
        closer: goal.stop_at.is_some() && within,
        ..Default::default()
    };
    if within {
        result.p1 = d.p;
        let back = inverse_rotation(&rel.rotation, ROUNDING_DEVIATION).unwrap_or_else(|| rel.rotation.transpose());
        result.p2 = back * (d.q - rel.translation) / rel.scale;
        result.closest_pair = Some((0, 0));
    } else {
        // Not closer: the distance (exact, so a lower bound too) and no points.
        result.p1 = Vec3::repeat(f64::NAN);
        result.p2 = Vec3::repeat(f64::NAN);
    }
    result
}

/// `value` (a distance converted to other units), kept positive when `distance` is: a
/// distance is 0 exactly when the triangles meet, and a subnormal one must not underflow to 0
/// on the way.
#[inline(always)]
fn positive_as(distance: f64, value: f64) -> f64 {
    if distance > 0.0 { value.max(f64::from_bits(1)) } else { value }
}

/// The search of `goal` on the two placed models, seeded from the warm start.
#[inline(always)]
fn prepare<'a>(m1: &'a Model, p1: &Placement, m2: &'a Model, p2: &Placement, goal: Goal) -> Search<'a> {
    let (rel, deviates) = Relative::between_telling(p1, p2);
    // Errors and tolerances are in world units; the search runs in model 1's frame.
    let to_local = 1.0 / p1.scale;
    let (fa, fb) = (m1.packed_frame(), m2.packed_frame());
    let rows: [[f64; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| rel.rotation[(i, j)]));
    let cols: [[f64; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| rel.rotation[(j, i)]));
    // The magnitude of every coordinate the query computes with, in model 1's frame.
    let coords = m1.magnitude() + rel.scale * m2.magnitude() + rel.translation.amax();
    // The search's unit of length (a power of two, in model 1's units): a's packed unit, or
    // larger when the coordinates reach beyond 2^900 of it, so that distances in it stay far
    // from overflow and the packed units' ratios to it stay normal numbers.
    let base = fa.unit.max(2f64.powi((coords.log2().ceil() as i32 - 900).clamp(-1022, 1023)));
    // A frame's packed unit in search units; a ratio that is not a normal number is not known
    // to the bits the bounds need (a model below 2^-1022 of the other's size, which only
    // extreme placements make), and 0 makes every bound of that frame 0: always visited.
    let ratio = |unit: f64, scale: f64| {
        let r = unit / base * scale;
        if r.is_normal() { r } else { 0.0 }
    };
    let margin = |unit: f64| {
        // (The floor covers the absolute rounding of subnormal intermediate products.)
        F2::splat(16.0 * f64::EPSILON * coords / base / unit + 1e-300)
    };
    let mut b_in_a = FrameMap::between(fb, fa, &rows, rel.scale, &rel.translation);
    b_in_a.unit = ratio(fa.unit, 1.0);
    b_in_a.margin = margin(b_in_a.unit);
    // (A rotation that far from one, which no placement check accepts, is bounded by balls.)
    let turned = b_in_a.deviation < 0.5;
    b_in_a.fits = coords / fa.unit < FRAME_REACH && turned;
    // a's model frame in b's: x ↦ R⁻¹ (x − t) / s.
    // (`deviation` is 0 exactly when the rotation is orthonormal within ROUNDING_DEVIATION.)
    let inverse = if b_in_a.deviation == 0.0 { Some(rel.rotation.transpose()) } else { refined_inverse(&rel.rotation) };
    let back = -(inverse.unwrap_or_default() * rel.translation) / rel.scale;
    let rows_back: [[f64; 3]; 3] = match inverse {
        Some(inverse) if b_in_a.deviation > 0.0 => std::array::from_fn(|i| std::array::from_fn(|j| inverse[(i, j)])),
        _ => cols,
    };
    let mut a_in_b = if b_in_a.deviation == 0.0 {
        // (Mᵀ is as orthonormal as M.)
        FrameMap::turned(fa, fb, &rows_back, (rows_back, 0.0), 1.0 / rel.scale, &back)
    } else {
        FrameMap::between(fa, fb, &rows_back, 1.0 / rel.scale, &back)
    };
    a_in_b.unit = ratio(fb.unit, rel.scale);
    // (The computed inverse adds a few rounding units of the coordinates.)
    a_in_b.margin = margin(a_in_b.unit) * F2::splat(if b_in_a.deviation > 0.0 { 2.0 } else { 1.0 });
    a_in_b.fits = coords / (fb.unit * rel.scale) < FRAME_REACH && turned && inverse.is_some();
    // Distances in a's frame are at least σ_min(R) ≥ 1 − deviation of those in b's; the world's
    // at least the metric's shrink of those in a's frame.
    let metric = Metric::of(&p1.rotation, deviates);
    b_in_a.shrink = metric.map_or(1.0, |m| m.shrink);
    a_in_b.shrink = (1.0 - b_in_a.deviation) * b_in_a.shrink;
    let unplaced = Kept::default();
    let mut search = Search {
        a: m1,
        b: m2,
        sa: m1.collide_slots(),
        sb: m2.collide_slots(),
        rel,
        back: inverse.unwrap_or_else(|| rel.rotation.transpose()),
        metric,
        b_in_a,
        a_in_b,
        kept_a: (NONE, unplaced),
        kept_b: (NONE, unplaced),
        cut: f64::INFINITY,
        best: f64::INFINITY,
        best_points: (Vec3::zeros(), Vec3::zeros()),
        best_pair: None,
        bv_tests: 0,
        tri_tests: 0,
        base,
        stop_at: goal.stop_at.map(|t| t * to_local / base),
        rel_err: goal.rel_err,
        abs_err: goal.abs_err * to_local / base,
        tau: 64.0 * f64::EPSILON * coords / base,
        pruned_bound: f64::INFINITY,
        seed: None,
        coherent: false,
    };
    search.cut = search.compute_cut();
    let warm = goal.warm_start.filter(|&(a, b)| (a as usize) < m1.num_triangles() && (b as usize) < m2.num_triangles());
    // Distance queries: seed the bound from the warm start (or any pair). Tolerance queries:
    // the warm start's pair, when there is one, may already be within the tolerance. Not
    // counted as a test.
    if let Some((ta, tb)) = if goal.stop_at.is_none() { Some(warm.unwrap_or((0, 0))) } else { warm } {
        search.leaf_pair(ta as usize, tb as usize, false);
        search.seed = Some((ta, tb));
    }
    // Coherent steps (a simulation's): the previous closest pair is still about as close as
    // the previous answer, so it is (nearly) this answer too.
    if let (Some(_), Some(previous)) = (warm, goal.previous) {
        search.coherent = search.best <= previous * to_local / base * COHERENT + search.tau;
    }
    search
}

/// The result of a finished search, in the world's units.
fn finish(search: &Search, goal: Goal, p1: &Placement) -> DistanceResult {
    let rel = &search.rel;
    let to_local = 1.0 / p1.scale;
    let mut result = DistanceResult { bv_tests: search.bv_tests, tri_tests: search.tri_tests, ..Default::default() };
    let found = match goal.stop_at {
        None => true,
        Some(t) => search.best_pair.is_some() && search.best <= t * to_local / search.base,
    };
    if found {
        let (p, q) = search.best_points;
        result.distance = positive_as(search.best, search.best * search.base * p1.scale);
        result.p1 = p;
        // q is in model 1's frame; map back into model 2's.
        result.p2 = search.back * (q - rel.translation) / rel.scale;
        result.closest_pair = search.best_pair;
        result.closer = goal.stop_at.is_some();
    } else {
        // Everything was pruned above the tolerance or tested farther than it.
        let bound = search.pruned_bound.min(search.best);
        result.distance = positive_as(bound, bound * search.base * p1.scale);
        result.p1 = Vec3::repeat(f64::NAN);
        result.p2 = Vec3::repeat(f64::NAN);
    }
    result
}

fn search_from_root(search: &mut Search, goal: Goal, scratch: &mut Scratch) {
    scratch.stack.clear();
    if let Some(t) = search.stop_at {
        // Tolerance queries, as PQP: the root pair's bound first (not counted); beyond the
        // tolerance nothing can be closer.
        let root = search.root_bound();
        if search.done() {
            // The warm start's pair is within the tolerance.
        } else if root > t {
            search.prune(root);
        } else if goal.qsize > 2 {
            search.best_first(goal.qsize.min(MAX_QUEUE), false, scratch);
        } else {
            search.depth_first(Entry { d: root, a: 0, b: 0 }, &mut scratch.stack);
        }
    } else if search.far_apart(&mut scratch.stack) {
        // Answered from the two models' extreme vertices.
    } else if goal.qsize > 2 {
        search.best_first(goal.qsize.min(MAX_QUEUE), false, scratch);
    } else if search.coherent {
        // Every pair whose bound is below the answer is visited in any order, and the seed
        // is about the answer: depth first, as PQP, without the queue's upkeep.
        search.depth_first(Entry { d: f64::NEG_INFINITY, a: 0, b: 0 }, &mut scratch.stack);
    } else {
        search.best_first(DESCENT_QUEUE, true, scratch);
    }
}

/// The vertex of `m` farthest along `dir` (model coordinates) and its projection, found
/// depth first over the nodes whose boxes reach beyond the best vertex so far. Node visits
/// are added to `visits`.
fn support(m: &Model, dir: &Vec3, stack: &mut Vec<Entry>, visits: &mut u64) -> (f64, Vec3, usize) {
    let slots = m.collide_slots();
    let frame = m.packed_frame();
    // u·x for x = origin + unit·x_packed.
    let offset = dir.dot(&frame.origin);
    let (mut best, mut point, mut tri) = (f64::NEG_INFINITY, Vec3::zeros(), 0);
    // A box's reach along dir (packed units), grown by SLOP for its f32 axes.
    let reach = |n: &NodePair, lane: usize| -> f64 {
        let f = |k: usize, i: usize| n.frame[k][i].0[lane] as f64;
        let (mut r, mut sum) = (0.0, 0.0);
        for i in 0..3 {
            let h = n.half[i].0[lane] as f64;
            r += h * (dir.x * f(0, i) + dir.y * f(1, i) + dir.z * f(2, i)).abs();
            sum += h;
        }
        let c = dir.x * f(0, 3) + dir.y * f(1, 3) + dir.z * f(2, 3);
        offset + frame.unit * (c + r + SLOP * sum * dir.norm())
    };
    let base = stack.len();
    stack.push(Entry { d: f64::INFINITY, a: 0, b: 0 });
    while let Some(e) = stack.pop() {
        if e.d <= best {
            continue;
        }
        *visits += 1;
        let (slot, lane) = slot_of(e.a as usize);
        let n = &slots[slot];
        if n.is_leaf(lane) {
            let t = n.triangle(lane);
            for v in &m.triangles()[t] {
                let x = dir.dot(v);
                if x > best {
                    (best, point, tri) = (x, *v, t);
                }
            }
            continue;
        }
        let c = n.first_child(lane);
        let children = &slots[slot_of(c as usize).0];
        let (r0, r1) = (reach(children, 0), reach(children, 1));
        // The farther-reaching child is popped first.
        let (first, second) = if r0 >= r1 { ((r0, c), (r1, c + 1)) } else { ((r1, c + 1), (r0, c)) };
        stack.push(Entry { d: second.0, a: second.1, b: 0 });
        stack.push(Entry { d: first.0, a: first.1, b: 0 });
    }
    stack.truncate(base);
    (best, point, tri)
}

/// The distance between `m1` placed at `p1` and `m2` at `p2`, within the request's error
/// bounds, with a closest point on each model (each in its own model's frame). `cache` is
/// read as a warm start and updated with the closest pair.
///
/// Refused when a placement is not one ([`Placement::check`]), an error bound is negative,
/// NaN or infinite, or a coordinate would leave the supported range
/// ([`super::RANGE_LIMIT`]).
///
/// ```
/// use rapidpqp::{Placement, Vec3};
/// use rapidpqp::query::{DistanceCache, DistanceRequest, distance};
/// # fn cube() -> rapidpqp::Model {
/// #     let corners: Vec<rapidpqp::Vec3> = (0..8)
/// #         .map(|k| rapidpqp::Vec3::new((k >> 2 & 1) as f64, (k >> 1 & 1) as f64, (k & 1) as f64))
/// #         .collect();
/// #     let faces = [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
/// #                  [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]];
/// #     rapidpqp::Model::from_indexed(&corners, &faces).unwrap()
/// # }
/// # fn shifted(x: f64) -> rapidpqp::Placement {
/// #     rapidpqp::Placement { translation: rapidpqp::Vec3::new(x, 0.0, 0.0), ..rapidpqp::Placement::IDENTITY }
/// # }
/// let cube = cube(); // the unit cube [0, 1]³
/// let exact = DistanceRequest::default();
/// let d = distance(&cube, &Placement::IDENTITY, &cube, &shifted(3.0), &exact, None)?;
/// assert!((d.distance - 2.0).abs() < 1e-12);
/// assert!((d.p1.x - 1.0).abs() < 1e-12); // on model 1's face x = 1, in its own frame
/// assert!(d.p2.x.abs() < 1e-12); // on model 2's face x = 0, in its own frame
///
/// // Within 10%: any answer in [d, 1.1 d]. A cache warm-starts the next query.
/// let rough = DistanceRequest { rel_err: 0.1, ..exact };
/// let mut cache = DistanceCache::default();
/// let r = distance(&cube, &Placement::IDENTITY, &cube, &shifted(3.0), &rough, Some(&mut cache))?;
/// assert!(r.distance >= 2.0 - 1e-12 && r.distance <= 2.2);
/// # Ok::<(), rapidpqp::query::QueryError>(())
/// ```
pub fn distance(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    request: &DistanceRequest,
    cache: Option<&mut DistanceCache>,
) -> Result<DistanceResult, QueryError> {
    check_placements(p1, p2)?;
    let bound_ok = |x: f64| x >= 0.0 && x.is_finite();
    if !(bound_ok(request.rel_err) && bound_ok(request.abs_err)) {
        return Err(QueryError::InvalidArgument);
    }
    Ok(distance_placed(m1, p1, m2, p2, request, cache)?)
}

/// [`distance`] for placements and a request the caller has checked (the C layers, each with
/// its own rules): only the range is checked here.
pub(crate) fn distance_placed(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    request: &DistanceRequest,
    cache: Option<&mut DistanceCache>,
) -> Result<DistanceResult, RangeError> {
    distance_after(m1, p1, m2, p2, request, cache, None)
}

/// [`distance_placed`] for a caller that also keeps the distance the query that left the
/// warm start found (`previous`, world units): when the warm start's pair is still about that
/// close, the steps are coherent and the search goes depth first from it.
pub(crate) fn distance_after(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    request: &DistanceRequest,
    cache: Option<&mut DistanceCache>,
    previous: Option<f64>,
) -> Result<DistanceResult, RangeError> {
    let goal = Goal {
        qsize: request.qsize,
        warm_start: cache.as_ref().and_then(|c| c.last_pair),
        previous,
        stop_at: None,
        rel_err: request.rel_err.max(0.0),
        abs_err: request.abs_err.max(0.0),
    };
    let result = run(m1, p1, m2, p2, goal)?;
    if let Some(cache) = cache {
        cache.last_pair = result.closest_pair;
    }
    Ok(result)
}

/// Whether `m1` at `p1` and `m2` at `p2` are at most `tolerance` apart (a negative tolerance
/// counts as 0). Stops at the first triangle pair within the tolerance: when closer,
/// `distance` and the points are that pair's (at most the tolerance, not necessarily the
/// minimum); when not closer, `distance` is a lower bound of the true distance (greater than
/// the tolerance) and the points are NaN.
///
/// `cache` (shared with [`distance`]) is read as a warm start: when its pair is within the
/// tolerance the query is answered at once, which makes coherent queries (a simulator's
/// steps) cheap; it is updated with the pair found when closer.
///
/// Refused when a placement is not one ([`Placement::check`]), the tolerance is NaN, or a
/// coordinate would leave the supported range ([`super::RANGE_LIMIT`]).
///
/// ```
/// use rapidpqp::Placement;
/// use rapidpqp::query::tolerance;
/// # fn cube() -> rapidpqp::Model {
/// #     let corners: Vec<rapidpqp::Vec3> = (0..8)
/// #         .map(|k| rapidpqp::Vec3::new((k >> 2 & 1) as f64, (k >> 1 & 1) as f64, (k & 1) as f64))
/// #         .collect();
/// #     let faces = [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
/// #                  [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]];
/// #     rapidpqp::Model::from_indexed(&corners, &faces).unwrap()
/// # }
/// # fn shifted(x: f64) -> rapidpqp::Placement {
/// #     rapidpqp::Placement { translation: rapidpqp::Vec3::new(x, 0.0, 0.0), ..rapidpqp::Placement::IDENTITY }
/// # }
/// let cube = cube(); // the unit cube [0, 1]³; the copy at x = 1.5 is 0.5 away
/// let near = tolerance(&cube, &Placement::IDENTITY, &cube, &shifted(1.5), 0.6, 2, None)?;
/// assert!(near.closer && near.distance <= 0.6);
/// let far = tolerance(&cube, &Placement::IDENTITY, &cube, &shifted(1.5), 0.4, 2, None)?;
/// assert!(!far.closer && far.distance > 0.4 && far.p1.x.is_nan());
/// # Ok::<(), rapidpqp::query::QueryError>(())
/// ```
pub fn tolerance(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    tolerance: f64,
    qsize: usize,
    cache: Option<&mut DistanceCache>,
) -> Result<DistanceResult, QueryError> {
    check_placements(p1, p2)?;
    if tolerance.is_nan() {
        return Err(QueryError::InvalidArgument);
    }
    Ok(tolerance_placed(m1, p1, m2, p2, tolerance, qsize, cache)?)
}

/// [`tolerance`] for placements the caller has checked: only the range is checked here.
pub(crate) fn tolerance_placed(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    tolerance: f64,
    qsize: usize,
    cache: Option<&mut DistanceCache>,
) -> Result<DistanceResult, RangeError> {
    let warm_start = cache.as_ref().and_then(|c| c.last_pair);
    let goal =
        Goal { qsize, warm_start, previous: None, stop_at: Some(tolerance.max(0.0)), rel_err: 0.0, abs_err: 0.0 };
    let result = run(m1, p1, m2, p2, goal)?;
    if let (Some(cache), Some(pair)) = (cache, result.closest_pair) {
        cache.last_pair = Some(pair);
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::tri_distance::triangle_distance;
    use crate::test_rng::{Rng, budget};

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
                    let r = distance_placed(&ma, &pa, &mb, &pb, &request, Some(&mut cache)).unwrap();
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
                    let r = distance_placed(&ma, &pa, &mb, &pb, &DistanceRequest { rel_err, abs_err, qsize }, None)
                        .unwrap();
                    assert!(r.distance >= truth - tol);
                    assert!(r.distance <= truth + abs_err.min(rel_err * truth) + tol);
                    // Tolerance queries on both sides of the distance.
                    for t in [0.0, truth * 0.5, truth * 0.999, truth * 1.001, truth * 2.0, truth + 1.0] {
                        let r = tolerance_placed(&ma, &pa, &mb, &pb, t, qsize, None).unwrap();
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

    /// Coherent steps (a small motion each, the previous answer known): the search goes depth
    /// first from the warm start and still finds the brute-force minimum; a stale warm start
    /// (a distant pose's) is not taken for a coherent one.
    #[test]
    fn coherent_steps_agree_with_brute_force() {
        let mut rng = Rng(0x5eed_c0be_2e47_0001);
        let (mut coherent, mut steps) = (0, 0);
        for case in 0..6 {
            let (ma, ta) = model(&mut rng, 150, case % 2 == 0);
            let (mb, tb) = model(&mut rng, 100, case % 3 == 0);
            let pa = placement(&mut rng, case % 3 == 1);
            let (axis, start) = (rng.dir(), rng.vec(-1.0, 1.0) * 2.0 + Vec3::new(3.0, 0.0, 0.0));
            let (mut cache, mut previous) = (DistanceCache::default(), None);
            for k in 0..40 {
                let angle = 0.02 * k as f64;
                let pb = Placement {
                    rotation: *nalgebra::Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle)
                        .matrix(),
                    translation: start - Vec3::new(0.05 * k as f64, 0.0, 0.0),
                    scale: 1.0,
                };
                let goal =
                    Goal { qsize: 2, warm_start: cache.last_pair, previous, stop_at: None, rel_err: 0.0, abs_err: 0.0 };
                coherent += usize::from(prepare(&ma, &pa, &mb, &pb, goal).coherent);
                steps += 1;
                let r = distance_after(&ma, &pa, &mb, &pb, &DistanceRequest::default(), Some(&mut cache), previous)
                    .unwrap();
                let truth = brute_force(&ta, &pa, &tb, &pb);
                let tol = 1e-12 * (8.0 + pa.translation.amax() + pb.translation.amax());
                assert!((r.distance - truth).abs() <= tol, "case {case} step {k}: {} vs {truth}", r.distance);
                let apart = (pa.apply(&r.p1) - pb.apply(&r.p2)).norm();
                assert!((apart - r.distance).abs() <= tol);
                previous = Some(r.distance);
            }
            // A warm start left by a far pose, with its (small) distance: not coherent here.
            let far = Placement { translation: Vec3::new(40.0, 0.0, 0.0), ..pa };
            let goal = Goal {
                qsize: 2,
                warm_start: cache.last_pair,
                previous: Some(1e-3),
                stop_at: None,
                rel_err: 0.0,
                abs_err: 0.0,
            };
            assert!(!prepare(&ma, &pa, &mb, &far, goal).coherent);
        }
        assert!(coherent * 2 > steps, "{coherent} of {steps} steps coherent");
    }

    fn build(tris: &[Triangle]) -> Model {
        Model::new(tris.to_vec(), (0..tris.len() as i32).collect()).unwrap()
    }

    /// Every bound the search computes is at most the true distance between the triangles
    /// below the two nodes: checked over all node pairs of random model pairs, at many
    /// scales, offsets and distances.
    #[test]
    fn node_bounds_never_exceed_the_triangles_distance() {
        let mut rng = Rng(0xb0b5_1e55_d157_0002);
        let mut checked = 0u64;
        let mut tight = 0u64;
        for case in 0..budget(60, 6000) {
            let size = 10f64.powi(rng.below(13) as i32 - 6);
            // Every seventh case both models far below their coordinates (down to 1e-290 of
            // them: bounds from other frames or balls).
            let offset =
                rng.dir() * size * 10f64.powi(if case % 7 == 6 { rng.below(290) } else { rng.below(8) } as i32);
            let ta = rng.soup(24, case % 3, offset, size);
            // Every sixth case a model b of a wildly different size.
            let size_b =
                if case % 6 == 5 { size * 10f64.powi(rng.below(400) as i32 - 200) } else { size * rng.range(0.3, 3.0) };
            let mut tb = rng.soup(20, (case / 3) % 3, Vec3::zeros(), size_b);
            let pa = Placement { rotation: rng.rotation_mixed(), translation: rng.vec(-1.0, 1.0) * size, scale: 1.0 };
            let far = size * 10f64.powi(rng.below(10) as i32 - 1);
            let mut pb = Placement {
                rotation: rng.rotation_mixed(),
                translation: pa.translation + pa.rotation * offset + rng.dir() * far,
                scale: if case % 4 == 3 { rng.range(0.5, 2.0) } else { 1.0 },
            };
            if case % 5 == 4 {
                // Touching: at a's placement, b's triangles start at a vertex of a's and
                // leave it on the side of that triangle's normal, so that many node pairs
                // meet at a point or along a face of their boxes.
                for (t, s) in tb.iter_mut().zip(ta.iter().cycle()) {
                    let v = s[rng.below(3) as usize];
                    let n = (s[1] - s[0]).cross(&(s[2] - s[0]));
                    let up = if n.norm() > 0.0 { n.normalize() } else { rng.dir() } * size;
                    *t = [v, v + up * rng.unit() + rng.vec(-0.1, 0.1) * size, v + up * rng.unit()];
                }
                pb = pa;
            }
            let (ma, mb) = (build(&ta), build(&tb));
            let (c, t) = check_node_bounds(&ma, &pa, &mb, &pb, case);
            checked += c;
            tight += t;
        }
        assert!(checked > 100_000 && tight > checked / 4, "{checked} bounds, {tight} within half the distance");
    }

    /// The same with rotations accepted within the largest rotation tolerance (1e-2), far
    /// from the origin and from each other: every bound, in either model's frame, is at most
    /// the distance of the triangles as placed.
    #[test]
    fn node_bounds_hold_under_accepted_rotations() {
        let mut rng = Rng(0xb0b5_1e55_d157_0011);
        let mut checked = 0u64;
        for case in 0..budget(30, 3000) {
            let size = 10f64.powi(rng.below(7) as i32 - 3);
            let offset = rng.dir() * size * 10f64.powi(rng.below(10) as i32);
            let ta = rng.soup(24, case % 3, offset, size);
            let size_b = size * rng.range(0.3, 3.0);
            let tb = rng.soup(20, (case / 3) % 3, Vec3::zeros(), size_b);
            let deviated = |rng: &mut Rng, amount: f64| {
                rng.rotation() * (Mat3::identity() + Mat3::from_fn(|_, _| rng.range(-amount, amount)))
            };
            let amount = [2.5e-3, 3e-6, 1e-9, 1e-14][case % 4];
            let pa =
                Placement { rotation: deviated(&mut rng, amount), translation: rng.vec(-1.0, 1.0) * size, scale: 1.0 };
            let pb = Placement {
                rotation: deviated(&mut rng, amount),
                translation: pa.translation
                    + pa.rotation * offset
                    + rng.dir() * size * 10f64.powi(rng.below(4) as i32 - 1),
                scale: if case % 3 == 2 { rng.range(0.5, 2.0) } else { 1.0 },
            };
            checked += check_node_bounds(&build(&ta), &pa, &build(&tb), &pb, case).0;
        }
        assert!(checked > 10_000, "{checked} bounds");
    }

    /// Checks every node pair's bounds (through the search's own expansion of its parent
    /// pair) against brute force over the triangles below; (bounds checked, bounds within
    /// half the distance).
    fn check_node_bounds(ma: &Model, pa: &Placement, mb: &Model, pb: &Placement, case: usize) -> (u64, u64) {
        let rel = Relative::between(pa, pb);
        let world = |m: &Model, i: usize, rel: Option<&Relative>| -> Triangle {
            let t = m.triangles()[i];
            match rel {
                Some(r) => t.map(|p| r.apply(&p)),
                None => t,
            }
        };
        // Every node pair, through the search's own expansion of its parent pair.
        let (mut checked, mut tight) = (0, 0);
        let mut s = searcher(ma, pa, mb, pb);
        let below = |m: &Model, i: u32| -> Vec<usize> {
            let mut out = Vec::new();
            let mut stack = vec![i];
            while let Some(k) = stack.pop() {
                let (slot, lane) = slot_of(k as usize);
                let n = &m.collide_slots()[slot];
                if n.is_leaf(lane) {
                    out.push(n.triangle(lane));
                } else {
                    stack.extend([n.first_child(lane), n.first_child(lane) + 1]);
                }
            }
            out
        };
        let (na, nb) = (2 * ma.num_triangles() as u32 - 1, 2 * mb.num_triangles() as u32 - 1);
        for ia in 0..na {
            for ib in 0..nb {
                let (sa, la) = slot_of(ia as usize);
                let (sb, lb) = slot_of(ib as usize);
                if ma.collide_slots()[sa].is_leaf(la) && mb.collide_slots()[sb].is_leaf(lb) {
                    continue;
                }
                for (d, _, ca, cb) in s.expand(ia, ib) {
                    let mut truth = f64::INFINITY;
                    for x in below(ma, ca) {
                        for y in below(mb, cb) {
                            truth =
                                truth.min(triangle_distance(&world(ma, x, None), &world(mb, y, Some(&rel))).distance);
                        }
                    }
                    // The triangles' own rounding: a few ulps of the coordinates.
                    let slack = 1e-14 * (ma.magnitude() + rel.scale * mb.magnitude() + rel.translation.amax());
                    let d = d * s.base;
                    assert!(d <= truth + slack, "case {case}: bound {d} > distance {truth} (nodes {ca}, {cb})");
                    checked += 1;
                    tight += u64::from(d >= 0.5 * truth);
                }
            }
        }
        (checked, tight)
    }

    /// A search over two models at the given placements, for testing its parts.
    fn searcher<'a>(m1: &'a Model, p1: &Placement, m2: &'a Model, p2: &Placement) -> Search<'a> {
        prepare(
            m1,
            p1,
            m2,
            p2,
            Goal { qsize: 0, warm_start: None, previous: None, stop_at: None, rel_err: 0.0, abs_err: 0.0 },
        )
    }

    /// Distances far apart, at tiny and huge scales, with degenerate triangles: the exact
    /// minimum over all pairs, to the precision of the coordinates, and work bounded by the
    /// trees' sizes.
    #[test]
    fn distances_at_every_scale_agree_with_brute_force() {
        let mut rng = Rng(0x5ca1_ab1e_d157_0003);
        for case in 0..budget(300, 100_000) {
            // Every third case anywhere in the supported range (placed coordinates up to 2^1000).
            let size = if case % 3 == 2 {
                10f64.powi(rng.below(570) as i32 - 290)
            } else {
                10f64.powi(rng.below(17) as i32 - 8)
            };
            let offset = rng.dir() * size * 10f64.powi(rng.below(10) as i32);
            let ta = rng.soup(40, case % 3, offset, size);
            // Every fifth case pairs models of wildly different sizes (subnormal against unit
            // size among them).
            let size_b =
                if case % 5 == 4 { 10f64.powi(rng.below(600) as i32 - 320) } else { size * rng.range(0.3, 3.0) };
            let tb = rng.soup(30, (case / 3) % 3, Vec3::zeros(), size_b);
            let (ma, mb) = (build(&ta), build(&tb));
            let pa = Placement { rotation: rng.rotation_mixed(), translation: rng.vec(-1.0, 1.0) * size, scale: 1.0 };
            let far = size * 10f64.powi(rng.below(16) as i32 - 2);
            let pb = Placement {
                rotation: rng.rotation_mixed(),
                translation: pa.translation + pa.rotation * offset + rng.dir() * far,
                // Every seventh case far from a's scale (placement scales reach 1e±100).
                scale: if case % 7 == 6 {
                    10f64.powi(rng.below(200) as i32 - 100)
                } else if case % 4 == 3 {
                    rng.range(0.5, 2.0)
                } else {
                    1.0
                },
            };
            let coords =
                (pa.translation.amax() + pb.translation.amax() + offset.amax() + 4.0 * (size + pb.scale * size_b))
                    * 4.0;
            let Ok(r) = distance_placed(&ma, &pa, &mb, &pb, &DistanceRequest::default(), None) else {
                // Refused beyond the supported range (and only there).
                assert!(coords > 1e300, "case {case}: refused at {coords:e}");
                continue;
            };
            let truth = brute_force(&ta, &pa, &tb, &pb);
            assert!((r.distance - truth).abs() <= 1e-13 * coords, "case {case}: {} vs {truth}", r.distance);
            let pairs = (2 * ta.len() - 1) as u64 * (2 * tb.len() - 1) as u64;
            assert!(r.bv_tests <= 2 * pairs && r.tri_tests <= (ta.len() * tb.len()) as u64, "case {case}");
        }
    }

    fn torus(n: usize, m: usize) -> Vec<Triangle> {
        let v = |i: usize, j: usize| {
            let (u, w) =
                (std::f64::consts::TAU * (i % n) as f64 / n as f64, std::f64::consts::TAU * (j % m) as f64 / m as f64);
            Vec3::new((1.0 + 0.3 * w.cos()) * u.cos(), (1.0 + 0.3 * w.cos()) * u.sin(), 0.3 * w.sin())
        };
        (0..n)
            .flat_map(|i| {
                (0..m).flat_map(move |j| {
                    [[v(i, j), v(i + 1, j), v(i + 1, j + 1)], [v(i, j), v(i + 1, j + 1), v(i, j + 1)]]
                })
            })
            .collect()
    }

    /// Models far apart compared with their size: the right distance (brute force, to the
    /// precision of the coordinates), and work bounded by the trees' sizes, not by luck or by
    /// the rounding of the bounds, up to 1e100 times the models' size.
    #[test]
    fn far_apart_models_cost_what_their_size_needs() {
        let mut rng = Rng(0xfa4_a9a4_7d15_0005);
        let tris = torus(24, 12);
        let m = build(&tris);
        let nodes = 2 * (2 * tris.len() - 1) as u64;
        for exp in [0, 1, 3, 6, 9, 12, 15, 20, 50, 100] {
            let far = 10f64.powi(exp);
            for _ in 0..3 {
                let pa = Placement { rotation: rng.rotation(), translation: rng.vec(-1.0, 1.0), scale: 1.0 };
                let pb = Placement {
                    rotation: rng.rotation(),
                    translation: pa.translation + rng.dir() * (far + 3.0),
                    scale: 1.0,
                };
                let truth = brute_force(&tris, &pa, &tris, &pb);
                let r = distance_placed(&m, &pa, &m, &pb, &DistanceRequest::default(), None).unwrap();
                assert!((r.distance - truth).abs() <= 1e-13 * (far + 4.0), "1e{exp}: {} vs {truth}", r.distance);
                assert!(r.bv_tests <= nodes, "1e{exp}: {} bound tests for {nodes} nodes", r.bv_tests);
            }
        }
    }

    /// Whether collide finds a pair (the placements as given, unchecked).
    fn meet(ma: &Model, pa: &Placement, mb: &Model, pb: &Placement) -> bool {
        let mut result = crate::query::CollideResult::default();
        let request = crate::query::CollideRequest { first_contact: true, ..Default::default() };
        crate::query::collide::collide_placed(ma, pa, mb, pb, &request, &mut result).unwrap();
        !result.pairs.is_empty()
    }

    /// `(1 + e)·I`, a rotation within the rotation tolerance for `e` below it.
    fn stretched(e: f64) -> Mat3 {
        Mat3::identity() * (1.0 + e)
    }

    /// Issue 25 item 3: a rotation accepted within the rotation tolerance is used as given by
    /// every bound. A triangle pierces a long strip near its end, the strip placed with
    /// `(1 + e)·I`: collide finds them meeting, and so must distance (0, the same point) and
    /// tolerance at every search order. (The old bounds turned the strip's box as if the
    /// rotation were orthonormal, and said "not closer" with a lower bound of 0.005 at the
    /// default tolerance, 9.28 at 1e-2.)
    #[test]
    fn accepted_rotations_bound_the_distance_as_given() {
        let length = 1000.0;
        let strip: Vec<Triangle> = (0..200)
            .flat_map(|k| {
                let (x0, x1) = (length * k as f64 / 200.0, length * (k + 1) as f64 / 200.0);
                let v = |x: f64, y: f64| Vec3::new(x, y, 0.0);
                [[v(x0, 0.0), v(x1, 0.0), v(x1, 1.0)], [v(x0, 0.0), v(x1, 1.0), v(x0, 1.0)]]
            })
            .collect();
        let strip = build(&strip);
        for e in [4.9e-6f64, -4.9e-6, 2e-4, 9e-3, -9e-3] {
            // The strip's far end, as placed, is at x = length (1 + e); the triangle pierces
            // the strip just inside it.
            let x = length * (1.0 + e) - 0.1 * length * e.abs();
            let pierce = build(&[[Vec3::new(x, 0.5, -1.0), Vec3::new(x, 0.5, 1.0), Vec3::new(x - 1e-3, 0.6, 0.0)]]);
            let pierce2 = build(&[
                [Vec3::new(x, 0.5, -1.0), Vec3::new(x, 0.5, 1.0), Vec3::new(x - 1e-3, 0.6, 0.0)],
                [Vec3::new(x - 5.0, 5.0, 5.0), Vec3::new(x - 4.0, 5.0, 5.0), Vec3::new(x - 5.0, 6.0, 5.0)],
            ]);
            let placed = Placement { rotation: stretched(e), ..Placement::IDENTITY };
            // (The strip as model 1 too: its rotation is inverted as given, not transposed.)
            for (a, pa, b, pb) in [
                (&pierce, Placement::IDENTITY, &strip, placed),
                (&pierce2, Placement::IDENTITY, &strip, placed),
                (&strip, placed, &pierce2, Placement::IDENTITY),
                (&strip, placed, &pierce, Placement::IDENTITY),
            ] {
                let crossing = true;
                assert!(meet(a, &pa, b, &pb), "e {e}: collide finds the crossing");
                for qsize in [2, 3, 64] {
                    let d = distance_placed(a, &pa, b, &pb, &DistanceRequest { qsize, ..Default::default() }, None)
                        .unwrap();
                    assert_eq!(d.distance == 0.0, crossing, "e {e} qsize {qsize}: {}", d.distance);
                    if crossing {
                        let (w1, w2) = (pa.apply(&d.p1), pb.apply(&d.p2));
                        assert!((w1 - w2).norm() <= 1e-9, "e {e}: the same point ({w1} vs {w2})");
                    }
                    for t in [0.0, 1e-3] {
                        let r = tolerance_placed(a, &pa, b, &pb, t, qsize, None).unwrap();
                        if crossing {
                            assert!(r.closer, "e {e} qsize {qsize} tolerance {t}: lower bound {}", r.distance);
                        } else {
                            assert_eq!(r.closer, d.distance <= t, "e {e} qsize {qsize} tolerance {t}");
                        }
                    }
                }
            }
        }
    }

    /// Rotations within the largest rotation tolerance (1e-2): models stretched and sheared by
    /// them, model 1's too. Distance and tolerance against brute force over the triangles as
    /// the placements put them in the world (rotations as given), in either order, and collide.
    #[test]
    fn distances_under_accepted_rotations_agree_with_brute_force() {
        let mut rng = Rng(0xacce_97ed_d157_0009);
        let mut apart = 0;
        for case in 0..budget(80, 2000) {
            let (ma, ta) = model(&mut rng, 60, case % 2 == 0);
            let (mb, tb) = model(&mut rng, 50, case % 3 == 0);
            let deviated = |rng: &mut Rng| loop {
                let r = rng.rotation() * (Mat3::identity() + Mat3::from_fn(|_, _| rng.range(-2.5e-3, 2.5e-3)));
                let rows: [f64; 9] = std::array::from_fn(|k| r[(k / 3, k % 3)]);
                if crate::pose::is_rotation(&rows, crate::pose::MAX_ROTATION_TOLERANCE, false) {
                    break r;
                }
            };
            let pa = Placement {
                rotation: if case % 2 == 0 { deviated(&mut rng) } else { rng.rotation() },
                translation: rng.vec(-1.0, 1.0),
                scale: 1.0,
            };
            let pb = Placement {
                rotation: deviated(&mut rng),
                translation: pa.translation + rng.dir() * rng.range(1.0, 3.5),
                scale: if case % 5 == 4 { rng.range(0.5, 2.0) } else { 1.0 },
            };
            // The world as the placements put it, rotations as given.
            let truth = brute_force(&ta, &pa, &tb, &pb);
            apart += usize::from(truth > 0.0);
            assert_eq!(truth == 0.0, meet(&ma, &pa, &mb, &pb), "case {case}: collide");
            assert_eq!(truth == 0.0, meet(&mb, &pb, &ma, &pa), "case {case}: collide, swapped");
            let tol = 1e-12 * 8.0;
            for qsize in [2, 3, 16] {
                let r = distance_placed(&ma, &pa, &mb, &pb, &DistanceRequest { qsize, ..Default::default() }, None)
                    .unwrap();
                assert!((r.distance - truth).abs() <= tol, "case {case} qsize {qsize}: {} vs {truth}", r.distance);
                assert_eq!(r.distance == 0.0, truth == 0.0, "case {case}");
                let apart_w = (pa.apply(&r.p1) - pb.apply(&r.p2)).norm();
                assert!((apart_w - r.distance).abs() <= tol, "case {case}: points {apart_w} vs {}", r.distance);
                let swapped =
                    distance_placed(&mb, &pb, &ma, &pa, &DistanceRequest { qsize, ..Default::default() }, None)
                        .unwrap();
                assert!(
                    (swapped.distance - truth).abs() <= tol,
                    "case {case}: swapped {} vs {truth}",
                    swapped.distance
                );
                for t in [0.0, truth * 0.99, truth * 1.01] {
                    let r = tolerance_placed(&ma, &pa, &mb, &pb, t, qsize, None).unwrap();
                    assert_eq!(r.closer, truth <= t, "case {case} qsize {qsize} t {t} truth {truth}");
                    if !r.closer {
                        assert!(r.distance <= truth + tol, "case {case}: a lower bound {} > {truth}", r.distance);
                    }
                }
            }
        }
        assert!(apart > 20, "{apart} cases apart");
    }

    /// Issue 25 item 4: a near pair within the search's rounding slack must not hide a
    /// crossing pair. Two triangles of each model cross; another pair is `gap` apart, and is
    /// the warm start (or the first pair found). Distance is 0 with one point, as tolerance(0)
    /// and collide say; near 1.8e13 the old answer was the gap (0.36 there).
    #[test]
    fn a_near_pair_never_hides_a_crossing() {
        for (offset, gap) in [(0.0f64, 1e-14), (1.8e13, 0.25), (-3e5, 2e-11), (1e100, 1e84)] {
            let scale: f64 = if offset.abs() > 1e50 { 1e86 } else { 1.0 };
            let at = |x: f64, y: f64, z: f64| Vec3::new(offset + x * scale, y * scale, z * scale);
            let ta = vec![
                [at(0.0, 0.0, 0.0), at(1.0, 0.0, 0.0), at(0.0, 1.0, 0.0)],
                [at(5.0, -1.0, 0.0), at(7.0, -1.0, 0.0), at(6.0, 1.0, 0.0)],
            ];
            let tb = vec![
                [at(6.0, 0.0, -1.0), at(6.0, 0.0, 1.0), at(6.5, 0.3, 0.0)],
                ta[0].map(|p| p + Vec3::new(0.0, 0.0, gap)),
            ];
            let (ma, mb) = (build(&ta), build(&tb));
            let p = Placement::IDENTITY;
            assert!(meet(&ma, &p, &mb, &p));
            let leaf = |m: &Model, id: i32| m.ids().iter().position(|&i| i == id).unwrap() as u32;
            let near = (leaf(&ma, 0), leaf(&mb, 1));
            for warm in [None, Some(near)] {
                for qsize in [2, 3, 16] {
                    let mut cache = DistanceCache { last_pair: warm };
                    let request = DistanceRequest { qsize, ..Default::default() };
                    let r = distance_placed(&ma, &p, &mb, &p, &request, Some(&mut cache)).unwrap();
                    assert_eq!(r.distance, 0.0, "offset {offset} gap {gap} warm {warm:?} qsize {qsize}");
                    assert_eq!(r.p1, r.p2, "one point of the intersection");
                    let rel = DistanceRequest { rel_err: 0.5, qsize, ..Default::default() };
                    let r =
                        distance_placed(&ma, &p, &mb, &p, &rel, Some(&mut DistanceCache { last_pair: warm })).unwrap();
                    assert_eq!(r.distance, 0.0, "a relative error allows only 0");
                    let t =
                        tolerance_placed(&ma, &p, &mb, &p, 0.0, qsize, Some(&mut DistanceCache { last_pair: warm }))
                            .unwrap();
                    assert!(t.closer && t.distance == 0.0);
                }
            }
        }
    }

    /// distance is 0 exactly when tolerance(0) says closer and collide finds a pair: random
    /// soups touching, crossing and grazing, far from the origin and at every scale.
    #[test]
    fn distance_zero_tolerance_zero_and_collide_agree() {
        let mut rng = Rng(0x2e40_d157_c011_0010);
        let (mut met, mut missed) = (0, 0);
        for case in 0..budget(300, 20_000) {
            let size = 10f64.powi(rng.below(40) as i32 - 20);
            let offset = rng.dir() * size * 10f64.powi(rng.below(16) as i32);
            let ta = rng.soup(30, case % 3, offset, size);
            let mut tb = rng.soup(20, (case / 3) % 3, offset, size);
            // Every other case, one triangle of b a rounding unit or two off one of a's.
            if case % 2 == 0 {
                let k = rng.below(ta.len() as u64) as usize;
                let n = (ta[k][1] - ta[k][0]).cross(&(ta[k][2] - ta[k][0]));
                let up = if n.norm() > 0.0 { n.normalize() } else { rng.dir() };
                let ulps = (offset.amax() + 4.0 * size) * f64::EPSILON * rng.range(0.0, 40.0);
                tb[0] = ta[k].map(|p| p + up * ulps);
            }
            let (ma, mb) = (build(&ta), build(&tb));
            let pa = Placement { rotation: rng.rotation_mixed(), translation: rng.vec(-1.0, 1.0) * size, scale: 1.0 };
            let pb = pa;
            let met_now = meet(&ma, &pa, &mb, &pb);
            for qsize in [2, 16] {
                let d = distance_placed(&ma, &pa, &mb, &pb, &DistanceRequest { qsize, ..Default::default() }, None)
                    .unwrap();
                let t = tolerance_placed(&ma, &pa, &mb, &pb, 0.0, qsize, None).unwrap();
                assert_eq!(d.distance == 0.0, met_now, "case {case} qsize {qsize}: distance {}", d.distance);
                assert_eq!(t.closer, met_now, "case {case} qsize {qsize}: tolerance(0)");
            }
            if met_now { met += 1 } else { missed += 1 }
        }
        assert!(met > 20 && missed > 50, "{met} meeting, {missed} apart");
    }
}
