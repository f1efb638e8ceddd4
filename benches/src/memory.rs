//! Memory: how much the process grows while one model is built, in bytes per triangle, for
//! every mesh of `meshes/` through each way in: the RAPID, PQP and native C APIs (the C
//! harness) and the Rust API (this program). Each measurement runs in a fresh child process
//! that reads the mesh into plain arrays first, then builds the model between two readings
//! of `/proc/self/status` (VmRSS, and VmHWM reset just before: the peak during the build).

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use rapidpqp::Model;
use rapidpqp::io::load_obj;

use crate::harness::Line;
use crate::originals::{
    BYTES_PER_TRIANGLE_TARGET, PQP_BYTES_PER_TRIANGLE, PQP_MEMUSAGE_BYTES_PER_TRIANGLE, RAPID_BYTES_PER_TRIANGLE,
    RAPIDPQP_THEN_BYTES_PER_TRIANGLE, RAPIDPQP_THEN_MEMUSAGE_BYTES_PER_TRIANGLE,
};

/// The ways in, as the C harness names them, and `rust` for this program.
const APIS: [&str; 4] = ["rapid", "pqp", "native", "rust"];

/// The hidden command line of the Rust API's child process.
pub const CHILD_FLAG: &str = "--memory-child";

/// One build in one child process.
struct Build {
    triangles: f64,
    rss_growth: f64,
    peak_growth: f64,
    /// What the library says the model holds: `PQP_MemUsage`, `rpq_model_memory_bytes`,
    /// `Model::memory_bytes` (NaN for RAPID, which has no such call).
    reported: f64,
}

impl Build {
    fn from_line(line: &Line) -> Option<Build> {
        let n = line.number("triangles");
        let before = line.number("rss_before");
        (line.kind == "memory" && n > 0.0 && before > 0.0).then(|| Build {
            triangles: n,
            rss_growth: line.number("rss_after") - before,
            peak_growth: line.number("peak_after") - line.number("peak_before"),
            reported: if line.number("reported") >= 0.0 { line.number("reported") } else { f64::NAN },
        })
    }
    fn per_triangle(&self, bytes: f64) -> f64 {
        bytes / self.triangles
    }
}

/// The child process of the Rust API: `rapidpqp-bench --memory-child MESH` prints one
/// `memory` line, as the C harness does.
pub fn child(mesh: &str) -> ! {
    let loaded = load_obj(mesh).unwrap_or_else(|e| panic!("{mesh}: {e}"));
    // A one-triangle model first, as the C harness builds one: the library's first use is not
    // the model's size.
    drop(Model::from_indexed(&loaded.vertices, &loaded.faces[..1]).expect("model builds"));
    let peak_ok = reset_peak();
    let (rss0, peak0) = resident();
    let model = Model::from_indexed(&loaded.vertices, &loaded.faces).expect("model builds");
    let (rss1, peak1) = resident();
    let name = Path::new(mesh).file_name().map_or(mesh.into(), |n| n.to_string_lossy());
    println!(
        "memory api=rust mesh={name} triangles={} rss_before={rss0} rss_after={rss1} peak_before={} peak_after={} reported={}",
        model.num_triangles(),
        if peak_ok { peak0 } else { -1 },
        if peak_ok { peak1 } else { -1 },
        model.memory_bytes()
    );
    std::process::exit(0)
}

/// VmRSS and VmHWM of this process, bytes.
fn resident() -> (i64, i64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |key: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<i64>().ok())
            .map_or(-1, |kb| kb * 1024)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// Resets VmHWM to the current VmRSS (Linux 4.0 and later).
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

fn measure(api: &str, mesh: &Path) -> Result<Build, String> {
    let path = mesh.to_string_lossy();
    let lines = if api == "rust" {
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let out = Command::new(exe).args([CHILD_FLAG, &path]).output().map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!("{api} child failed: {}", String::from_utf8_lossy(&out.stderr)));
        }
        String::from_utf8_lossy(&out.stdout).lines().filter_map(Line::parse).collect()
    } else {
        let (lines, ok) = crate::harness::run(&["memory", api, &path])?;
        if !ok {
            return Err(format!("the C harness failed on {api} {path}"));
        }
        lines
    };
    lines.iter().find_map(Build::from_line).ok_or_else(|| format!("no memory line from {api} on {path}"))
}

