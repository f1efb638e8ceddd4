//! The `solid` scene (issue 14, "Performance, in the benchmark"): closest points, signed
//! distances, containment and rays per second on the bundled meshes, with the Rust core on
//! one thread and on every core, beside parry3d-f64 and trimesh on the same points and rays
//! with their answers checked against ours; then solid collide and separation per query, and
//! separation depths against exact ones and parry's.
//!
//! "Every core" is the Rust core's batch functions run on contiguous slices of the points,
//! one slice per core, in `std::thread::scope` threads (each slice sorted along its own Morton
//! curve by `closest_points`). trimesh runs as a Python subprocess
//! (`scripts/trimesh_closest_point.py --batch`) in `target/bench-venv`
//! (`scripts/bench_venv.sh`); it times itself, on fewer points.
//!
//! bunny and dragon_100k are open (boundary, non-manifold and misoriented edges), so signed
//! distance and containment run on closed meshes: armadillo_50k, turbineblade and the bunny
//! with its holes filled (`rapidpqp::model::fill_holes`).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

use parry3d_f64::math::{Pose as ParryPose, Vector};
use parry3d_f64::query::{self as parry_query, PointQuery, Ray as ParryRay, RayCast};
use parry3d_f64::shape::{ConvexPolyhedron, TriMesh, Triangle as ParryTriangle};
use rapidpqp::io::load_obj;
use rapidpqp::model::fill_holes;
use rapidpqp::query::{
    ClosestPoint, Ray, RayHit, SolidRelation, Winding, closest_points, contains, ray_any_hits, ray_first_hits,
    separation, signed_distances, solid_collide,
};
use rapidpqp::{Mat3, Model, Placement, Triangle, Vec3};

use crate::peers::parry;
use crate::report::root;
use crate::shapes::{Rng, bounds, cuboid, uv_sphere};
use crate::timing::{Timing, time_passes};

/// Relative tolerance of the answer checks (distances, ray parameters).
const REL: f64 = 1e-9;
/// Absolute tolerance of the distance checks, in units of the coordinates' magnitude: 64
/// rounding units (ours is documented within 32; the peer's rounding adds its own). A point a
/// few µm from a face at coordinates near 100 has a distance known to about 1e-14, far from
/// 1e-9 of itself.
const ULPS: f64 = 64.0 * f64::EPSILON;

/// How many points, rays and repeats a run takes.
struct Sizes {
    repeats: usize,
    /// Points (and rays) for the Rust core and parry.
    points: usize,
    /// Points for trimesh (its first `trimesh` of the same points).
    trimesh: usize,
    /// Points for the brute-force containment (its first `brute` of the same points).
    brute: usize,
}

/// A bundled mesh or one made from it, with our model and parry's meshes.
struct Subject {
    name: String,
    tris: Vec<Triangle>,
    model: Model,
    parry: TriMesh,
    /// Merged and `ORIENTED` (closed meshes only): parry's inside/outside answers.
    parry_oriented: Option<TriMesh>,
    /// The coordinates' magnitude of the mesh and the points sampled around it (the
    /// largest of its bounding box's, plus a tenth of its size).
    scale: f64,
}

impl Subject {
    fn new(name: &str, tris: Vec<Triangle>) -> Subject {
        let model = Model::new(tris.clone(), (0..tris.len() as i32).collect()).expect("model builds");
        let closed = model.solid_facts().closed;
        let (lo, hi) = bounds(&tris);
        Subject {
            scale: lo.amax().max(hi.amax()) + 0.1 * (hi - lo).amax(),
            name: name.into(),
            parry: parry::mesh(&tris),
            parry_oriented: closed.then(|| parry::oriented_mesh(&tris)),
            tris,
            model,
        }
    }

    fn load(name: &str) -> Subject {
        let path = root().join("meshes").join(format!("{name}.obj"));
        let tris = load_obj(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).triangles();
        Subject::new(name, tris)
    }

    fn label(&self) -> String {
        format!("{} ({} tris)", self.name, self.tris.len())
    }
}

/// The cores the "all cores" columns use.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `f` on `threads` contiguous slices of `input` and `out` at once (on this thread when
/// `threads` is 1) and sums the work counts it returns.
fn split<I: Sync, O: Send>(
    threads: usize,
    input: &[I],
    out: &mut [O],
    f: impl Fn(&[I], &mut [O]) -> (u64, u64) + Sync,
) -> (u64, u64) {
    if threads <= 1 {
        return f(input, out);
    }
    let chunk = input.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> =
            input.chunks(chunk).zip(out.chunks_mut(chunk)).map(|(i, o)| s.spawn(|| f(i, o))).collect();
        handles.into_iter().map(|h| h.join().expect("worker")).fold((0, 0), |a, w| (a.0 + w.0, a.1 + w.1))
    })
}

