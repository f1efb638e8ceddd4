//! The Rust core's own tables (the benchmark before the legacy C tables): time per query
//! with every box test, work counts and contacts, ratios to the reference figures, the
//! peers parry3d-f64 and FCL on the same queries, build time, and Scenarios I and II.
//!
//! Every collide-all scenario is timed with each box test of [`BoxTest::ALL`] (and the
//! contacts of all of them are checked to be identical); first-contact queries and the peer
//! comparisons use `BoxTest::default()`.

use std::f64::consts::PI;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use rapidpqp::bv::obb::BoxTest;
use rapidpqp::io::load_obj;
use rapidpqp::query::distance::{DistanceCache, DistanceRequest, distance, tolerance};
use rapidpqp::query::{CollideRequest, CollideResult, collide};
use rapidpqp::{Mat3, Model, Placement, Triangle, Vec3};

use crate::fixture::{Pose, case_dir, poses};
use crate::peers::{Answers, PeerQuery, fcl, parry};
use crate::shapes::{bounding_sphere, placement, rot_x, torus, uv_sphere};
use crate::timing::median;

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

pub struct Bench {
    pub repeats: usize,
    rows: Vec<Row>,
    peers: Vec<PeerRow>,
}

#[derive(Clone, Copy)]
enum Query {
    Collide {
        first: bool,
        box_test: BoxTest,
    },
    /// All contacts with each pair's contact geometry (`CollideRequest::geometry`), default
    /// box test: its cost against the plain collide-all row.
    CollideGeometry,
    Distance,
    Tolerance(f64),
}

impl Query {
    fn name(&self) -> String {
        match self {
            Query::Collide { first: false, .. } => "collide all".into(),
            Query::Collide { first: true, .. } => "collide first".into(),
            Query::CollideGeometry => "collide all + geometry".into(),
            Query::Distance => "distance".into(),
            Query::Tolerance(t) => format!("tolerance {t}"),
        }
    }
    fn variant(&self) -> String {
        match self {
            Query::Collide { box_test, .. } => box_test_label(*box_test).into(),
            Query::CollideGeometry => box_test_label(BoxTest::default()).into(),
            _ => "RSS".into(),
        }
    }
    /// First contact with the library's default box test.
    fn first() -> Query {
        Query::Collide { first: true, box_test: BoxTest::default() }
    }
}

impl Bench {
    pub fn new(repeats: usize) -> Bench {
        Bench { repeats, rows: Vec::new(), peers: Vec::new() }
    }

