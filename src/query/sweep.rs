//! Translational sweep: the first time of contact of a model moving along a straight line
//! against a static one.
//!
//! Model 1 moves by the world translation `s·direction` for `s` in `[0, s_max]` (its rotation
//! fixed); model 2 stays. [`sweep`] returns the least `s` at which the two closed triangle sets
//! touch, with the touching triangle pair and the contact point, or that they stay apart.
//! [`sweep_last_contact`] is the same sweep run backwards: the largest `s` at which they still
//! touch (what separating two overlapping models along a direction needs).
//!
//! The search runs in model 2's packed frame. It visits pairs of nodes best first on their
//! entry time: the first time at which model 1's box, moving along the direction, may overlap
//! model 2's box, bounded by separating axes on which the overlap is an interval of times (the
//! 6 box axes and the 6 directions across the motion, see `entry_time`). A pair of leaves
//! is tested exactly ([`triangle_sweep`](crate::geometry::tri_sweep::triangle_sweep)); the search stops when no pair left can enter before
//! the best contact found. Optionally ([`SweepRequest::cylinder_cull`]) model 2's nodes are
//! first culled against the directional cylinder that holds model 1's whole sweep (Geng and
//! Gao's broad phase for assembly planning).
//!
//! Precision: triangles are placed in model 2's frame as the other queries place them (one
//! rounding per coordinate); on those triangles the answer has the contract of
//! [`triangle_sweep`](crate::geometry::tri_sweep::triangle_sweep): never later than the exact first contact, and at the returned `s` the
//! touching pair is within [`contact_tolerance`] (`2^-44` of the coordinates' magnitude,
//! motion included) of touching.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::distance::{FrameMap, Kept, SLOP};
use super::{QueryError, Relative, check_placements};
use crate::geometry::predicates::{log2_floor, times_pow2};
use crate::geometry::tri_sweep::{TriSweep, triangle_sweep_before};
#[cfg(test)]
use crate::math::Mat3;
use crate::math::{Placement, Vec3, length};
use crate::model::{Model, slot_of};

#[allow(unused_imports)] // (for the documentation links)
use crate::geometry::tri_sweep::contact_tolerance;

/// What a sweep should do. The default (zero direction, `s_max = 0`, no cylinder) asks
/// whether the models touch where they are.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SweepRequest {
    /// World translation of model 1 per unit of `s`: model 1 sits at its placement moved by
    /// `s·direction`. Any finite vector, not necessarily unit (`s` is then in units of its
    /// length); zero only with `s_max = 0`.
    pub direction: Vec3,
    /// The sweep covers `s` in `[0, s_max]`; finite, at least 0.
    pub s_max: f64,
    /// Cull model 2's nodes against the directional cylinder around model 1's sweep before the
    /// box tests (the paper's broad phase; the answer is the same, the work differs).
    pub cylinder_cull: bool,
}

/// Where a sweep first touches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepContact {
    /// The time of contact: model 1 moved by `s·direction` touches model 2.
    pub s: f64,
    /// Leaf-order indices of the touching triangles (model 1, model 2).
    pub pair: (u32, u32),
    /// Their ids.
    pub ids: (i32, i32),
    /// The contact point in the world: a point of model 2's triangle within the tolerance of
    /// model 1's moved triangle.
    pub point: Vec3,
    /// The touching point of model 1 in model 1's own frame (in the world at
    /// `p1.apply(point1) + s·direction`).
    pub point1: Vec3,
    /// The contact point in model 2's own frame.
    pub point2: Vec3,
}

/// Result of a sweep.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SweepResult {
    /// The first contact, `None` when the models stay apart over `[0, s_max]`.
    pub contact: Option<SweepContact>,
    /// Bounding-volume tests (box pairs, and cylinder tests when culling).
    pub bv_tests: u64,
    /// Triangle-pair sweeps.
    pub tri_tests: u64,
}

