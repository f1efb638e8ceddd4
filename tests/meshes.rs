//! Every bundled mesh builds into a valid hierarchy, and a model collides with itself.

use rapidpqp::io::load_obj;
use rapidpqp::query::{CollideRequest, CollideResult, collide};
use rapidpqp::{Model, Placement};

#[test]
fn bundled_meshes_build_valid_hierarchies() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("meshes");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "obj"))
        .collect();
    names.sort();
    assert!(names.len() >= 10, "meshes/ should hold the bundled meshes");
    for path in names {
        let mesh = load_obj(&path).unwrap();
        let model = Model::from_indexed(&mesh.vertices, &mesh.faces).unwrap();
        model.validate().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(model.num_triangles(), mesh.faces.len());
        // A model placed on itself touches everywhere: first contact must find one.
        let mut out = CollideResult::new();
        let request = CollideRequest { first_contact: true, ..Default::default() };
        collide(&model, &Placement::IDENTITY, &model, &Placement::IDENTITY, &request, &mut out).unwrap();
        assert_eq!(out.pairs.len(), 1, "{}", path.display());
    }
}
