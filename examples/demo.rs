//! Demo: a mesh (by default the Stanford bunny, `meshes/bunny_15k.obj`, 15,536 triangles)
//! collided with a copy of itself at a few poses — contacts, work counts and timings. Run with
//! `./run_demo.sh [MESH.obj]` (or `cargo run --release --example demo -- [MESH.obj]`);
//! `--help` says so.

use std::path::Path;
use std::time::Instant;

use rapidpqp::io::load_obj;
use rapidpqp::query::{CollideRequest, CollideResult, collide};
use rapidpqp::{Model, Placement, Vec3};

/// The mesh used when none is given.
pub const DEFAULT_MESH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/meshes/bunny_15k.obj");

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    /// Print the usage and stop.
    Help,
    /// Run the demo on this OBJ file.
    Run {
        /// Path of the mesh.
        mesh: String,
    },
}

/// The usage text (`--help`).
pub fn usage() -> String {
    format!(
        "usage: run_demo.sh [MESH.obj]\n\
         \n\
         Collides the model of MESH (a Wavefront OBJ file) with a copy of itself at five poses,\n\
         shifted by fractions of the mesh's size (its bounding box's largest side) and turned\n\
         about the y axis: contacts, box tests, triangle tests and the time of each query.\n\
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
    let mesh = load_obj(&path).unwrap_or_else(|e| {
        eprintln!("demo: {e}");
        std::process::exit(1)
    });
    let tris = mesh.triangles();
    let ids: Vec<i32> = (0..tris.len() as i32).collect();
    let start = Instant::now();
    let model = Model::new(tris, ids).unwrap_or_else(|e| {
        eprintln!("demo: {path}: {e}");
        std::process::exit(1)
    });
    let build = start.elapsed();
    let (lo, hi) = mesh
        .vertices
        .iter()
        .fold((Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY)), |(lo, hi), v| (lo.inf(v), hi.sup(v)));
    let size = (hi - lo).max();
    println!(
        "{path}: {} triangles, size {size:.4} (largest bounding-box side), built in {:.1} ms, {} bytes ({:.0} per triangle)",
        model.num_triangles(),
        build.as_secs_f64() * 1e3,
        model.memory_bytes(),
        model.memory_bytes() as f64 / model.num_triangles() as f64
    );

    let name = mesh_name(&path);
    let mut result = CollideResult::new();
    let header = format!("pose of the second {name}");
    println!("\n{header:<40} {:>9} {:>11} {:>11} {:>10}", "contacts", "box tests", "tri tests", "time (µs)");
    for (label, pose) in poses(size) {
        let request = CollideRequest::default();
        let start = Instant::now();
        collide(&model, &Placement::IDENTITY, &model, &pose, &request, &mut result).expect("the poses are placements");
        let time = start.elapsed();
        println!(
            "{label:<40} {:>9} {:>11} {:>11} {:>10.1}",
            result.pairs.len(),
            result.bv_tests,
            result.tri_tests,
            time.as_secs_f64() * 1e6
        );
    }
}
