//! Queries on two closed models as solids: whether the solids intersect (their surfaces cross
//! or touch, or one lies wholly inside the other), and their signed separation — the distance
//! when apart, minus a translational penetration depth when they overlap.
//!
//! Both models must be closed ([`crate::SolidFacts::closed`]); an open model is refused with
//! the counts of the edges that keep it open. A closed model's solid is the set of points of
//! nonzero winding number ([`winding`]) together with its surface, so nested shells and either
//! orientation work.
//!
//! [`solid_collide`] runs one first-contact collide; without a surface contact the solids are
//! either nested or apart, and one point-in-solid query each way tells which. [`separation`]
//! measures overlap with the translational sweep ([`sweep_last_contact`]): moving model 2 along
//! a unit direction `u`, the solids overlap until the last moment their surfaces touch (after
//! it they can never nest again, since far along `u` they are apart), so that moment is the
//! exact translational penetration depth along `u`.

use super::collide::{CollideRequest, CollideResult, collide_placed};
use super::distance::{DistanceRequest, distance};
use super::point::{ClosestPoint, PointError, closest_points};
use super::sweep::{SweepRequest, sweep_last_contact};
use super::winding::{Winding, WindingWork, winding, windings};
use super::{QueryError, Relative, check_placements};
use crate::geometry::predicates::{log2_floor, times_pow2};
use crate::geometry::tri_contact::{COPLANAR, CROSSING};
use crate::math::{Placement, Vec3, length};
use crate::model::{Model, SolidError};

/// How two closed models' solids meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolidRelation {
    /// The solids are disjoint (no point in common).
    Apart,
    /// The surfaces intersect (touching counts): some triangle pair intersects.
    SurfacesCross,
    /// Model 1's surface lies wholly inside model 2's solid, without touching its surface.
    FirstInsideSecond,
    /// Model 2's surface lies wholly inside model 1's solid, without touching its surface.
    SecondInsideFirst,
}

impl SolidRelation {
    /// Whether the solids have a point in common.
    pub fn intersecting(self) -> bool {
        self != SolidRelation::Apart
    }
}

/// A solid query refused; nothing was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolidQueryError {
    /// Model `model` (1 or 2) is not closed.
    NotClosed {
        /// 1 or 2.
        model: u8,
        /// What keeps it from being closed.
        error: SolidError,
    },
    /// The placements or a request's number were refused, as for the other queries.
    Query(QueryError),
}

impl std::fmt::Display for SolidQueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolidQueryError::NotClosed { model, error } => write!(f, "model {model}: {error}"),
            SolidQueryError::Query(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SolidQueryError {}

impl From<QueryError> for SolidQueryError {
    fn from(e: QueryError) -> SolidQueryError {
        SolidQueryError::Query(e)
    }
}

/// Result of [`solid_collide`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolidCollideResult {
    /// How the solids meet.
    pub relation: SolidRelation,
    /// The ids of an intersecting triangle pair (model 1's, model 2's) when the surfaces cross.
    pub pair: Option<(i32, i32)>,
    /// Box-pair tests of the collide plus those of the point queries.
    pub bv_tests: u64,
    /// Triangle-pair tests of the collide plus point–triangle tests of the point queries.
    pub tri_tests: u64,
}

impl SolidCollideResult {
    /// Whether the solids have a point in common.
    pub fn intersecting(&self) -> bool {
        self.relation.intersecting()
    }
}

/// `Ok` for a closed model; otherwise the error naming it (`which`: 1 or 2) and its open edges.
fn require_closed(m: &Model, which: u8) -> Result<(), SolidQueryError> {
    m.solid_facts().require_closed().map_err(|error| SolidQueryError::NotClosed { model: which, error })
}

