//! The native C API of solid models: a model's facts as a solid's boundary, closest points,
//! signed distances and inside/outside of points, ray casts and segment hits, and the solid
//! collide and signed separation of two closed models. Each function checks its arguments,
//! calls the Rust core (`crate::query::{point, ray, winding, solid}`) and copies its answers
//! out; the batched ones cut their points (or rays) into contiguous chunks, one core batch
//! call per chunk, shared between threads by [`super::batch::share`].
//!
//! Points are arrays of `3·n` doubles (`x y z` per point) in the model's own frame.

use std::ffi::c_int;

use super::batch::{broadcast, share};
use super::guard;
use super::native::{
    RPQ_ERR_INTERNAL, RPQ_ERR_INVALID_ARGUMENT, RPQ_ERR_INVALID_SCALE, RPQ_ERR_NON_FINITE, RPQ_ERR_NOT_CLOSED,
    RPQ_ERR_NOT_ROTATION, RPQ_ERR_NULL_POINTER, RPQ_ERR_OUT_OF_MEMORY, RPQ_ERR_OUT_OF_RANGE, RPQ_OK, RpqModel, RpqPose,
    RpqStatus, model_ref, read_pose,
};
use crate::math::{Placement, Vec3};
use crate::model::Model;
use crate::query::point::{ClosestPoint, PointError, closest_points};
use crate::query::ray::{self, Ray, RayHit, ray_any_hits, ray_first_hits, segment_hits};
use crate::query::solid::{
    SeparationBound, SolidQueryError, SolidRelation, contains, separation, signed_distances, solid_collide,
};
use crate::query::{QueryError, Winding};

/// `rpq_contains`: the point is outside the solid (winding number 0).
pub const RPQ_OUTSIDE: u8 = 0;
/// `rpq_contains`: the point is inside the solid (nonzero winding number).
pub const RPQ_INSIDE: u8 = 1;
/// `rpq_contains`: the point lies exactly on the surface (edges and vertices included).
pub const RPQ_ON_SURFACE: u8 = 2;

/// `RpqSolidCollideResult::relation`: the solids are disjoint.
pub const RPQ_SOLID_APART: c_int = 0;
/// The surfaces intersect (touching counts).
pub const RPQ_SOLID_SURFACES_CROSS: c_int = 1;
/// Model 1's surface lies wholly inside model 2's solid, without touching its surface.
pub const RPQ_SOLID_FIRST_INSIDE_SECOND: c_int = 2;
/// Model 2's surface lies wholly inside model 1's solid, without touching its surface.
pub const RPQ_SOLID_SECOND_INSIDE_FIRST: c_int = 3;

/// `RpqSeparation::bound`: the models are apart and the figure is their distance.
pub const RPQ_SEPARATION_DISTANCE: c_int = 0;
/// The solids overlap and a direction was given: minus the exact translational penetration
/// depth along it (up to rounding, never less than it).
pub const RPQ_SEPARATION_DEPTH_ALONG_DIRECTION: c_int = 1;
/// The solids overlap: minus the least depth found over the directions tried, an upper bound
/// on the translational penetration depth.
pub const RPQ_SEPARATION_DEPTH_UPPER_BOUND: c_int = 2;

/// What a model's triangles make as the boundary of a solid (see the README, "Solid facts and
/// closest points"). Vertices are welded by exact equality of their coordinates; collapsed
/// triangles (two or three corners equal) are left out of every count but
/// `collapsed_triangles`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RpqSolidFacts {
    /// 1 when every edge is used by exactly two faces in opposite directions (the faces bound
    /// a solid): the solid functions accept the model. Else 0.
    pub closed: c_int,
    /// 1 when no edge is misoriented (neighbouring faces agree on their orientation).
    pub oriented: c_int,
    /// Edges used by exactly one face.
    pub boundary_edges: u64,
    /// Edges used by more than two faces.
    pub non_manifold_edges: u64,
    /// Edges used by two or more faces not as often in one direction as in the other.
    pub misoriented_edges: u64,
    /// Distinct corner coordinates of the faces.
    pub vertices: u64,
    /// Distinct (undirected) edges of the faces.
    pub edges: u64,
    /// Triangles counted: all but the collapsed ones.
    pub faces: u64,
    /// Triangles with two or three corners at the same coordinates.
    pub collapsed_triangles: u64,
    /// Connected pieces of the faces (faces sharing a vertex are connected).
    pub components: u64,
    /// `vertices − edges + faces`.
    pub euler_characteristic: i64,
    /// The enclosed volume, positive when the faces are counter-clockwise seen from outside
    /// (for a closed model; infinite beyond the doubles' range).
    pub signed_volume: f64,
}

