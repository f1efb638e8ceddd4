//! Scale invariance through the native C API (`rpq_*`), called as a C program calls it: the
//! scenes and comparisons of `tests/scale_invariance.rs` (see there), every query of the C
//! API — collide (all with geometry, first contact, batches), self-collision, distance and
//! tolerance (single and batched), contact sets, intersection curves, closest points, signed
//! distances, containment, ray casts (first and any hit), segment hits, solid collide,
//! separation, sweeps (first and last contact), removal directions, time of impact,
//! deformable and k-DOP models, worlds — answers alike at every scale `2^k`, or refuses with
//! `RPQ_ERR_OUT_OF_RANGE` only beyond the query's documented reach. `c_tests/scale.c` runs a
//! sample of it from C itself (`tests/c_scale.rs`).

mod scale;

use std::ptr::{null, null_mut};

use rapidpqp::ffi::batch::{rpq_collide_batch, rpq_distance_batch, rpq_tolerance_batch};
use rapidpqp::ffi::contact::{
    RpqContact, RpqTriContact, rpq_collide_result_geometries, rpq_collide_result_set_geometry, rpq_contacts,
    rpq_intersection_curves,
};
use rapidpqp::ffi::native::*;
use rapidpqp::ffi::refit::{RpqRefitReport, rpq_model_build_deformable, rpq_model_set_kdop, rpq_model_update_vertices};
use rapidpqp::ffi::solid::*;
use rapidpqp::ffi::sweep::*;
use rapidpqp::ffi::world::*;
use rapidpqp::{Mat3, Placement, Triangle, Vec3};
use scale::{Answer, Outcome, Query, Refusal, Scene, pow2, run_harness};

fn refusal(status: RpqStatus) -> Refusal {
    if status == RPQ_ERR_OUT_OF_RANGE { Refusal::range(status) } else { Refusal::other(status) }
}

/// `Ok` for `RPQ_OK`, else the refusal.
fn ok(status: RpqStatus) -> Result<(), Refusal> {
    if status == RPQ_OK { Ok(()) } else { Err(refusal(status)) }
}

/// A model handle, freed when dropped.
struct Handle(*mut RpqModel);

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: a live handle from `rpq_model_build*`, freed once.
        unsafe { rpq_model_free(self.0) }
    }
}

/// A C struct of numbers, zeroed (a valid value for each of them).
fn zeroed<T: Copy>() -> T {
    // SAFETY: only used for the `repr(C)` structs of integers, doubles and pointers here.
    unsafe { std::mem::zeroed() }
}

fn flat(tris: &[Triangle]) -> Vec<f64> {
    tris.iter().flatten().flat_map(|p| [p.x, p.y, p.z]).collect()
}

fn model(tris: &[Triangle], k: i32) -> Result<Handle, Refusal> {
    let coords = flat(&Scene::scaled(tris, k));
    let ids: Vec<i32> = (0..tris.len() as i32).map(|i| 100 + i).collect();
    let mut out = null_mut();
    // SAFETY: arrays of the stated lengths.
    ok(unsafe { rpq_model_build(coords.as_ptr(), ids.as_ptr(), tris.len(), &mut out) })?;
    Ok(Handle(out))
}

fn pose(p: &Placement) -> RpqPose {
    RpqPose {
        rotation: std::array::from_fn(|k| p.rotation[(k / 3, k % 3)]),
        translation: [p.translation.x, p.translation.y, p.translation.z],
        scale: p.scale,
    }
}

fn xyz(a: &[f64; 3]) -> Vec3 {
    Vec3::new(a[0], a[1], a[2])
}

fn pair(s: &Scene, k: i32) -> Result<(Handle, Handle, RpqPose, RpqPose), Refusal> {
    let (p1, p2) = s.placements(k);
    Ok((model(&s.a, k)?, model(&s.b, k)?, pose(&p1), pose(&p2)))
}

/// The sorted pairs of a collide result.
fn pairs_of(result: *mut RpqCollideResult) -> Vec<(i32, i32)> {
    // SAFETY: a live result; the pairs array has `num_pairs` entries (or is NULL when empty).
    unsafe {
        let n = rpq_collide_result_num_pairs(result);
        let p = rpq_collide_result_pairs(result);
        let mut v: Vec<(i32, i32)> = (0..n).map(|i| ((*p.add(i)).id1, (*p.add(i)).id2)).collect();
        v.sort_unstable();
        v
    }
}

