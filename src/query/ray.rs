//! Ray casts on one model, in the model's frame: the first hit, any hit (occlusion), and every
//! hit along a segment, one at a time or batched.
//!
//! # Exactness contract
//!
//! * **Which triangles are hit is exact.** A query runs on a segment whose two endpoints are
//!   doubles: [`segment_hits`] on the given `a → b`; a ray `o + t·d`, `t ∈ [0, t_max]`, on
//!   `o → e` with `e` the double nearest to `o + t_max·d` (after rounding `t_max·d`), or, when
//!   `t_max` is infinite or reaches beyond the model's bounding box, `e = o + S·d` rounded, for
//!   the power of two `S` (times the power of two that scales `d`, exactly) that takes the
//!   point well beyond the box. Whether that closed segment meets each closed triangle — edges
//!   and vertices included, zero-area triangles as the segment or point they are, a segment
//!   lying in a triangle's plane — is decided by exact predicates
//!   ([`crate::geometry::segment_triangle`]). So a ray through a vertex or an edge shared by
//!   several triangles hits all of them: no hit is ever missed between two triangles. Only
//!   the far endpoint's rounding separates the segment from the mathematical ray (it changes
//!   the direction by about one rounding unit of `|e|/|e − o|`).
//! * **The tree never prunes a box the segment touches.** Each node's packed `f32` box is the
//!   set of points within the slabs `|a_i·(x − c)| ≤ h_i` along its stored axes (which are not
//!   quite orthonormal: the slabs are used as they are, so that does not matter), and the
//!   segment is tested against the slabs with a rounding allowance (see
//!   `PackedSegment::enter`).
//! * **Where and when are floating point.** `t`, the point and the barycentric coordinates are
//!   computed in double precision from the plane equation and the crossing point's edge
//!   volumes ([`crate::geometry::segment_triangle::hit_location`]): for a ray crossing a plane at
//!   angle `θ`, `t` is accurate to a few rounding units of the coordinates' magnitudes divided
//!   by `|d| sin θ` (rays grazing a plane get a less accurate `t`, never a missed hit). The
//!   segment parameter `u ∈ [0, 1]` of each hit is raised to the lower bound the boxes above
//!   its leaf give (a true lower bound, so this only ever improves it), which makes the
//!   first hit exactly the least `u` (ties: the least leaf index) of all hits, as
//!   [`segment_hits`] reports them, whatever order the tree is searched in. `t = u · T` with `T`
//!   the ray parameter of `e`; the point is the barycentric combination of the triangle's
//!   corners (on the triangle up to rounding).
//!
//! # Range
//!
//! Origins, directions and segment endpoints must be finite and within
//! [`super::RANGE_LIMIT`] (2^1000); a direction must not be zero, and `t_max` not NaN or
//! negative. A ray whose parameter `t` at the model's box would not be a finite double (a
//! direction tiny against the distance to the model) is refused as out of range. Far from the
//! model the pruning tests lose precision with the segment's endpoints' distance from the
//! model (the tests are relative to it): a segment from `10^k` model sizes away prunes about
//! as well as one from nearby while `k` stays well below 16, and beyond that the query tests
//! more triangles, with the same exact answer.

use std::cell::RefCell;

use super::QueryError;
use crate::bv::obb::{NodePair, PackedFrame};
use crate::geometry::predicates::{log2_floor, times_pow2};
use crate::geometry::segment_triangle::{SegmentContact, hit_location, segment_triangle};
use crate::math::{RANGE_LIMIT, Vec3};
use crate::model::{Model, slot_of};

/// A ray `origin + t · direction`, `t >= 0`, in the model's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    /// Start of the ray.
    pub origin: Vec3,
    /// Need not be unit (`t` is in units of its length); must not be zero.
    pub direction: Vec3,
}

/// Where a ray or segment meets a triangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The ray parameter (`origin + t · direction`), or for [`segment_hits`] the segment
    /// parameter in `[0, 1]` (`a + t · (b − a)`). See the module notes for its accuracy.
    pub t: f64,
    /// The hit point: `barycentric` applied to the triangle's corners.
    pub point: Vec3,
    /// The triangle's index in leaf order ([`Model::triangles`]).
    pub triangle: u32,
    /// The triangle's caller id.
    pub id: i32,
    /// Weights of the triangle's three corners, each in `[0, 1]`, summing to 1 up to rounding.
    pub barycentric: [f64; 3],
}

/// Work done by ray queries: node boxes and triangles tested.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RayWork {
    /// Node boxes tested.
    pub box_tests: u64,
    /// Triangles tested.
    pub triangle_tests: u64,
}

impl std::ops::AddAssign for RayWork {
    fn add_assign(&mut self, o: RayWork) {
        self.box_tests += o.box_tests;
        self.triangle_tests += o.triangle_tests;
    }
}

/// The nearest hit of `ray` with `t` in `[0, t_max]` (`t_max` may be infinite), or `None`.
/// See the module notes for what is exact.
pub fn ray_first_hit(model: &Model, ray: &Ray, t_max: f64) -> Result<Option<RayHit>, QueryError> {
    let mut out = [None];
    ray_first_hits(model, std::slice::from_ref(ray), t_max, &mut out)?;
    Ok(out[0])
}

/// True when `ray` hits some triangle with `t` in `[0, t_max]`; stops at the first found.
pub fn ray_any_hit(model: &Model, ray: &Ray, t_max: f64) -> Result<bool, QueryError> {
    let mut out = [false];
    ray_any_hits(model, std::slice::from_ref(ray), t_max, &mut out)?;
    Ok(out[0])
}

