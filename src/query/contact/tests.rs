use super::*;
use crate::geometry::tri_contact::triangle_contact;
use crate::math::{Mat3, Triangle, length};
use crate::query::Relative;
use crate::query::closed_meshes::{cuboid, is_closed, moved, sphere};
use crate::query::collide::TriangleFrame;
use crate::test_rng::Rng;

fn model(tris: &[Triangle]) -> Model {
    Model::new(tris.to_vec(), (0..tris.len() as i32).collect()).unwrap()
}

/// Soups with touching (grid-snapped), zero-area and coplanar triangles.
fn soup(rng: &mut Rng, n: usize) -> Vec<Triangle> {
    (0..n)
        .map(|k| {
            let c = rng.vec(-0.5, 0.5);
            let s = 0.1 + 0.4 * rng.unit();
            let mut t =
                [c + rng.vec(-0.5 * s, 0.5 * s), c + rng.vec(-0.5 * s, 0.5 * s), c + rng.vec(-0.5 * s, 0.5 * s)];
            match k % 7 {
                0 => t[2] = t[0] + (t[1] - t[0]) * 0.5,
                1 => t = t.map(|p| Vec3::new(p.x, p.y, 0.0)),
                2 | 3 => t = t.map(|p| p.map(|v| (v * 4.0).round() / 4.0)),
                _ => {}
            }
            t
        })
        .collect()
}

type Key = [u64; 3];
fn key(p: &Vec3) -> Key {
    [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]
}

/// The geometry of every pair equals brute force (every triangle pair through
/// `triangle_contact` in the request's frame, mapped to the world), bitwise.
#[test]
fn geometry_matches_brute_force_on_random_soups() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let (mut total, mut polygons) = (0, 0);
    for round in 0..30 {
        let (a, b) = (soup(&mut rng, 20 + round), soup(&mut rng, 25 + round));
        let (ma, mb) = (model(&a), model(&b));
        for _ in 0..4 {
            let scale = [1.0, 2f64.powi(300), 2f64.powi(-300)][round % 3];
            let (p1, p2) = if rng.unit() < 0.4 {
                // Exactly the identity between the models (coplanar pairs stay coplanar).
                let p = Placement { rotation: Mat3::identity(), translation: Vec3::zeros(), scale };
                (p, p)
            } else {
                (
                    Placement { rotation: rng.rotation(), translation: rng.vec(-0.25, 0.25) * scale, scale },
                    Placement {
                        rotation: rng.rotation(),
                        translation: rng.vec(-0.25, 0.25) * scale,
                        scale: scale * 1.25,
                    },
                )
            };
            for frame in [TriangleFrame::Model1, TriangleFrame::Model2] {
                let mut out = CollideResult::new();
                let request = CollideRequest { frame, ..Default::default() };
                collide_geometry(&ma, &p1, &mb, &p2, &request, &mut out).unwrap();
                assert_eq!(out.pairs.len(), out.geometry.len());
                let mut got: Vec<_> = out.pairs.iter().zip(&out.geometry).map(|(p, g)| ((p.id1, p.id2), *g)).collect();
                got.sort_by_key(|g| g.0);
                let mut want = Vec::new();
                for (i, ta) in a.iter().enumerate() {
                    for (j, tb) in b.iter().enumerate() {
                        let c = match frame {
                            TriangleFrame::Model1 => {
                                let r = Relative::between(&p1, &p2);
                                triangle_contact(ta, &tb.map(|p| r.apply(&p))).map(|c| c.placed(&p1))
                            }
                            TriangleFrame::Model2 => {
                                let r = Relative::between(&p2, &p1);
                                triangle_contact(tb, &ta.map(|p| r.apply(&p))).map(|c| c.placed(&p2).swapped())
                            }
                        };
                        if let Some(c) = c {
                            want.push(((i as i32, j as i32), c));
                        }
                    }
                }
                assert_eq!(got.len(), want.len());
                for ((gk, g), (wk, w)) in got.iter().zip(&want) {
                    assert_eq!(gk, wk);
                    assert_eq!(
                        g.points().iter().map(key).collect::<Vec<_>>(),
                        w.points().iter().map(key).collect::<Vec<_>>()
                    );
                    assert_eq!((g.normal1, g.normal2, g.flags), (w.normal1, w.normal2, w.flags));
                    assert!(g.error_bound.is_finite());
                    polygons += usize::from(g.len >= 3);
                }
                total += want.len();
            }
        }
    }
    assert!(total > 300 && polygons > 5, "{total} pairs, {polygons} polygons");
}