/// Measures and prints the table; returns its CSV. Failures are appended.
pub fn run(failures: &mut Vec<String>) -> String {
    say!("\n## Memory: one model build, bytes per triangle\n");
    say!(
        "Process growth (VmRSS after − before) while one model is built in a fresh process, the mesh \
         already in plain arrays and a one-triangle model built and freed through the same API first (the \
         library's first use, its code paged in and its handle table set up, is not the model's size); \
         **peak**: the largest VmHWM growth during the build over the four ways in. \
         Originals (ORIGINALS.md, bunny and dragon): RAPID {RAPID_BYTES_PER_TRIANGLE}, PQP \
         {PQP_BYTES_PER_TRIANGLE} (its PQP_MemUsage {PQP_MEMUSAGE_BYTES_PER_TRIANGLE}); rapidpqp's \
         AddTri path then {}–{} (PQP_MemUsage {RAPIDPQP_THEN_MEMUSAGE_BYTES_PER_TRIANGLE}). Target ≤ \
         {BYTES_PER_TRIANGLE_TARGET}: cells above it are **bold**. The native C API is \
         `rpq_model_build_indexed`; the Rust API `Model::from_indexed`; \"model's count\" is \
         `Model::memory_bytes`.\n",
        RAPIDPQP_THEN_BYTES_PER_TRIANGLE.0,
        RAPIDPQP_THEN_BYTES_PER_TRIANGLE.1
    );
    say!("| mesh | triangles | RAPID API | PQP API | PQP_MemUsage | native C API | Rust API | model's count | peak |");
    say!("|---|---|---|---|---|---|---|---|---|");
    let mut csv = String::from(
        "mesh,api,triangles,rss_growth_bytes,bytes_per_triangle,peak_growth_bytes,peak_bytes_per_triangle,reported_bytes,reported_bytes_per_triangle\n",
    );
    let cell = |x: f64| {
        if x.is_nan() {
            "—".to_string()
        } else if x > BYTES_PER_TRIANGLE_TARGET {
            format!("**{x:.0}**")
        } else {
            format!("{x:.0}")
        }
    };
    for mesh in crate::fixture::meshes() {
        let name = mesh.file_name().unwrap().to_string_lossy().into_owned();
        let mut builds = Vec::new();
        for api in APIS {
            match measure(api, &mesh) {
                Ok(b) => {
                    let _ = writeln!(
                        csv,
                        "{name},{api},{},{},{:.1},{},{:.1},{},{:.1}",
                        b.triangles,
                        b.rss_growth,
                        b.per_triangle(b.rss_growth),
                        b.peak_growth,
                        b.per_triangle(b.peak_growth),
                        b.reported,
                        b.per_triangle(b.reported)
                    );
                    builds.push(Some(b));
                }
                Err(why) => {
                    failures.push(format!("memory {name} {api}: {why}"));
                    builds.push(None);
                }
            }
        }
        let growth = |k: usize| builds[k].as_ref().map_or(f64::NAN, |b| b.per_triangle(b.rss_growth));
        let reported = |k: usize| builds[k].as_ref().map_or(f64::NAN, |b| b.per_triangle(b.reported));
        let peak = builds.iter().flatten().map(|b| b.per_triangle(b.peak_growth)).fold(f64::NAN, f64::max);
        let triangles = builds.iter().flatten().next().map_or(0.0, |b| b.triangles);
        say!(
            "| {name} | {triangles} | {} | {} | {} | {} | {} | {} | {peak:.0} |",
            cell(growth(0)),
            cell(growth(1)),
            cell(reported(1)),
            cell(growth(2)),
            cell(growth(3)),
            cell(reported(3))
        );
    }
    csv
}