/// [`ray_first_hit`] for each ray, written to `out` (as long as `rays`). Every ray is checked
/// before any is cast: one refused ray refuses the batch. Allocates nothing once the thread's
/// scratch stack has grown.
pub fn ray_first_hits(
    model: &Model,
    rays: &[Ray],
    t_max: f64,
    out: &mut [Option<RayHit>],
) -> Result<RayWork, QueryError> {
    check_rays(model, rays, t_max, out.len())?;
    let mut work = RayWork::default();
    with_stack(|stack| {
        for (ray, slot) in rays.iter().zip(out.iter_mut()) {
            // (Checked above: every ray has its segment.)
            *slot = ray_end(model, ray, t_max)
                .ok()
                .and_then(|(e, big_t)| first(model, &ray.origin, &e, stack, &mut work).map(|h| h.scaled(big_t)));
        }
    });
    Ok(work)
}

/// [`ray_any_hit`] for each ray, written to `out` (as long as `rays`); checked as
/// [`ray_first_hits`].
pub fn ray_any_hits(model: &Model, rays: &[Ray], t_max: f64, out: &mut [bool]) -> Result<RayWork, QueryError> {
    check_rays(model, rays, t_max, out.len())?;
    let mut work = RayWork::default();
    with_stack(|stack| {
        for (ray, slot) in rays.iter().zip(out.iter_mut()) {
            let Ok((e, _)) = ray_end(model, ray, t_max) else { continue };
            let mut walk = Walk::new(model, &ray.origin, &e, &mut work);
            let mut hit = false;
            walk.run(stack, |walk, tri, _| {
                hit = segment_triangle(walk.p, walk.q, &model.triangles()[tri]) != SegmentContact::Miss;
                if hit { STOP } else { ALL }
            });
            *slot = hit;
        }
    });
    Ok(work)
}

/// Every triangle the closed segment `a → b` meets, in `hits` (cleared first), sorted by the
/// segment parameter `t ∈ [0, 1]`, ties by leaf index. Exact as to which triangles (see the
/// module notes); `a == b` asks which triangles hold the point.
pub fn segment_hits(model: &Model, a: &Vec3, b: &Vec3, hits: &mut Vec<RayHit>) -> Result<RayWork, QueryError> {
    check_point(a)?;
    check_point(b)?;
    hits.clear();
    let mut work = RayWork::default();
    with_stack(|stack| {
        let mut walk = Walk::new(model, a, b, &mut work);
        walk.run(stack, |walk, tri, key| {
            if let Some(h) = walk.hit(tri, key) {
                hits.push(h);
            }
            ALL
        });
    });
    hits.sort_by(|x, y| x.t.total_cmp(&y.t).then(x.triangle.cmp(&y.triangle)));
    Ok(work)
}

/// The nearest hit on the segment `p → q` (`t` its parameter in `[0, 1]`).
fn first(model: &Model, p: &Vec3, q: &Vec3, stack: &mut Vec<(u32, f64)>, work: &mut RayWork) -> Option<RayHit> {
    let mut walk = Walk::new(model, p, q, work);
    let mut best: Option<RayHit> = None;
    walk.run(stack, |walk, tri, key| {
        if let Some(h) = walk.hit(tri, key) {
            if best.is_none_or(|b| (h.t, h.triangle) < (b.t, b.triangle)) {
                best = Some(h);
            }
        }
        best.map_or(ALL, |b| b.t)
    });
    best
}

impl RayHit {
    /// From the segment parameter to the ray's (`t = u · T`).
    fn scaled(mut self, big_t: f64) -> RayHit {
        self.t *= big_t;
        self
    }
}

/// Visit every leaf (`cut = ALL`).
const ALL: f64 = f64::INFINITY;
/// Stop the walk.
const STOP: f64 = -1.0;

/// The depth-first walk of the nodes a segment may touch.
pub(crate) struct Walk<'a> {
    model: &'a Model,
    pub p: &'a Vec3,
    pub q: &'a Vec3,
    seg: PackedSegment,
    work: &'a mut RayWork,
}

impl<'a> Walk<'a> {
    pub fn new(model: &'a Model, p: &'a Vec3, q: &'a Vec3, work: &'a mut RayWork) -> Walk<'a> {
        Walk { model, p, q, seg: PackedSegment::new(model.packed_frame(), p, q), work }
    }

    /// Calls `visit(self, triangle, key)` for the leaves whose boxes the segment may touch,
    /// `key` a lower bound of the segment parameter in every box from the root to the leaf,
    /// nearer child first. `visit` returns the cut: nodes whose key is above it are skipped
    /// (`ALL`: none; a negative cut stops the walk).
    pub fn run(&mut self, stack: &mut Vec<(u32, f64)>, mut visit: impl FnMut(&mut Walk, usize, f64) -> f64) {
        let slots = self.model.collide_slots();
        let base = stack.len();
        let mut cut = ALL;
        self.work.box_tests += 1;
        if let Some(key) = self.seg.enter(&slots[0], 0) {
            stack.push((0, key));
        }
        while stack.len() > base {
            let Some((node, key)) = stack.pop() else { break };
            if key > cut {
                continue;
            }
            let (slot, lane) = slot_of(node as usize);
            let n = &slots[slot];
            if n.is_leaf(lane) {
                self.work.triangle_tests += 1;
                cut = visit(self, n.triangle(lane), key);
                if cut < 0.0 {
                    break;
                }
                continue;
            }
            let c = n.first_child(lane);
            let children = &slots[slot_of(c as usize).0];
            self.work.box_tests += 2;
            let k0 = self.seg.enter(children, 0).map(|k| k.max(key));
            let k1 = self.seg.enter(children, 1).map(|k| k.max(key));
            // The farther child is pushed first, so the nearer is popped first.
            match (k0, k1) {
                (Some(a), Some(b)) if a <= b => stack.extend([(c + 1, b), (c, a)]),
                (Some(a), Some(b)) => stack.extend([(c, a), (c + 1, b)]),
                (Some(a), None) => stack.push((c, a)),
                (None, Some(b)) => stack.push((c + 1, b)),
                (None, None) => {}
            }
        }
        stack.truncate(base);
    }

    /// The hit of the segment with leaf-order triangle `tri`, if the exact test finds one,
    /// its parameter raised to `key`.
    fn hit(&self, tri: usize, key: f64) -> Option<RayHit> {
        let t = &self.model.triangles()[tri];
        if segment_triangle(self.p, self.q, t) == SegmentContact::Miss {
            return None;
        }
        let (u, w) = hit_location(self.p, self.q, t);
        let point = t[0] * w[0] + t[1] * w[1] + t[2] * w[2];
        Some(RayHit { t: u.max(key).min(1.0), point, triangle: tri as u32, id: self.model.ids()[tri], barycentric: w })
    }
}

