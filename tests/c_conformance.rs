//! C tests of the legacy RAPID C API, compiled with the system C compiler (via the `cc` crate)
//! against `include/rapidpqp.h` and the libraries cargo built beside this test binary.
//!
//! - `rapid_conformance_cases`: `c_tests/rapid_conformance.c`, linked with `librapidpqp.a`,
//!   over every RAPID case in `tests/data/conformance` (the folders with a `rapid_all.txt`),
//!   with the misuse checks, the exceptions of `c_tests/exceptions` and `--brute`. Set
//!   `RAPIDPQP_CASES=tori,soup` to run only the cases whose names contain one of the words.
//! - `header_declares_the_c_api_contract`: `c_tests/c_api_decls.c` repeats the declarations of
//!   C_API.md section 1 after the header; it compiles only if the header matches them.
//! - `rapid_conformance_small_cases_under_asan`: the same program built with AddressSanitizer,
//!   over the small cases (skipped where the compiler cannot build with it).
//! - `globals_reach_a_program_linked_to_the_shared_library`: `c_tests/interpose.c`, built without
//!   `-fPIC` (as a PIE and with `-no-pie`), linked with `librapidpqp.so`: the RAPID globals must be
//!   the program's copies (copy relocations, C_API.md section 1).

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::process::Command;

mod common;
use common::built_library;
use common::cbuild::{
    manifest_dir, only_named, report, run, scratch_dir, selected_cases, static_link, try_compile_asan,
};

/// The system C (`-std=c99`) or C++ (`-std=c++11`) compiler with `-Wall -Wextra -Werror`, the
/// `include` folder, and no `-fPIC`.
fn compiler(cpp: bool) -> Command {
    common::cbuild::compiler(cpp, if cpp { "c++11" } else { "c99" })
        .include(manifest_dir().join("include"))
        .get_compiler()
        .to_command()
}

/// Compiles `c_tests/<source>` as C99 with the extra arguments (flags, libraries) into `exe`.
fn compile(source: &str, exe: &str, args: &[&OsStr]) -> PathBuf {
    common::cbuild::compile(compiler(false), source, exe, args)
}

/// The RAPID cases: conformance folders with a `rapid_all.txt`, filtered by `RAPIDPQP_CASES`.
fn rapid_cases() -> Vec<PathBuf> {
    selected_cases("rapid_all.txt")
}

#[test]
fn rapid_conformance_cases() {
    let static_lib = built_library("librapidpqp.a");
    let exe = compile("rapid_conformance.c", "rapid_conformance", &static_link(&static_lib));

    let cases = rapid_cases();
    assert!(!cases.is_empty(), "no RAPID case selected in tests/data/conformance");
    let mut command = Command::new(&exe);
    command.arg("--brute").arg("--exceptions").arg(manifest_dir().join("c_tests/exceptions")).args(&cases);
    let output = run(command, "rapid_conformance");
    let report = report(&output);
    let report_path = scratch_dir("c_tests").join("rapid_conformance.txt");
    std::fs::write(&report_path, &report).expect("write the report");
    println!("{report}\n(report saved in {})", report_path.display());
    assert!(
        output.status.success(),
        "rapid_conformance failed ({}): see its report above or in {}",
        output.status,
        report_path.display()
    );
}

/// The header declares the legacy RAPID names with exactly the types of C_API.md section 1:
/// `c_tests/c_api_decls.c` repeats the contract's declarations after including the header and
/// must compile as pedantic C99 and as C++.
#[test]
fn header_declares_the_c_api_contract() {
    let source = manifest_dir().join("c_tests/c_api_decls.c");
    for cpp in [false, true] {
        let mut command = compiler(cpp);
        command.args(["-pedantic", "-fsyntax-only", "-x", if cpp { "c++" } else { "c" }]).arg(&source);
        let output = run(command, "the compiler");
        assert!(
            output.status.success(),
            "include/rapidpqp.h does not declare C_API.md's RAPID names as written ({}):\n{}",
            if cpp { "C++" } else { "C" },
            report(&output)
        );
    }
}

/// The small cases again with the C program built under AddressSanitizer: C reading past the
/// contact array the library owns, or using it after the library freed it, is caught here.
/// Skipped (with a note) where the compiler cannot build with `-fsanitize=address`.
#[test]
fn rapid_conformance_small_cases_under_asan() {
    let static_lib = built_library("librapidpqp.a");
    let Some(exe) = try_compile_asan(compiler(false), "rapid_conformance.c", "rapid_conformance_asan", &static_lib)
    else {
        return;
    };
    let cases = only_named(rapid_cases(), &["single", "degenerate", "soup"]);
    let mut command = Command::new(&exe);
    command
        .env("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=0")
        .arg("--exceptions")
        .arg(manifest_dir().join("c_tests/exceptions"))
        .args(&cases);
    let output = run(command, "rapid_conformance (AddressSanitizer)");
    println!("{}", report(&output));
    assert!(output.status.success(), "rapid_conformance under AddressSanitizer failed ({})", output.status);
}

#[test]
fn globals_reach_a_program_linked_to_the_shared_library() {
    let shared_lib = built_library("librapidpqp.so");
    let lib_dir = shared_lib.parent().expect("library folder");
    let mut search = OsString::from("-L");
    search.push(lib_dir);
    let shared: [&OsStr; 2] = [&search, "-l:librapidpqp.so".as_ref()];

    // The compiler's default (a PIE on most distributions), then a position-dependent one.
    let pie = compile("interpose.c", "interpose_pie", &shared);
    let no_pie =
        compile("interpose.c", "interpose_no_pie", &["-fno-pie".as_ref(), "-no-pie".as_ref(), shared[0], shared[1]]);
    for exe in [pie, no_pie] {
        let mut command = Command::new(&exe);
        command.env("LD_LIBRARY_PATH", lib_dir);
        let output = run(command, "interpose");
        let report = report(&output);
        println!("{}: {report}", exe.display());
        assert!(output.status.success(), "{} failed ({}):\n{report}", exe.display(), output.status);
    }
}
