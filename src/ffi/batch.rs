//! Batched native queries: one model pair at many poses, spread over threads; and the
//! conversion of 4×4 matrices into poses, one or many at a time.
//!
//! The rules shared by the batches (broadcasting, threads, outputs) are documented on
//! [`rpq_collide_batch`]. Each thread has its own result and cache; the models are shared.

use std::ffi::c_int;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::all_finite;
use super::guard;
use super::native::{
    ModelRef, RPQ_ERR_INTERNAL, RPQ_ERR_INVALID_ARGUMENT, RPQ_ERR_INVALID_SCALE, RPQ_ERR_NON_FINITE,
    RPQ_ERR_NOT_ROTATION, RPQ_ERR_NULL_POINTER, RPQ_ERR_OUT_OF_MEMORY, RPQ_ERR_OUT_OF_RANGE, RPQ_OK, RpqCollideRequest,
    RpqDistanceRequest, RpqModel, RpqPose, RpqStatus, model_ref, read_pose,
};
use super::pose::{self, queue_size};
use crate::math::Placement;
use crate::model::Model;
use crate::query::collide::{self, CollideResult};
use crate::query::distance::{self, DistanceCache, DistanceRequest};

/// The most threads a batch uses, whatever `threads` asks.
pub const RPQ_MAX_BATCH_THREADS: c_int = 256;

/// Finds, for each query, whether `model1` and `model2` intersect (touching counts), and how
/// many intersecting triangle pairs they have (at most 1 when `request->first_contact`).
/// `request` may be NULL (all contacts, defaults). Writes `out_colliding[i]` (1 or 0) and,
/// when `out_num_pairs` is not NULL, `out_num_pairs[i]`, for every query `i`.
///
/// Batches (this and the other `rpq_*_batch` functions): query `i` places model 1 at
/// `poses1[i]` and model 2 at `poses2[i]`; a pose array of one pose is used for every query
/// (broadcast). The number of queries is `max(num_poses1, num_poses2)` (0 if either is 0);
/// each count must be that number or 1. Every pose is checked before any query runs. The
/// queries are shared by `threads` threads (0 or less: one per available core; at most
/// `RPQ_MAX_BATCH_THREADS`, and never more than there are queries), the calling thread among
/// them. Outputs hold one entry per query, in query order, and are written only on success.
/// Each answer equals the single query's, whatever the number of threads (for
/// `rpq_distance_batch`, unless `warm_start`).
///
/// Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`, `RPQ_ERR_NON_FINITE` and
/// `RPQ_ERR_INVALID_SCALE` (a bad pose), `RPQ_ERR_INVALID_ARGUMENT` (pose counts that do not
/// broadcast, a bad request field), `RPQ_ERR_OUT_OF_RANGE` (a query beyond the supported range
/// of coordinates, see the README).
///
/// # Safety
/// Models live; `poses1`, `poses2` point to `num_poses1`, `num_poses2` readable poses;
/// `request` NULL or readable; the output arrays hold one writable entry per query.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_collide_batch(
    model1: *const RpqModel,
    model2: *const RpqModel,
    poses1: *const RpqPose,
    num_poses1: usize,
    poses2: *const RpqPose,
    num_poses2: usize,
    request: *const RpqCollideRequest,
    threads: c_int,
    out_colliding: *mut u8,
    out_num_pairs: *mut u64,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract for every pointer below.
        let run = || -> Result<(), RpqStatus> {
            let batch = unsafe { Batch::read(model1, model2, poses1, num_poses1, poses2, num_poses2) }?;
            if out_colliding.is_null() && batch.n > 0 {
                return Err(RPQ_ERR_NULL_POINTER);
            }
            let request =
                if request.is_null() { RpqCollideRequest::default() } else { unsafe { *request } }.to_request()?;
            let results = batch.run(threads, CollideResult::new, |m1, p1, m2, p2, out| {
                // A query beyond the supported range refuses the batch, as `rpq_collide` does.
                collide::collide_placed(m1, p1, m2, p2, &request, out).map_err(|_| RPQ_ERR_OUT_OF_RANGE)?;
                Ok((u8::from(out.colliding()), out.pairs.len() as u64))
            })?;
            let results = results.into_iter().collect::<Result<Vec<_>, RpqStatus>>()?;
            for (i, (colliding, pairs)) in results.into_iter().enumerate() {
                unsafe {
                    *out_colliding.add(i) = colliding;
                    if !out_num_pairs.is_null() {
                        *out_num_pairs.add(i) = pairs;
                    }
                }
            }
            Ok(())
        };
        run().err().unwrap_or(RPQ_OK)
    })
}

