//! The native C API of motion queries: the translational sweep of one model against another
//! (first or last contact, one direction or a batch of them), the time of impact of a rigid
//! motion, and the removal directions of a part of an assembly. Each function checks its
//! arguments, calls the Rust core (`crate::query::{sweep, toi, disassembly}`) and copies its
//! answers out, written only on success. The prologues are `solid.rs`'s ([`pair_query`]) and
//! the batch over directions is shared between threads by [`super::batch::share`].
//!
//! Directions are arrays of 3 doubles (`x y z`), world vectors.

use std::ffi::c_int;

use super::batch::share;
use super::guard;
use super::native::{
    RPQ_ERR_INTERNAL, RPQ_ERR_INVALID_ARGUMENT, RPQ_ERR_NON_FINITE, RPQ_ERR_NULL_POINTER, RPQ_ERR_OUT_OF_MEMORY,
    RPQ_OK, RpqModel, RpqPose, RpqStatus, model_ref, read_pose,
};
use super::solid::{pair_query, query_status, read_array_of_3, write_all};
use crate::math::{Placement, Vec3};
use crate::model::Model;
use crate::query::disassembly::{Part, RemovalResult, removal_directions};
use crate::query::sweep::{SweepContact, SweepRequest, check_request, check_s_max, sweep, sweep_last_contact};
use crate::query::toi::{ToiOutcome, ToiRequest, time_of_impact};

/// `RpqToi::outcome`: the models come within the tolerance at `time`, not before.
pub const RPQ_TOI_CONTACT: c_int = 0;
/// `RpqToi::outcome`: the models stay apart over the whole motion.
pub const RPQ_TOI_FREE: c_int = 1;
/// `RpqToi::outcome`: the step budget ran out; there is no contact before `time` and nothing is
/// known after it.
pub const RPQ_TOI_STEP_LIMIT: c_int = 2;

/// Result of `rpq_sweep`: where model 1, moving by `s·direction`, first (or last) touches
/// model 2.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RpqSweepResult {
    /// 1 when the models touch for some `s` in [0, `s_max`]; 0 when they stay apart (then `s`
    /// is `INFINITY`, the points NaN, the ids -1 and the triangles `UINT32_MAX`).
    pub hit: c_int,
    /// The time of contact: model 1 moved by `s·direction` touches model 2 (first contact:
    /// never later than the exact one; last contact: never earlier).
    pub s: f64,
    /// The caller's ids of the touching triangles (model 1's, model 2's).
    pub id1: i32,
    pub id2: i32,
    /// Their leaf-order indices.
    pub tri1: u32,
    pub tri2: u32,
    /// The contact point in the world (on model 2's triangle).
    pub point: [f64; 3],
    /// The touching point of model 1 in its own frame (in the world at
    /// `p1·point1 + s·direction`), and the contact point in model 2's own frame.
    pub point1: [f64; 3],
    pub point2: [f64; 3],
    /// Bounding-volume tests and triangle-pair sweeps run (0 inside an `RpqRemoval`: its own
    /// counts cover every sweep).
    pub bv_tests: u64,
    pub tri_tests: u64,
}

impl RpqSweepResult {
    fn of(contact: Option<&SweepContact>, bv_tests: u64, tri_tests: u64) -> RpqSweepResult {
        let xyz = |p: &Vec3| [p.x, p.y, p.z];
        match contact {
            Some(c) => RpqSweepResult {
                hit: 1,
                s: c.s,
                id1: c.ids.0,
                id2: c.ids.1,
                tri1: c.pair.0,
                tri2: c.pair.1,
                point: xyz(&c.point),
                point1: xyz(&c.point1),
                point2: xyz(&c.point2),
                bv_tests,
                tri_tests,
            },
            None => RpqSweepResult {
                hit: 0,
                s: f64::INFINITY,
                id1: -1,
                id2: -1,
                tri1: u32::MAX,
                tri2: u32::MAX,
                point: [f64::NAN; 3],
                point1: [f64::NAN; 3],
                point2: [f64::NAN; 3],
                bv_tests,
                tri_tests,
            },
        }
    }
}

/// Result of `rpq_time_of_impact`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RpqToi {
    /// `RPQ_TOI_*`: how the query ended.
    pub outcome: c_int,
    /// Contact: the time found, in [0, 1] (no contact before it); free: 1; step limit: the time
    /// reached.
    pub time: f64,
    /// Model 1's pose at `time`.
    pub placement: RpqPose,
    /// Contact: the distance measured at `time` (at most the tolerance); free and step limit: a
    /// lower bound of the distance at `time`.
    pub distance: f64,
    /// Distance queries or sweeps run.
    pub steps: u32,
    pub bv_tests: u64,
    pub tri_tests: u64,
}

