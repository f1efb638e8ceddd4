//! rapidpqp benchmark. The first tables are the ones a program relinked from RAPID or PQP
//! sees: the legacy C entry points called by an outside C program (`benches/legacy/`) on the
//! fixture cases and the generated falling and random scenes, beside the originals (the same
//! program linked with their library, run alternately in the same run), the Rust core and FCL;
//! the fixed cost of a call; memory per triangle through every API, ours and the originals';
//! trajectory scenes through the legacy and native C APIs.
//! Then the Rust core's own tables (every box test, the torus scenes, Scenarios I and II, the
//! peers parry3d-f64 and FCL), the batched C API and the n-body scenes.
//!
//! Tables go to stdout and into `benches/results/<machine>/report.md` with a CSV per table
//! (runs of selected scenes write into `benches/results/<machine>/partial/`). The exit status
//! is 1 when any answer disagreed with the recorded or reference one.
//!
//! Run `./run_bench.sh --help` (it builds the library first, then this program).

#[macro_use]
mod report;

mod batch;
mod core;
mod fixture;
mod harness;
mod kdop;
mod legacy;
mod memory;
mod motion;
mod nbody;
mod peers;
mod refit;
mod selfcollide;
mod shapes;
mod solid;
mod timing;
mod trajectory;

use crate::core::Bench;

/// Passes over all poses per figure in the trajectory tables.
const PASSES: usize = 5;
/// Rounds of the legacy tables (each side one pass a round), and the shortest pass of ours.
const ALTERNATIONS: usize = 9;
const QUICK_ALTERNATIONS: usize = 5;
const MIN_PASS_MS: f64 = 20.0;
/// The fixed-cost scene: more, longer rounds (its calls take a fraction of a µs).
const CALLS: legacy::Settings = legacy::Settings { alternations: 21, min_pass_ms: 40.0 };
/// Steps of a trajectory scene.
const TRAJECTORY_STEPS: usize = 1000;

/// The scenes, in the order a full run takes them: name and what it measures.
const SCENES: [(&str, &str); 24] = [
    ("tori", "legacy C entry points, ours and the originals alternately, Rust core and FCL, on the tori fixture case"),
    ("soup", "the same on the soup fixture case"),
    ("bunny_sphere", "the same on the bunny_sphere fixture case"),
    ("separated", "the same on the separated fixture case"),
    ("single", "the same on the single fixture case (one triangle each: a call's fixed cost)"),
    ("falling", "the same on two 1,332-triangle tori, one falling through the other tumbling, 2,400 steps"),
    ("random", "the same on rocker_arm and bunny_15k at 2,000 random poses"),
    ("calls", "ns per one-triangle call of each legacy entry point, ours and the originals (the fixed cost)"),
    (
        "memory",
        "bytes per triangle of one model build through the RAPID and PQP APIs (ours and the originals'), native C and Rust, every mesh",
    ),
    ("large", "generated models of 1M, 2M and 4M triangles: build time, peak and finished RSS, loading"),
    ("trajectory-bunny_sphere", "1,000-step path of bunny_sphere: legacy PQP vs native API with and without cache"),
    ("trajectory-tori", "the same with the tori fixture's models"),
    ("build", "Rust core: build time and the model's own byte count, every mesh"),
    ("boxtests", "Rust core: every box test on tori, soup and bunny_sphere, with parry3d-f64 and FCL"),
    ("tori4096", "Rust core: the 4,096-triangle torus pair at single poses, with parry3d-f64 and FCL"),
    ("spheres", "Rust core: Scenario II, concentric spheres of 79,600 triangles"),
    ("scenario1", "Rust core: Scenario I, two bunny_15k at sphere-method poses"),
    ("batch", "the batched C API on bunny_sphere: 1 thread vs every core"),
    ("nbody", "the V-COLLIDE 2.01 scene and n-body scenes of 50-800 tori, rigid and deforming"),
    ("self_collide", "self-collision of a crumpled folded sheet of 20k-100k triangles, checked against brute force"),
    (
        "solid",
        "closest point, signed distance, containment, rays, solid collide and separation, with parry3d-f64 and trimesh",
    ),
    (
        "refit",
        "deformable models: refit vs rebuild time, queries after each, on a cloth over the bunny and a wobbling bunny",
    ),
    (
        "kdop",
        "the k-DOP model option (Model::set_kdop) vs the box model and a rebuild on the refit scenes: update, collide, self-collide, lazy distance, memory",
    ),
    (
        "motion",
        "sweeps (boxes vs directional cylinder, cull rate), disassembly directions, time of impact with FCL and parry3d-f64",
    ),
];

