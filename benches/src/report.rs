//! Where the tables go: every line printed with [`say!`] goes to stdout and into the report
//! (`report.md`), written with the CSVs into the results folder at the end of the run.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

static REPORT: Mutex<String> = Mutex::new(String::new());

/// Prints a line and keeps it for the report.
macro_rules! say {
    () => { $crate::report::line(String::new()) };
    ($($arg:tt)*) => { $crate::report::line(format!($($arg)*)) };
}

pub fn line(text: String) {
    println!("{text}");
    let mut report = REPORT.lock().unwrap_or_else(|e| e.into_inner());
    report.push_str(&text);
    report.push('\n');
}

/// The repository root (the benchmark package lives in `benches/`).
pub fn root() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    root.canonicalize().unwrap_or(root)
}

/// A path as the report shows it: from the repository root when it lies under it.
pub fn shown(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}

/// `RAPIDPQP_MACHINE`, else `<arch>-<cores>core`: the results folder's name.
pub fn machine_name() -> String {
    std::env::var("RAPIDPQP_MACHINE").unwrap_or_else(|_| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        format!("{}-{}core", std::env::consts::ARCH, cores)
    })
}

/// The 1-, 5- and 15-minute load averages (other processes competing for the cores).
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).current_dir(root()).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The lines that open the report: what was measured, where, when, and how loaded the machine was.
pub fn header(command: &str) {
    let commit = command_output("git", &["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty =
        command_output("git", &["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    let date = command_output("date", &["-u", "+%Y-%m-%d %H:%M UTC"]).unwrap_or_else(|| "unknown".into());
    say!("# rapidpqp benchmark\n");
    say!("- command: `{command}`");
    say!(
        "- machine: {} ({} cores available), {date}",
        machine_name(),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    say!("- commit: {commit}{}", if dirty { " with uncommitted changes" } else { "" });
    say!("- load average at the start: {}", load_average());
    say!(
        "\nTimes are medians of repeated sweeps over all poses, one thread. On a shared machine absolute \
         figures drift by 1.5× and more between runs: compare ratios taken in one run (the legacy tables \
         run ours and the originals alternately for that)."
    );
}

/// Writes `report.md` (every line said so far) and the CSV files into `dir`.
pub fn write(dir: &Path, csvs: &[(String, String)]) {
    std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
    say!("\n- load average at the end: {}", load_average());
    for (name, text) in csvs {
        std::fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("write {name}: {e}"));
    }
    let report = REPORT.lock().unwrap_or_else(|e| e.into_inner()).clone();
    std::fs::write(dir.join("report.md"), report).expect("write report.md");
    let mut names = String::new();
    for (name, _) in csvs {
        let _ = write!(names, " {name}");
    }
    println!("\nreport.md and{names} written to {}", dir.display());
}