/// What happens to the moving part along one direction (`rpq_removal_directions`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RpqRemoval {
    /// 1 when the part moves the whole distance (or to infinity) without touching another.
    pub free: c_int,
    /// Blocked: the travel before the first contact (world units). Free: the distance asked
    /// for (`INFINITY` for removal to infinity).
    pub free_distance: f64,
    /// Blocked: the index of the blocking part; -1 when free.
    pub blocker: i64,
    /// Blocked: the contact, the moving part as model 1 and the blocker as model 2, `s` equal
    /// to `free_distance` along the unit `direction` (its `bv_tests`, `tri_tests` are 0). Free:
    /// no hit.
    pub contact: RpqSweepResult,
    /// Parts culled by the directional cylinder, and parts swept exactly.
    pub culled: u64,
    pub swept: u64,
    /// Bounding-volume tests and triangle-pair sweeps of every sweep run.
    pub bv_tests: u64,
    pub tri_tests: u64,
    /// The direction, scaled to unit length.
    pub direction: [f64; 3],
}

impl RpqRemoval {
    fn of(r: &RemovalResult) -> RpqRemoval {
        let (blocker, contact) = match &r.blocker {
            Some((k, c)) => (*k as i64, Some(c)),
            None => (-1, None),
        };
        RpqRemoval {
            free: c_int::from(r.free),
            free_distance: r.free_distance,
            blocker,
            contact: RpqSweepResult::of(contact, 0, 0),
            culled: r.culled as u64,
            swept: r.swept as u64,
            bv_tests: r.bv_tests,
            tri_tests: r.tri_tests,
            direction: [r.direction.x, r.direction.y, r.direction.z],
        }
    }
}

/// One sweep of `m1` at `p1` against `m2` at `p2`, forwards (first contact) or backwards (last
/// contact), as its C result.
fn swept(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    request: &SweepRequest,
    last_contact: bool,
) -> Result<RpqSweepResult, RpqStatus> {
    let run = if last_contact { sweep_last_contact } else { sweep };
    let r = run(m1, p1, m2, p2, request).map_err(query_status)?;
    Ok(RpqSweepResult::of(r.contact.as_ref(), r.bv_tests, r.tri_tests))
}

/// The sweep request of a direction and `s_max`, checked as the core checks it.
fn sweep_request(direction: Vec3, s_max: f64) -> Result<SweepRequest, RpqStatus> {
    let request = SweepRequest { direction, s_max, cylinder_cull: false };
    check_request(&request).map_err(query_status)?;
    Ok(request)
}

/// The first contact of model 1 (placed at `p1`) moving by the world translation
/// `s·direction`, `s` in [0, `s_max`], against model 2 (placed at `p2`), written to `*out`;
/// with `last_contact` nonzero, the last: the largest `s` at which the models still touch
/// (how far model 1 must move along `direction` to be clear of model 2, when they overlap).
/// Touching counts, also at `s = 0`. Works on any models (closed or not: triangles touch).
///
/// `direction` need not be unit (`s` is in units of its length); zero only with `s_max` 0 (a
/// test of whether the models touch where they are). No contact: `hit` 0 and `s` `INFINITY`.
/// Precision (see the README, "Translational sweep"): the first contact is never later than the
/// exact one on the placed triangles and the pair is within `2^-44` of the coordinates'
/// magnitude of touching at `s`; the last contact likewise mirrored.
///
/// Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`, the pose errors of `rpq_collide`,
/// `RPQ_ERR_NON_FINITE` (a NaN or infinite `direction`), `RPQ_ERR_INVALID_ARGUMENT` (`s_max`
/// negative, NaN or infinite, or a zero `direction` with `s_max` > 0), `RPQ_ERR_OUT_OF_RANGE`
/// (coordinates beyond the supported range, the sweep's included). `*out` is written only on
/// success.
///
/// # Safety
/// The models are not freed during the call; the poses are readable; `direction` points to 3
/// readable doubles; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_sweep(
    m1: *const RpqModel,
    p1: *const RpqPose,
    m2: *const RpqModel,
    p2: *const RpqPose,
    direction: *const f64,
    s_max: f64,
    last_contact: c_int,
    out: *mut RpqSweepResult,
) -> RpqStatus {
    let query = |m1: &Model, p1: &Placement, m2: &Model, p2: &Placement| {
        if direction.is_null() {
            return Err(RPQ_ERR_NULL_POINTER);
        }
        // SAFETY: 3 readable doubles per the contract.
        let d = unsafe { super::read_array::<3>(direction) };
        let request = sweep_request(Vec3::new(d[0], d[1], d[2]), s_max)?;
        swept(m1, p1, m2, p2, &request, last_contact != 0)
    };
    // SAFETY: forwarded contract (`direction` is read after the other arguments are checked).
    unsafe { pair_query(m1, p1, m2, p2, out, query) }
}

