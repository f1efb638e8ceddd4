//! Memory and load-time figures of built models (issues 12 and 13).
//!
//! ```sh
//! cargo run --release --example large_models              # both tables below
//! cargo run --release --example large_models -- meshes    # memory per mesh and API only
//! cargo run --release --example large_models -- large 1000000 2000000 4000000
//! ```
//!
//! Every figure is measured in a fresh process (this program runs itself once per
//! measurement), from the process's resident set (`/proc/self/statm`) and its peak
//! (`VmHWM` of `/proc/self/status`, reset through `/proc/self/clear_refs` before the build):
//!
//! * **meshes**: for each mesh of `meshes/` and each API, the RSS growth per triangle while
//!   one model is built, the caller's own mesh arrays prepared before and kept after, as a C
//!   program calling the originals would have them: the Rust API (`Model::new` on the
//!   triangles made from the mesh), the native C entry point (`rpq_model_build_indexed` on the
//!   vertex and index arrays) and the legacy ones (`PQP_Model_new`, `PQP_BeginModel`,
//!   `PQP_AddTri` per triangle, `PQP_EndModel`; the same with `RAPID_*`). Also what
//!   `Model::memory_bytes` (and `PQP_MemUsage`) report. A two-triangle model is built and
//!   freed through the same API first, so that the code's own pages (file-backed, counted in
//!   the RSS, about 250 kB) are not counted as the model's.
//! * **large**: a generated surface (a bumpy torus) of N triangles built through the Rust API:
//!   build time, peak RSS during the build above the process before the input existed (so the
//!   caller's triangles, which `Model::new` consumes, are counted), the finished model's RSS,
//!   its serialized size, and the time to load it back (`model_from_bytes`, every check on),
//!   median of a few loads.
//!
//! # Figures (x86_64, 2 cores shared with other jobs: times vary by up to 2× between runs)
//!
//! Bytes a triangle of RSS growth, before (`main` at c77b0a9, which kept an `f64` copy of
//! every node and left the build's temporaries in malloc's free lists) → now:
//!
//! | mesh | triangles | Rust API | `rpq_model_build_indexed` | `PQP_AddTri` + `EndModel` | `RAPID_AddTri` + `EndModel` | `memory_bytes` |
//! |---|---|---|---|---|---|---|
//! | adis16480 | 7436 | 785 → 272 | 785 → 281 | 880 → 383 | 880 → 383 | 524 → 268 |
//! | armadillo_50k | 50000 | 760 → 269 | 760 → 269 | 838 → 366 | 838 → 366 | 524 → 268 |
//! | bunny | 69451 | 759 → 268 | 760 → 268 | 839 → 375 | 839 → 375 | 524 → 268 |
//! | bunny_15k | 15536 | 770 → 274 | 770 → 274 | 847 → 395 | 847 → 400 | 524 → 268 |
//! | dragon_100k | 99999 | 758 → 268 | 759 → 268 | 835 → 387 | 836 → 387 | 524 → 268 |
//! | fandisk | 12946 | 773 → 275 | 773 → 270 | 850 → 363 | 850 → 363 | 524 → 268 |
//! | gears | 19426 | 767 → 269 | 767 → 269 | 847 → 383 | 847 → 383 | 524 → 268 |
//! | rocker_arm | 20088 | 767 → 270 | 767 → 270 | 846 → 382 | 849 → 382 | 524 → 268 |
//! | teapot | 6320 | 791 → 273 | 791 → 273 | 869 → 363 | 869 → 363 | 524 → 268 |
//! | turbineblade | 199034 | 757 → 268 | 757 → 268 | 651 → 389 | 651 → 389 | 524 → 268 |
//!
//! (The "before" column had no warm-up build; its code pages add about 40 bytes a triangle on
//! the smallest meshes only. The legacy path keeps the legacy model's own copy of the
//! triangles, 76 bytes a triangle, and the arrays it outgrew; `PQP_MemUsage` says 600 → 344.)
//!
//! Generated models, before → now:
//!
//! | triangles | build s | peak RSS, bytes a triangle | finished RSS, bytes a triangle | load s | build / load |
//! |---|---|---|---|---|---|
//! | 1M | 4.45 → 3.1–4.3 | 1554 → 268 | 538 → 268 | 2.78 → 0.16–0.27 | 1.6 → 16–23× |
//! | 2M | 11.6 → 5.5–8.8 | 1545 → 268 | 529 → 268 | 6.83 → 0.19–0.51 | 1.7 → 17–30× |
//! | 4M | 42.6 → 11.5–17.6 | 1541 → 268 | 525 → 268 | 21.7 → 0.71–0.94 | 2.0 → 16–19× |
//!
//! Loading is mostly the kernel's page faults on the 268 bytes a triangle it writes (copying
//! 255 MB into fresh memory takes 0.17–0.21 s here); the rest runs on two threads, which helps
//! only when the second core is free.

