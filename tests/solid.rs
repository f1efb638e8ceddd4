//! Solid queries on the bundled meshes: a small sphere inside the (hole-filled) bunny, a bunny
//! inside a larger bunny, overlapping armadillos; signed distances and containment against
//! brute force (every triangle) with the solid-angle winding number as the independent side
//! test.

use rapidpqp::geometry::tri_distance::point_triangle_distance;
use rapidpqp::io::load_obj;
use rapidpqp::model::fill_holes;
use rapidpqp::query::{
    CollideRequest, CollideResult, SeparationBound, SolidRelation, Winding, closest_point, collide, contains,
    separation, signed_distances, solid_collide,
};
use rapidpqp::{Mat3, Model, Placement, Triangle, Vec3};

#[allow(dead_code)]
#[path = "../src/query/closed_meshes.rs"]
mod closed_meshes;
use closed_meshes::{solid_angle_winding, sphere};

fn mesh(name: &str) -> Vec<Triangle> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("meshes").join(name);
    load_obj(&path).unwrap().triangles()
}

fn model(triangles: &[Triangle]) -> Model {
    Model::new(triangles.to_vec(), (0..triangles.len() as i32).collect()).unwrap()
}

fn at(t: Vec3) -> Placement {
    Placement { rotation: Mat3::identity(), translation: t, scale: 1.0 }
}

fn bounds(tris: &[Triangle]) -> (Vec3, Vec3) {
    let (mut lo, mut hi) = (Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY));
    for v in tris.iter().flatten() {
        lo = lo.inf(v);
        hi = hi.sup(v);
    }
    (lo, hi)
}

/// Deterministic pseudo-random numbers in [0, 1).
struct Lcg(u64);
impl Lcg {
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn in_box(&mut self, lo: &Vec3, hi: &Vec3) -> Vec3 {
        Vec3::new(self.unit(), self.unit(), self.unit()).component_mul(&(hi - lo)) + lo
    }
}

/// The bunny with its base holes closed by fans: a closed, outward solid.
fn filled_bunny() -> Vec<Triangle> {
    let open = mesh("bunny.obj");
    assert_eq!(model(&open).solid_facts().boundary_edges, 223);
    fill_holes(&open)
}

#[test]
fn the_filled_bunny_is_a_solid_and_the_open_one_is_refused() {
    let tris = filled_bunny();
    let m = model(&tris);
    let facts = m.solid_facts();
    assert!(facts.closed && facts.oriented, "{facts:?}");
    assert!(facts.signed_volume > 0.0);
    let open = model(&mesh("bunny.obj"));
    let o = at(Vec3::zeros());
    let err = solid_collide(&open, &o, &m, &o).unwrap_err().to_string();
    assert!(err.contains("model 1") && err.contains("223 boundary edges"), "{err}");
}

/// A point deep inside a closed mesh and its distance to the surface: of a coarse grid over
/// the bounding box, the point farthest from the surface among those the solid-angle reference
/// puts inside.
fn deepest_point(tris: &[Triangle], m: &Model) -> (f64, Vec3) {
    let (lo, hi) = bounds(tris);
    let mut best = (0.0, Vec3::zeros());
    for i in 1..8 {
        for j in 1..8 {
            for k in 1..8 {
                let p = lo + (hi - lo).component_mul(&Vec3::new(i as f64, j as f64, k as f64)) / 8.0;
                let d = closest_point(m, &p).unwrap().distance;
                if d > best.0 && solid_angle_winding(tris, &p) > 0.5 {
                    best = (d, p);
                }
            }
        }
    }
    assert!(best.0 > 0.0);
    best
}

#[test]
fn a_small_sphere_inside_the_bunny() {
    let bunny_tris = filled_bunny();
    let bunny = model(&bunny_tris);
    let (depth, centre) = deepest_point(&bunny_tris, &bunny);
    assert!(depth > 0.0);
    let ball_tris = sphere(24, 12, Vec3::zeros(), 0.5 * depth);
    let ball = model(&ball_tris);
    let o = at(Vec3::zeros());
    let inside = at(centre);
    // A plain collide sees nothing; the solid query sees the containment, both ways round.
    let mut plain = CollideResult::new();
    collide(&ball, &inside, &bunny, &o, &CollideRequest::default(), &mut plain).unwrap();
    assert!(plain.pairs.is_empty());
    assert_eq!(solid_collide(&ball, &inside, &bunny, &o).unwrap().relation, SolidRelation::FirstInsideSecond);
    assert_eq!(solid_collide(&bunny, &o, &ball, &inside).unwrap().relation, SolidRelation::SecondInsideFirst);
    // Independent check: a vertex of the ball has winding 1 by solid angles.
    assert!((solid_angle_winding(&bunny_tris, &(ball_tris[0][0] + centre)) - 1.0).abs() < 1e-6);

    // Separation: the ball must travel at least its clearance plus its diameter; moved by the
    // translation found it is free (up to the sweep's rounding), a little short of it not.
    let s = separation(&bunny, &o, &ball, &inside, None).unwrap();
    assert_eq!((s.relation, s.bound), (SolidRelation::SecondInsideFirst, SeparationBound::DepthUpperBound));
    let travel = -s.signed_distance;
    assert!(travel >= 0.5 * depth + 0.5 * depth * 2.0 * 0.99, "{s:?}");
    assert!((s.translation.norm() - travel).abs() <= 1e-12 * travel);
    let u = s.translation / travel;
    let moved = |k: f64| at(centre + u * (travel * k));
    assert_eq!(solid_collide(&bunny, &o, &ball, &moved(1.0 + 1e-6)).unwrap().relation, SolidRelation::Apart);
    assert_ne!(solid_collide(&bunny, &o, &ball, &moved(1.0 - 1e-3)).unwrap().relation, SolidRelation::Apart);
}