/// The contact set's properties: contacts pairwise farther apart than the tolerance, every
/// pair's points (segment ends, polygon corners) within the tolerance of a contact, unit or
/// flagged normals.
fn check_set(geometry: &[TriContact], contacts: &[Contact], tol: f64) {
    for (i, c) in contacts.iter().enumerate() {
        for d in &contacts[i + 1..] {
            assert!(length(&(c.point - d.point)) > tol, "{c:?} {d:?}");
        }
        assert!(c.normal.iter().all(|v| v.is_finite()));
        if c.flags & CONTACT_NO_NORMAL == 0 {
            assert!((c.normal.norm() - 1.0).abs() < 1e-12);
        } else {
            assert_eq!(c.normal, Vec3::zeros());
        }
    }
    let mut count = 0;
    for g in geometry {
        for p in g.points() {
            assert!(contacts.iter().any(|c| length(&(c.point - p)) <= tol), "{p:?} uncovered");
            count += 1;
        }
    }
    assert_eq!(contacts.iter().map(|c| c.count as usize).sum::<usize>(), count);
}

#[test]
fn contact_sets_on_random_soups_and_tolerances() {
    let mut rng = Rng(99);
    for round in 0..20 {
        let (ma, mb) = (model(&soup(&mut rng, 40)), model(&soup(&mut rng, 40)));
        let (p1, p2) = (
            Placement { rotation: rng.rotation(), translation: rng.vec(-0.15, 0.15), scale: 1.0 },
            Placement { rotation: rng.rotation(), translation: rng.vec(-0.15, 0.15), scale: 1.0 },
        );
        let mut out = CollideResult::new();
        collide_geometry(&ma, &p1, &mb, &p2, &CollideRequest::default(), &mut out).unwrap();
        for tol in [0.0, 1e-9, 1e-3, 0.05, 0.5] {
            let set = contact_set(&ma, &p1, &mb, &p2, tol).unwrap();
            assert_eq!(set, merge_contacts(&out.geometry, tol), "round {round}");
            check_set(&out.geometry, &set, tol);
        }
    }
    let m = model(&soup(&mut rng, 3));
    for bad in [-1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(
            contact_set(&m, &Placement::IDENTITY, &m, &Placement::IDENTITY, bad),
            Err(QueryError::InvalidArgument)
        );
    }
}

/// Far out (coordinates about 2^600, where squared differences overflow): points within the
/// tolerance still merge, and the set keeps its properties.
#[test]
fn contact_sets_far_out_merge_as_near_the_origin() {
    let mut rng = Rng(7);
    let big = 2f64.powi(600);
    for round in 0..6 {
        let (ta, tb) = (soup(&mut rng, 40), soup(&mut rng, 40));
        let scaled = |t: &[Triangle]| t.iter().map(|t| t.map(|p| p * big)).collect::<Vec<_>>();
        let (ma, mb) = (model(&scaled(&ta)), model(&scaled(&tb)));
        let p2 = Placement { translation: rng.vec(-0.15, 0.15) * big, ..Placement::IDENTITY };
        let mut out = CollideResult::new();
        collide_geometry(&ma, &Placement::IDENTITY, &mb, &p2, &CollideRequest::default(), &mut out).unwrap();
        let points: usize = out.geometry.iter().map(|g| g.points().len()).sum();
        let tol = 0.5 * big;
        let set = merge_contacts(&out.geometry, tol);
        check_set(&out.geometry, &set, tol);
        if points > 1 {
            assert!(set.len() < points, "round {round}: {points} points, {} contacts: nothing merged", set.len());
        }
    }
}