/// The child process of the large-model scene: `rapidpqp-bench --large-child N` builds a
/// bumpy torus of N triangles through the Rust API and prints one `large` line: build
/// seconds, peak RSS growth during the build (the caller's triangles, which `Model::new`
/// consumes, counted), finished RSS growth, serialized bytes, and the median of three loads
/// (`model_from_bytes`, every check on).
pub const LARGE_CHILD_FLAG: &str = "--large-child";

pub fn large_child(n: usize) -> ! {
    let (base, _) = resident();
    reset_peak();
    let tris = crate::shapes::bumpy_torus(n);
    let ids: Vec<i32> = (0..tris.len() as i32).collect();
    let t = std::time::Instant::now();
    let model = Model::new(tris, ids).expect("model builds");
    let build = t.elapsed().as_secs_f64();
    let (finished, peak) = resident();
    let bytes = rapidpqp::serialize::model_to_bytes(&model);
    drop(model);
    let mut loads: Vec<f64> = (0..3)
        .map(|_| {
            let t = std::time::Instant::now();
            let m = rapidpqp::serialize::model_from_bytes(&bytes).expect("loads");
            assert_eq!(m.num_triangles(), n);
            t.elapsed().as_secs_f64()
        })
        .collect();
    loads.sort_by(f64::total_cmp);
    println!("large {n} {build} {} {} {} {}", peak - base, finished - base, bytes.len(), loads[1]);
    std::process::exit(0)
}

/// Generated models of 1M, 2M and 4M triangles (issue 13): build, peak and finished RSS,
/// and loading the serialized model, each in a fresh process. Returns the CSV.
pub fn large(failures: &mut Vec<String>) -> String {
    say!("\n## Large models: build, memory and loading\n");
    say!(
        "A bumpy torus of N triangles built through the Rust API in a fresh process: build time; peak RSS growth \
         during the build over the process before the input existed (the caller's triangles, which `Model::new` \
         takes over, included); the finished model's RSS growth; the serialized size; the median of three loads \
         (`model_from_bytes`, every check on). MB = 10^6 bytes. Targets (issue 13): peak at most twice the \
         finished model; loading at least 20 times faster than building.\n"
    );
    say!(
        "| triangles | build s | peak MB (B/tri) | finished MB (B/tri) | peak / finished | serialized MB | load s | build / load |"
    );
    say!("|---|---|---|---|---|---|---|---|");
    let mut csv = String::from("triangles,build_s,peak_bytes,finished_bytes,serialized_bytes,load_s\n");
    for n in [1_000_000usize, 2_000_000, 4_000_000] {
        let exe = std::env::current_exe().expect("own path");
        let out = match Command::new(exe).args([LARGE_CHILD_FLAG, &n.to_string()]).output() {
            Ok(out) if out.status.success() => out,
            Ok(out) => {
                failures.push(format!("large {n}: {}", String::from_utf8_lossy(&out.stderr)));
                continue;
            }
            Err(e) => {
                failures.push(format!("large {n}: {e}"));
                continue;
            }
        };
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let Some(v) = text
            .lines()
            .find_map(|l| l.strip_prefix("large "))
            .map(|l| l.split(' ').map(|w| w.parse::<f64>().unwrap_or(f64::NAN)).collect::<Vec<f64>>())
        else {
            failures.push(format!("large {n}: no result line"));
            continue;
        };
        let (build, peak, finished, bytes, load) = (v[1], v[2], v[3], v[4], v[5]);
        let nf = n as f64;
        say!(
            "| {n} | {build:.2} | {:.0} ({:.0}) | {:.0} ({:.0}) | {:.2} | {:.0} | {load:.3} | {:.1}× |",
            peak / 1e6,
            peak / nf,
            finished / 1e6,
            finished / nf,
            peak / finished,
            bytes / 1e6,
            build / load
        );
        csv.push_str(&format!("{n},{build},{peak},{finished},{bytes},{load}\n"));
    }
    csv
}