/// Queries per second of a median sweep.
fn rate(t: Timing) -> f64 {
    1e6 / t.median
}

/// A rate as a table shows it: thousands per second (a decimal below 10k, two below 1k).
fn k(rate: f64) -> String {
    let k = rate / 1e3;
    if k >= 10.0 {
        format!("{k:.0}k")
    } else if k >= 1.0 {
        format!("{k:.1}k")
    } else {
        format!("{k:.2}k")
    }
}

fn vector(p: &Vec3) -> Vector {
    Vector::new(p.x, p.y, p.z)
}

/// Whether the distances `a` and `b` agree to [`REL`] relative, or to [`ULPS`] of the
/// coordinates' magnitude `scale`.
fn close(a: f64, b: f64, scale: f64) -> bool {
    (a - b).abs() <= (REL * a.abs().max(b.abs())).max(ULPS * scale)
}

/// "ok" or how many of `n` differ.
fn verdict(differ: usize, n: usize, what: &str) -> String {
    if differ == 0 { format!("ok ({n})") } else { format!("**{differ}/{n} {what}**") }
}

/// Points whose distances `ours` and `theirs` (magnitudes, one per point) disagree, settled
/// by brute force on up to 100 of them: the least distance to every triangle, each projected
/// by parry's single-triangle routine (independent of both answers). Returns "" when all
/// agree, else what the brute force found.
fn settle(tris: &[Triangle], points: &[Vec3], ours: &[f64], theirs: &[f64], scale: f64) -> String {
    let close = |a: f64, b: f64| close(a, b, scale);
    let differ: Vec<usize> = (0..theirs.len()).filter(|&i| !close(ours[i].abs(), theirs[i].abs())).collect();
    if differ.is_empty() {
        return String::new();
    }
    let triangles: Vec<ParryTriangle> =
        tris.iter().map(|t| ParryTriangle::new(vector(&t[0]), vector(&t[1]), vector(&t[2]))).collect();
    let checked = &differ[..differ.len().min(100)];
    let (mut ours_off, mut theirs_farther, mut theirs_nearer) = (0, 0, 0);
    for &i in checked {
        let v = vector(&points[i]);
        let brute = triangles
            .iter()
            .map(|t| (t.project_local_point(v, false).point - v).length())
            .fold(f64::INFINITY, f64::min);
        ours_off += usize::from(!close(ours[i].abs(), brute));
        theirs_farther += usize::from(theirs[i].abs() > brute && !close(theirs[i].abs(), brute));
        theirs_nearer += usize::from(theirs[i].abs() < brute && !close(theirs[i].abs(), brute));
    }
    format!(
        " (brute force on {}: ours off at {ours_off}; theirs farther than the nearest triangle at {theirs_farther}, nearer at {theirs_nearer})",
        checked.len()
    )
}

/// Points where a peer's inside/outside answer differs from ours (`inside`), settled by the
/// brute-force parity count on up to 100 of them. Returns "" when none differ.
fn settle_sides(tris: &[Triangle], points: &[Vec3], inside: &[bool], theirs: &[bool]) -> String {
    let differ: Vec<usize> = (0..theirs.len()).filter(|&i| inside[i] != theirs[i]).collect();
    if differ.is_empty() {
        return String::new();
    }
    let checked = &differ[..differ.len().min(100)];
    let agree = checked.iter().filter(|&&i| parity_inside(tris, &points[i]) == inside[i]).count();
    format!(" (brute parity on {}: agrees with ours at {agree})", checked.len())
}

/// trimesh, run by `scripts/trimesh_closest_point.py --batch` in `target/bench-venv`.
struct Trimesh {
    python: PathBuf,
    dir: PathBuf,
}

impl Trimesh {
    /// The venv's Python when `scripts/bench_venv.sh` made it; else why not.
    fn find() -> Result<Trimesh, String> {
        let python = root().join("target/bench-venv/bin/python");
        if !python.exists() {
            return Err("target/bench-venv is missing (scripts/bench_venv.sh makes it; needs PyPI)".into());
        }
        let dir = root().join("target/bench-trimesh");
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(Trimesh { python, dir })
    }