struct ResultHandle(*mut RpqCollideResult);

impl Drop for ResultHandle {
    fn drop(&mut self) {
        // SAFETY: from `rpq_collide_result_new`, freed once.
        unsafe { rpq_collide_result_free(self.0) }
    }
}

fn collide_all(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let r = ResultHandle(rpq_collide_result_new());
    let mut a = Answer::default();
    // SAFETY: live handles and poses.
    unsafe {
        ok(rpq_collide_result_set_geometry(r.0, 1))?;
        ok(rpq_collide(m1.0, &p1, m2.0, &p2, null(), r.0))?;
        let n = rpq_collide_result_num_pairs(r.0);
        let mut g = vec![RpqTriContact::default(); n];
        let mut count = 0;
        ok(rpq_collide_result_geometries(r.0, g.as_mut_ptr(), n, &mut count))?;
        let p = rpq_collide_result_pairs(r.0);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| ((*p.add(i)).id1, (*p.add(i)).id2));
        a.exact("pairs", pairs_of(r.0));
        for i in order {
            a.exact("flags", (g[i].flags, g[i].num_points));
            for q in &g[i].points[..g[i].num_points as usize] {
                a.len3("point", &xyz(q));
            }
            a.unit3("normal1", &xyz(&g[i].normal1));
            a.unit3("normal2", &xyz(&g[i].normal2));
        }
        // First contact.
        let first = RpqCollideRequest { first_contact: 1, ..Default::default() };
        ok(rpq_collide_result_set_geometry(r.0, 0))?;
        ok(rpq_collide(m1.0, &p1, m2.0, &p2, &first, r.0))?;
        a.exact("first", rpq_collide_result_num_pairs(r.0) > 0);
        // Batched: the pose pair and model 2 moved by its own size (the same scaled).
        let poses2 = [
            p2,
            RpqPose { translation: [p2.translation[0] + 3.0 * pow2(k), p2.translation[1], p2.translation[2]], ..p2 },
        ];
        let (mut colliding, mut num) = ([0u8; 2], [0u64; 2]);
        ok(rpq_collide_batch(
            m1.0,
            &p1,
            1,
            m2.0,
            poses2.as_ptr(),
            2,
            null(),
            2,
            colliding.as_mut_ptr(),
            num.as_mut_ptr(),
        ))?;
        a.exact("batch", (colliding, num));
    }
    Ok(a)
}

fn self_collide(s: &Scene, k: i32) -> Outcome {
    let m = model(&s.a, k)?;
    let r = ResultHandle(rpq_collide_result_new());
    // SAFETY: live handles.
    ok(unsafe { rpq_self_collide(m.0, null(), r.0) })?;
    let mut a = Answer::default();
    a.exact("pairs", pairs_of(r.0));
    Ok(a)
}

fn distance(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let mut a = Answer::default();
    let mut d = RpqDistanceResult::default();
    // SAFETY: live handles, poses and outputs.
    unsafe {
        ok(rpq_distance(m1.0, &p1, m2.0, &p2, null(), null_mut(), &mut d))?;
        a.len("distance", d.distance);
        // The closest points (of any closest pair) as far apart as the distance.
        let placed = |p: &RpqPose, x: &[f64; 3]| {
            let r = Mat3::from_row_slice(&p.rotation);
            r * xyz(x) * p.scale + xyz(&p.translation)
        };
        a.len("gap", rapidpqp::math::length(&(placed(&p1, &d.p1) - placed(&p2, &d.p2))));
        let (mut batch, mut q1, mut q2) = ([0.0; 1], [0.0; 3], [0.0; 3]);
        ok(rpq_distance_batch(
            m1.0,
            &p1,
            1,
            m2.0,
            &p2,
            1,
            null(),
            0,
            1,
            batch.as_mut_ptr(),
            q1.as_mut_ptr(),
            q2.as_mut_ptr(),
        ))?;
        a.len("batch", batch[0]);
        for &t in &s.tolerances {
            let request = RpqToleranceRequest { tolerance: t * pow2(k), qsize: 2 };
            ok(rpq_tolerance(m1.0, &p1, m2.0, &p2, &request, &mut d))?;
            let (mut closer, mut dist) = ([0u8; 1], [0.0; 1]);
            ok(rpq_tolerance_batch(
                m1.0,
                &p1,
                1,
                m2.0,
                &p2,
                1,
                &request,
                1,
                closer.as_mut_ptr(),
                dist.as_mut_ptr(),
                null_mut(),
                null_mut(),
            ))?;
            a.exact("closer", (d.closer, closer[0]));
        }
    }
    Ok(a)
}

