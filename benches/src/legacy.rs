//! The fixture cases as relinked programs see them: rapidpqp's legacy C entry points called by
//! the C harness, the Rust core on the same queries, the originals' figures (ORIGINALS.md) and
//! FCL measured in the same run, with the work counts beside the originals' recorded ones.
//! Every answer is checked against the recorded ones before its row is timed.

use std::fmt::Write as _;

use rapidpqp::Model;
use rapidpqp::query::distance::{DistanceCache, DistanceRequest, distance, tolerance};
use rapidpqp::query::{CollideRequest, CollideResult, TriangleFrame, collide};

use crate::fixture::{Case, ContactRecord, Records, case_dir};
use crate::originals::{Figure, SPEED_TARGET, fixture_figure};
use crate::peers::{Answers, PeerQuery, fcl};
use crate::timing::{Timing, time_passes};

/// The fixture cases of ORIGINALS.md.
pub const CASES: [&str; 5] = ["tori", "soup", "bunny_sphere", "separated", "single"];

/// The queries ORIGINALS.md timed on each case.
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

    /// The name the C harness and `originals` use.
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

/// Answers that agreed with the record, of those checked.
#[derive(Clone, Copy, Default)]
pub struct Agreement {
    pub agree: usize,
    pub checked: usize,
}

impl Agreement {
    fn ok(self) -> bool {
        self.checked > 0 && self.agree == self.checked
    }
    fn cell(self) -> String {
        if self.ok() {
            format!("{}/{}", self.agree, self.checked)
        } else {
            format!("**WRONG {}/{}**", self.agree, self.checked)
        }
    }
}

/// What the C harness measured for one query.
struct CEntry {
    timing: Timing,
    agreement: Agreement,
    bv_tests: f64,
    tri_tests: f64,
    orig_bv_tests: f64,
    orig_tri_tests: f64,
}

/// One row of the table: a case and query through each way in.
pub struct Row {
    case: String,
    query: Query,
    queries: usize,
    /// The legacy C entry point from the C harness; None when the harness could not run.
    c: Option<CEntry>,
    rust: Timing,
    rust_agreement: Agreement,
    /// FCL's time and the check of its answers against ours.
    fcl: Option<(Timing, String)>,
    original: Option<&'static Figure>,
}

impl Row {
    fn answers_ok(&self) -> bool {
        self.c.as_ref().is_some_and(|c| c.agreement.ok()) && self.rust_agreement.ok()
    }
    /// original / ours through the C entry point: at the midpoint, and over the range.
    fn speedup(&self) -> Option<(f64, f64, f64)> {
        let (c, f) = (self.c.as_ref()?, self.original?);
        Some((f.original.mid() / c.timing.median, f.original.0 / c.timing.median, f.original.1 / c.timing.median))
    }
}

/// Measures one case; appends its rows and any failures (wrong answers, a harness that
/// could not run).
pub fn run_case(name: &str, passes: usize, rows: &mut Vec<Row>, failures: &mut Vec<String>) {
    let case = Case::load(name);
    let records = case.records();
    let mut c_entries = c_harness(name, passes, failures);
    let ids = |n: usize| (0..n as i32).collect();
    let a = Model::new(case.a.clone(), ids(case.a.len())).expect("model 1 builds");
    let b = Model::new(case.b.clone(), ids(case.b.len())).expect("model 2 builds");
    let core = RustCore { case: &case, records: &records, a: &a, b: &b, eps: 1e-12 * case.size() };
    let mut answers = Answers::default();
    let mut measured = Vec::new();
    for query in Query::ALL {
        let (timing, agreement) = core.measure(query, passes, &mut answers);
        if !agreement.ok() {
            failures.push(format!(
                "{name} {}: the Rust core disagrees with the record ({}/{})",
                query.name(),
                agreement.agree,
                agreement.checked
            ));
        }
        measured.push((query, timing, agreement));
    }
    // FCL once per query kind (its collide all serves the RAPID and the PQP row alike).
    let (fa, fb) = (fcl::Mesh::new(&case.a), fcl::Mesh::new(&case.b));
    let mut fcl_runs: Vec<(PeerQuery, (Timing, String))> = Vec::new();
    if let (Some(fa), Some(fb)) = (&fa, &fb) {
        for peer in [PeerQuery::CollideAll, PeerQuery::CollideFirst, PeerQuery::Distance] {
            fcl_runs.push((peer, fcl::time_and_check(fa, fb, &case.poses, peer, &answers, passes)));
        }
    }
    for (query, rust, rust_agreement) in measured {
        let queries = if query == Query::PqpTolerance { records.tolerances.len() } else { case.poses.len() };
        rows.push(Row {
            case: name.to_string(),
            query,
            queries,
            c: c_entries.remove(query.name()),
            rust,
            rust_agreement,
            fcl: query.peer().and_then(|p| fcl_runs.iter().find(|(q, _)| *q == p)).map(|(_, r)| r.clone()),
            original: fixture_figure(name, query.name()),
        });
    }
}