thread_local! {
    static STACK: RefCell<Vec<(u32, f64)>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with this thread's scratch stack (a fresh one if it is in use).
pub(crate) fn with_stack<R>(f: impl FnOnce(&mut Vec<(u32, f64)>) -> R) -> R {
    STACK.with(|cell| match cell.try_borrow_mut() {
        Ok(mut stack) => f(&mut stack),
        Err(_) => f(&mut Vec::new()),
    })
}

/// `Ok` for a finite point within [`RANGE_LIMIT`].
pub(crate) fn check_point(p: &Vec3) -> Result<(), QueryError> {
    if !p.iter().all(|v| v.is_finite()) {
        Err(QueryError::NonFinite)
    } else if p.amax() > RANGE_LIMIT {
        Err(QueryError::OutOfRange)
    } else {
        Ok(())
    }
}

/// Checks every ray and `t_max` (and that `out_len` matches): `Ok` when all can be cast.
fn check_rays(model: &Model, rays: &[Ray], t_max: f64, out_len: usize) -> Result<(), QueryError> {
    if out_len != rays.len() || t_max.is_nan() || t_max < 0.0 {
        return Err(QueryError::InvalidArgument);
    }
    rays.iter().try_for_each(|r| ray_end(model, r, t_max).map(|_| ()))
}

/// The far endpoint of `ray`'s segment and the ray parameter there (see the module notes).
pub(crate) fn ray_end(model: &Model, ray: &Ray, t_max: f64) -> Result<(Vec3, f64), QueryError> {
    check_point(&ray.origin)?;
    check_point(&ray.direction)?;
    if ray.direction == Vec3::zeros() {
        return Err(QueryError::InvalidArgument);
    }
    let (e, big_t) = beyond_box(model, &ray.origin, &ray.direction);
    if !big_t.is_finite() {
        return Err(QueryError::OutOfRange);
    }
    if t_max < big_t { Ok((ray.origin + ray.direction * t_max, t_max)) } else { Ok((e, big_t)) }
}

/// A point `e` on the ray `o + t·d` (`d` nonzero), up to the rounding of one addition, that
/// lies beyond the model's bounding box, with its parameter `t` (a product of powers of two:
/// infinite when that overflows). `o` and `d` finite within [`RANGE_LIMIT`].
pub(crate) fn beyond_box(model: &Model, o: &Vec3, d: &Vec3) -> (Vec3, f64) {
    // d' = d·2^k with max |d'_i| in [1, 2): exact.
    let k = -log2_floor(d.amax());
    let d1 = d.map(|v| times_pow2(v, k));
    // Every model vertex is within `h` of the root box's centre `c` in each coordinate (the
    // box's extent along each world axis, its axes unit to 1e-7, and the rounding of `c`). (The packed
    // frame's unit is no bound of the model's size: it is at least 2^-1000, and for a tinier
    // model the far end would be so far that rounding it moved the segment by more than the
    // model's own coordinates' spacing.) With S >= 2 (|o − c|∞ + 2h), o + S d' is at least
    // S/2 + 2h from `c` along d's largest coordinate, and rounding the sum (by at most 2^-53 of
    // |e|) cannot bring it back within the box.
    let frame = model.packed_frame();
    let root = &model.collide_slots()[0];
    let c = Vec3::from(std::array::from_fn(|i| root.frame[i][3].0[0] as f64)) * frame.unit + frame.origin;
    let extent =
        |i: usize| (0..3).map(|j| (root.frame[i][j].0[0] as f64).abs() * root.half[j].0[0] as f64).sum::<f64>();
    let half = extent(0).max(extent(1)).max(extent(2));
    let h = half * frame.unit * (1.0 + 1e-6) + 4.0 * f64::EPSILON * c.amax() + 64.0 * f64::from_bits(1);
    let reach = (o - c).amax() + 2.0 * h;
    let mut s = times_pow2(1.0, log2_floor(2.0 * reach) + 1);
    loop {
        let e = o + d1 * s;
        if (e - c).amax() >= 1.5 * h || !s.is_finite() {
            return (e, times_pow2(s, k));
        }
        s *= 2.0; // (not expected: a safeguard against rounding)
    }
}

/// A segment in a model's packed frame, for the conservative node tests: the points `A + s W`,
/// `s ∈ [0, 1]`, from the endpoint nearer the frame's origin (the anchor), so that the
/// rounding of the points near the model is relative to their own distance from it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PackedSegment {
    anchor: [f64; 3],
    dir: [f64; 3],
    /// The anchor is the segment's end `q`: the segment parameter is `1 − s`.
    reversed: bool,
    /// False when a packed coordinate overflowed: every box is then entered (at parameter 0).
    finite: bool,
}

