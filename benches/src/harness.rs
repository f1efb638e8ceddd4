//! The C harnesses (`build.rs` compiles them): `legacy/legacy_bench.c`, one object linked with
//! our `target/release/librapidpqp.so` and with the originals' library, and
//! `legacy/native_bench.c`, linked with ours only. They print one line per measurement: a kind
//! (`row`, `check`, `answers`, `pass`, `memory`, ...) and `key=value` fields. The legacy one
//! also serves a scene: it checks every query, then times passes on request ([`Server`]), so
//! that the two libraries can be run alternately, a pass at a time.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::SystemTime;

use crate::report::root;
use crate::timing::PassTime;

/// One output line of a harness.
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

/// Which library a legacy harness is linked with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Library {
    Ours,
    Originals,
}

/// The legacy harness linked with `library`, or why there is none.
pub fn legacy_executable(library: Library) -> Result<PathBuf, String> {
    let (exe, missing) = match library {
        Library::Ours => (option_env!("LEGACY_BENCH_OURS"), option_env!("LEGACY_BENCH_OURS_MISSING")),
        Library::Originals => (option_env!("LEGACY_BENCH_ORIGINALS"), option_env!("LEGACY_BENCH_ORIGINALS_MISSING")),
    };
    let exe = exe.map(PathBuf::from).ok_or_else(|| missing.unwrap_or("the C harness was not built").to_string())?;
    // The originals live outside the project: they may have gone since the build.
    if let Some(lib) = option_env!("ORIGINALS_LIB").filter(|_| library == Library::Originals)
        && !Path::new(lib).is_file()
    {
        return Err(format!("{lib} is not there any more"));
    }
    Ok(exe)
}

/// The originals' harness, or the one line that says why the run goes without them (printed
/// once by the caller).
pub fn originals() -> Result<PathBuf, String> {
    legacy_executable(Library::Originals).map_err(|why| {
        format!(
            "originals (RAPID 2.01 / PQP 1.3, ../shared/reference/originals) not measured: {why}; \
             the tables go without their columns"
        )
    })
}

/// The native harness (trajectory scenes, the native API's memory), or why there is none.
pub fn native_executable() -> Result<PathBuf, String> {
    match option_env!("NATIVE_BENCH") {
        Some(path) => Ok(PathBuf::from(path)),
        None => Err(option_env!("NATIVE_BENCH_MISSING").unwrap_or("the C harness was not built").to_string()),
    }
}

/// Runs a harness with `args` to its end (its disagreement messages go straight to stderr);
/// returns its lines and whether it exited with status 0.
pub fn run(exe: &Path, args: &[&str]) -> Result<(Vec<Line>, bool), String> {
    let output = Command::new(exe)
        .args(args)
        .current_dir(root())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let lines = String::from_utf8_lossy(&output.stdout).lines().filter_map(Line::parse).collect();
    Ok((lines, output.status.success()))
}

/// A legacy harness serving one scene (`legacy_bench serve ...`): its setup lines (scene,
/// poses, checks, answers, phases), then passes timed on request.
pub struct Server {
    pub library: Library,
    pub lines: Vec<Line>,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Server {
    /// Starts the harness of `library` on `scene` (the words after `serve`) and reads its
    /// setup, up to `ready`.
    pub fn start(library: Library, scene: &[&str]) -> Result<Server, String> {
        let exe = legacy_executable(library)?;
        let mut child = Command::new(&exe)
            .arg("serve")
            .args(scene)
            .current_dir(root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
        let input = child.stdin.take().expect("piped stdin");
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut server = Server { library, lines: Vec::new(), child, input, output };
        loop {
            let line = server.read_line()?;
            if line.kind == "ready" {
                return Ok(server);
            }
            server.lines.push(line);
        }
    }

    fn read_line(&mut self) -> Result<Line, String> {
        let mut text = String::new();
        loop {
            text.clear();
            let n = self.output.read_line(&mut text).map_err(|e| format!("{:?} harness: {e}", self.library))?;
            if n == 0 {
                let status = self.child.wait().map_or("unknown".into(), |s| s.to_string());
                return Err(format!("the {:?} harness ended ({status})", self.library));
            }
            if let Some(line) = Line::parse(&text) {
                return Ok(line);
            }
        }
    }

    /// The setup lines of one kind.
    pub fn lines_of<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Line> + 'a {
        self.lines.iter().filter(move |l| l.kind == kind)
    }

    /// The setup line of `kind` whose `query` is `query`.
    pub fn query_line(&self, kind: &str, query: &str) -> Option<&Line> {
        self.lines.iter().find(|l| l.kind == kind && l.text("query") == query)
    }

    /// One timed pass: `repeats` sweeps over all of `query`'s queries. µs per query, and the
    /// calls that did not return OK.
    pub fn pass(&mut self, query: &str, repeats: usize) -> Result<(PassTime, usize), String> {
        writeln!(self.input, "pass {query} {repeats}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("{:?} harness: {e}", self.library))?;
        let line = self.read_line()?;
        if line.kind != "pass" {
            return Err(format!("{:?} harness answered {:?} to a pass of {query}", self.library, line.kind));
        }
        Ok((PassTime { cpu_us: line.number("us"), wall_us: line.number("wall_us") }, line.number("failed") as usize))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit").and_then(|()| self.input.flush());
        let _ = self.child.wait();
    }
}

/// A warning when our library, which the harnesses are linked with, is older than the
/// library's sources (the C columns would then measure an older build than the Rust core).
pub fn stale_library_warning() -> Option<String> {
    let library = PathBuf::from(option_env!("RAPIDPQP_LIB")?);
    let built = std::fs::metadata(&library).and_then(|m| m.modified()).ok()?;
    let newest = newest_file(&root().join("src"))?;
    (newest > built).then(|| {
        format!(
            "WARNING: {} is older than src/: the C columns measure an older build. Build the C library \
             at the repository root (`cargo build --release -p rapidpqp-capi`; run_bench.sh does), then rerun.",
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