/// The closest point of a model's surface to a query point.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RpqClosestPoint {
    /// The unsigned distance (model units); `INFINITY` when not `found`.
    pub distance: f64,
    /// The closest point on the surface, in the model's frame; NaN when not `found`.
    pub point: [f64; 3],
    /// The caller's id of the triangle it lies on; -1 when not `found`.
    pub id: i32,
    /// That triangle's leaf-order index; `UINT32_MAX` when not `found`.
    pub triangle: u32,
    /// 1 exactly when the query point lies on the surface (decided exactly; then `distance`
    /// is 0).
    pub on_surface: c_int,
    /// 0 when nothing lies within `max_distance` (then the fields above are as noted).
    pub found: c_int,
}

impl RpqClosestPoint {
    fn of(c: &Option<ClosestPoint>) -> RpqClosestPoint {
        match c {
            Some(c) => RpqClosestPoint {
                distance: c.distance,
                point: [c.point.x, c.point.y, c.point.z],
                id: c.id,
                triangle: c.triangle,
                on_surface: c_int::from(c.on_surface),
                found: 1,
            },
            None => RpqClosestPoint {
                distance: f64::INFINITY,
                point: [f64::NAN; 3],
                id: -1,
                triangle: u32::MAX,
                on_surface: 0,
                found: 0,
            },
        }
    }
}

/// Where a ray or segment meets a triangle.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RpqRayHit {
    /// 1 for a hit; 0 for none (then `t` is `INFINITY`, `point` and `barycentric` NaN, `id`
    /// -1 and `triangle` `UINT32_MAX`).
    pub hit: c_int,
    /// `origin + t·direction` is the hit point (`direction` not normalized); for
    /// `rpq_segment_hits` the segment parameter in [0, 1] (`a + t·(b − a)`).
    pub t: f64,
    /// The hit point, in the model's frame.
    pub point: [f64; 3],
    /// The caller's id of the triangle hit.
    pub id: i32,
    /// The triangle's leaf-order index.
    pub triangle: u32,
    /// Weights of the triangle's three corners, each in [0, 1], summing to 1 up to rounding.
    pub barycentric: [f64; 3],
}

impl RpqRayHit {
    const MISS: RpqRayHit = RpqRayHit {
        hit: 0,
        t: f64::INFINITY,
        point: [f64::NAN; 3],
        id: -1,
        triangle: u32::MAX,
        barycentric: [f64::NAN; 3],
    };

    /// A hit whose place is unknown (`rpq_ray_cast` with `any_hit`): every other field NaN,
    /// -1 or `UINT32_MAX`.
    const SOME_HIT: RpqRayHit = RpqRayHit { hit: 1, t: f64::NAN, ..RpqRayHit::MISS };

    fn of(h: &RayHit) -> RpqRayHit {
        RpqRayHit {
            hit: 1,
            t: h.t,
            point: [h.point.x, h.point.y, h.point.z],
            id: h.id,
            triangle: h.triangle,
            barycentric: h.barycentric,
        }
    }
}

/// Result of `rpq_solid_collide`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RpqSolidCollideResult {
    /// `RPQ_SOLID_*`: how the solids meet.
    pub relation: c_int,
    /// 1 when the solids have a point in common (every relation but `RPQ_SOLID_APART`).
    pub intersecting: c_int,
    /// The ids of an intersecting triangle pair (model 1's, model 2's) when the surfaces
    /// cross; -1 otherwise.
    pub id1: i32,
    pub id2: i32,
    /// Bounding-volume tests and triangle tests of the queries run.
    pub bv_tests: u64,
    pub tri_tests: u64,
}

/// Result of `rpq_separation`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RpqSeparation {
    /// The distance when the solids are apart; minus the penetration depth when they overlap
    /// (0 when they only touch).
    pub signed_distance: f64,
    /// Overlapping: the world translation of model 2 that separates the solids (to touching),
    /// its length the depth. Apart: zero.
    pub translation: [f64; 3],
    /// `RPQ_SEPARATION_*`: what `signed_distance` is.
    pub bound: c_int,
    /// `RPQ_SOLID_*`: how the solids meet at the given poses.
    pub relation: c_int,
    /// Closest points when apart (on model 1, in its own frame; on model 2, in its own
    /// frame); NaN when the solids overlap.
    pub p1: [f64; 3],
    pub p2: [f64; 3],
    /// Directions swept (0 when apart).
    pub directions: u32,
    /// Bounding-volume tests and triangle tests of every query run.
    pub bv_tests: u64,
    pub tri_tests: u64,
}

