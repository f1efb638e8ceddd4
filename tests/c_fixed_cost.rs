//! `c_tests/fixed_cost.c`, the driver that measures the fixed cost of one call through each
//! legacy and native entry point (profile it with callgrind, see its header), kept building and
//! answering: one round over the `single` case, every call must succeed.

use std::process::Command;

mod common;
use common::built_library;
use common::cbuild::{header_dir, report, run, static_link};

#[test]
fn fixed_cost_driver_runs() {
    let static_lib = built_library("librapidpqp.a");
    let compiler = common::cbuild::compiler(false, "c99").include(header_dir()).get_compiler().to_command();
    let exe = common::cbuild::compile(compiler, "fixed_cost.c", "fixed_cost", &static_link(&static_lib));
    let mut command = Command::new(&exe);
    command.arg(common::conformance_dir().join("single")).arg("1");
    let output = run(command, "fixed_cost");
    assert!(output.status.success(), "fixed_cost failed ({}):\n{}", output.status, report(&output));
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 7, "{}", report(&output));
}
