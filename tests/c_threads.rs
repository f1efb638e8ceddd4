//! `c_tests/threads.c`: the native API, batches, the handle registry, serialization,
//! V-COLLIDE engines, contact geometry and self-collision used from many C threads at once,
//! and a deformable model updated by two threads while others query it and copy it into
//! worlds (each call `RPQ_OK` with a single-threaded answer, or `RPQ_ERR_BUSY`), linked with
//! `librapidpqp.a`; nothing may be printed on stderr. `RAPIDPQP_C_SANITIZE=address,undefined`
//! builds it with ASan and UBSan.
//! `scripts/sanitizers.sh` runs the same program under ThreadSanitizer, helgrind and DRD.

use std::ffi::OsStr;
use std::process::Command;

mod common;
use common::built_library;
use common::cbuild::{header_dir, report, run, static_link, text};

#[test]
fn native_api_from_many_threads() {
    let static_lib = built_library("librapidpqp.a");
    let compiler = common::cbuild::compiler(false, "c99").include(header_dir()).get_compiler().to_command();
    let mut args: Vec<&OsStr> = static_link(&static_lib).to_vec();
    args.push(OsStr::new("-pthread"));
    let exe = common::cbuild::compile(compiler, "threads.c", "threads", &args);
    let output = run(Command::new(&exe), "threads");
    assert!(output.status.success(), "threads failed ({}):\n{}", output.status, report(&output));
    assert!(output.stderr.is_empty(), "threads: output on stderr:\n{}", report(&output));
    assert!(text(&output.stdout).starts_with("threads: "), "{}", report(&output));
}
