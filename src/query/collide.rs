//! Collision: which triangle pairs of two placed models intersect.

use super::Relative;
use crate::bv::obb::{BoxTest, disjoint};
use crate::geometry::tri_intersect::triangles_intersect;
use crate::math::{Placement, Triangle, Vec3};
use crate::model::Model;

/// One intersecting triangle pair: `id1` from the first model, `id2` from the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(C)]
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
    pub box_test: BoxTest,
    pub frame: TriangleFrame,
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
    stack: Vec<(u32, u32)>,
}

impl CollideResult {
    pub fn new() -> CollideResult {
        CollideResult::default()
    }
    pub fn clear(&mut self) {
        self.pairs.clear();
        self.bv_tests = 0;
        self.tri_tests = 0;
    }
    pub fn colliding(&self) -> bool {
        !self.pairs.is_empty()
    }
}

/// Finds the intersecting triangle pairs of `m1` placed at `p1` and `m2` placed at `p2`
/// (all of them, or the first one). Touching triangles intersect. Placements must be valid
/// (finite, positive scale); the caller checks.
pub fn collide(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    request: &CollideRequest,
    result: &mut CollideResult,
) {
    result.clear();
    match request.frame {
        TriangleFrame::Model1 => {
            let rel = Relative::between(p1, p2);
            traverse(m1, m2, &rel, request, result, false);
        }
        TriangleFrame::Model2 => {
            let rel = Relative::between(p2, p1);
            traverse(m2, m1, &rel, request, result, true);
        }
    }
}

/// Depth-first traversal of the pair of trees; `b` is placed in `a`'s frame by `rel`.
/// `swapped` says that `a` is the caller's model 2 (ids are reported in the caller's order).
fn traverse(
    a: &Model,
    b: &Model,
    rel: &Relative,
    request: &CollideRequest,
    result: &mut CollideResult,
    swapped: bool,
) {
    // Bound on the rounding of a transformed box centre: every box test is widened by it,
    // so no pair of boxes that truly touch is ever pruned.
    let slack = 32.0
        * f64::EPSILON
        * (a.magnitude() + rel.scale * b.magnitude() + rel.translation.amax());
    let (an, bn) = (a.nodes(), b.nodes());
    let mut stack = std::mem::take(&mut result.stack);
    stack.clear();
    stack.push((0, 0));
    while let Some((ia, ib)) = stack.pop() {
        let na = &an[ia as usize];
        let nb = &bn[ib as usize];
        // b's box in a's box frame.
        let at = na.obb.axes.transpose();
        let b_axes = at * (rel.rotation * nb.obb.axes);
        let b_center = at * (rel.apply(&nb.obb.center) - na.obb.center);
        let b_half = nb.obb.half * rel.scale;
        result.bv_tests += 1;
        if disjoint(&na.obb.half, &b_axes, &b_center, &b_half, slack, request.box_test) {
            continue;
        }
        match (na.is_leaf(), nb.is_leaf()) {
            (true, true) => {
                result.tri_tests += 1;
                let ta = &a.triangles()[na.triangle()];
                let tb = transform(&b.triangles()[nb.triangle()], rel);
                if triangles_intersect(ta, &tb) {
                    let (ida, idb) = (a.ids()[na.triangle()], b.ids()[nb.triangle()]);
                    result.pairs.push(if swapped {
                        ContactPair { id1: idb, id2: ida }
                    } else {
                        ContactPair { id1: ida, id2: idb }
                    });
                    if request.first_contact {
                        break;
                    }
                }
            }
            (false, true) => push_children_of_a(&mut stack, na.first_child() as u32, ib),
            (true, false) => push_children_of_b(&mut stack, ia, nb.first_child() as u32),
            (false, false) => {
                // Split the larger box, so both shrink at the same pace.
                if na.obb.size() > nb.obb.size() * rel.scale {
                    push_children_of_a(&mut stack, na.first_child() as u32, ib);
                } else {
                    push_children_of_b(&mut stack, ia, nb.first_child() as u32);
                }
            }
        }
    }
    result.stack = stack;
}

#[inline]
fn push_children_of_a(stack: &mut Vec<(u32, u32)>, first: u32, ib: u32) {
    stack.push((first + 1, ib));
    stack.push((first, ib));
}

#[inline]
fn push_children_of_b(stack: &mut Vec<(u32, u32)>, ia: u32, first: u32) {
    stack.push((ia, first + 1));
    stack.push((ia, first));
}

#[inline]
fn transform(t: &Triangle, rel: &Relative) -> Triangle {
    let f = |p: &Vec3| rel.apply(p);
    [f(&t[0]), f(&t[1]), f(&t[2])]
}