/// The distance of each query, within the request's error (`request` may be NULL: exact),
/// written to `out_distance[i]`, and when not NULL the closest points to `out_p1[3i..3i+3]`
/// (on model 1, in model 1's own frame) and `out_p2[3i..3i+3]` (on model 2, in model 2's own
/// frame), as `rpq_distance` reports them.
///
/// `warm_start` nonzero: each thread keeps a distance cache across the queries it runs (faster
/// on trajectories of nearby poses). Then, when several triangle pairs are equally close, which
/// pair's points are reported can depend on how the queries were shared between threads, and
/// with a nonzero error bound so can the distance (always within the bound). With
/// `warm_start` 0 every query runs as a lone `rpq_distance` call without a cache, so the
/// results do not depend on `threads`.
///
/// Errors: as `rpq_collide_batch`; a negative or NaN error bound is
/// `RPQ_ERR_INVALID_ARGUMENT`.
///
/// # Safety
/// As `rpq_collide_batch`; `out_p1`, `out_p2` are NULL or hold 3 writable doubles per query.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_distance_batch(
    model1: *const RpqModel,
    model2: *const RpqModel,
    poses1: *const RpqPose,
    num_poses1: usize,
    poses2: *const RpqPose,
    num_poses2: usize,
    request: *const RpqDistanceRequest,
    warm_start: c_int,
    threads: c_int,
    out_distance: *mut f64,
    out_p1: *mut f64,
    out_p2: *mut f64,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract for every pointer below.
        let run = || -> Result<(), RpqStatus> {
            let batch = unsafe { Batch::read(model1, model2, poses1, num_poses1, poses2, num_poses2) }?;
            if out_distance.is_null() && batch.n > 0 {
                return Err(RPQ_ERR_NULL_POINTER);
            }
            let request = if request.is_null() { RpqDistanceRequest::default() } else { unsafe { *request } };
            let valid = |e: f64| e.is_finite() && e >= 0.0;
            if !valid(request.rel_err) || !valid(request.abs_err) {
                return Err(RPQ_ERR_INVALID_ARGUMENT);
            }
            let query = DistanceRequest {
                rel_err: request.rel_err,
                abs_err: request.abs_err,
                qsize: queue_size(request.qsize, batch.m1, batch.m2),
            };
            let warm = warm_start != 0;
            let results = batch.run(threads, DistanceCache::default, |m1, p1, m2, p2, cache| {
                let r = distance::distance_placed(m1, p1, m2, p2, &query, if warm { Some(cache) } else { None })
                    .map_err(|_| RPQ_ERR_OUT_OF_RANGE)?;
                Ok((r.distance, [r.p1.x, r.p1.y, r.p1.z], [r.p2.x, r.p2.y, r.p2.z]))
            })?;
            let results = results.into_iter().collect::<Result<Vec<_>, RpqStatus>>()?;
            for (i, (d, p1, p2)) in results.into_iter().enumerate() {
                unsafe {
                    *out_distance.add(i) = d;
                    write_point(out_p1, i, p1);
                    write_point(out_p2, i, p2);
                }
            }
            Ok(())
        };
        run().err().unwrap_or(RPQ_OK)
    })
}

/// Whether each query's models are at most `tolerance` apart (inclusive; a negative tolerance
/// counts as 0), as `rpq_tolerance` with this `qsize`: `out_closer[i]` is 1 or 0; when not
/// NULL, `out_distance[i]` and the points `out_p1`, `out_p2` (3 doubles a query, each in its
/// own model's frame, NaN when not closer) are the `RpqDistanceResult` fields.
///
/// Errors: as `rpq_collide_batch`; a NaN tolerance is `RPQ_ERR_NON_FINITE`.
///
/// # Safety
/// As `rpq_distance_batch`, with `out_closer` holding one writable byte per query.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_tolerance_batch(
    model1: *const RpqModel,
    model2: *const RpqModel,
    poses1: *const RpqPose,
    num_poses1: usize,
    poses2: *const RpqPose,
    num_poses2: usize,
    tolerance: f64,
    qsize: c_int,
    threads: c_int,
    out_closer: *mut u8,
    out_distance: *mut f64,
    out_p1: *mut f64,
    out_p2: *mut f64,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract for every pointer below.
        let run = || -> Result<(), RpqStatus> {
            let batch = unsafe { Batch::read(model1, model2, poses1, num_poses1, poses2, num_poses2) }?;
            if out_closer.is_null() && batch.n > 0 {
                return Err(RPQ_ERR_NULL_POINTER);
            }
            if tolerance.is_nan() {
                return Err(RPQ_ERR_NON_FINITE);
            }
            let qsize = queue_size(qsize, batch.m1, batch.m2);
            // (No warm start: each answer is the single query's, however the batch is shared.)
            let results = batch.run(
                threads,
                || (),
                |m1, p1, m2, p2, _| {
                    let r = distance::tolerance_placed(m1, p1, m2, p2, tolerance, qsize, None)
                        .map_err(|_| RPQ_ERR_OUT_OF_RANGE)?;
                    Ok((u8::from(r.closer), r.distance, [r.p1.x, r.p1.y, r.p1.z], [r.p2.x, r.p2.y, r.p2.z]))
                },
            )?;
            let results = results.into_iter().collect::<Result<Vec<_>, RpqStatus>>()?;
            for (i, (closer, d, p1, p2)) in results.into_iter().enumerate() {
                unsafe {
                    *out_closer.add(i) = closer;
                    if !out_distance.is_null() {
                        *out_distance.add(i) = d;
                    }
                    write_point(out_p1, i, p1);
                    write_point(out_p2, i, p2);
                }
            }
            Ok(())
        };
        run().err().unwrap_or(RPQ_OK)
    })
}

