//! Deformable models: after vertex updates (refits, subset updates, rebuilds) every query
//! answers as on a model freshly built from the same positions, and as brute force; bad
//! updates are refused and change nothing.

mod common;
#[path = "scenes/deform.rs"]
mod scenes;

use common::brute_force;
use rapidpqp::geometry::tri_distance::triangle_distance;
use rapidpqp::io::Mesh;
use rapidpqp::model::{RefitError, RefitReport};
use rapidpqp::query::{
    CollideRequest, CollideResult, DistanceRequest, TriangleFrame, closest_point, collide, distance, solid_collide,
    tolerance,
};
use rapidpqp::{Mat3, Model, Placement, Triangle, Vec3};
use scenes::{Cloth, SceneRng, Wobble, uv_sphere};

fn placement(rotation: Mat3, translation: Vec3) -> Placement {
    Placement { rotation, translation, scale: 1.0 }
}

fn rotation(rng: &mut SceneRng) -> Mat3 {
    let axis = Vec3::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5) + Vec3::new(1e-3, 0.0, 0.0);
    *nalgebra::Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(axis), 6.3 * rng.next()).matrix()
}

fn triangles_of(vertices: &[Vec3], faces: &[[u32; 3]]) -> Vec<Triangle> {
    faces.iter().map(|f| f.map(|v| vertices[v as usize])).collect()
}

/// Triangles of a model in input order (its ids are the input indices).
fn in_input_order(m: &Model) -> Vec<Triangle> {
    let mut out = vec![[Vec3::zeros(); 3]; m.num_triangles()];
    for (t, &id) in m.triangles().iter().zip(m.ids()) {
        out[id as usize] = *t;
    }
    out
}

fn pairs(out: &CollideResult) -> Vec<(i32, i32)> {
    let mut p: Vec<_> = out.pairs.iter().map(|p| (p.id1, p.id2)).collect();
    p.sort_unstable();
    p
}

fn brute_distance(a: &[Triangle], b: &[Triangle], p1: &Placement, p2: &Placement) -> f64 {
    let place = |p: &Placement, t: &Triangle| t.map(|v| p.apply(&v));
    let b: Vec<Triangle> = b.iter().map(|t| place(p2, t)).collect();
    a.iter()
        .map(|ta| {
            let ta = place(p1, ta);
            b.iter().map(|tb| triangle_distance(&ta, tb).distance).fold(f64::INFINITY, f64::min)
        })
        .fold(f64::INFINITY, f64::min)
}

