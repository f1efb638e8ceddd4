use super::*;
use crate::geometry::tri_intersect::triangles_intersect;
use crate::math::{Mat3, Triangle};
use crate::test_rng::Rng;

use crate::query::closed_meshes::{cuboid, flipped};

/// An axis-aligned box, faces outward (inward when `inward`).
fn boxed(lo: Vec3, hi: Vec3, inward: bool) -> Vec<Triangle> {
    if inward { flipped(&cuboid(lo, hi)) } else { cuboid(lo, hi) }
}

fn cube(centre: Vec3, half: f64) -> Vec<Triangle> {
    cuboid(centre - Vec3::repeat(half), centre + Vec3::repeat(half))
}

/// A UV sphere with `n` bands and `2n` sectors.
fn sphere(centre: Vec3, radius: f64, n: usize) -> Vec<Triangle> {
    crate::query::closed_meshes::sphere(2 * n, n, centre, radius)
}

fn model(triangles: Vec<Triangle>) -> Model {
    let ids = (0..triangles.len() as i32).collect();
    Model::new(triangles, ids).unwrap()
}

fn at(t: Vec3) -> Placement {
    Placement { rotation: Mat3::identity(), translation: t, scale: 1.0 }
}

fn relation(m1: &Model, p1: &Placement, m2: &Model, p2: &Placement) -> SolidRelation {
    solid_collide(m1, p1, m2, p2).unwrap().relation
}

#[test]
fn the_spheres_and_boxes_are_closed() {
    for t in
        [cube(Vec3::zeros(), 1.0), sphere(Vec3::zeros(), 1.0, 12), boxed(-Vec3::repeat(1.0), Vec3::repeat(1.0), true)]
    {
        assert!(model(t).solid_facts().closed);
    }
}

#[test]
fn nested_crossing_and_apart() {
    let big = model(cube(Vec3::zeros(), 1.0));
    let small = model(cube(Vec3::zeros(), 0.2));
    let o = at(Vec3::zeros());
    assert_eq!(relation(&small, &o, &big, &o), SolidRelation::FirstInsideSecond);
    assert_eq!(relation(&big, &o, &small, &o), SolidRelation::SecondInsideFirst);
    assert_eq!(relation(&small, &at(Vec3::new(0.9, 0.0, 0.0)), &big, &o), SolidRelation::SurfacesCross);
    // Touching faces count as crossing surfaces.
    assert_eq!(relation(&small, &at(Vec3::new(0.8, 0.0, 0.0)), &big, &o), SolidRelation::SurfacesCross);
    assert_eq!(relation(&small, &at(Vec3::new(1.2 + 1e-12, 0.0, 0.0)), &big, &o), SolidRelation::Apart);
    // Just inside, not touching: still nested.
    assert_eq!(relation(&small, &at(Vec3::new(0.8 - 1e-12, 0.0, 0.0)), &big, &o), SolidRelation::FirstInsideSecond);
    // A plain collide sees nothing when nested: that is what the solid query adds.
    let mut plain = CollideResult::new();
    collide_placed(&small, &o, &big, &o, &CollideRequest::default(), &mut plain).unwrap();
    assert!(plain.pairs.is_empty());
}

#[test]
fn orientation_and_cavities() {
    let o = at(Vec3::zeros());
    // An inward-facing box is still a solid (winding −1 inside).
    let inverted = model(boxed(-Vec3::repeat(1.0), Vec3::repeat(1.0), true));
    let small = model(cube(Vec3::zeros(), 0.2));
    assert_eq!(relation(&small, &o, &inverted, &o), SolidRelation::FirstInsideSecond);
    // A hollow shell: outer box outward, inner box inward. Its cavity is outside the solid.
    let mut shell = cube(Vec3::zeros(), 1.0);
    shell.extend(boxed(-Vec3::repeat(0.5), Vec3::repeat(0.5), true));
    let shell = model(shell);
    assert!(shell.solid_facts().closed);
    assert_eq!(relation(&small, &o, &shell, &o), SolidRelation::Apart);
    assert_eq!(relation(&small, &at(Vec3::new(0.75, 0.0, 0.0)), &shell, &o), SolidRelation::FirstInsideSecond);
    // The separation of the piece in the cavity is its distance to the cavity's wall.
    let s = separation(&small, &o, &shell, &o, None).unwrap();
    assert_eq!(s.bound, SeparationBound::Distance);
    assert!((s.signed_distance - 0.3).abs() < 1e-12, "{s:?}");
}