/// How the solids bounded by the closed models `m1` (placed at `p1`) and `m2` (at `p2`) meet:
/// their surfaces cross (or touch), one lies inside the other, or they are apart. The surface
/// test is the exact first-contact collide (in model 1's frame); containment is then decided
/// by the exact winding number of one vertex of each model about the other, placed as the
/// collide placed it.
///
/// Refused: an open model ([`SolidQueryError::NotClosed`], naming its open edges), and what
/// [`super::collide()`] refuses.
///
/// ```
/// use rapidpqp::{Placement, Vec3};
/// use rapidpqp::query::{SolidRelation, solid_collide};
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
/// let cube = cube(); // the closed unit cube [0, 1]³
/// let small = Placement { scale: 0.5, translation: Vec3::new(0.25, 0.25, 0.25), ..Placement::IDENTITY };
/// // A half-size cube in the middle: no triangle pair meets, yet the solids overlap.
/// let nested = solid_collide(&cube, &small, &cube, &Placement::IDENTITY)?;
/// assert_eq!(nested.relation, SolidRelation::FirstInsideSecond);
/// assert!(nested.relation.intersecting() && nested.pair.is_none());
/// let apart = solid_collide(&cube, &Placement::IDENTITY, &cube, &shifted(2.0))?;
/// assert_eq!(apart.relation, SolidRelation::Apart);
/// # Ok::<(), rapidpqp::query::SolidQueryError>(())
/// ```
pub fn solid_collide(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
) -> Result<SolidCollideResult, SolidQueryError> {
    check_placements(p1, p2)?;
    require_closed(m1, 1)?;
    require_closed(m2, 2)?;
    let mut contacts = CollideResult::new();
    let request = CollideRequest { first_contact: true, ..Default::default() };
    collide_placed(m1, p1, m2, p2, &request, &mut contacts).map_err(QueryError::from)?;
    let mut result = SolidCollideResult {
        relation: SolidRelation::Apart,
        pair: None,
        bv_tests: contacts.bv_tests,
        tri_tests: contacts.tri_tests,
    };
    if let Some(pair) = contacts.pairs.first() {
        result.relation = SolidRelation::SurfacesCross;
        result.pair = Some((pair.id1, pair.id2));
        return Ok(result);
    }
    // No surface contact: each surface lies wholly inside or wholly outside the other solid,
    // so one vertex each way decides. Model 2's vertices are placed in model 1's frame exactly
    // as the collide placed its triangles, so none lies on model 1's surface; model 1's are
    // placed in model 2's frame with their own rounding, so a vertex might land on model 2's
    // surface: then another vertex is asked.
    if inside(m1, &Relative::between(p1, p2), m2)? {
        result.relation = SolidRelation::SecondInsideFirst;
    } else if inside(m2, &Relative::between(p2, p1), m1)? {
        result.relation = SolidRelation::FirstInsideSecond;
    }
    Ok(result)
}

/// Whether `inner`'s surface (placed in `outer`'s frame by `placed`) lies inside `outer`'s
/// solid, given that the surfaces do not intersect: the winding number about the first of
/// `inner`'s vertices that does not land on `outer`'s surface.
fn inside(outer: &Model, placed: &Relative, inner: &Model) -> Result<bool, QueryError> {
    for triangle in inner.triangles() {
        for corner in triangle {
            match winding(outer, &placed.apply(corner))? {
                Winding::Number(n) => return Ok(n != 0),
                Winding::OnSurface => continue,
            }
        }
    }
    // Every vertex within rounding of the other surface: the surfaces touch.
    Ok(true)
}

impl From<PointError> for SolidQueryError {
    fn from(e: PointError) -> SolidQueryError {
        SolidQueryError::Query(match e {
            PointError::NonFinite { .. } => QueryError::NonFinite,
            PointError::OutOfRange { .. } => QueryError::OutOfRange,
            PointError::InvalidMaxDistance | PointError::LengthMismatch => QueryError::InvalidArgument,
        })
    }
}

/// Where each of `points` (in the model's frame) is with respect to the closed `model`'s
/// solid, written to `out` (as long as `points`): [`Winding::OnSurface`] exactly on the
/// surface, otherwise the winding number (inside iff nonzero). Refused: an open model
/// ([`SolidQueryError::NotClosed`]), and what [`windings`] refuses.
pub fn contains(model: &Model, points: &[Vec3], out: &mut [Winding]) -> Result<WindingWork, SolidQueryError> {
    require_closed(model, 1)?;
    Ok(windings(model, points, out)?)
}