fn contacts(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let mut a = Answer::default();
    // SAFETY: live handles; buffers of the capacities given.
    unsafe {
        let mut n = 0;
        ok(rpq_contacts(m1.0, &p1, m2.0, &p2, 0.0, null_mut(), 0, &mut n))?;
        let mut c = vec![RpqContact::default(); n];
        ok(rpq_contacts(m1.0, &p1, m2.0, &p2, 0.0, c.as_mut_ptr(), n, &mut n))?;
        c.sort_by(|x, y| x.point.partial_cmp(&y.point).unwrap());
        a.exact("contacts", n);
        for c in &c {
            a.len3("point", &xyz(&c.point));
            a.unit3("normal", &xyz(&c.normal));
            a.exact("count", (c.count, c.flags));
        }
        let (mut np, mut nc) = (0, 0);
        ok(rpq_intersection_curves(m1.0, &p1, m2.0, &p2, null_mut(), 0, null_mut(), 0, &mut np, &mut nc))?;
        let (mut points, mut offsets) = (vec![0.0; 3 * np], vec![0usize; nc + 1]);
        ok(rpq_intersection_curves(
            m1.0,
            &p1,
            m2.0,
            &p2,
            points.as_mut_ptr(),
            np,
            offsets.as_mut_ptr(),
            nc + 1,
            &mut np,
            &mut nc,
        ))?;
        // The curves' segments, each from its lesser end, sorted (the chaining order where
        // curves branch is the search's).
        let point = |i: usize| [points[3 * i], points[3 * i + 1], points[3 * i + 2]];
        let mut segments = Vec::new();
        for c in 0..nc {
            for i in offsets[c]..offsets[c + 1] - 1 {
                let (p, q) = (point(i), point(i + 1));
                segments.push(if q < p { (q, p) } else { (p, q) });
            }
        }
        segments.sort_by(|x, y| x.partial_cmp(y).unwrap());
        a.exact("segments", segments.len());
        for (p, q) in &segments {
            a.len3("from", &xyz(p));
            a.len3("to", &xyz(q));
        }
    }
    Ok(a)
}

fn points(s: &Scene, k: i32) -> Vec<f64> {
    s.points.iter().flat_map(|p| [p.x * pow2(k), p.y * pow2(k), p.z * pow2(k)]).collect()
}

fn point_queries(s: &Scene, k: i32) -> Outcome {
    let m = model(&s.a, k)?;
    let pts = points(s, k);
    let n = s.points.len();
    let mut a = Answer::default();
    let mut c = vec![zeroed::<RpqClosestPoint>(); n];
    // SAFETY: live handle; arrays of n entries (3n doubles).
    unsafe {
        ok(rpq_closest_points(m.0, pts.as_ptr(), n, f64::INFINITY, 2, c.as_mut_ptr()))?;
        for c in &c {
            a.exact("on_surface", (c.on_surface, c.found));
            a.len("distance", c.distance);
            a.key("id", c.id);
            a.len3("point", &xyz(&c.point));
        }
        if s.closed {
            let (mut where_, mut winding, mut signed) = (vec![0u8; n], vec![0i32; n], vec![0.0; n]);
            ok(rpq_contains(m.0, pts.as_ptr(), n, 2, where_.as_mut_ptr(), winding.as_mut_ptr()))?;
            ok(rpq_signed_distance(m.0, pts.as_ptr(), n, 1, signed.as_mut_ptr(), null_mut()))?;
            a.exact("contains", (where_, winding));
            for d in signed {
                a.len("signed", d);
            }
        }
    }
    Ok(a)
}