/// `rpq_sweep` along each of the `n` directions (`3n` doubles) for the one pair of placed
/// models, `out[i]` for `directions[3i..3i+3]`: the disassembly planner's question of which
/// ways a part can move. Every direction is checked before any sweep runs; each answer equals
/// the single call's, whatever `threads` (0 or less: one per available core; at most
/// `RPQ_MAX_BATCH_THREADS`, never more than there are directions; the calling thread works
/// too). `n` = 0 is fine (the models, poses and `s_max` are still checked): nothing is written
/// and `directions`, `out` may be NULL.
///
/// Errors: as `rpq_sweep`, and `RPQ_ERR_OUT_OF_MEMORY`. `out` is written only on success.
///
/// # Safety
/// As `rpq_sweep`; `directions` holds `3 * n` readable doubles and `out` `n` writable results
/// (either may be NULL when `n` is 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_sweep_batch(
    m1: *const RpqModel,
    p1: *const RpqPose,
    m2: *const RpqModel,
    p2: *const RpqPose,
    directions: *const f64,
    n: usize,
    s_max: f64,
    last_contact: c_int,
    threads: c_int,
    out: *mut RpqSweepResult,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract for every pointer below.
        let run = || -> Result<(), RpqStatus> {
            let (m1, m2) = (unsafe { model_ref(m1) }?, unsafe { model_ref(m2) }?);
            let (m1, m2) = (&*m1, &*m2);
            let (p1, p2) = (unsafe { read_pose(p1) }?, unsafe { read_pose(p2) }?);
            check_s_max(s_max).map_err(query_status)?;
            if n == 0 {
                return Ok(());
            }
            if directions.is_null() || out.is_null() {
                return Err(RPQ_ERR_NULL_POINTER);
            }
            let dirs = unsafe { read_array_of_3(directions, n) }?;
            let mut requests = Vec::new();
            requests.try_reserve_exact(n).map_err(|_| RPQ_ERR_OUT_OF_MEMORY)?;
            for d in dirs {
                requests.push(sweep_request(d, s_max)?);
            }
            // Sweeps differ widely in cost: small blocks keep the threads balanced.
            let results = share(
                n,
                threads,
                16,
                || (),
                |range, _, answers| {
                    for request in &requests[range] {
                        answers.push(swept(m1, &p1, m2, &p2, request, last_contact != 0)?);
                    }
                    Ok(())
                },
            )?;
            // SAFETY: `out` holds `n` writable results; every input was checked.
            unsafe { write_all(out, &results) };
            Ok(())
        };
        run().err().unwrap_or(RPQ_OK)
    })
}

/// The time of impact of model 1 moving rigidly from the pose `start` (at time 0) to `end` (at
/// time 1), its translation linear in time and its rotation turning at a constant rate about a
/// fixed axis through its own origin, against model 2 static at `p2`, written to `*out`. The time
/// returned is never later than the first contact: the models do not touch at any time before
/// it. Pure translations are swept exactly (`rpq_sweep`); with rotation, conservative
/// advancement stops when the models are within `tolerance` (`RPQ_TOI_CONTACT`), when the
/// motion ends (`RPQ_TOI_FREE`) or after `max_steps` distance queries (`RPQ_TOI_STEP_LIMIT`).
///
/// `tolerance`: a negative value asks for the default, 1e-3 of the larger model's size (the
/// diagonal of its vertices' bounding box, times its scale); NaN gives `RPQ_ERR_NON_FINITE`.
/// `max_steps`: 0 asks for the default, 10000.
///
/// Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`, the pose errors of `rpq_collide`,
/// `RPQ_ERR_NON_FINITE` (a NaN `tolerance`), `RPQ_ERR_INVALID_ARGUMENT` (`start` and `end` with
/// different scales), `RPQ_ERR_OUT_OF_RANGE`. `*out` is written only on success.
///
/// # Safety
/// The models are not freed during the call; the poses are readable; `out` is writable.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn rpq_time_of_impact(
    m1: *const RpqModel,
    start: *const RpqPose,
    end: *const RpqPose,
    m2: *const RpqModel,
    p2: *const RpqPose,
    tolerance: f64,
    max_steps: u32,
    out: *mut RpqToi,
) -> RpqStatus {
    let query = |m1: &Model, start: &Placement, m2: &Model, p2: &Placement| {
        // SAFETY: NULL or readable per the contract.
        let end = unsafe { read_pose(end) }?;
        if tolerance.is_nan() {
            return Err(RPQ_ERR_NON_FINITE);
        }
        let request = ToiRequest {
            tolerance: if tolerance < 0.0 { None } else { Some(tolerance) },
            max_steps: if max_steps == 0 { ToiRequest::default().max_steps } else { max_steps },
        };
        let t = time_of_impact(m1, start, &end, m2, p2, &request).map_err(query_status)?;
        Ok(RpqToi {
            outcome: match t.outcome {
                ToiOutcome::Contact => RPQ_TOI_CONTACT,
                ToiOutcome::Free => RPQ_TOI_FREE,
                ToiOutcome::StepLimit => RPQ_TOI_STEP_LIMIT,
            },
            time: t.time,
            placement: RpqPose::of(&t.placement),
            distance: t.distance,
            steps: t.steps,
            bv_tests: t.bv_tests,
            tri_tests: t.tri_tests,
        })
    };
    // SAFETY: forwarded contract (`end` is read after the other arguments are checked).
    unsafe { pair_query(m1, start, m2, p2, out, query) }
}