/// The signed distance of each of `points` (in the model's frame) to the closed `model`'s
/// surface, written to `out_distance`: the distance to the closest point, negative inside the
/// solid (nonzero winding number), exactly 0 on the surface. When `out_closest` is given, the
/// closest points go there ([`closest_points`]). Refused as [`contains`], and for output
/// slices of another length than `points`.
pub fn signed_distances(
    model: &Model,
    points: &[Vec3],
    out_distance: &mut [f64],
    out_closest: Option<&mut [Option<ClosestPoint>]>,
) -> Result<(u64, u64), SolidQueryError> {
    require_closed(model, 1)?;
    if out_distance.len() != points.len() || out_closest.as_ref().is_some_and(|c| c.len() != points.len()) {
        return Err(QueryError::InvalidArgument.into());
    }
    let mut own = Vec::new();
    let closest = match out_closest {
        Some(c) => c,
        None => {
            own.resize(points.len(), None);
            &mut own[..]
        }
    };
    let mut sides = vec![Winding::OnSurface; points.len()];
    let found = closest_points(model, points, f64::INFINITY, closest)?;
    let side = windings(model, points, &mut sides)?;
    for ((d, c), w) in out_distance.iter_mut().zip(closest.iter()).zip(&sides) {
        let c = c.expect("no distance bound: every point has a closest point");
        *d = if w.is_inside() { -c.distance } else { c.distance };
    }
    Ok((found.bv_tests + side.box_tests, found.tri_tests + side.triangle_tests))
}

/// What [`Separation::signed_distance`] guarantees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeparationBound {
    /// The models are apart, or their solids only touch (surfaces meet, no inner point in
    /// common): the figure is their distance (as [`super::distance()`] gives it; 0 touching).
    Distance,
    /// The models overlap and a direction was given: minus the exact translational
    /// penetration depth along it (the shortest move of model 2 along the direction that
    /// separates the solids: the last contact of a sweep of model 2 along it), up to the
    /// sweep's rounding, and never less than it. (Where the surfaces keep touching after the
    /// solids stop overlapping, sliding along faces parallel to the direction, the sweep's last
    /// contact is that of the touching: a larger figure.)
    DepthAlongDirection,
    /// The models overlap: minus the least depth found over the directions tried, an upper
    /// bound on the translational penetration depth (`translation` separates them; a shorter
    /// separating translation may exist).
    DepthUpperBound,
}

/// Result of [`separation`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Separation {
    /// The distance when apart; minus the penetration depth when the solids overlap (0 when
    /// they only touch).
    pub signed_distance: f64,
    /// Overlapping: the world translation of model 2 that separates the solids (to touching),
    /// its length the depth. Apart: zero.
    pub translation: Vec3,
    /// What the figure is.
    pub bound: SeparationBound,
    /// How the solids meet at the given placements.
    pub relation: SolidRelation,
    /// Closest point on model 1 when apart, in its own frame; NaN when overlapping.
    pub p1: Vec3,
    /// Closest point on model 2 when apart, in its own frame; NaN when overlapping.
    pub p2: Vec3,
    /// Directions swept (0 when apart).
    pub directions: u32,
    /// Bounding-volume tests of every query run.
    pub bv_tests: u64,
    /// Triangle tests of every query run.
    pub tri_tests: u64,
}