fn rays(s: &Scene, k: i32) -> Outcome {
    let m = model(&s.a, k)?;
    let f = pow2(k);
    let origins: Vec<f64> = s.rays.iter().flat_map(|(o, _)| [o.x * f, o.y * f, o.z * f]).collect();
    let dirs: Vec<f64> = s.rays.iter().flat_map(|(_, d)| [d.x * f, d.y * f, d.z * f]).collect();
    let n = s.rays.len();
    let mut a = Answer::default();
    // SAFETY: live handle; arrays of n entries.
    unsafe {
        for (max_t, any) in [(f64::INFINITY, 0), (6.0, 0), (6.0, 1)] {
            let mut out = vec![zeroed::<RpqRayHit>(); n];
            ok(rpq_ray_cast(m.0, origins.as_ptr(), n, dirs.as_ptr(), n, max_t, any, 2, out.as_mut_ptr()))?;
            for h in &out {
                a.exact("hit", h.hit);
                if h.hit != 0 && any == 0 {
                    a.time("t", h.t);
                    a.len3("point", &xyz(&h.point));
                }
            }
        }
        for (o, d) in &s.rays {
            let (from, to) = (o * f, (o + d * 8.0) * f);
            let (from, to) = ([from.x, from.y, from.z], [to.x, to.y, to.z]);
            let mut count = 0;
            ok(rpq_segment_hits(m.0, from.as_ptr(), to.as_ptr(), null_mut(), 0, &mut count))?;
            let mut hits = vec![zeroed::<RpqRayHit>(); count];
            ok(rpq_segment_hits(m.0, from.as_ptr(), to.as_ptr(), hits.as_mut_ptr(), count, &mut count))?;
            hits.sort_by(|x, y| x.t.total_cmp(&y.t).then(x.id.cmp(&y.id)));
            a.exact("hits", hits.iter().map(|h| h.id).collect::<Vec<_>>());
            for h in &hits {
                a.time("t", h.t);
                a.len3("point", &xyz(&h.point));
            }
        }
    }
    Ok(a)
}

fn solids(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let mut a = Answer::default();
    // SAFETY: live handles, poses, outputs.
    unsafe {
        let mut r = RpqSolidCollideResult::default();
        ok(rpq_solid_collide(m1.0, &p1, m2.0, &p2, &mut r))?;
        a.exact("relation", (r.relation, r.intersecting));
        let mut dirs: Vec<Option<[f64; 3]>> = vec![None];
        dirs.extend(s.directions.iter().take(3).map(|d| Some([d.x * pow2(k), d.y * pow2(k), d.z * pow2(k)])));
        for d in dirs {
            let mut sep = RpqSeparation::default();
            let dp = d.as_ref().map_or(null(), |d| d.as_ptr());
            ok(rpq_separation(m1.0, &p1, m2.0, &p2, dp, &mut sep))?;
            a.exact("bound", (sep.bound, sep.relation, sep.directions));
            a.len("signed_distance", sep.signed_distance);
            a.len("translation", rapidpqp::math::length(&xyz(&sep.translation)));
        }
    }
    Ok(a)
}

fn sweeps(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let mut a = Answer::default();
    let f = pow2(k);
    let dirs: Vec<f64> = s.directions.iter().flat_map(|d| [d.x * f, d.y * f, d.z * f]).collect();
    // SAFETY: live handles, poses, arrays of the stated lengths.
    unsafe {
        for last in [0, 1] {
            for d in dirs.chunks(3) {
                let mut r = zeroed::<RpqSweepResult>();
                ok(rpq_sweep(m1.0, &p1, m2.0, &p2, d.as_ptr(), s.s_max, last, &mut r))?;
                a.exact("hit", r.hit);
                if r.hit != 0 {
                    a.time("s", r.s);
                }
            }
            let n = s.directions.len();
            let mut batch = vec![zeroed::<RpqSweepResult>(); n];
            ok(rpq_sweep_batch(m1.0, &p1, m2.0, &p2, dirs.as_ptr(), n, s.s_max, last, 2, batch.as_mut_ptr()))?;
            for r in &batch {
                a.exact("batch hit", r.hit);
                if r.hit != 0 {
                    a.time("batch s", r.s);
                }
            }
        }
        // Removal: model a out of model b, to infinity and to s_max (scaled).
        let models = [m1.0 as *const RpqModel, m2.0 as *const RpqModel];
        let poses = [p1, p2];
        let n = s.directions.len();
        for distance in [f64::INFINITY, s.s_max * f] {
            let mut out = vec![zeroed::<RpqRemoval>(); n];
            ok(rpq_removal_directions(
                models.as_ptr(),
                poses.as_ptr(),
                2,
                0,
                dirs.as_ptr(),
                n,
                distance,
                out.as_mut_ptr(),
            ))?;
            for r in &out {
                a.exact("free", (r.free, r.blocker));
                a.len("free_distance", r.free_distance);
            }
        }
    }
    Ok(a)
}

