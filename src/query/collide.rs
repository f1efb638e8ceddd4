//! Collision: which triangle pairs of two placed models intersect.

use super::{QueryError, RangeError, Relative, check_placements};
use crate::bv::kdop::{DopHit, DopShift, DopTree};
use crate::bv::obb::{
    Both, BoxTest, DUAL, Margins, NodePair, PlacedPair, Placement3, SAT_LITE, SAT15, SPHERE_SAT15, Spread,
    boxes_disjoint, pair_disjoint, spheres_disjoint, uses_spheres,
};
use crate::geometry::tri_contact::{TriContact, triangle_contact};
use crate::geometry::tri_intersect::triangles_intersect;
use crate::math::{Placement, Triangle, Vec3};
use crate::model::{Model, slot_of};

/// One intersecting triangle pair: `id1` from the first model, `id2` from the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(C)]
// The doc above names the fields; doc comments on them would also enter the C header.
#[allow(missing_docs)]
pub struct ContactPair {
    pub id1: i32,
    pub id2: i32,
}

/// In whose frame the triangle test runs. Exactly touching contacts are decided on the
/// transformed coordinates, so the frame decides them when the transform rounds:
/// RAPID maps model 1 into model 2's frame, PQP model 2 into model 1's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(C)]
pub enum TriangleFrame {
    /// Model 2's triangles are moved into model 1's frame (PQP's convention).
    #[default]
    Model1 = 0,
    /// Model 1's triangles are moved into model 2's frame (RAPID's convention).
    Model2 = 1,
}

/// What a collide query should do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CollideRequest {
    /// Stop at the first intersecting triangle pair.
    pub first_contact: bool,
    /// Which box-overlap test prunes node pairs.
    pub box_test: BoxTest,
    /// In whose frame the triangle tests run (decides exactly touching contacts).
    pub frame: TriangleFrame,
    /// Also compute each intersecting pair's contact geometry ([`CollideResult::geometry`]).
    /// Off by default: plain collide pays nothing for it.
    pub geometry: bool,
}

/// Output of [`collide`]; reuse one across queries to avoid allocating.
#[derive(Clone, Debug, Default)]
pub struct CollideResult {
    /// Intersecting triangle pairs, in discovery order.
    pub pairs: Vec<ContactPair>,
    /// Box-pair overlap tests performed.
    pub bv_tests: u64,
    /// Triangle-pair intersection tests performed.
    pub tri_tests: u64,
    /// With [`CollideRequest::geometry`]: each pair's intersection, `geometry[k]` for
    /// `pairs[k]`, in the world frame the placements are given in (`normal1` is model 1's
    /// triangle's). Empty otherwise. See [`crate::query::contact`] for the frame and the bound.
    pub geometry: Vec<TriContact>,
    /// Triangle indices (in the traversal's model order) of the pairs, for the geometry.
    hits: Vec<(u32, u32)>,
    stacks: Stacks,
}

impl CollideResult {
    /// An empty result.
    pub fn new() -> CollideResult {
        CollideResult::default()
    }
    /// Empties the pairs and zeroes the counts (the allocations are kept).
    pub fn clear(&mut self) {
        self.pairs.clear();
        self.geometry.clear();
        self.hits.clear();
        self.bv_tests = 0;
        self.tri_tests = 0;
    }
    /// Whether any triangle pair intersects.
    pub fn colliding(&self) -> bool {
        !self.pairs.is_empty()
    }
}

/// A node pair whose boxes overlap, waiting to be split. `placed` locates b's node placed
/// in a's model frame: `placed >> 1` indexes the side stack of placements, bit 0 the lane.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pending {
    pub(super) ia: u32,
    pub(super) ib: u32,
    pub(super) placed: u32,
}

/// One step of a traversal: the pending pair (`ia` in node pair `na`'s lane `lane_a`, `ib`
/// likewise, b's node placed at `placed`) whose larger node (`split_a`: a's) is split.
pub(super) struct Split<'n> {
    pub(super) ia: u32,
    pub(super) ib: u32,
    pub(super) placed: u32,
    pub(super) na: &'n NodePair,
    pub(super) lane_a: usize,
    pub(super) nb: &'n NodePair,
    pub(super) lane_b: usize,
    pub(super) split_a: bool,
}