fn usage() -> String {
    let mut text = String::from(
        "usage: run_bench.sh [--quick | --full] [--alternations N] [--case NAME]... [--legacy-only] [--originals]\n\
         \x20                   [--batch-only] [--list] [--help]\n\
         \n\
         Without --case, runs every scene below (a full run) and writes benches/results/<machine>/report.md\n\
         with its CSVs; runs of selected scenes write into benches/results/<machine>/partial/.\n\
         The legacy scenes run ours and the originals (../shared/reference/originals, when it is there)\n\
         alternately in the same run.\n\
         \n\
         \x20 --quick        fewer repeats in the Rust-core scenes and 5 rounds instead of 9 in the legacy\n\
         \x20                tables; in the solid scene also 50,000 points and rays instead of 200,000\n\
         \x20 --full         Scenario I with the paper's 15°/60° sampling instead of 45°/120°\n\
         \x20 --alternations N  rounds of the legacy tables (default 9)\n\
         \x20 --case NAME    run only this scene (repeatable; NAME,NAME also works)\n\
         \x20 --legacy-only  only the legacy C tables (the five fixture cases, falling and random)\n\
         \x20 --originals    everything measured beside the originals: the legacy tables, calls and memory;\n\
         \x20                the report goes to benches/results/<machine>/originals/\n\
         \x20 --batch-only   only the batched C API\n\
         \x20 --list         list the scenes\n\
         \x20 --help         this text\n\
         \n\
         Scenes:\n",
    );
    for (name, about) in SCENES {
        text.push_str(&format!("  {name:<24} {about}\n"));
    }
    text
}