/// Half an ulp of 1.
const EPS: f64 = f64::EPSILON / 2.0;
/// An absolute allowance (packed units) for underflow in the slab tests.
const TINY: f64 = 1e-290;

impl PackedSegment {
    pub fn new(frame: &PackedFrame, p: &Vec3, q: &Vec3) -> PackedSegment {
        let reversed = (q - frame.origin).amax() < (p - frame.origin).amax();
        let (a, b) = if reversed { (q, p) } else { (p, q) };
        let anchor: [f64; 3] = ((a - frame.origin) / frame.unit).into();
        let dir: [f64; 3] = ((b - a) / frame.unit).into();
        // (Beyond 2^500 packed units the slab products could overflow: such a segment is
        // astronomically far from the model, and its boxes are all entered.)
        let finite = anchor.iter().chain(dir.iter()).all(|v: &f64| v.abs() < 3.27e150);
        PackedSegment { anchor, dir, reversed, finite }
    }

    /// A lower bound of the segment parameter `u ∈ [0, 1]` (from `p`) at which the segment
    /// enters node `lane` of `pair`'s box, or `None` when it surely misses the box.
    ///
    /// For each slab `|a·(x − c)| <= h`: along the segment `a·(x(s) − c) = α + s β`, computed
    /// with errors at most `E0` (the anchor's rounding and the dot product's) and `s E1` (the
    /// direction's), each bounded generously (8 rounding units of the magnitudes involved). A
    /// point of the true segment in the slab satisfies `s (±β − E1) <= h + E0 ∓ α` for the
    /// computed numbers, and the `s` range solving these (rounded outward) is kept.
    #[inline]
    pub fn enter(&self, pair: &NodePair, lane: usize) -> Option<f64> {
        if !self.finite {
            return Some(0.0);
        }
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        let c: [f64; 3] = std::array::from_fn(|k| pair.frame[k][3].0[lane] as f64);
        let (aa, w) = (&self.anchor, &self.dir);
        for i in 0..3 {
            let a: [f64; 3] = std::array::from_fn(|k| pair.frame[k][i].0[lane] as f64);
            let h = pair.half[i].0[lane] as f64;
            let d = [aa[0] - c[0], aa[1] - c[1], aa[2] - c[2]];
            let alpha = a[0] * d[0] + a[1] * d[1] + a[2] * d[2];
            let beta = a[0] * w[0] + a[1] * w[1] + a[2] * w[2];
            let mag0 = a[0].abs() * (aa[0].abs() + c[0].abs())
                + a[1].abs() * (aa[1].abs() + c[1].abs())
                + a[2].abs() * (aa[2].abs() + c[2].abs());
            let mag1 = a[0].abs() * w[0].abs() + a[1].abs() * w[1].abs() + a[2].abs() * w[2].abs();
            let e0 = 8.0 * EPS * (mag0 + h + alpha.abs()) + TINY;
            let e1 = 8.0 * EPS * (mag1 + beta.abs());
            let r = h + e0;
            for (k, rr) in [(beta - e1, r - alpha), (-beta - e1, r + alpha)] {
                if k > 0.0 {
                    let v = rr / k;
                    hi = hi.min(if v >= 0.0 { v * (1.0 + 4.0 * EPS) } else { v * (1.0 - 4.0 * EPS) });
                } else if rr < 0.0 {
                    if k == 0.0 {
                        return None;
                    }
                    lo = lo.max(rr / k * (1.0 - 4.0 * EPS));
                }
            }
            // (`max` and `min` drop NaN operands: lo and hi are never NaN.)
            if lo > hi {
                return None;
            }
        }
        Some(if self.reversed { (1.0 - hi - 2.0 * EPS).max(0.0) } else { lo })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Triangle;
    use crate::query::closed_meshes::{cuboid, is_closed, moved, sphere, torus};
    use crate::test_rng::{Rng, budget};

    fn model(tris: &[Triangle]) -> Model {
        Model::new(tris.to_vec(), (0..tris.len() as i32).map(|i| 1000 + i).collect()).unwrap()
    }

    /// Exact brute force: the leaf indices of every triangle the closed segment meets.
    fn brute_hits(m: &Model, p: &Vec3, q: &Vec3) -> Vec<u32> {
        let mut v: Vec<u32> = (0..m.num_triangles())
            .filter(|&i| segment_triangle(p, q, &m.triangles()[i]) != SegmentContact::Miss)
            .map(|i| i as u32)
            .collect();
        v.sort();
        v
    }

    fn tree_hits(m: &Model, p: &Vec3, q: &Vec3) -> Vec<RayHit> {
        let mut hits = Vec::new();
        segment_hits(m, p, q, &mut hits).unwrap();
        hits
    }

    fn sorted_indices(h: &[RayHit]) -> Vec<u32> {
        let mut v: Vec<u32> = h.iter().map(|h| h.triangle).collect();
        v.sort();
        v
    }

    /// Möller–Trumbore in plain floating point (independent of the exact code): `(t, u, v)`
    /// of the ray's crossing with the triangle's plane and its barycentric coordinates.
    fn float_crossing(o: &Vec3, d: &Vec3, t: &Triangle) -> Option<(f64, f64, f64)> {
        let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
        let pv = d.cross(&e2);
        let det = e1.dot(&pv);
        if det == 0.0 {
            return None;
        }
        let s = o - t[0];
        let u = s.dot(&pv) / det;
        let qv = s.cross(&e1);
        let v = d.dot(&qv) / det;
        Some((e2.dot(&qv) / det, u, v))
    }

    /// A random soup: random triangles, some tiny, some of zero area, some sharing corners.
    fn soup(rng: &mut Rng, n: usize) -> Vec<Triangle> {
        let mut tris: Vec<Triangle> = Vec::new();
        for i in 0..n {
            let c = rng.vec(-1.0, 1.0);
            let s = if i % 7 == 0 { 0.01 } else { 0.3 };
            let mut t = [c + rng.vec(-s, s), c + rng.vec(-s, s), c + rng.vec(-s, s)];
            match i % 11 {
                0 => t[2] = t[1],                       // a segment
                1 => t[2] = t[0] + (t[1] - t[0]) * 0.5, // collinear (up to rounding)
                2 if i > 0 => t[0] = tris[i - 1][1],    // shared corner
                _ => {}
            }
            tris.push(t);
        }
        tris
    }

    /// Random rays and segments on random soups: the tree finds exactly the triangles the
    /// exact brute force finds, the first and any hits agree with them, and where plain
    /// floating point is clearly decided (barycentrics 1e-6 inside or outside, not grazing)
    /// it agrees too, with `t` to 1e-9.
    #[test]
    fn random_rays_match_brute_force() {
        let mut rng = Rng(0x5eed_0a11);
        let (mut rays, mut hits, mut float_checked) = (0, 0, 0);
        for case in 0..budget(40, 400) {
            let m = model(&soup(&mut rng, 50 + case * 5));
            for _ in 0..40 {
                let o = rng.vec(-2.0, 2.0);
                let target = if rng.below(2) == 0 {
                    m.triangles()[rng.below(m.num_triangles() as u64) as usize][0]
                } else {
                    rng.vec(-1.0, 1.0)
                };
                let d = (target - o) * rng.range(0.1, 3.0);
                if d == Vec3::zeros() {
                    continue;
                }
                let ray = Ray { origin: o, direction: d };
                let t_max = if rng.below(3) == 0 { rng.range(0.0, 1.5) } else { f64::INFINITY };
                let (e, big_t) = ray_end(&m, &ray, t_max).unwrap();
                let all = tree_hits(&m, &o, &e);
                let brute = brute_hits(&m, &o, &e);
                assert_eq!(sorted_indices(&all), brute, "case {case}");
                // Sorted, and the first hit is the first of them.
                assert!(all.windows(2).all(|w| (w[0].t, w[0].triangle) <= (w[1].t, w[1].triangle)));
                let first = ray_first_hit(&m, &ray, t_max).unwrap();
                assert_eq!(first.map(|h| h.triangle), all.first().map(|h| h.triangle));
                if let (Some(f), Some(a)) = (first, all.first()) {
                    assert_eq!(f.t, a.t * big_t);
                    assert_eq!(f.id, m.ids()[f.triangle as usize]);
                    assert!(f.t >= 0.0 && f.t <= t_max);
                }
                assert_eq!(ray_any_hit(&m, &ray, t_max).unwrap(), !brute.is_empty());
                rays += 1;
                hits += brute.len();
                // Independent floating point where it is clear.
                for (i, t) in m.triangles().iter().enumerate() {
                    let Some((ft, u, v)) = float_crossing(&o, &d, t) else { continue };
                    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
                    let cos = n.dot(&d).abs() / (n.norm() * d.norm());
                    let margin = u.min(v).min(1.0 - u - v);
                    if n.norm() < 1e-6 * (t[1] - t[0]).norm() * (t[2] - t[0]).norm()
                        || cos < 1e-3
                        || margin.abs() < 1e-6
                        || (ft - 0.0).abs() < 1e-6
                        || (ft - big_t.min(t_max)).abs() < 1e-6 * big_t.min(1e6)
                    {
                        continue;
                    }
                    let inside = margin > 0.0 && ft > 0.0 && ft < big_t.min(t_max);
                    assert_eq!(
                        brute.contains(&(i as u32)),
                        inside,
                        "case {case} triangle {i} {t:?} {o:?} {d:?} {e:?} {ft} {u} {v} {big_t} {t_max}"
                    );
                    if inside {
                        let h = all.iter().find(|h| h.triangle == i as u32).unwrap();
                        assert!((h.t * big_t - ft).abs() <= 1e-9 * ft.max(1.0), "t {} vs {ft}", h.t * big_t);
                        assert!((h.barycentric[1] - u).abs() < 1e-9 && (h.barycentric[2] - v).abs() < 1e-9);
                        assert!((h.point - (o + d * ft)).norm() < 1e-9);
                        float_checked += 1;
                    }
                }
            }
        }
        assert!(rays > 1000 && hits > 1000 && float_checked > 500, "{rays} {hits} {float_checked}");
    }

    /// Segments through vertices, edge points and along edges of closed meshes touch every
    /// triangle that has the feature (exactly), and rays from far points aimed at any vertex
    /// or edge point never pass between triangles.
    #[test]
    fn features_of_closed_meshes_are_never_missed() {
        let mut rng = Rng(0x0fea_70e5);
        // Dyadic coordinates: midpoints and reflections below are exact.
        let meshes = [
            cuboid(Vec3::new(-2.0, -1.0, -0.5), Vec3::new(1.0, 3.0, 2.0)),
            sphere(16, 9, Vec3::new(0.25, 0.0, 0.5), 1.5),
            torus(24, 12, 2.0, 0.75),
        ];
        let (mut through, mut aimed) = (0, 0);
        for (scale, offset) in
            [(1.0, 0.0), (2f64.powi(-300), 0.0), (2f64.powi(300), 0.0), (2f64.powi(280), 2f64.powi(332))]
        {
            for (mesh_index, tris) in meshes.iter().enumerate() {
                // Snap to a grid of 2^-20 (so sums of two coordinates are exact), then move.
                let snapped: Vec<Triangle> =
                    tris.iter().map(|t| t.map(|v| v.map(|x| (x * 1048576.0).round() / 1048576.0))).collect();
                let tris = moved(&snapped, scale, Vec3::repeat(offset));
                assert!(is_closed(&tris));
                let m = model(&tris);
                // A point inside: the centre of the cuboid and the sphere, on the torus' core.
                let inside = moved(
                    &[[[-0.5, 1.0, 0.75].into(), [0.25, 0.0, 0.5].into(), [2.0, 0.0, 0.0].into()]],
                    scale,
                    Vec3::repeat(offset),
                )[0][mesh_index];
                for t in m.triangles().iter().take(60) {
                    for (k, feature) in [t[0], t[1], (t[0] + t[1]) * 0.5, (t[1] * 3.0 + t[2]) * 0.25].iter().enumerate()
                    {
                        // A point exactly on the feature (midpoints and quarter points are exact
                        // on this grid when the sum does not round: checked).
                        use crate::geometry::predicates::collinear;
                        let on_edge = match k {
                            0 | 1 => true,
                            2 => collinear(&t[0], &t[1], feature),
                            _ => collinear(&t[1], &t[2], feature),
                        };
                        // An integer offset in model units: exact on every grid used here.
                        let w = (rng.dir() * 64.0).map(|x| x.round()) * scale;
                        let (a, b) = (feature - w, feature + w);
                        if !on_edge
                            || w == Vec3::zeros()
                            || feature - a != w
                            || b - feature != w
                            || !collinear(&a, feature, &b)
                        {
                            continue;
                        }
                        let hits = tree_hits(&m, &a, &b);
                        let idx = sorted_indices(&hits);
                        // Every triangle having the feature is touched.
                        for (i, u) in m.triangles().iter().enumerate() {
                            if crate::geometry::segment_triangle::point_on_triangle(feature, u) {
                                assert!(idx.contains(&(i as u32)), "feature {feature:?} triangle {i}");
                            }
                        }
                        assert_eq!(idx, brute_hits(&m, &a, &b));
                        through += 1;
                        // A ray aimed exactly at the feature (`o + 1·d` is the feature: `a`
                        // and `d = feature − a` are exact) hits it when cast up to t = 1.
                        let ray = Ray { origin: a, direction: w };
                        assert_eq!(ray_end(&m, &ray, 1.0).unwrap().0, *feature);
                        assert!(ray_any_hit(&m, &ray, 1.0).unwrap());
                        let first = ray_first_hit(&m, &ray, 1.0).unwrap().expect("the feature is hit");
                        assert!(first.t <= 1.0);
                        // A ray from inside towards the feature cannot escape the closed mesh:
                        // it hits, at the feature or before it.
                        let ray = Ray { origin: inside, direction: feature - inside };
                        let first =
                            ray_first_hit(&m, &ray, f64::INFINITY).unwrap().expect("never missed between triangles");
                        assert!(first.t <= 1.0 + 1e-9, "t {}", first.t);
                        aimed += 1;
                    }
                }
            }
        }
        assert!(through > 1000 && aimed > 1000, "{through} {aimed}");
    }

    /// Segments lying in triangles' planes (along an edge, across a face, grazing a corner),
    /// from points on the surface, and points as segments.
    #[test]
    fn segments_in_planes_and_from_the_surface() {
        let m = model(&cuboid(Vec3::new(0.0, 0.0, 0.0), Vec3::new(4.0, 4.0, 4.0)));
        let v = Vec3::new;
        let cases: [(Vec3, Vec3); 8] = [
            (v(-1.0, 0.0, 0.0), v(5.0, 0.0, 0.0)),  // along an edge
            (v(-1.0, 2.0, 4.0), v(5.0, 2.0, 4.0)),  // across the top face, in its plane
            (v(-1.0, -1.0, 4.0), v(1.0, 1.0, 4.0)), // in the top plane, into a corner region
            (v(-1.0, 1.0, 4.0), v(1.0, -1.0, 4.0)), // in the top plane, through the corner (0,0,4)
            (v(2.0, 2.0, 4.0), v(2.0, 2.0, 9.0)),   // from a point on the top face, outward
            (v(2.0, 2.0, 4.0), v(2.0, 2.0, 4.0)),   // a point on the surface
            (v(1.0, 1.0, 1.0), v(2.0, 2.0, 2.0)),   // inside: nothing
            (v(-1.0, 5.0, 4.0), v(5.0, -1.0, 4.0)), // in the top plane along its diagonal
        ];
        let expect_some = [true, true, true, true, true, true, false, true];
        for ((a, b), some) in cases.iter().zip(expect_some) {
            let hits = tree_hits(&m, a, b);
            assert_eq!(sorted_indices(&hits), brute_hits(&m, a, b), "{a:?} {b:?}");
            assert_eq!(!hits.is_empty(), some, "{a:?} {b:?}");
            for h in &hits {
                // The reported point is on the segment's line and the triangle, up to rounding.
                let x = a + (b - a) * h.t;
                assert!((x - h.point).norm() < 1e-9, "{a:?} {b:?}: {x:?} {:?}", h.point);
            }
        }
        // Along the edge x from (−1,0,0): first contact at x = 0, t = 1/6.
        let hits = tree_hits(&m, &v(-1.0, 0.0, 0.0), &v(5.0, 0.0, 0.0));
        assert!((hits[0].t - 1.0 / 6.0).abs() < 1e-12);
        // In the top plane through the corner (0,0,4): touched at t = 1/2.
        let hits = tree_hits(&m, &v(-1.0, 1.0, 4.0), &v(1.0, -1.0, 4.0));
        assert!(hits.iter().all(|h| (h.t - 0.5).abs() < 1e-12));
    }

    #[test]
    fn refuses_bad_input() {
        let m = model(&cuboid(Vec3::zeros(), Vec3::repeat(1.0)));
        let r = |o: Vec3, d: Vec3| Ray { origin: o, direction: d };
        let ok = r(Vec3::repeat(-1.0), Vec3::repeat(1.0));
        assert_eq!(ray_first_hit(&m, &r(Vec3::new(f64::NAN, 0.0, 0.0), Vec3::x()), 1.0), Err(QueryError::NonFinite));
        assert_eq!(
            ray_any_hit(&m, &r(Vec3::zeros(), Vec3::new(0.0, f64::INFINITY, 0.0)), 1.0),
            Err(QueryError::NonFinite)
        );
        assert_eq!(ray_first_hit(&m, &r(Vec3::zeros(), Vec3::zeros()), 1.0), Err(QueryError::InvalidArgument));
        assert_eq!(ray_first_hit(&m, &ok, -1.0), Err(QueryError::InvalidArgument));
        assert_eq!(ray_first_hit(&m, &ok, f64::NAN), Err(QueryError::InvalidArgument));
        assert_eq!(ray_first_hit(&m, &r(Vec3::repeat(1e302), Vec3::x()), 1.0), Err(QueryError::OutOfRange));
        // A direction so small that t at the model overflows.
        assert_eq!(
            ray_first_hit(&m, &r(Vec3::repeat(-1e300), Vec3::repeat(1e-300)), f64::INFINITY),
            Err(QueryError::OutOfRange)
        );
        let mut out = [None; 2];
        assert_eq!(ray_first_hits(&m, &[ok], 1.0, &mut out), Err(QueryError::InvalidArgument));
        let mut hits = Vec::new();
        assert_eq!(segment_hits(&m, &Vec3::zeros(), &Vec3::repeat(f64::NAN), &mut hits), Err(QueryError::NonFinite));
        // One bad ray refuses the batch, and nothing is written.
        let mut out = [None; 2];
        assert!(ray_first_hits(&m, &[ok, r(Vec3::zeros(), Vec3::zeros())], 1.0, &mut out).is_err());
        assert_eq!(out, [None; 2]);
        assert!(ray_first_hits(&m, &[ok, ok], f64::INFINITY, &mut out).is_ok());
        assert!(out.iter().all(|h| h.is_some_and(|h| (h.t - 1.0).abs() < 1e-15)));
        // A tiny direction is fine when t stays finite.
        assert!(ray_first_hit(&m, &r(Vec3::repeat(-1.0), Vec3::repeat(1e-300)), f64::INFINITY).unwrap().is_some());
    }

    /// Far rays, huge and tiny scales: the same exact answers; and a model far from its
    /// rays still prunes (work well below the model size).
    #[test]
    fn far_rays_and_extreme_scales() {
        let mut rng = Rng(0xfa2_0ff);
        let base = sphere(32, 16, Vec3::zeros(), 1.0);
        for (scale, offset) in
            [(1.0, 0.0), (1e-200, 0.0), (1e200, 0.0), (1e90, 1e100), (1e-100, 1e-90), (2f64.powi(-1000), 0.0)]
        {
            let m = model(&moved(&base, scale, Vec3::repeat(offset)));
            let mut work = RayWork::default();
            for _ in 0..100 {
                let dist = [2.0, 1e3, 1e8][rng.below(3) as usize];
                let o = Vec3::repeat(offset) + rng.dir() * (dist * scale);
                let d = (Vec3::repeat(offset) + rng.vec(-1.2, 1.2) * scale - o) * (1.0 / scale);
                let ray = Ray { origin: o, direction: d };
                let (e, _) = ray_end(&m, &ray, f64::INFINITY).unwrap_or_else(|err| panic!("{err} {o:?} {d:?}"));
                assert_eq!(sorted_indices(&tree_hits(&m, &o, &e)), brute_hits(&m, &o, &e));
                let mut out = [None];
                work += ray_first_hits(&m, &[ray], f64::INFINITY, &mut out).unwrap();
            }
            assert!(work.triangle_tests < 100 * m.num_triangles() as u64 / 10, "{scale} {offset}: {work:?}");
        }
    }
}

#[cfg(test)]
mod more_tests {
    use super::*;
    use crate::math::Triangle;
    use crate::query::closed_meshes::{cuboid, sphere};
    use crate::test_rng::Rng;