impl Split<'_> {
    /// Tests the split node's two children against the other node and pushes the pairs whose
    /// volumes may overlap (two box tests). `sa` and `sb` are the slots of a's and b's trees
    /// (the same slice for a self traversal), `xf` places b's nodes in a's frame.
    ///
    /// Lane 1 (the second child) is pushed first, so the first child's pair is split first;
    /// b's children are placed once for every pair they are tested against.
    #[inline(always)]
    pub(super) fn push_overlapping<const TEST: u8>(
        &self,
        sa: &[NodePair],
        sb: &[NodePair],
        xf: &Placement3,
        margins: &Margins,
        pending: &mut Vec<Pending>,
        placed: &mut Vec<PlacedPair>,
    ) {
        let Split { ia, ib, placed: p, na, lane_a, nb, lane_b, split_a } = *self;
        if split_a {
            let first = na.first_child(lane_a);
            let children = &sa[slot_of(first as usize).0];
            let pb = &placed[(p >> 1) as usize];
            // (One copy of the test per lane of b's placement: the lane is then a constant.)
            let disjoint = if p & 1 == 0 {
                pair_disjoint::<TEST>(&Both(children), &Spread::<_, 0>(pb), margins)
            } else {
                pair_disjoint::<TEST>(&Both(children), &Spread::<_, 1>(pb), margins)
            };
            if disjoint & 2 == 0 {
                pending.push(Pending { ia: first + 1, ib, placed: p });
            }
            if disjoint & 1 == 0 {
                pending.push(Pending { ia: first, ib, placed: p });
            }
        } else {
            let first = nb.first_child(lane_b);
            let children = &sb[slot_of(first as usize).0];
            placed.truncate((p >> 1) as usize + 1);
            // The spheres first: children they prune need no box placed.
            let spheres = xf.place_spheres::<TEST>(children);
            let mut disjoint = 0;
            if uses_spheres(TEST) {
                disjoint = if lane_a == 0 {
                    spheres_disjoint(&Spread::<_, 0>(na), &Both(&spheres), margins)
                } else {
                    spheres_disjoint(&Spread::<_, 1>(na), &Both(&spheres), margins)
                };
                if disjoint == 3 {
                    return;
                }
            }
            let pb = xf.place(children, spheres);
            disjoint |= if lane_a == 0 {
                boxes_disjoint::<TEST>(&Spread::<_, 0>(na), &Both(&pb), margins)
            } else {
                boxes_disjoint::<TEST>(&Spread::<_, 1>(na), &Both(&pb), margins)
            };
            if disjoint != 3 {
                let q = (placed.len() as u32) << 1;
                placed.push(pb);
                if disjoint & 2 == 0 {
                    pending.push(Pending { ia, ib: first + 1, placed: q | 1 });
                }
                if disjoint & 1 == 0 {
                    pending.push(Pending { ia, ib: first, placed: q });
                }
            }
        }
    }
}

/// The traversal's reusable buffers.
#[derive(Clone, Debug, Default)]
struct Stacks {
    pending: Vec<Pending>,
    /// Placements of b's nodes in a's frame, two children at a time. Descending a reuses its
    /// pair's placement; descending b places both children once for every pair they are
    /// tested against. Along `pending`, placement indices never decrease, so when a pair is
    /// taken every placement after its own is dead and is dropped.
    placed: Vec<PlacedPair>,
    /// The k-DOP traversal's pending node pairs.
    dops: Vec<(u32, u32)>,
}

/// Finds the intersecting triangle pairs of `m1` placed at `p1` and `m2` placed at `p2`
/// (all of them, or the first one). Touching triangles intersect: the answer is exact for
/// the triangles as the test sees them (the other model's vertices placed in the frame of
/// `request.frame`, in `f64`).
///
/// Refused, with `result` unchanged, when a placement is not one ([`Placement::check`]) or a
/// coordinate would leave the supported range ([`super::RANGE_LIMIT`]).
///
/// ```
/// use rapidpqp::Placement;
/// use rapidpqp::query::{CollideRequest, CollideResult, collide};
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
/// let cube = cube(); // the unit cube [0, 1]³, 12 triangles with ids 0..12
/// let mut result = CollideResult::new();
/// let all = CollideRequest::default();
/// // Shifted by half a side along x: the four side faces of each cube cross the other's
/// // faces at x = 0.5 and x = 1, so many triangle pairs intersect.
/// collide(&cube, &Placement::IDENTITY, &cube, &shifted(0.5), &all, &mut result)?;
/// assert!(result.colliding() && result.pairs.len() > 1);
/// // First contact only: one pair.
/// let first = CollideRequest { first_contact: true, ..all };
/// collide(&cube, &Placement::IDENTITY, &cube, &shifted(0.5), &first, &mut result)?;
/// assert_eq!(result.pairs.len(), 1);
/// // Touching faces intersect; a gap of 1e-9 does not.
/// collide(&cube, &Placement::IDENTITY, &cube, &shifted(1.0), &all, &mut result)?;
/// assert!(result.colliding());
/// collide(&cube, &Placement::IDENTITY, &cube, &shifted(1.0 + 1e-9), &all, &mut result)?;
/// assert!(!result.colliding());
/// // A placement that is not one is refused.
/// let squashed = Placement { scale: -1.0, ..Placement::IDENTITY };
/// assert!(collide(&cube, &squashed, &cube, &shifted(0.5), &all, &mut result).is_err());
/// # Ok::<(), rapidpqp::query::QueryError>(())
/// ```
pub fn collide(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    request: &CollideRequest,
    result: &mut CollideResult,
) -> Result<(), QueryError> {
    check_placements(p1, p2)?;
    Ok(collide_placed(m1, p1, m2, p2, request, result)?)
}

