//! k-DOP models (`Model::set_kdop`): collide between two k-DOP models placed a translation
//! apart, and self-collision, run on the k-DOP trees; every answer equals the box tree's
//! (the same model without the option, updated alike) and brute force, frame after frame,
//! touching, far from the origin and at extreme scales. The box tree, refitted lazily on a
//! k-DOP model, is the one the eager refit makes, bit for bit.

mod common;
#[path = "scenes/deform.rs"]
mod scenes;

use common::brute_force;
use rapidpqp::model::RefitError;
use rapidpqp::nbody::World;
use rapidpqp::query::{
    CollideRequest, CollideResult, DistanceRequest, TriangleFrame, collide, distance, self_collide, tolerance,
};
use rapidpqp::{Mat3, Model, Placement, Triangle, Vec3};
use scenes::{Cloth, SceneRng, Wobble, uv_sphere};

fn serialized(m: &Model) -> Vec<u8> {
    rapidpqp::serialize::model_to_bytes(m)
}

fn pairs(out: &CollideResult) -> Vec<(i32, i32)> {
    let mut p: Vec<_> = out.pairs.iter().map(|p| (p.id1, p.id2)).collect();
    p.sort_unstable();
    p
}

/// Triangles in input order (ids are input indices).
fn in_input_order(m: &Model) -> Vec<Triangle> {
    let mut out = vec![[Vec3::zeros(); 3]; m.num_triangles()];
    for (t, &id) in m.triangles().iter().zip(m.ids()) {
        out[id as usize] = *t;
    }
    out
}

fn shifted(t: Vec3) -> Placement {
    Placement { translation: t, ..Placement::IDENTITY }
}

/// A deformable model twice: with the k-DOP option and without, never rebuilt (so that both
/// keep the same tree).
fn pair_of(vertices: &[Vec3], faces: &[[u32; 3]]) -> (Model, Model) {
    let mut boxes = Model::deformable(vertices, faces, None).unwrap();
    boxes.set_rebuild_threshold(f64::INFINITY).unwrap();
    let mut kdop = boxes.clone();
    kdop.set_kdop(true).unwrap();
    assert!(kdop.is_kdop() && !boxes.is_kdop());
    (kdop, boxes)
}

/// Brute-force self-collision: non-adjacent (no shared vertex index) intersecting pairs.
fn brute_self(m: &Model) -> Vec<(i32, i32)> {
    let (t, f, ids) = (m.triangles(), m.faces().unwrap(), m.ids());
    let mut out = Vec::new();
    for i in 0..t.len() {
        for j in i + 1..t.len() {
            let adjacent = f[i].iter().any(|v| f[j].contains(v));
            if !adjacent && rapidpqp::geometry::tri_intersect::triangles_intersect(&t[i], &t[j]) {
                out.push((ids[i].min(ids[j]), ids[i].max(ids[j])));
            }
        }
    }
    out.sort_unstable();
    out
}

/// Collide (all and first contact, both frames, with geometry) of the k-DOP pair against the
/// box pair and brute force, at `p1`, `p2`. Returns the number of contacts in model 1's frame.
fn check_collide(k: (&Model, &Model), b: (&Model, &Model), p1: &Placement, p2: &Placement, what: &str) -> usize {
    let (mut out, mut want_out) = (CollideResult::new(), CollideResult::new());
    let (ta, tb) = (in_input_order(b.0), in_input_order(b.1));
    let mut count = 0;
    for frame in [TriangleFrame::Model1, TriangleFrame::Model2] {
        let request = CollideRequest { frame, geometry: true, ..Default::default() };
        collide(k.0, p1, k.1, p2, &request, &mut out).unwrap();
        collide(b.0, p1, b.1, p2, &request, &mut want_out).unwrap();
        let got = pairs(&out);
        assert_eq!(got, pairs(&want_out), "{what}: k-DOP vs box tree ({frame:?})");
        let mut brute = brute_force(&ta, &tb, p1, p2, frame);
        brute.sort_unstable();
        assert_eq!(got, brute, "{what}: k-DOP vs brute force ({frame:?})");
        // The same geometry for each pair, whichever tree found it.
        let mut g: Vec<_> = out.pairs.iter().zip(&out.geometry).map(|(p, c)| format!("{p:?} {c:?}")).collect();
        let mut w: Vec<_> =
            want_out.pairs.iter().zip(&want_out.geometry).map(|(p, c)| format!("{p:?} {c:?}")).collect();
        g.sort();
        w.sort();
        assert_eq!(g, w, "{what}: geometry");
        let first = CollideRequest { frame, first_contact: true, ..Default::default() };
        collide(k.0, p1, k.1, p2, &first, &mut out).unwrap();
        assert_eq!(out.pairs.len(), usize::from(!got.is_empty()), "{what}: first contact");
        if let Some(p) = out.pairs.first() {
            assert!(got.contains(&(p.id1, p.id2)), "{what}: first contact is a contact");
        }
        if frame == TriangleFrame::Model1 {
            count = got.len();
        }
    }
    count
}