/// Every query on `refitted` (a deformable model after updates) against `fresh` (built
/// anew from the same triangles) and brute force.
fn check_against_fresh(refitted: &Model, other: &Model, rng: &mut SceneRng, what: &str, brute: bool) {
    refitted.validate().unwrap_or_else(|e| panic!("{what}: {e}"));
    let fresh = Model::new(in_input_order(refitted), (0..refitted.num_triangles() as i32).collect()).unwrap();
    let (a, b) = (in_input_order(refitted), in_input_order(other));
    let size = refitted.magnitude().max(other.magnitude());
    let mut out = CollideResult::new();
    for pose in 0..3 {
        let (p1, p2) = if pose == 0 {
            (Placement::IDENTITY, Placement::IDENTITY)
        } else {
            let t = Vec3::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5) * (0.1 * size);
            (placement(rotation(rng), Vec3::zeros()), placement(rotation(rng), t))
        };
        for frame in [TriangleFrame::Model1, TriangleFrame::Model2] {
            let request = CollideRequest { frame, ..Default::default() };
            collide(refitted, &p1, other, &p2, &request, &mut out).unwrap();
            let got = pairs(&out);
            collide(&fresh, &p1, other, &p2, &request, &mut out).unwrap();
            assert_eq!(got, pairs(&out), "{what}: collide after refit vs fresh build, pose {pose}");
            if brute {
                let mut want = brute_force(&a, &b, &p1, &p2, frame);
                want.sort_unstable();
                assert_eq!(got, want, "{what}: collide after refit vs brute force, pose {pose}");
            }
        }
        let exact = DistanceRequest { rel_err: 0.0, abs_err: 0.0, qsize: 2 };
        let d = distance(refitted, &p1, other, &p2, &exact, None).unwrap();
        let df = distance(&fresh, &p1, other, &p2, &exact, None).unwrap();
        let tol = 1e-12 * size;
        assert!((d.distance - df.distance).abs() <= tol, "{what}: distance {} vs fresh {}", d.distance, df.distance);
        if brute {
            let want = brute_distance(&a, &b, &p1, &p2);
            assert!((d.distance - want).abs() <= tol, "{what}: distance {} vs brute {want}", d.distance);
        }
        let approx = DistanceRequest { rel_err: 0.1, abs_err: 0.0, qsize: 2 };
        let d2 = distance(refitted, &p1, other, &p2, &approx, None).unwrap();
        assert!(d2.distance <= df.distance * 1.1 + tol && d2.distance >= df.distance - tol, "{what}: rel_err bound");
        for t in [0.5 * df.distance, 2.0 * df.distance + 1e-9 * size] {
            let r = tolerance(refitted, &p1, other, &p2, t, 2, None).unwrap();
            let rf = tolerance(&fresh, &p1, other, &p2, t, 2, None).unwrap();
            assert_eq!(r.closer, rf.closer, "{what}: tolerance {t}");
            if df.distance > 0.0 {
                assert_eq!(r.closer, df.distance < t, "{what}: tolerance {t} vs distance");
            }
        }
    }
    for _ in 0..20 {
        let q = Vec3::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5) * (2.0 * size);
        let c = closest_point(refitted, &q).unwrap();
        let cf = closest_point(&fresh, &q).unwrap();
        assert!((c.distance - cf.distance).abs() <= 1e-12 * size, "{what}: closest point");
    }
    let (s, sf) = (refitted.solid_facts(), fresh.solid_facts());
    assert_eq!(s.closed, sf.closed, "{what}: solid facts");
    assert_eq!(s.faces, sf.faces);
    if s.closed && other.solid_facts().closed {
        let p = Placement::IDENTITY;
        let r = solid_collide(refitted, &p, other, &p).unwrap();
        let rf = solid_collide(&fresh, &p, other, &p).unwrap();
        assert_eq!(r.relation, rf.relation, "{what}: solid relation");
    }
}

fn sphere_model(rings: usize, segments: usize, centre: Vec3, radius: f64) -> (Mesh, Model) {
    let mesh = uv_sphere(rings, segments, centre, radius);
    let model = Model::deformable(&mesh.vertices, &mesh.faces, None).unwrap();
    (mesh, model)
}

/// A wobbling closed sphere against a fixed one, frame after frame: refitted (never rebuilt)
/// and compared with fresh builds and brute force.
#[test]
fn wobbling_sphere_matches_fresh_builds_and_brute_force() {
    let (mesh, mut model) = sphere_model(12, 16, Vec3::zeros(), 1.0);
    model.set_rebuild_threshold(f64::INFINITY).unwrap();
    let other = Model::new(uv_sphere(10, 14, Vec3::new(0.9, 0.3, 0.0), 0.8).triangles(), (0..252).collect()).unwrap();
    assert!(other.solid_facts().closed && model.solid_facts().closed);
    let wobble = Wobble::new(mesh.vertices.clone(), 0.15, 7);
    let mut rng = SceneRng(11);
    for frame in 0..12 {
        let report = model.update_vertices(&wobble.frame(frame as f64 * 3.0)).unwrap();
        assert!(!report.rebuilt && report.degradation.is_finite());
        check_against_fresh(&model, &other, &mut rng, &format!("frame {frame}"), true);
    }
    // A refitted model passes the checks of loading a serialized one, and answers alike.
    let loaded = rapidpqp::serialize::model_from_bytes(&serialized(&model)).unwrap();
    loaded.validate().unwrap();
    let (p, mut out) = (Placement::IDENTITY, CollideResult::new());
    collide(&model, &p, &other, &p, &Default::default(), &mut out).unwrap();
    let got = pairs(&out);
    collide(&loaded, &p, &other, &p, &Default::default(), &mut out).unwrap();
    assert_eq!(got, pairs(&out));
    assert!(!got.is_empty());
}