/// [`collide`] for placements the caller has checked (the C layers, each with its own rules):
/// only the range is checked here.
pub(crate) fn collide_placed(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    request: &CollideRequest,
    result: &mut CollideResult,
) -> Result<(), RangeError> {
    let (a, b, rel, swapped) = match request.frame {
        TriangleFrame::Model1 => (m1, m2, Relative::between(p1, p2), false),
        TriangleFrame::Model2 => (m2, m1, Relative::between(p2, p1), true),
    };
    rel.check_range(a, b)?;
    result.clear();
    if a.num_triangles() == 1 && b.num_triangles() == 1 {
        // The roots are leaves: the exact triangle test is the whole query (a box test could
        // only repeat its answer).
        result.tri_tests = 1;
        LeafTests::new(a, b, &rel, swapped, request.geometry).test(0, 0, &mut result.pairs, &mut result.hits);
    } else if (a.is_kdop() || b.is_kdop()) && rel.is_translation() {
        // (A model without the option gets k-DOPs of its own, once.)
        let (da, db) = (a.kdop_tree_for_collide(), b.kdop_tree_for_collide());
        traverse_dops(a, da, b, db, &rel, request, result, swapped);
    } else {
        let (first, geometry) = (request.first_contact, request.geometry);
        match request.box_test {
            BoxTest::Sat15 => traverse::<SAT15>(a, b, &rel, first, geometry, result, swapped),
            BoxTest::SatLite => traverse::<SAT_LITE>(a, b, &rel, first, geometry, result, swapped),
            BoxTest::Dual => traverse::<DUAL>(a, b, &rel, first, geometry, result, swapped),
            BoxTest::SphereSat15 => traverse::<SPHERE_SAT15>(a, b, &rel, first, geometry, result, swapped),
        }
    }
    if request.geometry {
        // The triangles exactly as the test saw them (the same transform of b's vertices),
        // then mapped to the world by the frame model's placement.
        let frame_placement = if swapped { p2 } else { p1 };
        result.geometry.reserve(result.hits.len());
        for &(ta, tb) in &result.hits {
            let tri_b = transform(&b.triangles()[tb as usize], &rel);
            let c = triangle_contact(&a.triangles()[ta as usize], &tri_b)
                .expect("the pair was found intersecting by the same exact test");
            let c = c.placed(frame_placement);
            result.geometry.push(if swapped { c.swapped() } else { c });
        }
    }
    result.hits.clear();
    Ok(())
}

