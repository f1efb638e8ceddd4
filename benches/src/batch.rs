//! Scaling of the batched C API (`rpq_*_batch`): the same poses on 1 thread and on every
//! core, through the exported functions a C or Python caller uses.

use std::fmt::Write as _;

use rapidpqp::ffi::batch::{rpq_collide_batch, rpq_distance_batch, rpq_tolerance_batch};
use rapidpqp::ffi::native::{RPQ_OK, RpqModel, RpqPose, RpqToleranceRequest, rpq_model_build, rpq_model_free};
use rapidpqp::{Placement, Triangle};

use crate::timing::time_passes;

/// A model handle of the native API, freed on drop.
struct Handle(*mut RpqModel);

impl Handle {
    fn build(tris: &[Triangle]) -> Handle {
        let coords: Vec<f64> = tris.iter().flat_map(|t| t.iter().flat_map(|p| [p.x, p.y, p.z])).collect();
        let mut m = std::ptr::null_mut();
        // SAFETY: 9 doubles per triangle; ids NULL (0..n); `m` writable.
        let rc = unsafe { rpq_model_build(coords.as_ptr(), std::ptr::null(), tris.len(), &mut m) };
        assert_eq!(rc, RPQ_OK, "rpq_model_build");
        Handle(m)
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: a live model from rpq_model_build, freed once.
        unsafe { rpq_model_free(self.0) };
    }
}

fn pose(p: &Placement) -> RpqPose {
    let r = &p.rotation;
    RpqPose {
        rotation: [r[(0, 0)], r[(0, 1)], r[(0, 2)], r[(1, 0)], r[(1, 1)], r[(1, 2)], r[(2, 0)], r[(2, 1)], r[(2, 2)]],
        translation: [p.translation.x, p.translation.y, p.translation.z],
        scale: p.scale,
    }
}

/// Median wall time in ms of `repeats` runs of `f`, which must return `RPQ_OK`.
fn time_ms(repeats: usize, mut f: impl FnMut() -> i32) -> f64 {
    time_passes(repeats, 1, || assert_eq!(f(), RPQ_OK, "batch call")).median / 1e3
}

/// Times each batched query on `poses` with 1 thread and with every core, checks that the
/// answers do not depend on the thread count, prints a table and returns `batch.csv`.
pub fn scaling(a: &[Triangle], b: &[Triangle], poses: &[(Placement, Placement)], repeats: usize) -> String {
    let (ma, mb) = (Handle::build(a), Handle::build(b));
    let p1: Vec<RpqPose> = poses.iter().map(|(p, _)| pose(p)).collect();
    let p2: Vec<RpqPose> = poses.iter().map(|(_, p)| pose(p)).collect();
    let n = poses.len();
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let mut csv = String::from("query,poses,threads,ms,speedup\n");
    say!("\n## Batched C API (bunny_sphere, {n} poses): 1 thread vs {cores}\n");
    say!("| query | 1 thread ms | {cores} threads ms | speed-up |");
    say!("|---|---|---|---|");
    let mut row = |name: &str, run: &mut dyn FnMut(i32) -> (i32, Vec<u64>)| {
        let (_, reference) = run(1);
        let (_, parallel) = run(0);
        assert_eq!(reference, parallel, "{name}: answers depend on the thread count");
        let one = time_ms(repeats, || run(1).0);
        let all = time_ms(repeats, || run(0).0);
        say!("| {name} | {one:.2} | {all:.2} | {:.2}× |", one / all);
        let _ = writeln!(csv, "{name},{n},1,{one:.4},1");
        let _ = writeln!(csv, "{name},{n},{cores},{all:.4},{:.3}", one / all);
    };
    row("collide", &mut |threads| {
        let (mut colliding, mut pairs) = (vec![0u8; n], vec![0u64; n]);
        // SAFETY: n poses each side, one output entry per query; models live.
        let rc = unsafe {
            rpq_collide_batch(
                ma.0,
                p1.as_ptr(),
                n,
                mb.0,
                p2.as_ptr(),
                n,
                std::ptr::null(),
                threads,
                colliding.as_mut_ptr(),
                pairs.as_mut_ptr(),
            )
        };
        (rc, pairs)
    });
    row("distance", &mut |threads| {
        let mut d = vec![0.0; n];
        // SAFETY: as above; closest points not asked for (NULL).
        let rc = unsafe {
            rpq_distance_batch(
                ma.0,
                p1.as_ptr(),
                n,
                mb.0,
                p2.as_ptr(),
                n,
                std::ptr::null(),
                0,
                threads,
                d.as_mut_ptr(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        };
        (rc, d.iter().map(|x| x.to_bits()).collect())
    });
    row("tolerance", &mut |threads| {
        let mut closer = vec![0u8; n];
        // SAFETY: as above.
        let rc = unsafe {
            rpq_tolerance_batch(
                ma.0,
                p1.as_ptr(),
                n,
                mb.0,
                p2.as_ptr(),
                n,
                &RpqToleranceRequest { tolerance: 0.01, qsize: 2 },
                threads,
                closer.as_mut_ptr(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        };
        (rc, closer.iter().map(|&c| u64::from(c)).collect())
    });
    csv
}
