//! The originals' figures, copied from `/work/shared/reference/ORIGINALS.md` (measured
//! 2026-11-24: RAPID 2.01 and PQP 1.3 built with `g++ -O2`, called through their C entry
//! points by an outside C program on the conformance poses; µs per query, median of 5 passes,
//! one thread, x86_64 2 cores, shared). Two runs a few minutes apart: ranges stay ranges.
//! This is the only place the benchmark keeps them.

/// A figure measured twice: the lower and upper value (equal when both runs agreed).
#[derive(Clone, Copy, Debug)]
pub struct Range(pub f64, pub f64);

impl Range {
    pub fn mid(self) -> f64 {
        0.5 * (self.0 + self.1)
    }
}

/// One row of ORIGINALS.md's table: the original's time, and what rapidpqp's legacy entry
/// points (`main` of that day) measured in the same runs.
pub struct Figure {
    pub case: &'static str,
    /// The benchmark's query name (`crate::legacy::Query::name`).
    pub query: &'static str,
    pub original: Range,
    pub rapidpqp_then: Range,
}

const fn row(case: &'static str, query: &'static str, original: (f64, f64), then: (f64, f64)) -> Figure {
    Figure { case, query, original: Range(original.0, original.1), rapidpqp_then: Range(then.0, then.1) }
}

pub const FIXTURE_FIGURES: &[Figure] = &[
    row("tori", "RAPID_all", (429.0, 484.0), (163.0, 192.0)),
    row("tori", "RAPID_first", (24.0, 37.0), (9.8, 15.9)),
    row("tori", "PQP_collide_all", (465.0, 617.0), (241.0, 243.0)),
    row("tori", "PQP_collide_first", (32.0, 42.0), (14.6, 16.5)),
    row("tori", "PQP_distance", (244.0, 319.0), (215.0, 289.0)),
    row("tori", "PQP_tolerance", (28.0, 37.0), (20.7, 22.1)),
    row("soup", "RAPID_all", (2201.0, 2323.0), (1032.0, 1239.0)),
    row("soup", "RAPID_first", (25.0, 33.0), (7.4, 7.6)),
    row("soup", "PQP_collide_all", (2534.0, 3169.0), (909.0, 1035.0)),
    row("soup", "PQP_collide_first", (24.0, 33.0), (8.5, 8.9)),
    row("soup", "PQP_distance", (88.0, 121.0), (91.0, 121.0)),
    row("soup", "PQP_tolerance", (24.0, 26.0), (11.4, 16.0)),
    row("bunny_sphere", "RAPID_all", (65.0, 67.0), (17.1, 25.6)),
    row("bunny_sphere", "RAPID_first", (47.0, 49.0), (17.2, 17.3)),
    row("bunny_sphere", "PQP_collide_all", (48.0, 65.0), (17.6, 26.5)),
    row("bunny_sphere", "PQP_collide_first", (33.0, 33.0), (11.1, 18.0)),
    row("bunny_sphere", "PQP_distance", (512.0, 686.0), (216.0, 293.0)),
    row("bunny_sphere", "PQP_tolerance", (64.0, 64.0), (50.0, 51.0)),
    row("separated", "RAPID_all", (13.6, 15.7), (7.0, 7.1)),
    row("separated", "RAPID_first", (9.2, 12.7), (3.0, 3.3)),
    row("separated", "PQP_collide_all", (16.0, 17.0), (4.8, 7.9)),
    row("separated", "PQP_collide_first", (10.0, 13.0), (3.1, 4.9)),
    row("separated", "PQP_distance", (512.0, 638.0), (405.0, 538.0)),
    row("separated", "PQP_tolerance", (9.0, 12.0), (6.0, 6.3)),
    // `single` (one triangle each) measures the fixed cost of a call; no first-contact rows.
    row("single", "RAPID_all", (0.30, 0.41), (0.39, 0.56)),
    row("single", "PQP_collide_all", (0.24, 0.41), (0.62, 0.66)),
    row("single", "PQP_distance", (0.57, 0.62), (1.01, 1.02)),
    row("single", "PQP_tolerance", (0.38, 0.38), (1.03, 1.68)),
];

pub fn fixture_figure(case: &str, query: &str) -> Option<&'static Figure> {
    FIXTURE_FIGURES.iter().find(|f| f.case == case && f.query == query)
}

/// Process growth while one model is built through the C entry points, bytes per triangle
/// (ORIGINALS.md "Memory", on the 69k bunny and the 100k dragon).
pub const RAPID_BYTES_PER_TRIANGLE: f64 = 373.0;
pub const PQP_BYTES_PER_TRIANGLE: f64 = 470.0;
/// What PQP's own `PQP_MemUsage` said.
pub const PQP_MEMUSAGE_BYTES_PER_TRIANGLE: f64 = 432.0;
/// rapidpqp's `RAPID_AddTri`/`PQP_AddTri` path in the same probe, and its `PQP_MemUsage`.
pub const RAPIDPQP_THEN_BYTES_PER_TRIANGLE: Range = Range(638.0, 642.0);
pub const RAPIDPQP_THEN_MEMUSAGE_BYTES_PER_TRIANGLE: f64 = 568.0;

/// Issue 12's targets: at least 2× the original's speed on every row, at most 300 bytes per
/// triangle on every mesh and API.
pub const SPEED_TARGET: f64 = 2.0;
pub const BYTES_PER_TRIANGLE_TARGET: f64 = 300.0;
