//! Misuse from C, each program linked with `librapidpqp.a` (and `librapidpqp.so`) and run under
//! AddressSanitizer too:
//!
//! - `c_tests/handles.c`: freed, wrong-kind, foreign and wild pointers through the native
//!   (solid and motion queries included), legacy PQP, RAPID and V-COLLIDE entry points each get
//!   their layer's error and change nothing (nothing may be read through a bad pointer), and
//!   the library prints nothing.
//! - `c_tests/robustness.c`: queue sizes capped by the work, rotation checks (native setting,
//!   legacy policy), the scale range, NaN in an unused vertex.

use std::ffi::OsStr;
use std::process::Command;

mod common;
use common::built_library;
use common::cbuild::{header_dir, report, run, static_link, text, try_compile_asan};

fn c_compiler() -> Command {
    common::cbuild::compiler(false, "c99").include(header_dir()).get_compiler().to_command()
}

/// Runs the program and checks it passed and printed only its summary line.
fn check(command: Command, what: &str) {
    let output = run(command, what);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{what} failed ({}):\n{}", output.status, report(&output));
    assert!(
        output.stderr.is_empty() && stdout.lines().count() == 1 && stdout.starts_with("handles: "),
        "{what}: the library printed something:\n{}",
        report(&output)
    );
}

#[test]
fn misused_handles_are_refused_silently() {
    let static_lib = built_library("librapidpqp.a");
    let exe = common::cbuild::compile(c_compiler(), "handles.c", "handles", &static_link(&static_lib));
    check(Command::new(&exe), "handles (static)");

    let shared = built_library("librapidpqp.so");
    let dir = shared.parent().expect("library folder");
    let rpath = format!("-Wl,-rpath,{}", dir.display());
    let args: Vec<&OsStr> =
        vec![OsStr::new("-L"), dir.as_os_str(), OsStr::new("-lrapidpqp"), OsStr::new(&rpath), OsStr::new("-lm")];
    let exe = common::cbuild::compile(c_compiler(), "handles.c", "handles_shared", &args);
    check(Command::new(&exe), "handles (shared)");
}

#[test]
fn limits_at_the_boundary() {
    let static_lib = built_library("librapidpqp.a");
    let exe = common::cbuild::compile(c_compiler(), "robustness.c", "robustness", &static_link(&static_lib));
    let output = run(Command::new(&exe), "robustness");
    assert!(output.status.success(), "robustness failed ({}):\n{}", output.status, report(&output));
    assert!(output.stderr.is_empty(), "robustness: output on stderr:\n{}", report(&output));
    if let Some(exe) = try_compile_asan(c_compiler(), "robustness.c", "robustness_asan", &static_lib) {
        let mut command = Command::new(&exe);
        command.env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0");
        let output = run(command, "robustness (AddressSanitizer)");
        assert!(output.status.success(), "robustness under ASan failed:\n{}", report(&output));
    }
}

#[test]
fn misused_handles_under_address_sanitizer() {
    let static_lib = built_library("librapidpqp.a");
    let Some(exe) = try_compile_asan(c_compiler(), "handles.c", "handles_asan", &static_lib) else {
        return;
    };
    let mut command = Command::new(&exe);
    command.env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0");
    check(command, "handles (AddressSanitizer)");
}