use std::f64::consts::PI;
use std::process::Command;
use std::time::Instant;

use rapidpqp::{Model, Triangle, Vec3};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("one-mesh") => one_mesh(&args[1], &args[2]),
        Some("one-large") => one_large(args[1].parse().expect("triangle count")),
        Some("meshes") => meshes_table(),
        Some("large") => {
            let counts: Vec<usize> = args[1..].iter().map(|a| a.parse().expect("triangle count")).collect();
            large_table(&counts)
        }
        None => {
            meshes_table();
            large_table(&[1_000_000, 2_000_000, 4_000_000]);
        }
        Some(other) => panic!("unknown mode {other}: meshes | large N..."),
    }
}

/// Resident bytes of this process.
fn rss() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: usize = statm.split_whitespace().nth(1).and_then(|w| w.parse().ok()).expect("statm");
    pages * 4096
}

/// Peak resident bytes since the last [`reset_peak`].
fn peak() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).expect("VmHWM");
    let kb: usize = line.split_whitespace().nth(1).and_then(|w| w.parse().ok()).expect("VmHWM");
    kb * 1024
}

fn reset_peak() {
    std::fs::write("/proc/self/clear_refs", "5").expect("reset the peak RSS");
}

/// Runs this program with `args` in a fresh process; its last line of output.
fn child(args: &[&str]) -> String {
    let exe = std::env::current_exe().expect("own path");
    let out = Command::new(exe).args(args).output().expect("run a measurement");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().last().unwrap_or_default().to_string()
}

const APIS: [&str; 4] = ["rust", "native", "pqp", "rapid"];

fn meshes_table() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("meshes");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("meshes/")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".obj"))
        .collect();
    names.sort();
    println!("RSS growth per triangle while one model is built (bytes; fresh process each)\n");
    println!(
        "| mesh | triangles | Rust API | rpq_model_build_indexed | PQP_AddTri + EndModel | RAPID_AddTri + EndModel | memory_bytes | PQP_MemUsage |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for name in names {
        let path = dir.join(&name);
        let path = path.to_str().unwrap();
        let cells: Vec<Vec<String>> =
            APIS.iter().map(|api| child(&["one-mesh", path, api]).split(' ').map(String::from).collect()).collect();
        // Each line: triangles, growth per triangle, memory_bytes per triangle, MemUsage per triangle.
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            name.trim_end_matches(".obj"),
            cells[0][0],
            cells[0][1],
            cells[1][1],
            cells[2][1],
            cells[3][1],
            cells[0][2],
            cells[2][3]
        );
    }
    println!();
}

