//! The committed C header `include/rapidpqp.h` must equal the one cbindgen generates from the
//! current sources (build.rs writes it to `OUT_DIR`).
//!
//! Refresh the committed copy with `RAPIDPQP_BLESS=1 cargo test --release --features capi --test header`.

use std::path::PathBuf;

/// The header build.rs generated for this build.
const GENERATED: &str = include_str!(concat!(env!("OUT_DIR"), "/rapidpqp.h"));

const BLESS: &str = "RAPIDPQP_BLESS=1 cargo test --release --features capi --test header";

/// Lines of diff shown at most, so that a rewritten header does not flood the log.
const MAX_DIFF_LINES: usize = 200;

#[test]
fn committed_header_matches_generated() {
    assert!(
        !GENERATED.starts_with("#error"),
        "build.rs could not generate the header (see the cargo warning of the build): {GENERATED}"
    );
    let committed_path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("include/rapidpqp.h");

    if std::env::var_os("RAPIDPQP_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&committed_path, GENERATED)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", committed_path.display()));
        eprintln!("rewrote {}", committed_path.display());
        return;
    }

    let committed = std::fs::read_to_string(&committed_path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}\nGenerate it with `{BLESS}`.", committed_path.display()));
    if committed != GENERATED {
        panic!(
            "include/rapidpqp.h is stale: it differs from the header generated from the sources \
             (- committed, + generated):\n{}\nRefresh it with `{BLESS}` and commit the result.",
            line_diff(&committed, GENERATED)
        );
    }
}

/// A line diff of `old` against `new` in unified style (`-`/`+`, two lines of context); the
/// edit script is computed on the region between their common prefix and suffix.
fn line_diff(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let max_suffix = a.len().min(b.len()) - prefix;
    let suffix = a.iter().rev().zip(b.iter().rev()).take(max_suffix).take_while(|(x, y)| x == y).count();
    let (mid_a, mid_b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);

    // Edit script of the middle: longest common subsequence by dynamic programming when it is
    // small enough, otherwise the whole middle as removed and added.
    let mut ops: Vec<(char, &str)> = a[..prefix].iter().map(|l| (' ', *l)).collect();
    if mid_a.len().saturating_mul(mid_b.len()) <= 4_000_000 {
        let (n, m) = (mid_a.len(), mid_b.len());
        let mut lcs = vec![0u32; (n + 1) * (m + 1)];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                lcs[i * (m + 1) + j] = if mid_a[i] == mid_b[j] {
                    lcs[(i + 1) * (m + 1) + j + 1] + 1
                } else {
                    lcs[(i + 1) * (m + 1) + j].max(lcs[i * (m + 1) + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n || j < m {
            if i < n && j < m && mid_a[i] == mid_b[j] {
                ops.push((' ', mid_a[i]));
                i += 1;
                j += 1;
            } else if i < n && (j == m || lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1]) {
                ops.push(('-', mid_a[i]));
                i += 1;
            } else {
                ops.push(('+', mid_b[j]));
                j += 1;
            }
        }
    } else {
        ops.extend(mid_a.iter().map(|l| ('-', *l)));
        ops.extend(mid_b.iter().map(|l| ('+', *l)));
    }
    ops.extend(a[a.len() - suffix..].iter().map(|l| (' ', *l)));

    // Print changed lines with two lines of context, and a hunk header where a gap was skipped.
    const CONTEXT: usize = 2;
    let changed: Vec<usize> = (0..ops.len()).filter(|&k| ops[k].0 != ' ').collect();
    let near_change = |k: usize| {
        let next = changed.partition_point(|&c| c + CONTEXT < k);
        next < changed.len() && changed[next] <= k + CONTEXT
    };
    let mut out = String::new();
    let mut shown = 0;
    let mut skipped = true;
    let (mut line_a, mut line_b) = (1, 1);
    for (k, &(tag, text)) in ops.iter().enumerate() {
        if near_change(k) {
            if skipped {
                out.push_str(&format!("@@ committed line {line_a}, generated line {line_b} @@\n"));
            }
            if shown == MAX_DIFF_LINES {
                out.push_str("... (diff cut)\n");
                break;
            }
            out.push_str(&format!("{tag}{text}\n"));
            shown += 1;
            skipped = false;
        } else {
            skipped = true;
        }
        if tag != '+' {
            line_a += 1;
        }
        if tag != '-' {
            line_b += 1;
        }
    }
    if out.is_empty() {
        // Same lines, different bytes: line endings or a missing final newline.
        out.push_str("(the lines are equal; the files differ in line endings or the final newline)\n");
    }
    out
}

#[test]
fn line_diff_marks_changed_lines() {
    let d = line_diff("a\nb\nc\nd\ne\nf\ng\n", "a\nb\nc\nX\ne\nf\ng\n");
    assert_eq!(d, "@@ committed line 2, generated line 2 @@\n b\n c\n-d\n+X\n e\n f\n");
    assert!(line_diff("a\n", "a\r\n").contains("line endings"));
}
