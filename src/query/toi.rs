//! Time of impact of a rigid motion: model 1 moves from one placement to another — its
//! translation linear in time, its rotation turning at a constant rate about a fixed axis
//! through its own origin — against a static model 2. The answer is never later than the
//! first contact.
//!
//! Pure translations are swept exactly ([`sweep`]). With rotation, conservative advancement:
//! at time `t` a tolerance query gives a lower bound `d` of the distance; no point of model 1
//! moves faster than `μ = |ΔT| + θ·s·max|p|` (translation, angle, scale and the largest
//! distance of a vertex from model 1's origin), so the models cannot touch before
//! `t + (d − margin)/μ`, where the margin covers the distance's rounding. The advance repeats
//! until the models are within the tolerance (contact found), the motion ends (free), or the
//! step budget is spent (then the time reached is still a guaranteed lower bound).

use nalgebra::{Rotation3, Unit};

use super::distance::tolerance;
use super::sweep::{SweepRequest, sweep};
use super::{QueryError, check_placements};
use crate::math::{Mat3, Placement, Vec3, length};
use crate::model::Model;

/// How a time-of-impact query ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToiOutcome {
    /// At `time` the models are within the tolerance (touching or closer); there was no
    /// contact before it.
    Contact,
    /// The models stay apart over the whole motion.
    Free,
    /// The step budget ran out: there is no contact before `time`, and nothing is known after.
    StepLimit,
}

/// Result of [`time_of_impact`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Toi {
    /// Contact, free motion, or the step budget ran out.
    pub outcome: ToiOutcome,
    /// Contact: the time found (in `[0, 1]`); Free: 1; StepLimit: the time reached.
    pub time: f64,
    /// Model 1's placement at `time`.
    pub placement: Placement,
    /// Contact: the distance the last tolerance query found (at most the tolerance); Free and
    /// StepLimit: a lower bound of the distance at `time`.
    pub distance: f64,
    /// Tolerance queries or sweeps run.
    pub steps: u32,
    /// Bounding-volume tests of the queries run.
    pub bv_tests: u64,
    /// Triangle tests of the queries run.
    pub tri_tests: u64,
}

/// Options of [`time_of_impact`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToiRequest {
    /// Contact is reported when the models are at most this far apart. `None`: 1e-3 of the
    /// larger model's size (the diagonal of its vertices' bounding box, times its scale).
    pub tolerance: Option<f64>,
    /// At most this many advancement steps (each one tolerance query).
    pub max_steps: u32,
}

impl Default for ToiRequest {
    fn default() -> ToiRequest {
        ToiRequest { tolerance: None, max_steps: 10_000 }
    }
}

/// Model 1's placement at time `t` of the motion from `start` to `end`.
#[derive(Clone, Copy, Debug)]
struct RigidMotion {
    start: Placement,
    /// Unit rotation axis (world) and total angle.
    axis: Unit<Vec3>,
    angle: f64,
    shift: Vec3,
}

impl RigidMotion {
    fn new(start: &Placement, end: &Placement) -> RigidMotion {
        let turn = Rotation3::from_matrix(&(end.rotation * start.rotation.transpose()));
        let (axis, angle) = turn.axis_angle().unwrap_or((Vec3::z_axis(), 0.0));
        RigidMotion { start: *start, axis, angle, shift: end.translation - start.translation }
    }

    fn at(&self, t: f64) -> Placement {
        let rotation: Mat3 = Rotation3::from_axis_angle(&self.axis, self.angle * t).into_inner() * self.start.rotation;
        Placement { rotation, translation: self.start.translation + self.shift * t, scale: self.start.scale }
    }
}