/// Two outward-oriented closed spheres overlapping: every contact's normal points from
/// sphere 1 towards sphere 2 (positive along the line of centres near the crossing circle),
/// the same on every pair reaching a contact, and the curves are closed loops.
#[test]
fn overlapping_spheres_contacts_and_a_closed_curve() {
    let s1 = sphere(40, 20, Vec3::zeros(), 1.0);
    assert!(is_closed(&s1));
    let (m1, m2) = (model(&s1), model(&s1));
    let mut rng = Rng(5);
    for _ in 0..10 {
        let r = rng.rotation();
        let d = Vec3::new(1.0 + 0.2 * rng.unit(), 0.3 * rng.unit(), 0.1);
        let p2 = Placement { rotation: r, translation: d, scale: 1.0 };
        let p1 = Placement::IDENTITY;
        let set = contact_set(&m1, &p1, &m2, &p2, 1e-9).unwrap();
        assert!(!set.is_empty());
        for c in &set {
            assert_eq!(c.flags, 0);
            assert!(c.normal.dot(&d.normalize()) > 0.5, "{c:?}");
        }
        let curves = intersection_curves(&m1, &p1, &m2, &p2).unwrap();
        check_curves(&m1, &p1, &m2, &p2, &curves);
        assert_eq!(curves.len(), 1);
        assert!(curves.iter().all(|c| c.closed));
    }
}

/// Every distinct segment is an edge of exactly one curve, closed curves repeat their first
/// point, and the total length is the sum of the segment lengths.
fn check_curves(m1: &Model, p1: &Placement, m2: &Model, p2: &Placement, curves: &[Curve]) {
    let mut out = CollideResult::new();
    collide_geometry(m1, p1, m2, p2, &CollideRequest::default(), &mut out).unwrap();
    let mut segments = std::collections::HashMap::new();
    for g in out.geometry.iter().filter(|g| g.len == 2 && g.points[0] != g.points[1]) {
        let (u, v) = (key(&g.points[0]), key(&g.points[1]));
        segments.insert((u.min(v), u.max(v)), (g.points[1] - g.points[0]).norm());
    }
    let mut used = std::collections::HashSet::new();
    let mut length = 0.0;
    for c in curves {
        assert!(c.points.len() >= 2);
        assert_eq!(c.closed, c.points.len() > 3 && key(&c.points[0]) == key(c.points.last().unwrap()));
        for w in c.points.windows(2) {
            let (u, v) = (key(&w[0]), key(&w[1]));
            let e = (u.min(v), u.max(v));
            assert!(segments.contains_key(&e), "a curve edge that is no segment");
            assert!(used.insert(e), "a segment used twice");
            length += (w[1] - w[0]).norm();
        }
    }
    assert_eq!(used.len(), segments.len(), "every segment used");
    let total: f64 = segments.values().sum();
    assert!((length - total).abs() <= 1e-12 * total, "{length} {total}");
}