struct Options {
    quick: bool,
    full: bool,
    alternations: Option<usize>,
    /// The results folder of a named selection (`--originals`), else `partial` or none.
    folder: Option<&'static str>,
    /// The scenes to run, in `SCENES` order.
    scenes: Vec<&'static str>,
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let (mut quick, mut full, mut chosen) = (false, false, Vec::new());
    let (mut alternations, mut folder) = (None, None);
    let mut k = 0;
    while k < args.len() {
        match args[k].as_str() {
            "--help" | "-h" => {
                print!("{}", usage());
                std::process::exit(0);
            }
            "--list" => {
                for (name, about) in SCENES {
                    println!("{name:<24} {about}");
                }
                std::process::exit(0);
            }
            "--quick" => quick = true,
            "--full" => full = true,
            "--legacy-only" => chosen.extend(legacy::CASES.iter().chain(&legacy::GENERATED).map(|c| c.to_string())),
            "--originals" => {
                chosen.extend(legacy::CASES.iter().chain(&legacy::GENERATED).map(|c| c.to_string()));
                chosen.extend(["calls".to_string(), "memory".to_string()]);
                folder = Some("originals");
            }
            "--alternations" => {
                k += 1;
                let n = args.get(k).and_then(|n| n.parse().ok()).filter(|&n: &usize| n > 0);
                alternations = Some(n.ok_or("--alternations needs a positive number")?);
            }
            "--batch-only" => chosen.push("batch".into()),
            "--case" => {
                k += 1;
                let names = args.get(k).ok_or("--case needs a scene name")?;
                chosen.extend(names.split(',').filter(|n| !n.is_empty()).map(String::from));
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
        k += 1;
    }
    if let Some(unknown) = chosen.iter().find(|c| !SCENES.iter().any(|(name, _)| name == c)) {
        return Err(format!("unknown scene {unknown:?} (--list shows them)"));
    }
    let partial = !chosen.is_empty();
    let scenes =
        SCENES.iter().map(|(name, _)| *name).filter(|name| !partial || chosen.iter().any(|c| c == name)).collect();
    let folder = folder.or(partial.then_some("partial"));
    Ok(Options { quick, full, alternations, folder, scenes })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some(memory::CHILD_FLAG) {
        memory::child(args.get(1).expect("--memory-child MESH"));
    }
    if args.first().map(String::as_str) == Some(memory::LARGE_CHILD_FLAG) {
        memory::large_child(args.get(1).and_then(|n| n.parse().ok()).expect("--large-child N"));
    }
    let options = parse_args(&args).unwrap_or_else(|why| {
        eprintln!("rapidpqp-bench: {why}\n\n{}", usage());
        std::process::exit(2)
    });
    let results = report::root().join("benches/results").join(report::machine_name());
    let out_dir = options.folder.map_or(results.clone(), |f| results.join(f));
    let repeats = if options.quick { 3 } else { 7 };
    report::header(&format!("run_bench.sh {}", args.join(" ")));

    let mut failures: Vec<String> = Vec::new();
    let mut csvs: Vec<(String, String)> = Vec::new();
    let run = |name: &str| options.scenes.contains(&name);

    let legacy_settings = legacy::Settings {
        alternations: options.alternations.unwrap_or(if options.quick { QUICK_ALTERNATIONS } else { ALTERNATIONS }),
        min_pass_ms: MIN_PASS_MS,
    };
    let originals = harness::originals();
    let legacy_scenes = legacy::CASES.iter().chain(&legacy::GENERATED).chain(&["calls"]).any(|c| run(c));
    // Said once: in the legacy tables' preamble, or here for a memory-only run.
    if let (Err(why), false, true) = (&originals, legacy_scenes, run("memory")) {
        say!("\n{why}.");
    }
    if legacy_scenes {
        legacy::preamble(legacy_settings, &originals);
        let mut csv = String::from(legacy::CSV_HEADER);
        let (mut fixture_rows, mut generated_rows, mut infos) = (Vec::new(), Vec::new(), Vec::new());
        for case in legacy::CASES.into_iter().filter(|c| run(c)) {
            eprintln!("legacy: {case}");
            legacy::run_scene(case, legacy_settings, originals.is_ok(), &mut fixture_rows, &mut failures);
        }
        if !fixture_rows.is_empty() {
            legacy::table("Fixture cases (recorded answers)", &fixture_rows, &mut csv);
        }
        for scene in legacy::GENERATED.into_iter().filter(|c| run(c)) {
            eprintln!("legacy: {scene}");
            infos.extend(legacy::run_scene(
                scene,
                legacy_settings,
                originals.is_ok(),
                &mut generated_rows,
                &mut failures,
            ));
        }
        if !generated_rows.is_empty() {
            say!("\n### Generated scenes: falling tori, random poses");
            legacy::generated_preamble(&infos);
            legacy::table("Generated scenes (work per step)", &generated_rows, &mut csv);
        }
        let all: Vec<_> = fixture_rows.into_iter().chain(generated_rows).collect();
        legacy::summary(&all);
        if run("calls") {
            eprintln!("legacy: calls");
            let mut rows = Vec::new();
            legacy::run_scene("single", CALLS, originals.is_ok(), &mut rows, &mut failures);
            let mut calls_csv = String::from(legacy::CSV_HEADER);
            legacy::calls_table(&rows, CALLS, &mut calls_csv);
            csvs.push(("calls.csv".into(), calls_csv));
        }
        if !all.is_empty() {
            csvs.push(("legacy.csv".into(), csv));
        }
    }
    if run("memory") {
        csvs.push(("memory.csv".into(), memory::run(originals.is_ok(), &mut failures)));
    }
    if run("large") {
        csvs.push(("large.csv".into(), memory::large(&mut failures)));
    }
    let mut trajectory_csv = String::from(trajectory::CSV_HEADER);
    for scene in trajectory::SCENES.into_iter().filter(|s| run(s)) {
        trajectory::run(scene, TRAJECTORY_STEPS, PASSES, &mut trajectory_csv, &mut failures);
    }
    if trajectory::SCENES.iter().any(|s| run(s)) {
        csvs.push(("trajectory.csv".into(), trajectory_csv));
    }

    let mut bench = Bench::new(repeats);
    if run("build") {
        csvs.push(("build.csv".into(), core::build_table()));
    }
    if run("boxtests") {
        core::box_tests(&mut bench);
    }
    if run("tori4096") {
        core::tori_4096(&mut bench);
    }
    if run("spheres") {
        core::spheres(&mut bench);
    }
    if run("scenario1") {
        core::scenario1(&mut bench, options.full, &results);
    }
    if run("batch") {
        let case = fixture::Case::load("bunny_sphere");
        csvs.push(("batch.csv".into(), batch::scaling(&case.a, &case.b, &case.poses, repeats)));
    }
    if run("nbody") {
        csvs.push(("nbody.csv".into(), nbody::run(if options.quick { 3 } else { 5 }, &mut failures)));
    }
    if run("self_collide") {
        csvs.push(("self_collide.csv".into(), selfcollide::run(repeats, &mut failures)));
    }
    if run("solid") {
        csvs.extend(solid::run(options.quick, repeats));
    }
    if run("motion") {
        csvs.extend(motion::run(repeats, &mut failures));
    }
    if run("refit") {
        csvs.push(refit::run(options.quick, repeats, &mut failures));
    }
    if run("kdop") {
        csvs.push(kdop::run(options.quick, repeats, &mut failures));
    }
    if bench.has_rows() {
        bench.print_peers();
        csvs.extend(bench.csv());
    }

    if !failures.is_empty() {
        say!("\n## FAILURES\n");
        for f in &failures {
            say!("- **{f}**");
        }
    }
    report::write(&out_dir, &csvs);
    if !failures.is_empty() {
        eprintln!("\nrapidpqp-bench: {} failure(s):", failures.len());
        for f in &failures {
            eprintln!("  {f}");
        }
        std::process::exit(1);
    }
}