/// Depth-first traversal of the pair of trees; `b` is placed in `a`'s frame by `rel`.
/// `swapped` says that `a` is the caller's model 2 (ids are reported in the caller's order);
/// `record_hits` keeps each hit's leaf-order triangles in `result.hits` for the geometry pass.
///
/// Children are tested before they are pushed, both at once: splitting node a tests a's two
/// children (side by side in one slot) against b's placed node; splitting b places b's two
/// children together and tests them against a's node.
#[inline(never)]
fn traverse<const TEST: u8>(
    a: &Model,
    b: &Model,
    rel: &Relative,
    first_contact: bool,
    record_hits: bool,
    result: &mut CollideResult,
    swapped: bool,
) {
    // The nodes are in their models' packed frames; `xf` places b's in a's.
    let (fa, fb) = (a.packed_frame(), b.packed_frame());
    let xf = Placement3::between(fa, fb, &rel.rotation, &rel.translation, rel.scale);
    let scale = xf.scale();
    // Bound on the rounding of a transformed triangle vertex, of a placed box centre, of its
    // difference with another and of their projections (packed units; under 250ε times these
    // magnitudes, step 3 of the proof at `boxes_disjoint`), and the guard for the rotation and
    // the f32 axes: every box and sphere test is widened by them, so no pair of nodes holding
    // two triangles that the triangle test finds touching is ever pruned.
    // (Subnormal results round by up to 2^-1075 absolutely: the second term, at most 2^-65
    // packed units since the unit is at least 2^-1000.) Within the supported range these are
    // finite; where the packed values could overflow (models whose sizes differ by more than
    // about 2^900), nothing is pruned: slow, but never wrong.
    let m = (a.magnitude() + rel.scale * b.magnitude() + rel.translation.amax()) / fa.unit;
    let slack = 512.0 * f64::EPSILON * m + 2f64.powi(-1065) / fa.unit;
    let margins =
        if m <= 1e290 && xf.scale() <= 1e290 { Margins::new(&rel.rotation, slack) } else { Margins::no_pruning(slack) };
    let margins = &margins;
    let (sa, sb) = (a.collide_slots(), b.collide_slots());
    let Stacks { mut pending, mut placed, dops } = std::mem::take(&mut result.stacks);
    pending.clear();
    placed.clear();
    // Slot 0 holds each root in both lanes.
    placed.push(xf.place(&sb[0], xf.place_spheres::<TEST>(&sb[0])));
    let mut bv_tests = 1u64;
    if pair_disjoint::<TEST>(&Both(&sa[0]), &Both(&placed[0]), margins) & 1 == 0 {
        pending.push(Pending { ia: 0, ib: 0, placed: 0 });
    }
    let mut leaves = LeafTests::new(a, b, rel, swapped, record_hits);
    while let Some(Pending { ia, ib, placed: p }) = pending.pop() {
        let (slot_a, lane_a) = slot_of(ia as usize);
        let (slot_b, lane_b) = slot_of(ib as usize);
        let (na, nb) = (&sa[slot_a], &sb[slot_b]);
        // Split the larger box (model b's is measured scaled), so both shrink at the same
        // pace; leaves cannot be split.
        let split_a = match (na.is_leaf(lane_a), nb.is_leaf(lane_b)) {
            (true, true) => {
                result.tri_tests += 1;
                let (ta, tb) = (na.triangle(lane_a), nb.triangle(lane_b));
                if leaves.test(ta, tb, &mut result.pairs, &mut result.hits) && first_contact {
                    break;
                }
                continue;
            }
            (false, true) => true,
            (true, false) => false,
            (false, false) => na.size(lane_a) > nb.size(lane_b) * scale,
        };
        bv_tests += 2;
        let split = Split { ia, ib, placed: p, na, lane_a, nb, lane_b, split_a };
        split.push_overlapping::<TEST>(sa, sb, &xf, margins, &mut pending, &mut placed);
    }
    result.bv_tests = bv_tests;
    result.stacks = Stacks { pending, placed, dops };
}

/// [`traverse`] on two k-DOP models whose placements differ by a translation: their k-DOP
/// trees prune (whatever `request.box_test` says), the same exact triangle test decides.
#[allow(clippy::too_many_arguments)]
fn traverse_dops(
    a: &Model,
    da: &DopTree,
    b: &Model,
    db: &DopTree,
    rel: &Relative,
    request: &CollideRequest,
    result: &mut CollideResult,
    swapped: bool,
) {
    let at = DopShift::translation(&rel.translation, a.magnitude().max(b.magnitude()));
    let mut stack = std::mem::take(&mut result.stacks.dops);
    let (pairs, hits) = (&mut result.pairs, &mut result.hits);
    let mut tri_tests = 0u64;
    let mut leaves = LeafTests::new(a, b, rel, swapped, request.geometry);
    result.bv_tests = da.pairs(db, &at, &mut stack, |DopHit { ta, tb }| {
        tri_tests += 1;
        leaves.test(ta, tb, pairs, hits) && request.first_contact
    });
    result.tri_tests = tri_tests;
    result.stacks.dops = stack;
}

/// The leaf-pair step every collide traversal shares: the exact test of a's triangle against
/// b's placed by `rel`, a hit recorded in the caller's model order.
struct LeafTests<'m> {
    a: &'m Model,
    b: &'m Model,
    rel: &'m Relative,
    /// `a` is the caller's model 2.
    swapped: bool,
    /// Keep each hit's leaf-order triangles for the geometry pass.
    record_hits: bool,
    /// b's last placed triangle: it is often met again right after (against a's sibling leaf).
    last_b: (usize, Triangle),
}