/// The signed separation of two closed models: their distance when the solids are apart (0
/// when they only touch: surfaces meeting without a crossing or an inner point in common);
/// when they overlap, minus the depth of a translation of model 2 that separates them.
///
/// With `direction` (any nonzero finite world vector), the depth is the exact translational
/// penetration depth along it ([`SeparationBound::DepthAlongDirection`]). Without, the depth
/// is the least found over a fixed set of directions — the world axes and diagonals, the
/// models' own axes, the line between their centres — refined around the best one; it is an
/// upper bound on the translational penetration depth ([`SeparationBound::DepthUpperBound`])
/// and equals it when the best direction is among them (axis-aligned boxes, spheres).
///
/// Refused: as [`solid_collide`]; a direction that is zero or not finite
/// ([`QueryError::InvalidArgument`], [`QueryError::NonFinite`]).
pub fn separation(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    direction: Option<Vec3>,
) -> Result<Separation, SolidQueryError> {
    check_placements(p1, p2)?;
    let direction = match direction {
        None => None,
        Some(d) if !d.iter().all(|x| x.is_finite()) => return Err(QueryError::NonFinite.into()),
        Some(d) => Some(unit(d).ok_or(QueryError::InvalidArgument)?),
    };
    let solid = solid_collide(m1, p1, m2, p2)?;
    let nan = Vec3::repeat(f64::NAN);
    let mut out = Separation {
        signed_distance: 0.0,
        translation: Vec3::zeros(),
        bound: SeparationBound::Distance,
        relation: solid.relation,
        p1: nan,
        p2: nan,
        directions: 0,
        bv_tests: solid.bv_tests,
        tri_tests: solid.tri_tests,
    };
    // Surfaces that meet without the solids sharing an inner point only touch: 0, as apart.
    let touching = solid.relation == SolidRelation::SurfacesCross && !interiors_overlap(m1, p1, m2, p2, &mut out)?;
    if !solid.intersecting() || touching {
        let d = distance(m1, p1, m2, p2, &DistanceRequest::default(), None)?;
        out.signed_distance = d.distance;
        (out.p1, out.p2) = (d.p1, d.p2);
        out.bv_tests += d.bv_tests;
        out.tri_tests += d.tri_tests;
        return Ok(out);
    }
    let reach = Reach::of(m1, p1, m2, p2);
    let mut best: Option<(f64, Vec3)> = None;
    let consider = |u: Vec3, best: &mut Option<(f64, Vec3)>, out: &mut Separation| -> Result<(), QueryError> {
        let depth = depth_along(m1, p1, m2, p2, &u, &reach, out)?;
        if best.is_none_or(|(b, _)| depth < b) {
            *best = Some((depth, u));
        }
        Ok(())
    };
    if let Some(u) = direction {
        consider(u, &mut best, &mut out)?;
        out.bound = SeparationBound::DepthAlongDirection;
    } else {
        for u in candidate_directions(p1, p2, &reach) {
            consider(u, &mut best, &mut out)?;
        }
        // Pattern search around the best direction: tilt it towards four sides by an angle
        // that halves whenever no tilt helps (at most `REFINE_ROUNDS` rounds).
        let mut angle: f64 = 0.25;
        for _ in 0..REFINE_ROUNDS {
            if angle < 1.0 / 64.0 {
                break;
            }
            let (before, u) = best.expect("at least one direction was swept");
            let (e1, e2) = perpendiculars(&u);
            for side in [e1, -e1, e2, -e2] {
                if let Some(v) = unit(u * angle.cos() + side * angle.sin()) {
                    consider(v, &mut best, &mut out)?;
                }
            }
            if best.is_some_and(|(b, _)| b >= before) {
                angle *= 0.5;
            }
        }
        out.bound = SeparationBound::DepthUpperBound;
    }
    let (depth, u) = best.expect("at least one direction was swept");
    out.signed_distance = -depth;
    out.translation = u * depth;
    Ok(out)
}

/// Whether the solids of two closed models whose surfaces meet share an inner point (they
/// overlap) rather than only touch. They overlap where two triangles cross
/// ([`CROSSING`]: inner points of both faces, so the solids overlap next to it), where
/// coplanar faces overlap in an area with the solids on the same side (same orientation), or
/// where a corner or a face's centre of one lies strictly inside the other's solid (where the
/// surfaces do not cross, each lies wholly inside or outside the other solid but where they
/// touch). (Tests of one model's points about the other as `solid_collide` places them.)
fn interiors_overlap(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    out: &mut Separation,
) -> Result<bool, QueryError> {
    let mut contacts = CollideResult::new();
    let request = CollideRequest { geometry: true, ..Default::default() };
    collide_placed(m1, p1, m2, p2, &request, &mut contacts).map_err(QueryError::from)?;
    out.bv_tests += contacts.bv_tests;
    out.tri_tests += contacts.tri_tests;
    let orientation = |m: &Model| m.solid_facts().signed_volume_exp2.0.signum();
    let same_side = orientation(m1) * orientation(m2);
    for g in &contacts.geometry {
        let coplanar_area = g.flags & COPLANAR != 0 && g.len >= 3 && g.normal1.dot(&g.normal2) * same_side > 0.0;
        if g.flags & CROSSING != 0 || coplanar_area {
            return Ok(true);
        }
    }
    Ok(strictly_inside(m1, &Relative::between(p1, p2), m2)? || strictly_inside(m2, &Relative::between(p2, p1), m1)?)
}