fn relation_code(r: SolidRelation) -> c_int {
    match r {
        SolidRelation::Apart => RPQ_SOLID_APART,
        SolidRelation::SurfacesCross => RPQ_SOLID_SURFACES_CROSS,
        SolidRelation::FirstInsideSecond => RPQ_SOLID_FIRST_INSIDE_SECOND,
        SolidRelation::SecondInsideFirst => RPQ_SOLID_SECOND_INSIDE_FIRST,
    }
}

pub(super) fn query_status(e: QueryError) -> RpqStatus {
    match e {
        QueryError::NonFinite => RPQ_ERR_NON_FINITE,
        QueryError::InvalidScale => RPQ_ERR_INVALID_SCALE,
        QueryError::NotRotation => RPQ_ERR_NOT_ROTATION,
        QueryError::OutOfRange => RPQ_ERR_OUT_OF_RANGE,
        QueryError::InvalidArgument => RPQ_ERR_INVALID_ARGUMENT,
    }
}

fn solid_status(e: SolidQueryError) -> RpqStatus {
    match e {
        SolidQueryError::NotClosed { .. } => RPQ_ERR_NOT_CLOSED,
        SolidQueryError::Query(e) => query_status(e),
    }
}

fn point_status(e: PointError) -> RpqStatus {
    match e {
        PointError::NonFinite { .. } => RPQ_ERR_NON_FINITE,
        PointError::OutOfRange { .. } => RPQ_ERR_OUT_OF_RANGE,
        PointError::InvalidMaxDistance => RPQ_ERR_INVALID_ARGUMENT,
        // (The C layer sizes the outputs itself.)
        PointError::LengthMismatch => RPQ_ERR_INTERNAL,
    }
}

/// Reads `n` points (`3n` doubles) and checks each: finite (`RPQ_ERR_NON_FINITE`) and within
/// the supported range (`RPQ_ERR_OUT_OF_RANGE`), as the core checks them.
///
/// # Safety
/// `points` is NULL or points to `3 * n` readable doubles.
unsafe fn read_points(points: *const f64, n: usize) -> Result<Vec<Vec3>, RpqStatus> {
    if n == 0 {
        return Ok(Vec::new());
    }
    if points.is_null() {
        return Err(RPQ_ERR_NULL_POINTER);
    }
    let count = n.checked_mul(3).ok_or(RPQ_ERR_INVALID_ARGUMENT)?;
    // SAFETY: the caller provides 3 * n doubles.
    let values = unsafe { std::slice::from_raw_parts(points, count) };
    let mut out = Vec::new();
    out.try_reserve_exact(n).map_err(|_| RPQ_ERR_OUT_OF_MEMORY)?;
    for c in values.chunks_exact(3) {
        let p = Vec3::new(c[0], c[1], c[2]);
        ray::check_point(&p).map_err(query_status)?;
        out.push(p);
    }
    Ok(out)
}

/// Copies `values` to the C array `out` (as many entries).
///
/// # Safety
/// `out` holds `values.len()` writable entries (it may be NULL when there are none).
pub(super) unsafe fn write_all<T: Copy>(out: *mut T, values: &[T]) {
    if !values.is_empty() {
        // SAFETY: per the contract; `values` is the library's own memory, so they cannot overlap.
        unsafe { std::ptr::copy_nonoverlapping(values.as_ptr(), out, values.len()) };
    }
}

/// Writes the answers `(a, b)` in order to `out_a[i]` and, when `out_b` is not NULL, to
/// `out_b[i]`.
///
/// # Safety
/// `out_a`, and `out_b` when not NULL, hold a writable entry for every answer.
unsafe fn write_pairs<A, B>(out_a: *mut A, out_b: *mut B, answers: impl Iterator<Item = (A, B)>) {
    for (i, (a, b)) in answers.enumerate() {
        // SAFETY: per the contract.
        unsafe {
            *out_a.add(i) = a;
            if !out_b.is_null() {
                *out_b.add(i) = b;
            }
        }
    }
}