/// Distance and tolerance: a k-DOP model's lazily refitted box tree answers exactly as the
/// eagerly refitted one.
fn check_distance(k: (&Model, &Model), b: (&Model, &Model), p1: &Placement, p2: &Placement, what: &str) {
    let exact = DistanceRequest { rel_err: 0.0, abs_err: 0.0, qsize: 2 };
    let d = distance(k.0, p1, k.1, p2, &exact, None).unwrap();
    let w = distance(b.0, p1, b.1, p2, &exact, None).unwrap();
    assert_eq!(d.distance.to_bits(), w.distance.to_bits(), "{what}: distance");
    assert_eq!((d.p1, d.p2), (w.p1, w.p2), "{what}: closest points");
    let t = 0.5 * w.distance + 1e-3;
    assert_eq!(
        tolerance(k.0, p1, k.1, p2, t, 2, None).unwrap().closer,
        tolerance(b.0, p1, b.1, p2, t, 2, None).unwrap().closer
    );
}

/// A cloth draping over a wobbling body, both k-DOP models: collide at the identity and
/// translated (the k-DOP path), rotated (the box path, refitted lazily), self-collision of
/// the cloth, distance; then the lazily refitted box trees equal the eager ones bit for bit.
#[test]
fn cloth_over_body_agrees_with_the_box_tree_and_brute_force() {
    let body_mesh = uv_sphere(10, 16, Vec3::zeros(), 1.0);
    let cloth = Cloth::new(&body_mesh, 14, 3);
    let faces = cloth.faces();
    let (mut sheet_k, mut sheet_b) = pair_of(&cloth.frame(0, 8), &faces);
    let (mut body_k, mut body_b) = pair_of(&body_mesh.vertices, &body_mesh.faces);
    let wobble = Wobble::new(body_mesh.vertices.clone(), 0.05, 5);
    let mut rng = SceneRng(17);
    let (mut contacts, mut self_contacts) = (0, 0);
    for frame in 0..=10 {
        let (sv, bv) = (cloth.frame(frame, 8), wobble.frame(frame as f64));
        let rk = sheet_k.update_vertices(&sv).unwrap();
        sheet_b.update_vertices(&sv).unwrap();
        assert!(!rk.rebuilt && rk.degradation.is_finite() && rk.degradation >= 0.99, "{rk:?}");
        body_k.update_vertices(&bv).unwrap();
        body_b.update_vertices(&bv).unwrap();
        let what = format!("frame {frame}");
        let (k, b) = ((&sheet_k, &body_k), (&sheet_b, &body_b));
        contacts += check_collide(k, b, &Placement::IDENTITY, &Placement::IDENTITY, &what);
        // Against models without the option (which build k-DOPs of their own): the box body,
        // moved every frame (its k-DOPs must follow), and a fresh build of it.
        let fresh_body = Model::new(in_input_order(&body_b), (0..body_b.num_triangles() as i32).collect()).unwrap();
        let t = shifted(Vec3::new(0.01, -0.02, 0.03));
        contacts += check_collide((&sheet_k, &body_b), b, &Placement::IDENTITY, &t, &format!("{what} vs box body"));
        check_collide(
            (&body_b, &sheet_k),
            (&body_b, &sheet_b),
            &t,
            &Placement::IDENTITY,
            &format!("{what} box body first"),
        );
        check_collide(
            (&sheet_k, &fresh_body),
            (&sheet_b, &fresh_body),
            &Placement::IDENTITY,
            &t,
            &format!("{what} vs fresh body"),
        );
        // Translations, small and on a grid of eighths (exactly touching contacts).
        for _ in 0..3 {
            let t = Vec3::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5) * 0.2;
            let g = t.map(|v| (v * 8.0).round() / 8.0);
            contacts += check_collide(k, b, &shifted(t), &shifted(-t * 0.5), &format!("{what} shifted {t:?}"));
            contacts += check_collide(k, b, &shifted(g), &Placement::IDENTITY, &format!("{what} shifted {g:?}"));
        }
        // The same rotation for both: a translation apart only where the relative rotation
        // is exactly the identity (an exact quarter turn about z is); any other rotation
        // takes the box tree.
        let quarter_turn = Mat3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0);
        let quarter = Placement { rotation: quarter_turn, ..Placement::IDENTITY };
        contacts += check_collide(k, b, &quarter, &quarter, &format!("{what} same rotation"));
        let r = Placement {
            rotation: *nalgebra::Rotation3::from_axis_angle(&Vec3::x_axis(), 0.3).matrix(),
            ..Placement::IDENTITY
        };
        check_collide(k, b, &r, &Placement::IDENTITY, &format!("{what} rotated"));
        check_distance(k, b, &shifted(Vec3::new(0.0, 0.0, 2.5)), &Placement::IDENTITY, &what);
        // Self-collision.
        let (mut so, mut sw) = (CollideResult::new(), CollideResult::new());
        self_collide(&sheet_k, &Default::default(), &mut so);
        self_collide(&sheet_b, &Default::default(), &mut sw);
        assert_eq!(pairs(&so), pairs(&sw), "{what}: self-collide k-DOP vs boxes");
        assert_eq!(pairs(&so), brute_self(&sheet_k), "{what}: self-collide vs brute force");
        self_contacts += so.pairs.len();
        sheet_k.validate().unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(serialized(&sheet_k), serialized(&sheet_b), "{what}: lazy box refit equals the eager one");
        assert_eq!(serialized(&body_k), serialized(&body_b), "{what}: lazy box refit equals the eager one");
    }
    assert!(contacts > 50, "the draped cloth touches the body ({contacts})");
    let _ = self_contacts; // the cloth does not fold onto itself here: see the folded sheet test
}

