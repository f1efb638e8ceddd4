//! Inside/outside of closed models: the winding number of the mesh about a point, exactly.
//!
//! # Method
//!
//! From the query point `p`, a segment runs to a point `e` beyond the model's bounding box
//! (`e` a double on a fixed direction, see [`DIRECTIONS`]). Each triangle the segment meets is
//! classified exactly ([`segment_triangle`]): a transversal crossing of its interior counts
//! +1 when the segment runs towards the side its normal `(v1−v0)×(v2−v0)` points to, −1 the
//! other way. For a closed, consistently oriented mesh the sum is the winding number of the
//! mesh about `p` (+1 inside a mesh with outward normals, −1 with inward normals, 0 outside;
//! nested and self-intersecting closed meshes add up under the nonzero rule).
//!
//! Any other contact (through an edge or a vertex, lying in a plane, touching a zero-area
//! triangle) is detected exactly — a zero predicate — and then either `p` lies on that triangle
//! ([`Winding::OnSurface`], exact), or the direction is discarded and the next is tried. The
//! directions have irrational-looking, unrelated components, so a segment from `p` touches an
//! edge only when the edge and the direction happen to be exactly coplanar with `p` in double
//! arithmetic: on real meshes and on grid-aligned points of axis-aligned meshes this does not
//! happen in practice (the tests and `examples/ray_queries.rs` count the retries: none in
//! hundreds of thousands of queries, including points on the grid of a cube's vertices).
//!
//! Last resort, so that the work is bounded and the answer never guessed: if all
//! [`DIRECTIONS`] touch something, the last segment is symbolically perturbed
//! ([`perturbed_crossing`]): its far end moves by `ε x̂ + ε² ŷ + ε³ ẑ`, `ε → 0⁺`, which never
//! touches an edge, a vertex or a plane, and whose crossings are decided by the same exact
//! predicates. So a query costs at most `DIRECTIONS.len() + 1` walks of the segment's
//! boxes, each bounded by the model's size.
//!
//! # Assumption
//!
//! The answer is the winding number only for a **closed** mesh (every edge shared by an
//! even number of triangle sides, consistently oriented). For an open mesh the count depends
//! on the direction; this module does not check closedness.

use super::QueryError;
use super::ray::{RayWork, Walk, beyond_box, check_point, with_stack};
use crate::geometry::segment_triangle::{SegmentContact, perturbed_crossing, point_on_triangle, segment_triangle};
use crate::math::Vec3;
use crate::model::Model;

/// Where a point is with respect to a closed model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winding {
    /// The point lies on a triangle (exactly: edges and vertices included).
    OnSurface,
    /// The winding number of the mesh about the point: inside iff nonzero (+1 inside a simple
    /// mesh with outward normals).
    Number(i32),
}

impl Winding {
    /// True for a nonzero winding number (the nonzero rule); false on the surface.
    pub fn is_inside(self) -> bool {
        matches!(self, Winding::Number(n) if n != 0)
    }
}

/// Work done by inside/outside queries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WindingWork {
    pub box_tests: u64,
    pub triangle_tests: u64,
    /// Segments walked (one per query unless a direction was discarded).
    pub segments: u64,
    /// Queries that needed more than one direction.
    pub retried: u64,
    /// Queries settled by the symbolic perturbation.
    pub perturbed: u64,
}

/// The directions tried in turn (largest coordinate exactly 1 in magnitude). Their
/// components are unrelated irrational numbers rounded to doubles (powers of the plastic
/// number, the golden ratio, √2 and √3), far from any simple ratio that mesh coordinates
/// tend to share.
pub const DIRECTIONS: [[f64; 3]; 3] = [
    [1.0, 0.7548776662466927, 0.5698402909980532],
    [-0.6180339887498949, 1.0, -0.3819660112501051],
    [0.4142135623730951, -0.7320508075688772, -1.0],
];

