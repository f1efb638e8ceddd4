//! The legacy C entry points measured beside the originals in the same run. One C harness
//! (`benches/legacy/legacy_bench.c`), linked once with our `librapidpqp.so` and once with the
//! originals' (RAPID 2.01 and PQP 1.3 behind the same C names), serves each scene in two
//! processes; this program asks them for timed passes alternately, with the Rust core on the
//! same queries and FCL in between, so that every side sees the same load. Each row gives both
//! libraries' times, the ratio, both libraries' work counts and answers: checked against the
//! recorded ones on the fixture cases, and ours against the originals' everywhere.

use std::fmt::Write as _;

use rapidpqp::Model;
use rapidpqp::Triangle;
use rapidpqp::query::distance::{DistanceCache, DistanceRequest, distance, tolerance};
use rapidpqp::query::{CollideRequest, CollideResult, ContactPair, TriangleFrame, collide};

use crate::fixture::{Case, Pose, case_dir, pose_of_line};
use crate::harness::{Library, Line, Server};
use crate::peers::{PeerAnswer, PeerQuery, fcl};
use crate::timing::{PassTime, median, time_pass};

/// The fixture cases (conformance cases with the originals' recorded answers).
pub const CASES: [&str; 5] = ["tori", "soup", "bunny_sphere", "separated", "single"];

/// The generated scenes: PQP's falling demo's kind of path, and random poses.
pub const GENERATED: [&str; 2] = ["falling", "random"];

/// The random scene's meshes (`meshes/`): model 1 stays, model 2 takes the random poses.
const RANDOM_MESHES: [&str; 2] = ["rocker_arm.obj", "bunny_15k.obj"];
const FALLING_STEPS: usize = 2400;
const RANDOM_POSES: usize = 2000;

/// Issue 24's targets, same run: original ÷ ours on tori, soup, bunny_sphere and separated
/// (applied to the generated scenes too); on `single`; FCL ÷ ours.
pub const TARGET: f64 = 3.0;
pub const TARGET_SINGLE: f64 = 2.0;
pub const TARGET_FCL: f64 = 5.0;

/// How a scene is timed: alternations of every side (the median is reported) and the
/// shortest pass of ours (the sweep is repeated until a pass takes at least this long).
#[derive(Clone, Copy)]
pub struct Settings {
    pub alternations: usize,
    pub min_pass_ms: f64,
}

/// The queries of every scene, in the harness's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    RapidAll,
    RapidFirst,
    PqpCollideAll,
    PqpCollideFirst,
    PqpDistance,
    PqpTolerance,
}

impl Query {
    pub const ALL: [Query; 6] = [
        Query::RapidAll,
        Query::RapidFirst,
        Query::PqpCollideAll,
        Query::PqpCollideFirst,
        Query::PqpDistance,
        Query::PqpTolerance,
    ];

    /// The name the C harness uses.
    pub fn name(self) -> &'static str {
        match self {
            Query::RapidAll => "RAPID_all",
            Query::RapidFirst => "RAPID_first",
            Query::PqpCollideAll => "PQP_collide_all",
            Query::PqpCollideFirst => "PQP_collide_first",
            Query::PqpDistance => "PQP_distance",
            Query::PqpTolerance => "PQP_tolerance",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Query::RapidAll => "RAPID_Collide all",
            Query::RapidFirst => "RAPID_Collide first",
            Query::PqpCollideAll => "PQP_Collide all",
            Query::PqpCollideFirst => "PQP_Collide first",
            Query::PqpDistance => "PQP_Distance",
            Query::PqpTolerance => "PQP_Tolerance",
        }
    }

    /// FCL's query for this row, when it has one (no tolerance query).
    fn peer(self) -> Option<PeerQuery> {
        match self {
            Query::RapidAll | Query::PqpCollideAll => Some(PeerQuery::CollideAll),
            Query::RapidFirst | Query::PqpCollideFirst => Some(PeerQuery::CollideFirst),
            Query::PqpDistance => Some(PeerQuery::Distance),
            Query::PqpTolerance => None,
        }
    }
}

// ------------------------------------------------------------------------------------------
// Answers

/// One query's answer, as the harness prints it (`answers` lines) and as the Rust core and
/// FCL give it, for comparing them.
#[derive(Clone, Debug, PartialEq)]
enum Answer {
    /// A return code other than OK.
    Failed(String),
    /// All contacts: `count:hash` of the sorted pairs.
    Pairs(String),
    /// First contact (colliding or not), or tolerance (closer or not; `boundary`: the
    /// tolerance is within eps of the distance, so either flag is right).
    Flag {
        value: bool,
        boundary: bool,
    },
    Distance(f64),
}

impl Answer {
    fn parse(query: Query, token: &str) -> Answer {
        if token.starts_with('e') {
            return Answer::Failed(token.to_string());
        }
        match query {
            Query::RapidAll | Query::PqpCollideAll => Answer::Pairs(token.to_string()),
            Query::PqpDistance => Answer::Distance(token.parse().unwrap_or(f64::NAN)),
            _ => Answer::Flag { value: token.starts_with('1'), boundary: token.ends_with('b') },
        }
    }

