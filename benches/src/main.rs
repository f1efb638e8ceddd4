//! rapidpqp benchmark. The first tables are the ones a program relinked from RAPID or PQP
//! sees: the legacy C entry points called by an outside C program (`benches/legacy/`) on the
//! fixture cases, beside the Rust core, the originals' figures (ORIGINALS.md) and FCL; memory
//! per triangle through every API; trajectory scenes through the legacy and native C APIs.
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
mod originals;
mod peers;
mod refit;
mod selfcollide;
mod shapes;
mod solid;
mod timing;
mod trajectory;

use crate::core::Bench;

/// Passes over all poses per figure in the legacy and trajectory tables, as ORIGINALS.md.
const PASSES: usize = 5;
/// Steps of a trajectory scene.
const TRAJECTORY_STEPS: usize = 1000;

/// The scenes, in the order a full run takes them: name and what it measures.
const SCENES: [(&str, &str); 21] = [
    ("tori", "legacy C entry points, Rust core, originals and FCL on the tori fixture case"),
    ("soup", "the same on the soup fixture case"),
    ("bunny_sphere", "the same on the bunny_sphere fixture case"),
    ("separated", "the same on the separated fixture case"),
    ("single", "the same on the single fixture case (one triangle each: a call's fixed cost)"),
    ("memory", "bytes per triangle of one model build through the RAPID, PQP, native C and Rust APIs, every mesh"),
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
        "usage: run_bench.sh [--quick | --full] [--case NAME]... [--legacy-only] [--batch-only] [--list] [--help]\n\
         \n\
         Without --case, runs every scene below (a full run) and writes benches/results/<machine>/report.md\n\
         with its CSVs; runs of selected scenes write into benches/results/<machine>/partial/.\n\
         \n\
         \x20 --quick        fewer repeats in the Rust-core scenes (the legacy and trajectory tables always take\n\
         \x20                the median of 5 passes, as ORIGINALS.md); in the solid scene also 50,000 points\n\
         \x20                and rays instead of 200,000\n\
         \x20 --full         Scenario I with the paper's 15°/60° sampling instead of 45°/120°\n\
         \x20 --case NAME    run only this scene (repeatable; NAME,NAME also works)\n\
         \x20 --legacy-only  only the legacy C table (the five fixture cases)\n\
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
    /// The scenes to run, in `SCENES` order.
    scenes: Vec<&'static str>,
    /// Not every scene: results go to `partial/`.
    partial: bool,
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let (mut quick, mut full, mut chosen) = (false, false, Vec::new());
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
            "--legacy-only" => chosen.extend(legacy::CASES.map(String::from)),
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
    Ok(Options { quick, full, scenes, partial })
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
    let out_dir = if options.partial { results.join("partial") } else { results.clone() };
    let repeats = if options.quick { 3 } else { 7 };
    report::header(&format!("run_bench.sh {}", args.join(" ")));

    let mut failures: Vec<String> = Vec::new();
    let mut csvs: Vec<(String, String)> = Vec::new();
    let run = |name: &str| options.scenes.contains(&name);

    let mut legacy_rows = Vec::new();
    for case in legacy::CASES.into_iter().filter(|c| run(c)) {
        eprintln!("legacy: {case}");
        legacy::run_case(case, PASSES, &mut legacy_rows, &mut failures);
    }
    if !legacy_rows.is_empty() {
        csvs.push(("legacy.csv".into(), legacy::table(&legacy_rows, PASSES)));
    }
    if run("memory") {
        csvs.push(("memory.csv".into(), memory::run(&mut failures)));
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