    fn model(tris: &[Triangle]) -> Model {
        Model::new(tris.to_vec(), (0..tris.len() as i32).collect()).unwrap()
    }

    fn check(m: &Model, ray: &Ray, t_max: f64) -> usize {
        let (e, _) = ray_end(m, ray, t_max).unwrap();
        let mut hits = Vec::new();
        segment_hits(m, &ray.origin, &e, &mut hits).unwrap();
        let mut got: Vec<u32> = hits.iter().map(|h| h.triangle).collect();
        got.sort();
        let want: Vec<u32> = (0..m.num_triangles() as u32)
            .filter(|&i| segment_triangle(&ray.origin, &e, &m.triangles()[i as usize]) != SegmentContact::Miss)
            .collect();
        assert_eq!(got, want, "{ray:?}");
        let first = ray_first_hit(m, ray, t_max).unwrap();
        assert_eq!(first.map(|h| h.triangle), hits.first().map(|h| h.triangle));
        got.len()
    }

    /// Rays grazing a face (a few ulps above or below its plane, nearly parallel), rays from
    /// vertices of the surface in random directions, and models of one triangle.
    #[test]
    fn grazing_rays_and_rays_from_the_surface() {
        let mut rng = Rng(0x006a_21e5);
        let cube = model(&cuboid(Vec3::zeros(), Vec3::repeat(4.0)));
        let up = |x: f64, k: i64| f64::from_bits((x.to_bits() as i64 + k) as u64);
        let mut hit = 0;
        for _ in 0..2000 {
            let z = up(4.0, rng.below(7) as i64 - 3);
            let o = Vec3::new(-1.0, rng.range(-0.5, 4.5), z);
            let dz = [0.0, 1e-17, -1e-17, 1e-300][rng.below(4) as usize];
            let d = Vec3::new(1.0, rng.range(-0.2, 0.2), dz);
            hit += (check(&cube, &Ray { origin: o, direction: d }, f64::INFINITY) > 0) as usize;
        }
        assert!(hit > 500, "{hit}");
        let ball = model(&sphere(20, 10, Vec3::new(0.5, -0.25, 0.125), 2.0));
        for _ in 0..2000 {
            let t = ball.triangles()[rng.below(ball.num_triangles() as u64) as usize];
            let o = t[rng.below(3) as usize];
            // From the vertex: the triangles at it are touched at t = 0.
            let n = check(&ball, &Ray { origin: o, direction: rng.dir() }, f64::INFINITY);
            assert!(n >= 3);
            let first = ray_first_hit(&ball, &Ray { origin: o, direction: rng.dir() }, 5.0).unwrap().unwrap();
            assert_eq!(first.t, 0.0);
        }
        // One triangle, its root a leaf.
        let one = model(&[[Vec3::zeros(), Vec3::x(), Vec3::y()]]);
        let r = Ray { origin: Vec3::new(0.25, 0.25, 1.0), direction: -Vec3::z() };
        assert!((ray_first_hit(&one, &r, f64::INFINITY).unwrap().unwrap().t - 1.0).abs() < 1e-15);
        assert!(!ray_any_hit(&one, &r, 0.5).unwrap());
        assert_eq!(check(&one, &Ray { origin: Vec3::new(-1.0, 0.0, 0.0), direction: Vec3::x() }, f64::INFINITY), 1);
    }
}

#[cfg(test)]
mod scale_tests {
    use super::*;
    use crate::query::closed_meshes::{moved, sphere};
    use crate::test_rng::Rng;

