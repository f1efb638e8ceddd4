//! Disassembly directions (Geng and Gao's use of the directional cylinder): for an assembly of
//! placed models, one part to remove and candidate directions, which directions let it move
//! out — to a given distance or to infinity — without touching the others, and for a blocked
//! direction which part blocks it, after how much travel, and where.
//!
//! Per direction, the broad phase is the paper's directional cylinder around the moving part's
//! whole sweep ([`DirectionalCylinder`]), tested against each other part's bounding ball in
//! the world; the parts it meets are swept exactly ([`sweep`]) in order of where their balls
//! start along the direction, each sweep cut at the best contact so far. Touching counts as
//! blocking, also at the start: parts resting on each other block every direction that does not
//! lift off at once, so model clearances where parts only touch (the fixtures do).

use super::QueryError;
use super::sweep::{DirectionalCylinder, SweepContact, SweepRequest, sweep};
use crate::geometry::predicates::{log2_floor, times_pow2};
use crate::math::{Placement, Vec3};
use crate::model::Model;

/// One part of an assembly: a model and its placement in the world.
#[derive(Clone, Copy, Debug)]
pub struct Part<'a> {
    /// The part's triangles.
    pub model: &'a Model,
    /// Where the part sits in the world.
    pub placement: Placement,
}

/// What happens to the moving part along one direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RemovalResult {
    /// The direction, scaled to unit length (distances below are in world units).
    pub direction: Vec3,
    /// True when the part moves the whole distance (or to infinity) without touching.
    pub free: bool,
    /// Blocked: the travel before the first contact. Free: the distance asked for (infinity
    /// for removal to infinity).
    pub free_distance: f64,
    /// Blocked: the index of the blocking part and the contact (the moving part is model 1 of
    /// the contact, the blocking part model 2).
    pub blocker: Option<(usize, SweepContact)>,
    /// Parts culled by the directional cylinder (never swept).
    pub culled: usize,
    /// Parts swept exactly.
    pub swept: usize,
    /// Box tests of the sweeps.
    pub bv_tests: u64,
    /// Triangle tests of the sweeps.
    pub tri_tests: u64,
}

/// Which of `directions` (world vectors, any nonzero length) let `parts[moving]` translate by
/// `distance` (`None`: to infinity) without touching any other part; one result per
/// direction, in order.
///
/// Refused: `moving` not an index of `parts` or a non-finite or zero direction
/// ([`QueryError::InvalidArgument`], [`QueryError::NonFinite`]), a negative or NaN distance
/// (`InvalidArgument`), and what [`sweep`] refuses for a pair.
pub fn removal_directions(
    parts: &[Part],
    moving: usize,
    directions: &[Vec3],
    distance: Option<f64>,
) -> Result<Vec<RemovalResult>, QueryError> {
    if moving >= parts.len() {
        return Err(QueryError::InvalidArgument);
    }
    if let Some(d) = distance {
        if d.is_nan() || d < 0.0 {
            return Err(QueryError::InvalidArgument);
        }
    }
    for p in parts {
        p.placement.check()?;
    }
    let mut units = Vec::with_capacity(directions.len());
    for d in directions {
        if !d.iter().all(|x| x.is_finite()) {
            return Err(QueryError::NonFinite);
        }
        let m = d.amax();
        if m == 0.0 {
            return Err(QueryError::InvalidArgument);
        }
        let w = d / m;
        units.push(w / w.norm());
    }
    let balls: Vec<(Vec3, f64)> = parts.iter().map(|p| p.model.bounding_ball_placed(&p.placement)).collect();
    let mover = &parts[moving];
    let points: Vec<Vec3> = mover.model.triangles().iter().flatten().map(|v| mover.placement.apply(v)).collect();
    let (centre, radius) = balls[moving];
    units.iter().map(|u| remove_along(parts, moving, &points, centre, radius, &balls, *u, distance)).collect()
}

/// One direction of [`removal_directions`].
#[allow(clippy::too_many_arguments)]
fn remove_along(
    parts: &[Part],
    moving: usize,
    points: &[Vec3],
    centre: Vec3,
    radius: f64,
    balls: &[(Vec3, f64)],
    u: Vec3,
    distance: Option<f64>,
) -> Result<RemovalResult, QueryError> {
    // To infinity: far enough that the moving part's ball has passed every other part's ball
    // (rounded up to a power of two, the same at every scale: where a sweep ends changes its
    // work, and the rounding of tiny sums would make it differ).
    let reach = |(c, r): &(Vec3, f64)| {
        let x = ((c - centre).dot(&u) + r + radius).max(0.0) * (1.0 + 1e-12);
        if x > 0.0 && x.is_finite() { times_pow2(1.0, log2_floor(x) + 1) } else { x }
    };
    let travel = match distance {
        Some(d) => d,
        None => balls.iter().enumerate().filter(|(k, _)| *k != moving).map(|(_, b)| reach(b)).fold(0.0, f64::max),
    };
    let cylinder = DirectionalCylinder::around(points.iter().copied(), u, travel, 0.0);
    let mut out = RemovalResult {
        direction: u,
        free: true,
        free_distance: distance.unwrap_or(f64::INFINITY),
        blocker: None,
        culled: 0,
        swept: 0,
        bv_tests: 0,
        tri_tests: 0,
    };
    // The parts the cylinder meets, nearest along the direction first.
    let mut candidates: Vec<(f64, usize)> = Vec::new();
    for (k, (c, r)) in balls.iter().enumerate() {
        if k == moving {
            continue;
        }
        if cylinder.meets_ball(c, *r) {
            candidates.push(((c - centre).dot(&u) - r, k));
        } else {
            out.culled += 1;
        }
    }
    candidates.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut best = travel;
    let mover = &parts[moving];
    for (_, k) in candidates {
        // This part cannot be met before its ball's near side: skip it once that is beyond the
        // best contact.
        let start = ((balls[k].0 - centre).dot(&u) - balls[k].1 - radius) * (1.0 + 1e-12);
        if start > best {
            continue;
        }
        let s_max = best.min(reach(&balls[k]).max(0.0));
        if !s_max.is_finite() {
            return Err(QueryError::OutOfRange); // (the balls' reach overflowed)
        }
        let request = SweepRequest { direction: u, s_max, cylinder_cull: false };
        let r = sweep(mover.model, &mover.placement, parts[k].model, &parts[k].placement, &request)?;
        out.swept += 1;
        out.bv_tests += r.bv_tests;
        out.tri_tests += r.tri_tests;
        if let Some(c) = r.contact {
            if out.blocker.is_none() || c.s < best {
                best = c.s;
                out.blocker = Some((k, c));
            }
        }
    }
    if let Some((_, c)) = out.blocker {
        out.free = false;
        out.free_distance = c.s;
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