/// Converts `n` 4×4 homogeneous matrices (16 doubles each, row-major) into `out_poses`,
/// checking each one: every entry finite, the last row exactly `0 0 0 1`, and the 3×3 block a
/// rotation times a positive uniform scale `k` (its columns orthogonal and of squared length
/// `k²` within `tolerance * k²`, its determinant positive), `k` within [`RPQ_MIN_SCALE`,
/// `RPQ_MAX_SCALE`]. When `|k − 1| <= tolerance` the block is taken as the rotation and the
/// scale is 1; otherwise the block divided by `k` is the rotation and `k` the scale. (Queries
/// check rotations against the process-wide tolerance of `rpq_set_rotation_tolerance`: pass
/// `rpq_rotation_tolerance()` here to get poses they accept.)
///
/// Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_NON_FINITE` (a NaN or infinite entry),
/// `RPQ_ERR_INVALID_ARGUMENT` (a bad last row, or `tolerance` negative, NaN or above
/// `RPQ_MAX_ROTATION_TOLERANCE`), `RPQ_ERR_NOT_ROTATION` (a block that is not a rotation times
/// a uniform scale), `RPQ_ERR_INVALID_SCALE` (`k` out of range). `out_poses` is written only on
/// success.
///
/// # Safety
/// `matrices` points to `16 * n` readable doubles and `out_poses` to `n` writable poses (either
/// may be NULL when `n` is 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_poses_from_matrices(
    matrices: *const f64,
    n: usize,
    tolerance: f64,
    out_poses: *mut RpqPose,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        if n == 0 {
            return RPQ_OK;
        }
        if matrices.is_null() || out_poses.is_null() {
            return RPQ_ERR_NULL_POINTER;
        }
        if !(0.0..=pose::RPQ_MAX_ROTATION_TOLERANCE).contains(&tolerance) {
            return RPQ_ERR_INVALID_ARGUMENT;
        }
        let Some(count) = n.checked_mul(16) else {
            return RPQ_ERR_INVALID_ARGUMENT;
        };
        // SAFETY: the caller provides 16 * n doubles.
        let values = unsafe { std::slice::from_raw_parts(matrices, count) };
        let mut poses = Vec::new();
        if poses.try_reserve_exact(n).is_err() {
            return RPQ_ERR_OUT_OF_MEMORY;
        }
        for m in values.chunks_exact(16) {
            match pose_from_matrix(m, tolerance) {
                Ok(pose) => poses.push(pose),
                Err(status) => return status,
            }
        }
        // SAFETY: out_poses holds n writable poses, and cannot overlap the fresh Vec.
        unsafe { std::ptr::copy_nonoverlapping(poses.as_ptr(), out_poses, n) };
        RPQ_OK
    })
}

/// One matrix of `rpq_poses_from_matrices`. The arithmetic is the Python package's
/// (`rapidpqp._api._pack_pose`), operation for operation, so both give identical poses.
fn pose_from_matrix(m: &[f64], tolerance: f64) -> Result<RpqPose, RpqStatus> {
    if !all_finite(m) {
        return Err(RPQ_ERR_NON_FINITE);
    }
    if m[12] != 0.0 || m[13] != 0.0 || m[14] != 0.0 || m[15] != 1.0 {
        return Err(RPQ_ERR_INVALID_ARGUMENT);
    }
    let mut a = [m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]];
    let k = pose::block_scale(&a, tolerance, false).ok_or(RPQ_ERR_NOT_ROTATION)?;
    if !pose::scale_in_range(k) {
        return Err(RPQ_ERR_INVALID_SCALE);
    }
    let mut scale = 1.0;
    if (k - 1.0).abs() > tolerance {
        for v in &mut a {
            *v /= k;
        }
        scale = k;
    }
    Ok(RpqPose { rotation: a, translation: [m[3], m[7], m[11]], scale })
}

