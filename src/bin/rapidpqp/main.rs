//! `rapidpqp`: collision, distance and tolerance queries, mesh facts and a short benchmark
//! on mesh files (OBJ, STL, PLY) from the command line. Uses the library's Rust API only.
//!
//! Output is for people by default; `--json` prints exactly one JSON object whose one key is
//! the command's name (docs/cli.md, "Command line", gives the schema). Errors go to stderr
//! with a non-zero status: 1 for bad input (a missing or malformed file, numbers that are no
//! pose), 2 for a bad command line (including a malformed number for any option).

mod args;
mod json;

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use args::{Parsed, Spec};
use json::Json;
use nalgebra::{Rotation3, Unit};
use rapidpqp::io::load;
use rapidpqp::pose::PoseError;
use rapidpqp::query::{CollideRequest, CollideResult, DistanceRequest, DistanceResult, collide, distance, tolerance};
use rapidpqp::{Mat3, Model, Placement, Triangle, Vec3};

const VERSION: &str = env!("CARGO_PKG_VERSION");

const USAGE: &str = "\
rapidpqp: collision, distance and tolerance queries on triangle meshes (OBJ, STL, PLY)

Usage: rapidpqp <command> [options]

Commands:
  collide A B     the intersecting triangle pairs of A and B (touching counts)
  distance A B    the distance between A and B, and a closest point on each
  tolerance A B   whether A and B are within --tolerance X of each other
  info MESH       triangles, vertices, closed or open, bounds, tree depth, memory
  bench [A B]     a few seconds of timed queries (default: meshes/bunny_15k.obj or spheres)
  help [command]  this text, or a command's

Options: --json (one JSON object on stdout), --help on every command; --version.
Files: .obj, .stl (binary or ASCII), .ply (ASCII or binary); other names by their content.
";

const POSE_HELP: &str = "\
Poses (each model's placement in the world; default: where the file puts it):
  --pose-a V, --pose-b V   3 numbers: a translation tx,ty,tz
                           12 numbers: a 3x4 matrix [R | t], row by row
                           16 numbers: a 4x4 matrix, row by row, last row 0,0,0,1
  --rot-a V, --rot-b V     4 numbers: a rotation about axis x,y,z by an angle in degrees,
                           applied before a 3-number --pose translation
  Numbers are separated by commas or spaces (quote them); R must be a rotation (orthonormal,
  determinant +1, within 1e-5). A model point p is placed at R p + t.
";

const COLLIDE_HELP: &str = "\
Usage: rapidpqp collide A B [--first | --all] [--pairs] [poses] [--json]

Finds the intersecting triangle pairs of meshes A and B (touching triangles intersect).
  --all     find every pair (the default)
  --first   stop at the first pair found
  --pairs   list the pairs: triangle indices in file order (polygons split into fans)
";

const DISTANCE_HELP: &str = "\
Usage: rapidpqp distance A B [--rel-err X] [--abs-err X] [poses] [--json]

The distance between meshes A and B (0 when they intersect) and a closest point on each, in
that mesh's own frame (its file's coordinates).
  --rel-err X   accept a distance within this fraction of the true one (default 0: exact)
  --abs-err X   accept a distance within this amount of the true one (default 0)
";

const TOLERANCE_HELP: &str = "\
Usage: rapidpqp tolerance A B --tolerance X [poses] [--json]

Whether meshes A and B are at most X apart. When they are, the distance and points are those
of the first triangle pair found within X (not necessarily the closest); when not, the
distance is a lower bound of the true one (greater than X) and there are no points.
";

const INFO_HELP: &str = "\
Usage: rapidpqp info MESH [--json]

Reads MESH and builds its hierarchy; prints its triangles and vertices, whether it is closed
(every edge shared by two faces in opposite directions) with its open edges and volume, its
bounds, the depth of its tree, the memory the model takes, and how long loading took.
";

const BENCH_HELP: &str = "\
Usage: rapidpqp bench [A B] [--seconds S] [--json]

