//! rapidpqp benchmark: prints one table per scenario (time per query, work counts,
//! contacts, ratios to the reference figures of RAPID 2.01 and PQP 1.3 measured on this
//! machine kind) and writes the rows as CSV under `benches/results/<machine>/`.
//!
//! Every collide-all scenario is timed with each box test of [`BoxTest::ALL`] (and the
//! contacts of all of them are checked to be identical); first-contact queries and the peer
//! comparisons use `BoxTest::default()`.
//!
//! Peers measured in the same run on the same meshes and poses, printed as ratios:
//! parry3d-f64 always; FCL (BVHModel<OBBRSS>, through the C++ shim of `fcl_shim/`) when
//! `scripts/install_fcl.sh` has installed it (`build.rs` then sets `cfg(has_fcl)`). FCL's
//! answers are checked against ours.
//!
//! Run: `cargo run --release --manifest-path benches/Cargo.toml -- [--full] [--quick]`
//! (`--full`: Scenario I with the paper's 15°/60° sampling instead of 45°/120°;
//! `--quick`: fewer repeats).

use std::f64::consts::PI;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

mod batch;

use rapidpqp::bv::obb::BoxTest;
use rapidpqp::io::load_obj;
use rapidpqp::query::distance::{DistanceCache, DistanceRequest, distance, tolerance};
use rapidpqp::query::{CollideRequest, CollideResult, ContactPair, collide};
use rapidpqp::{Mat3, Model, Placement, Triangle, Vec3};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The name a table gives a box test.
fn box_test_label(test: BoxTest) -> &'static str {
    match test {
        BoxTest::Sat15 => "SAT-15",
        BoxTest::SatLite => "SAT-lite",
        BoxTest::Dual => "Dual",
        BoxTest::SphereSat15 => "Sphere+SAT-15",
    }
}