/// The C harness's rows for a case, by query name.
fn c_harness(name: &str, passes: usize, failures: &mut Vec<String>) -> std::collections::HashMap<&'static str, CEntry> {
    let dir = case_dir(name);
    let mut entries = std::collections::HashMap::new();
    match crate::harness::run(&["--passes", &passes.to_string(), "fixture", &dir.to_string_lossy()]) {
        Err(why) => failures.push(format!("{name}: legacy C entry points not measured: {why}")),
        Ok((lines, ok)) => {
            if !ok {
                failures.push(format!("{name}: the C harness reported disagreements (see MISMATCH lines above)"));
            }
            for line in lines.iter().filter(|l| l.kind == "row") {
                let Some(query) = Query::ALL.into_iter().find(|q| q.name() == line.text("query")) else { continue };
                let agreement =
                    Agreement { agree: line.number("agree") as usize, checked: line.number("checked") as usize };
                entries.insert(
                    query.name(),
                    CEntry {
                        timing: line.timing(),
                        agreement,
                        bv_tests: line.number("bv_tests"),
                        tri_tests: line.number("tri_tests"),
                        orig_bv_tests: line.number("orig_bv_tests"),
                        orig_tri_tests: line.number("orig_tri_tests"),
                    },
                );
            }
        }
    }
    entries
}

/// The Rust core on a case's queries, checked against the records by FORMAT.md's rules.
struct RustCore<'a> {
    case: &'a Case,
    records: &'a Records,
    a: &'a Model,
    b: &'a Model,
    /// 1e-12 of the model size.
    eps: f64,
}

impl RustCore<'_> {
    /// Checks `query` at every pose (or tolerance line), then times it. The all-contacts pairs
    /// of PQP_Collide and the distances are kept in `answers` for FCL's check.
    fn measure(&self, query: Query, passes: usize, answers: &mut Answers) -> (Timing, Agreement) {
        let (a, b, poses) = (self.a, self.b, &self.case.poses);
        match query {
            Query::RapidAll | Query::RapidFirst | Query::PqpCollideAll | Query::PqpCollideFirst => {
                let rapid = matches!(query, Query::RapidAll | Query::RapidFirst);
                let first = matches!(query, Query::RapidFirst | Query::PqpCollideFirst);
                let (recorded, all): (&[ContactRecord], &[ContactRecord]) = match query {
                    Query::RapidAll => (&self.records.rapid_all, &self.records.rapid_all),
                    Query::RapidFirst => (&self.records.rapid_first, &self.records.rapid_all),
                    Query::PqpCollideAll => (&self.records.pqp_all, &self.records.pqp_all),
                    _ => (&self.records.pqp_first, &self.records.pqp_all),
                };
                // RAPID decides touching contacts in model 2's frame, PQP in model 1's.
                let frame = if rapid { TriangleFrame::Model2 } else { TriangleFrame::Model1 };
                let request = CollideRequest { first_contact: first, frame, ..Default::default() };
                let mut result = CollideResult::new();
                let mut agreement = Agreement::default();
                for (k, (p1, p2)) in poses.iter().enumerate() {
                    collide(a, p1, b, p2, &request, &mut result).expect("poses in range");
                    let mut pairs = result.pairs.clone();
                    pairs.sort_unstable();
                    // A first contact must be one of the recorded contacts of its library.
                    let ok = if first {
                        pairs.len() == recorded[k].pairs.len()
                            && pairs.iter().all(|p| all[k].pairs.binary_search(p).is_ok())
                    } else {
                        pairs == recorded[k].pairs
                    };
                    agreement.checked += 1;
                    agreement.agree += usize::from(ok && recorded[k].rc == 0);
                    if query == Query::PqpCollideAll {
                        answers.pairs.push(pairs);
                    }
                }
                let timing = time_passes(passes, poses.len(), || {
                    for (p1, p2) in poses {
                        collide(a, p1, b, p2, &request, &mut result).expect("poses in range");
                    }
                });
                (timing, agreement)
            }
            Query::PqpDistance => {
                // PQP keeps a warm start in the models across queries: the cache does that here.
                let request = DistanceRequest { qsize: 2, ..Default::default() };
                let mut cache = DistanceCache::default();
                let mut agreement = Agreement::default();
                for ((p1, p2), record) in poses.iter().zip(&self.records.distances) {
                    let d = distance(a, p1, b, p2, &request, Some(&mut cache)).expect("a pose").distance;
                    agreement.checked += 1;
                    agreement.agree += usize::from(record.rc == 0 && (d - record.distance).abs() <= self.eps);
                    answers.distances.push(d);
                }
                let timing = time_passes(passes, poses.len(), || {
                    for (p1, p2) in poses {
                        let _ = std::hint::black_box(distance(a, p1, b, p2, &request, Some(&mut cache)));
                    }
                });
                (timing, agreement)
            }
            Query::PqpTolerance => {
                let lines = &self.records.tolerances;
                let mut agreement = Agreement::default();
                // The warm start as the legacy call keeps it in the models.
                let mut cache = DistanceCache::default();
                for line in lines {
                    let (p1, p2) = &poses[line.pose];
                    let closer = tolerance(a, p1, b, p2, line.tolerance, 2, Some(&mut cache)).expect("a pose").closer;
                    // Either flag where the tolerance equals the pose's minimum distance.
                    let boundary = (line.tolerance - self.records.distances[line.pose].distance).abs() <= self.eps;
                    agreement.checked += 1;
                    agreement.agree += usize::from(line.rc == 0 && (closer == line.closer || boundary));
                }
                let timing = time_passes(passes, lines.len(), || {
                    for line in lines {
                        let (p1, p2) = &poses[line.pose];
                        let _ = std::hint::black_box(tolerance(a, p1, b, p2, line.tolerance, 2, Some(&mut cache)));
                    }
                });
                (timing, agreement)
            }
        }
    }
}

