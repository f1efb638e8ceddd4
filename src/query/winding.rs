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
    /// Node boxes tested.
    pub box_tests: u64,
    /// Triangles tested.
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
///
/// cbindgen:ignore
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
            *slot = one(model, p, stack, &mut work)?;
        }
        Ok(work)
    })
}

/// What a walk along one direction found.
enum Count {
    Settled(Winding),
    /// The segment touched something other than at `p`.
    Discarded,
}

/// The winding number about one checked point. (`Err` only if a far endpoint were not finite,
/// which the range of the point and the model rules out: see `beyond_box`.)
fn one(model: &Model, p: &Vec3, stack: &mut Vec<(u32, f64)>, work: &mut WindingWork) -> Result<Winding, QueryError> {
    let mut ray_work = RayWork::default();
    let mut e = *p;
    let mut answer = None;
    for (k, d) in DIRECTIONS.iter().enumerate() {
        e = beyond_box(model, p, &Vec3::from(*d)).0;
        if !e.iter().all(|v| v.is_finite()) {
            return Err(QueryError::OutOfRange);
        }
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
    Ok(answer)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::tri_distance::triangle_distance;
    use crate::math::Triangle;
    use crate::query::closed_meshes::{
        cuboid, flipped, is_closed, moved, solid_angle_winding, sphere, tetrahedron, torus,
    };
    use crate::test_rng::{Rng, budget};

    fn model(tris: &[Triangle]) -> Model {
        Model::new(tris.to_vec(), (0..tris.len() as i32).collect()).unwrap()
    }

    fn distance_to(tris: &[Triangle], p: &Vec3) -> f64 {
        tris.iter().map(|t| triangle_distance(t, &[*p, *p, *p]).distance).fold(f64::INFINITY, f64::min)
    }

    /// A cube of side 4 with each face split into 4 × 4 squares (so grid points lie on many
    /// edges and vertices), outward normals.
    fn grid_cube(n: usize) -> Vec<Triangle> {
        let mut out = Vec::new();
        let s = 4.0 / n as f64;
        // Each face: a map from (i, j) to a point, counter-clockwise seen from outside.
        let faces: [Box<dyn Fn(f64, f64) -> Vec3>; 6] = [
            Box::new(|u, v| Vec3::new(v, u, 0.0)),
            Box::new(|u, v| Vec3::new(u, v, 4.0)),
            Box::new(|u, v| Vec3::new(u, 0.0, v)),
            Box::new(|u, v| Vec3::new(v, 4.0, u)),
            Box::new(|u, v| Vec3::new(0.0, v, u)),
            Box::new(|u, v| Vec3::new(4.0, u, v)),
        ];
        for f in &faces {
            for i in 0..n {
                for j in 0..n {
                    let (u0, u1, v0, v1) = (i as f64 * s, (i + 1) as f64 * s, j as f64 * s, (j + 1) as f64 * s);
                    let (a, b, c, d) = (f(u0, v0), f(u1, v0), f(u1, v1), f(u0, v1));
                    out.push([a, b, c]);
                    out.push([a, c, d]);
                }
            }
        }
        out
    }

    /// Every point of a half-unit grid around subdivided cubes: exactly `OnSurface` on the
    /// boundary, +1 inside, 0 outside (−1 inside the flipped cube), at several exact scales
    /// and offsets. These points lie on many edges' lines and planes: the retries are counted.
    #[test]
    fn grid_points_on_cubes() {
        let mut retried = 0;
        let mut queries = 0;
        for n in [1, 4] {
            let cube = grid_cube(n);
            assert!(is_closed(&cube));
            for (scale, offset) in
                [(1.0, 0.0), (2f64.powi(-600), 0.0), (2f64.powi(600), 0.0), (2f64.powi(250), 2f64.powi(300))]
            {
                for (tris, sign) in [
                    (moved(&cube, scale, Vec3::repeat(offset)), 1),
                    (moved(&flipped(&cube), scale, Vec3::repeat(offset)), -1),
                ] {
                    let m = model(&tris);
                    let coords: Vec<f64> = (-2..=10).map(|k| k as f64 * 0.5).collect();
                    let mut points = Vec::new();
                    let mut expect = Vec::new();
                    for &x in &coords {
                        for &y in &coords {
                            for &z in &coords {
                                let c = [x, y, z];
                                let inside = c.iter().all(|&v| (0.0..=4.0).contains(&v));
                                let boundary = inside && c.iter().any(|&v| v == 0.0 || v == 4.0);
                                points.push(Vec3::new(x, y, z) * scale + Vec3::repeat(offset));
                                expect.push(if boundary {
                                    Winding::OnSurface
                                } else {
                                    Winding::Number(if inside { sign } else { 0 })
                                });
                            }
                        }
                    }
                    let mut out = vec![Winding::OnSurface; points.len()];
                    let work = windings(&m, &points, &mut out).unwrap();
                    for i in 0..points.len() {
                        assert_eq!(out[i], expect[i], "{:?} (scale {scale}, offset {offset})", points[i]);
                    }
                    retried += work.retried;
                    queries += points.len() as u64;
                }
            }
        }
        assert!(queries > 30_000);
        // (OnSurface points may stop at their first touch; the rest need no retry here.)
        assert!(retried * 100 < queries, "{retried} retries in {queries} queries");
    }

    /// Points a few ulps off faces, edges and vertices decide the side exactly.
    #[test]
    fn points_ulps_off_the_surface() {
        let cube = grid_cube(4);
        let m = model(&cube);
        let up = |x: f64, k: i64| f64::from_bits((x.to_bits() as i64 + k) as u64);
        let mut rng = Rng(0x0ff_5e7);
        let mut checked = 0;
        for _ in 0..2000 {
            // A point on the top face: anywhere, on a grid edge, on a diagonal, or a vertex.
            let (x, y) = match rng.below(4) {
                0 => (rng.range(0.0, 4.0), rng.range(0.0, 4.0)),
                1 => (rng.below(5) as f64, rng.range(0.0, 4.0)),
                2 => {
                    let v = rng.range(0.0, 1.0);
                    (rng.below(4) as f64 + v, rng.below(4) as f64 + v)
                }
                _ => (rng.below(5) as f64, rng.below(5) as f64),
            };
            let k = 1 + rng.below(3) as i64;
            let w = |z: f64| winding(&m, &Vec3::new(x, y, z)).unwrap();
            assert_eq!(w(4.0), Winding::OnSurface, "{x} {y}");
            // Just below the top face: inside, or on a side face when x or y is 0 or 4.
            let side = x == 0.0 || x == 4.0 || y == 0.0 || y == 4.0;
            assert_eq!(w(up(4.0, -k)), if side { Winding::OnSurface } else { Winding::Number(1) }, "{x} {y}");
            assert_eq!(w(up(4.0, k)), Winding::Number(0));
            // Past a vertical edge of the cube by an ulp in x.
            assert_eq!(winding(&m, &Vec3::new(up(4.0, k), y.clamp(0.0, 4.0), 2.0)).unwrap(), Winding::Number(0));
            checked += 1;
        }
        // Near a corner, each coordinate an ulp in or out.
        for bits in 0..8 {
            let c = |i: usize| if bits >> i & 1 == 1 { up(4.0, -1) } else { up(4.0, 1) };
            let inside = bits == 7;
            assert_eq!(winding(&m, &Vec3::new(c(0), c(1), c(2))).unwrap(), Winding::Number(inside as i32));
        }
        assert_eq!(checked, 2000);
    }

    /// Random points near and far against the solid-angle winding number, on spheres, tori,
    /// tetrahedra and nested shells (same and opposite orientations).
    #[test]
    fn random_points_match_solid_angles() {
        let mut rng = Rng(0x5011d);
        let inner = sphere(12, 7, Vec3::new(0.1, 0.0, -0.2), 0.6);
        let meshes: Vec<Vec<Triangle>> = vec![
            sphere(24, 12, Vec3::zeros(), 1.5),
            torus(32, 16, 1.2, 0.5),
            moved(&tetrahedron(), 0.5, Vec3::new(-1.0, -1.0, -1.0)),
            [sphere(24, 12, Vec3::zeros(), 1.5), inner.clone()].concat(),
            [sphere(24, 12, Vec3::zeros(), 1.5), flipped(&inner)].concat(),
            // Two overlapping tori (self-intersecting union): winding 2 where they overlap.
            [torus(24, 12, 1.0, 0.45), moved(&torus(24, 12, 1.0, 0.45), 1.0, Vec3::new(0.3, 0.0, 0.0))].concat(),
        ];
        let mut compared = 0;
        let mut nonzero = 0;
        for tris in &meshes {
            assert!(is_closed(tris));
            let m = model(tris);
            for _ in 0..budget(300, 3000) {
                let p = rng.vec(-2.0, 2.0);
                if distance_to(tris, &p) < 1e-6 {
                    continue;
                }
                let want = solid_angle_winding(tris, &p);
                assert!((want - want.round()).abs() < 1e-6);
                assert_eq!(winding(&m, &p).unwrap(), Winding::Number(want.round() as i32), "{p:?}");
                compared += 1;
                nonzero += (want.round() != 0.0) as usize;
            }
        }
        assert!(compared > 1500 && nonzero > 200, "{compared} {nonzero}");
    }

    /// The symbolic perturbation on segments that pass exactly through vertices and edges
    /// (where the plain count is discarded) gives the winding number; and it agrees with the
    /// plain count wherever that settles.
    #[test]
    fn perturbation_settles_degenerate_segments() {
        let cube = grid_cube(2);
        let m = model(&cube);
        let mut stack = Vec::new();
        let mut work = RayWork::default();
        let mut discarded = 0;
        let coords: Vec<f64> = (-1..=5).map(|k| k as f64).collect();
        let corners: Vec<Vec3> = m.triangles().iter().flatten().copied().collect();
        for &x in &coords {
            for &y in &coords {
                for &z in &coords {
                    let p = Vec3::new(x, y, z);
                    let inside = [x, y, z].iter().all(|&v| v > 0.0 && v < 4.0);
                    let on = [x, y, z].iter().all(|&v| (0.0..=4.0).contains(&v)) && !inside;
                    // Through each vertex (exactly: integer coordinates), on to beyond the box.
                    for v in corners.iter().step_by(7) {
                        if *v == p {
                            continue;
                        }
                        let e = p + (v - p) * 16.0;
                        let want = if on { Winding::OnSurface } else { Winding::Number(inside as i32) };
                        assert_eq!(perturbed_count(&m, &p, &e, &mut stack, &mut work), want, "{p:?} {v:?}");
                        match count(&m, &p, &e, &mut stack, &mut work) {
                            Count::Settled(w) => assert_eq!(w, want),
                            Count::Discarded => discarded += 1,
                        }
                    }
                }
            }
        }
        assert!(discarded > 1000, "{discarded}");
    }

    /// A model whose every direction from the query point runs exactly through a vertex: the
    /// perturbation settles it, after `DIRECTIONS.len()` discarded segments.
    #[test]
    fn every_direction_blocked() {
        // A big cube around the origin, so that from p = 0 the far endpoints are exactly a
        // power of two times D and 2·D lies exactly on each segment; a small
        // tetrahedron with a corner there blocks each direction.
        let mut tris = cuboid(Vec3::repeat(-8.0), Vec3::repeat(8.0));
        for d in DIRECTIONS {
            let c = Vec3::from(d) * 2.0;
            tris.extend(moved(&tetrahedron(), 0.125, Vec3::zeros()).iter().map(|t| t.map(|v| v + c)));
        }
        assert!(is_closed(&tris));
        let m = model(&tris);
        for d in DIRECTIONS {
            // (A power of two times D, at least 32 D.)
            let e = beyond_box(&m, &Vec3::zeros(), &Vec3::from(d)).0;
            let s = e.x / d[0];
            assert!(s >= 32.0 && s.log2().fract() == 0.0 && e == Vec3::from(d) * s, "{e:?}");
        }
        let mut out = [Winding::OnSurface];
        let work = windings(&m, &[Vec3::zeros()], &mut out).unwrap();
        assert_eq!(out[0], Winding::Number(1));
        assert_eq!((work.perturbed, work.retried, work.segments), (1, 1, DIRECTIONS.len() as u64 + 1));
        assert!((solid_angle_winding(&tris, &Vec3::zeros()) - 1.0).abs() < 1e-9);
        // The blocking corners themselves are on the surface.
        for d in DIRECTIONS {
            assert_eq!(winding(&m, &(Vec3::from(d) * 2.0)).unwrap(), Winding::OnSurface);
        }
    }

    /// Vertices, exact edge points and face points of curved closed meshes are `OnSurface`;
    /// points nudged off them by a few ulps along the normal's largest axis are inside or
    /// outside by the solid-angle reference at the unnudged point's sides; at several scales
    /// and far from the origin.
    #[test]
    fn surface_points_of_curved_meshes() {
        use crate::geometry::predicates::collinear;
        use crate::geometry::segment_triangle::point_on_triangle;
        let mut rng = Rng(0x0c0_ffee);
        let mut on = 0;
        for (scale, offset) in [(1.0, 0.0), (2f64.powi(-500), 0.0), (2f64.powi(400), 0.0), (2f64.powi(-40), 1.0)] {
            for base in [sphere(20, 10, Vec3::new(0.25, 0.0, 0.5), 1.5), torus(24, 12, 2.0, 0.75)] {
                let tris = moved(&base, scale, Vec3::repeat(offset));
                let m = model(&tris);
                for t in tris.iter().step_by(5) {
                    let mid = (t[0] + t[1]) * 0.5;
                    let inner = t[0] * 0.25 + t[1] * 0.25 + t[2] * 0.5;
                    assert_eq!(winding(&m, &t[rng.below(3) as usize]).unwrap(), Winding::OnSurface);
                    if collinear(&t[0], &t[1], &mid) {
                        assert_eq!(winding(&m, &mid).unwrap(), Winding::OnSurface);
                        on += 1;
                    }
                    if point_on_triangle(&inner, t) {
                        assert_eq!(winding(&m, &inner).unwrap(), Winding::OnSurface);
                        // A few ulps along the outward normal's largest axis: outside; against
                        // it: inside (the meshes are convex enough near a face's centroid).
                        let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
                        let k = n.iamax();
                        let mut step = |dir: i64| {
                            let mut x = inner;
                            let ulps = dir * n[k].signum() as i64 * (1 + rng.below(4) as i64);
                            x[k] =
                                f64::from_bits((x[k].to_bits() as i64 + if x[k] >= 0.0 { ulps } else { -ulps }) as u64);
                            x
                        };
                        assert_eq!(winding(&m, &step(1)).unwrap(), Winding::Number(0));
                        assert_eq!(winding(&m, &step(-1)).unwrap(), Winding::Number(1));
                        on += 1;
                    }
                }
            }
        }
        assert!(on > 100, "{on}");
    }

    #[test]
    fn refuses_bad_points() {
        let m = model(&tetrahedron());
        assert_eq!(winding(&m, &Vec3::new(f64::NAN, 0.0, 0.0)), Err(QueryError::NonFinite));
        assert_eq!(winding(&m, &Vec3::new(0.0, f64::NEG_INFINITY, 0.0)), Err(QueryError::NonFinite));
        assert_eq!(winding(&m, &Vec3::new(0.0, 0.0, 1e302)), Err(QueryError::OutOfRange));
        let mut out = [Winding::OnSurface; 1];
        assert_eq!(windings(&m, &[Vec3::zeros(), Vec3::zeros()], &mut out), Err(QueryError::InvalidArgument));
        // Far but in range.
        assert_eq!(winding(&m, &Vec3::new(1e301, -1e301, 1e301)).unwrap(), Winding::Number(0));
        assert_eq!(winding(&m, &Vec3::new(0.5, 0.5, 0.5)).unwrap(), Winding::Number(1));
        // A model and points at the edge of the range (far endpoints beyond 2^1000).
        let limit = crate::math::RANGE_LIMIT;
        let big = model(&moved(&tetrahedron(), 2f64.powi(998), Vec3::zeros()));
        assert_eq!(winding(&big, &Vec3::new(-limit, limit, -limit)).unwrap(), Winding::Number(0));
        assert_eq!(winding(&big, &Vec3::new(limit, limit, limit)).unwrap(), Winding::Number(0));
        assert_eq!(winding(&big, &(Vec3::repeat(2f64.powi(998)))).unwrap(), Winding::Number(1));
        assert_eq!(winding(&big, &Vec3::new(0.0, 0.0, 4.0 * 2f64.powi(998))).unwrap(), Winding::OnSurface);
        let ray = crate::query::Ray { origin: Vec3::repeat(-limit), direction: Vec3::repeat(1.0) };
        let hit = crate::query::ray_first_hit(&big, &ray, f64::INFINITY).unwrap().unwrap();
        assert!((hit.t - limit).abs() <= 1e-12 * limit && hit.point.amax() == 0.0);
    }
}
