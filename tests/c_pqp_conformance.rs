//! C tests of the legacy PQP C API, compiled with the system C compiler (via the `cc` crate)
//! against the header this build generated (`$OUT_DIR/rapidpqp.h`, which `tests/header.rs`
//! keeps equal to the committed `include/rapidpqp.h`) and linked with `librapidpqp.a`.
//!
//! - `pqp_conformance_cases`: `c_tests/pqp_conformance.c` over every case of
//!   `tests/data/conformance` that has PQP files (a `pqp_collide_all.txt`): all-contacts,
//!   first-contact, distance and tolerance queries against the answers recorded from PQP 1.3
//!   (rules in FORMAT.md there; `degenerate` judged against brute force), then the misuse and
//!   layout checks. The cases run as separate processes, as many at a time as there are cores
//!   (the `spheres_eps*` distance queries dominate). Set `RAPIDPQP_CASES=tori,soup` to run only
//!   the cases whose names contain one of the words. The table is printed and written to
//!   `target/tmp/c_tests/pqp_conformance.txt`.
//! - `pqp_conformance_small_cases_under_asan`: the same program built with AddressSanitizer,
//!   over the small cases and the misuse checks (the pair array the library grows and frees is
//!   the C program's to read). Skipped where the compiler cannot build with it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;
use std::time::Instant;

mod common;
use common::built_library;
use common::cbuild::{
    header_dir, only_named, report, run, scratch_dir, selected_cases, static_link, text, try_compile_asan,
};

/// The system C compiler: `-std=c99 -Wall -Wextra -Werror -O2`, no `-fPIC`, and the header this
/// build generated.
fn c_compiler() -> Command {
    common::cbuild::compiler(false, "c99").include(header_dir()).get_compiler().to_command()
}

/// The PQP cases: conformance folders with a `pqp_collide_all.txt`, filtered by
/// `RAPIDPQP_CASES`, in name order.
fn pqp_cases() -> Vec<PathBuf> {
    selected_cases("pqp_collide_all.txt")
}

/// A rough cost of a case, to start the heavy ones first: the size of its meshes.
fn cost(case: &Path) -> u64 {
    ["a.obj", "b.obj"].iter().map(|f| std::fs::metadata(case.join(f)).map_or(0, |m| m.len())).sum()
}

struct CaseRun {
    output: Output,
    seconds: f64,
}

/// Runs `exe` once per case (with `args` before the case folder), `workers` at a time; the
/// results in the order of `cases`.
fn run_cases(exe: &Path, args: &[&str], cases: &[PathBuf], workers: usize) -> Vec<CaseRun> {
    let mut order: Vec<usize> = (0..cases.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(cost(&cases[i])));
    let queue = Mutex::new(order.into_iter());
    let results: Mutex<Vec<Option<CaseRun>>> = Mutex::new((0..cases.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1) {
            scope.spawn(|| {
                loop {
                    let Some(i) = queue.lock().expect("queue").next() else {
                        break;
                    };
                    let start = Instant::now();
                    let mut command = Command::new(exe);
                    command.args(args).arg(&cases[i]);
                    let output = run(command, "pqp_conformance");
                    let seconds = start.elapsed().as_secs_f64();
                    results.lock().expect("results")[i] = Some(CaseRun { output, seconds });
                }
            });
        }
    });
    results.into_inner().expect("results").into_iter().map(|r| r.expect("every case ran")).collect()
}

#[test]
fn pqp_conformance_cases() {
    let started = Instant::now();
    let static_lib = built_library("librapidpqp.a");
    let exe = common::cbuild::compile(c_compiler(), "pqp_conformance.c", "pqp_conformance", &static_link(&static_lib));
    let cases = pqp_cases();
    assert!(!cases.is_empty(), "no PQP case selected in tests/data/conformance");

    let misuse = run(Command::new(&exe), "pqp_conformance (misuse checks)");
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).min(cases.len());
    let queries_started = Instant::now();
    let runs = run_cases(&exe, &["--no-misuse", "--no-header"], &cases, workers);
    let queries_seconds = queries_started.elapsed().as_secs_f64();

    let misuse_lines: Vec<String> = text(&misuse.stdout)
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.contains(" case(s), "))
        .map(str::to_owned)
        .collect();
    let mut table = format!(
        "{}\n\n{:<14} {:<6} {:<13}   {:>25}   {:>21}  {:>9}\n",
        misuse_lines.join("\n"),
        "case",
        "query",
        "agree / poses",
        "mean bv tests ours PQP",
        "mean tri tests ours PQP",
        "ms"
    );
    let mut details = text(&misuse.stderr);
    let mut failed: Vec<String> = Vec::new();
    if !misuse.status.success() {
        failed.push(format!("misuse checks ({})", misuse.status));
    }
    for (case, r) in cases.iter().zip(&runs) {
        let name = case.file_name().unwrap_or_default().to_string_lossy();
        for line in text(&r.output.stdout).lines() {
            if !line.trim().is_empty() && !line.contains(" case(s), ") {
                table.push_str(line);
                table.push('\n');
            }
        }
        details.push_str(&text(&r.output.stderr));
        if !r.output.status.success() {
            failed.push(format!("{name} ({})", r.output.status));
        }
    }
    table.push_str("\nwall time per case process (s):");
    for (case, r) in cases.iter().zip(&runs) {
        let name = case.file_name().unwrap_or_default().to_string_lossy();
        table.push_str(&format!(" {name} {:.1};", r.seconds));
    }
    table.push_str(&format!(
        "\n{} case(s) on {workers} worker(s) in {queries_seconds:.1} s; test total {:.1} s (library build and C compile included)\n",
        cases.len(),
        started.elapsed().as_secs_f64()
    ));
    let report = if details.is_empty() { table } else { format!("{table}\ndetails:\n{details}") };
    let report_path = scratch_dir("c_tests").join("pqp_conformance.txt");
    std::fs::write(&report_path, &report).expect("write the report");
    println!("{report}\n(report saved in {})", report_path.display());
    assert!(
        failed.is_empty(),
        "pqp_conformance failed: {}; see the report above or in {}",
        failed.join(", "),
        report_path.display()
    );
}

/// The small cases and the misuse checks again with the C program built under
/// AddressSanitizer. Skipped (with a note) where the compiler cannot build with it.
#[test]
fn pqp_conformance_small_cases_under_asan() {
    let static_lib = built_library("librapidpqp.a");
    let Some(exe) = try_compile_asan(c_compiler(), "pqp_conformance.c", "pqp_conformance_asan", &static_lib) else {
        return;
    };
    let cases = only_named(pqp_cases(), &["single", "degenerate"]);
    let mut command = Command::new(&exe);
    command.env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0").args(&cases);
    let output = run(command, "pqp_conformance (AddressSanitizer)");
    println!("{}", report(&output));
    assert!(output.status.success(), "pqp_conformance under AddressSanitizer failed ({})", output.status);
}
