//! The stopwatch behind the legacy results' `query_time_secs`.
//!
//! PQP timed every query with two clock reads; through the vDSO a `CLOCK_MONOTONIC` read costs
//! 20–40 ns, a large share of a small query. On x86-64 the stopwatch reads the time-stamp
//! counter instead (`rdtsc`, constant-rate on every x86-64 processor of the last fifteen years)
//! and converts ticks to seconds with a rate measured once against the monotonic clock, over
//! 0.2 ms that the first timed query of the process waits for. Elsewhere, and where the counter misbehaves
//! (goes backwards, or runs at an implausible rate), the monotonic clock is used throughout.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Seconds per counter tick as `f64` bits; 0 while not measured, [`NO_COUNTER`] when the
/// counter is not used.
static SECONDS_PER_TICK: AtomicU64 = AtomicU64::new(0);
const NO_COUNTER: u64 = u64::MAX;
/// How long the rate is measured over (the clock reads are good to tens of nanoseconds).
const CALIBRATION_SECS: f64 = 2e-4;

/// A running timer.
pub(crate) enum Stopwatch {
    Ticks(u64),
    Clock(Instant),
}

impl Stopwatch {
    #[inline(always)]
    pub(crate) fn start() -> Stopwatch {
        match SECONDS_PER_TICK.load(Ordering::Relaxed) {
            0 | NO_COUNTER => Stopwatch::start_slow(),
            _ => Stopwatch::Ticks(ticks()),
        }
    }

    #[cold]
    fn start_slow() -> Stopwatch {
        let now = Instant::now();
        calibrate(now);
        Stopwatch::Clock(now)
    }

    /// Seconds since `start`.
    #[inline(always)]
    pub(crate) fn seconds(&self) -> f64 {
        match *self {
            Stopwatch::Ticks(start) => {
                let rate = f64::from_bits(SECONDS_PER_TICK.load(Ordering::Relaxed));
                ticks().saturating_sub(start) as f64 * rate
            }
            Stopwatch::Clock(start) => start.elapsed().as_secs_f64(),
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn ticks() -> u64 {
    // SAFETY: rdtsc exists on every x86-64 processor and only reads the counter.
    #[allow(unused_unsafe)]
    unsafe {
        std::arch::x86_64::_rdtsc()
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn ticks() -> u64 {
    0
}

/// Measures the counter's rate against the monotonic clock, once: two samples
/// [`CALIBRATION_SECS`] apart, waited for (the first timed query of the process pays it,
/// once; `query_time_secs` is then good to about 1e-4 of itself, far finer than the clock
/// reads PQP took it from). A thread that finds the measurement under way times its query
/// with the clock meanwhile.
fn calibrate(_now: Instant) {
    static STARTED: AtomicBool = AtomicBool::new(false);
    if !cfg!(target_arch = "x86_64") {
        SECONDS_PER_TICK.store(NO_COUNTER, Ordering::Relaxed);
        return;
    }
    if STARTED.swap(true, Ordering::Relaxed) {
        return;
    }
    let (t0, c0) = sample();
    while c0.elapsed().as_secs_f64() < CALIBRATION_SECS {
        std::hint::spin_loop();
    }
    let (t1, c1) = sample();
    let seconds = c1.duration_since(c0).as_secs_f64();
    let rate = if t1 > t0 { seconds / (t1 - t0) as f64 } else { 0.0 };
    // A plausible counter runs between 100 MHz and 20 GHz.
    let plausible = (1.0 / 20e9..=1.0 / 100e6).contains(&rate);
    SECONDS_PER_TICK.store(if plausible { rate.to_bits() } else { NO_COUNTER }, Ordering::Relaxed);
}

/// The counter and the clock read at (nearly) the same moment: of a few tries, the one whose
/// clock read took the fewest ticks (a thread preempted between the two reads would otherwise
/// skew the rate), with the counter taken at the middle.
fn sample() -> (u64, Instant) {
    let mut best = (u64::MAX, 0, Instant::now());
    for _ in 0..8 {
        let before = ticks();
        let clock = Instant::now();
        let after = ticks();
        let gap = after.wrapping_sub(before);
        if gap < best.0 {
            best = (gap, before + gap / 2, clock);
        }
    }
    (best.1, best.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopwatch_measures_real_time() {
        // Long enough that the rate gets measured on the way.
        let deadline = Instant::now() + std::time::Duration::from_millis(60);
        while Instant::now() < deadline {
            let _ = Stopwatch::start();
        }
        // The stopwatch's interval lies between the clock's shortest and longest reading of it.
        let c0 = Instant::now();
        let watch = Stopwatch::start();
        let c1 = Instant::now();
        std::thread::sleep(std::time::Duration::from_millis(30));
        let e0 = Instant::now();
        let ours = watch.seconds();
        let e1 = Instant::now();
        let (shortest, longest) = ((e0 - c1).as_secs_f64(), (e1 - c0).as_secs_f64());
        assert!(
            ours >= 0.95 * shortest && ours <= 1.05 * longest,
            "stopwatch {ours} s, clock between {shortest} and {longest} s"
        );
        if cfg!(target_arch = "x86_64") {
            assert_ne!(SECONDS_PER_TICK.load(Ordering::Relaxed), 0, "rate measured");
        }
    }
}