    /// trimesh's answer for each point (`query`: closest, signed or contains; see the
    /// script), the seconds it took and trimesh's version.
    fn run(&self, query: &str, tris: &[Triangle], points: &[Vec3]) -> Result<(Vec<f64>, f64, String), String> {
        let bytes = |xs: &mut dyn Iterator<Item = f64>| xs.flat_map(f64::to_le_bytes).collect::<Vec<u8>>();
        let (t, p, o) = (self.dir.join("triangles.f64"), self.dir.join("points.f64"), self.dir.join("out.f64"));
        std::fs::write(&t, bytes(&mut tris.iter().flatten().flat_map(|v| [v.x, v.y, v.z])))
            .map_err(|e| e.to_string())?;
        std::fs::write(&p, bytes(&mut points.iter().flat_map(|v| [v.x, v.y, v.z]))).map_err(|e| e.to_string())?;
        let out = Command::new(&self.python)
            .arg(root().join("scripts/trimesh_closest_point.py"))
            .args(["--batch", query])
            .args([&t, &p, &o])
            .output()
            .map_err(|e| format!("python: {e}"))?;
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let last = stderr.lines().last().unwrap_or("").trim();
            return Err(format!("trimesh failed ({}): {last}", out.status));
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        let words: Vec<&str> = stdout.split_whitespace().collect();
        let secs = words.get(1).and_then(|s| s.parse().ok()).ok_or_else(|| format!("trimesh said {stdout:?}"))?;
        let version = words.get(3).unwrap_or(&"?").to_string();
        let raw = std::fs::read(&o).map_err(|e| e.to_string())?;
        let answers = raw.chunks_exact(8).map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes"))).collect();
        Ok((answers, secs, version))
    }
}

/// Runs the scene; returns its CSVs.
pub fn run(quick: bool, repeats: usize) -> Vec<(String, String)> {
    let sizes = if quick {
        Sizes { repeats, points: 50_000, trimesh: 2_000, brute: 1_000 }
    } else {
        Sizes { repeats, points: 200_000, trimesh: 10_000, brute: 4_000 }
    };
    let trimesh = Trimesh::find();
    say!("\n## Solid-model queries (issue 14)\n");
    say!(
        "Points and rays per second (k = thousands), median of {} sweeps. **ours 1** is the Rust core's batch \
         call on one thread; **ours {}** the same batch split into {} contiguous slices run at once in \
         `std::thread::scope` threads (the batched C functions with a thread count are not used yet). parry3d-f64 \
         runs one thread, one call per point. trimesh runs as a Python subprocess (`scripts/trimesh_closest_point.py \
         --batch`) on the first {} of the same points and times itself, once. Checks compare each peer's answer \
         with ours point by point (distances to {REL:e} relative or 64 rounding units of the coordinates' \
         magnitude, ray parameters to {REL:e} relative); bold marks disagreements, settled by brute force on up \
         to 100 of them.",
        sizes.repeats,
        cores(),
        cores(),
        sizes.trimesh
    );
    match &trimesh {
        Ok(_) => {}
        Err(why) => say!("\ntrimesh was not measured: {why}."),
    }

    let bunny = Subject::load("bunny");
    let dragon = Subject::load("dragon_100k");
    let armadillo = Subject::load("armadillo_50k");
    let turbine = Subject::load("turbineblade");
    let filled = Subject::new("bunny filled", fill_holes(&bunny.tris));
    for s in [&bunny, &dragon, &armadillo, &turbine, &filled] {
        let f = s.model.solid_facts();
        eprintln!("solid: {} closed {} ({} boundary edges)", s.name, f.closed, f.boundary_edges);
    }

    let mut csvs = Vec::new();
    let tm = trimesh.as_ref().ok();
    // The issue's meshes (bunny and dragon open) and the closed ones.
    let (issue, closed) = ([&bunny, &dragon, &armadillo], [&armadillo, &filled, &turbine]);
    csvs.push(("solid_closest.csv".into(), distance_table(Distance::Closest, &issue, &sizes, tm)));
    csvs.push(("solid_signed.csv".into(), distance_table(Distance::Signed, &closed, &sizes, tm)));
    csvs.push(("solid_contains.csv".into(), contains_table(&closed, &sizes, tm)));
    csvs.push(("solid_rays.csv".into(), ray_table(&issue, &sizes)));
    csvs.push(("solid_pairs.csv".into(), pair_table(&filled, &armadillo, &sizes)));
    csvs
}