/// The first contact of model 1 (placed at `p1`) moving by `s·direction`, `s` in
/// `[0, s_max]`, against model 2 (placed at `p2`). See the module documentation.
///
/// Refused (nothing computed): placements as for the other queries ([`Placement::check`],
/// [`QueryError::NonFinite`] …), a direction that is not finite ([`QueryError::NonFinite`]),
/// an `s_max` that is negative, NaN or infinite, or a zero direction with `s_max > 0`
/// ([`QueryError::InvalidArgument`]), coordinates beyond the range, the sweep's included
/// ([`QueryError::OutOfRange`]).
///
/// ```
/// use rapidpqp::{Placement, Vec3};
/// use rapidpqp::query::{SweepRequest, sweep};
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
/// let cube = cube(); // the unit cube [0, 1]³; a copy waits at x = 3, 2 away
/// let request = SweepRequest { direction: Vec3::x(), s_max: 5.0, cylinder_cull: false };
/// let result = sweep(&cube, &Placement::IDENTITY, &cube, &shifted(3.0), &request)?;
/// let contact = result.contact.expect("moving along +x, it meets the copy");
/// assert!((contact.s - 2.0).abs() < 1e-9 && contact.s <= 2.0); // never later than exact
/// // Moving away along −x: no contact.
/// let back = SweepRequest { direction: -Vec3::x(), ..request };
/// assert!(sweep(&cube, &Placement::IDENTITY, &cube, &shifted(3.0), &back)?.contact.is_none());
/// # Ok::<(), rapidpqp::query::QueryError>(())
/// ```
pub fn sweep(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    request: &SweepRequest,
) -> Result<SweepResult, QueryError> {
    check_placements(p1, p2)?;
    check_request(request)?;
    Ok(Search::new(m1, p1, m2, p2, request, false)?.run())
}

/// The largest `s` in `[0, s_max]` at which model 1 moved by `s·direction` still touches
/// model 2, `None` when it touches for no `s` in it. It is the first contact of the sweep
/// that starts at `s_max` and runs backwards (model 1 placed at `p1` moved by
/// `s_max·direction`, moving along `−direction`): `s = s_max − s'` for that sweep's `s'`, with
/// its contract mirrored (never earlier than the exact last contact, up to the rounding of
/// the moved placement). Refused as [`sweep`]; `bv_tests` and `tri_tests` are the backward
/// sweep's.
pub fn sweep_last_contact(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    request: &SweepRequest,
) -> Result<SweepResult, QueryError> {
    check_placements(p1, p2)?;
    check_request(request)?;
    if !(p1.translation + request.direction * request.s_max).iter().all(|x| x.is_finite()) {
        return Err(QueryError::OutOfRange);
    }
    Ok(Search::new(m1, p1, m2, p2, request, true)?.run())
}

/// What [`sweep`] refuses in a request: a direction that is not finite
/// ([`QueryError::NonFinite`]), a bad `s_max` ([`check_s_max`]), a zero direction with
/// `s_max > 0` ([`QueryError::InvalidArgument`]).
pub(crate) fn check_request(r: &SweepRequest) -> Result<(), QueryError> {
    if !r.direction.iter().all(|x| x.is_finite()) {
        return Err(QueryError::NonFinite);
    }
    check_s_max(r.s_max)?;
    if r.direction == Vec3::zeros() && r.s_max > 0.0 {
        return Err(QueryError::InvalidArgument);
    }
    Ok(())
}

/// A sweep's `s_max` must be finite and at least 0 ([`QueryError::InvalidArgument`]).
pub(crate) fn check_s_max(s_max: f64) -> Result<(), QueryError> {
    if s_max >= 0.0 && s_max.is_finite() { Ok(()) } else { Err(QueryError::InvalidArgument) }
}

/// The largest packed coordinate the box tests compute with: products of two stay finite.
const FRAME_REACH: f64 = 8.452712498170644e270; // 2^900

/// A node pair waiting in the queue, least entry time first.
#[derive(Clone, Copy, PartialEq)]
struct Pending {
    entry: f64,
    a: u32,
    b: u32,
}