#[test]
fn open_models_are_refused_with_their_open_edges() {
    let mut open = cube(Vec3::zeros(), 1.0);
    open.pop();
    let open = model(open);
    let closed = model(cube(Vec3::zeros(), 0.5));
    let o = at(Vec3::zeros());
    match solid_collide(&closed, &o, &open, &o) {
        Err(SolidQueryError::NotClosed { model: 2, error }) => {
            assert_eq!(error.boundary_edges, 3);
            assert!(SolidQueryError::NotClosed { model: 2, error }.to_string().contains("3 boundary edges"));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(separation(&open, &o, &closed, &o, None), Err(SolidQueryError::NotClosed { model: 1, .. })));
    assert!(matches!(
        separation(&closed, &o, &closed, &o, Some(Vec3::zeros())),
        Err(SolidQueryError::Query(QueryError::InvalidArgument))
    ));
    assert!(matches!(
        separation(&closed, &o, &closed, &o, Some(Vec3::new(f64::NAN, 0.0, 0.0))),
        Err(SolidQueryError::Query(QueryError::NonFinite))
    ));
}

#[test]
fn boxes_overlapping_have_their_exact_depth() {
    let a = model(boxed(Vec3::zeros(), Vec3::new(1.0, 2.0, 3.0), false));
    let b = model(boxed(Vec3::zeros(), Vec3::new(1.0, 1.0, 1.0), false));
    let o = at(Vec3::zeros());
    // b overlaps a by 0.25 in x, 0.5 in y, fully in z.
    let pb = at(Vec3::new(0.75, 1.5, 1.0));
    let s = separation(&a, &o, &b, &pb, None).unwrap();
    assert_eq!(s.relation, SolidRelation::SurfacesCross);
    assert_eq!(s.bound, SeparationBound::DepthUpperBound);
    assert!((s.signed_distance + 0.25).abs() < 1e-9, "{s:?}");
    assert!((s.translation - Vec3::new(0.25, 0.0, 0.0)).norm() < 1e-9, "{s:?}");
    // Along a given direction: the diagonal must travel √2 · min(0.25, 0.5) to separate.
    let d = separation(&a, &o, &b, &pb, Some(Vec3::new(3.0, 3.0, 0.0))).unwrap();
    assert_eq!(d.bound, SeparationBound::DepthAlongDirection);
    assert!((d.signed_distance + 0.25 * 2f64.sqrt()).abs() < 1e-9, "{d:?}");
    // Against the motion: −x must push b through a's far side... b spans [0.75, 1.75] in x, a
    // [0, 1]: moving −x separates only after b's right face passes x = 0, 1.75.
    let back = separation(&a, &o, &b, &pb, Some(Vec3::new(-1.0, 0.0, 0.0))).unwrap();
    assert!((back.signed_distance + 1.75).abs() < 1e-9, "{back:?}");
    // Moved by the translation found, the solids just touch: a little less still overlaps, a
    // little more is apart (the sweep's answer is never short of the last contact).
    let u = s.translation.normalize();
    let moved = |extra: f64| at(pb.translation + s.translation + u * extra);
    assert_eq!(relation(&a, &o, &b, &moved(-1e-9)), SolidRelation::SurfacesCross);
    assert_eq!(relation(&a, &o, &b, &moved(1e-9)), SolidRelation::Apart);
}

#[test]
fn a_nested_piece_must_leave_through_the_nearest_wall() {
    let big = model(cube(Vec3::zeros(), 1.0));
    let small = model(cube(Vec3::zeros(), 0.1));
    let o = at(Vec3::zeros());
    let s = separation(&big, &o, &small, &at(Vec3::new(0.0, 0.3, 0.0)), None).unwrap();
    assert_eq!(s.relation, SolidRelation::SecondInsideFirst);
    // Up +y: from y ∈ [0.2, 0.4] to beyond 1: 0.8.
    assert!((s.signed_distance + 0.8).abs() < 1e-9, "{s:?}");
    assert!((s.translation - Vec3::new(0.0, 0.8, 0.0)).norm() < 1e-9, "{s:?}");
}

#[test]
fn spheres_depth_is_within_the_polyhedra_bounds() {
    let n = 24;
    let (r1, r2) = (1.0, 0.5);
    let a = model(sphere(Vec3::zeros(), r1, n));
    let b = model(sphere(Vec3::zeros(), r2, n));
    // The polyhedra lie between their inscribed and circumscribed spheres (the vertices are
    // on the sphere): the inscribed radius of a UV sphere's faces is at least r·cos(π/n)².
    let shrink = (std::f64::consts::PI / n as f64).cos().powi(2);
    let mut rng = Rng(0x5eed_501d);
    for _ in 0..8 {
        let dir = rng.dir();
        let d = rng.range(0.6, 1.4);
        let s = separation(&a, &at(Vec3::zeros()), &b, &at(dir * d), None).unwrap();
        let (upper, lower) = (r1 + r2 - d, (r1 + r2) * shrink - d);
        let depth = -s.signed_distance;
        assert!(depth <= upper + 1e-9 && depth >= lower - 1e-9, "depth {depth} not in [{lower}, {upper}]");
        assert!((s.translation.norm() - depth).abs() <= 1e-12 * depth.max(1.0));
    }
}

#[test]
fn apart_models_report_their_distance() {
    let a = model(sphere(Vec3::zeros(), 1.0, 10));
    let b = model(cube(Vec3::zeros(), 0.5));
    let (pa, pb) = (at(Vec3::zeros()), at(Vec3::new(3.0, 0.2, -0.1)));
    let s = separation(&a, &pa, &b, &pb, None).unwrap();
    let d = distance(&a, &pa, &b, &pb, &DistanceRequest::default(), None).unwrap();
    assert_eq!((s.signed_distance, s.bound, s.relation), (d.distance, SeparationBound::Distance, SolidRelation::Apart));
    assert_eq!(s.translation, Vec3::zeros());
}

/// Brute force: surfaces cross when any triangle pair intersects (placed in model 1's frame as
/// the query places them); otherwise nested when a vertex's crossing count is odd, counted
/// along a direction chosen at random (the models here are in general position for it).
fn brute_relation(t1: &[Triangle], t2: &[Triangle], p1: &Placement, p2: &Placement, rng: &mut Rng) -> SolidRelation {
    let r = Relative::between(p1, p2);
    let placed2: Vec<Triangle> = t2.iter().map(|t| t.map(|p| r.apply(&p))).collect();
    if t1.iter().any(|a| placed2.iter().any(|b| triangles_intersect(a, b))) {
        return SolidRelation::SurfacesCross;
    }
    let odd = |p: Vec3, tris: &[Triangle], rng: &mut Rng| {
        let d = rng.dir();
        let mut count = 0;
        for t in tris {
            // Möller–Trumbore, floating point: fine away from edges.
            let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
            let h = d.cross(&e2);
            let det = e1.dot(&h);
            if det.abs() < 1e-14 {
                continue;
            }
            let s = p - t[0];
            let u = s.dot(&h) / det;
            let q = s.cross(&e1);
            let v = d.dot(&q) / det;
            let t = e2.dot(&q) / det;
            if u >= 0.0 && v >= 0.0 && u + v <= 1.0 && t > 0.0 {
                count += 1;
            }
        }
        count % 2 == 1
    };
    if odd(placed2[0][0], t1, rng) {
        SolidRelation::SecondInsideFirst
    } else if odd(t1[0][0], &placed2, rng) {
        SolidRelation::FirstInsideSecond
    } else {
        SolidRelation::Apart
    }
}

#[test]
fn random_placements_agree_with_brute_force() {
    let mut rng = Rng(0x501d_c011);
    let t1 = sphere(Vec3::zeros(), 1.0, 8);
    let m1 = model(t1.clone());
    let shapes = [cube(Vec3::zeros(), 0.3), sphere(Vec3::zeros(), 0.4, 6), cube(Vec3::zeros(), 1.5)];
    let mut seen = std::collections::HashSet::new();
    for k in 0..crate::test_rng::budget(300, 3000) {
        let t2 = &shapes[k % shapes.len()];
        let m2 = model(t2.clone());
        let p1 = Placement { rotation: rng.rotation(), translation: Vec3::zeros(), scale: 1.0 };
        let t = Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)) * rng.range(0.0, 2.5);
        let p2 = Placement { rotation: rng.rotation(), translation: t, scale: 1.0 };
        let want = brute_relation(&t1, t2, &p1, &p2, &mut rng);
        assert_eq!(relation(&m1, &p1, &m2, &p2), want, "case {k}");
        seen.insert(format!("{want:?}"));
    }
    assert_eq!(seen.len(), 4, "every relation occurs: {seen:?}");
}