/// Writes point `i` of a `3n`-double output array; a NULL array is skipped.
///
/// # Safety
/// `out` is NULL or holds at least `3 * (i + 1)` writable doubles.
unsafe fn write_point(out: *mut f64, i: usize, p: [f64; 3]) {
    if !out.is_null() {
        // SAFETY: per the contract.
        unsafe { std::ptr::copy_nonoverlapping(p.as_ptr(), out.add(3 * i), 3) };
    }
}

/// A model pair and its checked poses (one, or one per query).
struct Batch<'a> {
    m1: &'a Model,
    m2: &'a Model,
    /// The borrows of `m1` and `m2`, held as long as the batch.
    _borrows: [ModelRef<'a>; 2],
    poses1: Vec<Placement>,
    poses2: Vec<Placement>,
    /// Number of queries.
    n: usize,
}

impl<'a> Batch<'a> {
    /// Checks the handles, the counts and every pose.
    ///
    /// # Safety
    /// Models NULL or live; each pose array NULL or holding its count of readable poses.
    unsafe fn read(
        model1: *const RpqModel,
        model2: *const RpqModel,
        poses1: *const RpqPose,
        num_poses1: usize,
        poses2: *const RpqPose,
        num_poses2: usize,
    ) -> Result<Batch<'a>, RpqStatus> {
        // SAFETY: forwarded contract.
        let m1 = unsafe { model_ref(model1) }?;
        // SAFETY: forwarded contract.
        let m2 = unsafe { model_ref(model2) }?;
        let n = broadcast(num_poses1, num_poses2)?;
        // SAFETY: forwarded contract.
        let poses1 = unsafe { read_poses(poses1, num_poses1) }?;
        // SAFETY: forwarded contract.
        let poses2 = unsafe { read_poses(poses2, num_poses2) }?;
        Ok(Batch { m1: m1.get(), m2: m2.get(), _borrows: [m1, m2], poses1, poses2, n })
    }

    fn pose1(&self, i: usize) -> &Placement {
        &self.poses1[if self.poses1.len() == 1 { 0 } else { i }]
    }

    fn pose2(&self, i: usize) -> &Placement {
        &self.poses2[if self.poses2.len() == 1 { 0 } else { i }]
    }

    /// Runs `query` for every query index on up to `threads` threads, each with its own
    /// `state`, and returns the results in query order (see [`share`]).
    fn run<S, R>(
        &self,
        threads: c_int,
        state: impl Fn() -> S + Sync,
        query: impl Fn(&Model, &Placement, &Model, &Placement, &mut S) -> R + Sync,
    ) -> Result<Vec<R>, RpqStatus>
    where
        R: Send,
    {
        // Small blocks of consecutive queries: nearby poses stay together (warm starts help),
        // and uneven query costs still balance.
        share(self.n, threads, 16, state, |range, s, out| {
            out.extend(range.map(|i| query(self.m1, self.pose1(i), self.m2, self.pose2(i), s)));
            Ok(())
        })
    }
}

/// The number of queries of two broadcast arrays of `a` and `b` entries: `max(a, b)`, 0 if
/// either is 0; each must be that number or 1, else `RPQ_ERR_INVALID_ARGUMENT`.
pub(crate) fn broadcast(a: usize, b: usize) -> Result<usize, RpqStatus> {
    match (a, b) {
        (a, b) if a == b => Ok(a),
        (0, _) | (_, 0) => Ok(0),
        (1, b) => Ok(b),
        (a, 1) => Ok(a),
        _ => Err(RPQ_ERR_INVALID_ARGUMENT),
    }
}

/// The threads a batch of `n` queries uses when the caller asks for `threads`: 0 or less, one
/// per available core; at most [`RPQ_MAX_BATCH_THREADS`]; at least 1 and at most `n`.
fn thread_count(threads: c_int, n: usize) -> usize {
    if n <= 1 || threads == 1 {
        return 1;
    }
    let wanted = if threads <= 0 { cores() } else { threads.min(RPQ_MAX_BATCH_THREADS) as usize };
    wanted.clamp(1, n)
}

/// The available cores, asked once per process: `available_parallelism` reads the cgroup
/// files under /proc on every call (tens of µs, measured from Python on one-point calls).
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get))
}