/// A sheet folded exactly onto itself and crumpled: self-collision on k-DOPs against brute
/// force, through updates.
#[test]
fn folded_sheets_self_collide_as_brute_force() {
    let n = 12;
    let vertex = |i: usize, j: usize| (i * (n + 1) + j) as u32;
    let mut faces = Vec::new();
    for i in 0..n {
        for j in 0..n {
            faces.push([vertex(i, j), vertex(i + 1, j), vertex(i + 1, j + 1)]);
            faces.push([vertex(i, j), vertex(i + 1, j + 1), vertex(i, j + 1)]);
        }
    }
    let fold = |gap: f64, wave: f64, seed: u64| -> Vec<Vec3> {
        let mut rng = SceneRng(seed);
        let mut v = Vec::new();
        for i in 0..=n {
            for j in 0..=n {
                // Folded in half along x = 1/2: the second half lies over the first at `gap`.
                let (x, y) = (i as f64 / n as f64, j as f64 / n as f64);
                let (fx, z) = if x <= 0.5 { (x, 0.0) } else { (1.0 - x, gap) };
                let bump = wave * (rng.next() - 0.5);
                v.push(Vec3::new(fx, y, z + bump));
            }
        }
        v
    };
    let (mut k, mut b) = pair_of(&fold(0.0, 0.0, 1), &faces);
    let mut total = 0;
    for (step, (gap, wave)) in
        [(0.0, 0.0), (0.01, 0.03), (0.0, 0.05), (1.0 / 64.0, 0.0), (0.02, 0.1)].iter().enumerate()
    {
        let v = fold(*gap, *wave, step as u64 + 7);
        k.update_vertices(&v).unwrap();
        b.update_vertices(&v).unwrap();
        let (mut ko, mut bo) = (CollideResult::new(), CollideResult::new());
        self_collide(&k, &Default::default(), &mut ko);
        self_collide(&b, &Default::default(), &mut bo);
        let want = brute_self(&k);
        assert_eq!(pairs(&ko), want, "step {step}: k-DOP self-collide vs brute force");
        assert_eq!(pairs(&bo), want, "step {step}: box self-collide vs brute force");
        total += want.len();
        let first = CollideRequest { first_contact: true, ..Default::default() };
        self_collide(&k, &first, &mut ko);
        assert_eq!(ko.pairs.len(), usize::from(!want.is_empty()));
    }
    assert!(total > 100, "folded sheets touch themselves ({total})");
}