/// The point sets of a mesh: box grown by 10 % and near the surface.
fn point_sets(s: &Subject, n: usize) -> [(&'static str, Vec<Vec3>); 2] {
    let mut rng = Rng(0x5eed_0f90_1700 ^ s.tris.len() as u64);
    [("box +10 %", rng.box_points(&s.tris, n)), ("near surface", rng.near_points(&s.tris, n))]
}

/// Times our batch `query` on `input` into `out` on one thread and on every core; returns
/// the two rates and the work counts of one pass.
fn time_ours<I: Sync, O: Send>(
    repeats: usize,
    input: &[I],
    out: &mut [O],
    query: impl Fn(&[I], &mut [O]) -> (u64, u64) + Sync,
) -> (f64, f64, (u64, u64)) {
    let n = input.len();
    let mut work = (0, 0);
    let one = rate(time_passes(repeats, n, || work = split(1, input, out, &query)));
    let all = rate(time_passes(repeats, n, || {
        split(cores(), input, out, &query);
    }));
    (one, all, work)
}

/// Closest-point distances or signed distances.
#[derive(Clone, Copy, PartialEq)]
enum Distance {
    Closest,
    Signed,
}

/// Compares distances (signed: their signs too) with ours and settles the disagreements.
fn check_distances(s: &Subject, points: &[Vec3], ours: &[f64], theirs: &[f64], query: Distance) -> String {
    let n = ours.len().min(theirs.len());
    let magnitude = ours.iter().zip(theirs).filter(|(a, b)| !close(a.abs(), b.abs(), s.scale)).count();
    let what = if query == Distance::Signed { "magnitudes differ" } else { "differ" };
    let mut check = verdict(magnitude, n, what) + &settle(&s.tris, points, ours, theirs, s.scale);
    if query == Distance::Signed {
        let inside: Vec<bool> = ours.iter().map(|d| *d < 0.0).collect();
        let theirs_inside: Vec<bool> = theirs.iter().map(|d| *d < 0.0).collect();
        let sign = inside.iter().zip(&theirs_inside).filter(|(a, b)| a != b).count();
        check += &if sign == 0 { "; signs ok".to_string() } else { format!("; **{sign} signs differ**") };
        check += &settle_sides(&s.tris, points, &inside, &theirs_inside);
    }
    check
}

fn distance_table(query: Distance, subjects: &[&Subject], sizes: &Sizes, trimesh: Option<&Trimesh>) -> String {
    let threads = cores();
    match query {
        Distance::Closest => {
            say!("\n### Closest point\n");
            say!(
                "parry: `TriMesh::project_local_point(p, solid = false)`; trimesh: `trimesh.proximity.closest_point`. \
                 Work: box and triangle tests per point of ours (1 thread)."
            );
        }
        Distance::Signed => {
            say!("\n### Signed distance (closed meshes)\n");
            say!(
                "Ours: `signed_distances` (closest point, then the exact winding number; negative inside). parry: \
                 `project_local_point(p, solid = true)` on a TriMesh built with `MERGE_DUPLICATE_VERTICES | ORIENTED` \
                 (inside decided by its pseudo-normals); distance |p − projection|. trimesh: \
                 `trimesh.proximity.signed_distance` (positive inside: compared as its negation). Checks: magnitudes, \
                 then signs."
            );
        }
    }
    say!();
    say!(
        "| mesh | points | ours 1 /s | ours {threads} /s | box / tri tests | parry /s | ours 1 / parry | parry check | trimesh /s | ours 1 / trimesh | trimesh check |"
    );
    say!("|---|---|---|---|---|---|---|---|---|---|---|");
    let mut csv = String::from("mesh,points,n,ours_1,ours_all,threads,box_tests,tri_tests,parry,trimesh,trimesh_n\n");
    for s in subjects {
        let parry_mesh = match query {
            Distance::Closest => &s.parry,
            Distance::Signed => s.parry_oriented.as_ref().expect("a closed mesh"),
        };
        for (kind, points) in point_sets(s, sizes.points) {
            let n = points.len();
            let (ours1, ours_all, work, ours) = match query {
                Distance::Closest => {
                    let mut out = vec![None::<ClosestPoint>; n];
                    let (one, all, work) = time_ours(sizes.repeats, &points, &mut out, |p, o| {
                        let w = closest_points(&s.model, p, f64::INFINITY, o).expect("valid points");
                        (w.bv_tests, w.tri_tests)
                    });
                    (one, all, work, out.iter().map(|c| c.expect("no bound").distance).collect::<Vec<f64>>())
                }
                Distance::Signed => {
                    let mut out = vec![0.0; n];
                    let (one, all, work) = time_ours(sizes.repeats, &points, &mut out, |p, o| {
                        signed_distances(&s.model, p, o, None).expect("a closed model")
                    });
                    (one, all, work, out)
                }
            };
            let mut theirs = vec![0.0; n];
            let parry_rate = rate(time_passes(sizes.repeats, n, || {
                for (p, d) in points.iter().zip(&mut theirs) {
                    let v = vector(p);
                    let proj = parry_mesh.project_local_point(v, query == Distance::Signed);
                    let distance = (proj.point - v).length();
                    *d = if proj.is_inside && query == Distance::Signed { -distance } else { distance };
                }
            }));
            let parry_check = check_distances(s, &points, &ours, &theirs, query);
            let script_query = if query == Distance::Signed { "signed" } else { "closest" };
            let (tm_rate, tm_check) = match trimesh.map(|t| t.run(script_query, &s.tris, &points[..sizes.trimesh])) {
                Some(Ok((d, secs, _))) => {
                    // trimesh's signed distances are positive inside.
                    let d: Vec<f64> = if query == Distance::Signed { d.iter().map(|x| -x).collect() } else { d };
                    (Some(d.len() as f64 / secs), check_distances(s, &points, &ours, &d, query))
                }
                Some(Err(e)) => (None, e),
                None => (None, "—".into()),
            };
            let (b, t) = (work.0 as f64 / n as f64, work.1 as f64 / n as f64);
            say!(
                "| {} | {kind} | {} | {} | {b:.1} / {t:.1} | {} | {:.1}× | {parry_check} | {} | {} | {tm_check} |",
                s.label(),
                k(ours1),
                k(ours_all),
                k(parry_rate),
                ours1 / parry_rate,
                tm_rate.map_or("—".into(), k),
                tm_rate.map_or("—".into(), |r| format!("{:.0}×", ours1 / r)),
            );
            let _ = writeln!(
                csv,
                "{},{kind},{n},{ours1:.0},{ours_all:.0},{threads},{b:.2},{t:.2},{parry_rate:.0},{},{}",
                s.name,
                tm_rate.map_or(String::new(), |r| format!("{r:.0}")),
                sizes.trimesh
            );
        }
    }
    csv
}

/// Brute-force containment: the parity of the crossings of a ray (one fixed, irrational-ish
/// direction) with every triangle, in plain floating point (Möller–Trumbore).
fn parity_inside(tris: &[Triangle], p: &Vec3) -> bool {
    let d = Vec3::new(0.5773502691896258, 0.6180339887498949, 0.5329070518200751);
    let mut inside = false;
    for t in tris {
        let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
        let h = d.cross(&e2);
        let a = e1.dot(&h);
        if a == 0.0 {
            continue;
        }
        let s = (p - t[0]) / a;
        let u = s.dot(&h);
        if !(0.0..=1.0).contains(&u) {
            continue;
        }
        let q = s.cross(&e1);
        let v = d.dot(&q);
        if v < 0.0 || u + v > 1.0 {
            continue;
        }
        if e2.dot(&q) > 0.0 {
            inside = !inside;
        }
    }
    inside
}

fn contains_table(subjects: &[&Subject], sizes: &Sizes, trimesh: Option<&Trimesh>) -> String {
    let threads = cores();
    say!("\n### Containment (closed meshes, points in the box grown by 10 %)\n");
    say!(
        "Ours: `contains` (exact winding numbers). Brute force: the parity of one ray's crossings with every \
         triangle (plain floating point, one thread) on the first {} points. parry: `contains_local_point` on \
         the `ORIENTED` TriMesh (pseudo-normals of the closest feature). trimesh: `mesh.contains` (ray tests) on \
         the first {} points. Checks: inside/outside against ours.",
        sizes.brute,
        sizes.trimesh
    );
    say!();
    say!(
        "| mesh | inside | ours 1 /s | ours {threads} /s | box / tri tests | brute /s | ours 1 / brute | brute check | parry /s | parry check | trimesh /s | trimesh check |"
    );
    say!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut csv = String::from(
        "mesh,n,inside,ours_1,ours_all,threads,box_tests,tri_tests,brute,brute_n,parry,trimesh,trimesh_n\n",
    );
    for s in subjects {
        let points = Rng(0xc0_4a1e ^ s.tris.len() as u64).box_points(&s.tris, sizes.points);
        let n = points.len();
        let mut out = vec![Winding::OnSurface; n];
        let (ours1, ours_all, work) = time_ours(sizes.repeats, &points, &mut out, |p, o| {
            let w = contains(&s.model, p, o).expect("a closed model");
            (w.box_tests, w.triangle_tests)
        });
        let ours: Vec<bool> = out.iter().map(|w| w.is_inside()).collect();
        let inside = ours.iter().filter(|&&i| i).count();

        let some = &points[..sizes.brute];
        let mut brute = vec![false; some.len()];
        let brute_rate = rate(time_passes(1, some.len(), || {
            for (p, b) in some.iter().zip(&mut brute) {
                *b = parity_inside(&s.tris, p);
            }
        }));
        let brute_check = verdict(brute.iter().zip(&ours).filter(|(a, b)| a != b).count(), some.len(), "differ");

        let oriented = s.parry_oriented.as_ref().expect("a closed mesh");
        let mut theirs = vec![false; n];
        let parry_rate = rate(time_passes(sizes.repeats, n, || {
            for (p, b) in points.iter().zip(&mut theirs) {
                *b = oriented.contains_local_point(vector(p));
            }
        }));
        let parry_check = verdict(theirs.iter().zip(&ours).filter(|(a, b)| a != b).count(), n, "differ")
            + &settle_sides(&s.tris, &points, &ours, &theirs);
        let (tm_rate, tm_check) = match trimesh.map(|t| t.run("contains", &s.tris, &points[..sizes.trimesh])) {
            Some(Ok((c, secs, _))) => {
                let theirs: Vec<bool> = c.iter().map(|x| *x != 0.0).collect();
                let differ = theirs.iter().zip(&ours).filter(|(a, b)| a != b).count();
                let check = verdict(differ, c.len(), "differ") + &settle_sides(&s.tris, &points, &ours, &theirs);
                (Some(c.len() as f64 / secs), check)
            }
            Some(Err(e)) => (None, e),
            None => (None, "—".into()),
        };
        say!(
            "| {} | {:.1} % | {} | {} | {:.1} / {:.1} | {} | {:.0}× | {brute_check} | {} | {parry_check} | {} | {tm_check} |",
            s.label(),
            100.0 * inside as f64 / n as f64,
            k(ours1),
            k(ours_all),
            work.0 as f64 / n as f64,
            work.1 as f64 / n as f64,
            k(brute_rate),
            ours1 / brute_rate,
            k(parry_rate),
            tm_rate.map_or("—".into(), k),
        );
        let _ = writeln!(
            csv,
            "{},{n},{inside},{ours1:.0},{ours_all:.0},{threads},{:.2},{:.2},{brute_rate:.0},{},{parry_rate:.0},{},{}",
            s.name,
            work.0 as f64 / n as f64,
            work.1 as f64 / n as f64,
            sizes.brute,
            tm_rate.map_or(String::new(), |r| format!("{r:.0}")),
            sizes.trimesh
        );
    }
    csv
}

fn ray_table(subjects: &[&Subject], sizes: &Sizes) -> String {
    let threads = cores();
    say!("\n### Rays\n");
    say!(
        "Rays from a sphere around the mesh (radius its box's diagonal) towards random points of its box, no \
         length limit. Ours: `ray_first_hits`, `ray_any_hits`. parry: `cast_local_ray(ray, f64::MAX, solid = \
         false)` and `intersects_local_ray`. Checks: hit or miss, and the first hit's t to {REL:e} relative."
    );
    say!();
    say!(
        "| mesh | query | hits | ours 1 /s | ours {threads} /s | box / tri tests | parry /s | ours 1 / parry | parry check |"
    );
    say!("|---|---|---|---|---|---|---|---|---|");
    let mut csv = String::from("mesh,query,n,hits,ours_1,ours_all,threads,box_tests,tri_tests,parry\n");
    for s in subjects {
        let rays: Vec<Ray> = Rng(0x4a75 ^ s.tris.len() as u64)
            .rays(&s.tris, sizes.points)
            .into_iter()
            .map(|(origin, direction)| Ray { origin, direction })
            .collect();
        let parry_rays: Vec<ParryRay> =
            rays.iter().map(|r| ParryRay::new(vector(&r.origin), vector(&r.direction))).collect();
        let n = rays.len();

        let mut first = vec![None::<RayHit>; n];
        let (ours1, ours_all, work) = time_ours(sizes.repeats, &rays, &mut first, |r, o| {
            let w = ray_first_hits(&s.model, r, f64::INFINITY, o).expect("valid rays");
            (w.box_tests, w.triangle_tests)
        });
        let mut theirs = vec![None; n];
        let parry_rate = rate(time_passes(sizes.repeats, n, || {
            for (r, t) in parry_rays.iter().zip(&mut theirs) {
                *t = s.parry.cast_local_ray(r, f64::MAX, false);
            }
        }));
        let hits = first.iter().filter(|h| h.is_some()).count();
        let miss = first.iter().zip(&theirs).filter(|(a, b)| a.is_some() != b.is_some()).count();
        let t_differ = first
            .iter()
            .zip(&theirs)
            .filter(|(a, b)| matches!((a, b), (Some(h), Some(t)) if !close(h.t, *t, 0.0)))
            .count();
        let check = format!("hit/miss {}; t {}", verdict(miss, n, "differ"), verdict(t_differ, hits, "differ"));
        row(&mut csv, s, "first hit", n, hits, (ours1, ours_all), work, parry_rate, &check);

        let mut any = vec![false; n];
        let (ours1, ours_all, work) = time_ours(sizes.repeats, &rays, &mut any, |r, o| {
            let w = ray_any_hits(&s.model, r, f64::INFINITY, o).expect("valid rays");
            (w.box_tests, w.triangle_tests)
        });
        let mut theirs = vec![false; n];
        let parry_rate = rate(time_passes(sizes.repeats, n, || {
            for (r, t) in parry_rays.iter().zip(&mut theirs) {
                *t = s.parry.intersects_local_ray(r, f64::MAX);
            }
        }));
        let own = any.iter().zip(&first).filter(|(a, f)| **a != f.is_some()).count();
        let mut check =
            format!("hit/miss {}", verdict(any.iter().zip(&theirs).filter(|(a, b)| a != b).count(), n, "differ"));
        if own > 0 {
            let _ = write!(check, "; **{own} differ from our first hit**");
        }
        let hits = any.iter().filter(|&&h| h).count();
        row(&mut csv, s, "any hit", n, hits, (ours1, ours_all), work, parry_rate, &check);
    }

    #[allow(clippy::too_many_arguments)]
    fn row(
        csv: &mut String,
        s: &Subject,
        query: &str,
        n: usize,
        hits: usize,
        (ours1, ours_all): (f64, f64),
        work: (u64, u64),
        parry_rate: f64,
        check: &str,
    ) {
        let (b, t) = (work.0 as f64 / n as f64, work.1 as f64 / n as f64);
        say!(
            "| {} | {query} | {:.1} % | {} | {} | {b:.1} / {t:.1} | {} | {:.1}× | {check} |",
            s.label(),
            100.0 * hits as f64 / n as f64,
            k(ours1),
            k(ours_all),
            k(parry_rate),
            ours1 / parry_rate
        );
        let _ = writeln!(
            csv,
            "{},{query},{n},{hits},{ours1:.0},{ours_all:.0},{},{b:.2},{t:.2},{parry_rate:.0}",
            s.name,
            cores()
        );
    }
    csv
}

fn at(translation: Vec3, scale: f64) -> Placement {
    Placement { rotation: Mat3::identity(), translation, scale }
}

fn relation_name(r: SolidRelation) -> &'static str {
    match r {
        SolidRelation::Apart => "apart",
        SolidRelation::SurfacesCross => "surfaces cross",
        SolidRelation::FirstInsideSecond => "1 inside 2",
        SolidRelation::SecondInsideFirst => "2 inside 1",
    }
}