Times collide (all pairs), distance and tolerance queries of B against A over 64 poses (B
turned about an axis and moved from half overlapping to a diameter apart), about S/3 seconds
each (S: default 3, at most 600). Without meshes: meshes/bunny_15k.obj against itself if found
(in the current folder or the source checkout), else two generated spheres.
Prints the query rates and the average box and triangle tests per query.
";

/// Why the program stops without an answer.
enum Failure {
    /// The command line is wrong (status 2), with the command to ask for help on.
    Usage(String, &'static str),
    /// The input is (status 1).
    Input(String),
}

type Outcome = Result<String, Failure>;

fn usage(command: &'static str) -> impl Fn(String) -> Failure {
    move |message| Failure::Usage(message, command)
}

fn main() -> ExitCode {
    // A panic is a bug: one line, no trace.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("rapidpqp: internal error (a bug in rapidpqp; please report it): {info}");
    }));
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    match run(&args) {
        Ok(text) => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                // A reader that went away (`| head`) is not an error.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("rapidpqp: error: cannot write the output: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(Failure::Usage(message, command)) => {
            let help =
                if command.is_empty() { "rapidpqp --help".to_string() } else { format!("rapidpqp {command} --help") };
            eprintln!("rapidpqp: {message}\nTry '{help}'.");
            ExitCode::from(2)
        }
        Err(Failure::Input(message)) => {
            eprintln!("rapidpqp: error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[OsString]) -> Outcome {
    let Some(first) = args.first() else {
        return Err(Failure::Usage("no command given".into(), ""));
    };
    let rest = &args[1..];
    match first.to_str().unwrap_or("") {
        "-h" | "--help" => Ok(USAGE.into()),
        "help" => match rest.first().and_then(|c| c.to_str()) {
            None => Ok(USAGE.into()),
            Some(command) => help_of(command).ok_or_else(|| Failure::Usage(format!("no command {command:?}"), "")),
        },
        "-V" | "--version" => Ok(format!("rapidpqp {VERSION}\n")),
        "collide" => collide_command(rest),
        "distance" => distance_command(rest),
        "tolerance" => tolerance_command(rest),
        "info" => info_command(rest),
        "bench" => bench_command(rest),
        other => Err(Failure::Usage(format!("unknown command {:?}", other_name(first, other)), "")),
    }
}

fn other_name(arg: &OsStr, text: &str) -> String {
    if text.is_empty() { arg.to_string_lossy().into_owned() } else { text.to_string() }
}

fn help_of(command: &str) -> Option<String> {
    Some(match command {
        "collide" => format!("{COLLIDE_HELP}\n{POSE_HELP}"),
        "distance" => format!("{DISTANCE_HELP}\n{POSE_HELP}"),
        "tolerance" => format!("{TOLERANCE_HELP}\n{POSE_HELP}"),
        "info" => INFO_HELP.into(),
        "bench" => BENCH_HELP.into(),
        _ => return None,
    })
}

/// Parses a command's arguments: `Ok(None)` when `--help` was asked.
fn parse(args: &[OsString], spec: Spec, command: &'static str) -> Result<Option<Parsed>, Failure> {
    let parsed = args::parse(args, spec).map_err(usage(command))?;
    Ok(if parsed.flag("help") { None } else { Some(parsed) })
}

// ------------------------------------------------------------------------------------------
// Meshes and poses

/// A mesh file's model, with what `info` reports about the file.
struct Loaded {
    name: String,
    vertices: usize,
    model: Model,
    load_time: Duration,
    build_time: Duration,
}

fn load_model(path: &OsStr) -> Result<Loaded, Failure> {
    let name = path.to_string_lossy().into_owned();
    let start = Instant::now();
    let mesh = load(path).map_err(|e| Failure::Input(e.to_string()))?;
    let load_time = start.elapsed();
    let start = Instant::now();
    let model = Model::from_indexed(&mesh.vertices, &mesh.faces).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
    Ok(Loaded { name, vertices: mesh.vertices.len(), model, load_time, build_time: start.elapsed() })
}

/// The two meshes of a pair query (one model when both name the same file).
fn load_pair(parsed: &Parsed, command: &'static str) -> Result<(Loaded, Option<Loaded>), Failure> {
    match parsed.positional.as_slice() {
        [a, b] => {
            let first = load_model(a)?;
            let second = if a == b { None } else { Some(load_model(b)?) };
            Ok((first, second))
        }
        other => Err(Failure::Usage(format!("{command} takes two mesh files, got {}", other.len()), command)),
    }
}

/// `--pose-X` and `--rot-X` as a placement (see `POSE_HELP`). A malformed number list (not a
/// number, an empty field, the wrong count, `--rot` with a matrix) is a bad command line
/// (status 2); numbers that are no pose (a zero axis, a matrix that is not a rotation) are bad
/// input (status 1), as the README's "Exit status" says.
fn pose(parsed: &Parsed, which: &str, command: &'static str) -> Result<Placement, Failure> {
    let (pose_name, rot_name) = (format!("pose-{which}"), format!("rot-{which}"));
    let usage = usage(command);
    let bad = |m: String| Failure::Input(m);
    let mut rotation = Mat3::identity();
    let mut translation = Vec3::zeros();
    if let Some(text) = parsed.value(&rot_name) {
        let v = args::numbers(&rot_name, text).map_err(&usage)?;
        let [x, y, z, degrees] = v[..] else {
            return Err(usage(format!(
                "--{rot_name}: expected 4 numbers (axis x,y,z and an angle in degrees), got {}",
                v.len()
            )));
        };
        // Divided by its largest component first, an axis is a direction however large or small
        // its finite numbers are (the norm of 1e300,1e300,0 itself overflows).
        let largest = x.abs().max(y.abs()).max(z.abs());
        if largest == 0.0 {
            return Err(bad(format!("--{rot_name}: the rotation axis must not be zero")));
        }
        let axis = Unit::new_normalize(Vec3::new(x, y, z) / largest);
        rotation = Rotation3::from_axis_angle(&axis, degrees.to_radians()).into_inner();
    }
    if let Some(text) = parsed.value(&pose_name) {
        let v = args::numbers(&pose_name, text).map_err(&usage)?;
        match v.len() {
            3 => translation = Vec3::new(v[0], v[1], v[2]),
            12 | 16 => {
                if parsed.value(&rot_name).is_some() {
                    return Err(usage(format!(
                        "--{rot_name} goes with a 3-number --{pose_name} only (a matrix has its rotation)"
                    )));
                }
                if v.len() == 16 && v[12..] != [0.0, 0.0, 0.0, 1.0] {
                    return Err(bad(format!(
                        "--{pose_name}: the last row of a 4x4 pose matrix must be 0,0,0,1, got {:?}",
                        &v[12..]
                    )));
                }
                rotation = Mat3::new(v[0], v[1], v[2], v[4], v[5], v[6], v[8], v[9], v[10]);
                translation = Vec3::new(v[3], v[7], v[11]);
            }
            n => {
                return Err(usage(format!(
                    "--{pose_name}: expected 3 numbers (a translation), 12 (a 3x4 matrix) or 16 (a 4x4 matrix), got {n}"
                )));
            }
        }
    }
    let placement = Placement { rotation, translation, scale: 1.0 };
    placement.check().map_err(|e| {
        bad(match e {
            PoseError::NotRotation => format!(
                "--{pose_name}: the pose's R is not a rotation (orthonormal, determinant +1) within the rotation tolerance {:e}",
                rapidpqp::pose::rotation_tolerance()
            ),
            PoseError::NonFinite => format!("--{pose_name}: the pose has a NaN or infinite number"),
            other => format!("--{pose_name}: the pose is refused: {other}"),
        })
    })?;
    Ok(placement)
}

/// Both poses, read before any mesh file so that a bad command line is reported first.
fn poses(parsed: &Parsed, command: &'static str) -> Result<(Placement, Placement), Failure> {
    Ok((pose(parsed, "a", command)?, pose(parsed, "b", command)?))
}

fn num(x: f64) -> String {
    format!("{x:?}")
}

fn point(p: &Vec3) -> String {
    format!("{} {} {}", num(p.x), num(p.y), num(p.z))
}

fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1e-3 {
        format!("{:.1} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

fn pair_header(a: &Loaded, b: &Loaded) -> String {
    format!(
        "a: {} ({} triangles)\nb: {} ({} triangles)\n",
        a.name,
        a.model.num_triangles(),
        b.name,
        b.model.num_triangles()
    )
}

fn files_json(a: &Loaded, b: &Loaded) -> [(&'static str, Json); 2] {
    [("a", Json::Str(a.name.clone())), ("b", Json::Str(b.name.clone()))]
}

fn work_json(bv: u64, tri: u64) -> [(&'static str, Json); 2] {
    [("bv_tests", Json::Int(bv)), ("tri_tests", Json::Int(tri))]
}

fn wrap(command: &'static str, fields: Vec<(&'static str, Json)>) -> String {
    Json::Obj(vec![(command, Json::Obj(fields))]).text() + "\n"
}

// ------------------------------------------------------------------------------------------
// Pair queries

const COLLIDE_SPEC: Spec = &[
    ("pose-a", true),
    ("rot-a", true),
    ("pose-b", true),
    ("rot-b", true),
    ("first", false),
    ("all", false),
    ("pairs", false),
    ("json", false),
];

fn collide_command(args: &[OsString]) -> Outcome {
    let Some(p) = parse(args, COLLIDE_SPEC, "collide")? else {
        return Ok(help_of("collide").unwrap_or_default());
    };
    if p.flag("first") && p.flag("all") {
        return Err(Failure::Usage("--first and --all exclude each other".into(), "collide"));
    }
    let (pa, pb) = poses(&p, "collide")?;
    let (a, b) = load_pair(&p, "collide")?;
    let b = b.as_ref().unwrap_or(&a);
    let request = CollideRequest { first_contact: p.flag("first"), ..Default::default() };
    let mut result = CollideResult::new();
    let start = Instant::now();
    collide(&a.model, &pa, &b.model, &pb, &request, &mut result).map_err(|e| Failure::Input(e.to_string()))?;
    let time = start.elapsed();
    let pairs = result.pairs.len();
    if p.flag("json") {
        let mut fields = Vec::from(files_json(&a, b));
        fields.push(("colliding", Json::Bool(result.colliding())));
        fields.push(("pairs", Json::Int(pairs as u64)));
        fields.push(("first_contact", Json::Bool(request.first_contact)));
        if p.flag("pairs") {
            let list = result.pairs.iter().map(|c| Json::Arr(vec![Json::Int(c.id1 as u64), Json::Int(c.id2 as u64)]));
            fields.push(("contacts", Json::Arr(list.collect())));
        }
        fields.extend(work_json(result.bv_tests, result.tri_tests));
        fields.push(("seconds", Json::Num(time.as_secs_f64())));
        return Ok(wrap("collide", fields));
    }
    let mut out = pair_header(&a, b);
    out += &match (result.colliding(), request.first_contact) {
        (false, _) => "colliding: no\n".to_string(),
        (true, true) => "colliding: yes (stopped at the first contact pair)\n".to_string(),
        (true, false) => format!("colliding: yes, {pairs} contact pair{}\n", if pairs == 1 { "" } else { "s" }),
    };
    out += &format!("work: {} box tests, {} triangle tests, {}\n", result.bv_tests, result.tri_tests, seconds(time));
    if p.flag("pairs") {
        out += "pairs (triangle of a, triangle of b):\n";
        for c in &result.pairs {
            out += &format!("{} {}\n", c.id1, c.id2);
        }
    }
    Ok(out)
}

const DISTANCE_SPEC: Spec = &[
    ("pose-a", true),
    ("rot-a", true),
    ("pose-b", true),
    ("rot-b", true),
    ("rel-err", true),
    ("abs-err", true),
    ("json", false),
];

fn error_bound(p: &Parsed, name: &str) -> Result<f64, Failure> {
    let Some(text) = p.value(name) else { return Ok(0.0) };
    let x = args::number(name, text).map_err(usage("distance"))?;
    if x < 0.0 {
        return Err(Failure::Usage(format!("--{name} must not be negative, got {text}"), "distance"));
    }
    Ok(x)
}

fn distance_command(args: &[OsString]) -> Outcome {
    let Some(p) = parse(args, DISTANCE_SPEC, "distance")? else {
        return Ok(help_of("distance").unwrap_or_default());
    };
    let request =
        DistanceRequest { rel_err: error_bound(&p, "rel-err")?, abs_err: error_bound(&p, "abs-err")?, qsize: 0 };
    let (pa, pb) = poses(&p, "distance")?;
    let (a, b) = load_pair(&p, "distance")?;
    let b = b.as_ref().unwrap_or(&a);
    let start = Instant::now();
    let r = distance(&a.model, &pa, &b.model, &pb, &request, None).map_err(|e| Failure::Input(e.to_string()))?;
    let time = start.elapsed();
    if p.flag("json") {
        let mut fields = Vec::from(files_json(&a, b));
        fields.push(("distance", Json::Num(r.distance)));
        fields.push(("point_a", Json::point(&r.p1)));
        fields.push(("point_b", Json::point(&r.p2)));
        fields.extend(work_json(r.bv_tests, r.tri_tests));
        fields.push(("seconds", Json::Num(time.as_secs_f64())));
        return Ok(wrap("distance", fields));
    }
    let mut out = pair_header(&a, b);
    out += &format!("distance: {}\n", num(r.distance));
    out += &format!("closest point on a (a's frame): {}\n", point(&r.p1));
    out += &format!("closest point on b (b's frame): {}\n", point(&r.p2));
    out += &format!("work: {} box tests, {} triangle tests, {}\n", r.bv_tests, r.tri_tests, seconds(time));
    Ok(out)
}

const TOLERANCE_SPEC: Spec =
    &[("pose-a", true), ("rot-a", true), ("pose-b", true), ("rot-b", true), ("tolerance", true), ("json", false)];

fn tolerance_command(args: &[OsString]) -> Outcome {
    let Some(p) = parse(args, TOLERANCE_SPEC, "tolerance")? else {
        return Ok(help_of("tolerance").unwrap_or_default());
    };
    let Some(text) = p.value("tolerance") else {
        return Err(Failure::Usage("tolerance needs --tolerance X".into(), "tolerance"));
    };
    let limit = args::number("tolerance", text).map_err(usage("tolerance"))?;
    if limit < 0.0 {
        return Err(Failure::Usage(format!("--tolerance must not be negative, got {text}"), "tolerance"));
    }
    let (pa, pb) = poses(&p, "tolerance")?;
    let (a, b) = load_pair(&p, "tolerance")?;
    let b = b.as_ref().unwrap_or(&a);
    let start = Instant::now();
    let r = tolerance(&a.model, &pa, &b.model, &pb, limit, 0, None).map_err(|e| Failure::Input(e.to_string()))?;
    let time = start.elapsed();
    if p.flag("json") {
        let mut fields = Vec::from(files_json(&a, b));
        fields.push(("tolerance", Json::Num(limit)));
        fields.push(("within", Json::Bool(r.closer)));
        fields.push(("distance", Json::Num(r.distance)));
        fields.push(("point_a", if r.closer { Json::point(&r.p1) } else { Json::Null }));
        fields.push(("point_b", if r.closer { Json::point(&r.p2) } else { Json::Null }));
        fields.extend(work_json(r.bv_tests, r.tri_tests));
        fields.push(("seconds", Json::Num(time.as_secs_f64())));
        return Ok(wrap("tolerance", fields));
    }
    let mut out = pair_header(&a, b);
    if r.closer {
        out += &format!("within {}: yes, a pair {} apart\n", num(limit), num(r.distance));
        out += &format!("point on a (a's frame): {}\n", point(&r.p1));
        out += &format!("point on b (b's frame): {}\n", point(&r.p2));
    } else {
        out += &format!("within {}: no, at least {} apart\n", num(limit), num(r.distance));
    }
    out += &format!("work: {} box tests, {} triangle tests, {}\n", r.bv_tests, r.tri_tests, seconds(time));
    Ok(out)
}

// ------------------------------------------------------------------------------------------
// info

fn bounds(triangles: &[Triangle]) -> (Vec3, Vec3) {
    let mut lo = Vec3::repeat(f64::INFINITY);
    let mut hi = Vec3::repeat(f64::NEG_INFINITY);
    for c in triangles.iter().flatten() {
        lo = lo.inf(c);
        hi = hi.sup(c);
    }
    (lo, hi)
}

fn info_command(args: &[OsString]) -> Outcome {
    let Some(p) = parse(args, &[("json", false)], "info")? else {
        return Ok(INFO_HELP.into());
    };
    let [path] = p.positional.as_slice() else {
        return Err(Failure::Usage(format!("info takes one mesh file, got {}", p.positional.len()), "info"));
    };
    let m = load_model(path)?;
    let facts = *m.model.solid_facts();
    let (lo, hi) = bounds(m.model.triangles());
    let depth = m.model.tree_depth();
    let volume = if facts.closed { Some(facts.signed_volume) } else { None };
    if p.flag("json") {
        let fields = vec![
            ("file", Json::Str(m.name.clone())),
            ("triangles", Json::Int(m.model.num_triangles() as u64)),
            ("vertices", Json::Int(m.vertices as u64)),
            ("closed", Json::Bool(facts.closed)),
            ("oriented", Json::Bool(facts.oriented)),
            ("boundary_edges", Json::Int(facts.boundary_edges as u64)),
            ("non_manifold_edges", Json::Int(facts.non_manifold_edges as u64)),
            ("misoriented_edges", Json::Int(facts.misoriented_edges as u64)),
            ("collapsed_triangles", Json::Int(facts.collapsed_triangles as u64)),
            ("components", Json::Int(facts.components as u64)),
            ("volume", volume.map_or(Json::Null, Json::Num)),
            ("bounds", Json::Obj(vec![("min", Json::point(&lo)), ("max", Json::point(&hi))])),
            ("tree_depth", Json::Int(depth as u64)),
            ("tree_nodes", Json::Int(m.model.num_nodes() as u64)),
            ("memory_bytes", Json::Int(m.model.memory_bytes() as u64)),
            ("load_seconds", Json::Num(m.load_time.as_secs_f64())),
            ("build_seconds", Json::Num(m.build_time.as_secs_f64())),
        ];
        return Ok(wrap("info", fields));
    }
    let mut out = format!("file: {}\n", m.name);
    out += &format!("triangles: {}\nvertices: {}\n", m.model.num_triangles(), m.vertices);
    if facts.closed {
        out += &format!("closed: yes (volume {})\n", num(facts.signed_volume));
    } else {
        out += &format!(
            "closed: no ({} boundary, {} non-manifold, {} misoriented edges)\n",
            facts.boundary_edges, facts.non_manifold_edges, facts.misoriented_edges
        );
    }
    out += &format!("components: {}\n", facts.components);
    if facts.collapsed_triangles > 0 {
        out += &format!("collapsed triangles: {}\n", facts.collapsed_triangles);
    }
    out += &format!("bounds: [{}] to [{}]\n", point(&lo), point(&hi));
    out += &format!("tree: depth {}, {} nodes\n", depth, m.model.num_nodes());
    out +=
        &format!("memory: {} bytes ({:.1} MiB)\n", m.model.memory_bytes(), m.model.memory_bytes() as f64 / 1048576.0);
    out += &format!("load: {}, build: {}\n", seconds(m.load_time), seconds(m.build_time));
    Ok(out)
}

// ------------------------------------------------------------------------------------------
// bench

/// A UV sphere of radius `r` about `c`: `nu` meridians, `nv` bands, outward normals.
fn sphere(nu: usize, nv: usize, r: f64) -> Model {
    let at = |i: usize, j: usize| {
        let (th, ph) = (std::f64::consts::PI * i as f64 / nv as f64, std::f64::consts::TAU * j as f64 / nu as f64);
        Vec3::new(r * th.sin() * ph.cos(), r * th.sin() * ph.sin(), r * th.cos())
    };
    let mut tris = Vec::new();
    for i in 0..nv {
        for j in 0..nu {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
            if i > 0 {
                tris.push([a, b, d]);
            }
            if i + 1 < nv {
                tris.push([b, c, d]);
            }
        }
    }
    let ids = (0..tris.len() as i32).collect();
    Model::new(tris, ids).expect("a sphere builds")
}

/// The 64 poses of B: turned about (1, 2, 3) by up to a full turn, moved along x from half a
/// diameter (overlapping) to one and a half (apart).
fn bench_poses(a: &Model, b: &Model) -> Vec<Placement> {
    let (lo, hi) = bounds(a.triangles());
    let (blo, bhi) = bounds(b.triangles());
    let diameter = (hi - lo).norm().max((bhi - blo).norm());
    let axis = Unit::new_normalize(Vec3::new(1.0, 2.0, 3.0));
    (0..64)
        .map(|k| {
            let t = k as f64 / 63.0;
            Placement {
                rotation: Rotation3::from_axis_angle(&axis, std::f64::consts::TAU * t).into_inner(),
                translation: Vec3::new(diameter * (0.5 + t), 0.0, 0.0),
                scale: 1.0,
            }
        })
        .collect()
}

struct Timing {
    queries: u64,
    seconds: f64,
    bv_tests: u64,
    tri_tests: u64,
    /// Queries that found contact (collide, tolerance).
    hits: u64,
}

/// Runs `query` over the poses in turn until `budget` has passed (one query at least).
fn time(poses: &[Placement], budget: Duration, mut query: impl FnMut(&Placement) -> (u64, u64, bool)) -> Timing {
    let start = Instant::now();
    let mut t = Timing { queries: 0, seconds: 0.0, bv_tests: 0, tri_tests: 0, hits: 0 };
    while t.queries == 0 || start.elapsed() < budget {
        let (bv, tri, hit) = query(&poses[t.queries as usize % poses.len()]);
        t.queries += 1;
        t.bv_tests += bv;
        t.tri_tests += tri;
        t.hits += u64::from(hit);
    }
    t.seconds = start.elapsed().as_secs_f64();
    t
}

fn bench_command(args: &[OsString]) -> Outcome {
    let Some(p) = parse(args, &[("seconds", true), ("json", false)], "bench")? else {
        return Ok(BENCH_HELP.into());
    };
    let budget = match p.value("seconds") {
        None => 3.0,
        Some(text) => {
            let s = args::number("seconds", text).map_err(usage("bench"))?;
            if !(s > 0.0 && s <= 600.0) {
                return Err(Failure::Usage(format!("--seconds must be in (0, 600], got {text}"), "bench"));
            }
            s
        }
    };
    let (a, b, names) = match p.positional.as_slice() {
        [a, b] => {
            let a = load_model(a)?;
            let b = load_model(b)?;
            let names = (a.name.clone(), b.name.clone());
            (a.model, b.model, names)
        }
        [] => {
            let checkout = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("meshes/bunny_15k.obj");
            let found = [std::path::PathBuf::from("meshes/bunny_15k.obj"), checkout].into_iter().find(|p| p.is_file());
            match found {
                Some(path) => {
                    let m = load_model(path.as_os_str())?;
                    let name = m.name.clone();
                    (m.model.clone(), m.model, (name.clone(), name))
                }
                None => {
                    let name = "generated sphere (9,800 triangles)".to_string();
                    (sphere(100, 50, 1.0), sphere(100, 50, 1.0), (name.clone(), name))
                }
            }
        }
        other => return Err(Failure::Usage(format!("bench takes no mesh or two, got {}", other.len()), "bench")),
    };
    let poses = bench_poses(&a, &b);
    let each = Duration::from_secs_f64(budget / 3.0);
    let id = Placement::IDENTITY;
    let mut result = CollideResult::new();
    let request = CollideRequest::default();
    let collide_t = time(&poses, each, |pose| {
        collide(&a, &id, &b, pose, &request, &mut result).expect("valid poses");
        (result.bv_tests, result.tri_tests, result.colliding())
    });
    let exact = DistanceRequest::default();
    let distance_t = time(&poses, each, |pose| {
        let r: DistanceResult = distance(&a, &id, &b, pose, &exact, None).expect("valid poses");
        (r.bv_tests, r.tri_tests, r.distance == 0.0)
    });
    // A tolerance of 1% of the size: some poses within, some not.
    let (lo, hi) = bounds(a.triangles());
    let limit = 0.01 * (hi - lo).norm();
    let tolerance_t = time(&poses, each, |pose| {
        let r = tolerance(&a, &id, &b, pose, limit, 0, None).expect("valid poses");
        (r.bv_tests, r.tri_tests, r.closer)
    });
    let rows = [("collide", &collide_t), ("distance", &distance_t), ("tolerance", &tolerance_t)];
    if p.flag("json") {
        let mut fields = vec![
            ("a", Json::Str(names.0.clone())),
            ("b", Json::Str(names.1.clone())),
            ("triangles_a", Json::Int(a.num_triangles() as u64)),
            ("triangles_b", Json::Int(b.num_triangles() as u64)),
            ("poses", Json::Int(poses.len() as u64)),
        ];
        for (name, t) in rows {
            let q = t.queries as f64;
            let limit_field = (name == "tolerance").then_some(("tolerance", Json::Num(limit)));
            fields.push((
                name,
                Json::Obj(
                    limit_field
                        .into_iter()
                        .chain([
                            ("queries", Json::Int(t.queries)),
                            ("seconds", Json::Num(t.seconds)),
                            ("per_second", Json::Num(q / t.seconds)),
                            ("bv_tests_per_query", Json::Num(t.bv_tests as f64 / q)),
                            ("tri_tests_per_query", Json::Num(t.tri_tests as f64 / q)),
                            ("hits", Json::Int(t.hits)),
                        ])
                        .collect(),
                ),
            ));
        }
        return Ok(wrap("bench", fields));
    }
    let mut out = format!(
        "a: {} ({} triangles)\nb: {} ({} triangles), {} poses\n",
        names.0,
        a.num_triangles(),
        names.1,
        b.num_triangles(),
        poses.len()
    );
    out += &format!(
        "{:<10} {:>10} {:>12} {:>14} {:>14} {:>8}\n",
        "query", "queries", "per second", "box tests/q", "tri tests/q", "hits"
    );
    for (name, t) in rows {
        let q = t.queries as f64;
        out += &format!(
            "{:<10} {:>10} {:>12.1} {:>14.1} {:>14.1} {:>8}\n",
            name,
            t.queries,
            q / t.seconds,
            t.bv_tests as f64 / q,
            t.tri_tests as f64 / q,
            t.hits
        );
    }
    out += &format!("(hits: collide: colliding; distance: distance 0; tolerance: within {})\n", num(limit));
    Ok(out)
}
