//! The C headers from a C program's side (the headers' text is checked by `tests/header.rs`):
//!
//! - `native_header_leaves_names_free_and_reports_its_version`: `c_tests/own_names.c`, which
//!   defines `ContactPair`, `CollisionPair`, `collision_pair`, `FORMAT_VERSION`, `MAX_QUEUE` and
//!   `VCReportType` itself after including `rapidpqp_native.h`, compiles as C99 and C++11, and
//!   run (linked with `librapidpqp.a`) finds `RPQ_VERSION_*` equal to `rpq_version()`.
//! - `all_apis_header_leaves_unprefixed_names_free`: the same program with `rapidpqp.h` (all four
//!   APIs), defining the names that no original declared, compiles as C99 and C++11.
//! - `every_header_stands_alone`: each header, included first (and twice), compiles as C99 and
//!   C++11.
//! - `native_header_goes_with_the_legacy_cxx_headers`: a C++ file including `RAPID.H`, `PQP.h`,
//!   `VCollide.H` and `rapidpqp_native.h` compiles.
//! - `programs_linked_as_the_header_says_run`: a program built with each link line of the
//!   header's comment (`cc prog.c -Iinclude target/release/librapidpqp.a ...`, and
//!   `-Ltarget/release -lrapidpqp -Wl,-rpath,...`), run as `sh` runs them from the checkout,
//!   starts and runs; so does one linked with the shared library and run with
//!   `LD_LIBRARY_PATH`. Nothing but `cargo build` makes the files they need (the loader asks
//!   for the SONAME, `librapidpqp.so.0.1`, which the build links beside `librapidpqp.so`).
//!
//! The C programs of the documentation are built and run by `tests/doc_blocks.rs`.

use std::path::Path;
use std::process::Command;

mod common;
use common::built_library;
use common::cbuild::{header_dir, manifest_dir, report, run, scratch_dir, static_link, text};
use common::profile_dir;

/// The system C (`-std=c99`) or C++ (`-std=c++11`) compiler with `-Wall -Wextra -Werror`, the
/// headers of this build and `c_tests` (for `ensure.h`) on the include path.
fn compiler(cpp: bool) -> Command {
    common::cbuild::compiler(cpp, if cpp { "c++11" } else { "c99" })
        .include(header_dir())
        .include(manifest_dir().join("include"))
        .include(manifest_dir().join("c_tests"))
        .get_compiler()
        .to_command()
}

/// Checks that `source` compiles as C99 and as C++11 (`-pedantic -fsyntax-only`) with `defines`.
fn syntax_check(source: &Path, defines: &[&str]) {
    for cpp in [false, true] {
        let mut command = compiler(cpp);
        command.args(["-pedantic", "-fsyntax-only", "-x", if cpp { "c++" } else { "c" }]).args(defines).arg(source);
        let output = run(command, "the compiler");
        assert!(
            output.status.success(),
            "{} {defines:?} does not compile as {}:\n{}",
            source.display(),
            if cpp { "C++" } else { "C" },
            report(&output)
        );
    }
}

#[test]
fn native_header_leaves_names_free_and_reports_its_version() {
    let source = manifest_dir().join("c_tests/own_names.c");
    syntax_check(&source, &[]);
    let static_lib = built_library("librapidpqp.a");
    let exe = common::cbuild::compile(compiler(false), "own_names.c", "own_names", &static_link(&static_lib));
    let output = run(Command::new(&exe), "own_names");
    assert!(output.status.success(), "own_names failed ({}):\n{}", output.status, report(&output));
    assert!(text(&output.stdout).contains(" 0 failed"), "{}", report(&output));
}

#[test]
fn all_apis_header_leaves_unprefixed_names_free() {
    syntax_check(&manifest_dir().join("c_tests/own_names.c"), &["-DOWN_NAMES_ALL_APIS"]);
}

/// Each header compiles on its own, first in a file (it includes what it needs).
#[test]
fn every_header_stands_alone() {
    for header in ["rapidpqp.h", "rapidpqp_native.h", "rapidpqp_rapid.h", "rapidpqp_pqp.h", "rapidpqp_vcollide.h"] {
        let source = scratch_dir("c_header").join(format!("alone_{}.c", header.trim_end_matches(".h")));
        std::fs::write(
            &source,
            format!("#include \"{header}\"\n#include \"{header}\"\nint main(void) {{ return 0; }}\n"),
        )
        .expect("write the program");
        syntax_check(&source, &[]);
    }
}

#[test]
fn native_header_goes_with_the_legacy_cxx_headers() {
    let source = scratch_dir("c_header").join("cxx_and_native.cpp");
    std::fs::write(
        &source,
        "#include \"RAPID.H\"\n#include \"PQP.h\"\n#include \"VCollide.H\"\n#include \"rapidpqp_native.h\"\n\
         int main() { return rpq_version() == RPQ_VERSION_NUMBER && RAPID_OK == 0 ? 0 : 1; }\n",
    )
    .expect("write the C++ file");
    let mut command = compiler(true);
    command.args(["-fsyntax-only", "-x", "c++"]).arg(&source);
    let output = run(command, "the C++ compiler");
    assert!(output.status.success(), "RAPID.H, PQP.h, VCollide.H and rapidpqp_native.h clash:\n{}", report(&output));
}

/// The link lines of `include/rapidpqp.h`'s comment (`Link: ...` and the `or: ...` after it).
fn header_link_lines() -> Vec<String> {
    let header = std::fs::read_to_string(manifest_dir().join("include/rapidpqp.h")).expect("include/rapidpqp.h");
    let lines: Vec<String> = header
        .lines()
        .map(|l| l.trim_start_matches([' ', '*']).trim())
        .filter_map(|l| l.strip_prefix("Link:").or_else(|| l.strip_prefix("or:")))
        .map(|l| l.trim().to_owned())
        .collect();
    assert_eq!(lines.len(), 2, "include/rapidpqp.h: expected a static and a shared link line, found {lines:?}");
    lines
}

