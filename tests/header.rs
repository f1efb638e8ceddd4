//! The committed C headers `include/rapidpqp*.h` must equal the ones build.rs generates from
//! the current sources (into `OUT_DIR`), and every name they declare must carry its API's
//! prefix, so that a C program's own names cannot clash with them.
//!
//! Refresh the committed copies with `RAPIDPQP_BLESS=1 cargo test --release --features capi --test header`.

use std::path::PathBuf;

/// Each header build.rs generates for this build, and the prefixes of the names it may
/// declare (besides its include guard): the native API's, or the legacy library's own.
const HEADERS: [(&str, &str, &[&str]); 5] = [
    ("rapidpqp.h", include_str!(concat!(env!("OUT_DIR"), "/rapidpqp.h")), &[]),
    ("rapidpqp_native.h", include_str!(concat!(env!("OUT_DIR"), "/rapidpqp_native.h")), &["rpq_", "RPQ_", "Rpq"]),
    (
        "rapidpqp_rapid.h",
        include_str!(concat!(env!("OUT_DIR"), "/rapidpqp_rapid.h")),
        // RAPID.H's own struct name for its contact pairs.
        &["RAPID_", "collision_pair"],
    ),
    (
        "rapidpqp_pqp.h",
        include_str!(concat!(env!("OUT_DIR"), "/rapidpqp_pqp.h")),
        // PQP.h's own struct name for its contact pairs.
        &["PQP_", "CollisionPair"],
    ),
    (
        "rapidpqp_vcollide.h",
        include_str!(concat!(env!("OUT_DIR"), "/rapidpqp_vcollide.h")),
        // V-COLLIDE 1.x's report struct.
        &["vc", "VC_", "VCReportType"],
    ),
];

const BLESS: &str = "RAPIDPQP_BLESS=1 cargo test --release --features capi --test header";

/// Lines of diff shown at most, so that a rewritten header does not flood the log.
const MAX_DIFF_LINES: usize = 200;

#[test]
fn committed_headers_match_generated() {
    let include = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("include");
    let bless = std::env::var_os("RAPIDPQP_BLESS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for (name, generated, _) in HEADERS {
        assert!(
            !generated.starts_with("#error"),
            "build.rs could not generate {name} (see the cargo warning of the build): {generated}"
        );
        let committed_path = include.join(name);
        if bless {
            std::fs::write(&committed_path, generated)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", committed_path.display()));
            eprintln!("rewrote {}", committed_path.display());
            continue;
        }
        let committed = std::fs::read_to_string(&committed_path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}\nGenerate it with `{BLESS}`.", committed_path.display()));
        if committed != generated {
            stale.push(format!(
                "include/{name} is stale: it differs from the header generated from the sources \
                 (- committed, + generated):\n{}",
                line_diff(&committed, generated)
            ));
        }
    }
    assert!(stale.is_empty(), "{}\nRefresh the headers with `{BLESS}` and commit the result.", stale.join("\n"));
}

#[test]
fn every_declared_name_carries_its_prefix() {
    for (name, text, prefixes) in HEADERS {
        let guard = name.to_uppercase().replace('.', "_");
        let names = declared_names(text);
        let foreign: Vec<&String> =
            names.iter().filter(|n| **n != guard && !prefixes.iter().any(|p| n.starts_with(p))).collect();
        assert!(foreign.is_empty(), "{name} declares names without the prefixes {prefixes:?}: {foreign:?}");
    }
    // The extraction sees what it must (so that the check above is not vacuous).
    let native = declared_names(HEADERS[1].1);
    for expected in
        ["RpqPose", "RpqStatus", "RpqContactPair", "rpq_collide", "rpq_version", "RPQ_OK", "RPQ_VERSION_MAJOR"]
    {
        assert!(native.iter().any(|n| n == expected), "{expected} not found among {native:?}");
    }
    let rapid = declared_names(HEADERS[2].1);
    for expected in ["RAPID_contact", "RAPID_Collide", "collision_pair", "RAPID_model", "RAPID_OK"] {
        assert!(rapid.iter().any(|n| n == expected), "{expected} not found among {rapid:?}");
    }
}

/// The names a generated header declares at file scope: macros, types, struct tags, functions
/// and variables (comments and struct members skipped).
fn declared_names(text: &str) -> Vec<String> {
    let ident = |s: &str| -> Option<String> {
        let s = s.trim_start_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
        let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
        (end > 0 && !s.starts_with(|c: char| c.is_ascii_digit())).then(|| s[..end].to_owned())
    };
    let last_ident = |s: &str| -> Option<String> {
        let s = s.trim_end_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
        let start = s.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
        ident(&s[start..])
    };
    let mut names = Vec::new();
    let mut in_comment = false;
    for line in text.lines() {
        let t = line.trim();
        if in_comment {
            in_comment = !t.contains("*/");
            continue;
        }
        if t.starts_with("/*") {
            in_comment = !t.contains("*/");
            continue;
        }
        if t.is_empty() || t.starts_with("//") || line.starts_with([' ', '\t']) {
            continue; // members, continued parameter lists
        }
        if let Some(rest) = t.strip_prefix("#define ") {
            names.extend(ident(rest));
        } else if t.starts_with('#')
            || t.starts_with("extern \"C\"")
            || t.trim_start_matches('}').trim().starts_with("//")
        {
            continue; // `}  // extern "C"` (and a lone `}`)
        } else if let Some(rest) = t.strip_prefix("} ") {
            names.extend(last_ident(rest)); // `} RpqPose;`
        } else if t.starts_with("typedef ") || t.starts_with("extern ") || !t.contains('(') {
            // `typedef struct X X;`, `typedef struct X {`, `typedef int X;`, `extern int X;`
            let words: Vec<&str> = t.trim_end_matches([';', '{', ' ']).split_whitespace().collect();
            if let [.., "struct", tag] | [.., "struct", tag, _] = words.as_slice() {
                names.extend(ident(tag));
            }
            names.extend(words.last().and_then(|w| last_ident(w)));
        } else {
            // A function: the identifier before its first `(`.
            names.extend(last_ident(&t[..t.find('(').unwrap_or(0)]));
        }
    }
    names.sort();
    names.dedup();
    names
}

#[test]
fn declared_names_finds_every_kind_of_declaration() {
    let text = "/* a comment\n * FOREIGN_IN_COMMENT\n */\n#ifndef G_H\n#define G_H\n#define RPQ_A 1\n\
                typedef struct Opaque Opaque;\ntypedef int Alias;\ntypedef struct Tag {\n    int member;\n} Named;\n\
                extern \"C\" {\nextern struct Tag *global_var;\nconst struct Tag *fn_name(const int *a,\n    int b);\n\
                }  // extern \"C\"\n#endif  /* G_H */\n";
    assert_eq!(declared_names(text), ["Alias", "G_H", "Named", "Opaque", "RPQ_A", "Tag", "fn_name", "global_var"]);
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