fn toi(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let (rot, t) = s.toi_end.expect("a motion");
    if rot != s.rot_a {
        return Ok(Answer::default()); // (turning: the Rust harness checks its band)
    }
    let end = pose(&Placement { rotation: rot, translation: t * pow2(k), scale: 1.0 });
    let mut out = std::mem::MaybeUninit::<RpqToi>::uninit();
    // SAFETY: live handles and poses; `out` written on success.
    let r = unsafe {
        ok(rpq_time_of_impact(m1.0, &p1, &end, m2.0, &p2, -1.0, 0, out.as_mut_ptr()))?;
        out.assume_init()
    };
    let mut a = Answer::default();
    a.exact("outcome", r.outcome);
    a.time("time", r.time);
    a.len3("translation", &xyz(&r.placement.translation));
    Ok(a)
}

/// A deformable model from model a's triangles, moved onto other grid points, collided with
/// model b (then as a k-DOP model); and a world of models a, b and a copy of a.
fn deforming(s: &Scene, k: i32, kdop: bool) -> Outcome {
    let f = pow2(k);
    let tris = Scene::scaled(&s.a, k);
    let vertices = flat(&tris);
    let faces: Vec<u32> = (0..3 * tris.len() as u32).collect();
    let mut h = null_mut();
    // SAFETY: arrays of the stated lengths; live handles afterwards.
    unsafe {
        ok(rpq_model_build_deformable(vertices.as_ptr(), 3 * tris.len(), faces.as_ptr(), tris.len(), null(), &mut h))?;
        let m = Handle(h);
        if kdop {
            ok(rpq_model_set_kdop(m.0, 1))?;
        }
        let (p1, p2) = s.placements(k);
        let (p1, p2) = (pose(&p1), pose(&p2));
        let m2 = model(&s.b, k)?;
        let corners: Vec<Vec3> = s.a.iter().chain(&s.b).flatten().copied().collect();
        let moved: Vec<f64> = (0..3 * tris.len())
            .flat_map(|i| {
                let c = corners[(i * 7 + 3) % corners.len()] * f;
                [c.x, c.y, c.z]
            })
            .collect();
        let mut a = Answer::default();
        let r = ResultHandle(rpq_collide_result_new());
        for step in 0..2 {
            if step == 1 {
                let mut report = RpqRefitReport::default();
                ok(rpq_model_update_vertices(m.0, moved.as_ptr(), 3 * tris.len(), &mut report))?;
            }
            ok(rpq_collide(m.0, &p1, m2.0, &p2, null(), r.0))?;
            a.exact("pairs", pairs_of(r.0));
            ok(rpq_self_collide(m.0, null(), r.0))?;
            a.exact("self", pairs_of(r.0));
        }
        Ok(a)
    }
}