/// A cloth sheet falling onto a small body and draping over it; the body wobbles too.
#[test]
fn cloth_over_body_matches_fresh_builds_and_brute_force() {
    let body_mesh = uv_sphere(10, 16, Vec3::zeros(), 1.0);
    let cloth = Cloth::new(&body_mesh, 14, 3);
    let faces = cloth.faces();
    let mut sheet = Model::deformable(&cloth.frame(0, 8), &faces, None).unwrap();
    let mut body = Model::deformable(&body_mesh.vertices, &body_mesh.faces, None).unwrap();
    let wobble = Wobble::new(body_mesh.vertices.clone(), 0.05, 5);
    let mut rng = SceneRng(5);
    let mut contacts = 0;
    for frame in 0..=10 {
        sheet.update_vertices(&cloth.frame(frame, 8)).unwrap();
        body.update_vertices(&wobble.frame(frame as f64)).unwrap();
        check_against_fresh(&sheet, &body, &mut rng, &format!("cloth frame {frame}"), true);
        let mut out = CollideResult::new();
        collide(&sheet, &Placement::IDENTITY, &body, &Placement::IDENTITY, &Default::default(), &mut out).unwrap();
        contacts += out.pairs.len();
    }
    assert!(contacts > 20, "the draped cloth should touch the body ({contacts} contacts)");
}

/// A subset update gives the same model as the full update of the same positions, and a
/// rebuild gives exactly the model a fresh build of the positions gives.
#[test]
fn subset_updates_and_rebuilds_agree() {
    let (mesh, mut full) = sphere_model(8, 12, Vec3::new(3.0, -2.0, 1.0), 2.0);
    let mut subset = full.clone();
    let mut rng = SceneRng(99);
    let mut positions = mesh.vertices.clone();
    for _ in 0..5 {
        let moved: Vec<u32> = (0..positions.len() as u32).filter(|_| rng.next() < 0.3).collect();
        let new: Vec<Vec3> = moved
            .iter()
            .map(|&v| positions[v as usize] + Vec3::new(rng.next(), rng.next(), rng.next()) * 0.3)
            .collect();
        for (&v, p) in moved.iter().zip(&new) {
            positions[v as usize] = *p;
        }
        let r1 = full.update_vertices(&positions).unwrap();
        let r2 = subset.update_vertex_subset(&moved, &new).unwrap();
        assert_eq!(r1, r2);
        assert_eq!(full.triangles(), subset.triangles());
        assert_eq!(full.ids(), subset.ids());
        assert_eq!(full.faces(), subset.faces());
        full.validate().unwrap();
    }
    assert_eq!(in_input_order(&full), triangles_of(&positions, &mesh.faces));
    // The faces follow the leaf order: each triangle is its face's corners.
    let faces = full.faces().unwrap().to_vec();
    for (t, f) in full.triangles().iter().zip(&faces) {
        assert_eq!(*t, f.map(|v| positions[v as usize]));
    }
    let fresh = Model::new(full.triangles().to_vec(), full.ids().to_vec()).unwrap();
    full.rebuild().unwrap();
    assert_eq!(full.degradation().unwrap(), 1.0);
    assert_eq!(full.triangles(), fresh.triangles());
    assert_eq!(full.ids(), fresh.ids());
    assert_eq!(serialized(&full), serialized(&fresh));
    // An empty subset refits in place and moves nothing.
    let before = subset.triangles().to_vec();
    subset.update_vertex_subset(&[], &[]).unwrap();
    assert_eq!(subset.triangles(), &before[..]);
}

fn serialized(m: &Model) -> Vec<u8> {
    rapidpqp::serialize::model_to_bytes(m)
}

/// Past the threshold an update rebuilds; the report says so, and the result is the fresh
/// build's tree.
#[test]
fn rebuilds_past_the_threshold() {
    let (mesh, mut model) = sphere_model(10, 12, Vec3::zeros(), 1.0);
    assert_eq!(model.rebuild_threshold(), rapidpqp::model::DEFAULT_REBUILD_THRESHOLD);
    assert_eq!(model.degradation().unwrap(), 1.0);
    // Unmoved vertices: boxes of boxes are a little looser than built ones, nothing more.
    let same = model.update_vertices(&mesh.vertices).unwrap();
    assert!(!same.rebuilt && (1.0..1.5).contains(&same.degradation), "{same:?}");
    // Scramble the vertices: the old axes fit nothing any more.
    let mut rng = SceneRng(3);
    let scrambled: Vec<Vec3> =
        mesh.vertices.iter().map(|_| Vec3::new(rng.next(), rng.next(), rng.next()) * 2.0).collect();
    let mut kept_model = model.clone();
    kept_model.set_rebuild_threshold(f64::INFINITY).unwrap();
    let kept = kept_model.update_vertices(&scrambled).unwrap();
    assert!(!kept.rebuilt && kept.degradation > 2.0, "{kept:?}");
    model.set_rebuild_threshold(2.0).unwrap();
    let r = model.update_vertices(&scrambled).unwrap();
    assert_eq!(r, RefitReport { degradation: kept.degradation, rebuilt: true });
    assert_eq!(model.degradation().unwrap(), 1.0);
    let fresh = Model::new(kept_model.triangles().to_vec(), kept_model.ids().to_vec()).unwrap();
    assert_eq!(serialized(&model), serialized(&fresh));
    for bad in [0.5, f64::NAN, -1.0, f64::NEG_INFINITY] {
        assert_eq!(model.set_rebuild_threshold(bad), Err(RefitError::InvalidThreshold));
    }
    assert_eq!(model.rebuild_threshold(), 2.0);
}