/// Extreme positions: far from the origin, huge, tiny and subnormal scales, every vertex at
/// one point, coplanar; two k-DOP soups translated by exactly representable and by rounding
/// amounts, against brute force.
#[test]
fn extreme_positions_and_touching_translations() {
    let mut rng = SceneRng(42);
    let soup: Vec<Triangle> = (0..50)
        .map(|_| {
            let c = Vec3::new(rng.next(), rng.next(), rng.next()).map(|v| (v * 4.0).round() / 4.0);
            [c, c + Vec3::new((rng.next() * 4.0).round() / 4.0, 0.0, 0.25), c + Vec3::new(0.0, 0.25, 0.0)]
        })
        .collect();
    let base: Vec<Vec3> = soup.iter().flatten().copied().collect();
    let faces: Vec<[u32; 3]> = (0..50u32).map(|k| [3 * k, 3 * k + 1, 3 * k + 2]).collect();
    let (mut ak, mut ab) = pair_of(&base, &faces);
    let (mut bk, mut bb) = pair_of(&base, &faces);
    type Move = Box<dyn Fn(&Vec3) -> Vec3>;
    let cases: Vec<(&str, Move, f64)> = vec![
        ("unit", Box::new(|p| *p), 1.0),
        ("far from the origin", Box::new(|p| p + Vec3::new(1e200, -3e199, 7e198)), 1.0),
        ("far, huge", Box::new(|p| p * 2f64.powi(300) + Vec3::new(1e250, 0.0, 0.0)), 2f64.powi(300)),
        ("tiny", Box::new(|p| p * 2f64.powi(-300)), 2f64.powi(-300)),
        ("subnormal", Box::new(|p| p * 2f64.powi(-1060)), 2f64.powi(-1060)),
        ("one point", Box::new(|_| Vec3::new(0.25, 0.5, 0.75)), 1.0),
        ("coplanar", Box::new(|p| Vec3::new(p.x, p.y, 0.5)), 1.0),
    ];
    let mut contacts = 0;
    for (what, f, unit) in &cases {
        let moved: Vec<Vec3> = base.iter().map(f).collect();
        for m in [&mut ak, &mut ab, &mut bk, &mut bb] {
            m.update_vertices(&moved).unwrap();
        }
        ak.validate().unwrap_or_else(|e| panic!("{what}: {e}"));
        // Exactly touching (quarter steps of the grid) and by rounding (a third of a unit),
        // along axes and diagonals.
        for t in [
            Vec3::new(0.25, 0.0, 0.0),
            Vec3::new(0.25, 0.25, 0.0),
            Vec3::new(0.0, 0.25, -0.25),
            Vec3::new(1.0 / 3.0, 0.0, 0.0),
            Vec3::new(0.1, -0.2, 0.3),
            Vec3::new(0.0, 0.0, 0.0),
        ] {
            let t = t * *unit;
            contacts +=
                check_collide((&ak, &bk), (&ab, &bb), &Placement::IDENTITY, &shifted(t), &format!("{what} {t:?}"));
        }
    }
    assert!(contacts > 100, "{contacts}");
}

