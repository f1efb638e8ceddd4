//! The C harness `benches/legacy/legacy_bench.c`: an outside C program linked with the repo's
//! `target/release/librapidpqp.a` (`build.rs` compiles it). It prints one line per
//! measurement: a kind (`row`, `phases`, `memory`) and `key=value` fields.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::SystemTime;

use crate::report::root;

/// One output line of the harness.
pub struct Line {
    pub kind: String,
    fields: HashMap<String, String>,
}

impl Line {
    pub fn parse(text: &str) -> Option<Line> {
        let mut words = text.split_whitespace();
        let kind = words.next()?.to_string();
        let fields = words.filter_map(|w| w.split_once('=')).map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Some(Line { kind, fields })
    }

    pub fn text(&self, key: &str) -> &str {
        self.fields.get(key).map_or("", String::as_str)
    }

    /// A numeric field (NaN when absent or not a number).
    pub fn number(&self, key: &str) -> f64 {
        self.fields.get(key).and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)
    }

    /// The `us`, `us_min`, `us_max` fields.
    pub fn timing(&self) -> crate::timing::Timing {
        crate::timing::Timing { median: self.number("us"), min: self.number("us_min"), max: self.number("us_max") }
    }
}

/// The harness's path, or why it was not built.
pub fn executable() -> Result<PathBuf, String> {
    match option_env!("LEGACY_BENCH_EXE") {
        Some(path) => Ok(PathBuf::from(path)),
        None => Err(option_env!("LEGACY_BENCH_MISSING").unwrap_or("the C harness was not built").to_string()),
    }
}

/// Runs the harness with `args` (its disagreement messages go straight to stderr); returns its
/// lines and whether it exited with status 0.
pub fn run(args: &[&str]) -> Result<(Vec<Line>, bool), String> {
    let exe = executable()?;
    let output = Command::new(&exe)
        .args(args)
        .current_dir(root())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let lines = String::from_utf8_lossy(&output.stdout).lines().filter_map(Line::parse).collect();
    Ok((lines, output.status.success()))
}

/// A warning when the library the harness was linked with is older than the library's sources
/// (the Rust core columns would then measure newer code than the C columns).
pub fn stale_library_warning() -> Option<String> {
    let library = PathBuf::from(option_env!("LEGACY_BENCH_LIB")?);
    let built = std::fs::metadata(&library).and_then(|m| m.modified()).ok()?;
    let newest = newest_file(&root().join("src"))?;
    (newest > built).then(|| {
        format!(
            "WARNING: {} is older than src/: the C columns measure an older build. Build the C library \
             at the repository root (`cargo rustc --release --lib --features capi --crate-type cdylib --crate-type staticlib`; run_bench.sh does), then rerun.",
            library.display()
        )
    })
}

fn newest_file(dir: &Path) -> Option<SystemTime> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let path = entry.path();
            if path.is_dir() { newest_file(&path) } else { entry.metadata().and_then(|m| m.modified()).ok() }
        })
        .max()
}
