//! `c_tests/refit.c`: the C API of deformable models from a C program linked with
//! `librapidpqp.a`, plainly and under AddressSanitizer: updates answer as fresh builds, every
//! error path leaves the model and the outputs untouched, and an update racing a query on
//! another thread gets `RPQ_ERR_BUSY` (or runs), never a wrong answer.

use std::process::Command;

mod common;
use common::built_library;
use common::cbuild::{header_dir, manifest_dir, report, run, scratch_dir, static_link, text, try_compile_asan};

fn c_compiler() -> Command {
    common::cbuild::compiler(false, "c99").include(header_dir()).get_compiler().to_command()
}

fn run_refit(command: Command, what: &str) {
    let output = run(command, what);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{what} failed ({}):\n{}", output.status, report(&output));
    assert!(
        output.stderr.is_empty() && stdout.lines().count() == 1 && stdout.starts_with("refit: "),
        "{what}: unexpected output:\n{}",
        report(&output)
    );
}

#[test]
fn refit_c_api() {
    let static_lib = built_library("librapidpqp.a");
    let mut args: Vec<&std::ffi::OsStr> = static_link(&static_lib).to_vec();
    args.push(std::ffi::OsStr::new("-pthread"));
    let exe = common::cbuild::compile(c_compiler(), "refit.c", "refit", &args);
    run_refit(Command::new(&exe), "refit");
    if let Some(exe) = try_compile_asan(c_compiler(), "refit.c", "refit_asan", &static_lib) {
        let mut command = Command::new(&exe);
        command.env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0");
        run_refit(command, "refit (AddressSanitizer)");
    }
}

/// The deformable-model C program of docs/queries.md compiles as C99, runs, and prints what it
/// says.
#[test]
fn readme_refit_snippet_runs() {
    let readme = std::fs::read_to_string(manifest_dir().join("docs/queries.md")).expect("docs/queries.md");
    let section = &readme[readme.find("## Deformable models").expect("the section")..];
    let start = section.find("```c\n").expect("a C block") + 5;
    let code = &section[start..start + section[start..].find("```").expect("the block's end")];
    let dir = scratch_dir("c_tests");
    let source = dir.join("readme_refit.c");
    std::fs::write(&source, code).expect("write the snippet");
    let exe = dir.join("readme_refit");
    let mut compiler = c_compiler();
    compiler.arg(&source).args(static_link(&built_library("librapidpqp.a"))).arg("-o").arg(&exe);
    let output = run(compiler, "the C compiler");
    assert!(output.status.success(), "the README snippet does not compile:\n{}", report(&output));
    let output = run(Command::new(&exe), "the README snippet");
    assert!(output.status.success(), "the README snippet failed:\n{}", report(&output));
    assert_eq!(text(&output.stdout).trim(), "frame 1: apart\nframe 2: contact\nframe 3: apart\ndegradation 1.0");
}