impl Eq for Pending {}

impl Ord for Pending {
    fn cmp(&self, o: &Self) -> Ordering {
        o.entry.total_cmp(&self.entry).then((o.a, o.b).cmp(&(self.a, self.b)))
    }
}

impl PartialOrd for Pending {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Geng and Gao's directional cylinder: the part's points projected on the axis through their
/// centroid along the (unit) direction of motion give `[t0, t1]`, the motion extends it to
/// `t1 + travel`, and the radius is the largest distance of a point from the axis. Everything
/// the part sweeps lies inside it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DirectionalCylinder {
    /// A point of the axis: the centroid of the part's points.
    pub origin: Vec3,
    /// Unit axis (the direction of motion).
    pub axis: Vec3,
    /// Start of the axial range (in units along `axis` from `origin`).
    pub t0: f64,
    /// End of the axial range, motion included.
    pub t1: f64,
    /// The largest distance of a point of the part from the axis.
    pub radius: f64,
}

impl DirectionalCylinder {
    /// The cylinder around `points` moving by up to `travel` along the unit `axis`, widened by
    /// `pad` on every side and by a relative `1e-12` for the rounding of its own sums.
    pub fn around(
        points: impl Iterator<Item = Vec3> + Clone,
        axis: Vec3,
        travel: f64,
        pad: f64,
    ) -> DirectionalCylinder {
        let (sum, n) = points.clone().fold((Vec3::zeros(), 0usize), |(s, n), p| (s + p, n + 1));
        let origin = sum / n.max(1) as f64;
        let (mut t0, mut t1, mut r) = (f64::INFINITY, f64::NEG_INFINITY, 0.0f64);
        for p in points {
            let w = p - origin;
            let t = w.dot(&axis);
            t0 = t0.min(t);
            t1 = t1.max(t);
            // (Lengths without squares: no underflow or overflow at any scale.)
            r = r.max(length(&(w - axis * t)));
        }
        DirectionalCylinder {
            origin,
            axis,
            t0: t0 - pad - 1e-12 * t0.abs(),
            t1: (t1 + travel) * (1.0 + 1e-12) + pad,
            radius: r * (1.0 + 1e-12) + pad,
        }
    }

    /// Whether the ball of `radius` about `centre` may meet the cylinder (conservative).
    pub fn meets_ball(&self, centre: &Vec3, radius: f64) -> bool {
        let w = centre - self.origin;
        let t = w.dot(&self.axis);
        if t < self.t0 - radius || t > self.t1 + radius {
            return false;
        }
        length(&(w - self.axis * t)) <= (self.radius + radius) * (1.0 + 1e-12)
    }
}

struct Search<'a> {
    a: &'a Model,
    b: &'a Model,
    /// Model 1's model frame in model 2's …
    rel: Relative,
    /// … and in model 2's scaled by `2^-e`, for model 1's coordinates scaled by `2^-e`
    /// (both where the search starts).
    rel_scaled: Relative,
    /// Model 1's packed frame in model 2's, and model 2's own.
    a_map: FrameMap,
    b_map: FrameMap,
    /// The direction in model 2's model frame scaled by `2^-e` (|v|∞ in [1, 2)), per unit
    /// of the internal `s` (see `s_exp`).
    v: Vec3,
    /// The scaled frame: model 2's coordinates times `2^-e` are below 2 in magnitude.
    e: i32,
    /// Unit direction and its length per unit of internal `s`, in model 2's packed units.
    v_unit: Vec3,
    v_len: f64,
    /// Internal `s` times `2^s_exp` is the caller's `s`.
    s_exp: i32,
    /// A backward search (the last contact): it starts at this internal `s` and runs back, so
    /// that its time `s'` is the caller's `back_from − s'`.
    back_from: Option<f64>,
    /// The sweep's end (internal `s`), cut to the times at which contact is possible …
    s_end: f64,
    /// … which are at most this (the pairs are swept to it, whatever `s_max`).
    s_reach: f64,
    /// Rounding allowance of packed coordinates (model 2's packed units).
    margin: f64,
    /// Whether the packed coordinates stay below `FRAME_REACH` (otherwise no box prunes).
    fits: bool,
    cylinder: Option<DirectionalCylinder>,
    best: Option<(TriSweep, u32, u32)>,
    bv_tests: u64,
    tri_tests: u64,
    p2: Placement,
}