impl<'m> LeafTests<'m> {
    fn new(a: &'m Model, b: &'m Model, rel: &'m Relative, swapped: bool, record_hits: bool) -> LeafTests<'m> {
        LeafTests { a, b, rel, swapped, record_hits, last_b: (usize::MAX, [Vec3::zeros(); 3]) }
    }

    /// Tests a's triangle `ta` against b's `tb` (leaf order); on a hit pushes the pair to
    /// `pairs` (and the triangles to `hits` when recording). Returns whether they intersect.
    #[inline(always)]
    fn test(&mut self, ta: usize, tb: usize, pairs: &mut Vec<ContactPair>, hits: &mut Vec<(u32, u32)>) -> bool {
        if tb != self.last_b.0 {
            self.last_b = (tb, transform(&self.b.triangles()[tb], self.rel));
        }
        if !triangles_intersect(&self.a.triangles()[ta], &self.last_b.1) {
            return false;
        }
        let (ida, idb) = (self.a.ids()[ta], self.b.ids()[tb]);
        pairs.push(if self.swapped { ContactPair { id1: idb, id2: ida } } else { ContactPair { id1: ida, id2: idb } });
        if self.record_hits {
            hits.push((ta as u32, tb as u32));
        }
        true
    }
}

#[inline]
fn transform(t: &Triangle, rel: &Relative) -> Triangle {
    let f = |p: &Vec3| rel.apply(p);
    [f(&t[0]), f(&t[1]), f(&t[2])]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::tri_intersect::triangles_intersect;
    use crate::math::Mat3;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
        fn vec(&mut self, scale: f64) -> Vec3 {
            Vec3::new(self.next() - 0.5, self.next() - 0.5, self.next() - 0.5) * scale
        }
        fn rotation(&mut self) -> Mat3 {
            let axis = self.vec(1.0) + Vec3::new(1e-3, 0.0, 0.0);
            *nalgebra::Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(axis), 6.3 * self.next()).matrix()
        }
    }

    /// A random soup with degenerate triangles and triangles snapped to a coarse grid (so that
    /// exact touching happens).
    fn soup(rng: &mut Rng, n: usize) -> Vec<Triangle> {
        (0..n)
            .map(|k| {
                let c = rng.vec(1.0);
                let s = 0.05 + 0.4 * rng.next();
                let mut t = [c + rng.vec(s), c + rng.vec(s), c + rng.vec(s)];
                match k % 9 {
                    0 => t[2] = t[0] + (t[1] - t[0]) * 0.5,
                    1 => t = [t[0], t[0], t[0]],
                    2 | 3 => t = t.map(|p| p.map(|v| (v * 8.0).round() / 8.0)),
                    _ => {}
                }
                t
            })
            .collect()
    }

    fn model(tris: &[Triangle]) -> Model {
        Model::new(tris.to_vec(), (0..tris.len() as i32).collect()).unwrap()
    }

    fn contacts(m1: &Model, p1: &Placement, m2: &Model, p2: &Placement, request: &CollideRequest) -> Vec<(i32, i32)> {
        let mut out = CollideResult::new();
        collide(m1, p1, m2, p2, request, &mut out).unwrap();
        let mut v: Vec<_> = out.pairs.iter().map(|p| (p.id1, p.id2)).collect();
        v.sort_unstable();
        v
    }

    /// Every variant's contacts equal the others' (all contacts), and a first contact is one
    /// of them; returns the contacts.
    fn same_contacts_for_all_variants(
        m1: &Model,
        p1: &Placement,
        m2: &Model,
        p2: &Placement,
        frame: TriangleFrame,
    ) -> Vec<(i32, i32)> {
        let all = |box_test| {
            contacts(m1, p1, m2, p2, &CollideRequest { first_contact: false, box_test, frame, geometry: false })
        };
        let want = all(BoxTest::Sat15);
        for box_test in BoxTest::ALL {
            assert_eq!(all(box_test), want, "{box_test:?} {frame:?}");
            let first =
                contacts(m1, p1, m2, p2, &CollideRequest { first_contact: true, box_test, frame, geometry: false });
            assert_eq!(first.len(), usize::from(!want.is_empty()), "{box_test:?}");
            assert!(first.iter().all(|p| want.binary_search(p).is_ok()), "{box_test:?}");
        }
        want
    }

    #[test]
    fn variants_agree_with_brute_force_on_random_soups() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut total = 0;
        for round in 0..40 {
            let (a, b) = (soup(&mut rng, 30 + round), soup(&mut rng, 25 + 2 * round));
            let (ma, mb) = (model(&a), model(&b));
            ma.validate().unwrap();
            for _ in 0..5 {
                let (p1, p2) = if rng.next() < 0.3 {
                    // Relative transform exactly the identity.
                    let p = Placement { rotation: rng.rotation(), translation: rng.vec(3.0), scale: 1.0 };
                    (p, p)
                } else {
                    let s = |r: &mut Rng| if r.next() < 0.3 { 0.5 + 2.0 * r.next() } else { 1.0 };
                    (
                        Placement { rotation: rng.rotation(), translation: rng.vec(0.5), scale: s(&mut rng) },
                        Placement { rotation: rng.rotation(), translation: rng.vec(0.5), scale: s(&mut rng) },
                    )
                };
                for frame in [TriangleFrame::Model1, TriangleFrame::Model2] {
                    let got = same_contacts_for_all_variants(&ma, &p1, &mb, &p2, frame);
                    // Brute force, in the frame of the request.
                    let (rel, swapped) = match frame {
                        TriangleFrame::Model1 => (Relative::between(&p1, &p2), false),
                        TriangleFrame::Model2 => (Relative::between(&p2, &p1), true),
                    };
                    let mut want = Vec::new();
                    for (i, ta) in a.iter().enumerate() {
                        for (j, tb) in b.iter().enumerate() {
                            let hit = if swapped {
                                triangles_intersect(tb, &transform(ta, &rel))
                            } else {
                                triangles_intersect(ta, &transform(tb, &rel))
                            };
                            if hit {
                                want.push((i as i32, j as i32));
                            }
                        }
                    }
                    assert_eq!(got, want, "round {round} {frame:?}");
                    total += want.len();
                }
            }
        }
        assert!(total > 500, "the scenes should touch often ({total})");
    }

    #[test]
    fn variants_agree_on_the_bunny_fixture() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance/bunny_sphere");
        let load = |f: &str| model(&crate::io::load_obj(dir.join(f)).unwrap().triangles());
        let (ma, mb) = (load("a.obj"), load("b.obj"));
        let poses = std::fs::read_to_string(dir.join("poses.txt")).unwrap();
        let mut touching = 0;
        for line in poses.lines().filter(|l| !l.trim().is_empty()) {
            let v: Vec<f64> = line.split_whitespace().map(|w| w.parse().unwrap()).collect();
            let p = |o: usize| {
                Placement::from_rows(
                    &[[v[o], v[o + 1], v[o + 2]], [v[o + 3], v[o + 4], v[o + 5]], [v[o + 6], v[o + 7], v[o + 8]]],
                    &[v[o + 9], v[o + 10], v[o + 11]],
                    v[o + 12],
                )
            };
            let (p1, p2) = (p(0), p(13));
            for frame in [TriangleFrame::Model1, TriangleFrame::Model2] {
                touching += usize::from(!same_contacts_for_all_variants(&ma, &p1, &mb, &p2, frame).is_empty());
            }
        }
        assert!(touching > 100, "{touching} touching poses");
    }

    /// Nodes placed exactly on top of each other, and touching face to face at a rotated
    /// placement with scale: every variant keeps them (conservative tests).
    #[test]
    fn touching_nodes_are_never_pruned() {
        let tri = |z: f64| [Vec3::new(0.0, 0.0, z), Vec3::new(1.0, 0.0, z), Vec3::new(0.0, 1.0, z)];
        let (ma, mb) = (model(&[tri(0.0), tri(2.0)]), model(&[tri(0.0), tri(-3.0)]));
        let mut rng = Rng(7);
        for _ in 0..200 {
            let r = rng.rotation();
            let t = rng.vec(100.0);
            let s = 0.5 + 2.0 * rng.next();
            // Model 2 scaled by s about the origin of model 1's frame: triangle 0 of each
            // touches the other at the origin corner.
            let p1 = Placement { rotation: r, translation: t, scale: s };
            let p2 = Placement { rotation: r, translation: t, scale: s };
            for frame in [TriangleFrame::Model1, TriangleFrame::Model2] {
                let got = same_contacts_for_all_variants(&ma, &p1, &mb, &p2, frame);
                assert!(got.contains(&(0, 0)), "{frame:?}");
            }
        }
    }
}
