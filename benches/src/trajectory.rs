//! Trajectory scenes: model 2 of a fixture case moving around model 1 along a smooth, seeded
//! path of 1,000 steps through contact, near contact and apart (the path is made by the C
//! harness: `make_path` in `benches/legacy/native_bench.c`). Each step is queried through the
//! legacy PQP C API (its warm start kept in the models) and the native C API (`rpq_distance`
//! with and without an `RpqDistanceCache`, `rpq_tolerance`, `rpq_collide`); the harness checks
//! that all modes agree with PQP_Distance at every step.

use std::fmt::Write as _;

use crate::fixture::case_dir;

/// The scenes: `trajectory-<case>`.
pub const SCENES: [&str; 2] = ["trajectory-bunny_sphere", "trajectory-tori"];

/// The modes the harness times, with what they are, in its order; the reference for the
/// "vs legacy" column.
const MODES: [(&str, &str, &str); 7] = [
    ("PQP_Distance", "distance", "PQP_Distance"),
    ("PQP_Tolerance", "tolerance", "PQP_Tolerance"),
    ("PQP_Collide_first", "first contact", "PQP_Collide_first"),
    ("rpq_distance_cache", "distance", "PQP_Distance"),
    ("rpq_distance_no_cache", "distance", "PQP_Distance"),
    ("rpq_tolerance", "tolerance", "PQP_Tolerance"),
    ("rpq_collide_first", "first contact", "PQP_Collide_first"),
];

/// Runs one scene, prints its table, appends its CSV lines (see [`CSV_HEADER`]).
pub fn run(scene: &str, steps: usize, passes: usize, csv: &mut String, failures: &mut Vec<String>) {
    let case = scene.strip_prefix("trajectory-").expect("a trajectory scene");
    let (passes_arg, steps_arg, dir) = (passes.to_string(), steps.to_string(), case_dir(case));
    let args = ["--passes", &passes_arg, "--steps", &steps_arg, "trajectory", &dir.to_string_lossy()];
    let (lines, ok) = match crate::harness::native_executable().and_then(|exe| crate::harness::run(&exe, &args)) {
        Ok(result) => result,
        Err(why) => {
            failures.push(format!("{scene}: not measured: {why}"));
            return;
        }
    };
    if !ok {
        failures.push(format!("{scene}: the modes disagree (see MISMATCH lines above)"));
    }
    say!("\n## Trajectory: {case}\n");
    let phases = lines.iter().find(|l| l.kind == "phases");
    if let Some(p) = phases {
        say!(
            "{} steps (seed {}): {} in contact, {} near (0 < distance ≤ tolerance {}), {} apart; model 2's centre \
             moves at most {:.1} % of the two bounding radii in a step. µs per step, median of {passes} passes over \
             the path (min–max of the passes); legacy / this: the legacy PQP call's time over this one's; work: \
             mean tests per step.\n",
            p.text("steps"),
            p.text("seed"),
            p.text("contact"),
            p.text("near"),
            p.text("tolerance"),
            p.text("apart"),
            100.0 * p.number("largest_move")
        );
    }
    say!("| query | API | µs per step | legacy / this | BV tests | tri tests | agrees with PQP_Distance |");
    say!("|---|---|---|---|---|---|---|");
    let rows: Vec<_> = lines.iter().filter(|l| l.kind == "row").collect();
    let time_of = |mode: &str| rows.iter().find(|l| l.text("mode") == mode).map_or(f64::NAN, |l| l.number("us"));
    for (mode, what, legacy) in MODES {
        let Some(row) = rows.iter().find(|l| l.text("mode") == mode) else { continue };
        let t = row.timing();
        let agree = (row.number("agree"), row.number("checked"));
        let agree_cell = if agree.0 == agree.1 {
            format!("{}/{}", agree.0, agree.1)
        } else {
            format!("**WRONG {}/{}**", agree.0, agree.1)
        };
        say!(
            "| {what} | {mode} | {:.2} ({:.2}–{:.2}) | {:.2}× | {:.1} | {:.1} | {agree_cell} |",
            t.median,
            t.min,
            t.max,
            time_of(legacy) / t.median,
            row.number("bv_tests"),
            row.number("tri_tests")
        );
        let p = |key: &str| phases.map_or(String::new(), |p| p.text(key).to_string());
        let _ = writeln!(
            csv,
            "{scene},{mode},{},{passes},{:.4},{:.4},{:.4},{:.1},{:.1},{},{},{},{},{},{}",
            row.text("steps"),
            t.median,
            t.min,
            t.max,
            row.number("bv_tests"),
            row.number("tri_tests"),
            agree.0,
            agree.1,
            p("tolerance"),
            p("contact"),
            p("near"),
            p("apart")
        );
    }
}

pub const CSV_HEADER: &str = "scene,mode,steps,passes,us,us_min,us_max,bv_tests,tri_tests,agree,checked,tolerance,contact_steps,near_steps,apart_steps\n";
