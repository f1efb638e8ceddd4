//! Issue 25 items 3 and 4 through every C entry point (called from Rust): a pose accepted
//! within the rotation tolerance gives one answer to collide, distance and tolerance, single
//! and batched, native and legacy PQP, at the default rotation tolerance and at the largest
//! one the library allows; and a crossing pair is never hidden by a near pair.
//!
//! The scene: a long strip (1000 × 1, 400 triangles) placed with the rotation `(1 + e)·I`, and
//! a triangle piercing it just inside its far end, as placed. collide finds them meeting; the
//! old distance and tolerance bounds turned the strip's box as if the rotation were
//! orthonormal and answered "not closer" (a lower bound of 0.005 at e = 4.9e-6).

use std::ptr;

use rapidpqp::ffi::batch::{rpq_collide_batch, rpq_distance_batch, rpq_tolerance_batch};
use rapidpqp::ffi::native::*;
use rapidpqp::ffi::pose::{RPQ_MAX_ROTATION_TOLERANCE, RPQ_ROTATION_TOLERANCE_DEFAULT, rpq_set_rotation_tolerance};
use rapidpqp::ffi::pqp::*;

const LENGTH: f64 = 1000.0;

fn strip() -> Vec<[[f64; 3]; 3]> {
    (0..200)
        .flat_map(|k| {
            let (x0, x1) = (LENGTH * k as f64 / 200.0, LENGTH * (k + 1) as f64 / 200.0);
            [[[x0, 0.0, 0.0], [x1, 0.0, 0.0], [x1, 1.0, 0.0]], [[x0, 0.0, 0.0], [x1, 1.0, 0.0], [x0, 1.0, 0.0]]]
        })
        .collect()
}

/// A triangle through the strip's plane at `x`.
fn pierce(x: f64) -> Vec<[[f64; 3]; 3]> {
    vec![[[x, 0.5, -1.0], [x, 0.5, 1.0], [x - 1e-3, 0.6, 0.0]]]
}

fn native(tris: &[[[f64; 3]; 3]]) -> *mut RpqModel {
    let flat: Vec<f64> = tris.iter().flatten().flatten().copied().collect();
    let mut model = ptr::null_mut();
    // SAFETY: 9 doubles a triangle; the out pointer is writable.
    assert_eq!(unsafe { rpq_model_build(flat.as_ptr(), ptr::null(), tris.len(), &mut model) }, RPQ_OK);
    model
}

fn legacy(tris: &[[[f64; 3]; 3]]) -> *mut PQP_Model {
    let m = PQP_Model_new();
    // SAFETY: a live model; 3 doubles a corner.
    unsafe {
        for (k, t) in tris.iter().enumerate() {
            assert_eq!(PQP_AddTri(m, t[0].as_ptr(), t[1].as_ptr(), t[2].as_ptr(), k as i32), PQP_OK);
        }
        assert_eq!(PQP_EndModel(m), PQP_OK);
    }
    m
}

fn pose(rotation: [f64; 9]) -> RpqPose {
    RpqPose { rotation, translation: [0.0; 3], scale: 1.0 }
}

const IDENTITY: [f64; 9] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];

/// Every native query on the pierced strip at `rotation`: collide, distance and tolerance
/// agree that the models meet, single and batched, whichever model comes first.
fn native_queries_agree(rotation: [f64; 9], x: f64, what: &str) {
    let (tri, bar) = (native(&pierce(x)), native(&strip()));
    let (identity, placed) = (pose(IDENTITY), pose(rotation));
    for (a, pa, b, pb, order) in
        [(tri, identity, bar, placed, "strip second"), (bar, placed, tri, identity, "strip first")]
    {
        let what = &format!("{what}, {order}");
        // SAFETY: live models and results, readable poses, writable outputs of the stated sizes.
        unsafe { native_order_agrees(a, pa, b, pb, what) };
    }
    // SAFETY: live models, freed once.
    unsafe {
        rpq_model_free(tri);
        rpq_model_free(bar);
    }
}

