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
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::built_library;

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Where the C programs are written (`target/tmp/c_tests`).
fn scratch_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("c_tests");
    std::fs::create_dir_all(&dir).expect("create target/tmp/c_tests");
    dir
}

/// The system C compiler with `-std=c99 -Wall -Wextra -Werror`, without `-fPIC`.
fn c_compiler() -> Command {
    compiler(false)
}

/// The system C (`-std=c99`) or C++ (`-std=c++11`) compiler with `-Wall -Wextra -Werror`, the
/// `include` folder, and no `-fPIC`.
fn compiler(cpp: bool) -> Command {
    let mut build = cc::Build::new();
    build
        .target(env!("RAPIDPQP_BUILD_TARGET"))
        .host(env!("RAPIDPQP_BUILD_HOST"))
        .opt_level(2)
        .debug(false)
        .pic(false)
        .cargo_metadata(false)
        .cpp(cpp)
        .std(if cpp { "c++11" } else { "c99" })
        .warnings(true)
        .extra_warnings(true)
        .warnings_into_errors(true)
        .include(manifest_dir().join("include"));
    build.get_compiler().to_command()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn run(mut command: Command, what: &str) -> Output {
    command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what} ({command:?}): {e}"))
}

/// Compiles `c_tests/<source>` with the extra arguments (flags, libraries) into `exe`; the
/// compiler's messages on failure.
fn try_compile(source: &str, exe: &str, args: &[&OsStr]) -> Result<PathBuf, String> {
    let out = scratch_dir().join(exe);
    let mut command = c_compiler();
    command
        .arg(manifest_dir().join("c_tests").join(source))
        .args(args)
        .arg("-o")
        .arg(&out);
    let output = run(command, "the C compiler");
    if output.status.success() {
        Ok(out)
    } else {
        Err(format!("{}{}", text(&output.stdout), text(&output.stderr)))
    }
}

fn compile(source: &str, exe: &str, args: &[&OsStr]) -> PathBuf {
    try_compile(source, exe, args)
        .unwrap_or_else(|e| panic!("compiling c_tests/{source} failed:\n{e}"))
}

/// `librapidpqp.a` and the system libraries it needs.
fn static_link(static_lib: &Path) -> [&OsStr; 4] {
    [
        static_lib.as_os_str(),
        "-lm".as_ref(),
        "-lpthread".as_ref(),
        "-ldl".as_ref(),
    ]
}

/// The RAPID cases: conformance folders with a `rapid_all.txt`, filtered by `RAPIDPQP_CASES`.
fn rapid_cases() -> Vec<PathBuf> {
    let root = manifest_dir().join("tests/data/conformance");
    let filter = std::env::var("RAPIDPQP_CASES").unwrap_or_default();
    let words: Vec<&str> = filter
        .split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .collect();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", root.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|dir| dir.join("rapid_all.txt").is_file())
        .filter(|dir| {
            let name = dir.file_name().unwrap_or_default().to_string_lossy();
            words.is_empty() || words.iter().any(|w| name.contains(w))
        })
        .collect();
    cases.sort();
    cases
}

#[test]
fn rapid_conformance_cases() {
    let static_lib = built_library("librapidpqp.a");
    let exe = compile(
        "rapid_conformance.c",
        "rapid_conformance",
        &static_link(&static_lib),
    );

    let cases = rapid_cases();
    assert!(
        !cases.is_empty(),
        "no RAPID case selected in tests/data/conformance"
    );
    let mut command = Command::new(&exe);
    command
        .arg("--brute")
        .arg("--exceptions")
        .arg(manifest_dir().join("c_tests/exceptions"))
        .args(&cases);
    let output = run(command, "rapid_conformance");
    let report = format!("{}{}", text(&output.stdout), text(&output.stderr));
    let report_path = scratch_dir().join("rapid_conformance.txt");
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
        command
            .args([
                "-pedantic",
                "-fsyntax-only",
                "-x",
                if cpp { "c++" } else { "c" },
            ])
            .arg(&source);
        let output = run(command, "the compiler");
        assert!(
            output.status.success(),
            "include/rapidpqp.h does not declare C_API.md's RAPID names as written ({}):\n{}{}",
            if cpp { "C++" } else { "C" },
            text(&output.stdout),
            text(&output.stderr)
        );
    }
}

/// The small cases again with the C program built under AddressSanitizer: C reading past the
/// contact array the library owns, or using it after the library freed it, is caught here.
/// Skipped (with a note) where the compiler cannot build with `-fsanitize=address`.
#[test]
fn rapid_conformance_small_cases_under_asan() {
    let static_lib = built_library("librapidpqp.a");
    let asan: [&OsStr; 3] = [
        "-fsanitize=address".as_ref(),
        "-fno-omit-frame-pointer".as_ref(),
        "-g".as_ref(),
    ];
    let args: Vec<&OsStr> = asan.into_iter().chain(static_link(&static_lib)).collect();
    let exe = match try_compile("rapid_conformance.c", "rapid_conformance_asan", &args) {
        Ok(exe) => exe,
        Err(why) => {
            println!("AddressSanitizer build not available, skipped:\n{why}");
            return;
        }
    };
    let small = ["single", "degenerate", "soup"];
    let cases: Vec<PathBuf> = rapid_cases()
        .into_iter()
        .filter(|dir| small.iter().any(|name| dir.ends_with(name)))
        .collect();
    let mut command = Command::new(&exe);
    command
        .env("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=0")
        .arg("--exceptions")
        .arg(manifest_dir().join("c_tests/exceptions"))
        .args(&cases);
    let output = run(command, "rapid_conformance (AddressSanitizer)");
    let report = format!("{}{}", text(&output.stdout), text(&output.stderr));
    println!("{report}");
    assert!(
        output.status.success(),
        "rapid_conformance under AddressSanitizer failed ({})",
        output.status
    );
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
    let no_pie = compile(
        "interpose.c",
        "interpose_no_pie",
        &[
            "-fno-pie".as_ref(),
            "-no-pie".as_ref(),
            shared[0],
            shared[1],
        ],
    );
    for exe in [pie, no_pie] {
        let mut command = Command::new(&exe);
        command.env("LD_LIBRARY_PATH", lib_dir);
        let output = run(command, "interpose");
        let report = format!("{}{}", text(&output.stdout), text(&output.stderr));
        println!("{}: {report}", exe.display());
        assert!(
            output.status.success(),
            "{} failed ({}):\n{report}",
            exe.display(),
            output.status
        );
    }
}