/// The first time at which model 1, moving from `start` (t = 0) to `end` (t = 1) as described
/// in the module notes, comes within the tolerance of model 2 at `p2`. Never later than the
/// first contact: the models do not touch at any time before the one returned.
///
/// Refused: placements as for the other queries, `start` and `end` with different scales, a
/// negative or NaN tolerance, a zero step budget ([`QueryError::InvalidArgument`]).
pub fn time_of_impact(
    m1: &Model,
    start: &Placement,
    end: &Placement,
    m2: &Model,
    p2: &Placement,
    request: &ToiRequest,
) -> Result<Toi, QueryError> {
    check_placements(start, p2)?;
    end.check()?;
    if start.scale != end.scale || request.max_steps == 0 {
        return Err(QueryError::InvalidArgument);
    }
    let size = |m: &Model, s: f64| m.bounding_ball_placed(&Placement { scale: s, ..*start }).1 * 2.0;
    let tol = match request.tolerance {
        Some(t) if t.is_nan() || t < 0.0 => return Err(QueryError::InvalidArgument),
        Some(t) => t,
        None => 1e-3 * size(m1, start.scale).max(size(m2, p2.scale)),
    };
    let motion = RigidMotion::new(start, end);
    if motion.angle == 0.0 {
        return translation_only(m1, start, m2, p2, &motion, tol);
    }
    // (Lengths without squares: no underflow or overflow at any scale.)
    let reach = m1.triangles().iter().flatten().map(length).fold(0.0, f64::max);
    let speed = (length(&motion.shift) + motion.angle.abs() * start.scale * reach) * (1.0 + 1e-9);
    // The distance's own error (a few tens of rounding units of the coordinates it works
    // with), taken off each advance so that rounding never carries it past a contact.
    let magnitude = m1.magnitude() * start.scale
        + start.translation.amax().max(end.translation.amax())
        + m2.magnitude() * p2.scale
        + p2.translation.amax();
    let margin = 256.0 * f64::EPSILON * magnitude;
    let mut out = Toi {
        outcome: ToiOutcome::StepLimit,
        time: 0.0,
        placement: *start,
        distance: 0.0,
        steps: 0,
        bv_tests: 0,
        tri_tests: 0,
    };
    let mut t = 0.0;
    while out.steps < request.max_steps {
        let placement = motion.at(t);
        let r = tolerance(m1, &placement, m2, p2, tol, 2, None)?;
        out.steps += 1;
        out.bv_tests += r.bv_tests;
        out.tri_tests += r.tri_tests;
        (out.time, out.placement, out.distance) = (t, placement, r.distance);
        if r.closer {
            out.outcome = ToiOutcome::Contact;
            return Ok(out);
        }
        if t >= 1.0 {
            out.outcome = ToiOutcome::Free;
            return Ok(out);
        }
        let advance = (r.distance - margin) / speed;
        if advance.is_nan() || advance <= 0.0 {
            // Within the rounding margin but not within the tolerance: a tolerance below the
            // distance's precision. Stop here, a lower bound.
            return Ok(out);
        }
        t = (t + advance).min(1.0);
    }
    Ok(out)
}

/// A pure translation: the exact sweep. Its contact time is never later than the first
/// contact, and at it the models are within the sweep's contact tolerance (about 500 rounding
/// units of the coordinates); `distance` is measured there.
fn translation_only(
    m1: &Model,
    start: &Placement,
    m2: &Model,
    p2: &Placement,
    motion: &RigidMotion,
    tol: f64,
) -> Result<Toi, QueryError> {
    let request = SweepRequest { direction: motion.shift, s_max: 1.0, cylinder_cull: false };
    let r = sweep(m1, start, m2, p2, &request)?;
    let mut out = Toi {
        outcome: ToiOutcome::Free,
        time: 1.0,
        placement: motion.at(1.0),
        distance: 0.0,
        steps: 1,
        bv_tests: r.bv_tests,
        tri_tests: r.tri_tests,
    };
    match r.contact {
        Some(c) => {
            out.outcome = ToiOutcome::Contact;
            out.time = c.s;
            out.placement = motion.at(c.s);
            // Within the sweep's contact tolerance at `s`; the distance there is measured.
            let d = tolerance(m1, &out.placement, m2, p2, tol, 2, None)?;
            out.distance = d.distance;
            out.bv_tests += d.bv_tests;
            out.tri_tests += d.tri_tests;
            out.steps += 1;
        }
        None => {
            let d = tolerance(m1, &out.placement, m2, p2, 0.0, 2, None)?;
            out.distance = d.distance;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