/// A model of `tris` with ids 0..n.
fn model(tris: &[Triangle]) -> Model {
    Model::new(tris.to_vec(), (0..tris.len() as i32).collect()).expect("model builds")
}

/// The depth parry's `contact` finds between the convex hulls of two vertex sets (world
/// coordinates): minus its signed distance.
fn parry_depth(a: &[Triangle], b: &[Triangle]) -> Option<f64> {
    let hull = |t: &[Triangle]| {
        let points: Vec<Vector> = t.iter().flatten().map(vector).collect();
        ConvexPolyhedron::from_convex_hull(&points).expect("a hull")
    };
    let (ha, hb) = (hull(a), hull(b));
    let id = ParryPose::identity();
    parry_query::contact(&id, &ha, &id, &hb, 0.0).ok().flatten().map(|c| -c.dist)
}

fn pair_table(filled: &Subject, armadillo: &Subject, sizes: &Sizes) -> String {
    say!("\n### Solid collide and separation\n");
    say!(
        "µs per query (median of {} runs); box / triangle tests of one query. Separation without a direction: the \
         least depth over its fixed directions refined by pattern search, an upper bound on the penetration \
         depth. Exact depths: boxes (least overlap along the axes) and ideal spheres (r1 + r2 − d; the meshes \
         are inscribed polyhedra, slightly shallower). parry: `contact` between the convex hulls of the same \
         vertices (`ConvexPolyhedron`, GJK/EPA).",
        sizes.repeats
    );
    say!();
    say!(
        "| scene | relation | solid collide µs | box / tri tests | separation µs | directions | box / tri tests | depth | exact | ours / exact | parry depth | ours / parry |"
    );
    say!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut csv = String::from(
        "scene,relation,collide_us,collide_box,collide_tri,separation_us,directions,sep_box,sep_tri,depth,exact,parry\n",
    );

    // A small sphere about the bunny's deepest point on a coarse grid.
    let (lo, hi) = bounds(&filled.tris);
    let grid: Vec<Vec3> = (0..20 * 20 * 20)
        .map(|i| {
            let f = Vec3::new((i % 20) as f64, (i / 20 % 20) as f64, (i / 400) as f64) / 19.0;
            lo + (hi - lo).component_mul(&f)
        })
        .collect();
    let mut sd = vec![0.0; grid.len()];
    signed_distances(&filled.model, &grid, &mut sd, None).expect("closed");
    let deepest = (0..grid.len()).min_by(|&a, &b| sd[a].total_cmp(&sd[b])).expect("a grid");
    let small_sphere = model(&uv_sphere(-sd[deepest] * 0.5, 12, 24));
    let centre = (lo + hi) * 0.5;

    let a_size = {
        let (lo, hi) = bounds(&armadillo.tris);
        hi - lo
    };
    // Two spheres overlapping by 0.3: centres along x (where parry's GJK starts, and finds them
    // touching) and along a generic direction.
    let (r1, r2, d) = (1.0, 0.8, 1.5);
    let (ball1, ball2) = (uv_sphere(r1, 24, 48), uv_sphere(r2, 24, 48));
    let moved = |t: &[Triangle], by: Vec3| -> Vec<Triangle> { t.iter().map(|t| t.map(|p| p + by)).collect() };
    let (along_x, generic) = (Vec3::new(d, 0.0, 0.0), Vec3::new(1.2, 0.8, 0.3).normalize() * d);
    let box1 = cuboid(Vec3::zeros(), Vec3::repeat(2.0));
    let offset = Vec3::new(1.5, 0.3, 0.2);
    let box2 = cuboid(offset, offset + Vec3::repeat(2.0));

    let spheres = format!("UV spheres r {r1} and {r2} ({} tris each), centres {d} apart", ball1.len());
    struct Scene<'a> {
        name: &'a str,
        m1: Model,
        p1: Placement,
        m2: Model,
        p2: Placement,
        exact: Option<f64>,
        parry: Option<f64>,
    }
    let id = Placement::IDENTITY;
    let scenes = [
        Scene {
            name: "small sphere in the filled bunny",
            m1: model(&filled.tris),
            p1: id,
            m2: small_sphere,
            p2: at(grid[deepest], 1.0),
            exact: None,
            parry: None,
        },
        Scene {
            name: "filled bunny in itself ×1.5 about its centre",
            m1: model(&filled.tris),
            p1: id,
            m2: model(&filled.tris),
            p2: at(centre - centre * 1.5, 1.5),
            exact: None,
            parry: None,
        },
        Scene {
            name: "two armadillo_50k, one moved by 20 % of its width",
            m1: model(&armadillo.tris),
            p1: id,
            m2: model(&armadillo.tris),
            p2: at(Vec3::new(0.2 * a_size.x, 0.0, 0.0), 1.0),
            exact: None,
            parry: None,
        },
        Scene {
            name: "two cubes of side 2 overlapping by (0.5, 1.7, 1.8)",
            m1: model(&box1),
            p1: id,
            m2: model(&box2),
            p2: id,
            exact: Some(0.5),
            parry: parry_depth(&box1, &box2),
        },
        Scene {
            name: &format!("{spheres} along x"),
            m1: model(&ball1),
            p1: id,
            m2: model(&ball2),
            p2: at(along_x, 1.0),
            exact: Some(r1 + r2 - d),
            parry: parry_depth(&ball1, &moved(&ball2, along_x)),
        },
        Scene {
            name: &format!("{spheres} along (1.2, 0.8, 0.3)"),
            m1: model(&ball1),
            p1: id,
            m2: model(&ball2),
            p2: at(generic, 1.0),
            exact: Some(r1 + r2 - d),
            parry: parry_depth(&ball1, &moved(&ball2, generic)),
        },
    ];
    for s in &scenes {
        let mut collide = None;
        let t_collide = time_passes(sizes.repeats, 1, || {
            collide = Some(solid_collide(&s.m1, &s.p1, &s.m2, &s.p2).expect("closed models"));
        });
        let c = collide.expect("ran");
        let mut sep = None;
        let t_sep = time_passes(sizes.repeats, 1, || {
            sep = Some(separation(&s.m1, &s.p1, &s.m2, &s.p2, None).expect("closed models"));
        });
        let sep = sep.expect("ran");
        let depth = (-sep.signed_distance).max(0.0);
        let ratio = |x: Option<f64>| match x {
            None => "—".into(),
            Some(x) if x.abs() < 1e-12 => "— (touching, says parry)".into(),
            Some(x) => format!("{:.4}", depth / x),
        };
        let show = |x: Option<f64>| {
            x.map_or("—".into(), |x| if x.abs() < 1e-3 { format!("{x:.1e}") } else { format!("{x:.5}") })
        };
        let depth_shown = if sep.relation.intersecting() {
            format!("{depth:.5}")
        } else {
            format!("apart {:.5}", sep.signed_distance)
        };
        say!(
            "| {} | {} | {:.1} | {} / {} | {:.0} | {} | {} / {} | {depth_shown} | {} | {} | {} | {} |",
            s.name,
            relation_name(c.relation),
            t_collide.median,
            c.bv_tests,
            c.tri_tests,
            t_sep.median,
            sep.directions,
            sep.bv_tests,
            sep.tri_tests,
            show(s.exact),
            ratio(s.exact),
            show(s.parry),
            ratio(s.parry),
        );
        let _ = writeln!(
            csv,
            "{},{},{:.2},{},{},{:.1},{},{},{},{},{},{}",
            s.name,
            relation_name(c.relation),
            t_collide.median,
            c.bv_tests,
            c.tri_tests,
            t_sep.median,
            sep.directions,
            sep.bv_tests,
            sep.tri_tests,
            sep.signed_distance,
            s.exact.map_or(String::new(), |x| x.to_string()),
            s.parry.map_or(String::new(), |x| x.to_string()),
        );
    }
    csv
}