impl<'a> Search<'a> {
    /// The search for `request`'s first contact (`backward`: for its last contact, as the
    /// first contact of the sweep from `s_max` back to 0).
    fn new(
        m1: &'a Model,
        p1: &Placement,
        m2: &'a Model,
        p2: &Placement,
        request: &SweepRequest,
        backward: bool,
    ) -> Result<Search<'a>, QueryError> {
        let rel = Relative::between(p2, p1);
        // Model 1's placement where the search starts (for the range check and the scale of
        // the frame: its rounding does not matter there).
        let start = if backward {
            let moved = Placement { translation: p1.translation + request.direction * request.s_max, ..*p1 };
            Relative::between(p2, &moved)
        } else {
            rel
        };
        rel.check_range(m2, m1)?;
        start.check_range(m2, m1)?;
        // Every coordinate the query computes with (model 2's units), motion excluded.
        let norm = (0..3).map(|k| rel.rotation.row(k).abs().sum()).fold(0.0, f64::max);
        let placed_a = rel.scale * norm * m1.magnitude() + rel.translation.amax().max(start.translation.amax());
        let coords = m2.magnitude() + placed_a;
        // The sweep runs in model 2's frame scaled by 2^-e, |coordinates| < 2, so that it
        // computes the same numbers at every scale (powers of two are exact): the triangles
        // are scaled as they are tested, the direction is scaled to |v|∞ in [1, 2) and the
        // internal time to match (caller's s = internal s · 2^s_exp).
        let e = if coords > 0.0 { log2_floor(coords) } else { 0 };
        let vm = request.direction.amax();
        let k1 = if vm > 0.0 { log2_floor(vm) } else { 0 };
        let v1 = p2.rotation.transpose() * request.direction.map(|x| times_pow2(x, -k1)) / p2.scale;
        let k2 = if vm > 0.0 { -log2_floor(v1.amax()) } else { 0 };
        let forward = v1.map(|x| times_pow2(x, k2));
        // Model 1's displacement at caller's s: s·v1·2^k1 (model units) = s·v·2^(k1 − k2 − e)
        // (scaled units).
        let s_exp = e + k2 - k1;
        let s_max = times_pow2(request.s_max, -s_exp);
        if !(forward.iter().all(|x| x.is_finite()) && s_max.is_finite()) {
            return Err(QueryError::OutOfRange);
        }
        // Model 1 in the scaled frame where the search starts: at `p1`, or moved by s_max (in
        // the scaled frame, so that no rounding of tiny coordinates moves it).
        let mut rel_scaled = Relative { translation: rel.translation.map(|x| times_pow2(x, -e)), ..rel };
        let v = if backward {
            rel_scaled.translation += forward * s_max;
            -forward
        } else {
            forward
        };
        let rel = Relative { translation: rel_scaled.translation.map(|x| times_pow2(x, e)), ..rel };
        // A contact needs |s·v|∞ ≤ the two models' reach (below 2 in scaled units: taken as 4,
        // so that rounding of the reach itself changes nothing).
        let scaled_coords = times_pow2(coords, -e);
        let s_reach = if vm > 0.0 { 4.0 / v.amax() } else { 0.0 };
        let s_end = s_max.min(s_reach);
        let (fa, fb) = (m1.packed_frame(), m2.packed_frame());
        let rows: [[f64; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| rel.rotation[(i, j)]));
        let identity = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let a_map = FrameMap::between(fa, fb, &rows, rel.scale, &rel.translation);
        let b_map = FrameMap::between(fb, fb, &identity, 1.0, &Vec3::zeros());
        // The direction in packed units of model 2 (a power of two apart from scaled units).
        let unit_exp = log2_floor(fb.unit);
        let v_packed = v.map(|x| times_pow2(x, e - unit_exp));
        let v_len = length(&v_packed);
        let v_unit = if v_len > 0.0 { v_packed / v_len } else { Vec3::zeros() };
        let reach = times_pow2(scaled_coords + s_end * v.amax(), e - unit_exp);
        let fits = reach < FRAME_REACH && v_len.is_finite() && (v_len == 0.0 || v_len.is_normal());
        // Rounding of the packed coordinates: relative, and absolute for the subnormal range
        // (placed coordinates of tiny models round there; model 2's unit is at least 2^-1000).
        let margin = 16.0 * f64::EPSILON * reach + times_pow2(64.0 * f64::from_bits(1), -unit_exp) + 1e-300;
        let mut search = Search {
            a: m1,
            b: m2,
            rel,
            rel_scaled,
            a_map,
            b_map,
            v,
            e,
            v_unit,
            v_len,
            s_exp,
            s_end,
            s_reach,
            back_from: backward.then_some(s_max),
            margin,
            fits,
            cylinder: None,
            best: None,
            bv_tests: 0,
            tri_tests: 0,
            p2: *p2,
        };
        if request.cylinder_cull && fits && v_len > 0.0 {
            search.cylinder = Some(search.cylinder());
        }
        Ok(search)
    }

    /// The paper's directional cylinder around model 1's vertices and its motion, in model 2's
    /// packed frame (widened by the rounding allowance).
    fn cylinder(&self) -> DirectionalCylinder {
        let fb = self.b.packed_frame();
        let to_packed = |x: &Vec3| (self.rel.apply(x) - fb.origin) / fb.unit;
        // Placed once: `around` walks the points twice (centroid, then extents).
        let points: Vec<Vec3> = self.a.triangles().iter().flatten().map(to_packed).collect();
        DirectionalCylinder::around(points.iter().copied(), self.v_unit, self.s_end * self.v_len, 4.0 * self.margin)
    }

    /// Whether node `kb` of model 2 may meet the cylinder (its box's circumscribed ball does).
    fn in_cylinder(&mut self, kb: &Kept) -> bool {
        let Some(c) = &self.cylinder else { return true };
        self.bv_tests += 1;
        let h = kb.half;
        let rad = (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]).sqrt() * (1.0 + SLOP) + self.margin;
        c.meets_ball(&Vec3::from(kb.center), rad)
    }

    fn place_a(&self, node: u32) -> Kept {
        let (slot, lane) = slot_of(node as usize);
        self.a_map.place(&self.a.collide_slots()[slot], lane)
    }

    fn place_b(&self, node: u32) -> Kept {
        let (slot, lane) = slot_of(node as usize);
        self.b_map.place(&self.b.collide_slots()[slot], lane)
    }

    /// The least internal `s` at which `ka` moving along the direction may overlap `kb`, if
    /// any before `bound` (see [`entry_time`]).
    fn entry(&mut self, ka: &Kept, kb: &Kept, bound: f64) -> Option<f64> {
        self.bv_tests += 1;
        if !self.fits {
            return Some(0.0);
        }
        let t = entry_time(ka, kb, &self.v_unit, bound * self.v_len * (1.0 + 1e-12), self.margin)?;
        if self.v_len == 0.0 {
            return Some(0.0); // (a static test: the boxes overlap)
        }
        // Back to s, rounded down.
        Some((t / self.v_len * (1.0 - 4.0 * f64::EPSILON)).min(bound))
    }

    /// The best contact so far bounds what is worth visiting.
    fn bound(&self) -> f64 {
        self.best.map_or(self.s_end, |(hit, _, _)| hit.s)
    }

    fn worth(&self, entry: f64) -> bool {
        match self.best {
            Some((hit, _, _)) => entry < hit.s,
            None => entry <= self.s_end,
        }
    }

    fn run(mut self) -> SweepResult {
        let mut queue = BinaryHeap::new();
        let (ra, rb) = (self.place_a(0), self.place_b(0));
        if self.in_cylinder(&rb)
            && let Some(entry) = self.entry(&ra, &rb, self.s_end)
        {
            queue.push(Pending { entry, a: 0, b: 0 });
        }
        while let Some(p) = queue.pop() {
            if !self.worth(p.entry) {
                break;
            }
            let (sa, la) = slot_of(p.a as usize);
            let (sb, lb) = slot_of(p.b as usize);
            let (na, nb) = (&self.a.collide_slots()[sa], &self.b.collide_slots()[sb]);
            let (leaf_a, leaf_b) = (na.is_leaf(la), nb.is_leaf(lb));
            if leaf_a && leaf_b {
                self.leaves(na.triangle(la) as u32, nb.triangle(lb) as u32);
                continue;
            }
            let (ka, kb) = (self.place_a(p.a), self.place_b(p.b));
            let size = |k: &Kept| k.half[0].max(k.half[1]).max(k.half[2]);
            let split_a = leaf_b || (!leaf_a && size(&ka) > size(&kb));
            if split_a {
                let c = na.first_child(la);
                for child in [c, c + 1] {
                    let kc = self.place_a(child);
                    if let Some(entry) = self.entry(&kc, &kb, self.bound())
                        && self.worth(entry)
                    {
                        queue.push(Pending { entry, a: child, b: p.b });
                    }
                }
            } else {
                let c = nb.first_child(lb);
                for child in [c, c + 1] {
                    let kc = self.place_b(child);
                    if !self.in_cylinder(&kc) {
                        continue;
                    }
                    if let Some(entry) = self.entry(&ka, &kc, self.bound())
                        && self.worth(entry)
                    {
                        queue.push(Pending { entry, a: p.a, b: child });
                    }
                }
            }
        }
        self.finish()
    }

    /// The exact sweep of triangle `ta` of model 1 against `tb` of model 2.
    fn leaves(&mut self, ta: u32, tb: u32) {
        self.tri_tests += 1;
        let down = |p: Vec3| p.map(|x| times_pow2(x, -self.e));
        // (Placed from model 1's own coordinates scaled: no rounding of tiny ones.)
        let a = self.a.triangles()[ta as usize].map(|p| self.rel_scaled.apply(&down(p)));
        let b = self.b.triangles()[tb as usize].map(down);
        // (On the whole of the times at which contact is possible, cut at the best contact or
        // the sweep's end: the pair's contact depends neither on the order the pairs are
        // tested in nor on s_max.)
        if let Some(hit) = triangle_sweep_before(&a, &b, &self.v, self.s_reach, self.bound())
            && self.best.is_none_or(|(best, _, _)| hit.s < best.s)
        {
            self.best = Some((hit, ta, tb));
        }
    }

    fn finish(self) -> SweepResult {
        let contact = self.best.map(|(hit, ta, tb)| {
            let up = |p: Vec3| p.map(|x| times_pow2(x, self.e));
            let q = up(hit.q);
            let point = self.p2.apply(&q);
            // Model 1's touching point where the search started, in model 1's own frame.
            let r = &self.rel_scaled;
            let start = r.rotation.transpose() * (hit.p - self.v * hit.s - r.translation) / r.scale;
            let s = match self.back_from {
                Some(from) => (from - hit.s).max(0.0),
                None => hit.s,
            };
            SweepContact {
                s: times_pow2(s, self.s_exp),
                pair: (ta, tb),
                ids: (self.a.ids()[ta as usize], self.b.ids()[tb as usize]),
                point,
                point1: up(start),
                point2: q,
            }
        });
        SweepResult { contact, bv_tests: self.bv_tests, tri_tests: self.tri_tests }
    }
}