/// One measured line of a table.
struct Row {
    scenario: String,
    query: String,
    variant: String,
    queries: usize,
    /// Median over repeats of the mean time per query, µs.
    mean_us: f64,
    /// Median over queries of the per-query time (best of the repeats), µs.
    median_us: f64,
    bv_tests: f64,
    tri_tests: f64,
    contacts: f64,
    /// Reference figure and what it is, when the issue gives one.
    reference: Option<(f64, &'static str)>,
}

/// One line of the peers table: our row and the peers' times on the same query and poses.
struct PeerRow {
    scenario: String,
    query: String,
    variant: String,
    ours_us: f64,
    reference: Option<(f64, &'static str)>,
    /// parry3d-f64, µs per query (it has no all-contacts query).
    parry_us: Option<f64>,
    /// FCL, µs per query, and the check of its answers against ours ("ok" or what differs).
    fcl: Option<(f64, String)>,
}

/// What our query answered at each pose (from the first repeat).
#[derive(Default)]
struct Answers {
    /// Collide: the intersecting triangle pairs, sorted.
    pairs: Vec<Vec<ContactPair>>,
    /// Distance: the distance.
    distances: Vec<f64>,
}

/// The query a peer is timed on.
#[derive(Clone, Copy, PartialEq)]
enum PeerQuery {
    CollideFirst,
    CollideAll,
    Distance,
}

struct Bench {
    repeats: usize,
    rows: Vec<Row>,
    peers: Vec<PeerRow>,
}

type Pose = (Placement, Placement);

#[derive(Clone, Copy)]
enum Query {
    Collide { first: bool, box_test: BoxTest },
    Distance,
    Tolerance(f64),
}

impl Query {
    fn name(&self) -> String {
        match self {
            Query::Collide { first: false, .. } => "collide all".into(),
            Query::Collide { first: true, .. } => "collide first".into(),
            Query::Distance => "distance".into(),
            Query::Tolerance(t) => format!("tolerance {t}"),
        }
    }
    fn variant(&self) -> String {
        match self {
            Query::Collide { box_test, .. } => box_test_label(*box_test).into(),
            _ => "RSS".into(),
        }
    }
    /// First contact with the library's default box test.
    fn first() -> Query {
        Query::Collide { first: true, box_test: BoxTest::default() }
    }
}

impl Bench {
    /// Times `query` over all poses, `repeats` times; returns what it answered at each pose.
    fn run(
        &mut self,
        scenario: &str,
        a: &Model,
        b: &Model,
        poses: &[Pose],
        query: Query,
        reference: Option<(f64, &'static str)>,
    ) -> Answers {
        let mut out = CollideResult::new();
        let mut per_query = vec![f64::INFINITY; poses.len()];
        let mut sweeps = Vec::new();
        let (mut bv, mut tri, mut contacts) = (0u64, 0u64, 0u64);
        let mut answers = Answers::default();
        for rep in 0..self.repeats {
            let mut cache = DistanceCache::default();
            let sweep = Instant::now();
            // Time spent recording the answers (first repeat), left out of the sweep.
            let mut recording = 0.0;
            for (k, (p1, p2)) in poses.iter().enumerate() {
                let start = Instant::now();
                let (b_tests, t_tests, c, d) = match query {
                    Query::Collide { first, box_test } => {
                        let request = CollideRequest { first_contact: first, box_test, ..Default::default() };
                        collide(a, p1, b, p2, &request, &mut out).unwrap();
                        (out.bv_tests, out.tri_tests, out.pairs.len() as u64, f64::NAN)
                    }
                    Query::Distance => {
                        let r = distance(a, p1, b, p2, &DistanceRequest::default(), Some(&mut cache));
                        (r.bv_tests, r.tri_tests, 0, r.distance)
                    }
                    Query::Tolerance(t) => {
                        let r = tolerance(a, p1, b, p2, t, 2);
                        (r.bv_tests, r.tri_tests, u64::from(r.closer), r.distance)
                    }
                };
                per_query[k] = per_query[k].min(start.elapsed().as_secs_f64() * 1e6);
                if rep == 0 {
                    let record = Instant::now();
                    bv += b_tests;
                    tri += t_tests;
                    contacts += c;
                    if let Query::Collide { .. } = query {
                        let mut pairs = out.pairs.clone();
                        pairs.sort_unstable();
                        answers.pairs.push(pairs);
                    } else {
                        answers.distances.push(d);
                    }
                    recording += record.elapsed().as_secs_f64();
                }
            }
            sweeps.push((sweep.elapsed().as_secs_f64() - recording) * 1e6 / poses.len() as f64);
        }
        let n = poses.len() as f64;
        self.rows.push(Row {
            scenario: scenario.into(),
            query: query.name(),
            variant: query.variant(),
            queries: poses.len(),
            mean_us: median(&mut sweeps),
            median_us: median(&mut per_query),
            bv_tests: bv as f64 / n,
            tri_tests: tri as f64 / n,
            contacts: contacts as f64 / n,
            reference,
        });
        answers
    }

    /// Collide all contacts with every box test of `BoxTest::ALL`; aborts unless all find the
    /// same contacts at every pose. Returns the index of the default box test's row and its
    /// answers.
    fn run_all_variants(
        &mut self,
        scenario: &str,
        a: &Model,
        b: &Model,
        poses: &[Pose],
        reference: Option<(f64, &'static str)>,
    ) -> (usize, Answers) {
        let mut default = None;
        let mut first: Option<(BoxTest, Answers)> = None;
        for box_test in BoxTest::ALL {
            let answers = self.run(scenario, a, b, poses, Query::Collide { first: false, box_test }, reference);
            if let Some((test0, answers0)) = &first {
                if let Some(k) = (0..poses.len()).find(|&k| answers.pairs[k] != answers0.pairs[k]) {
                    eprintln!(
                        "FATAL: {scenario}: box tests {} and {} give different contacts at pose {k} ({} and {} pairs)",
                        box_test_label(*test0),
                        box_test_label(box_test),
                        answers0.pairs[k].len(),
                        answers.pairs[k].len()
                    );
                    std::process::exit(1);
                }
            }
            if box_test == BoxTest::default() {
                default = Some(self.rows.len() - 1);
            }
            if first.is_none() {
                first = Some((box_test, answers));
            }
        }
        let answers = first.map(|(_, a)| a).unwrap_or_default();
        (default.expect("BoxTest::default() is in BoxTest::ALL"), answers)
    }

    /// Times the peers on the query of our row `row` (same meshes and poses) and checks
    /// FCL's answers against `ours`. parry3d-f64 has no all-contacts query.
    #[allow(clippy::too_many_arguments)]
    fn peer(
        &mut self,
        row: usize,
        ours: &Answers,
        meshes: (&parry3d_f64::shape::TriMesh, &parry3d_f64::shape::TriMesh),
        fcl_meshes: Option<(&fcl::Mesh, &fcl::Mesh)>,
        poses: &[Pose],
        query: PeerQuery,
    ) {
        let parry_us = match query {
            PeerQuery::CollideAll => None,
            // parry's distance takes up to 0.3 s per fixture pose: one sweep over hundreds of
            // poses is plenty of samples (a single-pose scene keeps its repeats: a lone cold
            // run would be timed otherwise).
            PeerQuery::Distance => {
                let repeats = if poses.len() >= 100 { 1 } else { self.repeats };
                Some(parry::time(meshes.0, meshes.1, poses, true, repeats).0)
            }
            _ => Some(parry::time(meshes.0, meshes.1, poses, false, self.repeats).0),
        };
        let fcl = fcl_meshes.map(|(fa, fb)| fcl::time_and_check(fa, fb, poses, query, ours, self.repeats));
        let r = &self.rows[row];
        let name = match query {
            PeerQuery::CollideFirst => format!("{} (parry: intersection_test)", r.query),
            _ => r.query.clone(),
        };
        self.peers.push(PeerRow {
            scenario: r.scenario.clone(),
            query: name,
            variant: r.variant.clone(),
            ours_us: r.mean_us,
            reference: r.reference,
            parry_us,
            fcl,
        });
    }

    fn print_peers(&self) {
        println!("\n## Peers measured in the same run\n");
        println!("Time per query: median over repeats of the mean over the poses. Ratios: peer / rapidpqp (above 1: rapidpqp is faster).");
        if !fcl::AVAILABLE {
            println!(
                "\nFCL was not measured: it is not installed. Install it with `scripts/install_fcl.sh` \
                 (Debian's libfcl-dev), then rebuild the benchmark."
            );
        }
        println!();
        println!(
            "| scenario | query | box test | rapidpqp µs | reference µs | parry3d-f64 µs | parry / rapidpqp | FCL µs | FCL / rapidpqp | FCL check |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|");
        for p in &self.peers {
            let reference = p.reference.map_or(String::new(), |(us, what)| format!("{us} ({what})"));
            let (parry, parry_ratio) =
                p.parry_us.map_or(("—".into(), "—".into()), |us| (format!("{us:.2}"), format!("{:.2}×", us / p.ours_us)));
            let (fcl, fcl_ratio, check) = match &p.fcl {
                Some((us, check)) => (format!("{us:.2}"), format!("{:.2}×", us / p.ours_us), check.clone()),
                None => ("not measured".into(), "—".into(), "—".into()),
            };
            println!(
                "| {} | {} | {} | {:.2} | {reference} | {parry} | {parry_ratio} | {fcl} | {fcl_ratio} | {check} |",
                p.scenario, p.query, p.variant, p.ours_us
            );
        }
    }

    fn print_scenario(&self, scenario: &str) {
        println!("\n## {scenario}\n");
        println!(
            "| query | BV test | poses | mean µs | median µs | BV tests | tri tests | contacts | reference | ref µs | speed-up |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|---|");
        for r in self.rows.iter().filter(|r| r.scenario == scenario) {
            let (reference, ref_us, ratio) = match r.reference {
                Some((us, what)) => (what.to_string(), format!("{us:.1}"), format!("{:.2}×", us / r.mean_us)),
                None => ("".into(), "".into(), "".into()),
            };
            println!(
                "| {} | {} | {} | {:.2} | {:.2} | {:.1} | {:.1} | {:.1} | {} | {} | {} |",
                r.query, r.variant, r.queries, r.mean_us, r.median_us, r.bv_tests, r.tri_tests, r.contacts,
                reference, ref_us, ratio
            );
        }
    }

    fn write_csv(&self, dir: &Path) {
        std::fs::create_dir_all(dir).expect("results dir");
        let mut text = String::from(
            "scenario,query,variant,poses,mean_us,median_us,bv_tests,tri_tests,contacts,reference,reference_us\n",
        );
        for r in &self.rows {
            let (what, us) = r.reference.map_or(("", f64::NAN), |(us, what)| (what, us));
            let _ = writeln!(
                text,
                "{},{},{},{},{:.3},{:.3},{:.1},{:.1},{:.2},{},{}",
                r.scenario, r.query, r.variant, r.queries, r.mean_us, r.median_us, r.bv_tests, r.tri_tests,
                r.contacts, what, us
            );
        }
        std::fs::write(dir.join("queries.csv"), text).expect("write csv");
        // One line per peer measurement: peer is parry3d-f64 or FCL.
        let mut peers = String::from("scenario,query,box_test,rapidpqp_us,peer,peer_us,peer_over_rapidpqp,check\n");
        for p in &self.peers {
            let mut line = |peer: &str, us: f64, check: &str| {
                let _ = writeln!(
                    peers,
                    "{},{},{},{:.3},{peer},{us:.3},{:.3},{}",
                    p.scenario,
                    p.query,
                    p.variant,
                    p.ours_us,
                    us / p.ours_us,
                    check.replace(',', ";")
                );
            };
            if let Some(us) = p.parry_us {
                line("parry3d-f64", us, "");
            }
            if let Some((us, check)) = &p.fcl {
                line("FCL", *us, check);
            }
        }
        std::fs::write(dir.join("peers.csv"), peers).expect("write csv");
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() { f64::NAN } else { v[v.len() / 2] }
}

fn model_from(tris: Vec<Triangle>) -> Model {
    let ids = (0..tris.len() as i32).collect();
    Model::new(tris, ids).expect("model builds")
}

fn load_model(path: &Path) -> (Model, Vec<Triangle>) {
    let tris = load_obj(path).unwrap_or_else(|e| panic!("{e}")).triangles();
    (model_from(tris.clone()), tris)
}

fn fixture_poses(case: &str) -> Vec<Pose> {
    let text = std::fs::read_to_string(root().join("tests/data/conformance").join(case).join("poses.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Vec<f64> = l.split_whitespace().map(|w| w.parse().unwrap()).collect();
            let p = |o: usize| {
                Placement::from_rows(
                    &[[v[o], v[o + 1], v[o + 2]], [v[o + 3], v[o + 4], v[o + 5]], [v[o + 6], v[o + 7], v[o + 8]]],
                    &[v[o + 9], v[o + 10], v[o + 11]],
                    v[o + 12],
                )
            };
            (p(0), p(13))
        })
        .collect()
}

fn placement(rotation: Mat3, translation: Vec3) -> Placement {
    Placement { rotation, translation, scale: 1.0 }
}

fn rot_x(a: f64) -> Mat3 {
    *nalgebra::Rotation3::from_axis_angle(&Vec3::x_axis(), a).matrix()
}

/// Torus of major radius `big`, minor `small`, `n` × `m` grid (2·n·m triangles).
fn torus(big: f64, small: f64, n: usize, m: usize) -> Vec<Triangle> {
    let v = |i: usize, j: usize| {
        let (u, w) = (2.0 * PI * (i % n) as f64 / n as f64, 2.0 * PI * (j % m) as f64 / m as f64);
        Vec3::new((big + small * w.cos()) * u.cos(), (big + small * w.cos()) * u.sin(), small * w.sin())
    };
    let mut tris = Vec::with_capacity(2 * n * m);
    for i in 0..n {
        for j in 0..m {
            tris.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
            tris.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]);
        }
    }
    tris
}

/// UV sphere with `stacks` × `slices` (2·slices·(stacks−1) triangles), as the fixtures'.
fn uv_sphere(r: f64, stacks: usize, slices: usize) -> Vec<Triangle> {
    let ring = |i: usize, j: usize| {
        let (t, p) = (PI * i as f64 / stacks as f64, 2.0 * PI * (j % slices) as f64 / slices as f64);
        Vec3::new(r * (t.sin() * p.cos()), r * (t.sin() * p.sin()), r * t.cos())
    };
    let (north, south) = (Vec3::new(0.0, 0.0, r), Vec3::new(0.0, 0.0, -r));
    let mut tris = Vec::new();
    for j in 0..slices {
        tris.push([north, ring(1, j), ring(1, j + 1)]);
    }
    for i in 1..stacks - 1 {
        for j in 0..slices {
            tris.push([ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)]);
            tris.push([ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)]);
        }
    }
    for j in 0..slices {
        tris.push([ring(stacks - 1, j), south, ring(stacks - 1, j + 1)]);
    }
    tris
}

/// Bounding sphere as the fixtures define it: centre of the bounding box, largest distance.
fn bounding_sphere(tris: &[Triangle]) -> (Vec3, f64) {
    let mut lo = Vec3::repeat(f64::INFINITY);
    let mut hi = Vec3::repeat(f64::NEG_INFINITY);
    for p in tris.iter().flatten() {
        lo = lo.inf(p);
        hi = hi.sup(p);
    }
    let c = (lo + hi) / 2.0;
    (c, tris.iter().flatten().map(|p| (p - c).norm()).fold(0.0, f64::max))
}

/// Scenario I poses (sphere method, Trenkel–Weller–Zachmann; enumeration of
/// conformance/bunny_sphere/NOTES.md), cached in a file: model 2 moved along the ray from the
/// centre until our exact distance equals d (bisection).
fn scenario1_poses(model: &Model, tris: &[Triangle], step_pos: f64, step_rot: f64, cache: &Path) -> Vec<(f64, Pose)> {
    if let Ok(text) = std::fs::read_to_string(cache) {
        let poses: Vec<(f64, Pose)> = text
            .lines()
            .map(|l| {
                let v: Vec<f64> = l.split_whitespace().map(|w| w.parse().unwrap()).collect();
                let r = Mat3::from_row_slice(&v[1..10]);
                (v[0], (Placement::IDENTITY, placement(r, Vec3::new(v[10], v[11], v[12]))))
            })
            .collect();
        if !poses.is_empty() {
            return poses;
        }
    }
    let (c, radius) = bounding_sphere(tris);
    let deg = PI / 180.0;
    let mut positions = Vec::new();
    let mut theta = 0.0;
    while theta <= 180.0 + 1e-9 {
        let mut phi = 0.0;
        while phi < 360.0 - 1e-9 {
            positions.push(Vec3::new(
                (theta * deg).sin() * (phi * deg).cos(),
                (theta * deg).sin() * (phi * deg).sin(),
                (theta * deg).cos(),
            ));
            if theta == 0.0 || theta >= 180.0 - 1e-9 {
                break;
            }
            phi += step_pos;
        }
        theta += step_pos;
    }
    let rz = |a: f64| *nalgebra::Rotation3::from_axis_angle(&Vec3::z_axis(), a * deg).matrix();
    let ry = |a: f64| *nalgebra::Rotation3::from_axis_angle(&Vec3::y_axis(), a * deg).matrix();
    let mut orientations = Vec::new();
    let mut alpha = 0.0;
    while alpha < 360.0 - 1e-9 {
        let mut beta = 0.0;
        while beta <= 180.0 + 1e-9 {
            let mut gamma = 0.0;
            while gamma < 360.0 - 1e-9 {
                orientations.push(rz(alpha) * ry(beta) * rz(gamma));
                gamma += step_rot;
            }
            beta += step_rot;
        }
        alpha += step_rot;
    }
    let mut out = Vec::new();
    let mut result = CollideResult::new();
    let first = CollideRequest { first_contact: true, ..Default::default() };
    let started = Instant::now();
    for d_percent in [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] {
        let d = d_percent / 100.0 * radius;
        for u in &positions {
            for r2 in &orientations {
                let at = |t: f64| placement(*r2, c + u * t - r2 * c);
                let dist = |t: f64| distance(model, &Placement::IDENTITY, model, &at(t), &DistanceRequest::default(), None).distance;
                let touching = |t: f64, result: &mut CollideResult| {
                    collide(model, &Placement::IDENTITY, model, &at(t), &first, result).unwrap();
                    result.colliding()
                };
                // Bracket the first contact along the ray from outside, then bisect.
                let (mut lo, mut hi) = (0.0, 2.5 * radius);
                for _ in 0..50 {
                    let mid = 0.5 * (lo + hi);
                    if touching(mid, &mut result) { lo = mid } else { hi = mid }
                }
                let t = if d == 0.0 {
                    lo
                } else {
                    let (mut lo, mut hi) = (hi, hi + 2.0 * d);
                    for _ in 0..40 {
                        let mid = 0.5 * (lo + hi);
                        if dist(mid) < d { lo = mid } else { hi = mid }
                    }
                    hi
                };
                out.push((d_percent, (Placement::IDENTITY, at(t))));
            }
        }
    }
    eprintln!("Scenario I: generated {} poses in {:.1} s (cached in {})", out.len(), started.elapsed().as_secs_f64(), cache.display());
    let mut text = String::new();
    for (d, (_, p)) in &out {
        let r = p.rotation;
        let _ = writeln!(
            text,
            "{d} {:e} {:e} {:e} {:e} {:e} {:e} {:e} {:e} {:e} {:e} {:e} {:e}",
            r[(0, 0)], r[(0, 1)], r[(0, 2)], r[(1, 0)], r[(1, 1)], r[(1, 2)], r[(2, 0)], r[(2, 1)], r[(2, 2)],
            p.translation.x, p.translation.y, p.translation.z
        );
    }
    let _ = std::fs::create_dir_all(cache.parent().unwrap());
    let _ = std::fs::write(cache, text);
    out
}

fn machine_name() -> String {
    std::env::var("RAPIDPQP_MACHINE").unwrap_or_else(|_| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        format!("{}-{}core", std::env::consts::ARCH, cores)
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let full = args.iter().any(|a| a == "--full");
    let quick = args.iter().any(|a| a == "--quick");
    let mut bench = Bench { repeats: if quick { 3 } else { 7 }, rows: Vec::new(), peers: Vec::new() };
    let results = root().join("benches/results").join(machine_name());
    let batch_scaling = || {
        let dir = root().join("tests/data/conformance/bunny_sphere");
        let (a, b) = (load_obj(&dir.join("a.obj")).unwrap().triangles(), load_obj(&dir.join("b.obj")).unwrap().triangles());
        std::fs::create_dir_all(&results).unwrap();
        batch::scaling(&a, &b, &fixture_poses("bunny_sphere"), &results, if quick { 3 } else { 7 });
    };
    if args.iter().any(|a| a == "--batch-only") {
        batch_scaling();
        return;
    }

    // Build time and memory for every bundled mesh.
    println!("# rapidpqp benchmark ({}, {} repeats)\n\n## Build\n", machine_name(), bench.repeats);
    println!("| mesh | triangles | build ms | bytes/triangle |");
    println!("|---|---|---|---|");
    let mut csv = String::from("mesh,triangles,build_ms,bytes_per_triangle\n");
    let mut names: Vec<PathBuf> = std::fs::read_dir(root().join("meshes"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "obj"))
        .collect();
    names.sort();
    for path in &names {
        let tris = load_obj(path).unwrap().triangles();
        let mut times = Vec::new();
        let mut bytes = 0;
        for _ in 0..3 {
            let start = Instant::now();
            let m = model_from(tris.clone());
            times.push(start.elapsed().as_secs_f64() * 1e3);
            bytes = m.memory_bytes();
        }
        let name = path.file_name().unwrap().to_string_lossy();
        let per = bytes as f64 / tris.len() as f64;
        println!("| {name} | {} | {:.1} | {per:.0} |", tris.len(), median(&mut times));
        let _ = writeln!(csv, "{name},{},{:.2},{per:.1}", tris.len(), median(&mut times));
    }
    std::fs::create_dir_all(&results).unwrap();
    std::fs::write(results.join("build.csv"), csv).unwrap();

    // Fixture cases with the reference figures of the issue.
    for (case, reference) in [
        ("tori", Some((360.0, "RAPID 0.34–0.38 ms"))),
        ("soup", Some((1950.0, "RAPID 1.9–2.0 ms"))),
    ] {
        let dir = root().join("tests/data/conformance").join(case);
        let (a, a_tris) = load_model(&dir.join("a.obj"));
        let (b, b_tris) = load_model(&dir.join("b.obj"));
        let (pa, pb) = (parry::mesh(&a_tris), parry::mesh(&b_tris));
        let (fa, fb) = (fcl::Mesh::new(&a_tris), fcl::Mesh::new(&b_tris));
        let f = fa.as_ref().zip(fb.as_ref());
        let poses = fixture_poses(case);
        let (row, ours) = bench.run_all_variants(case, &a, &b, &poses, reference);
        bench.peer(row, &ours, (&pa, &pb), f, &poses, PeerQuery::CollideAll);
        let ours = bench.run(case, &a, &b, &poses, Query::first(), None);
        bench.peer(bench.rows.len() - 1, &ours, (&pa, &pb), f, &poses, PeerQuery::CollideFirst);
        let ours = bench.run(case, &a, &b, &poses, Query::Distance, None);
        bench.peer(bench.rows.len() - 1, &ours, (&pa, &pb), f, &poses, PeerQuery::Distance);
        bench.print_scenario(case);
    }
    {
        let dir = root().join("tests/data/conformance/bunny_sphere");
        let (a, a_tris) = load_model(&dir.join("a.obj"));
        let (b, b_tris) = load_model(&dir.join("b.obj"));
        let (pa, pb) = (parry::mesh(&a_tris), parry::mesh(&b_tris));
        let (fa, fb) = (fcl::Mesh::new(&a_tris), fcl::Mesh::new(&b_tris));
        let f = fa.as_ref().zip(fb.as_ref());
        let poses = fixture_poses("bunny_sphere");
        let s = "bunny_sphere";
        let (row, ours) = bench.run_all_variants(s, &a, &b, &poses, Some((31.0, "PQP median 31 µs")));
        bench.peer(row, &ours, (&pa, &pb), f, &poses, PeerQuery::CollideAll);
        let ours = bench.run(s, &a, &b, &poses, Query::first(), None);
        bench.peer(bench.rows.len() - 1, &ours, (&pa, &pb), f, &poses, PeerQuery::CollideFirst);
        let ours = bench.run(s, &a, &b, &poses, Query::Distance, Some((443.0, "PQP 435–451 µs")));
        bench.peer(bench.rows.len() - 1, &ours, (&pa, &pb), f, &poses, PeerQuery::Distance);
        bench.print_scenario("bunny_sphere");
    }

    // Torus scenes: two 4,096-triangle tori (R = 1, r = 0.25, 64 × 32).
    {
        let torus_tris = torus(1.0, 0.25, 64, 32);
        let t = model_from(torus_tris.clone());
        let pt = parry::mesh(&torus_tris);
        let ft = fcl::Mesh::new(&torus_tris);
        let f = ft.as_ref().map(|m| (m, m));
        let id = Placement::IDENTITY;
        let linked = vec![(id, placement(rot_x(PI / 2.0), Vec3::new(1.0, 0.0, 0.0)))];
        let coplanar = vec![(id, placement(Mat3::identity(), Vec3::new(1.0, 0.0, 0.0)))];
        let overlapping = vec![(id, placement(rot_x(0.3), Vec3::new(0.6, 0.35, 0.05)))];
        let gap = vec![(id, placement(Mat3::identity(), Vec3::new(2.6, 0.0, 0.0)))];
        let s = "tori 4096";
        let p = (&pt, &pt);
        bench.repeats *= 20;
        let ours = bench.run(s, &t, &t, &linked, Query::first(), Some((1.11, "PQP linked 1.11 µs")));
        bench.peer(bench.rows.len() - 1, &ours, p, f, &linked, PeerQuery::CollideFirst);
        let ours = bench.run(s, &t, &t, &coplanar, Query::first(), Some((12.5, "PQP coplanar 12.5 µs")));
        bench.peer(bench.rows.len() - 1, &ours, p, f, &coplanar, PeerQuery::CollideFirst);
        let (row, ours) = bench.run_all_variants(s, &t, &t, &overlapping, Some((877.0, "PQP overlapping 877 µs")));
        bench.peer(row, &ours, p, f, &overlapping, PeerQuery::CollideAll);
        let ours = bench.run(s, &t, &t, &linked, Query::Distance, Some((5556.0, "PQP linked 5556 µs")));
        bench.peer(bench.rows.len() - 1, &ours, p, f, &linked, PeerQuery::Distance);
        let ours = bench.run(s, &t, &t, &gap, Query::Distance, Some((36.5, "PQP gap 0.1 36.5 µs")));
        bench.peer(bench.rows.len() - 1, &ours, p, f, &gap, PeerQuery::Distance);
        bench.run(s, &t, &t, &gap, Query::Tolerance(0.2), Some((1.7, "PQP tolerance 0.2 ≈1.7 µs")));
        bench.repeats /= 20;
        bench.print_scenario(s);
    }

    // Scenario II: concentric spheres, 79,600 triangles, radius 1 and 1 + ε.
    {
        let inner = model_from(uv_sphere(1.0, 200, 200));
        let rotations: Vec<Pose> = (0..10)
            .map(|k| {
                let axis = nalgebra::Unit::new_normalize(Vec3::new(1.0, 0.3 * k as f64, 0.7));
                (Placement::IDENTITY, placement(*nalgebra::Rotation3::from_axis_angle(&axis, 0.1 * k as f64).matrix(), Vec3::zeros()))
            })
            .collect();
        let saved = bench.repeats;
        bench.repeats = 3;
        for e in 1..=5 {
            let eps = 10f64.powi(-e);
            let outer = model_from(uv_sphere(1.0 + eps, 200, 200));
            let name = format!("spheres ε=1e-{e}");
            bench.run_all_variants(&name, &inner, &outer, &rotations, None);
            if e <= 3 {
                bench.run(&name, &inner, &outer, &rotations[..2], Query::Distance, None);
            }
            bench.print_scenario(&name);
        }
        bench.repeats = saved;
    }

    // Scenario I (Chang, Wang, Kim): two bunny_15k at sphere-method poses.
    {
        let path = root().join("meshes/bunny_15k.obj");
        let (model, tris) = load_model(&path);
        let (step_pos, step_rot, tag) = if full { (15.0, 60.0, "full") } else { (45.0, 120.0, "reduced") };
        let cache = results.join(format!("scenario1_poses_{tag}.txt"));
        let poses = scenario1_poses(&model, &tris, step_pos, step_rot, &cache);
        let saved = bench.repeats;
        bench.repeats = if full { 1 } else { 3 };
        for d in [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] {
            let at_d: Vec<Pose> = poses.iter().filter(|(x, _)| *x == d).map(|(_, p)| *p).collect();
            let reference = match d as i32 {
                0 => Some((94.0, "PQP 94 µs")),
                1 => Some((39.0, "PQP 39 µs")),
                2 => Some((24.0, "PQP 24 µs")),
                5 => Some((11.0, "PQP 11 µs")),
                _ => None,
            };
            bench.run_all_variants(&format!("Scenario I d={d}%"), &model, &model, &at_d, reference);
        }
        bench.repeats = saved;
        println!("\n## Scenario I ({tag} sampling: positions every {step_pos}°, orientations every {step_rot}°)\n");
        for d in [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] {
            bench.print_scenario(&format!("Scenario I d={d}%"));
        }
    }

    batch_scaling();
    nbody_benchmarks(&results, if quick { 3 } else { 5 });

    bench.print_peers();
    bench.write_csv(&results);
    println!("\nCSV written to {}", results.display());
}

/// parry3d-f64, measured in the same run on the same meshes and poses.
mod parry {
    use std::time::Instant;

    use parry3d_f64::math::{Matrix, Pose as ParryPose, Rotation, Vector};
    use parry3d_f64::query;
    use parry3d_f64::shape::TriMesh;
    use rapidpqp::{Placement, Triangle};

    pub fn mesh(tris: &[Triangle]) -> TriMesh {
        let mut vertices = Vec::with_capacity(3 * tris.len());
        let mut indices = Vec::with_capacity(tris.len());
        for (k, t) in tris.iter().enumerate() {
            for p in t {
                vertices.push(Vector::new(p.x, p.y, p.z));
            }
            let k = 3 * k as u32;
            indices.push([k, k + 1, k + 2]);
        }
        TriMesh::new(vertices, indices).expect("parry trimesh")
    }

    fn pose(p: &Placement) -> ParryPose {
        let r = &p.rotation;
        let m = Matrix::from_cols(
            Vector::new(r[(0, 0)], r[(1, 0)], r[(2, 0)]),
            Vector::new(r[(0, 1)], r[(1, 1)], r[(2, 1)]),
            Vector::new(r[(0, 2)], r[(1, 2)], r[(2, 2)]),
        );
        ParryPose::from_parts(Vector::new(p.translation.x, p.translation.y, p.translation.z), Rotation::from_mat3(&m))
    }

    /// Median over repeats of the mean µs per query; `distance` selects the query.
    pub fn time(a: &TriMesh, b: &TriMesh, poses: &[(Placement, Placement)], distance: bool, repeats: usize) -> (f64, f64) {
        let converted: Vec<_> = poses.iter().map(|(p1, p2)| (pose(p1), pose(p2))).collect();
        let mut sweeps = Vec::new();
        let mut checksum = 0.0;
        for _ in 0..repeats {
            let start = Instant::now();
            for (p1, p2) in &converted {
                checksum += if distance {
                    query::distance(p1, a, p2, b).map_or(f64::NAN, |d| d.distance)
                } else {
                    f64::from(u8::from(query::intersection_test(p1, a, p2, b).is_ok_and(|i| i.intersecting)))
                };
            }
            sweeps.push(start.elapsed().as_secs_f64() * 1e6 / converted.len() as f64);
        }
        sweeps.sort_by(f64::total_cmp);
        (sweeps[sweeps.len() / 2], checksum / repeats as f64)
    }
}

/// FCL (BVHModel<OBBRSS<double>>), measured in the same run on the same meshes and poses
/// through the C++ shim `fcl_shim/fcl_shim.cpp`, which `build.rs` compiles when FCL is
/// installed (`scripts/install_fcl.sh`).
#[cfg(has_fcl)]
mod fcl {
    use std::ffi::c_void;
    use std::time::Instant;

    use rapidpqp::query::ContactPair;
    use rapidpqp::{Placement, Triangle};

    use super::{Answers, PeerQuery};

    pub const AVAILABLE: bool = true;

    /// "All contacts": more than any scene of the benchmark has.
    const ALL_CONTACTS: usize = 1 << 40;

    unsafe extern "C" {
        fn fcl_shim_model_new(coords: *const f64, triangles: usize) -> *mut c_void;
        fn fcl_shim_model_free(model: *mut c_void);
        fn fcl_shim_collide(
            m1: *const c_void,
            rot1: *const f64,
            trans1: *const f64,
            m2: *const c_void,
            rot2: *const f64,
            trans2: *const f64,
            max_contacts: usize,
            pairs: *mut i32,
            capacity: usize,
        ) -> usize;
        fn fcl_shim_distance(
            m1: *const c_void,
            rot1: *const f64,
            trans1: *const f64,
            m2: *const c_void,
            rot2: *const f64,
            trans2: *const f64,
        ) -> f64;
    }

    /// An FCL model of a triangle soup; triangle k has id k, as in our models.
    pub struct Mesh(*mut c_void);

    impl Mesh {
        pub fn new(tris: &[Triangle]) -> Option<Mesh> {
            let coords: Vec<f64> = tris.iter().flat_map(|t| t.iter().flat_map(|p| [p.x, p.y, p.z])).collect();
            // SAFETY: `coords` holds 9 numbers per triangle.
            let model = unsafe { fcl_shim_model_new(coords.as_ptr(), tris.len()) };
            if model.is_null() {
                eprintln!("FCL: model build failed ({} triangles)", tris.len());
                None
            } else {
                Some(Mesh(model))
            }
        }
    }

    impl Drop for Mesh {
        fn drop(&mut self) {
            // SAFETY: built by fcl_shim_model_new, freed once.
            unsafe { fcl_shim_model_free(self.0) }
        }
    }

    /// Row-major rotation and translation of a placement (FCL has no scale).
    fn pose(p: &Placement) -> ([f64; 9], [f64; 3]) {
        assert!(p.scale == 1.0, "FCL peer: placements with a scale are not supported");
        let r = &p.rotation;
        let t = &p.translation;
        (
            [r[(0, 0)], r[(0, 1)], r[(0, 2)], r[(1, 0)], r[(1, 1)], r[(1, 2)], r[(2, 0)], r[(2, 1)], r[(2, 2)]],
            [t.x, t.y, t.z],
        )
    }

    type FclPose = (([f64; 9], [f64; 3]), ([f64; 9], [f64; 3]));

    fn collide(a: &Mesh, b: &Mesh, (p1, p2): &FclPose, max: usize, pairs: Option<&mut Vec<i32>>) -> usize {
        let (ptr, cap) = match pairs {
            Some(v) => (v.as_mut_ptr(), v.len() / 2),
            None => (std::ptr::null_mut(), 0),
        };
        // SAFETY: live models; 9 + 3 numbers per placement; `ptr` has room for `cap` pairs.
        unsafe { fcl_shim_collide(a.0, p1.0.as_ptr(), p1.1.as_ptr(), b.0, p2.0.as_ptr(), p2.1.as_ptr(), max, ptr, cap) }
    }

    fn distance(a: &Mesh, b: &Mesh, (p1, p2): &FclPose) -> f64 {
        // SAFETY: live models; 9 + 3 numbers per placement.
        unsafe { fcl_shim_distance(a.0, p1.0.as_ptr(), p1.1.as_ptr(), b.0, p2.0.as_ptr(), p2.1.as_ptr()) }
    }

    /// Median over repeats of the mean µs per query, and the check of FCL's answers against
    /// ours ("ok", or what differs).
    pub fn time_and_check(
        a: &Mesh,
        b: &Mesh,
        poses: &[(Placement, Placement)],
        query: PeerQuery,
        ours: &Answers,
        repeats: usize,
    ) -> (f64, String) {
        let converted: Vec<FclPose> = poses.iter().map(|(p1, p2)| (pose(p1), pose(p2))).collect();
        let max = if query == PeerQuery::CollideAll { ALL_CONTACTS } else { 1 };
        let mut sweeps = Vec::new();
        let mut checksum = 0.0;
        for _ in 0..repeats {
            let start = Instant::now();
            for p in &converted {
                checksum += match query {
                    PeerQuery::Distance => distance(a, b, p),
                    _ => collide(a, b, p, max, None) as f64,
                };
            }
            sweeps.push(start.elapsed().as_secs_f64() * 1e6 / converted.len() as f64);
        }
        std::hint::black_box(checksum);
        sweeps.sort_by(f64::total_cmp);
        let us = sweeps[sweeps.len() / 2];
        let check = match query {
            PeerQuery::Distance => check_distances(a, b, &converted, &ours.distances),
            _ => check_contacts(a, b, &converted, query, &ours.pairs),
        };
        (us, check)
    }

    fn check_contacts(a: &Mesh, b: &Mesh, poses: &[FclPose], query: PeerQuery, ours: &[Vec<ContactPair>]) -> String {
        let (mut differ, mut only_ours, mut only_fcl, mut dupes) = (0usize, 0usize, 0usize, 0usize);
        let mut buffer = Vec::new();
        for (p, ours) in poses.iter().zip(ours) {
            if query == PeerQuery::CollideFirst {
                if (collide(a, b, p, 1, None) > 0) != !ours.is_empty() {
                    differ += 1;
                }
                continue;
            }
            let n = collide(a, b, p, ALL_CONTACTS, None);
            buffer.resize(2 * n, 0);
            collide(a, b, p, ALL_CONTACTS, Some(&mut buffer));
            let mut theirs: Vec<ContactPair> = buffer.chunks_exact(2).map(|c| ContactPair { id1: c[0], id2: c[1] }).collect();
            theirs.sort_unstable();
            let len = theirs.len();
            theirs.dedup();
            dupes += len - theirs.len();
            if theirs != *ours {
                differ += 1;
                only_ours += ours.iter().filter(|c| theirs.binary_search(c).is_err()).count();
                only_fcl += theirs.iter().filter(|c| ours.binary_search(c).is_err()).count();
            }
        }
        let mut check = if differ == 0 {
            "ok".to_string()
        } else if query == PeerQuery::CollideFirst {
            format!("WARNING: colliding or not differs at {differ}/{} poses", poses.len())
        } else {
            format!(
                "WARNING: contacts differ at {differ}/{} poses ({only_ours} pairs only ours, {only_fcl} only FCL's)",
                poses.len()
            )
        };
        if dupes > 0 {
            check += &format!(" (FCL reported {dupes} pairs twice)");
        }
        check
    }

    fn check_distances(a: &Mesh, b: &Mesh, poses: &[FclPose], ours: &[f64]) -> String {
        let (mut differ, mut worst) = (0usize, 0.0f64);
        let mut negative = 0usize;
        for (p, &d) in poses.iter().zip(ours) {
            let theirs = distance(a, b, p);
            if theirs < 0.0 && d == 0.0 {
                // FCL: "if the objects are in collision, the result distance is implementation
                // defined (mostly -1)" when signed distance is off.
                negative += 1;
                continue;
            }
            let err = (theirs - d).abs();
            if err > 1e-9 * d.abs().max(theirs.abs()) {
                differ += 1;
                worst = worst.max(err / d.abs().max(theirs.abs()).max(f64::MIN_POSITIVE));
            }
        }
        let mut check = if differ == 0 {
            "ok (rel. 1e-9)".to_string()
        } else {
            format!("WARNING: distance differs at {differ}/{} poses (worst rel. {worst:.1e})", poses.len())
        };
        if negative > 0 {
            check += &format!("; {negative} intersecting poses: FCL < 0, ours 0");
        }
        check
    }
}

/// FCL not installed: the benchmark runs without that peer (`scripts/install_fcl.sh`).
#[cfg(not(has_fcl))]
mod fcl {
    use rapidpqp::{Placement, Triangle};

    use super::{Answers, PeerQuery};

    pub const AVAILABLE: bool = false;

    pub struct Mesh;

    impl Mesh {
        pub fn new(_: &[Triangle]) -> Option<Mesh> {
            None
        }
    }

    pub fn time_and_check(_: &Mesh, _: &Mesh, _: &[(Placement, Placement)], _: PeerQuery, _: &Answers, _: usize) -> (f64, String) {
        unreachable!("no FCL model without FCL")
    }
}

/// n-body: the V-COLLIDE 2.01 scene (per-frame time against V-COLLIDE's ~114 µs) and larger
/// scenes of moving objects, to show how a frame's cost grows with the number of objects.
fn nbody_benchmarks(results: &Path, repeats: usize) {
    use rapidpqp::nbody::World;

    println!("\n## n-body (V-COLLIDE scene and larger scenes)\n");
    println!("| scene | objects | triangles | frames | µs per frame | candidate pairs per frame | colliding pairs per frame | reference |");
    println!("|---|---|---|---|---|---|---|---|");
    let mut csv = String::from("scene,objects,triangles,frames,us_per_frame,candidates_per_frame,colliding_per_frame\n");
    let mut emit = |name: &str, objects: usize, tris: usize, frames: usize, us: f64, cand: f64, coll: f64, reference: &str| {
        println!("| {name} | {objects} | {tris} | {frames} | {us:.1} | {cand:.1} | {coll:.2} | {reference} |");
        let _ = writeln!(csv, "{name},{objects},{tris},{frames},{us:.2},{cand:.2},{coll:.3}");
    };

    // The recorded V-COLLIDE scene: objects/*.obj, frames.txt (commands and 16·N numbers).
    let scene = root().join("tests/data/vcollide_scene");
    let mut files: Vec<PathBuf> = std::fs::read_dir(scene.join("objects"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "obj"))
        .collect();
    files.sort();
    let objects: Vec<Vec<Triangle>> = files.iter().map(|f| load_obj(f).unwrap().triangles()).collect();
    let total_tris: usize = objects.iter().map(Vec::len).sum();
    let text = std::fs::read_to_string(scene.join("frames.txt")).unwrap();
    let lines: Vec<Vec<String>> = text
        .lines()
        .map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .filter(|w| !w.is_empty() && !w[0].starts_with('#'))
        .collect();
    let mut best = f64::INFINITY;
    let (mut frames, mut cand, mut coll) = (0usize, 0usize, 0usize);
    for _ in 0..repeats {
        let mut world = World::new();
        for tris in &objects {
            let ids = (0..tris.len() as i32).collect();
            world.add_object(tris.clone(), ids).unwrap();
        }
        let start = Instant::now();
        (frames, cand, coll) = (0, 0, 0);
        for words in &lines {
            let id = |k: usize| words[k].parse::<u32>().unwrap();
            match words[0].as_str() {
                "deactivate_pair" => drop(world.deactivate_pair(id(1), id(2))),
                "activate_pair" => drop(world.activate_pair(id(1), id(2))),
                "deactivate" => drop(world.deactivate(id(1))),
                "activate" => drop(world.activate(id(1))),
                _ => {
                    let v: Vec<f64> = words.iter().map(|w| w.parse().unwrap()).collect();
                    for (k, m) in v.chunks_exact(16).enumerate() {
                        let pose = [
                            [m[0], m[1], m[2], m[3]],
                            [m[4], m[5], m[6], m[7]],
                            [m[8], m[9], m[10], m[11]],
                            [m[12], m[13], m[14], m[15]],
                        ];
                        world.set_pose(k as u32, &pose).unwrap();
                    }
                    cand += world.candidates().count();
                    coll += world.collide(true).len();
                    frames += 1;
                }
            }
        }
        best = best.min(start.elapsed().as_secs_f64() * 1e6 / frames as f64);
    }
    emit("vcollide_scene", objects.len(), total_tris, frames, best, cand as f64 / frames as f64, coll as f64 / frames as f64, "V-COLLIDE 2.01 ≈114 µs");

    // Larger scenes: N tori (512 triangles each) drifting in a box sized so that a few percent
    // of the pairs are near each other; 100 frames of coherent motion.
    let piece = torus(0.5, 0.15, 16, 16);
    for n in [50usize, 100, 200, 400, 800] {
        let side = 2.0 * (n as f64).cbrt() * 1.6;
        let mut state = 0x2545f4914f6cdd1du64;
        let mut rnd = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut world = World::new();
        let mut bodies = Vec::new();
        for _ in 0..n {
            world.add_object(piece.clone(), (0..piece.len() as i32).collect()).unwrap();
            let p = Vec3::new(rnd() * side, rnd() * side, rnd() * side);
            let v = Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5) * 0.02;
            let axis = nalgebra::Unit::new_normalize(Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5 + 1e-3));
            bodies.push((p, v, axis, rnd() * 6.0));
        }
        let frames = 100;
        let (mut cand, mut coll) = (0usize, 0usize);
        let start = Instant::now();
        for f in 0..frames {
            for (k, (p, v, axis, phase)) in bodies.iter_mut().enumerate() {
                *p += *v;
                for c in 0..3 {
                    if p[c] < 0.0 || p[c] > side {
                        v[c] = -v[c];
                    }
                }
                let r = nalgebra::Rotation3::from_axis_angle(axis, *phase + 0.01 * f as f64);
                let m = r.matrix();
                let pose = [
                    [m[(0, 0)], m[(0, 1)], m[(0, 2)], p.x],
                    [m[(1, 0)], m[(1, 1)], m[(1, 2)], p.y],
                    [m[(2, 0)], m[(2, 1)], m[(2, 2)], p.z],
                    [0.0, 0.0, 0.0, 1.0],
                ];
                world.set_pose(k as u32, &pose).unwrap();
            }
            cand += world.candidates().count();
            coll += world.collide(true).len();
        }
        let us = start.elapsed().as_secs_f64() * 1e6 / frames as f64;
        emit(&format!("tori x{n}"), n, n * piece.len(), frames, us, cand as f64 / frames as f64, coll as f64 / frames as f64, "");
    }
    let _ = std::fs::write(results.join("nbody.csv"), csv);
}