    /// Scaling a model and its rays by a power of two (exact) changes neither which triangles
    /// are hit nor, beyond rounding, `t` and the barycentric coordinates, from 2^-1000 to
    /// 2^990: the hit's location is computed on coordinates brought near 1 first.
    #[test]
    fn hit_locations_do_not_depend_on_the_scale() {
        let mut rng = Rng(0x5ca1_e000);
        let base = sphere(16, 8, Vec3::new(0.25, 0.5, -0.125), 1.0);
        let rays: Vec<Ray> = (0..300)
            .map(|_| {
                let origin = rng.dir() * 3.0;
                Ray { origin, direction: rng.vec(-0.8, 0.8) - origin }
            })
            .collect();
        let reference = Model::new(base.clone(), (0..base.len() as i32).collect()).unwrap();
        let mut want = vec![None; rays.len()];
        ray_first_hits(&reference, &rays, f64::INFINITY, &mut want).unwrap();
        assert!(want.iter().filter(|h| h.is_some()).count() > 100);
        for k in [-1000, -600, -200, 200, 600, 990] {
            let s = 2f64.powi(k);
            let tris = moved(&base, s, Vec3::zeros());
            let m = Model::new(tris, (0..base.len() as i32).collect()).unwrap();
            let scaled: Vec<Ray> =
                rays.iter().map(|r| Ray { origin: r.origin * s, direction: r.direction * s }).collect();
            let mut got = vec![None; rays.len()];
            ray_first_hits(&m, &scaled, f64::INFINITY, &mut got).unwrap();
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(g.map(|h| h.id), w.map(|h| h.id), "2^{k}");
                if let (Some(g), Some(w)) = (g, w) {
                    assert!((g.t - w.t).abs() <= 1e-12 * w.t, "2^{k}: t {} vs {}", g.t, w.t);
                    for i in 0..3 {
                        assert!((g.barycentric[i] - w.barycentric[i]).abs() <= 1e-12, "2^{k}");
                    }
                    assert!((g.point / s - w.point).norm() <= 1e-12, "2^{k}");
                }
            }
        }
    }
}