/// The least `t ≥ 0` (length along the unit direction `u`, packed units) at which box `a`
/// moved by `t·u` may overlap box `b`, `None` when not before `t_max`.
///
/// On any axis `L` the projections of the moved box and of `b` overlap for `t` in an interval
/// (`|L·(c_b − c_a) − t·L·u| ≤ r_a + r_b`), and the boxes can overlap only when they overlap
/// on every axis: the entry time is at least the latest of the intervals' starts. The axes:
/// the boxes' 6 axes and the 6 directions `u × axis` across the motion (on which the
/// projections do not move: the box test of the swept box). Radii grow by `SLOP` (the stored
/// axes are orthonormal only to about 1e-7) and `margin` (the rounding of the coordinates), and
/// each interval by the rounding of `L·u` over `t_max`.
fn entry_time(a: &Kept, b: &Kept, u: &Vec3, t_max: f64, margin: f64) -> Option<f64> {
    let axes = |k: &Kept| k.axes.map(Vec3::from);
    let (xa, xb) = (axes(a), axes(b));
    let d = Vec3::from(b.center) - Vec3::from(a.center);
    let slop = SLOP * (a.half_sum + b.half_sum) + 2.0 * margin;
    // The projections shared by the axes: r[i][j] = |a_i · b_j|, and u on each axis.
    let r: [[f64; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| xa[i].dot(&xb[j]).abs()));
    let (ua, ub) = (xa.map(|x| x.dot(u)), xb.map(|x| x.dot(u)));
    let (ha, hb) = (&a.half, &b.half);
    let (mut lo, mut hi) = (0.0f64, t_max);
    // One axis of length at most `len` along which the gap is `c`, the reach `reach` and the
    // rate `w`: false when the boxes cannot overlap.
    let mut axis = |c: f64, reach: f64, w: f64, len: f64| {
        let reach = (reach + slop * len) * (1.0 + 1e-12) + 4.0 * f64::EPSILON * len * t_max;
        let (g0, g1) = (c - reach, c + reach);
        let (t0, t1) = if w > 0.0 {
            (g0 / w, g1 / w)
        } else if w < 0.0 {
            (g1 / w, g0 / w)
        } else {
            // Not moving along this axis: overlapping for all times or none.
            return g0 <= 0.0 && g1 >= 0.0;
        };
        lo = lo.max(t0 - t0.abs() * 4.0 * f64::EPSILON);
        hi = hi.min(t1 + t1.abs() * 4.0 * f64::EPSILON);
        lo <= hi
    };
    // Across the motion first (static: they cull the pairs off the path for good), then the
    // box axes. For l = u × a_i, |l · a_j| = |u · (a_i × a_j)| = |u · a_k| for orthonormal
    // axes; the stored ones are orthonormal to about 1e-7, which `SLOP` covers.
    for (x, h, uu, other, oh) in [(&xa, ha, &ua, &xb, hb), (&xb, hb, &ub, &xa, ha)] {
        for (i, xi) in x.iter().enumerate() {
            let l = u.cross(xi);
            let (j, k) = ((i + 1) % 3, (i + 2) % 3);
            let own = h[j] * uu[k].abs() + h[k] * uu[j].abs();
            let across =
                oh[0] * l.dot(&other[0]).abs() + oh[1] * l.dot(&other[1]).abs() + oh[2] * l.dot(&other[2]).abs();
            if !axis(l.dot(&d), own + across, l.dot(u), 1.0) {
                return None;
            }
        }
    }
    for i in 0..3 {
        let across = hb[0] * r[i][0] + hb[1] * r[i][1] + hb[2] * r[i][2];
        if !axis(xa[i].dot(&d), ha[i] + across, ua[i], 1.0) {
            return None;
        }
        let across = ha[0] * r[0][i] + ha[1] * r[1][i] + ha[2] * r[2][i];
        if !axis(xb[i].dot(&d), hb[i] + across, ub[i], 1.0) {
            return None;
        }
    }
    Some(lo)
}

#[cfg(test)]
mod tests;