/// # Safety
/// Live models.
unsafe fn native_order_agrees(a: *mut RpqModel, pa: RpqPose, b: *mut RpqModel, pb: RpqPose, what: &str) {
    // SAFETY: live models and results, readable poses, writable outputs of the stated sizes.
    unsafe {
        let result = rpq_collide_result_new();
        assert_eq!(rpq_collide(a, &pa, b, &pb, ptr::null(), result), RPQ_OK, "{what}");
        assert!(rpq_collide_result_num_pairs(result) > 0, "{what}: collide finds the crossing");
        rpq_collide_result_free(result);
        for qsize in [2, 3, 64] {
            let mut r = std::mem::zeroed::<RpqDistanceResult>();
            let request = RpqDistanceRequest { qsize, ..Default::default() };
            assert_eq!(rpq_distance(a, &pa, b, &pb, &request, ptr::null_mut(), &mut r), RPQ_OK);
            assert_eq!(r.distance, 0.0, "{what} qsize {qsize}: distance");
            for tolerance in [0.0, 1e-3] {
                let request = RpqToleranceRequest { tolerance, qsize };
                assert_eq!(rpq_tolerance(a, &pa, b, &pb, &request, &mut r), RPQ_OK);
                assert_eq!(r.closer, 1, "{what} qsize {qsize} tolerance {tolerance}: lower bound {}", r.distance);
            }
        }
        // Batches: the same pose three times, one thread and two.
        let poses = [pb; 3];
        for threads in [1, 2] {
            let mut colliding = [0u8; 3];
            let status = rpq_collide_batch(
                a,
                &pa,
                1,
                b,
                poses.as_ptr(),
                3,
                ptr::null(),
                threads,
                colliding.as_mut_ptr(),
                ptr::null_mut(),
            );
            assert_eq!(status, RPQ_OK);
            assert_eq!(colliding, [1; 3], "{what}: collide batch");
            let mut distances = [f64::NAN; 3];
            let status = rpq_distance_batch(
                a,
                &pa,
                1,
                b,
                poses.as_ptr(),
                3,
                ptr::null(),
                0,
                threads,
                distances.as_mut_ptr(),
                ptr::null_mut(),
                ptr::null_mut(),
            );
            assert_eq!(status, RPQ_OK);
            assert_eq!(distances, [0.0; 3], "{what}: distance batch");
            let mut closer = [0u8; 3];
            let status = rpq_tolerance_batch(
                a,
                &pa,
                1,
                b,
                poses.as_ptr(),
                3,
                ptr::null(),
                threads,
                closer.as_mut_ptr(),
                ptr::null_mut(),
                ptr::null_mut(),
                ptr::null_mut(),
            );
            assert_eq!(status, RPQ_OK);
            assert_eq!(closer, [1; 3], "{what}: tolerance batch");
        }
    }
}

/// The legacy PQP calls on the same scene (their own rotation bound, 1e-3).
fn legacy_queries_agree(e: f64, x: f64, strip_first: bool) {
    let (mut a, mut b) = (legacy(&pierce(x)), legacy(&strip()));
    let mut r1 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let mut r2 = r1.map(|row| row.map(|v| v * (1.0 + e)));
    if strip_first {
        std::mem::swap(&mut a, &mut b);
        std::mem::swap(&mut r1, &mut r2);
    }
    let (mut t1, mut t2) = ([0.0; 3], [0.0; 3]);
    // SAFETY: live models, 3×3 rotations and 3 translations, zero-filled results.
    unsafe {
        let mut c = std::mem::zeroed::<PQP_CollideResult>();
        let status = PQP_Collide(&mut c, r1.as_mut_ptr(), t1.as_mut_ptr(), a, r2.as_mut_ptr(), t2.as_mut_ptr(), b, 1);
        assert_eq!(status, PQP_OK);
        assert!(c.num_pairs > 0, "e {e} strip first {strip_first}: PQP_Collide finds the crossing");
        PQP_CollideResult_FreePairsList(&mut c);
        for qsize in [2, 3, 64] {
            let mut d = std::mem::zeroed::<PQP_DistanceResult>();
            let (r1p, t1p, r2p, t2p) = (r1.as_mut_ptr(), t1.as_mut_ptr(), r2.as_mut_ptr(), t2.as_mut_ptr());
            assert_eq!(PQP_Distance(&mut d, r1p, t1p, a, r2p, t2p, b, 0.0, 0.0, qsize), PQP_OK);
            assert_eq!(d.distance, 0.0, "e {e} strip first {strip_first} qsize {qsize}: PQP_Distance");
            let mut t = std::mem::zeroed::<PQP_ToleranceResult>();
            assert_eq!(PQP_Tolerance(&mut t, r1p, t1p, a, r2p, t2p, b, 0.0, qsize), PQP_OK);
            assert_eq!(
                t.closer_than_tolerance, 1,
                "e {e} strip first {strip_first} qsize {qsize}: PQP_Tolerance, lower bound {}",
                t.distance
            );
        }
        PQP_Model_delete(a);
        PQP_Model_delete(b);
    }
}