fn us(x: f64) -> String {
    if x.is_nan() {
        "—".into()
    } else if x < 10.0 {
        format!("{x:.2}")
    } else if x < 100.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.0}")
    }
}

fn range_us(lo: f64, hi: f64) -> String {
    if lo == hi { us(lo) } else { format!("{}–{}", us(lo), us(hi)) }
}

/// Prints the table (stdout and report) and returns its CSV.
pub fn table(rows: &[Row], passes: usize) -> String {
    say!("\n## Legacy C entry points on the fixture cases\n");
    say!(
        "µs per query, median of {passes} passes over all poses (PQP_Tolerance: over all lines of \
         pqp_tolerance.txt), one thread. **C**: rapidpqp's legacy entry point called by the C harness \
         (`benches/legacy/legacy_bench.c`, linked with `target/release/librapidpqp.a`). **Rust**: the Rust \
         core on the same query (distance with a warm-start cache, as PQP keeps one in its models). \
         **original**: RAPID 2.01 / PQP 1.3 from ORIGINALS.md (2026-11-24; two runs, kept as a range), with \
         rapidpqp's legacy figure of that day beside it. Ratios: other / C (above 1: ours is faster); \
         original / C at the midpoint and over the range; target ≥ {SPEED_TARGET}×. FCL 0.7 (OBBRSS) in this \
         run. Work: mean BV (box) and triangle tests per query, ours through C / the original's recorded \
         ones. Answers: checked against the recorded ones (C, Rust); a row with wrong answers gets no ratio.\n"
    );
    if let Some(warning) = crate::harness::stale_library_warning() {
        say!("{warning}\n");
    }
    say!(
        "| case | query | n | C µs | Rust µs | original µs | rapidpqp then | original / C | FCL µs | FCL / C | BV tests C / orig | tri tests C / orig | answers C, Rust |"
    );
    say!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut csv = String::from(
        "case,query,queries,passes,c_us,c_us_min,c_us_max,rust_us,rust_us_min,rust_us_max,original_us_lo,original_us_hi,\
         rapidpqp_then_us_lo,rapidpqp_then_us_hi,original_over_c_mid,original_over_c_lo,original_over_c_hi,fcl_us,fcl_over_c,\
         fcl_check,bv_tests,tri_tests,orig_bv_tests,orig_tri_tests,c_agree,rust_agree,checked\n",
    );
    let mut below = Vec::new();
    let mut fcl_notes = Vec::new();
    for r in rows {
        let c_us = r.c.as_ref().map_or(f64::NAN, |c| c.timing.median);
        let (original, then) = r.original.map_or(("—".into(), "—".into()), |f| {
            (range_us(f.original.0, f.original.1), range_us(f.rapidpqp_then.0, f.rapidpqp_then.1))
        });
        let speedup = match (r.speedup(), r.answers_ok()) {
            (Some(_), false) => "answers differ".to_string(),
            (Some((mid, lo, hi)), true) => {
                let mark = if mid < SPEED_TARGET { " **below 2×**" } else { "" };
                if mid < SPEED_TARGET {
                    below.push(format!("{} {} ({mid:.2}×)", r.case, r.query.label()));
                }
                if r.original.is_some_and(|f| f.original.0 == f.original.1) {
                    format!("{mid:.2}×{mark}")
                } else {
                    format!("{mid:.2}× ({lo:.2}–{hi:.2}){mark}")
                }
            }
            (None, _) => "—".into(),
        };
        let (fcl_us, fcl_ratio, fcl_check) = match &r.fcl {
            Some((t, check)) => (us(t.median), format!("{:.2}×", t.median / c_us), check.clone()),
            None => ("—".into(), "—".into(), String::new()),
        };
        let fcl_ratio = if fcl_check.starts_with("ok") || fcl_check.is_empty() {
            fcl_ratio
        } else {
            fcl_notes.push(format!("{} {}: {fcl_check}", r.case, r.query.label()));
            format!("{fcl_ratio} (see below)")
        };
        let work = |ours: f64, orig: f64| format!("{ours:.1} / {orig:.1}");
        let (bv, tri, c_answers) = match &r.c {
            Some(c) => (work(c.bv_tests, c.orig_bv_tests), work(c.tri_tests, c.orig_tri_tests), c.agreement.cell()),
            None => ("—".into(), "—".into(), "not run".into()),
        };
        say!(
            "| {} | {} | {} | {} | {} | {original} | {then} | {speedup} | {fcl_us} | {fcl_ratio} | {bv} | {tri} | {c_answers}, {} |",
            r.case,
            r.query.label(),
            r.queries,
            us(c_us),
            us(r.rust.median),
            r.rust_agreement.cell()
        );
        let (c_timing, c_agree) = r
            .c
            .as_ref()
            .map_or((Timing { median: f64::NAN, min: f64::NAN, max: f64::NAN }, 0), |c| (c.timing, c.agreement.agree));
        let (mid, lo, hi) = r.speedup().unwrap_or((f64::NAN, f64::NAN, f64::NAN));
        let nan = f64::NAN;
        let f = r.original;
        let _ = writeln!(
            csv,
            "{},{},{},{passes},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{},{},{},{},{mid:.3},{lo:.3},{hi:.3},{:.4},{:.3},{},{:.1},{:.1},{:.1},{:.1},{c_agree},{},{}",
            r.case,
            r.query.name(),
            r.queries,
            c_timing.median,
            c_timing.min,
            c_timing.max,
            r.rust.median,
            r.rust.min,
            r.rust.max,
            f.map_or(nan, |f| f.original.0),
            f.map_or(nan, |f| f.original.1),
            f.map_or(nan, |f| f.rapidpqp_then.0),
            f.map_or(nan, |f| f.rapidpqp_then.1),
            r.fcl.as_ref().map_or(nan, |(t, _)| t.median),
            r.fcl.as_ref().map_or(nan, |(t, _)| t.median / c_timing.median),
            r.fcl.as_ref().map_or(String::new(), |(_, check)| check.replace(',', ";")),
            r.c.as_ref().map_or(nan, |c| c.bv_tests),
            r.c.as_ref().map_or(nan, |c| c.tri_tests),
            r.c.as_ref().map_or(nan, |c| c.orig_bv_tests),
            r.c.as_ref().map_or(nan, |c| c.orig_tri_tests),
            r.rust_agreement.agree,
            r.queries,
        );
    }
    for note in &fcl_notes {
        say!("\nFCL's answers, {note} (ours agree with the original's record within 1e-12 of the model size).");
    }
    let compared = rows.iter().filter(|r| r.speedup().is_some() && r.answers_ok()).count();
    if below.is_empty() {
        say!("\nEvery compared row ({compared}) is at least {SPEED_TARGET}× the original's speed at the midpoint.");
    } else {
        say!("\n**Below {SPEED_TARGET}× the original** ({} of {compared} rows): {}.", below.len(), below.join("; "));
    }
    csv
}