#[test]
fn a_bunny_inside_a_larger_bunny() {
    let tris = filled_bunny();
    let bunny = model(&tris);
    let (lo, hi) = bounds(&tris);
    let c = (lo + hi) * 0.5;
    // Scaled copies about one centre cross (the bunny is not star-shaped: its ears), so the
    // inner bunny is scaled down into the body's deepest region: its bounding radius times the
    // scale is below the depth there, so it must be inside without touching.
    let (depth, deep) = deepest_point(&tris, &bunny);
    let radius = tris.iter().flatten().map(|v| (v - c).norm()).fold(0.0, f64::max);
    let k = 0.9 * depth / radius;
    let inner = Placement { rotation: Mat3::identity(), translation: deep - c * k, scale: k };
    let outer = at(Vec3::zeros());
    for t in tris.iter().step_by(tris.len() / 7) {
        assert!((solid_angle_winding(&tris, &inner.apply(&t[0])) - 1.0).abs() < 1e-6);
    }
    let r = solid_collide(&bunny, &inner, &bunny, &outer).unwrap();
    assert_eq!(r.relation, SolidRelation::FirstInsideSecond);
    assert_eq!(solid_collide(&bunny, &outer, &bunny, &inner).unwrap().relation, SolidRelation::SecondInsideFirst);
    // Scaled copies about the box centre cross, even at 3 times the size.
    for s in [1.5, 3.0] {
        let scaled = Placement { rotation: Mat3::identity(), translation: c - c * s, scale: s };
        assert_eq!(solid_collide(&bunny, &outer, &bunny, &scaled).unwrap().relation, SolidRelation::SurfacesCross);
    }
}

#[test]
fn overlapping_armadillos_separate_along_the_given_direction() {
    let tris = mesh("armadillo_50k.obj");
    let m = model(&tris);
    assert!(m.solid_facts().closed);
    let (lo, hi) = bounds(&tris);
    let o = at(Vec3::zeros());
    let p = at(Vec3::new((hi - lo).x * 0.3, 0.0, 0.0));
    let s = separation(&m, &o, &m, &p, Some(Vec3::x())).unwrap();
    assert_eq!(s.bound, SeparationBound::DepthAlongDirection);
    let d = -s.signed_distance;
    // Moving the second copy by the depth along +x frees it; 0.1 % less does not.
    assert_eq!(
        solid_collide(&m, &o, &m, &at(p.translation + s.translation * (1.0 + 1e-9))).unwrap().relation,
        SolidRelation::Apart
    );
    assert_ne!(
        solid_collide(&m, &o, &m, &at(p.translation + Vec3::x() * d * 0.999)).unwrap().relation,
        SolidRelation::Apart
    );
}

/// Signed distances and containment of random points against brute force: the distance over
/// every triangle, the side by the solid-angle winding number (for points not within 1e-9 of
/// the model's size from the surface, where floating-point solid angles are reliable).
#[test]
fn signed_distances_and_containment_against_brute_force() {
    for (name, tris) in [("filled bunny", filled_bunny()), ("armadillo_50k", mesh("armadillo_50k.obj"))] {
        let m = model(&tris);
        let (lo, hi) = bounds(&tris);
        let grow = (hi - lo) * 0.1;
        let mut rng = Lcg(0x5d);
        let mut points: Vec<Vec3> = (0..150).map(|_| rng.in_box(&(lo - grow), &(hi + grow))).collect();
        // Surface points: vertices and edge midpoints, exactly on the surface.
        for k in (0..tris.len()).step_by(tris.len() / 20) {
            points.push(tris[k][1]);
            points.push((tris[k][0] + tris[k][2]) * 0.5);
        }
        let mut signed = vec![0.0; points.len()];
        signed_distances(&m, &points, &mut signed, None).unwrap();
        let mut sides = vec![Winding::OnSurface; points.len()];
        contains(&m, &points, &mut sides).unwrap();
        let size = (hi - lo).amax();
        let (mut inside_seen, mut outside_seen) = (0, 0);
        for (k, p) in points.iter().enumerate() {
            let brute = tris.iter().map(|t| point_triangle_distance(p, t).distance).fold(f64::INFINITY, f64::min);
            assert!((signed[k].abs() - brute).abs() <= 1e-12 * size, "{name} point {k}: {} vs {brute}", signed[k]);
            if brute == 0.0 {
                assert_eq!(sides[k], Winding::OnSurface, "{name} point {k}");
                assert_eq!(signed[k], 0.0);
                continue;
            }
            if brute > 1e-9 * size {
                let inside = solid_angle_winding(&tris, p) > 0.5;
                assert_eq!(sides[k].is_inside(), inside, "{name} point {k}");
                assert_eq!(signed[k] < 0.0, inside, "{name} point {k}");
                if inside { inside_seen += 1 } else { outside_seen += 1 }
            }
        }
        assert!(inside_seen >= 10 && outside_seen >= 10, "{name}: {inside_seen} inside, {outside_seen} outside");
    }
}