    pub fn has_rows(&self) -> bool {
        !self.rows.is_empty()
    }

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
                        collide(a, p1, b, p2, &request, &mut out).expect("poses in range");
                        (out.bv_tests, out.tri_tests, out.pairs.len() as u64, f64::NAN)
                    }
                    Query::CollideGeometry => {
                        let request = CollideRequest { geometry: true, ..Default::default() };
                        collide(a, p1, b, p2, &request, &mut out).expect("poses in range");
                        (out.bv_tests, out.tri_tests, out.pairs.len() as u64, f64::NAN)
                    }
                    Query::Distance => {
                        let r = distance(a, p1, b, p2, &DistanceRequest::default(), Some(&mut cache)).expect("a pose");
                        (r.bv_tests, r.tri_tests, 0, r.distance)
                    }
                    Query::Tolerance(t) => {
                        let r = tolerance(a, p1, b, p2, t, 2, None).expect("a pose");
                        (r.bv_tests, r.tri_tests, u64::from(r.closer), r.distance)
                    }
                };
                per_query[k] = per_query[k].min(start.elapsed().as_secs_f64() * 1e6);
                if rep == 0 {
                    let record = Instant::now();
                    bv += b_tests;
                    tri += t_tests;
                    contacts += c;
                    if let Query::Collide { .. } | Query::CollideGeometry = query {
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
            if let Some((test0, answers0)) = &first
                && let Some(k) = (0..poses.len()).find(|&k| answers.pairs[k] != answers0.pairs[k])
            {
                eprintln!(
                    "FATAL: {scenario}: box tests {} and {} give different contacts at pose {k} ({} and {} pairs)",
                    box_test_label(*test0),
                    box_test_label(box_test),
                    answers0.pairs[k].len(),
                    answers.pairs[k].len()
                );
                std::process::exit(1);
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
                Some(parry::time(meshes.0, meshes.1, poses, true, repeats))
            }
            _ => Some(parry::time(meshes.0, meshes.1, poses, false, self.repeats)),
        };
        let fcl = fcl_meshes.map(|(fa, fb)| {
            let (timing, check) = fcl::time_and_check(fa, fb, poses, query, ours, self.repeats);
            (timing.median, check)
        });
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

    pub fn print_peers(&self) {
        say!("\n## Peers measured in the same run\n");
        say!(
            "Time per query: median over repeats of the mean over the poses. Ratios: peer / rapidpqp (above 1: rapidpqp is faster)."
        );
        if !fcl::AVAILABLE {
            say!(
                "\nFCL was not measured: it is not installed. Install it with `scripts/install_fcl.sh` \
                 (Debian's libfcl-dev), then rebuild the benchmark."
            );
        }
        say!();
        say!(
            "| scenario | query | box test | rapidpqp µs | reference µs | parry3d-f64 µs | parry / rapidpqp | FCL µs | FCL / rapidpqp | FCL check |"
        );
        say!("|---|---|---|---|---|---|---|---|---|---|");
        for p in &self.peers {
            let reference = p.reference.map_or(String::new(), |(us, what)| format!("{us} ({what})"));
            let (parry, parry_ratio) = p
                .parry_us
                .map_or(("—".into(), "—".into()), |us| (format!("{us:.2}"), format!("{:.2}×", us / p.ours_us)));
            let (fcl, fcl_ratio, check) = match &p.fcl {
                Some((us, check)) => (format!("{us:.2}"), format!("{:.2}×", us / p.ours_us), check.clone()),
                None => ("not measured".into(), "—".into(), "—".into()),
            };
            say!(
                "| {} | {} | {} | {:.2} | {reference} | {parry} | {parry_ratio} | {fcl} | {fcl_ratio} | {check} |",
                p.scenario,
                p.query,
                p.variant,
                p.ours_us
            );
        }
    }

    fn print_scenario(&self, scenario: &str) {
        say!("\n## {scenario}\n");
        say!(
            "| query | BV test | poses | mean µs | median µs | BV tests | tri tests | contacts | reference | ref µs | speed-up |"
        );
        say!("|---|---|---|---|---|---|---|---|---|---|---|");
        for r in self.rows.iter().filter(|r| r.scenario == scenario) {
            let (reference, ref_us, ratio) = match r.reference {
                Some((us, what)) => (what.to_string(), format!("{us:.1}"), format!("{:.2}×", us / r.mean_us)),
                None => ("".into(), "".into(), "".into()),
            };
            say!(
                "| {} | {} | {} | {:.2} | {:.2} | {:.1} | {:.1} | {:.1} | {} | {} | {} |",
                r.query,
                r.variant,
                r.queries,
                r.mean_us,
                r.median_us,
                r.bv_tests,
                r.tri_tests,
                r.contacts,
                reference,
                ref_us,
                ratio
            );
        }
    }

    /// `queries.csv` and `peers.csv`.
    pub fn csv(&self) -> Vec<(String, String)> {
        let mut text = String::from(
            "scenario,query,variant,poses,mean_us,median_us,bv_tests,tri_tests,contacts,reference,reference_us\n",
        );
        for r in &self.rows {
            let (what, us) = r.reference.map_or(("", f64::NAN), |(us, what)| (what, us));
            let _ = writeln!(
                text,
                "{},{},{},{},{:.3},{:.3},{:.1},{:.1},{:.2},{},{}",
                r.scenario,
                r.query,
                r.variant,
                r.queries,
                r.mean_us,
                r.median_us,
                r.bv_tests,
                r.tri_tests,
                r.contacts,
                what,
                us
            );
        }
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
        vec![("queries.csv".into(), text), ("peers.csv".into(), peers)]
    }
}
fn model_from(tris: Vec<Triangle>) -> Model {
    let ids = (0..tris.len() as i32).collect();
    Model::new(tris, ids).expect("model builds")
}

