//! Memory: how much the process grows while one model is built, in bytes per triangle, for
//! every bundled mesh (`meshes/` and `../shared/meshes`) through each way in: the RAPID and PQP
//! C entry points of ours and of the originals (the legacy C harness linked with each library),
//! the native C API (the native harness) and the Rust API (this program). Each measurement runs
//! in a fresh child process that reads the mesh into plain arrays first, then builds the model
//! between two readings of `/proc/self/status` (VmRSS, and VmHWM reset just before: the peak
//! during the build).

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use rapidpqp::Model;
use rapidpqp::io::load_obj;

use crate::harness::{Library, Line};

/// Issue 24's target: at most this many bytes a triangle of process growth, every API.
pub const BYTES_PER_TRIANGLE_TARGET: f64 = 200.0;

/// A way in: the harness's API name and which program builds through it.
#[derive(Clone, Copy, PartialEq)]
enum Way {
    Legacy(&'static str, Library),
    Native,
    Rust,
}

const WAYS: [Way; 6] = [
    Way::Legacy("rapid", Library::Originals),
    Way::Legacy("rapid", Library::Ours),
    Way::Legacy("pqp", Library::Originals),
    Way::Legacy("pqp", Library::Ours),
    Way::Native,
    Way::Rust,
];

impl Way {
    fn name(self) -> String {
        match self {
            Way::Legacy(api, Library::Ours) => format!("{api}_ours"),
            Way::Legacy(api, Library::Originals) => format!("{api}_originals"),
            Way::Native => "native".into(),
            Way::Rust => "rust".into(),
        }
    }
}

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
/// `memory` line, as the C harnesses do.
pub fn child(mesh: &str) -> ! {
    let loaded = load_obj(mesh).unwrap_or_else(|e| panic!("{mesh}: {e}"));
    // A one-triangle model first, as the C harnesses build one: the library's first use is
    // not the model's size.
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

fn measure(way: Way, mesh: &Path) -> Result<Build, String> {
    let path = mesh.to_string_lossy();
    let (exe, args) = match way {
        Way::Rust => (std::env::current_exe().map_err(|e| e.to_string())?, vec![CHILD_FLAG, &*path]),
        Way::Native => (crate::harness::native_executable()?, vec!["memory", "native", &*path]),
        Way::Legacy(api, library) => (crate::harness::legacy_executable(library)?, vec!["memory", api, &*path]),
    };
    let (lines, ok) = crate::harness::run(&exe, &args)?;
    if !ok {
        return Err(format!("the {} child failed on {path}", way.name()));
    }
    lines.iter().find_map(Build::from_line).ok_or_else(|| format!("no memory line from {} on {path}", way.name()))
}

/// Measures and prints the table; returns its CSV. Failures are appended. `originals`:
/// whether the originals' harness is there.
pub fn run(originals: bool, failures: &mut Vec<String>) -> String {
    say!("\n## Memory: one model build, bytes per triangle, beside the originals\n");
    say!(
        "Process growth (VmRSS after − before) while one model is built in a fresh process, the mesh \
         already in plain arrays and a one-triangle model built and freed through the same API first (the \
         library's first use, its code paged in and its handle table set up, is not the model's size). RAPID \
         and PQP: `RAPID_AddTri` / `PQP_AddTri` through the legacy C harness linked with each library (**orig**: \
         RAPID 2.01 / PQP 1.3, **ours**: rapidpqp), in the same run; PQP_MemUsage: what each library's \
         `PQP_MemUsage(model, 0)` says; native C API: `rpq_model_build_indexed`; Rust API: `Model::from_indexed`; \
         \"model's count\": `Model::memory_bytes`; **peak**: the largest VmHWM growth during our builds. Target: \
         at most {BYTES_PER_TRIANGLE_TARGET} bytes (issue 24); our cells above it are **bold**. Every bundled \
         mesh: `meshes/`, and {}.\n",
        if !crate::report::root().join("../shared/meshes").is_dir() {
            "no `../shared/meshes` (not there)"
        } else if crate::fixture::bundled_meshes().len() > crate::fixture::meshes().len() {
            "the meshes of `../shared/meshes` that differ from those (by path)"
        } else {
            "`../shared/meshes`, whose files are the same"
        }
    );
    say!(
        "| mesh | triangles | RAPID orig | RAPID ours | PQP orig | PQP ours | PQP_MemUsage orig | PQP_MemUsage ours | native C API | Rust API | model's count | peak |"
    );
    say!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut csv = String::from(
        "mesh,api,triangles,rss_growth_bytes,bytes_per_triangle,peak_growth_bytes,peak_bytes_per_triangle,reported_bytes,reported_bytes_per_triangle\n",
    );
    let ours_cell = |x: f64| {
        if x.is_nan() {
            "—".to_string()
        } else if x > BYTES_PER_TRIANGLE_TARGET {
            format!("**{x:.0}**")
        } else {
            format!("{x:.0}")
        }
    };
    let plain = |x: f64| if x.is_nan() { "—".to_string() } else { format!("{x:.0}") };
    for mesh in crate::fixture::bundled_meshes() {
        let name = if mesh.starts_with(crate::report::root().join("meshes")) {
            mesh.file_name().unwrap().to_string_lossy().into_owned()
        } else {
            mesh.display().to_string()
        };
        let mut builds = Vec::new();
        for way in WAYS {
            if !originals && matches!(way, Way::Legacy(_, Library::Originals)) {
                builds.push(None);
                continue;
            }
            match measure(way, &mesh) {
                Ok(b) => {
                    let _ = writeln!(
                        csv,
                        "{name},{},{},{},{:.1},{},{:.1},{},{:.1}",
                        way.name(),
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
                    failures.push(format!("memory {name} {}: {why}", way.name()));
                    builds.push(None);
                }
            }
        }
        let growth = |k: usize| builds[k].as_ref().map_or(f64::NAN, |b| b.per_triangle(b.rss_growth));
        let reported = |k: usize| builds[k].as_ref().map_or(f64::NAN, |b| b.per_triangle(b.reported));
        let ours = [1, 3, 4, 5];
        let peak = ours
            .iter()
            .filter_map(|&k| builds[k].as_ref())
            .map(|b| b.per_triangle(b.peak_growth))
            .fold(f64::NAN, f64::max);
        let triangles = builds.iter().flatten().next().map_or(0.0, |b| b.triangles);
        say!(
            "| {name} | {triangles} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {peak:.0} |",
            plain(growth(0)),
            ours_cell(growth(1)),
            plain(growth(2)),
            ours_cell(growth(3)),
            plain(reported(2)),
            ours_cell(reported(3)),
            ours_cell(growth(4)),
            ours_cell(growth(5)),
            ours_cell(reported(5))
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