/// The triangle's place: just inside the strip's far end as placed by `(1 + e)·I`.
fn inside_end(e: f64) -> f64 {
    LENGTH * (1.0 + e) - 0.1 * LENGTH * e.abs()
}

#[test]
fn accepted_rotations_give_one_answer_in_every_api() {
    for e in [4.9e-6, 2e-6] {
        let r = IDENTITY.map(|v| v * (1.0 + e));
        native_queries_agree(r, inside_end(e), &format!("native e {e}"));
        legacy_queries_agree(e, inside_end(e), false);
        legacy_queries_agree(e, inside_end(e), true);
    }
    legacy_queries_agree(9e-4, inside_end(9e-4), false);
    legacy_queries_agree(9e-4, inside_end(9e-4), true);
    // The largest rotation tolerance the library allows (process-wide: set back at the end).
    assert_eq!(rpq_set_rotation_tolerance(RPQ_MAX_ROTATION_TOLERANCE), RPQ_OK);
    for e in [4.9e-3, 9e-3] {
        let r = IDENTITY.map(|v| v * (1.0 + e));
        native_queries_agree(r, inside_end(e), &format!("native e {e} at tolerance 1e-2"));
    }
    // A sheared rotation within 1e-2: the strip's end sheared upwards through the triangle.
    let shear = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 4e-3, 0.0, 1.0];
    let (a, b) = (native(&[[[1000.0, 0.5, 3.0], [1000.0, 0.5, 5.0], [999.999, 0.6, 4.0]]]), native(&strip()));
    // SAFETY: live models, readable poses, writable results.
    unsafe {
        let (pa, pb) = (pose(IDENTITY), pose(shear));
        let result = rpq_collide_result_new();
        assert_eq!(rpq_collide(a, &pa, b, &pb, ptr::null(), result), RPQ_OK);
        let met = rpq_collide_result_num_pairs(result) > 0;
        rpq_collide_result_free(result);
        assert!(met, "the sheared strip reaches z = 4 at its end");
        let mut r = std::mem::zeroed::<RpqDistanceResult>();
        assert_eq!(rpq_distance(a, &pa, b, &pb, ptr::null(), ptr::null_mut(), &mut r), RPQ_OK);
        assert_eq!(r.distance, 0.0);
        assert_eq!(rpq_tolerance(a, &pa, b, &pb, ptr::null(), &mut r), RPQ_OK);
        assert_eq!(r.closer, 1, "lower bound {}", r.distance);
        rpq_model_free(a);
        rpq_model_free(b);
    }
    assert_eq!(rpq_set_rotation_tolerance(RPQ_ROTATION_TOLERANCE_DEFAULT), RPQ_OK);
}