    /// The `count:hash` form of a sorted pair list (the harness's FNV-1a over the ids).
    fn pairs(pairs: &[ContactPair]) -> Answer {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for p in pairs {
            for byte in (p.id1 as u32).to_le_bytes().into_iter().chain((p.id2 as u32).to_le_bytes()) {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        Answer::Pairs(format!("{}:{hash:016x}", pairs.len()))
    }

    fn flag(value: bool) -> Answer {
        Answer::Flag { value, boundary: false }
    }

    /// Whether two answers agree: distances within eps, flags equal unless on the boundary.
    fn agrees(&self, other: &Answer, eps: f64) -> bool {
        match (self, other) {
            (Answer::Distance(a), Answer::Distance(b)) => (a - b).abs() <= eps,
            (Answer::Flag { value: a, boundary: p }, Answer::Flag { value: b, boundary: q }) => a == b || *p || *q,
            (a, b) => a == b,
        }
    }
}

/// Answers that agreed, of those compared.
#[derive(Clone, Copy, Default)]
pub struct Agreement {
    pub agree: usize,
    pub checked: usize,
}

impl Agreement {
    fn ok(self) -> bool {
        self.agree == self.checked
    }
    fn of(a: &[Answer], b: &[Answer], eps: f64) -> Agreement {
        Agreement { agree: a.iter().zip(b).filter(|(a, b)| a.agrees(b, eps)).count(), checked: a.len().min(b.len()) }
    }
    fn cell(self) -> String {
        if self.ok() {
            format!("{}/{}", self.agree, self.checked)
        } else {
            format!("**{}/{}**", self.agree, self.checked)
        }
    }
}

// ------------------------------------------------------------------------------------------
// The sides of a row

/// What one library's harness answered on one query.
struct Checked {
    bv_tests: f64,
    tri_tests: f64,
    /// Against the record (fixture cases).
    record: Option<Agreement>,
    failed_calls: usize,
    answers: Vec<Answer>,
}

impl Checked {
    fn of(server: &Server, query: Query) -> Result<Checked, String> {
        let check = server
            .query_line("check", query.name())
            .ok_or_else(|| format!("{:?} harness: no check line for {}", server.library, query.name()))?;
        let answers = server.query_line("answers", query.name()).map_or(Vec::new(), |l| {
            l.text("values").split(',').filter(|t| !t.is_empty()).map(|t| Answer::parse(query, t)).collect()
        });
        let checked = check.number("checked") as usize;
        Ok(Checked {
            bv_tests: check.number("bv_tests"),
            tri_tests: check.number("tri_tests"),
            record: (checked > 0).then(|| Agreement { agree: check.number("agree") as usize, checked }),
            failed_calls: check.number("failed") as usize,
            answers,
        })
    }
}

/// The Rust core on a scene's queries, the warm start kept as PQP keeps it in its models.
struct RustCore {
    a: Model,
    b: Model,
    poses: Vec<Pose>,
    /// The PQP_Tolerance queries: pose and tolerance.
    tolerances: Vec<(usize, f64)>,
    cache: DistanceCache,
    result: CollideResult,
    /// The last distance, or the last tolerance answer (1: closer).
    last: f64,
}

impl RustCore {
    fn new(input: PeersInput) -> RustCore {
        let ids = |n: usize| (0..n as i32).collect();
        let (na, nb) = (input.a.len(), input.b.len());
        RustCore {
            a: Model::new(input.a, ids(na)).expect("model 1 builds"),
            b: Model::new(input.b, ids(nb)).expect("model 2 builds"),
            poses: input.poses,
            tolerances: input.tolerances,
            cache: DistanceCache::default(),
            result: CollideResult::new(),
            last: f64::NAN,
        }
    }

    fn request(query: Query) -> CollideRequest {
        let first = matches!(query, Query::RapidFirst | Query::PqpCollideFirst);
        // RAPID decides touching contacts in model 2's frame, PQP in model 1's.
        let frame = if matches!(query, Query::RapidAll | Query::RapidFirst) {
            TriangleFrame::Model2
        } else {
            TriangleFrame::Model1
        };
        CollideRequest { first_contact: first, frame, ..Default::default() }
    }

    /// Makes query number i; its answer is read by [`RustCore::answer`].
    fn call(&mut self, query: Query, i: usize) -> Result<(), String> {
        match query {
            Query::PqpDistance => {
                let (p1, p2) = &self.poses[i];
                let request = DistanceRequest { qsize: 2, ..Default::default() };
                let d = distance(&self.a, p1, &self.b, p2, &request, Some(&mut self.cache));
                self.last = d.map(|d| d.distance).map_err(|e| e.to_string())?;
            }
            Query::PqpTolerance => {
                let (pose, t) = self.tolerances[i];
                let (p1, p2) = &self.poses[pose];
                let r = tolerance(&self.a, p1, &self.b, p2, t, 2, Some(&mut self.cache));
                self.last = f64::from(u8::from(r.map_err(|e| e.to_string())?.closer));
            }
            _ => {
                let (p1, p2) = &self.poses[i];
                collide(&self.a, p1, &self.b, p2, &Self::request(query), &mut self.result)
                    .map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }

    /// The answer of the last call.
    fn answer(&self, query: Query) -> Answer {
        match query {
            Query::PqpDistance => Answer::Distance(self.last),
            Query::PqpTolerance => Answer::flag(self.last != 0.0),
            Query::RapidFirst | Query::PqpCollideFirst => Answer::flag(!self.result.pairs.is_empty()),
            _ => {
                let mut pairs = self.result.pairs.clone();
                pairs.sort_unstable();
                Answer::pairs(&pairs)
            }
        }
    }

    fn queries(&self, query: Query) -> usize {
        if query == Query::PqpTolerance { self.tolerances.len() } else { self.poses.len() }
    }

    fn answers(&mut self, query: Query) -> Vec<Answer> {
        (0..self.queries(query))
            .map(|i| match self.call(query, i) {
                Ok(()) => self.answer(query),
                Err(e) => Answer::Failed(e),
            })
            .collect()
    }

    /// One timed pass: `repeats` sweeps.
    fn pass(&mut self, query: Query, repeats: usize) -> PassTime {
        let n = self.queries(query);
        time_pass(repeats * n, || {
            for _ in 0..repeats {
                for i in 0..n {
                    let _ = std::hint::black_box(self.call(query, i));
                }
            }
        })
    }
}

/// FCL on a scene's meshes and poses.
struct FclPeer {
    a: fcl::Mesh,
    b: fcl::Mesh,
    poses: fcl::Poses,
}

impl FclPeer {
    fn new(a: &[Triangle], b: &[Triangle], poses: &[Pose]) -> Option<FclPeer> {
        Some(FclPeer { a: fcl::Mesh::new(a)?, b: fcl::Mesh::new(b)?, poses: fcl::Poses::new(poses) })
    }

    /// FCL's answers against ours: "ok", or where they differ (FCL's distance within 1e-9
    /// relative; its negative distance of intersecting models taken for our 0).
    fn check(&self, query: PeerQuery, ours: &[Answer]) -> String {
        let (theirs, dupes) = fcl::answers(&self.a, &self.b, &self.poses, query);
        let (mut differ, mut negative, mut worst) = (0, 0, 0.0f64);
        for (t, o) in theirs.iter().zip(ours) {
            let same = match (t, o) {
                (PeerAnswer::Distance(t), Answer::Distance(o)) if *t < 0.0 && *o == 0.0 => {
                    negative += 1;
                    true
                }
                (PeerAnswer::Distance(t), Answer::Distance(o)) => {
                    let scale = t.abs().max(o.abs()).max(f64::MIN_POSITIVE);
                    worst = worst.max((t - o).abs() / scale);
                    (t - o).abs() <= 1e-9 * scale
                }
                (PeerAnswer::Colliding(t), Answer::Flag { value, .. }) => t == value,
                (PeerAnswer::Pairs(t), o) => Answer::pairs(t) == *o,
                _ => false,
            };
            differ += usize::from(!same);
        }
        let mut check = if differ == 0 {
            "ok".to_string()
        } else if query == PeerQuery::Distance {
            format!("distance differs at {differ}/{} poses (worst rel. {worst:.1e})", theirs.len())
        } else {
            format!("answer differs at {differ}/{} poses", theirs.len())
        };
        if negative > 0 {
            check += &format!("; {negative} intersecting poses: FCL < 0, ours 0");
        }
        if dupes > 0 {
            check += &format!("; FCL reported {dupes} pairs twice");
        }
        check
    }
}

// ------------------------------------------------------------------------------------------
// Measuring a scene

/// One side's pass at each alternation.
#[derive(Clone, Default)]
pub struct Samples(Vec<PassTime>);

impl Samples {
    /// µs per query in CPU time: the median pass, the fastest.
    fn median(&self) -> f64 {
        median(&mut self.cpu())
    }
    fn min(&self) -> f64 {
        self.0.iter().map(|p| p.cpu_us).fold(f64::NAN, f64::min)
    }
    fn cpu(&self) -> Vec<f64> {
        self.0.iter().map(|p| p.cpu_us).collect()
    }
    /// The median pass in wall time.
    fn wall_median(&self) -> f64 {
        median(&mut self.0.iter().map(|p| p.wall_us).collect::<Vec<_>>())
    }
    /// The median over the alternations of self ÷ other.
    fn ratio_to(&self, other: &Samples) -> f64 {
        median(&mut self.0.iter().zip(&other.0).map(|(a, b)| a.cpu_us / b.cpu_us).collect::<Vec<_>>())
    }
}

/// One row: a scene and query through each library, the Rust core and FCL.
pub struct Row {
    pub scene: String,
    pub query: Query,
    pub queries: usize,
    /// The 1-minute load average when the scene started.
    pub load: String,
    /// Sweeps per pass.
    pub repeats: usize,
    pub target: f64,
    ours: Checked,
    pub ours_us: Samples,
    originals: Option<(Checked, Samples)>,
    /// Ours against the originals, answer by answer.
    same: Option<Agreement>,
    rust: Option<(Samples, Agreement)>,
    fcl: Option<(Samples, String)>,
}

impl Row {
    pub fn originals_us(&self) -> Option<&Samples> {
        self.originals.as_ref().map(|(_, s)| s)
    }
    /// The median over the alternations of original ÷ ours (the two passes of one
    /// alternation ran back to back), and the ratio of the fastest passes.
    pub fn ratio(&self) -> Option<(f64, f64)> {
        let orig = self.originals_us()?;
        Some((orig.ratio_to(&self.ours_us), orig.min() / self.ours_us.min()))
    }
    fn fcl_ratio(&self) -> Option<f64> {
        let (fcl, _) = self.fcl.as_ref()?;
        Some(fcl.ratio_to(&self.ours_us))
    }
    fn short(&self) -> bool {
        self.ratio().is_some_and(|(r, _)| r < self.target)
    }
    fn fcl_short(&self) -> bool {
        self.fcl_ratio().is_some_and(|r| r < TARGET_FCL)
    }
}

/// What the Rust core and FCL need of a scene: the two meshes, the poses, and the
/// PQP_Tolerance queries (pose and tolerance).
struct PeersInput {
    a: Vec<Triangle>,
    b: Vec<Triangle>,
    poses: Vec<Pose>,
    tolerances: Vec<(usize, f64)>,
}

/// What a scene is, and how its harness starts.
enum Scene {
    Fixture(&'static str),
    Falling,
    Random,
}

impl Scene {
    fn of(name: &str) -> Scene {
        match name {
            "falling" => Scene::Falling,
            "random" => Scene::Random,
            _ => Scene::Fixture(CASES.into_iter().find(|c| *c == name).expect("a fixture case")),
        }
    }

    fn serve_args(&self) -> Vec<String> {
        match self {
            Scene::Fixture(case) => vec!["fixture".into(), case_dir(case).to_string_lossy().into_owned()],
            Scene::Falling => vec!["falling".into(), FALLING_STEPS.to_string()],
            Scene::Random => {
                let mesh = |m: &str| crate::report::root().join("meshes").join(m).to_string_lossy().into_owned();
                vec!["random".into(), mesh(RANDOM_MESHES[0]), mesh(RANDOM_MESHES[1]), RANDOM_POSES.to_string()]
            }
        }
    }

    fn target(&self) -> f64 {
        if matches!(self, Scene::Fixture("single")) { TARGET_SINGLE } else { TARGET }
    }

    /// The meshes, poses and tolerance queries for the Rust core and FCL (the falling
    /// scene's tori exist in the harness only: it goes without them).
    fn peers_input(&self, server: &Server) -> Option<PeersInput> {
        match self {
            Scene::Fixture(case) => {
                let case = Case::load(case);
                let tolerances = case.tolerance_queries();
                Some(PeersInput { a: case.a, b: case.b, poses: case.poses, tolerances })
            }
            Scene::Falling => None,
            Scene::Random => {
                let load = |m: &str| {
                    rapidpqp::io::load_obj(crate::report::root().join("meshes").join(m))
                        .unwrap_or_else(|e| panic!("{m}: {e}"))
                        .triangles()
                };
                let poses: Vec<Pose> = server
                    .lines_of("pose")
                    .map(|l| {
                        let v: Vec<f64> = l.text("values").split(',').map(|x| x.parse().unwrap_or(f64::NAN)).collect();
                        pose_of_line(&v)
                    })
                    .collect();
                let tolerance = server.lines_of("scene").next().map_or(f64::NAN, |l| l.number("tolerance"));
                let tolerances = (0..poses.len()).map(|i| (i, tolerance)).collect();
                Some(PeersInput { a: load(RANDOM_MESHES[0]), b: load(RANDOM_MESHES[1]), poses, tolerances })
            }
        }
    }
}

/// What a scene run gives besides its rows: the harness's `scene` and `phases` lines.
pub struct SceneInfo {
    pub name: String,
    pub scene: Option<Line>,
    pub phases: Option<Line>,
    pub originals_phases: Option<Line>,
}

/// Measures one scene (a fixture case, `falling` or `random`); appends its rows and any
/// failures (our answers wrong, a harness that could not run). `originals`: whether the
/// originals' harness is there.
pub fn run_scene(
    name: &str,
    settings: Settings,
    originals: bool,
    rows: &mut Vec<Row>,
    failures: &mut Vec<String>,
) -> Option<SceneInfo> {
    let scene = Scene::of(name);
    let load = crate::report::load_average().split(' ').next().unwrap_or("?").to_string();
    let args = scene.serve_args();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut ours = match Server::start(Library::Ours, &args) {
        Ok(s) => s,
        Err(why) => {
            failures.push(format!("{name}: legacy C entry points not measured: {why}"));
            return None;
        }
    };
    let mut orig = if originals {
        Server::start(Library::Originals, &args)
            .map_err(|why| failures.push(format!("{name}: the originals' harness did not start: {why}")))
            .ok()
    } else {
        None
    };
    let scene_line = ours.lines_of("scene").next();
    let eps = scene_line.map_or(0.0, |l| l.number("eps"));
    let scene_name = scene_line.map_or(name.to_string(), |l| l.text("name").to_string());
    let mut rust = scene.peers_input(&ours).map(|input| {
        let fcl = FclPeer::new(&input.a, &input.b, &input.poses);
        (RustCore::new(input), fcl)
    });
    for query in Query::ALL {
        let checked = match Checked::of(&ours, query) {
            Ok(c) => c,
            Err(why) => {
                failures.push(format!("{name}: {why}"));
                continue;
            }
        };
        if checked.record.is_some_and(|r| !r.ok()) {
            failures.push(format!("{name} {}: ours disagrees with the record (MISMATCH lines above)", query.name()));
        }
        if checked.failed_calls > 0 {
            failures.push(format!("{name} {}: {} of our calls failed", query.name(), checked.failed_calls));
        }
        let orig_checked = orig.as_ref().and_then(|o| Checked::of(o, query).ok());
        let same = orig_checked.as_ref().map(|o| Agreement::of(&checked.answers, &o.answers, eps));
        let rust_agreement = rust.as_mut().map(|(core, _)| Agreement::of(&core.answers(query), &checked.answers, eps));
        if rust_agreement.is_some_and(|a| !a.ok()) {
            failures.push(format!("{name} {}: the Rust core disagrees with our C entry point", query.name()));
        }
        let fcl_check = rust
            .as_ref()
            .and_then(|(_, fcl)| Some((fcl.as_ref()?, query.peer()?)))
            .map(|(fcl, peer)| fcl.check(peer, &checked.answers));
        let timed = alternate(
            query,
            &checked,
            &mut ours,
            orig.as_mut(),
            rust.as_mut().map(|(core, fcl)| (core, fcl.as_ref())),
            settings,
        );
        let (repeats, [ours_us, orig_us, rust_us, fcl_us]) = match timed {
            Ok(t) => t,
            Err(why) => {
                failures.push(format!("{name} {}: {why}", query.name()));
                continue;
            }
        };
        rows.push(Row {
            scene: scene_name.clone(),
            query,
            queries: checked.answers.len(),
            load: load.clone(),
            repeats,
            target: scene.target(),
            ours: checked,
            ours_us,
            originals: orig_checked.zip(orig.as_ref().map(|_| orig_us)),
            same,
            rust: rust_agreement.map(|a| (rust_us, a)),
            fcl: fcl_check.map(|check| (fcl_us, check)),
        });
    }
    Some(SceneInfo {
        name: scene_name,
        scene: ours.lines.iter().position(|l| l.kind == "scene").map(|k| ours.lines.swap_remove(k)),
        phases: ours.lines.iter().position(|l| l.kind == "phases").map(|k| ours.lines.swap_remove(k)),
        originals_phases: orig
            .as_mut()
            .and_then(|o| o.lines.iter().position(|l| l.kind == "phases").map(|k| o.lines.swap_remove(k))),
    })
}

/// Times one query on every side, alternately: after one untimed pass each (the warm-up, and
/// ours's time per sweep, which sets the sweeps per pass), `settings.alternations` rounds of
/// one pass each, in the order ours, originals, Rust core, FCL and reversed in every other
/// round. Returns the sweeps per pass and the samples of ours, the originals, the Rust core
/// and FCL (empty for a side that is not there).
fn alternate(
    query: Query,
    checked: &Checked,
    ours: &mut Server,
    mut orig: Option<&mut Server>,
    mut rust: Option<(&mut RustCore, Option<&FclPeer>)>,
    settings: Settings,
) -> Result<(usize, [Samples; 4]), String> {
    let n = checked.answers.len().max(1);
    let (warm, _) = ours.pass(query.name(), 1)?;
    let repeats = ((settings.min_pass_ms * 1e3 / (warm.cpu_us * n as f64)).ceil() as usize).clamp(1, 1_000_000);
    let mut samples: [Samples; 4] = Default::default();
    let mut failed = 0;
    for round in 0..=settings.alternations {
        let mut order = [0, 1, 2, 3];
        if round % 2 == 1 {
            order.reverse();
        }
        for side in order {
            // Round 0 is the other sides' untimed warm-up.
            let sweeps = if round == 0 { 1 } else { repeats };
            let us = match side {
                0 if round > 0 => {
                    let (us, f) = ours.pass(query.name(), sweeps)?;
                    failed += f;
                    Some(us)
                }
                1 => match orig.as_deref_mut() {
                    Some(o) => Some(o.pass(query.name(), sweeps)?.0),
                    None => None,
                },
                2 => rust.as_mut().map(|(core, _)| core.pass(query, sweeps)),
                3 => rust.as_ref().and_then(|(_, fcl)| {
                    let (fcl, peer) = (fcl.as_ref()?, query.peer()?);
                    let calls = sweeps * fcl.poses.len();
                    Some(time_pass(calls, || fcl::sweep(&fcl.a, &fcl.b, &fcl.poses, peer, sweeps)))
                }),
                _ => None,
            };
            if let (Some(us), true) = (us, round > 0) {
                samples[side].0.push(us);
            }
        }
    }
    if failed > 0 {
        return Err(format!("{failed} of our calls failed in the timed passes"));
    }
    Ok((repeats, samples))
}

// ------------------------------------------------------------------------------------------
// Tables

fn us(x: f64) -> String {
    if x.is_nan() {
        "—".into()
    } else if x < 1.0 {
        format!("{x:.3}")
    } else if x < 10.0 {
        format!("{x:.2}")
    } else if x < 100.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.0}")
    }
}

/// "median (min)".
fn samples_cell(s: &Samples) -> String {
    format!("{} ({})", us(s.median()), us(s.min()))
}

/// The paragraph that opens the legacy tables.
pub fn preamble(settings: Settings, originals: &Result<std::path::PathBuf, String>) {
    say!("\n## Legacy C entry points beside the originals, same run\n");
    say!(
        "One C harness (`benches/legacy/legacy_bench.c`), compiled once and linked twice: with our \
         `target/release/librapidpqp.so` (**ours**) and with the originals' library, RAPID 2.01 and PQP 1.3 behind the \
         same C names (`../shared/reference/originals/lib/librapidpqp.so`, **orig**). Each serves the scene in its own \
         process; the benchmark asks the two for timed passes alternately, with the Rust core on the same queries \
         (**Rust**) and FCL 0.7 (OBBRSS) in between: {} rounds, the order reversed every other round, after one untimed \
         pass each. A pass repeats the sweep over all poses until ours takes at least {} ms. µs per query in the timing \
         thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`: the time a side waits for a core while other engineers' builds \
         run does not count; wall times are in the CSV), median of the rounds (fastest round in brackets). **orig / ours**: the median over the rounds of the two back-to-back \
         passes' ratio (above 1: ours is faster); target {TARGET}× (tori, soup, bunny_sphere, separated, and here \
         the generated scenes), {TARGET_SINGLE}× on single, FCL {TARGET_FCL}× (issue 24); rows short of it are \
         marked. Work: mean BV (box) and triangle tests per query, each library's own counts. Answers: ours and the \
         originals against the recorded ones (fixture cases); ours = orig answer by answer (distances within 1e-12 \
         of the model size; a tolerance flag where the tolerance equals the distance either way); the Rust core \
         against our C entry point.",
        settings.alternations,
        settings.min_pass_ms
    );
    match originals {
        Ok(exe) => say!("\nOriginals: measured (`{}`).", crate::report::shown(exe)),
        Err(why) => say!("\n{why}."),
    }
    if let Some(warning) = crate::harness::stale_library_warning() {
        say!("\n{warning}");
    }
}

/// Prints one table of rows (stdout and report) and appends their CSV lines.
pub fn table(title: &str, rows: &[Row], csv: &mut String) {
    say!("\n### {title}\n");
    say!(
        "| scene | query | n | orig µs | ours µs | orig / ours | Rust µs | FCL µs | FCL / ours | BV tests orig / ours | tri tests orig / ours | answers: ours, orig vs record; ours = orig; Rust = ours |"
    );
    say!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        let ratio = match r.ratio() {
            Some((m, _)) if r.short() => format!("**{m:.2}×** (<{}×)", r.target),
            Some((m, _)) => format!("{m:.2}×"),
            None => "—".into(),
        };
        let fcl_ratio = match r.fcl_ratio() {
            Some(f) if r.fcl_short() => format!("**{f:.2}×** (<{TARGET_FCL}×)"),
            Some(f) => format!("{f:.2}×"),
            None => "—".into(),
        };
        let fcl_ratio = match &r.fcl {
            Some((_, check)) if check != "ok" => format!("{fcl_ratio} (FCL: {check})"),
            _ => fcl_ratio,
        };
        let work = |o: Option<f64>, u: f64| format!("{} / {u:.1}", o.map_or("—".into(), |o| format!("{o:.1}")));
        let orig = r.originals.as_ref().map(|(c, _)| c);
        let record = |c: Option<&Checked>| c.and_then(|c| c.record).map_or("—".into(), Agreement::cell);
        let answers = format!(
            "{}, {}; {}; {}",
            record(Some(&r.ours)),
            record(orig),
            r.same.map_or("—".into(), Agreement::cell),
            r.rust.as_ref().map_or("—".into(), |(_, a)| a.cell())
        );
        say!(
            "| {} | {} | {} | {} | {} | {ratio} | {} | {} | {fcl_ratio} | {} | {} | {answers} |",
            r.scene,
            r.query.label(),
            r.queries,
            r.originals_us().map_or("—".into(), samples_cell),
            samples_cell(&r.ours_us),
            r.rust.as_ref().map_or("—".into(), |(s, _)| samples_cell(s)),
            r.fcl.as_ref().map_or("—".into(), |(s, _)| samples_cell(s)),
            work(orig.map(|c| c.bv_tests), r.ours.bv_tests),
            work(orig.map(|c| c.tri_tests), r.ours.tri_tests),
        );
        let nan = f64::NAN;
        let (ratio_median, ratio_of_mins) = r.ratio().unwrap_or((nan, nan));
        let stat = |s: Option<&Samples>| s.map_or((nan, nan), |s| (s.median(), s.min()));
        let (orig_med, orig_min) = stat(r.originals_us());
        let (ours_med, ours_min) = stat(Some(&r.ours_us));
        let (rust_med, rust_min) = stat(r.rust.as_ref().map(|(s, _)| s));
        let (fcl_med, fcl_min) = stat(r.fcl.as_ref().map(|(s, _)| s));
        let agreement = |a: Option<Agreement>| {
            a.map_or((String::new(), String::new()), |a| (a.agree.to_string(), a.checked.to_string()))
        };
        let (ours_rec, rec_checked) = agreement(r.ours.record);
        let (orig_rec, _) = agreement(orig.and_then(|c| c.record));
        let (same, same_checked) = agreement(r.same);
        let (rust_same, _) = agreement(r.rust.as_ref().map(|(_, a)| *a));
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{orig_med:.5},{orig_min:.5},{ours_med:.5},{ours_min:.5},{ratio_median:.3},{ratio_of_mins:.3},{},{},{rust_med:.5},{rust_min:.5},{fcl_med:.5},{fcl_min:.5},{:.3},{},{:.1},{:.1},{:.1},{:.1},{ours_rec},{orig_rec},{rec_checked},{same},{same_checked},{rust_same},{:.5},{:.5},{}",
            r.scene,
            r.query.name(),
            r.queries,
            r.ours_us.0.len(),
            r.repeats,
            r.target,
            r.short(),
            r.fcl_ratio().unwrap_or(nan),
            r.fcl.as_ref().map_or(String::new(), |(_, c)| c.replace(',', ";")),
            orig.map_or(nan, |c| c.bv_tests),
            orig.map_or(nan, |c| c.tri_tests),
            r.ours.bv_tests,
            r.ours.tri_tests,
            r.originals_us().map_or(nan, Samples::wall_median),
            r.ours_us.wall_median(),
            r.load,
        );
    }
    say!("\nLoad average (1 minute) at each scene's start: {}.", loads(rows));
}

/// The 1-minute load average at each scene's start, as one line.
fn loads(rows: &[Row]) -> String {
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for r in rows {
        if !seen.iter().any(|(scene, _)| *scene == r.scene) {
            seen.push((&r.scene, &r.load));
        }
    }
    seen.iter().map(|(scene, load)| format!("{scene} {load}")).collect::<Vec<_>>().join(", ")
}

pub const CSV_HEADER: &str = "scene,query,queries,alternations,sweeps_per_pass,orig_us,orig_us_min,ours_us,ours_us_min,\
    orig_over_ours,orig_over_ours_of_mins,target,short,rust_us,rust_us_min,fcl_us,fcl_us_min,fcl_over_ours,fcl_check,\
    orig_bv_tests,orig_tri_tests,ours_bv_tests,ours_tri_tests,ours_agree_record,orig_agree_record,record_checked,\
    same_answers,compared,rust_same,orig_wall_us,ours_wall_us,load_average_1min\n";

/// The summary after the tables: the rows short of target, and the originals' disagreements.
pub fn summary(rows: &[Row]) {
    let compared: Vec<&Row> = rows.iter().filter(|r| r.ratio().is_some()).collect();
    let short: Vec<String> = compared
        .iter()
        .filter(|r| r.short())
        .map(|r| format!("{} {} {:.2}× (target {}×)", r.scene, r.query.label(), r.ratio().unwrap().0, r.target))
        .collect();
    if compared.is_empty() {
        say!("\nNo row compared with the originals.");
    } else if short.is_empty() {
        say!("\nEvery row compared with the originals ({}) meets its target.", compared.len());
    } else {
        say!("\n**Short of target** ({} of {} rows): {}.", short.len(), compared.len(), short.join("; "));
    }
    let fcl_short: Vec<String> = rows
        .iter()
        .filter(|r| r.fcl_short())
        .map(|r| format!("{} {} {:.2}×", r.scene, r.query.label(), r.fcl_ratio().unwrap()))
        .collect();
    if !fcl_short.is_empty() {
        say!("\n**FCL rows short of {TARGET_FCL}×** ({}): {}.", fcl_short.len(), fcl_short.join("; "));
    }
    for r in rows {
        let orig_record = r.originals.as_ref().and_then(|(c, _)| c.record);
        if let Some(a) = orig_record.filter(|a| !a.ok()) {
            say!(
                "\nThe originals' library disagrees with its recorded answers on {} {} at {} of {} queries.",
                r.scene,
                r.query.label(),
                a.checked - a.agree,
                a.checked
            );
        }
        if let Some(a) = r.same.filter(|a| !a.ok()) {
            say!(
                "\nOurs and the originals answer differently on {} {} at {} of {} queries{}.",
                r.scene,
                r.query.label(),
                a.checked - a.agree,
                a.checked,
                if r.ours.record.is_some_and(Agreement::ok) { " (ours agrees with the record everywhere)" } else { "" }
            );
        }
    }
}

/// The generated scenes' paragraph: what they are and what the harness saw.
pub fn generated_preamble(infos: &[SceneInfo]) {
    say!(
        "\n**falling**: two tori of 1,332 triangles (37 × 18 segments; radius 1, tube 0.25, and 0.5, tube 0.15), the \
         smaller falling along z from 1.2 to −1.2 through the larger one's hole at a constant speed, its centre 0.25 \
         off the axis, tumbling two turns about a seeded axis, {FALLING_STEPS} steps (made in the harness, seed 20261128), \
         every query at every step, PQP_Tolerance at 0.05 of the model size. The Rust core and FCL do not run on it \
         (its meshes exist in the harness only). **random**: {} fixed, {} at {RANDOM_POSES} seeded random poses: \
         a uniformly random rotation, its bounding-box centre uniform in the first mesh's bounding box grown by the \
         second's bounding radius (random transforms, as FCL's mesh-distance test draws them).",
        RANDOM_MESHES[0],
        RANDOM_MESHES[1]
    );
    for info in infos {
        let Some(p) = &info.phases else { continue };
        let orig = info.originals_phases.as_ref().map_or(String::new(), |o| {
            format!(" (the originals: {} / {} / {})", o.text("contact"), o.text("near"), o.text("apart"))
        });
        say!(
            "- {}: {} poses, {} in contact, {} near (0 < distance ≤ tolerance {}), {} apart by our PQP_Distance{orig}.",
            info.name,
            info.scene.as_ref().map_or("?", |s| s.text("poses")),
            p.text("contact"),
            p.text("near"),
            info.scene.as_ref().map_or("?", |s| s.text("tolerance")),
            p.text("apart"),
        );
    }
}

/// The fixed cost of a call (the `calls` scene): the `single` case's rows in ns per call,
/// both libraries and the Rust core, and how to profile one entry point.
pub fn calls_table(rows: &[Row], settings: Settings, csv: &mut String) {
    say!("\n## Fixed cost of a call: one triangle each (`single`), ns per call\n");
    say!(
        "The `single` case (200 poses of two one-triangle models, about half in contact) swept repeatedly, {} rounds \
         alternating ours, the originals, the Rust core and FCL as above (a pass at least {} ms of ours). ns per \
         call, median of the rounds (fastest in brackets). **C layer**: ours through the C entry point minus the \
         Rust core on the same calls: the handle and pose checks, the result reset and the copies out. Target: \
         ours at most half of the original's (issue 24 item 5).\n",
        settings.alternations,
        settings.min_pass_ms
    );
    say!("| entry point | orig ns | ours ns | orig / ours | Rust core ns | C layer ns | FCL ns |");
    say!("|---|---|---|---|---|---|---|");
    let ns = |s: &Samples| format!("{:.0} ({:.0})", 1e3 * s.median(), 1e3 * s.min());
    for r in rows {
        let ratio = match r.ratio() {
            Some((m, _)) if m < TARGET_SINGLE => format!("**{m:.2}×** (<{TARGET_SINGLE}×)"),
            Some((m, _)) => format!("{m:.2}×"),
            None => "—".into(),
        };
        let layer = r.rust.as_ref().map_or(f64::NAN, |(s, _)| 1e3 * (r.ours_us.median() - s.median()));
        say!(
            "| {} | {} | {} | {ratio} | {} | {layer:.0} | {} |",
            r.query.label(),
            r.originals_us().map_or("—".into(), ns),
            ns(&r.ours_us),
            r.rust.as_ref().map_or("—".into(), |(s, _)| ns(s)),
            r.fcl.as_ref().map_or("—".into(), |(s, _)| ns(s)),
        );
    }
    let exe = |library| crate::harness::legacy_executable(library).map_or("—".into(), |p| crate::report::shown(&p));
    say!(
        "\nTo profile one entry point of either library (the harness takes its passes on stdin):\n\n```sh\n\
         echo 'pass PQP_distance 20000' | valgrind --tool=callgrind {} serve fixture tests/data/conformance/single\n\
         echo 'pass PQP_distance 20000' | valgrind --tool=callgrind {} serve fixture tests/data/conformance/single\n```",
        exe(Library::Ours),
        exe(Library::Originals)
    );
    table("The same rows in µs", rows, csv);
}