#[test]
fn far_from_the_origin_and_at_huge_and_tiny_scales() {
    for scale in [1e-100, 1.0, 1e100] {
        for offset in [0.0, 1e3 * scale, 1e6 * scale] {
            let off = Vec3::new(offset, -offset, offset);
            let big = model(cube(off, scale));
            let small = model(cube(off, 0.25 * scale));
            let o = at(Vec3::zeros());
            assert_eq!(relation(&small, &o, &big, &o), SolidRelation::FirstInsideSecond, "{scale} {offset}");
            let s = separation(&big, &o, &small, &o, Some(Vec3::x())).unwrap();
            // Leaving along +x: 1.25 · scale, to the sweep's precision at these coordinates.
            let tolerance = 1e-9 * (scale + offset);
            assert!((s.signed_distance + 1.25 * scale).abs() <= tolerance, "{scale} {offset}: {s:?}");
        }
    }
}

#[test]
fn signed_distances_and_containment_of_points() {
    let m = model(cube(Vec3::zeros(), 1.0));
    let points = [
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(0.5, -0.25, 0.75),
        Vec3::new(1.0, 0.3, 0.2),
        Vec3::new(1.0, 1.0, 1.0),
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::new(1.0 + f64::EPSILON, 0.0, 0.0),
        Vec3::new(1.0 - f64::EPSILON / 2.0, 0.0, 0.0),
    ];
    let want = [-1.0, -0.25, 0.0, 0.0, 1.0, f64::EPSILON, -f64::EPSILON / 2.0];
    let mut got = [f64::NAN; 7];
    let mut closest = [None; 7];
    signed_distances(&m, &points, &mut got, Some(&mut closest)).unwrap();
    assert_eq!(got, want);
    assert!(closest.iter().all(|c| c.is_some()));
    let mut sides = [Winding::OnSurface; 7];
    contains(&m, &points, &mut sides).unwrap();
    let inside: Vec<bool> = sides.iter().map(|w| w.is_inside()).collect();
    assert_eq!(inside, [true, true, false, false, false, false, true]);
    assert_eq!((sides[2], sides[3]), (Winding::OnSurface, Winding::OnSurface));
    // An open model is refused, naming its open edges.
    let mut open = cube(Vec3::zeros(), 1.0);
    open.truncate(10);
    let open = model(open);
    assert!(matches!(
        signed_distances(&open, &points, &mut got, None),
        Err(SolidQueryError::NotClosed { model: 1, error }) if error.boundary_edges == 4
    ));
    assert!(matches!(contains(&open, &points, &mut sides), Err(SolidQueryError::NotClosed { .. })));
    let bad = [Vec3::new(f64::NAN, 0.0, 0.0)];
    assert!(matches!(
        signed_distances(&m, &bad, &mut got[..1], None),
        Err(SolidQueryError::Query(QueryError::NonFinite))
    ));
}
