//! The solid facts of every bundled mesh and the time to compute them (once per model).
//!
//! `cargo run --release --example solid_facts` prints, per mesh, the triangle count, the time
//! to build the model and to compute its facts, and the facts.

use std::path::PathBuf;
use std::time::Instant;

use rapidpqp::Model;
use rapidpqp::io::load_obj;

fn main() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("meshes");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("meshes/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "obj"))
        .collect();
    paths.sort();
    println!(
        "{:<20} {:>8} {:>9} {:>9}  {:>7} {:>8} {:>8} {:>6} {:>6} {:>6} {:>5} {:>6} {:>5} {:>14}",
        "mesh",
        "tris",
        "build ms",
        "facts ms",
        "closed",
        "vertices",
        "edges",
        "bound",
        "nonman",
        "misor",
        "coll",
        "comps",
        "euler",
        "volume"
    );
    for path in paths {
        let tris = load_obj(&path).expect("mesh loads").triangles();
        let ids = (0..tris.len() as i32).collect();
        let start = Instant::now();
        let model = Model::new(tris.clone(), ids).expect("model builds");
        let build = start.elapsed().as_secs_f64() * 1e3;
        let start = Instant::now();
        let f = *model.solid_facts();
        let facts = start.elapsed().as_secs_f64() * 1e3;
        println!(
            "{:<20} {:>8} {:>9.1} {:>9.1}  {:>7} {:>8} {:>8} {:>6} {:>6} {:>6} {:>5} {:>6} {:>5} {:>14.6e}",
            path.file_name().unwrap().to_string_lossy(),
            tris.len(),
            build,
            facts,
            f.closed,
            f.vertices,
            f.edges,
            f.boundary_edges,
            f.non_manifold_edges,
            f.misoriented_edges,
            f.collapsed_triangles,
            f.components,
            f.euler_characteristic,
            f.signed_volume,
        );
    }
}
