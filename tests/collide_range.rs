//! Coordinates across the whole supported range (README "Range of coordinates"): two
//! unit-size models whose contacts survive any uniform scaling (shared vertices and edges,
//! overlaps in the plane z = 0, a segment ending on a shared vertex, a point on a vertex, and
//! pairs apart by a clear gap) keep exactly their unscaled contacts when scaled by 1e±100,
//! 1e±150 and 1e±300 (coordinates, translations, and RAPID's placement scale), through the
//! native query and the RAPID and PQP C functions; coordinates and placements beyond the
//! range are refused with an error by every path.

use rapidpqp::model::BuildError;
use rapidpqp::query::{CollideRequest, CollideResult, TriangleFrame, collide};
use rapidpqp::{Model, Placement, Triangle, Vec3};

fn v(x: f64, y: f64, z: f64) -> Vec3 {
    Vec3::new(x, y, z)
}

/// Model a, model b, and their contacts (ids) at any uniform scale.
fn models() -> (Vec<Triangle>, Vec<Triangle>, Vec<(i32, i32)>) {
    let o = v(0.0, 0.0, 0.0);
    let a = vec![
        [o, v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)],                // 0: in z = 0
        [v(3.0, 0.0, 0.0), v(4.0, 0.0, 0.0), v(3.0, 0.0, 1.0)], // 1: vertical, y = 0
        [v(6.0, 0.0, 0.0), v(6.0, 0.0, 0.0), v(6.0, 0.0, 2.0)], // 2: a segment
        [v(9.0, 9.0, 9.0); 3],                                  // 3: a point
        [v(0.0, 5.0, 0.0), v(1.0, 5.0, 0.0), v(0.0, 6.0, 0.0)], // 4: in z = 0
    ];
    let b = vec![
        [v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0), v(1.0, 1.0, 0.0)], // 0: shares a's 0 edge
        [v(4.0, 0.0, 0.0), v(5.0, 1.0, 1.0), v(5.0, -1.0, 1.0)], // 1: shares a's 1 vertex
        [v(6.0, 0.0, 2.0), v(7.0, 0.0, 3.0), v(6.5, 0.0, 2.5)], // 2: segment from a's 2 end
        [v(9.0, 9.0, 9.0), v(9.0, 10.0, 9.0), v(10.0, 9.0, 9.0)], // 3: vertex on a's point
        [v(0.25, 5.25, 0.0), v(3.0, 5.0, 0.0), v(0.0, 8.0, 0.0)], // 4: overlaps a's 4 in z = 0
        [v(0.0, 0.0, 0.5), v(1.0, 0.0, 0.5), v(0.0, 1.0, 0.5)], // 5: above a's 0, apart
        [v(6.0, 0.0, 2.5), v(7.0, 0.0, 3.0), v(6.0, 1.0, 2.5)], // 6: beyond a's 2, apart
    ];
    (a, b, vec![(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)])
}

fn scaled(t: &[Triangle], s: f64) -> Vec<Triangle> {
    t.iter().map(|t| t.map(|p| p * s)).collect()
}

/// Native collide, every box test and frame (they must agree); `None` when refused (the
/// query, or building a model from coordinates beyond the range).
fn native(a: &[Triangle], b: &[Triangle], p1: &Placement, p2: &Placement) -> Option<Vec<(i32, i32)>> {
    let build = |t: &[Triangle]| match Model::new(t.to_vec(), (0..t.len() as i32).collect()) {
        Ok(m) => Some(m),
        Err(e) => {
            assert_eq!(e, BuildError::OutOfRange);
            None
        }
    };
    let (ma, mb) = (build(a)?, build(b)?);
    let mut out = CollideResult::new();
    let mut all = Vec::new();
    for frame in [TriangleFrame::Model1, TriangleFrame::Model2] {
        for box_test in rapidpqp::bv::obb::BoxTest::ALL {
            let request = CollideRequest { first_contact: false, box_test, frame, geometry: false };
            if collide(&ma, p1, &mb, p2, &request, &mut out).is_err() {
                all.push(None);
                continue;
            }
            let mut got: Vec<_> = out.pairs.iter().map(|p| (p.id1, p.id2)).collect();
            got.sort_unstable();
            all.push(Some(got));
        }
    }
    assert!(all.windows(2).all(|w| w[0] == w[1]), "{all:?} {p1:?} {p2:?}");
    all.pop().unwrap()
}