/// The common part of the point batches: checks the model handle, that the first output
/// `out` is given (when there are points), that the model is closed (when `solid`), and every
/// point; then runs `query(model, chunk, answers)` on contiguous chunks of the points, one core
/// batch call each ([`share`]), and returns one answer per point, in order.
///
/// # Safety
/// `model` is not freed during the call; `points` is NULL or holds `3 * n` readable doubles.
unsafe fn point_batch<R: Send>(
    model: *const RpqModel,
    points: *const f64,
    n: usize,
    threads: c_int,
    out: bool,
    solid: bool,
    query: impl Fn(&Model, &[Vec3], &mut Vec<R>) -> Result<(), RpqStatus> + Sync,
) -> Result<Vec<R>, RpqStatus> {
    // SAFETY: forwarded contract.
    let m = unsafe { model_ref(model) }?;
    let m = &*m;
    if n > 0 && !out {
        return Err(RPQ_ERR_NULL_POINTER);
    }
    if solid {
        m.solid_facts().require_closed().map_err(|_| RPQ_ERR_NOT_CLOSED)?;
    }
    // SAFETY: forwarded contract.
    let pts = unsafe { read_points(points, n) }?;
    share(n, threads, 1, || (), |range, _, answers| query(m, &pts[range], answers))
}

/// Writes a model's facts as a solid's boundary to `*out`: whether it is closed (which
/// `rpq_signed_distance`, `rpq_contains`, `rpq_solid_collide` and `rpq_separation` require) and
/// oriented, the edges that keep it open, its counts and its signed volume. Computed on the
/// first call for a model (linear time) and kept.
///
/// Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`; `*out` written only on success.
///
/// # Safety
/// `model` is not freed during the call; `out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_solid_facts(model: *const RpqModel, out: *mut RpqSolidFacts) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        if out.is_null() {
            return RPQ_ERR_NULL_POINTER;
        }
        // SAFETY: forwarded contract.
        let m = match unsafe { model_ref(model) } {
            Ok(m) => m,
            Err(status) => return status,
        };
        let f = m.solid_facts();
        let facts = RpqSolidFacts {
            closed: c_int::from(f.closed),
            oriented: c_int::from(f.oriented),
            boundary_edges: f.boundary_edges as u64,
            non_manifold_edges: f.non_manifold_edges as u64,
            misoriented_edges: f.misoriented_edges as u64,
            vertices: f.vertices as u64,
            edges: f.edges as u64,
            faces: f.faces as u64,
            collapsed_triangles: f.collapsed_triangles as u64,
            components: f.components as u64,
            euler_characteristic: f.euler_characteristic,
            signed_volume: f.signed_volume,
        };
        // SAFETY: out is non-NULL and writable per the contract.
        unsafe { *out = facts };
        RPQ_OK
    })
}

/// The closest point of `model`'s surface to each of the `n` points (`3n` doubles, model
/// frame) that lies within `max_distance` of it, written to `out[i]` (`found` 0 when there is
/// none). `max_distance`: `INFINITY` for no bound; NaN or negative gives
/// `RPQ_ERR_INVALID_ARGUMENT`. Works on any model, closed or not.
///
/// Batches (this, `rpq_signed_distance`, `rpq_contains` and `rpq_ray_cast`): the points are cut
/// into contiguous chunks shared by `threads` threads (0 or less: one per available core; at
/// most `RPQ_MAX_BATCH_THREADS`, never more than there are points), the calling thread among
/// them; each chunk is one batch of the Rust core. Every input is checked before any query
/// runs, and the outputs are written only on success. `n` = 0 is fine: nothing is written and
/// the pointers may be NULL.
///
/// A batch searches its points in a spatial order, each from its predecessor's triangle, so
/// the answers can differ from single-point calls and between thread counts in two ways only:
/// when several triangles are equally close, which one is reported (`id`, `triangle`, and the
/// point up to rounding); and the distance by a few rounding units of the coordinates (so a
/// point at `max_distance` to that precision may be found or not). `on_surface` is exact.
///
/// Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`, `RPQ_ERR_INVALID_ARGUMENT` (as
/// above), `RPQ_ERR_NON_FINITE` (a NaN or infinite coordinate), `RPQ_ERR_OUT_OF_RANGE` (a
/// coordinate beyond 2^1000), `RPQ_ERR_OUT_OF_MEMORY`.
///
/// # Safety
/// `model` is not freed during the call; `points` holds `3 * n` readable doubles and `out` `n`
/// writable results (either may be NULL when `n` is 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_closest_points(
    model: *const RpqModel,
    points: *const f64,
    n: usize,
    max_distance: f64,
    threads: c_int,
    out: *mut RpqClosestPoint,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        if max_distance.is_nan() || max_distance < 0.0 {
            return RPQ_ERR_INVALID_ARGUMENT;
        }
        // SAFETY: forwarded contract for every pointer below.
        let run = || -> Result<(), RpqStatus> {
            let results = unsafe {
                point_batch(model, points, n, threads, !out.is_null(), false, |m, pts, answers| {
                    let mut found = vec![None; pts.len()];
                    closest_points(m, pts, max_distance, &mut found).map_err(point_status)?;
                    answers.extend(found.iter().map(RpqClosestPoint::of));
                    Ok(())
                })
            }?;
            // SAFETY: `out` holds `n` writable results, per the contract.
            unsafe { write_all(out, &results) };
            Ok(())
        };
        run().err().unwrap_or(RPQ_OK)
    })
}