#[test]
fn programs_linked_as_the_header_says_run() {
    // The libraries come from the build (cargo build --package rapidpqp-capi), as a user's
    // `cargo build --release` leaves them; the test adds no file of its own beside them.
    built_library("librapidpqp.a");
    built_library("librapidpqp.so");
    let dir = scratch_dir("c_header_link");
    let source = dir.join("prog.c");
    std::fs::write(
        &source,
        "#include <stdio.h>\n#include \"rapidpqp.h\"\n\
         int main(void) {\n    printf(\"rapidpqp %s\\n\", rpq_version_string());\n\
         return rpq_version() == RPQ_VERSION_NUMBER ? 0 : 1;\n}\n",
    )
    .expect("write prog.c");
    // The lines name `target/release` and `$PWD` (the checkout): this build's folder instead
    // when the tests run from another profile or target folder.
    let profile = profile_dir();
    let root = manifest_dir();
    let expected = format!("rapidpqp {}\n", env!("CARGO_PKG_VERSION"));
    for (k, line) in header_link_lines().iter().enumerate() {
        let line = line
            .replace("$PWD/target/release", &profile.to_string_lossy())
            .replace("target/release", &profile.to_string_lossy())
            .replace("prog.c", &source.to_string_lossy());
        let exe = dir.join(format!("prog_{k}"));
        let mut sh = Command::new("sh");
        sh.current_dir(&root).arg("-c").arg(format!("{line} -o '{}'", exe.display()));
        let output = run(sh, "sh");
        assert!(output.status.success(), "`{line}` failed:\n{}", report(&output));
        let ran = run(Command::new(&exe), "the program");
        assert!(ran.status.success(), "built with `{line}`, the program did not run:\n{}", report(&ran));
        assert_eq!(text(&ran.stdout), expected, "built with `{line}`");
    }
    // The shared library without an rpath: found through LD_LIBRARY_PATH.
    let exe = dir.join("prog_ld_library_path");
    let mut sh = Command::new("sh");
    sh.current_dir(&root).arg("-c").arg(format!(
        "cc '{}' -Iinclude -L'{}' -lrapidpqp -o '{}'",
        source.display(),
        profile.display(),
        exe.display()
    ));
    let output = run(sh, "sh");
    assert!(output.status.success(), "linking with -lrapidpqp failed:\n{}", report(&output));
    let mut command = Command::new(&exe);
    command.env("LD_LIBRARY_PATH", &profile);
    let ran = run(command, "the program");
    assert!(
        ran.status.success(),
        "with LD_LIBRARY_PATH={}, the program did not run:\n{}",
        profile.display(),
        report(&ran)
    );
    assert_eq!(text(&ran.stdout), expected);
}

/// Every symbol the sources export (`#[unsafe(no_mangle)]` functions and statics, and
/// `#[unsafe(export_name = "...")]`, in `src/ffi`), read from the text.
fn exported_in_sources() -> Vec<String> {
    fn visit(dir: &Path, names: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("src/ffi") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                visit(&path, names);
                continue;
            }
            let source = std::fs::read_to_string(&path).expect("a source file");
            for (k, _) in source.match_indices("#[unsafe(no_mangle)]") {
                let rest = &source[k..];
                let name = rest
                    .split_whitespace()
                    .zip(rest.split_whitespace().skip(1))
                    .find(|(word, _)| *word == "fn" || *word == "static" || *word == "mut")
                    .map(|(_, name)| name.split(['(', ':', '<']).next().unwrap_or_default().to_owned())
                    .unwrap_or_else(|| panic!("{}: no item after #[unsafe(no_mangle)]", path.display()));
                names.push(name);
            }
            for (k, _) in source.match_indices("#[unsafe(export_name = \"") {
                let rest = &source[k + "#[unsafe(export_name = \"".len()..];
                names.push(rest.split('"').next().unwrap_or_default().to_owned());
            }
        }
    }
    let mut names = Vec::new();
    visit(&manifest_dir().join("src/ffi"), &mut names);
    names.retain(|n| n != "mut");
    names.sort();
    names.dedup();
    names
}

/// The symbols `nm` lists as defined in `library` (`-D`: the dynamic ones).
fn defined_symbols(library: &Path, dynamic: bool) -> std::collections::BTreeSet<String> {
    let mut nm = Command::new("nm");
    nm.arg("--defined-only");
    if dynamic {
        nm.arg("-D");
    }
    nm.arg(library);
    let output = run(nm, "nm");
    assert!(output.status.success(), "nm {} failed:\n{}", library.display(), report(&output));
    text(&output.stdout).lines().filter_map(|l| l.split_whitespace().nth(2)).map(str::to_owned).collect()
}

/// The C library's package (capi/) only re-exports the crate: every symbol the sources export
/// is exported by `librapidpqp.so` and defined in `librapidpqp.a`.
#[test]
fn both_libraries_export_every_symbol_of_the_sources() {
    let names = exported_in_sources();
    assert!(names.len() > 150, "only {} exported names found in src/ffi: {names:?}", names.len());
    for (file, dynamic) in [("librapidpqp.so", true), ("librapidpqp.a", false)] {
        let defined = defined_symbols(&built_library(file), dynamic);
        let missing: Vec<&String> = names.iter().filter(|n| !defined.contains(*n)).collect();
        assert!(
            missing.is_empty(),
            "{file} lacks {} of the {} exported names: {missing:?}",
            missing.len(),
            names.len()
        );
    }
}