fn rows(p: &Placement) -> [[f64; 3]; 3] {
    std::array::from_fn(|i| std::array::from_fn(|j| p.rotation[(i, j)]))
}

/// Contacts (sorted), or the error code.
type Answer = Result<Vec<(i32, i32)>, i32>;

/// `RAPID_CollideScaled` and `PQP_Collide` (unscaled placements only) on models built through
/// the C functions: their contacts, or the error code.
fn legacy(a: &[Triangle], b: &[Triangle], p1: &Placement, p2: &Placement) -> (Answer, Option<Answer>) {
    use rapidpqp::ffi::pqp::*;
    use rapidpqp::ffi::rapid::*;
    // SAFETY: fresh handles used as the C API documents, deleted at the end; the RAPID globals
    // are read right after the call (the only test of this binary calling RAPID).
    unsafe {
        let (ra, rb) = (RAPID_model_new(), RAPID_model_new());
        let (qa, qb) = (PQP_Model_new(), PQP_Model_new());
        let delete = || {
            for m in [ra, rb] {
                RAPID_model_delete(m);
            }
            for m in [qa, qb] {
                PQP_Model_delete(m);
            }
        };
        let unscaled = p1.scale == 1.0 && p2.scale == 1.0;
        for (tris, r, q) in [(a, ra, qa), (b, rb, qb)] {
            RAPID_BeginModel(r);
            PQP_BeginModel(q, tris.len() as i32);
            for (id, t) in tris.iter().enumerate() {
                let v = t.map(|p| [p.x, p.y, p.z]);
                let rc = RAPID_AddTri(r, v[0].as_ptr(), v[1].as_ptr(), v[2].as_ptr(), id as i32);
                let pc = PQP_AddTri(q, v[0].as_ptr(), v[1].as_ptr(), v[2].as_ptr(), id as i32);
                if rc != RAPID_OK || pc != PQP_OK {
                    // Coordinates beyond the range: refused by both when added.
                    assert_eq!((rc, pc), (RAPID_ERR_OUT_OF_RANGE, PQP_ERR_OUT_OF_RANGE), "{t:?}");
                    delete();
                    return (Err(rc), unscaled.then_some(Err(pc)));
                }
            }
            assert_eq!(RAPID_EndModel(r), RAPID_OK);
            assert_eq!(PQP_EndModel(q), PQP_OK);
        }
        let (mut r1, mut r2) = (rows(p1), rows(p2));
        let (mut t1, mut t2): ([f64; 3], [f64; 3]) = (p1.translation.into(), p2.translation.into());
        let rc = RAPID_CollideScaled(
            r1.as_mut_ptr(),
            t1.as_mut_ptr(),
            p1.scale,
            ra,
            r2.as_mut_ptr(),
            t2.as_mut_ptr(),
            p2.scale,
            rb,
            RAPID_ALL_CONTACTS,
        );
        let rapid = if rc == RAPID_OK {
            let mut v: Vec<_> =
                (0..RAPID_num_contacts as usize).map(|k| *RAPID_contact.add(k)).map(|c| (c.id1, c.id2)).collect();
            v.sort_unstable();
            Ok(v)
        } else {
            Err(rc)
        };
        let pqp = unscaled.then(|| {
            let mut res: PQP_CollideResult = std::mem::zeroed();
            let rc = PQP_Collide(
                &mut res,
                r1.as_mut_ptr(),
                t1.as_mut_ptr(),
                qa,
                r2.as_mut_ptr(),
                t2.as_mut_ptr(),
                qb,
                PQP_ALL_CONTACTS,
            );
            let out = if rc == PQP_OK {
                let mut v: Vec<_> =
                    (0..res.num_pairs as usize).map(|k| *res.pairs.add(k)).map(|c| (c.id1, c.id2)).collect();
                v.sort_unstable();
                Ok(v)
            } else {
                Err(rc)
            };
            PQP_CollideResult_FreePairsList(&mut res);
            out
        });
        delete();
        (rapid, pqp)
    }
}