/// Refused updates change nothing; models that are not deformable are refused.
#[test]
fn bad_updates_change_nothing() {
    let (mesh, mut model) = sphere_model(6, 8, Vec3::zeros(), 1.0);
    let nv = mesh.vertices.len();
    model.update_vertices(&Wobble::new(mesh.vertices.clone(), 0.1, 1).frame(1.0)).unwrap();
    let before = (serialized(&model), model.faces().unwrap().to_vec(), model.degradation().unwrap());
    let same = |m: &Model| {
        assert_eq!(serialized(m), before.0);
        assert_eq!(m.faces().unwrap(), &before.1[..]);
        assert_eq!(m.degradation().unwrap(), before.2);
    };
    let mut v = mesh.vertices.clone();
    assert_eq!(model.update_vertices(&v[1..]), Err(RefitError::WrongLength { expected: nv, got: nv - 1 }));
    v.push(Vec3::zeros());
    assert_eq!(model.update_vertices(&v), Err(RefitError::WrongLength { expected: nv, got: nv + 1 }));
    v.pop();
    for (bad, err) in [
        (f64::NAN, RefitError::NonFiniteCoordinate),
        (f64::INFINITY, RefitError::NonFiniteCoordinate),
        (1e302, RefitError::OutOfRange),
    ] {
        let mut w = v.clone();
        w[nv - 1].y = bad;
        assert_eq!(model.update_vertices(&w), Err(err));
        assert_eq!(model.update_vertex_subset(&[3], &[Vec3::new(0.0, bad, 0.0)]), Err(err));
        same(&model);
    }
    let p = Vec3::new(0.5, 0.5, 0.5);
    assert_eq!(model.update_vertex_subset(&[nv as u32], &[p]), Err(RefitError::IndexOutOfRange));
    assert_eq!(model.update_vertex_subset(&[1, 2, 1], &[p, p, p]), Err(RefitError::DuplicateIndex));
    assert_eq!(model.update_vertex_subset(&[1, 2], &[p]), Err(RefitError::LengthMismatch));
    same(&model);
    // Not deformable: built ordinarily, or loaded from a serialized model.
    let mut plain = Model::new(mesh.triangles(), (0..mesh.faces.len() as i32).collect()).unwrap();
    assert!(!plain.is_deformable());
    assert_eq!(plain.update_vertices(&v), Err(RefitError::NotDeformable));
    assert_eq!(plain.update_vertex_subset(&[], &[]), Err(RefitError::NotDeformable));
    assert_eq!(plain.rebuild(), Err(RefitError::NotDeformable));
    assert_eq!(plain.degradation(), Err(RefitError::NotDeformable));
    let mut loaded = rapidpqp::serialize::model_from_bytes(&serialized(&model)).unwrap();
    assert_eq!(loaded.update_vertices(&v), Err(RefitError::NotDeformable));
    // Bad builds.
    assert_eq!(Model::deformable(&v, &[[0, 1, nv as u32]], None).unwrap_err(), RefitError::IndexOutOfRange);
    assert_eq!(Model::deformable(&v, &[], None).unwrap_err(), RefitError::EmptyModel);
    assert_eq!(
        Model::deformable(&v, &[[0, 1, 2]], Some(vec![1, 2])).unwrap_err(),
        RefitError::WrongLength { expected: 1, got: 2 }
    );
    let mut w = v.clone();
    w[nv - 1].x = f64::NAN; // unused by the one face: still refused
    assert_eq!(Model::deformable(&w, &[[0, 1, 2]], None).unwrap_err(), RefitError::NonFiniteCoordinate);
}

