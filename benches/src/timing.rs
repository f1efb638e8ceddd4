//! The one timing helper: a sweep over all queries repeated, the median sweep kept (as
//! `/work/shared/reference/ORIGINALS.md` measured the originals).

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