/// Two models that cross, while another pair is a rounding unit or two apart (and, near
/// 1.8e13, a quarter unit apart): distance is 0 with one point, natively and through PQP.
#[test]
fn a_near_pair_never_hides_a_crossing_in_any_api() {
    for (offset, gap) in [(0.0, 1e-14), (1.8e13, 0.25)] {
        let at = |x: f64, y: f64, z: f64| [offset + x, y, z];
        let near = [at(0.0, 0.0, 0.0), at(1.0, 0.0, 0.0), at(0.0, 1.0, 0.0)];
        let ta = vec![near, [at(5.0, -1.0, 0.0), at(7.0, -1.0, 0.0), at(6.0, 1.0, 0.0)]];
        let tb = vec![[at(6.0, 0.0, -1.0), at(6.0, 0.0, 1.0), at(6.5, 0.3, 0.0)], near.map(|p| [p[0], p[1], gap])];
        let (a, b) = (native(&ta), native(&tb));
        let p = pose(IDENTITY);
        // SAFETY: live models, readable poses, writable results.
        unsafe {
            for qsize in [2, 3, 16] {
                let mut r = std::mem::zeroed::<RpqDistanceResult>();
                let request = RpqDistanceRequest { qsize, ..Default::default() };
                assert_eq!(rpq_distance(a, &p, b, &p, &request, ptr::null_mut(), &mut r), RPQ_OK);
                assert_eq!(r.distance, 0.0, "offset {offset} qsize {qsize}");
                assert_eq!(r.p1, r.p2, "one point of the intersection");
            }
            let mut distances = [f64::NAN; 2];
            let status = rpq_distance_batch(
                a,
                &p,
                1,
                b,
                [p, p].as_ptr(),
                2,
                ptr::null(),
                1,
                1,
                distances.as_mut_ptr(),
                ptr::null_mut(),
                ptr::null_mut(),
            );
            assert_eq!(status, RPQ_OK);
            assert_eq!(distances, [0.0; 2], "offset {offset}: batch (warm start)");
            rpq_model_free(a);
            rpq_model_free(b);
        }
        let (a, b) = (legacy(&ta), legacy(&tb));
        let mut r = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let mut t = [0.0; 3];
        // SAFETY: live models, rotations and translations, zero-filled results.
        unsafe {
            for qsize in [2, 16] {
                let mut d = std::mem::zeroed::<PQP_DistanceResult>();
                let (rp, tp) = (r.as_mut_ptr(), t.as_mut_ptr());
                assert_eq!(PQP_Distance(&mut d, rp, tp, a, rp, tp, b, 0.0, 0.0, qsize), PQP_OK);
                assert_eq!(d.distance, 0.0, "offset {offset} qsize {qsize}: PQP_Distance");
                assert_eq!(d.p1, d.p2);
            }
            PQP_Model_delete(a);
            PQP_Model_delete(b);
        }
    }
}

/// `PQP_DistanceResult.qsize` and `PQP_ToleranceResult.qsize` say the queue size asked for,
/// 2 (the default) included (it was left at 0 for `qsize <= 2`).
#[test]
fn pqp_results_record_the_queue_size() {
    let (a, b) = (legacy(&pierce(3.0)), legacy(&pierce(40.0)));
    let mut r = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let mut t = [0.0; 3];
    // SAFETY: live models, rotations and translations, zero-filled results.
    unsafe {
        for qsize in [2, 3, 50, 1, 0, -4] {
            let (rp, tp) = (r.as_mut_ptr(), t.as_mut_ptr());
            let mut d = std::mem::zeroed::<PQP_DistanceResult>();
            assert_eq!(PQP_Distance(&mut d, rp, tp, a, rp, tp, b, 0.0, 0.0, qsize), PQP_OK);
            assert_eq!(d.qsize, qsize, "PQP_Distance");
            let mut tr = std::mem::zeroed::<PQP_ToleranceResult>();
            assert_eq!(PQP_Tolerance(&mut tr, rp, tp, a, rp, tp, b, 1.0, qsize), PQP_OK);
            assert_eq!(tr.qsize, qsize, "PQP_Tolerance");
        }
        PQP_Model_delete(a);
        PQP_Model_delete(b);
    }
}
