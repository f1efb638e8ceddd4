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
//! - `readme_c_programs_build_and_run`: every C code block of README.md is a whole program that
//!   compiles (C99, `-Wall -Wextra -Werror`), links with `librapidpqp.a`, exits with 0 and
//!   prints the output shown in the ```` ```text ```` block right after it, if there is one.

use std::path::Path;
use std::process::Command;

mod common;
use common::built_library;
use common::cbuild::{header_dir, manifest_dir, report, run, scratch_dir, static_link, text};

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

/// A C program of a Markdown text: a block fenced as ```` ```c ````, and the output it must
/// print when a ```` ```text ```` block follows it with at most one line of prose between.
#[derive(Debug, PartialEq)]
struct CBlock {
    code: String,
    prints: Option<String>,
}

/// The C programs of a Markdown text, in order.
fn c_blocks(markdown: &str) -> Vec<CBlock> {
    // Every fenced block: its language, text, first and last line.
    let mut fenced: Vec<(String, String, usize, usize)> = Vec::new();
    let mut open: Option<(String, String, usize)> = None;
    for (n, line) in markdown.lines().enumerate() {
        let fence = line.trim_end().strip_prefix("```");
        match (open.as_mut(), fence) {
            (None, Some(lang)) => open = Some((lang.to_owned(), String::new(), n)),
            (None, None) => {}
            (Some(_), Some("")) => {
                let (lang, text, first) = open.take().expect("open block");
                fenced.push((lang, text, first, n));
            }
            (Some((_, text, _)), _) => {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    assert!(open.is_none(), "README.md: a fenced block is not closed");
    let mut blocks = Vec::new();
    for (k, (lang, code, _, last)) in fenced.iter().enumerate() {
        if lang != "c" {
            continue;
        }
        let prints = fenced
            .get(k + 1)
            .filter(|(lang, _, first, _)| lang == "text" && first - last <= 3)
            .map(|(_, text, _, _)| text.clone());
        blocks.push(CBlock { code: code.clone(), prints });
    }
    blocks
}

#[test]
fn readme_c_programs_build_and_run() {
    let readme = std::fs::read_to_string(manifest_dir().join("README.md")).expect("README.md");
    let blocks = c_blocks(&readme);
    assert!(blocks.len() >= 3, "README.md: expected the native, solid and legacy C programs, found {}", blocks.len());
    let static_lib = built_library("librapidpqp.a");
    let dir = scratch_dir("c_header");
    for (k, block) in blocks.iter().enumerate() {
        let first = block.code.lines().find(|l| !l.trim().is_empty()).unwrap_or_default();
        assert!(
            block.code.contains("int main(void)"),
            "README.md C block {k} (\"{first}\") is not a whole program: every C block is compiled and run"
        );
        let source = dir.join(format!("readme_{k}.c"));
        std::fs::write(&source, &block.code).expect("write the program");
        let exe = dir.join(format!("readme_{k}"));
        let mut command = compiler(false);
        command.arg(&source).args(static_link(&static_lib)).arg("-o").arg(&exe);
        let output = run(command, "the C compiler");
        assert!(output.status.success(), "README.md C block {k} (\"{first}\") does not compile:\n{}", report(&output));
        let output = run(Command::new(&exe), "a README program");
        assert!(
            output.status.success() && output.stderr.is_empty() && !output.stdout.is_empty(),
            "README.md C block {k} (\"{first}\") failed ({}):\n{}",
            output.status,
            report(&output)
        );
        if let Some(prints) = &block.prints {
            assert_eq!(&text(&output.stdout), prints, "README.md C block {k} (\"{first}\"): not the output shown");
        }
        println!("README.md C block {k}:\n{}", text(&output.stdout));
    }
}

#[test]
fn c_blocks_finds_c_programs_and_their_output() {
    let md = "x\n```c\nint a;\n```\n```sh\nls\n```\n```c\nint b;\nint c;\n```\nIt prints:\n\n```text\n1\n```\n\
              ```c\nint d;\n```\nfar\n\naway\n```text\n2\n```\n";
    let block = |code: &str, prints: Option<&str>| CBlock { code: code.into(), prints: prints.map(Into::into) };
    assert_eq!(
        c_blocks(md),
        [block("int a;\n", None), block("int b;\nint c;\n", Some("1\n")), block("int d;\n", None)]
    );
}