/// Whether a corner or a face's centre of `inner` (placed in `outer`'s frame by `placed`) lies
/// strictly inside `outer`'s solid.
fn strictly_inside(outer: &Model, placed: &Relative, inner: &Model) -> Result<bool, QueryError> {
    for t in inner.triangles() {
        for p in [t[0], t[1], t[2], (t[0] + t[1] + t[2]) / 3.0] {
            if winding(outer, &placed.apply(&p))?.is_inside() {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// Rounds of the pattern search of [`separation`] (4 sweeps each): the angle halves from 1/4
/// radian to below 1/64 in 5 rounds without progress; the rest allow for improvements.
const REFINE_ROUNDS: usize = 12;

/// A sphere around both models in the world, so that moving model 2 by more than `span` along
/// any unit direction takes it clear of model 1.
struct Reach {
    centre1: Vec3,
    centre2: Vec3,
    span: f64,
}

impl Reach {
    fn of(m1: &Model, p1: &Placement, m2: &Model, p2: &Placement) -> Reach {
        let (c1, r1) = m1.bounding_ball_placed(p1);
        let (c2, r2) = m2.bounding_ball_placed(p2);
        // After a move of `s` the centres are at least `s − |c2 − c1|` apart; a relative margin
        // covers the rounding of these sums. Rounded up to a power of two: a span the same at
        // every scale (the rounding of tiny sums would change where the sweeps start, and so
        // their results within their tolerance).
        let span = (length(&(c2 - c1)) + r1 + r2) * (1.0 + 1e-9) + f64::from_bits(1);
        let span = times_pow2(1.0, log2_floor(span) + 1);
        Reach { centre1: c1, centre2: c2, span }
    }
}

/// The depth along the unit direction `u`: the last `s` at which model 2 moved by `s·u` still
/// touches model 1, found by the sweep that starts beyond the models' reach and runs back.
fn depth_along(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    u: &Vec3,
    reach: &Reach,
    out: &mut Separation,
) -> Result<f64, QueryError> {
    if !reach.span.is_finite() {
        return Err(QueryError::OutOfRange);
    }
    let request = SweepRequest { direction: *u, s_max: reach.span, cylinder_cull: false };
    let r = sweep_last_contact(m2, p2, m1, p1, &request)?;
    out.directions += 1;
    out.bv_tests += r.bv_tests;
    out.tri_tests += r.tri_tests;
    // The solids overlap at s = 0 and are apart at `span`, so their surfaces touch somewhere
    // in between. Only models that touch within rounding at s = 0 (the sweep places them with
    // a rounding of its own) can have the sweep find no contact: their depth is 0.
    Ok(r.contact.map_or(0.0, |c| c.s))
}

/// The directions [`separation`] sweeps first: the 26 world axes and diagonals, both models'
/// own axes, and the line between the models' centres.
fn candidate_directions(p1: &Placement, p2: &Placement, reach: &Reach) -> Vec<Vec3> {
    let mut out = Vec::with_capacity(40);
    for x in -1..=1 {
        for y in -1..=1 {
            for z in -1..=1 {
                if let Some(u) = unit(Vec3::new(f64::from(x), f64::from(y), f64::from(z))) {
                    out.push(u);
                }
            }
        }
    }
    for p in [p1, p2] {
        for k in 0..3 {
            let axis = p.rotation.column(k).into_owned();
            out.extend(unit(axis));
            out.extend(unit(-axis));
        }
    }
    out.extend(unit(reach.centre2 - reach.centre1));
    out
}

/// `v` scaled to length 1; `None` for a zero (or non-finite) vector.
fn unit(v: Vec3) -> Option<Vec3> {
    // Scale first so that tiny and huge vectors normalize without underflow or overflow.
    let m = v.amax();
    if !(m > 0.0 && m.is_finite()) {
        return None;
    }
    let w = v / m;
    Some(w / w.norm())
}

/// Two unit vectors perpendicular to the unit vector `u` and to each other.
fn perpendiculars(u: &Vec3) -> (Vec3, Vec3) {
    let helper = if u.x.abs() < 0.6 { Vec3::x() } else { Vec3::y() };
    let e1 = u.cross(&helper).normalize();
    (e1, u.cross(&e1))
}

#[cfg(test)]
mod tests;