/// Soups, caller ids, degenerate and extreme positions: refits stay valid (every node holds
/// its vertices) and agree with fresh builds.
#[test]
fn soups_degenerate_and_extreme_positions() {
    let mut rng = SceneRng(42);
    let soup: Vec<Triangle> = (0..60)
        .map(|_| {
            let c = Vec3::new(rng.next(), rng.next(), rng.next());
            [c, c + Vec3::new(rng.next(), 0.0, 0.1) * 0.2, c + Vec3::new(0.0, rng.next(), 0.1) * 0.2]
        })
        .collect();
    let ids: Vec<i32> = (0..60).map(|k| 1000 - 7 * k).collect();
    let mut model = Model::deformable_soup(&soup, Some(ids.clone())).unwrap();
    assert_eq!(model.num_vertices(), 180);
    for (t, &id) in model.triangles().iter().zip(model.ids()) {
        assert_eq!(*t, soup[((1000 - id) / 7) as usize]);
    }
    model.set_rebuild_threshold(f64::INFINITY).unwrap();
    let other = Model::new(soup.clone(), (0..60).collect()).unwrap();
    let base: Vec<Vec3> = soup.iter().flatten().copied().collect();
    type Move = Box<dyn Fn(&Vec3, usize) -> Vec3>;
    let cases: Vec<(&str, Move)> = vec![
        ("all at one point", Box::new(|_, _| Vec3::new(0.25, 0.5, 0.75))),
        ("collinear", Box::new(|p, _| Vec3::new(p.x, 0.0, 0.0))),
        ("coplanar", Box::new(|p, _| Vec3::new(p.x, p.y, 0.5))),
        ("grid-snapped", Box::new(|p, _| p.map(|v| (v * 4.0).round() / 4.0))),
        ("far from the origin", Box::new(|p, _| p + Vec3::new(1e200, -3e199, 7e198))),
        ("huge", Box::new(|p, _| p * 1e300)),
        ("tiny", Box::new(|p, _| p * 1e-300)),
        ("tiny, subnormal", Box::new(|p, _| p * 1e-310)),
        ("mixed scales", Box::new(|p, k| if k % 2 == 0 { p * 1e250 } else { p * 1e-250 })),
        ("back", Box::new(|p, _| *p)),
    ];
    for (what, f) in &cases {
        let moved: Vec<Vec3> = base.iter().enumerate().map(|(k, p)| f(p, k)).collect();
        model.update_vertices(&moved).unwrap_or_else(|e| panic!("{what}: {e}"));
        model.validate().unwrap_or_else(|e| panic!("{what}: {e}"));
        let fresh = Model::new(model.triangles().to_vec(), model.ids().to_vec()).unwrap();
        let mut out = CollideResult::new();
        let p = Placement::IDENTITY;
        collide(&model, &p, &model, &p, &Default::default(), &mut out).unwrap();
        let got = pairs(&out);
        collide(&fresh, &p, &fresh, &p, &Default::default(), &mut out).unwrap();
        assert_eq!(got, pairs(&out), "{what}: self-collide");
        let exact = DistanceRequest { rel_err: 0.0, abs_err: 0.0, qsize: 2 };
        let q = placement(Mat3::identity(), Vec3::new(0.3, 0.0, 0.0));
        let d = distance(&model, &q, &other, &p, &exact, None);
        let df = distance(&fresh, &q, &other, &p, &exact, None);
        match (d, df) {
            (Ok(d), Ok(df)) => {
                // (Exact up to rounding of the coordinates' magnitude.)
                let tol = 1e-12 * (model.magnitude() + other.magnitude() + 0.3);
                assert!((d.distance - df.distance).abs() <= tol, "{what}: {} vs {}", d.distance, df.distance)
            }
            (d, df) => assert_eq!(d.is_ok(), df.is_ok(), "{what}: {:?} {:?}", d.err(), df.err()),
        }
    }
    assert!(model.degradation().unwrap().is_finite());
}

/// The cost of deformability: 12 bytes a triangle (faces) and a fixed header (under 128 bytes).
#[test]
fn deformable_memory_is_faces_only() {
    let mesh = uv_sphere(20, 30, Vec3::zeros(), 1.0);
    let plain = Model::new(mesh.triangles(), (0..mesh.faces.len() as i32).collect()).unwrap();
    let deform = Model::deformable(&mesh.vertices, &mesh.faces, None).unwrap();
    let extra = deform.memory_bytes() - plain.memory_bytes();
    assert!(extra >= 12 * mesh.faces.len() && extra <= 12 * mesh.faces.len() + 128, "{extra}");
}