/// Rebuilds, switching the option, refusals, memory, and many threads asking a stale box tree
/// at once.
#[test]
fn rebuilds_option_switches_threads_and_memory() {
    let mesh = uv_sphere(12, 16, Vec3::zeros(), 1.0);
    let (mut k, _) = pair_of(&mesh.vertices, &mesh.faces);
    assert_eq!(k.degradation().unwrap(), 1.0);
    // Scrambled vertices degrade the k-DOP tree past the threshold: rebuilt.
    let mut rng = SceneRng(3);
    let scrambled: Vec<Vec3> = mesh.vertices.iter().map(|_| Vec3::new(rng.next(), rng.next(), rng.next())).collect();
    k.set_rebuild_threshold(2.0).unwrap();
    let r = k.update_vertices(&scrambled).unwrap();
    assert!(r.rebuilt && r.degradation > 2.0, "{r:?}");
    assert!(k.is_kdop() && k.degradation().unwrap() == 1.0);
    k.validate().unwrap();
    let small = uv_sphere(6, 8, Vec3::new(0.5, 0.5, 0.5), 0.3).triangles();
    let other = Model::new(small.clone(), (0..small.len() as i32).collect()).unwrap();
    let fresh = Model::new(in_input_order(&k), (0..k.num_triangles() as i32).collect()).unwrap();
    let mut other_k = Model::deformable_soup(other.triangles(), Some(other.ids().to_vec())).unwrap();
    other_k.set_kdop(true).unwrap();
    let (mut o1, mut o2) = (CollideResult::new(), CollideResult::new());
    collide(&k, &Placement::IDENTITY, &other_k, &Placement::IDENTITY, &Default::default(), &mut o1).unwrap();
    collide(&fresh, &Placement::IDENTITY, &other, &Placement::IDENTITY, &Default::default(), &mut o2).unwrap();
    assert_eq!(pairs(&o1), pairs(&o2));
    assert!(!o1.pairs.is_empty());

    // Many threads at once on a stale box tree: one refits it, all get the answer.
    let wobble = Wobble::new(mesh.vertices.clone(), 0.1, 9);
    let (mut k, mut b) = pair_of(&mesh.vertices, &mesh.faces);
    for frame in 0..3 {
        let v = wobble.frame(frame as f64);
        k.update_vertices(&v).unwrap();
        b.update_vertices(&v).unwrap();
        let exact = DistanceRequest { rel_err: 0.0, abs_err: 0.0, qsize: 2 };
        let p = shifted(Vec3::new(1.7, 0.2, 0.1));
        let want = distance(&b, &Placement::IDENTITY, &other, &p, &exact, None).unwrap().distance;
        let got: Vec<f64> = std::thread::scope(|s| {
            // Half the threads copy the model first (a copy takes a current box tree, waiting for
            // a refit another thread is making).
            let handles: Vec<_> = (0..6)
                .map(|i| {
                    let (k, other) = (&k, &other);
                    s.spawn(move || {
                        let copy = (i % 2 == 1).then(|| k.clone());
                        let m = copy.as_ref().unwrap_or(k);
                        distance(m, &Placement::IDENTITY, other, &p, &exact, None).unwrap().distance
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(got.iter().all(|d| d.to_bits() == want.to_bits()), "{got:?} vs {want}");
    }

    // Off again: the box tree is current and the k-DOPs are gone.
    let with = k.memory_bytes();
    k.set_kdop(false).unwrap();
    assert!(!k.is_kdop());
    assert_eq!(serialized(&k), serialized(&b));
    let per_triangle = (with - k.memory_bytes()) as f64 / k.num_triangles() as f64;
    assert!((290.0..300.0).contains(&per_triangle), "{per_triangle} bytes a triangle");
    // Refused on models that are not deformable; the degradation of a plain deformable model
    // is measured on its boxes again.
    let mut plain = Model::new(mesh.triangles(), (0..mesh.faces.len() as i32).collect()).unwrap();
    assert_eq!(plain.set_kdop(true), Err(RefitError::NotDeformable));
    assert!(!plain.is_kdop());
    assert!(k.degradation().unwrap() >= 1.0);
}

/// An n-body world of deforming k-DOP objects (placed at the identity and translated):
/// its contacts equal brute force every frame.
#[test]
fn world_of_kdop_objects() {
    let mut world = World::new();
    let mut meshes = Vec::new();
    for k in 0..6 {
        let centre = Vec3::new(0.9 * k as f64, 0.2 * (k % 2) as f64, 0.0);
        let mesh = uv_sphere(6, 10, centre, 0.5);
        let mut model = Model::deformable(&mesh.vertices, &mesh.faces, None).unwrap();
        model.set_kdop(true).unwrap();
        world.add_model(model).unwrap();
        meshes.push(Wobble::new(mesh.vertices.clone(), 0.08, k));
    }
    let mut total = 0;
    for frame in 0..10 {
        for (id, w) in meshes.iter().enumerate() {
            world.update_vertices(id as _, &w.frame(frame as f64)).unwrap();
        }
        world.validate().unwrap();
        let mut got: Vec<_> = world.collide(false).iter().map(|c| (c.id1, c.id2, pairs_of(&c.tri_pairs))).collect();
        let mut want: Vec<_> =
            world.collide_brute_force(false).iter().map(|c| (c.id1, c.id2, pairs_of(&c.tri_pairs))).collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "frame {frame}");
        // Models checked against their own brute force too.
        for c in &got {
            let (a, b) = (world.model(c.0).unwrap(), world.model(c.1).unwrap());
            let mut brute = brute_force(
                a.triangles(),
                b.triangles(),
                &Placement::IDENTITY,
                &Placement::IDENTITY,
                TriangleFrame::Model1,
            )
            .into_iter()
            .map(|(i, j)| (a.ids()[i as usize], b.ids()[j as usize]))
            .collect::<Vec<_>>();
            brute.sort_unstable();
            assert_eq!(c.2, brute);
        }
        total += got.len();
    }
    assert!(total > 10, "{total}");
}

fn pairs_of(p: &[rapidpqp::query::ContactPair]) -> Vec<(i32, i32)> {
    let mut v: Vec<_> = p.iter().map(|p| (p.id1, p.id2)).collect();
    v.sort_unstable();
    v
}

/// A contact only the translation's rounding makes: a small triangle's vertex at x − y = 2^-40
/// moved by (2^20, 2^20, 0) rounds onto a large triangle lying in the plane x − y = 0. Neither
/// model's own k-DOP margins cover that (the large one's x − y slab is exactly [0, 0]); the
/// query's slack must.
#[test]
fn a_contact_made_by_the_translations_rounding() {
    let big = 2f64.powi(20);
    let a = [[
        Vec3::new(big - 10.0, big - 10.0, -10.0),
        Vec3::new(big + 10.0, big + 10.0, -10.0),
        Vec3::new(big, big, 10.0),
    ]];
    let delta = 2f64.powi(-40);
    let b = [[Vec3::new(delta, 0.0, 0.0), Vec3::new(1.0, -1.0, 0.5), Vec3::new(1.0, -1.0, -0.5)]];
    let kdop = |t: &[Triangle]| {
        let mut m = Model::deformable_soup(t, None).unwrap();
        m.set_kdop(true).unwrap();
        m
    };
    let boxes = |t: &[Triangle]| Model::deformable_soup(t, None).unwrap();
    // Two triangles each, so that the query descends the trees (one-triangle models skip them).
    let (a2, b2) = ([a[0], a[0]], [b[0], b[0]]);
    let (ak, bk, ab, bb) = (kdop(&a2), kdop(&b2), boxes(&a2), boxes(&b2));
    let t = shifted(Vec3::new(big, big, 0.0));
    let n = check_collide((&ak, &bk), (&ab, &bb), &Placement::IDENTITY, &t, "rounded onto the plane");
    assert_eq!(n, 4, "the rounded vertex touches");
    // In model 2's frame the large triangle moves instead (by exact differences) and the
    // small one's vertex stays off the plane: no contact there, so it is the rounding's.
    let mut out = CollideResult::new();
    let frame2 = CollideRequest { frame: TriangleFrame::Model2, ..Default::default() };
    collide(&ak, &Placement::IDENTITY, &bk, &t, &frame2, &mut out).unwrap();
    assert!(out.pairs.is_empty());
}