#[test]
fn boxes_crossing_give_closed_curves_and_touching_boxes_open_or_none() {
    let b = cuboid(Vec3::new(-1.0, -1.0, -1.0), Vec3::new(1.0, 1.0, 1.0));
    let m = model(&b);
    // A rotated copy crossing it cleanly.
    let r = *nalgebra::Rotation3::from_euler_angles(0.3, 0.4, 0.5).matrix();
    let p2 = Placement { rotation: r, translation: Vec3::new(1.1, 0.2, 0.3), scale: 1.0 };
    let curves = intersection_curves(&m, &Placement::IDENTITY, &m, &p2).unwrap();
    check_curves(&m, &Placement::IDENTITY, &m, &p2, &curves);
    assert!(!curves.is_empty() && curves.iter().all(|c| c.closed), "{curves:?}");
    // Face to face, touching: coplanar polygons, no segment crossings.
    let p3 = Placement { rotation: Mat3::identity(), translation: Vec3::new(2.0, 0.5, 0.5), scale: 1.0 };
    let curves = intersection_curves(&m, &Placement::IDENTITY, &m, &p3).unwrap();
    check_curves(&m, &Placement::IDENTITY, &m, &p3, &curves);
    let set = contact_set(&m, &Placement::IDENTITY, &m, &p3, 0.0).unwrap();
    assert!(set.iter().all(|c| (c.point.x - 1.0).abs() == 0.0));
    // Opposite faces: normal1 = +x, normal2 = -x, so the pairs' normal is +x; at the patch's
    // border the side faces touching edge to edge tilt it.
    assert!(set.iter().all(|c| c.normal.x > 0.8), "{set:?}");
    // An open sheet (one face of a box) through the box: an open polyline? No: a closed loop
    // around the box's section cannot form, the sheet's boundary makes open ends.
    let sheet: Vec<Triangle> = b[..2].to_vec();
    let ms = model(&moved(&sheet, 3.0, Vec3::zeros()));
    let p4 = Placement { rotation: r, translation: Vec3::new(0.0, 0.0, 2.0), scale: 1.0 };
    let curves = intersection_curves(&ms, &p4, &m, &Placement::IDENTITY).unwrap();
    check_curves(&ms, &p4, &m, &Placement::IDENTITY, &curves);
}

fn load(name: &str) -> Vec<Triangle> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("meshes").join(name);
    crate::io::load_obj(path).unwrap().triangles()
}

/// The brief's crossing cases: armadillo against a shifted and rotated copy, bunny against a
/// sphere. Closed meshes crossing generically: every curve is closed.
#[test]
fn mesh_fixtures_give_closed_curves() {
    let arm = model(&load("armadillo_50k.obj"));
    let closed = arm.solid_facts().closed;
    let r = *nalgebra::Rotation3::from_euler_angles(0.2, -0.3, 0.7).matrix();
    let (lo, hi) = bounds(arm.triangles());
    let p2 = Placement { rotation: r, translation: (hi - lo) * 0.15, scale: 1.0 };
    let curves = intersection_curves(&arm, &Placement::IDENTITY, &arm, &p2).unwrap();
    check_curves(&arm, &Placement::IDENTITY, &arm, &p2, &curves);
    assert!(curves.len() > 1);
    if closed {
        assert!(curves.iter().all(|c| c.closed), "{} open", curves.iter().filter(|c| !c.closed).count());
    }
    let bunny = model(&load("bunny_15k.obj"));
    let (lo, hi) = bounds(bunny.triangles());
    let c = (lo + hi) * 0.5;
    let ball = model(&sphere(48, 24, c + Vec3::new((hi - lo).x * 0.3, 0.0, 0.0), (hi - lo).amax() * 0.3));
    let curves = intersection_curves(&bunny, &Placement::IDENTITY, &ball, &Placement::IDENTITY).unwrap();
    check_curves(&bunny, &Placement::IDENTITY, &ball, &Placement::IDENTITY, &curves);
    assert!(!curves.is_empty());
    // bunny_15k has holes (80 boundary edges), but not where this sphere crosses it.
    assert!(!bunny.solid_facts().closed);
    assert!(curves.iter().all(|c| c.closed), "{curves:?}");
    assert!(closed, "armadillo_50k is expected closed");
}

fn bounds(t: &[Triangle]) -> (Vec3, Vec3) {
    t.iter()
        .flatten()
        .fold((Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY)), |(lo, hi), p| (lo.inf(p), hi.sup(p)))
}
