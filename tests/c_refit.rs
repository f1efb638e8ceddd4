//! `c_tests/refit.c`: the C API of deformable models from a C program linked with
//! `librapidpqp.a`, plainly and under AddressSanitizer: updates answer as fresh builds, every
//! error path leaves the model and the outputs untouched, and an update racing a query on
//! another thread gets `RPQ_ERR_BUSY` (or runs), never a wrong answer.

use std::process::Command;

mod common;
use common::built_library;
use common::cbuild::{header_dir, report, run, static_link, text, try_compile_asan};

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