/// The one thread-splitting of every batch: runs `part` over `0..n` cut into blocks of
/// consecutive indices, about `blocks_per_thread` blocks for each of the
/// [`thread_count`]`(threads, n)` threads (the calling thread among them), which take the
/// blocks in turn from a shared counter, each with its own `state`. `part(range, state, out)`
/// appends one result per index of `range` to `out`; the results come back in index order.
/// With `blocks_per_thread` 1 each thread gets one contiguous chunk (unless some thread could
/// not be spawned: then the others take its chunk too).
///
/// The results are staged in memory reserved fallibly (`RPQ_ERR_OUT_OF_MEMORY` when it cannot
/// be had). A block whose `part` fails stops the batch: the error of the failed block of least
/// start is returned (blocks after it may not have run).
pub(crate) fn share<S, R>(
    n: usize,
    threads: c_int,
    blocks_per_thread: usize,
    state: impl Fn() -> S + Sync,
    part: impl Fn(std::ops::Range<usize>, &mut S, &mut Vec<R>) -> Result<(), RpqStatus> + Sync,
) -> Result<Vec<R>, RpqStatus>
where
    R: Send,
{
    let threads = thread_count(threads, n);
    let mut results = Vec::new();
    results.try_reserve_exact(n).map_err(|_| RPQ_ERR_OUT_OF_MEMORY)?;
    if threads == 1 {
        let mut s = state();
        part(0..n, &mut s, &mut results)?;
        return if results.len() == n { Ok(results) } else { Err(RPQ_ERR_INTERNAL) };
    }
    let block = n.div_ceil(threads * blocks_per_thread.max(1)).max(1);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let work = || {
        let mut s = state();
        let mut done: Vec<(usize, Result<Vec<R>, RpqStatus>)> = Vec::new();
        loop {
            let start = next.fetch_add(block, Ordering::Relaxed);
            if start >= n || stop.load(Ordering::Relaxed) {
                return done;
            }
            let end = (start + block).min(n);
            let mut out = Vec::new();
            if done.try_reserve(1).is_err() {
                stop.store(true, Ordering::Relaxed);
                return done;
            }
            let r = match out.try_reserve_exact(end - start) {
                Ok(()) => part(start..end, &mut s, &mut out).map(|()| out),
                Err(_) => Err(RPQ_ERR_OUT_OF_MEMORY),
            };
            if r.is_err() {
                stop.store(true, Ordering::Relaxed);
            }
            done.push((start, r));
        }
    };
    let mut parts: Vec<(usize, Result<Vec<R>, RpqStatus>)> = std::thread::scope(|scope| {
        let spawned: Vec<_> =
            (1..threads).filter_map(|_| std::thread::Builder::new().spawn_scoped(scope, work).ok()).collect();
        // The calling thread works too; if no thread could be spawned it does it all.
        let mut parts = work();
        for handle in spawned {
            parts.extend(handle.join().map_err(|_| RPQ_ERR_INTERNAL)?);
        }
        Ok::<_, RpqStatus>(parts)
    })?;
    // The blocks cover 0..n without overlap: in order of their starts they are the results
    // (a gap means some thread stopped for want of memory before it could record its block).
    parts.sort_unstable_by_key(|&(start, _)| start);
    if let Some(&status) = parts.iter().find_map(|(_, part)| part.as_ref().err()) {
        return Err(status);
    }
    for (start, part) in parts {
        let part = part?;
        if start != results.len() {
            return Err(if stop.load(Ordering::Relaxed) { RPQ_ERR_OUT_OF_MEMORY } else { RPQ_ERR_INTERNAL });
        }
        if part.len() != (start + block).min(n) - start {
            return Err(RPQ_ERR_INTERNAL);
        }
        results.extend(part);
    }
    if results.len() != n {
        return Err(if stop.load(Ordering::Relaxed) { RPQ_ERR_OUT_OF_MEMORY } else { RPQ_ERR_INTERNAL });
    }
    Ok(results)
}