fn one_mesh(path: &str, api: &str) {
    let mesh = rapidpqp::io::load_obj(path).expect("mesh");
    let n = mesh.faces.len();
    let verts: Vec<f64> = mesh.vertices.iter().flat_map(|v| [v.x, v.y, v.z]).collect();
    let faces: Vec<u32> = mesh.faces.iter().flatten().copied().collect();
    warm_up(api);
    let before = rss();
    let (memory_bytes, mem_usage, keep): (usize, usize, Box<dyn FnOnce()>) = match api {
        "rust" => {
            let m = Model::new(mesh.triangles(), (0..n as i32).collect()).unwrap();
            (m.memory_bytes(), 0, Box::new(move || drop(m)))
        }
        "native" => {
            use rapidpqp::ffi::native::*;
            let mut m = std::ptr::null_mut();
            // SAFETY: arrays of the stated sizes, a writable out pointer.
            let status = unsafe {
                rpq_model_build_indexed(
                    verts.as_ptr(),
                    mesh.vertices.len(),
                    faces.as_ptr(),
                    n,
                    std::ptr::null(),
                    &mut m,
                )
            };
            assert_eq!(status, RPQ_OK);
            // SAFETY: m is live until the closure frees it.
            let bytes = unsafe { rpq_model_memory_bytes(m) };
            (bytes, 0, Box::new(move || unsafe { rpq_model_free(m) }))
        }
        "pqp" => {
            use rapidpqp::ffi::pqp::*;
            let m = PQP_Model_new();
            // SAFETY: m is live; every corner points to 3 doubles.
            unsafe {
                assert_eq!(PQP_BeginModel(m, n as i32), 0);
                for (k, f) in mesh.faces.iter().enumerate() {
                    let c = f.map(|i| [verts[3 * i as usize], verts[3 * i as usize + 1], verts[3 * i as usize + 2]]);
                    assert_eq!(PQP_AddTri(m, c[0].as_ptr(), c[1].as_ptr(), c[2].as_ptr(), k as i32), 0);
                }
                assert_eq!(PQP_EndModel(m), 0);
                let usage = PQP_MemUsage(m, 0) as usize;
                (0, usage, Box::new(move || PQP_Model_delete(m)))
            }
        }
        "rapid" => {
            use rapidpqp::ffi::rapid::*;
            let m = RAPID_model_new();
            // SAFETY: m is live; every corner points to 3 doubles.
            unsafe {
                assert_eq!(RAPID_BeginModel(m), 0);
                for (k, f) in mesh.faces.iter().enumerate() {
                    let mut c =
                        f.map(|i| [verts[3 * i as usize], verts[3 * i as usize + 1], verts[3 * i as usize + 2]]);
                    let [p, q, r] = &mut c;
                    assert_eq!(RAPID_AddTri(m, p.as_mut_ptr(), q.as_mut_ptr(), r.as_mut_ptr(), k as i32), 0);
                }
                assert_eq!(RAPID_EndModel(m), 0);
                (0, 0, Box::new(move || RAPID_model_delete(m)))
            }
        }
        _ => panic!("unknown API {api}"),
    };
    let after = rss();
    if std::env::var_os("RPQ_MALLINFO").is_some() {
        // SAFETY: plain glibc statistics call.
        let mi = unsafe { libc::mallinfo2() };
        eprintln!(
            "heap {} in use {} free {} top-free {} mmapped {} ({} blocks); rss growth {}",
            mi.arena,
            mi.uordblks,
            mi.fordblks,
            mi.keepcost,
            mi.hblkhd,
            mi.hblks,
            after - before
        );
    }
    let per = |b: usize| b as f64 / n as f64;
    println!("{n} {:.0} {:.0} {:.0}", per(after.saturating_sub(before)), per(memory_bytes), per(mem_usage));
    keep();
}

/// Builds and frees a two-triangle model through `api`, so that the code the build runs is
/// paged in (file-backed pages of the program count in its RSS) before the measurement.
fn warm_up(api: &str) {
    let verts = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    let faces = [0u32, 1, 2, 0, 1, 3];
    let corner = |i: u32| [verts[3 * i as usize], verts[3 * i as usize + 1], verts[3 * i as usize + 2]];
    match api {
        "rust" => {
            let tris = faces.chunks(3).map(|f| [0, 1, 2].map(|j| Vec3::from(corner(f[j])))).collect();
            drop(Model::new(tris, vec![0, 1]).unwrap());
        }
        "native" => {
            use rapidpqp::ffi::native::*;
            let mut m = std::ptr::null_mut();
            // SAFETY: arrays of the stated sizes, a writable out pointer.
            assert_eq!(
                unsafe { rpq_model_build_indexed(verts.as_ptr(), 4, faces.as_ptr(), 2, std::ptr::null(), &mut m) },
                RPQ_OK
            );
            // SAFETY: m is live.
            unsafe { rpq_model_free(m) };
        }
        "pqp" => {
            use rapidpqp::ffi::pqp::*;
            let m = PQP_Model_new();
            // SAFETY: m is live; every corner points to 3 doubles.
            unsafe {
                PQP_BeginModel(m, 2);
                for (k, f) in faces.chunks(3).enumerate() {
                    let c = [corner(f[0]), corner(f[1]), corner(f[2])];
                    PQP_AddTri(m, c[0].as_ptr(), c[1].as_ptr(), c[2].as_ptr(), k as i32);
                }
                assert_eq!(PQP_EndModel(m), 0);
                PQP_Model_delete(m);
            }
        }
        _ => {
            use rapidpqp::ffi::rapid::*;
            let m = RAPID_model_new();
            // SAFETY: m is live; every corner points to 3 doubles.
            unsafe {
                RAPID_BeginModel(m);
                for (k, f) in faces.chunks(3).enumerate() {
                    let mut c = [corner(f[0]), corner(f[1]), corner(f[2])];
                    let [p, q, r] = &mut c;
                    RAPID_AddTri(m, p.as_mut_ptr(), q.as_mut_ptr(), r.as_mut_ptr(), k as i32);
                }
                assert_eq!(RAPID_EndModel(m), 0);
                RAPID_model_delete(m);
            }
        }
    }
}