/// The signed distance of each of the `n` points (`3n` doubles, model frame) to the closed
/// `model`'s surface, written to `out_distance[i]`: the distance to the closest point,
/// negative inside the solid (nonzero winding number), exactly 0 on the surface. When
/// `out_closest` is not NULL, the closest points go there, as `rpq_closest_points` gives them
/// with no bound. The sign is exact; the magnitude is as `rpq_closest_points`' (batches: see
/// there).
///
/// Errors: `RPQ_ERR_NOT_CLOSED` (the model is open: `rpq_model_solid_facts` tells why), and as
/// `rpq_closest_points`.
///
/// # Safety
/// As `rpq_closest_points`; `out_distance` holds `n` writable doubles, `out_closest` is NULL or
/// holds `n` writable results.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_signed_distance(
    model: *const RpqModel,
    points: *const f64,
    n: usize,
    threads: c_int,
    out_distance: *mut f64,
    out_closest: *mut RpqClosestPoint,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract for every pointer below.
        let run = || -> Result<(), RpqStatus> {
            let results = unsafe {
                point_batch(model, points, n, threads, !out_distance.is_null(), true, |m, pts, answers| {
                    let (mut d, mut c) = (vec![0.0; pts.len()], vec![None; pts.len()]);
                    signed_distances(m, pts, &mut d, Some(&mut c)).map_err(solid_status)?;
                    answers.extend(d.iter().zip(&c).map(|(&d, c)| (d, RpqClosestPoint::of(c))));
                    Ok(())
                })
            }?;
            // SAFETY: the outputs hold `n` writable entries (`out_closest` when not NULL).
            unsafe { write_pairs(out_distance, out_closest, results.into_iter()) };
            Ok(())
        };
        run().err().unwrap_or(RPQ_OK)
    })
}

/// Where each of the `n` points (`3n` doubles, model frame) is with respect to the closed
/// `model`'s solid, decided exactly: `out_where[i]` is `RPQ_ON_SURFACE` (on a triangle, edges
/// and vertices included), `RPQ_INSIDE` (nonzero winding number: nested shells and either
/// orientation work) or `RPQ_OUTSIDE`. When `out_winding` is not NULL, the winding number
/// goes there (+1 inside a simple model with outward normals, −1 with inward ones; 0 on the
/// surface). The answers do not depend on `threads` (batches: see `rpq_closest_points`).
///
/// Errors: `RPQ_ERR_NOT_CLOSED`, and as `rpq_closest_points` (but for `max_distance`).
///
/// # Safety
/// As `rpq_closest_points`; `out_where` holds `n` writable bytes, `out_winding` is NULL or
/// holds `n` writable `int32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_contains(
    model: *const RpqModel,
    points: *const f64,
    n: usize,
    threads: c_int,
    out_where: *mut u8,
    out_winding: *mut i32,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract for every pointer below.
        let run = || -> Result<(), RpqStatus> {
            let results = unsafe {
                point_batch(model, points, n, threads, !out_where.is_null(), true, |m, pts, answers| {
                    let start = answers.len();
                    answers.resize(start + pts.len(), Winding::OnSurface);
                    contains(m, pts, &mut answers[start..]).map_err(solid_status)?;
                    Ok(())
                })
            }?;
            let answers = results.into_iter().map(|w| match w {
                Winding::OnSurface => (RPQ_ON_SURFACE, 0),
                Winding::Number(0) => (RPQ_OUTSIDE, 0),
                Winding::Number(k) => (RPQ_INSIDE, k),
            });
            // SAFETY: the outputs hold `n` writable entries (`out_winding` when not NULL).
            unsafe { write_pairs(out_where, out_winding, answers) };
            Ok(())
        };
        run().err().unwrap_or(RPQ_OK)
    })
}

