//! Demo: a mesh (by default the Stanford bunny, `meshes/bunny_15k.obj`, 15,536 triangles;
//! any OBJ, STL or PLY file) and a copy of itself at a few poses: collide (how many triangle
//! pairs intersect), distance and a tolerance query at each, with the work done and the time.
//! Run with `./run_demo.sh [MESH]` (or `cargo run --release --example demo -- [MESH]`);
//! `--help` says so.

use std::path::Path;
use std::time::Instant;

use rapidpqp::io::load;
use rapidpqp::query::{CollideRequest, CollideResult, DistanceRequest, collide, distance, tolerance};
use rapidpqp::{Model, Placement, Vec3};

/// The mesh used when none is given.
pub const DEFAULT_MESH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/meshes/bunny_15k.obj");

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    /// Print the usage and stop.
    Help,
    /// Run the demo on this mesh file.
    Run {
        /// Path of the mesh.
        mesh: String,
    },
}

/// The usage text (`--help`).
pub fn usage() -> String {
    format!(
        "usage: run_demo.sh [MESH]\n\
         \n\
         Places a copy of MESH (an OBJ, STL or PLY file) at five poses against MESH itself,\n\
         shifted by fractions of the mesh's size (its bounding box's largest side) and turned\n\
         about the y axis, and asks at each: collide (how many triangle pairs intersect),\n\
         distance (how far apart the surfaces are) and tolerance (are they within 1% of the\n\
         size?), with the box and triangle tests each query did and its time.\n\
         Without MESH: the Stanford bunny, {DEFAULT_MESH}.\n\
         \n\
         \x20 -h, --help   this text\n"
    )
}

/// Reads the arguments (without the program name).
pub fn parse_args(args: &[String]) -> Result<Command, String> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return Ok(Command::Help);
    }
    if let Some(flag) = args.iter().find(|a| a.starts_with('-')) {
        return Err(format!("unknown option {flag:?}"));
    }
    match args {
        [] => Ok(Command::Run { mesh: DEFAULT_MESH.to_string() }),
        [mesh] => Ok(Command::Run { mesh: mesh.clone() }),
        _ => Err(format!("one mesh at most, got {} arguments", args.len())),
    }
}

/// What to call the mesh in the table: its file name without the extension.
pub fn mesh_name(path: &str) -> String {
    Path::new(path).file_stem().map_or_else(|| path.to_string(), |s| s.to_string_lossy().into_owned())
}

/// The poses of the copy, with their labels: shifts are fractions of `size`, turns about y.
pub fn poses(size: f64) -> Vec<(String, Placement)> {
    let turned = |degrees: f64, shift: Vec3| Placement {
        rotation: *rapidpqp::nalgebra::Rotation3::from_axis_angle(&Vec3::y_axis(), degrees.to_radians()).matrix(),
        translation: shift * size,
        scale: 1.0,
    };
    vec![
        ("same place".to_string(), Placement::IDENTITY),
        ("shifted 0.13 size in x, turned 30°".to_string(), turned(30.0, Vec3::new(0.13, 0.0, 0.0))),
        ("shifted 0.5 size in x, turned 90°".to_string(), turned(90.0, Vec3::new(0.5, 0.06, 0.0))),
        // More than the bounding box's largest side along x, not turned: always clear.
        ("shifted 1.1 size in x (apart)".to_string(), turned(0.0, Vec3::new(1.1, 0.0, 0.0))),
        ("turned 180° about y, 0.3 size up".to_string(), turned(180.0, Vec3::new(0.0, 0.3, 0.0))),
    ]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = match parse_args(&args) {
        Ok(Command::Help) => {
            print!("{}", usage());
            return;
        }
        Ok(Command::Run { mesh }) => mesh,
        Err(why) => {
            eprintln!("demo: {why}\n\n{}", usage());
            std::process::exit(2);
        }
    };
    let mesh = load(&path).unwrap_or_else(|e| {
        eprintln!("demo: {e}");
        std::process::exit(1)
    });
    let start = Instant::now();
    let model = Model::from_indexed(&mesh.vertices, &mesh.faces).unwrap_or_else(|e| {
        eprintln!("demo: {path}: {e}");
        std::process::exit(1)
    });
    let build = start.elapsed();
    let (lo, hi) = mesh
        .vertices
        .iter()
        .fold((Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY)), |(lo, hi), v| (lo.inf(v), hi.sup(v)));
    let size = (hi - lo).max();
    let limit = 0.01 * size;
    println!(
        "{path}: {} triangles, size {size:.4} (largest bounding-box side), built in {:.1} ms, {} bytes ({:.0} per triangle)",
        model.num_triangles(),
        build.as_secs_f64() * 1e3,
        model.memory_bytes(),
        model.memory_bytes() as f64 / model.num_triangles() as f64
    );
    println!(
        "\nAt each pose of a second {name}, against the first where its file puts it:\n\
         \x20 contacts   collide: how many pairs of triangles (one of each copy) intersect; a copy\n\
         \x20            in the same place meets itself everywhere, so every triangle counts with\n\
         \x20            each one it touches (its neighbours share corners with it)\n\
         \x20 distance   the shortest distance between the two surfaces (0 when they meet)\n\
         \x20 within     tolerance: are they within {limit:.4} (1% of the size) of each other?\n\
         \x20 tests      box tests + triangle tests that collide did: the work behind its time\n",
        name = mesh_name(&path)
    );

    let header = "pose of the second copy";
    println!(
        "{header:<36} {:>9} {:>11} {:>7} {:>17} {:>9} {:>9} {:>9}",
        "contacts", "distance", "within", "tests (box+tri)", "collide", "distance", "tolerance"
    );
    let mut result = CollideResult::new();
    let here = Placement::IDENTITY;
    for (label, pose) in poses(size) {
        let start = Instant::now();
        collide(&model, &here, &model, &pose, &CollideRequest::default(), &mut result)
            .expect("the poses are placements");
        let collide_time = start.elapsed();
        let start = Instant::now();
        let d = distance(&model, &here, &model, &pose, &DistanceRequest::default(), None).expect("valid poses");
        let distance_time = start.elapsed();
        let start = Instant::now();
        let t = tolerance(&model, &here, &model, &pose, limit, 0, None).expect("valid poses");
        let tolerance_time = start.elapsed();
        let ms = |d: std::time::Duration| format!("{:.2} ms", d.as_secs_f64() * 1e3);
        println!(
            "{label:<36} {:>9} {:>11.4} {:>7} {:>17} {:>9} {:>9} {:>9}",
            result.pairs.len(),
            d.distance,
            if t.closer { "yes" } else { "no" },
            format!("{}+{}", result.bv_tests, result.tri_tests),
            ms(collide_time),
            ms(distance_time),
            ms(tolerance_time)
        );
    }
}