/// A bumpy torus of about `n` triangles (rounded to the grid).
fn bumpy_torus(n: usize) -> Vec<Triangle> {
    let rows = ((n / 2) as f64 / 4.0).sqrt().round().max(2.0) as usize;
    let cols = (n / 2).div_ceil(rows).max(2);
    let p = |i: usize, j: usize| {
        let (u, v) = (2.0 * PI * (i % cols) as f64 / cols as f64, 2.0 * PI * (j % rows) as f64 / rows as f64);
        let bump = 1.0 + 0.05 * (7.0 * u).sin() * (5.0 * v).cos();
        let r = 4.0 + bump * v.cos();
        Vec3::new(r * u.cos(), r * u.sin(), bump * v.sin())
    };
    let mut tris = Vec::with_capacity(2 * rows * cols);
    for i in 0..cols {
        for j in 0..rows {
            tris.push([p(i, j), p(i + 1, j), p(i + 1, j + 1)]);
            tris.push([p(i, j), p(i + 1, j + 1), p(i, j + 1)]);
        }
    }
    tris.truncate(n);
    tris
}

fn large_table(counts: &[usize]) {
    println!("Generated bumpy tori through the Rust API (fresh process each; MB = 10^6 bytes)\n");
    println!(
        "| triangles | build s | peak RSS MB (B/tri) | finished RSS MB (B/tri) | peak / finished | serialized MB | load s | build / load |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for &n in counts {
        let line = child(&["one-large", &n.to_string()]);
        let v: Vec<f64> = line.split(' ').map(|w| w.parse().unwrap()).collect();
        let (build, peak, finished, bytes, load) = (v[0], v[1], v[2], v[3], v[4]);
        let mb = |b: f64| b / 1e6;
        println!(
            "| {n} | {build:.2} | {:.0} ({:.0}) | {:.0} ({:.0}) | {:.2} | {:.0} | {load:.3} | {:.1}× |",
            mb(peak),
            peak / n as f64,
            mb(finished),
            finished / n as f64,
            peak / finished,
            mb(bytes),
            build / load
        );
    }
    println!();
}

fn one_large(n: usize) {
    let base = rss();
    reset_peak();
    let tris = bumpy_torus(n);
    let ids: Vec<i32> = (0..tris.len() as i32).collect();
    let t = Instant::now();
    let model = Model::new(tris, ids).unwrap();
    let build = t.elapsed().as_secs_f64();
    let peak_total = peak().saturating_sub(base);
    let finished = rss().saturating_sub(base);
    let bytes = rapidpqp::serialize::model_to_bytes(&model);
    drop(model);
    let mut loads = Vec::new();
    for _ in 0..3 {
        let t = Instant::now();
        let m = rapidpqp::serialize::model_from_bytes(&bytes).unwrap();
        loads.push(t.elapsed().as_secs_f64());
        assert_eq!(m.num_triangles(), n);
    }
    loads.sort_by(f64::total_cmp);
    println!("{build} {peak_total} {finished} {} {}", bytes.len(), loads[1]);
}