/// Casts the rays `origins[i] + t·directions[i]`, `t` in [0, `max_t`] (`max_t` may be
/// `INFINITY`; NaN or negative gives `RPQ_ERR_INVALID_ARGUMENT`), at `model` (model frame),
/// writing `out[i]`. Which triangles a ray meets is decided exactly (edges and vertices
/// included: a ray through a vertex or an edge hits); see the README, "Ray casts and
/// inside/outside".
///
/// `origins` holds `num_origins` points and `directions` `num_directions` vectors (3 doubles
/// each); they broadcast as the poses of the pose batches: the number of rays is the larger
/// count (0 if either is 0), and each count must be that number or 1 (else
/// `RPQ_ERR_INVALID_ARGUMENT`). A zero direction gives `RPQ_ERR_INVALID_ARGUMENT`.
///
/// `any_hit` 0: `out[i]` is the nearest hit (least `t`; ties: least `triangle`), the same
/// whatever `threads`. Nonzero: the search stops at the first hit found and tells only whether
/// there is one: `hit` is 1 or 0, and every other field is as for no hit but `t`, which is NaN
/// for a hit.
///
/// Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`, `RPQ_ERR_INVALID_ARGUMENT`,
/// `RPQ_ERR_NON_FINITE`, `RPQ_ERR_OUT_OF_RANGE` (a coordinate beyond 2^1000, or a direction so
/// small against the distance to the model that the ray parameter there would overflow),
/// `RPQ_ERR_OUT_OF_MEMORY`. Batches: see `rpq_closest_points`.
///
/// # Safety
/// `model` is not freed during the call; `origins` holds `3 * num_origins` and `directions`
/// `3 * num_directions` readable doubles, `out` one writable hit per ray (each may be NULL when
/// there are no rays).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_ray_cast(
    model: *const RpqModel,
    origins: *const f64,
    num_origins: usize,
    directions: *const f64,
    num_directions: usize,
    max_t: f64,
    any_hit: c_int,
    threads: c_int,
    out: *mut RpqRayHit,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract for every pointer below.
        let run = || -> Result<(), RpqStatus> {
            let m = unsafe { model_ref(model) }?;
            let m = &*m;
            let n = broadcast(num_origins, num_directions)?;
            if max_t.is_nan() || max_t < 0.0 {
                return Err(RPQ_ERR_INVALID_ARGUMENT);
            }
            if n == 0 {
                return Ok(());
            }
            if out.is_null() || origins.is_null() || directions.is_null() {
                return Err(RPQ_ERR_NULL_POINTER);
            }
            let o = unsafe { read_array_of_3(origins, num_origins) }?;
            let d = unsafe { read_array_of_3(directions, num_directions) }?;
            let mut rays = Vec::new();
            rays.try_reserve_exact(n).map_err(|_| RPQ_ERR_OUT_OF_MEMORY)?;
            for i in 0..n {
                let ray =
                    Ray { origin: o[if o.len() == 1 { 0 } else { i }], direction: d[if d.len() == 1 { 0 } else { i }] };
                ray::ray_end(m, &ray, max_t).map_err(query_status)?;
                rays.push(ray);
            }
            let results = if any_hit != 0 {
                share(
                    n,
                    threads,
                    1,
                    || (),
                    |range, _, chunk: &mut Vec<RpqRayHit>| {
                        let mut hit = vec![false; range.len()];
                        ray_any_hits(m, &rays[range], max_t, &mut hit).map_err(query_status)?;
                        chunk.extend(hit.iter().map(|&h| if h { RpqRayHit::SOME_HIT } else { RpqRayHit::MISS }));
                        Ok(())
                    },
                )
            } else {
                share(
                    n,
                    threads,
                    1,
                    || (),
                    |range, _, chunk: &mut Vec<RpqRayHit>| {
                        let mut hit = vec![None; range.len()];
                        ray_first_hits(m, &rays[range], max_t, &mut hit).map_err(query_status)?;
                        chunk.extend(hit.iter().map(|h| h.as_ref().map_or(RpqRayHit::MISS, RpqRayHit::of)));
                        Ok(())
                    },
                )
            }?;
            // SAFETY: the outputs are writable per the contract; every input was checked.
            unsafe { write_all(out, &results) };
            Ok(())
        };
        run().err().unwrap_or(RPQ_OK)
    })
}

