//! The one timing helper of the Rust-core scenes: a sweep over all queries repeated, the median
//! sweep kept.

use std::time::Instant;

/// µs per query: the median sweep, and the fastest and slowest.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timing {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

/// Runs `sweep` (which makes `queries` queries) `passes` times.
pub fn time_passes(passes: usize, queries: usize, mut sweep: impl FnMut()) -> Timing {
    let mut us: Vec<f64> = (0..passes.max(1))
        .map(|_| {
            let start = Instant::now();
            sweep();
            start.elapsed().as_secs_f64() * 1e6 / queries.max(1) as f64
        })
        .collect();
    Timing { median: median(&mut us), min: us[0], max: us[us.len() - 1] }
}

/// The middle value (the upper one of an even count); sorts `v`. NaN when empty.
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() { f64::NAN } else { v[v.len() / 2] }
}

/// One timed pass: µs per call in this thread's CPU time (time spent waiting for a core while
/// other processes run does not count) and in wall time.
#[derive(Clone, Copy, Debug)]
pub struct PassTime {
    pub cpu_us: f64,
    pub wall_us: f64,
}

/// This thread's CPU time, seconds.
fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid out pointer; CLOCK_THREAD_CPUTIME_ID is always there on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Times `pass`, which makes `calls` calls.
pub fn time_pass(calls: usize, pass: impl FnOnce()) -> PassTime {
    let (wall, cpu) = (Instant::now(), thread_cpu_seconds());
    pass();
    let per_call = 1e6 / calls.max(1) as f64;
    PassTime { cpu_us: (thread_cpu_seconds() - cpu) * per_call, wall_us: wall.elapsed().as_secs_f64() * per_call }
}