/// Every path gives `want`.
fn check_all(a: &[Triangle], b: &[Triangle], p1: &Placement, p2: &Placement, want: &[(i32, i32)], what: &str) {
    assert_eq!(native(a, b, p1, p2).as_deref(), Some(want), "native, {what}");
    let (rapid, pqp) = legacy(a, b, p1, p2);
    assert_eq!(rapid.as_deref(), Ok(want), "RAPID, {what}");
    if let Some(pqp) = pqp {
        assert_eq!(pqp.as_deref(), Ok(want), "PQP, {what}");
    }
}

/// Every path refuses.
fn check_refused(a: &[Triangle], b: &[Triangle], p1: &Placement, p2: &Placement, what: &str) {
    assert_eq!(native(a, b, p1, p2), None, "native, {what}");
    let (rapid, pqp) = legacy(a, b, p1, p2);
    let rapid_refusals = [rapidpqp::ffi::rapid::RAPID_ERR_OUT_OF_RANGE, rapidpqp::ffi::rapid::RAPID_ERR_INVALID_SCALE];
    assert!(matches!(rapid, Err(rc) if rapid_refusals.contains(&rc)), "RAPID, {what}: {rapid:?}");
    if let Some(pqp) = pqp {
        assert_eq!(pqp, Err(rapidpqp::ffi::pqp::PQP_ERR_OUT_OF_RANGE), "PQP, {what}");
    }
}

#[test]
fn scaled_coordinates_keep_their_contacts() {
    let (a, b, want) = models();
    let id = Placement::IDENTITY;
    check_all(&a, &b, &id, &id, &want, "unscaled");
    for e in [100, 150, 300, -100, -150, -300] {
        let s = 10f64.powi(e);
        let (sa, sb) = (scaled(&a, s), scaled(&b, s));
        // The models' coordinates scaled.
        check_all(&sa, &sb, &id, &id, &want, &format!("coordinates x 1e{e}"));
        // Moved together far from the origin (2^20 times their size, within the range).
        let far = v(1.0, -2.0, 3.0) * (s * 2f64.powi(if e == 300 { 1 } else { 20 }));
        let t = Placement { translation: far, ..id };
        check_all(&sa, &sb, &t, &t, &want, &format!("coordinates x 1e{e}, moved"));
        // Unit models, both placed with scale 1e{e} (RAPID's scaled call; relative scale 1),
        // within the scales the C layers take ([1e-100, 1e100]; see `beyond_the_range`).
        if e.abs() == 100 {
            let s = if e > 0 { 1e100 } else { 1e-100 };
            let p = Placement { scale: s, ..id };
            check_all(&a, &b, &p, &p, &want, &format!("placement scale 1e{e}"));
        }
    }
}

#[test]
fn beyond_the_range_is_refused() {
    let (a, b, _) = models();
    let id = Placement::IDENTITY;
    // Coordinates near the largest double: refused when added.
    let (ha, hb) = (scaled(&a, 1e307), scaled(&b, 1e307));
    check_refused(&ha, &hb, &id, &id, "coordinates 1e308");
    check_refused(&a, &hb, &id, &id, "model 2's coordinates 1e308");
    // In range, moved beyond it.
    let (sa, sb) = (scaled(&a, 1e300), scaled(&b, 1e300));
    let t = Placement { translation: v(2e301, 0.0, 0.0), ..id };
    check_refused(&sa, &sb, &id, &t, "translation 2e301");
    // A placement scale beyond [1e-100, 1e100] is refused by the C layers' scale rule
    // (`RAPID_ERR_INVALID_SCALE`), before any range question.
    let (p1, p2) = (Placement { scale: 1e-200, ..id }, Placement { scale: 1e200, ..id });
    check_refused(&a, &b, &p1, &p2, "placement scales 1e-200 and 1e200");
    // A relative scale of 1e200 on unit models is in range, and so are their contacts: none
    // but where the scaled model 2 still touches model 1.
    let (p1, p2) = (Placement { scale: 1e-100, ..id }, Placement { scale: 1e100, ..id });
    assert!(native(&a, &b, &p1, &p2).is_some());
    // Just inside and just outside the limit, through the native query.
    let lim = rapidpqp::query::RANGE_LIMIT;
    let edge = |x: f64| vec![[v(x, 0.0, 0.0), v(x, 1.0, 0.0), v(x, 0.0, 1.0)]];
    assert!(native(&edge(lim * 0.5), &edge(lim * 0.5), &id, &id).is_some());
    assert_eq!(native(&edge(lim * 2.0), &edge(lim * 2.0), &id, &id), None);
}