/// Reads `count` triples of doubles (no check of their values).
///
/// # Safety
/// `p` points to `3 * count` readable doubles.
pub(super) unsafe fn read_array_of_3(p: *const f64, count: usize) -> Result<Vec<Vec3>, RpqStatus> {
    let total = count.checked_mul(3).ok_or(RPQ_ERR_INVALID_ARGUMENT)?;
    // SAFETY: per the contract.
    let values = unsafe { std::slice::from_raw_parts(p, total) };
    let mut out = Vec::new();
    out.try_reserve_exact(count).map_err(|_| RPQ_ERR_OUT_OF_MEMORY)?;
    out.extend(values.chunks_exact(3).map(|c| Vec3::new(c[0], c[1], c[2])));
    Ok(out)
}

/// Every triangle of `model` the closed segment `a → b` (model frame) meets, sorted by the
/// segment parameter `t` in [0, 1] (`a + t·(b − a)`; ties: by `triangle`), decided exactly as
/// `rpq_ray_cast` decides them; `a == b` asks which triangles hold the point. Writes the
/// first `min(capacity, total)` hits to `out` and the total number to `*out_count`: when that
/// exceeds `capacity`, call again with a larger buffer. `out` may be NULL when `capacity` is 0.
///
/// Errors: `RPQ_ERR_NULL_POINTER` (`model`, `a`, `b` or `out_count` NULL, or `out` NULL with a
/// nonzero `capacity`), `RPQ_ERR_INVALID_HANDLE`, `RPQ_ERR_NON_FINITE`, `RPQ_ERR_OUT_OF_RANGE`;
/// nothing is written on error.
///
/// # Safety
/// `model` is not freed during the call; `a` and `b` point to 3 readable doubles each; `out`
/// holds `capacity` writable hits; `out_count` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_segment_hits(
    model: *const RpqModel,
    a: *const f64,
    b: *const f64,
    out: *mut RpqRayHit,
    capacity: usize,
    out_count: *mut usize,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract for every pointer below.
        let run = || -> Result<(), RpqStatus> {
            let m = unsafe { model_ref(model) }?;
            let m = &*m;
            if a.is_null() || b.is_null() || out_count.is_null() || (out.is_null() && capacity > 0) {
                return Err(RPQ_ERR_NULL_POINTER);
            }
            let [a, b] = [a, b].map(|p| {
                let c = unsafe { super::read_array::<3>(p) };
                Vec3::new(c[0], c[1], c[2])
            });
            let mut hits = Vec::new();
            segment_hits(m, &a, &b, &mut hits).map_err(query_status)?;
            let shown: Vec<RpqRayHit> = hits.iter().take(capacity).map(RpqRayHit::of).collect();
            // SAFETY: the outputs are writable per the contract; every input was checked.
            unsafe {
                write_all(out, &shown);
                *out_count = hits.len();
            }
            Ok(())
        };
        run().err().unwrap_or(RPQ_OK)
    })
}

/// The common part of the two-model queries: checks `out`, the handles and the poses, runs
/// `query` and writes its answer to `*out` (only on success), inside [`guard`].
///
/// # Safety
/// The models are not freed during the call; the poses are NULL or readable; `out` is NULL or
/// writable.
pub(super) unsafe fn pair_query<T>(
    m1: *const RpqModel,
    p1: *const RpqPose,
    m2: *const RpqModel,
    p2: *const RpqPose,
    out: *mut T,
    query: impl FnOnce(&Model, &Placement, &Model, &Placement) -> Result<T, RpqStatus>,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        if out.is_null() {
            return RPQ_ERR_NULL_POINTER;
        }
        // SAFETY: forwarded contract for every pointer below.
        let run = || -> Result<(), RpqStatus> {
            let (m1, m2) = (unsafe { model_ref(m1) }?, unsafe { model_ref(m2) }?);
            let (m1, m2) = (&*m1, &*m2);
            let (p1, p2) = (unsafe { read_pose(p1) }?, unsafe { read_pose(p2) }?);
            let answer = query(m1, &p1, m2, &p2)?;
            unsafe { *out = answer };
            Ok(())
        };
        run().err().unwrap_or(RPQ_OK)
    })
}