/// Where `p` is with respect to the closed `model` (see the module notes). Refused when `p`
/// is not finite or beyond [`super::RANGE_LIMIT`].
pub fn winding(model: &Model, p: &Vec3) -> Result<Winding, QueryError> {
    let mut out = [Winding::OnSurface];
    windings(model, std::slice::from_ref(p), &mut out)?;
    Ok(out[0])
}

/// [`winding`] for each point, written to `out` (as long as `points`). Every point is checked
/// first: one refused point refuses the batch. Allocates nothing once the thread's scratch
/// stack has grown.
pub fn windings(model: &Model, points: &[Vec3], out: &mut [Winding]) -> Result<WindingWork, QueryError> {
    if out.len() != points.len() {
        return Err(QueryError::InvalidArgument);
    }
    points.iter().try_for_each(check_point)?;
    let mut work = WindingWork::default();
    with_stack(|stack| {
        for (p, slot) in points.iter().zip(out.iter_mut()) {
            *slot = one(model, p, stack, &mut work);
        }
    });
    Ok(work)
}

/// What a walk along one direction found.
enum Count {
    Settled(Winding),
    /// The segment touched something other than at `p`.
    Discarded,
}

fn one(model: &Model, p: &Vec3, stack: &mut Vec<(u32, f64)>, work: &mut WindingWork) -> Winding {
    let mut ray_work = RayWork::default();
    let mut e = *p;
    let mut answer = None;
    for (k, d) in DIRECTIONS.iter().enumerate() {
        e = beyond_box(model.packed_frame(), p, &Vec3::from(*d)).0;
        work.segments += 1;
        if k == 1 {
            work.retried += 1;
        }
        if let Count::Settled(w) = count(model, p, &e, stack, &mut ray_work) {
            answer = Some(w);
            break;
        }
    }
    let answer = answer.unwrap_or_else(|| {
        work.perturbed += 1;
        work.segments += 1;
        perturbed_count(model, p, &e, stack, &mut ray_work)
    });
    work.box_tests += ray_work.box_tests;
    work.triangle_tests += ray_work.triangle_tests;
    answer
}

/// The signed crossings of the segment `p → e`, or `Discarded` at its first other contact.
fn count(model: &Model, p: &Vec3, e: &Vec3, stack: &mut Vec<(u32, f64)>, work: &mut RayWork) -> Count {
    let mut sum = 0i64;
    let mut result = None;
    Walk::new(model, p, e, work).run(stack, |_, tri, _| {
        let t = &model.triangles()[tri];
        match segment_triangle(p, e, t) {
            SegmentContact::Miss => f64::INFINITY,
            SegmentContact::Cross(s) => {
                sum += s as i64;
                f64::INFINITY
            }
            SegmentContact::Touch => {
                result =
                    Some(if point_on_triangle(p, t) { Count::Settled(Winding::OnSurface) } else { Count::Discarded });
                -1.0
            }
        }
    });
    result.unwrap_or(Count::Settled(Winding::Number(clamp_i32(sum))))
}

/// The signed crossings of the perturbed segment from `p` to `e + δ` (see
/// [`perturbed_crossing`]), or `OnSurface`.
fn perturbed_count(model: &Model, p: &Vec3, e: &Vec3, stack: &mut Vec<(u32, f64)>, work: &mut RayWork) -> Winding {
    let mut sum = 0i64;
    let mut on_surface = false;
    // The boxes are walked for the unperturbed segment: a triangle apart from it is apart from
    // the perturbed one too.
    Walk::new(model, p, e, work).run(stack, |_, tri, _| {
        let t = &model.triangles()[tri];
        if point_on_triangle(p, t) {
            on_surface = true;
            return -1.0;
        }
        sum += perturbed_crossing(p, e, t).unwrap_or(0) as i64;
        f64::INFINITY
    });
    if on_surface { Winding::OnSurface } else { Winding::Number(clamp_i32(sum)) }
}

/// The count as an `i32` (a model has fewer than 2^31 triangles, so it always fits).
fn clamp_i32(x: i64) -> i32 {
    x.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}