fn load_model(path: &Path) -> (Model, Vec<Triangle>) {
    let tris = load_obj(path).unwrap_or_else(|e| panic!("{e}")).triangles();
    (model_from(tris.clone()), tris)
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
                let dist = |t: f64| {
                    distance(model, &Placement::IDENTITY, model, &at(t), &DistanceRequest::default(), None)
                        .expect("a pose")
                        .distance
                };
                let touching = |t: f64, result: &mut CollideResult| {
                    collide(model, &Placement::IDENTITY, model, &at(t), &first, result).expect("poses in range");
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
    eprintln!(
        "Scenario I: generated {} poses in {:.1} s (cached in {})",
        out.len(),
        started.elapsed().as_secs_f64(),
        cache.display()
    );
    let mut text = String::new();
    for (d, (_, p)) in &out {
        let r = p.rotation;
        let _ = writeln!(
            text,
            "{d} {:e} {:e} {:e} {:e} {:e} {:e} {:e} {:e} {:e} {:e} {:e} {:e}",
            r[(0, 0)],
            r[(0, 1)],
            r[(0, 2)],
            r[(1, 0)],
            r[(1, 1)],
            r[(1, 2)],
            r[(2, 0)],
            r[(2, 1)],
            r[(2, 2)],
            p.translation.x,
            p.translation.y,
            p.translation.z
        );
    }
    let _ = std::fs::create_dir_all(cache.parent().unwrap());
    let _ = std::fs::write(cache, text);
    out
}
/// Build time and the model's own byte count for every bundled mesh; returns `build.csv`.
pub fn build_table() -> String {
    say!("\n## Build\n");
    say!("| mesh | triangles | build ms | bytes/triangle (Model::memory_bytes) |");
    say!("|---|---|---|---|");
    let mut csv = String::from("mesh,triangles,build_ms,bytes_per_triangle\n");
    for path in crate::fixture::meshes() {
        let tris = load_obj(&path).unwrap().triangles();
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
        let ms = median(&mut times);
        say!("| {name} | {} | {ms:.1} | {per:.0} |", tris.len());
        let _ = writeln!(csv, "{name},{},{ms:.2},{per:.1}", tris.len());
    }
    csv
}

/// Every box test on the fixture cases tori, soup and bunny_sphere, with the peers.
pub fn box_tests(bench: &mut Bench) {
    for (case, reference) in [
        ("tori", Some((360.0, "RAPID 0.34–0.38 ms"))),
        ("soup", Some((1950.0, "RAPID 1.9–2.0 ms"))),
        ("bunny_sphere", Some((31.0, "PQP median 31 µs"))),
    ] {
        let dir = case_dir(case);
        let (a, a_tris) = load_model(&dir.join("a.obj"));
        let (b, b_tris) = load_model(&dir.join("b.obj"));
        let (pa, pb) = (parry::mesh(&a_tris), parry::mesh(&b_tris));
        let (fa, fb) = (fcl::Mesh::new(&a_tris), fcl::Mesh::new(&b_tris));
        let f = fa.as_ref().zip(fb.as_ref());
        let poses = poses(case);
        let (row, ours) = bench.run_all_variants(case, &a, &b, &poses, reference);
        bench.peer(row, &ours, (&pa, &pb), f, &poses, PeerQuery::CollideAll);
        if case == "bunny_sphere" {
            // The cost of contact geometry (issue 16) against the plain row above.
            let with_geometry = bench.run(case, &a, &b, &poses, Query::CollideGeometry, None);
            assert!(with_geometry.pairs == ours.pairs, "geometry changed the contacts");
        }
        let ours = bench.run(case, &a, &b, &poses, Query::first(), None);
        bench.peer(bench.rows.len() - 1, &ours, (&pa, &pb), f, &poses, PeerQuery::CollideFirst);
        let distance_reference = (case == "bunny_sphere").then_some((443.0, "PQP 435–451 µs"));
        let ours = bench.run(case, &a, &b, &poses, Query::Distance, distance_reference);
        bench.peer(bench.rows.len() - 1, &ours, (&pa, &pb), f, &poses, PeerQuery::Distance);
        bench.print_scenario(case);
    }
}

/// Two 4,096-triangle tori (R = 1, r = 0.25, 64 × 32) at single poses, with the peers.
pub fn tori_4096(bench: &mut Bench) {
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
    // The same gap with the second torus turned about its axis (0.05 rad, not a multiple of
    // the mesh's 64-fold symmetry): the two models' axes no longer line up, which is what
    // axis-aligned boxes need to bound this gap exactly.
    let turn = *nalgebra::Rotation3::from_axis_angle(&Vec3::z_axis(), 0.05).matrix();
    let gap_turned = vec![(id, placement(turn, Vec3::new(2.6, 0.0, 0.0)))];
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
    let ours = bench.run(s, &t, &t, &gap_turned, Query::Distance, None);
    bench.peer(bench.rows.len() - 1, &ours, p, f, &gap_turned, PeerQuery::Distance);
    bench.run(s, &t, &t, &gap, Query::Tolerance(0.2), Some((1.7, "PQP tolerance 0.2 ≈1.7 µs")));
    bench.repeats /= 20;
    bench.print_scenario(s);
}

/// Scenario II: concentric spheres, 79,600 triangles, radius 1 and 1 + ε.
pub fn spheres(bench: &mut Bench) {
    let inner = model_from(uv_sphere(1.0, 200, 200));
    let rotations: Vec<Pose> = (0..10)
        .map(|k| {
            let axis = nalgebra::Unit::new_normalize(Vec3::new(1.0, 0.3 * k as f64, 0.7));
            (
                Placement::IDENTITY,
                placement(*nalgebra::Rotation3::from_axis_angle(&axis, 0.1 * k as f64).matrix(), Vec3::zeros()),
            )
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

/// Scenario I (Chang, Wang, Kim): two bunny_15k at sphere-method poses; `full`: the paper's
/// 15°/60° sampling instead of 45°/120°. The poses are cached in `cache_dir`.
pub fn scenario1(bench: &mut Bench, full: bool, cache_dir: &Path) {
    let path = crate::report::root().join("meshes/bunny_15k.obj");
    let (model, tris) = load_model(&path);
    let (step_pos, step_rot, tag) = if full { (15.0, 60.0, "full") } else { (45.0, 120.0, "reduced") };
    let cache = cache_dir.join(format!("scenario1_poses_{tag}.txt"));
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
    say!("\n## Scenario I ({tag} sampling: positions every {step_pos}°, orientations every {step_rot}°)\n");
    for d in [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] {
        bench.print_scenario(&format!("Scenario I d={d}%"));
    }
}
