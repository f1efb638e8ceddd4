//! `c_tests/scale.c`: scale invariance from a C program linked with `librapidpqp.a` (a sample
//! of `tests/c_scale_invariance.rs`): sweeps, time of impact, separation, containment, closest
//! points, ray casts, segment hits, collide and distance on scenes of small integers times
//! `2^k`, from `2^-1064` to `2^990`, answer as unscaled (times `2^k` for lengths).

use std::process::Command;

mod common;
use common::built_library;
use common::cbuild::{header_dir, report, run, static_link, text};

#[test]
fn scale_sample_from_c() {
    let static_lib = built_library("librapidpqp.a");
    let compiler = common::cbuild::compiler(false, "c99").include(header_dir()).get_compiler().to_command();
    let exe = common::cbuild::compile(compiler, "scale.c", "scale", &static_link(&static_lib));
    let output = run(Command::new(&exe), "scale");
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "scale failed ({}):\n{}", output.status, report(&output));
    assert!(
        output.stderr.is_empty() && stdout.lines().count() == 1 && stdout.starts_with("scale: "),
        "unexpected output:\n{}",
        report(&output)
    );
}