/// How the solids bounded by the closed models `m1` at `p1` and `m2` at `p2` meet, written
/// to `*out`: `relation` is `RPQ_SOLID_SURFACES_CROSS` when the surfaces intersect (touching
/// counts; then `id1`, `id2` name an intersecting triangle pair), else
/// `RPQ_SOLID_FIRST_INSIDE_SECOND`, `RPQ_SOLID_SECOND_INSIDE_FIRST` or `RPQ_SOLID_APART`.
/// Exact: a first-contact collide, then winding numbers.
///
/// Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`, the pose errors of `rpq_collide`
/// (`RPQ_ERR_NON_FINITE`, `RPQ_ERR_INVALID_SCALE`, `RPQ_ERR_NOT_ROTATION`),
/// `RPQ_ERR_OUT_OF_RANGE`, and `RPQ_ERR_NOT_CLOSED` when either model is open (which one:
/// ask `rpq_model_solid_facts`). `*out` is written only on success.
///
/// # Safety
/// The models are not freed during the call; the poses are readable; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_solid_collide(
    m1: *const RpqModel,
    p1: *const RpqPose,
    m2: *const RpqModel,
    p2: *const RpqPose,
    out: *mut RpqSolidCollideResult,
) -> RpqStatus {
    let query = |m1: &Model, p1: &Placement, m2: &Model, p2: &Placement| {
        let r = solid_collide(m1, p1, m2, p2).map_err(solid_status)?;
        let (id1, id2) = r.pair.unwrap_or((-1, -1));
        Ok(RpqSolidCollideResult {
            relation: relation_code(r.relation),
            intersecting: c_int::from(r.intersecting()),
            id1,
            id2,
            bv_tests: r.bv_tests,
            tri_tests: r.tri_tests,
        })
    };
    // SAFETY: forwarded contract.
    unsafe { pair_query(m1, p1, m2, p2, out, query) }
}

/// The signed separation of the closed models `m1` at `p1` and `m2` at `p2`, written to
/// `*out`: their distance when the solids are apart (`bound` `RPQ_SEPARATION_DISTANCE`, with
/// closest points `p1`, `p2`); when they overlap, minus the depth of a translation of model 2
/// that separates them (`translation`). With `direction` (3 doubles, any nonzero finite world
/// vector) the depth is the exact translational penetration depth along it
/// (`RPQ_SEPARATION_DEPTH_ALONG_DIRECTION`); with `direction` NULL it is the least found over
/// a set of directions, refined around the best: an upper bound on the translational
/// penetration depth (`RPQ_SEPARATION_DEPTH_UPPER_BOUND`), exact when the best direction is
/// among those tried (boxes overlapping along an axis, nested boxes). See the README, "Solid
/// queries: containment, signed distance, solid collide, separation".
///
/// Errors: as `rpq_solid_collide` (`RPQ_ERR_NOT_CLOSED` names no model: `rpq_model_solid_facts`
/// tells which is open); a zero `direction` gives `RPQ_ERR_INVALID_ARGUMENT`, a NaN or infinite
/// one `RPQ_ERR_NON_FINITE`. `*out` is written only on success.
///
/// # Safety
/// As `rpq_solid_collide`; `direction` is NULL or points to 3 readable doubles.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_separation(
    m1: *const RpqModel,
    p1: *const RpqPose,
    m2: *const RpqModel,
    p2: *const RpqPose,
    direction: *const f64,
    out: *mut RpqSeparation,
) -> RpqStatus {
    let query = |m1: &Model, p1: &Placement, m2: &Model, p2: &Placement| {
        let direction = if direction.is_null() {
            None
        } else {
            // SAFETY: 3 readable doubles per the contract.
            let d = unsafe { super::read_array::<3>(direction) };
            Some(Vec3::new(d[0], d[1], d[2]))
        };
        let s = separation(m1, p1, m2, p2, direction).map_err(solid_status)?;
        Ok(RpqSeparation {
            signed_distance: s.signed_distance,
            translation: [s.translation.x, s.translation.y, s.translation.z],
            bound: match s.bound {
                SeparationBound::Distance => RPQ_SEPARATION_DISTANCE,
                SeparationBound::DepthAlongDirection => RPQ_SEPARATION_DEPTH_ALONG_DIRECTION,
                SeparationBound::DepthUpperBound => RPQ_SEPARATION_DEPTH_UPPER_BOUND,
            },
            relation: relation_code(s.relation),
            p1: [s.p1.x, s.p1.y, s.p1.z],
            p2: [s.p2.x, s.p2.y, s.p2.z],
            directions: s.directions,
            bv_tests: s.bv_tests,
            tri_tests: s.tri_tests,
        })
    };
    // SAFETY: forwarded contract (`direction` is read only after the other arguments are checked).
    unsafe { pair_query(m1, p1, m2, p2, out, query) }
}
