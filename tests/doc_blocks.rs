//! The documentation runs as written: every fenced code block of `README.md`,
//! `python/README.md` and `docs/*.md` is run by the suite, by its language (the first word of
//! its info string):
//!
//! | block | run by |
//! |---|---|
//! | ```` ```c ```` | here: a whole program, compiled (C99, `-Wall -Wextra -Werror`), linked with `librapidpqp.a`, run from the checkout; it exits with 0 and prints the ```` ```text ```` block right after it, if one follows (at most one line of prose between) |
//! | ```` ```rust ```` | rustdoc: `src/lib.rs` includes these files as doctests |
//! | ```` ```python ````, ```` ```sh ```` | `python/tests/test_doc_blocks.py`, with the installed package and its `rapidpqp` command, from the checkout |
//! | ```` ```text ```` | output, compared where it follows a program |
//! | anything marked `display-only` (```` ```sh display-only ````) | not run: builds, installs, benchmarks and the suite itself, which other tests cover |
//!
//! Each block stands alone: it defines every name it uses (no block continues another).
//! `every_block_has_a_runner` refuses a block of any other language.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::built_library;
use common::cbuild::{header_dir, manifest_dir, report, run, scratch_dir, static_link, text};

/// The documentation files whose blocks run: README.md, python/README.md, docs/*.md.
fn documents() -> Vec<PathBuf> {
    let root = manifest_dir();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    let mut all = vec![root.join("README.md"), root.join("python/README.md")];
    all.extend(docs);
    all
}

fn relative(path: &Path) -> String {
    path.strip_prefix(manifest_dir()).unwrap_or(path).display().to_string()
}

/// A fenced block: its info string, text, and first and last line numbers (0-based).
#[derive(Debug, PartialEq)]
struct Fenced {
    info: String,
    code: String,
    first: usize,
    last: usize,
}

impl Fenced {
    fn lang(&self) -> &str {
        self.info.split_whitespace().next().unwrap_or("")
    }

    fn runs(&self) -> bool {
        !self.info.split_whitespace().any(|w| w == "display-only")
    }
}

/// Every fenced block of a Markdown text, in order.
fn fenced_blocks(markdown: &str, name: &str) -> Vec<Fenced> {
    let mut blocks = Vec::new();
    let mut open: Option<Fenced> = None;
    for (n, line) in markdown.lines().enumerate() {
        let fence = line.trim_end().strip_prefix("```");
        match (open.as_mut(), fence) {
            (None, Some(info)) => {
                open = Some(Fenced { info: info.trim().to_owned(), code: String::new(), first: n, last: n })
            }
            (None, None) => {}
            (Some(_), Some("")) => {
                let mut block = open.take().expect("open block");
                block.last = n;
                blocks.push(block);
            }
            (Some(block), _) => {
                block.code.push_str(line);
                block.code.push('\n');
            }
        }
    }
    assert!(open.is_none(), "{name}: a fenced block is not closed");
    blocks
}

/// A C program of a Markdown text and the output it must print, if shown.
#[derive(Debug, PartialEq)]
struct CBlock {
    code: String,
    line: usize,
    prints: Option<String>,
}

/// The C programs of a Markdown text, in order.
fn c_blocks(markdown: &str, name: &str) -> Vec<CBlock> {
    let fenced = fenced_blocks(markdown, name);
    let mut blocks = Vec::new();
    for (k, block) in fenced.iter().enumerate() {
        if block.lang() != "c" || !block.runs() {
            continue;
        }
        let prints = fenced
            .get(k + 1)
            .filter(|next| next.lang() == "text" && next.first - block.last <= 3)
            .map(|next| next.code.clone());
        blocks.push(CBlock { code: block.code.clone(), line: block.first + 1, prints });
    }
    blocks
}

#[test]
fn every_block_has_a_runner() {
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    for doc in documents() {
        let name = relative(&doc);
        let markdown = std::fs::read_to_string(&doc).unwrap_or_else(|e| panic!("{name}: {e}"));
        for block in fenced_blocks(&markdown, &name) {
            let key = if block.runs() { block.lang().to_owned() } else { "display-only".to_owned() };
            assert!(
                ["c", "rust", "python", "sh", "text", "display-only"].contains(&key.as_str()),
                "{name}:{}: a ```{} block: no test runs it (c, rust, python, sh; text for output; \
                 mark one that must not run `display-only`)",
                block.first + 1,
                block.info
            );
            if key == "rust" {
                let include = format!("include_str!(\"../{name}\")");
                let lib = std::fs::read_to_string(manifest_dir().join("src/lib.rs")).expect("src/lib.rs");
                assert!(lib.contains(&include), "{name} has Rust blocks: src/lib.rs must run them ({include})");
            }
            *counts.entry(key).or_default() += 1;
        }
    }
    println!("documentation blocks: {counts:?}");
    assert!(counts.get("c").copied().unwrap_or(0) >= 5, "{counts:?}");
}

#[test]
fn c_programs_build_and_run() {
    let static_lib = built_library("librapidpqp.a");
    let dir = scratch_dir("doc_blocks");
    let mut total = 0;
    for doc in documents() {
        let name = relative(&doc);
        let markdown = std::fs::read_to_string(&doc).unwrap_or_else(|e| panic!("{name}: {e}"));
        for block in c_blocks(&markdown, &name) {
            let at = format!("{name}:{}", block.line);
            assert!(
                block.code.contains("int main(void)"),
                "{at}: not a whole program (every C block is compiled and run)"
            );
            let stem = format!("{}_{}", name.replace(['/', '.'], "_"), block.line);
            let source = dir.join(format!("{stem}.c"));
            std::fs::write(&source, &block.code).expect("write the program");
            let exe = dir.join(&stem);
            let mut command = common::cbuild::compiler(false, "c99")
                .include(header_dir())
                .include(manifest_dir().join("include"))
                .get_compiler()
                .to_command();
            command.arg(&source).args(static_link(&static_lib)).arg("-o").arg(&exe);
            let output = run(command, "the C compiler");
            assert!(output.status.success(), "{at}: the C block does not compile:\n{}", report(&output));
            let mut program = Command::new(&exe);
            program.current_dir(manifest_dir());
            let output = run(program, "a documented program");
            assert!(
                output.status.success() && output.stderr.is_empty() && !output.stdout.is_empty(),
                "{at}: the C block failed ({}):\n{}",
                output.status,
                report(&output)
            );
            if let Some(prints) = &block.prints {
                assert_eq!(&text(&output.stdout), prints, "{at}: not the output shown");
            }
            println!("{at}:\n{}", text(&output.stdout));
            total += 1;
        }
    }
    assert!(total >= 5, "expected the documentation's C programs, found {total}");
}

#[test]
fn c_blocks_finds_c_programs_and_their_output() {
    let md = "x\n```c\nint a;\n```\n```sh\nls\n```\n```c\nint b;\nint c;\n```\nIt prints:\n\n```text\n1\n```\n\
              ```c\nint d;\n```\nfar\n\naway\n```text\n2\n```\n```c display-only\nint e;\n```\n";
    let block = |code: &str, line: usize, prints: Option<&str>| CBlock {
        code: code.into(),
        line,
        prints: prints.map(Into::into),
    };
    assert_eq!(
        c_blocks(md, "test"),
        [block("int a;\n", 2, None), block("int b;\nint c;\n", 8, Some("1\n")), block("int d;\n", 17, None)]
    );
}