/// Reads and checks `count` poses.
///
/// # Safety
/// `poses` is NULL or points to `count` readable poses.
unsafe fn read_poses(poses: *const RpqPose, count: usize) -> Result<Vec<Placement>, RpqStatus> {
    if count == 0 {
        return Ok(Vec::new());
    }
    if poses.is_null() {
        return Err(RPQ_ERR_NULL_POINTER);
    }
    let mut out = Vec::new();
    out.try_reserve_exact(count).map_err(|_| RPQ_ERR_OUT_OF_MEMORY)?;
    for i in 0..count {
        // SAFETY: i < count, so every pointer is in the caller's array.
        out.push(unsafe { read_pose(poses.add(i)) }?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::native::{
        RpqDistanceResult, rpq_collide, rpq_collide_result_free, rpq_collide_result_new, rpq_collide_result_num_pairs,
        rpq_distance, rpq_model_build, rpq_model_free, rpq_tolerance,
    };

    fn pose(k: usize) -> RpqPose {
        let a = 0.3 * k as f64;
        let (c, s) = (a.cos(), a.sin());
        RpqPose {
            rotation: [c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0],
            translation: [0.1 * k as f64 - 1.0, 0.05 * k as f64, 0.02],
            scale: 1.0,
        }
    }

    /// A small fan of triangles around the origin.
    fn fan() -> *mut RpqModel {
        let mut tris = Vec::new();
        for k in 0..24 {
            let (a, b) = (0.26 * k as f64, 0.26 * (k + 1) as f64);
            tris.extend_from_slice(&[0.0, 0.0, 0.1 * (k % 3) as f64, a.cos(), a.sin(), 0.0, b.cos(), b.sin(), 0.2]);
        }
        let mut m = std::ptr::null_mut();
        // SAFETY: 24 triangles of 9 doubles.
        assert_eq!(unsafe { rpq_model_build(tris.as_ptr(), std::ptr::null(), 24, &mut m) }, RPQ_OK);
        m
    }

    #[test]
    fn batches_equal_single_queries() {
        let (a, b) = (fan(), fan());
        let poses: Vec<RpqPose> = (0..40).map(pose).collect();
        let id = [pose(0)];
        let n = poses.len();
        for threads in [1, 2, 3, 0] {
            let (mut col, mut pairs) = (vec![9u8; n], vec![9u64; n]);
            let (mut d, mut p1, mut p2) = (vec![0.0; n], vec![0.0; 3 * n], vec![0.0; 3 * n]);
            let (mut closer, mut td) = (vec![9u8; n], vec![0.0; n]);
            // SAFETY: arrays sized per the contract; models live.
            unsafe {
                let rc = rpq_collide_batch(
                    a,
                    b,
                    id.as_ptr(),
                    1,
                    poses.as_ptr(),
                    n,
                    std::ptr::null(),
                    threads,
                    col.as_mut_ptr(),
                    pairs.as_mut_ptr(),
                );
                assert_eq!(rc, RPQ_OK);
                let rc = rpq_distance_batch(
                    a,
                    b,
                    id.as_ptr(),
                    1,
                    poses.as_ptr(),
                    n,
                    std::ptr::null(),
                    0,
                    threads,
                    d.as_mut_ptr(),
                    p1.as_mut_ptr(),
                    p2.as_mut_ptr(),
                );
                assert_eq!(rc, RPQ_OK);
                let rc = rpq_tolerance_batch(
                    a,
                    b,
                    id.as_ptr(),
                    1,
                    poses.as_ptr(),
                    n,
                    0.1,
                    2,
                    threads,
                    closer.as_mut_ptr(),
                    td.as_mut_ptr(),
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                );
                assert_eq!(rc, RPQ_OK);
                let result = rpq_collide_result_new();
                for i in 0..n {
                    assert_eq!(rpq_collide(a, &id[0], b, &poses[i], std::ptr::null(), result), RPQ_OK);
                    let k = rpq_collide_result_num_pairs(result);
                    assert_eq!((col[i], pairs[i]), (u8::from(k > 0), k as u64), "query {i}");
                    let mut r = RpqDistanceResult::default();
                    assert_eq!(
                        rpq_distance(a, &id[0], b, &poses[i], std::ptr::null(), std::ptr::null_mut(), &mut r),
                        RPQ_OK
                    );
                    assert_eq!(
                        (d[i], &p1[3 * i..3 * i + 3], &p2[3 * i..3 * i + 3]),
                        (r.distance, &r.p1[..], &r.p2[..])
                    );
                    assert_eq!(rpq_tolerance(a, &id[0], b, &poses[i], 0.1, 2, &mut r), RPQ_OK);
                    assert_eq!((closer[i], td[i].to_bits()), (r.closer as u8, r.distance.to_bits()));
                }
                rpq_collide_result_free(result);
            }
        }
        // SAFETY: live models, freed once.
        unsafe {
            rpq_model_free(a);
            rpq_model_free(b);
        }
    }

    #[test]
    fn every_box_test_gives_the_same_contacts() {
        use crate::ffi::native::{
            RPQ_BOX_TEST_DEFAULT, RPQ_BOX_TEST_DUAL, RPQ_BOX_TEST_SAT_LITE, RPQ_BOX_TEST_SAT15,
            RPQ_BOX_TEST_SPHERE_SAT15,
        };
        let (a, b) = (fan(), fan());
        let poses: Vec<RpqPose> = (0..40).map(pose).collect();
        let id = [pose(0)];
        let n = poses.len();
        let pairs_with = |box_test: c_int| {
            let request = RpqCollideRequest { first_contact: 0, box_test, frame: 0 };
            let (mut col, mut pairs) = (vec![9u8; n], vec![9u64; n]);
            // SAFETY: arrays sized per the contract; models live.
            let rc = unsafe {
                rpq_collide_batch(
                    a,
                    b,
                    id.as_ptr(),
                    1,
                    poses.as_ptr(),
                    n,
                    &request,
                    2,
                    col.as_mut_ptr(),
                    pairs.as_mut_ptr(),
                )
            };
            (rc, pairs)
        };
        let (rc, want) = pairs_with(RPQ_BOX_TEST_DEFAULT);
        assert_eq!(rc, RPQ_OK);
        assert!(want.iter().any(|&k| k > 0) && want.contains(&0), "poses with and without contacts");
        for box_test in [RPQ_BOX_TEST_SAT15, RPQ_BOX_TEST_SAT_LITE, RPQ_BOX_TEST_DUAL, RPQ_BOX_TEST_SPHERE_SAT15] {
            assert_eq!(pairs_with(box_test), (RPQ_OK, want.clone()), "box test {box_test}");
        }
        assert_eq!(pairs_with(5).0, RPQ_ERR_INVALID_ARGUMENT);
        assert_eq!(pairs_with(-1).0, RPQ_ERR_INVALID_ARGUMENT);
        // SAFETY: live models, freed once.
        unsafe {
            rpq_model_free(a);
            rpq_model_free(b);
        }
    }

    #[test]
    fn share_keeps_order_and_reports_a_failed_block() {
        for threads in [1, 2, 3, 0, 7] {
            for blocks_per_thread in [1, 16] {
                for n in [0, 1, 2, 7, 100] {
                    let r = share(
                        n,
                        threads,
                        blocks_per_thread,
                        || 0usize,
                        |range, calls, out| {
                            *calls += 1;
                            out.extend(range.map(|i| 3 * i));
                            Ok(())
                        },
                    );
                    assert_eq!(r, Ok((0..n).map(|i| 3 * i).collect::<Vec<_>>()), "{threads} {blocks_per_thread} {n}");
                }
                let failing = share(
                    100,
                    threads,
                    blocks_per_thread,
                    || (),
                    |range, _, out: &mut Vec<usize>| {
                        if range.contains(&97) {
                            return Err(RPQ_ERR_NON_FINITE);
                        }
                        out.extend(range);
                        Ok(())
                    },
                );
                assert_eq!(failing, Err(RPQ_ERR_NON_FINITE));
                let short = share(
                    10,
                    threads,
                    blocks_per_thread,
                    || (),
                    |range, _, out: &mut Vec<usize>| {
                        out.extend(range.skip(1));
                        Ok(())
                    },
                );
                assert_eq!(short, Err(RPQ_ERR_INTERNAL), "a part that leaves out an answer is a bug");
            }
        }
    }

    #[test]
    fn poses_from_matrices() {
        let (c, s) = (0.6f64, 0.8f64);
        let rot = [c, -s, 0.0, 1.0, s, c, 0.0, 2.0, 0.0, 0.0, 1.0, 3.0, 0.0, 0.0, 0.0, 1.0];
        let mut scaled = rot;
        for k in [0, 1, 2, 4, 5, 6, 8, 9, 10] {
            scaled[k] *= 2.0;
        }
        let input: Vec<f64> = rot.iter().chain(&scaled).copied().collect();
        let mut out = [pose(0); 2];
        // SAFETY: 2 matrices in, 2 poses out.
        assert_eq!(unsafe { rpq_poses_from_matrices(input.as_ptr(), 2, 1e-6, out.as_mut_ptr()) }, RPQ_OK);
        assert_eq!(out[0].rotation, [c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0]);
        assert_eq!((out[0].translation, out[0].scale), ([1.0, 2.0, 3.0], 1.0));
        assert_eq!((out[1].rotation, out[1].scale), (out[0].rotation, 2.0));
        let bad = |k: usize, v: f64| {
            let mut m = rot;
            m[k] = v;
            let mut p = [pose(0)];
            // SAFETY: 1 matrix in, 1 pose out.
            let status = unsafe { rpq_poses_from_matrices(m.as_ptr(), 1, 1e-6, p.as_mut_ptr()) };
            assert_eq!(p[0].translation, pose(0).translation, "nothing written on error");
            status
        };
        assert_eq!(bad(3, f64::NAN), RPQ_ERR_NON_FINITE);
        assert_eq!(bad(12, 0.5), RPQ_ERR_INVALID_ARGUMENT);
        assert_eq!(bad(15, 2.0), RPQ_ERR_INVALID_ARGUMENT);
        assert_eq!(bad(1, 0.1), RPQ_ERR_NOT_ROTATION);
        assert_eq!(bad(10, -1.0), RPQ_ERR_NOT_ROTATION, "a reflection");
        // SAFETY: n = 0 reads and writes nothing.
        assert_eq!(unsafe { rpq_poses_from_matrices(std::ptr::null(), 0, 1e-6, std::ptr::null_mut()) }, RPQ_OK);
        let mut p = [pose(0)];
        // SAFETY: as above.
        assert_eq!(
            unsafe { rpq_poses_from_matrices(rot.as_ptr(), 1, f64::NAN, p.as_mut_ptr()) },
            RPQ_ERR_INVALID_ARGUMENT
        );
    }

    #[test]
    fn bad_arguments_write_nothing() {
        let (a, b) = (fan(), fan());
        let mut poses: Vec<RpqPose> = (0..5).map(pose).collect();
        let mut col = vec![7u8; 5];
        let mut d = vec![7.0; 5];
        // SAFETY: arrays sized per the contract (or NULL where tested); models live.
        unsafe {
            let collide = |p1: *const RpqPose, n1, p2: *const RpqPose, n2, out: *mut u8| {
                rpq_collide_batch(a, b, p1, n1, p2, n2, std::ptr::null(), 2, out, std::ptr::null_mut())
            };
            let pp = poses.as_ptr();
            assert_eq!(collide(pp, 5, pp, 4, col.as_mut_ptr()), RPQ_ERR_INVALID_ARGUMENT);
            assert_eq!(collide(pp, 5, std::ptr::null(), 1, col.as_mut_ptr()), RPQ_ERR_NULL_POINTER);
            assert_eq!(collide(pp, 5, pp, 5, std::ptr::null_mut()), RPQ_ERR_NULL_POINTER);
            assert_eq!(
                rpq_collide_batch(
                    std::ptr::null(),
                    b,
                    pp,
                    5,
                    pp,
                    5,
                    std::ptr::null(),
                    1,
                    col.as_mut_ptr(),
                    std::ptr::null_mut()
                ),
                RPQ_ERR_NULL_POINTER
            );
            let bad_request = RpqCollideRequest { first_contact: 0, box_test: 7, frame: 0 };
            assert_eq!(
                rpq_collide_batch(a, b, pp, 5, pp, 5, &bad_request, 1, col.as_mut_ptr(), std::ptr::null_mut()),
                RPQ_ERR_INVALID_ARGUMENT
            );
            poses[4].translation[1] = f64::NAN;
            let pp = poses.as_ptr();
            assert_eq!(collide(pp, 5, pp, 1, col.as_mut_ptr()), RPQ_ERR_NON_FINITE);
            poses[4].translation[1] = 0.0;
            poses[3].scale = 0.0;
            let pp = poses.as_ptr();
            assert_eq!(collide(pp, 5, pp, 1, col.as_mut_ptr()), RPQ_ERR_INVALID_SCALE);
            assert_eq!(col, vec![7u8; 5], "outputs untouched on error");
            let negative = RpqDistanceRequest { rel_err: -1.0, abs_err: 0.0, qsize: 2 };
            assert_eq!(
                rpq_distance_batch(
                    a,
                    b,
                    pp,
                    3,
                    pp,
                    3,
                    &negative,
                    0,
                    1,
                    d.as_mut_ptr(),
                    std::ptr::null_mut(),
                    std::ptr::null_mut()
                ),
                RPQ_ERR_INVALID_ARGUMENT
            );
            assert_eq!(
                rpq_tolerance_batch(
                    a,
                    b,
                    pp,
                    3,
                    pp,
                    3,
                    f64::NAN,
                    2,
                    1,
                    col.as_mut_ptr(),
                    d.as_mut_ptr(),
                    std::ptr::null_mut(),
                    std::ptr::null_mut()
                ),
                RPQ_ERR_NON_FINITE
            );
            assert_eq!(d, vec![7.0; 5]);
            // No queries: nothing to write, outputs may be NULL.
            assert_eq!(collide(pp, 0, pp, 1, std::ptr::null_mut()), RPQ_OK);
            rpq_model_free(a);
            rpq_model_free(b);
        }
    }
}