/// Which of the `num_directions` directions (`3·num_directions` doubles, world vectors of any
/// nonzero length) let part `moving` of an assembly translate by `distance` (`INFINITY`: to
/// infinity) without touching any other part; `out[i]` for direction `i`. The assembly is
/// `num_parts` models `models[k]` placed at `poses[k]`. Per direction, the parts outside the
/// directional cylinder around the moving part's sweep are culled and the others swept exactly,
/// nearest first; touching counts as blocking, also at the start (see the README, "Disassembly
/// directions and time of impact"). `num_directions` = 0 is fine (the parts, `moving` and
/// `distance` are still checked): `directions` and `out` may then be NULL.
///
/// Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`, the pose errors of `rpq_collide`,
/// `RPQ_ERR_INVALID_ARGUMENT` (`moving` not below `num_parts`, so also `num_parts` 0; a zero
/// direction; `distance` negative or NaN), `RPQ_ERR_NON_FINITE` (a NaN or infinite direction),
/// `RPQ_ERR_OUT_OF_RANGE`, `RPQ_ERR_OUT_OF_MEMORY`. `out` is written only on success.
///
/// # Safety
/// The models are not freed during the call; `models` and `poses` hold `num_parts` readable
/// entries (either may be NULL when `num_parts` is 0); `directions` holds `3 * num_directions`
/// readable doubles and `out` `num_directions` writable results.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn rpq_removal_directions(
    models: *const *const RpqModel,
    poses: *const RpqPose,
    num_parts: usize,
    moving: usize,
    directions: *const f64,
    num_directions: usize,
    distance: f64,
    out: *mut RpqRemoval,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract for every pointer below.
        let run = || -> Result<(), RpqStatus> {
            if num_parts > 0 && (models.is_null() || poses.is_null()) {
                return Err(RPQ_ERR_NULL_POINTER);
            }
            let (mut parts, mut borrows) = (Vec::new(), Vec::new());
            parts.try_reserve_exact(num_parts).map_err(|_| RPQ_ERR_OUT_OF_MEMORY)?;
            borrows.try_reserve_exact(num_parts).map_err(|_| RPQ_ERR_OUT_OF_MEMORY)?;
            for k in 0..num_parts {
                let model = unsafe { model_ref(*models.add(k)) }?;
                let placement = unsafe { read_pose(poses.add(k)) }?;
                // (`borrows` keeps the models borrowed until the parts are dropped.)
                parts.push(Part { model: model.get(), placement });
                borrows.push(model);
            }
            if moving >= num_parts || distance.is_nan() || distance < 0.0 {
                return Err(RPQ_ERR_INVALID_ARGUMENT);
            }
            let dirs = if num_directions == 0 {
                Vec::new()
            } else if directions.is_null() || out.is_null() {
                return Err(RPQ_ERR_NULL_POINTER);
            } else {
                unsafe { read_array_of_3(directions, num_directions) }?
            };
            let distance = if distance == f64::INFINITY { None } else { Some(distance) };
            let results = removal_directions(&parts, moving, &dirs, distance).map_err(query_status)?;
            let mut removals = Vec::new();
            removals.try_reserve_exact(results.len()).map_err(|_| RPQ_ERR_OUT_OF_MEMORY)?;
            removals.extend(results.iter().map(RpqRemoval::of));
            if removals.len() != num_directions {
                return Err(RPQ_ERR_INTERNAL);
            }
            // SAFETY: `out` holds `num_directions` writable results; every input was checked.
            unsafe { write_all(out, &removals) };
            Ok(())
        };
        run().err().unwrap_or(RPQ_OK)
    })
}