fn world(s: &Scene, k: i32) -> Outcome {
    let (ma, mb, p1, p2) = pair(s, k)?;
    let mut w = null_mut();
    // SAFETY: live handles; the world freed at the end.
    unsafe {
        ok(rpq_world_new(&mut w))?;
        let run = || -> Result<Answer, Refusal> {
            let (mut a, mut b, mut c) = (0, 0, 0);
            ok(rpq_world_add_model(w, ma.0, &mut a))?;
            ok(rpq_world_add_model(w, mb.0, &mut b))?;
            ok(rpq_world_add_model(w, ma.0, &mut c))?;
            ok(rpq_world_set_pose(w, a, &p1))?;
            ok(rpq_world_set_pose(w, b, &p2))?;
            let mut p3 = p2;
            p3.translation[0] += pow2(k);
            p3.translation[1] += 2.0 * pow2(k);
            ok(rpq_world_set_pose(w, c, &p3))?;
            let mut n = 0;
            ok(rpq_world_collide(w, 0, &mut n))?;
            let mut contacts = Vec::new();
            for i in 0..n {
                let mut oc = zeroed::<RpqObjectContact>();
                ok(rpq_world_contact(w, i, &mut oc))?;
                let mut t: Vec<(i32, i32)> =
                    (0..oc.num_tri_pairs).map(|j| ((*oc.tri_pairs.add(j)).id1, (*oc.tri_pairs.add(j)).id2)).collect();
                t.sort_unstable();
                contacts.push((oc.id1, oc.id2, t));
            }
            contacts.sort();
            let mut out = Answer::default();
            out.exact("contacts", contacts);
            Ok(out)
        };
        let answer = run();
        rpq_world_free(w);
        answer
    }
}

fn always(_: &Scene) -> bool {
    true
}
fn closed(s: &Scene) -> bool {
    s.closed
}
fn has_points(s: &Scene) -> bool {
    !s.points.is_empty()
}
fn has_rays(s: &Scene) -> bool {
    !s.rays.is_empty()
}
fn moves(s: &Scene) -> bool {
    !s.directions.is_empty()
}
fn has_motion(s: &Scene) -> bool {
    s.toi_end.is_some()
}
fn still(s: &Scene) -> f64 {
    s.magnitude()
}
fn moving(s: &Scene) -> f64 {
    s.motion_magnitude()
}
fn pointing(s: &Scene) -> f64 {
    s.point_magnitude()
}
fn separating(s: &Scene) -> f64 {
    s.magnitude() + 3.0
}
fn batched(s: &Scene) -> f64 {
    s.magnitude() + 2.0 // (the batch moves model 2 by 3 more)
}

fn queries() -> Vec<Query> {
    vec![
        Query {
            name: "rpq_collide (geometry, first, batch)",
            applies: always,
            run: collide_all,
            reach: batched,
            limit: 1000.0,
        },
        Query { name: "rpq_self_collide", applies: always, run: self_collide, reach: still, limit: 1000.0 },
        Query {
            name: "rpq_distance, rpq_tolerance (and batches)",
            applies: always,
            run: distance,
            reach: still,
            limit: 1000.0,
        },
        Query {
            name: "rpq_contacts, rpq_intersection_curves",
            applies: always,
            run: contacts,
            reach: still,
            limit: 1000.0,
        },
        Query {
            name: "rpq_closest_points, rpq_contains, rpq_signed_distance",
            applies: has_points,
            run: point_queries,
            reach: pointing,
            limit: 1000.0,
        },
        Query { name: "rpq_ray_cast, rpq_segment_hits", applies: has_rays, run: rays, reach: pointing, limit: 1000.0 },
        Query {
            name: "rpq_solid_collide, rpq_separation",
            applies: closed,
            run: solids,
            reach: separating,
            limit: 1000.0,
        },
        Query {
            name: "rpq_sweep (and batch), rpq_removal_directions",
            applies: moves,
            run: sweeps,
            reach: moving,
            limit: 1000.0,
        },
        Query { name: "rpq_time_of_impact", applies: has_motion, run: toi, reach: moving, limit: 1000.0 },
        Query {
            name: "rpq_model_update_vertices",
            applies: always,
            run: |s, k| deforming(s, k, false),
            reach: still,
            limit: 1000.0,
        },
        Query {
            name: "rpq_model_set_kdop",
            applies: always,
            run: |s, k| deforming(s, k, true),
            reach: still,
            limit: 1000.0,
        },
        Query { name: "rpq_world_collide", applies: always, run: world, reach: still, limit: 900.0 },
    ]
}

#[test]
fn every_c_query_scales_exactly() {
    run_harness(&queries());
}
