//! `c_tests/world.c`: the native C API of the n-body engine (`rpq_world_*`) from a C program
//! linked with `librapidpqp.a`, plainly and under AddressSanitizer. The program checks a
//! scene of deforming and rigid objects frame by frame against `rpq_collide` on every tested
//! pair, growth-only contacts, the model copy, and every error path.

use std::process::Command;

mod common;
use common::built_library;
use common::cbuild::{header_dir, report, run, static_link, text, try_compile_asan};

fn c_compiler() -> Command {
    common::cbuild::compiler(false, "c99").include(header_dir()).get_compiler().to_command()
}

fn run_program(command: Command, what: &str) {
    let output = run(command, what);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{what} failed ({}):\n{}", output.status, report(&output));
    assert!(
        output.stderr.is_empty() && stdout.lines().count() == 1 && stdout.starts_with("world: "),
        "{what}: unexpected output:\n{}",
        report(&output)
    );
}

#[test]
fn world_c_api_matches_pairwise_collide() {
    let static_lib = built_library("librapidpqp.a");
    let exe = common::cbuild::compile(c_compiler(), "world.c", "world", &static_link(&static_lib));
    run_program(Command::new(&exe), "world");
    if let Some(exe) = try_compile_asan(c_compiler(), "world.c", "world_asan", &static_lib) {
        let mut command = Command::new(&exe);
        command.env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0");
        run_program(command, "world (AddressSanitizer)");
    }
}
