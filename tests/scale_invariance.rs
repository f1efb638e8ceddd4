//! Scale invariance of every Rust query: multiplying every coordinate by `2^k` is exact while
//! the coordinates stay representable (the scenes are small integers, exact from `2^-1064` to
//! `2^1000`), so every answer must scale exactly with them — booleans, pair and hit sets,
//! outcomes and counts equal; distances, depths, points and lengths times `2^k`; times and
//! sweep parameters equal — or the query refuses with its documented out-of-range error, only
//! beyond the reach the README's table ("Range of coordinates") gives it. A metamorphic test:
//! no brute force, every query.
//!
//! The quick run (in the suite) takes `k` every 10 from -1064 to 1000 and both sides of every
//! threshold of the code; `RAPIDPQP_SCALE_LONG=1` takes every `k` and more seeded scenes;
//! `RAPIDPQP_SCALE_ONLY=name` runs the queries whose name contains `name`.

mod scale;

use rapidpqp::model::{BuildError, RefitError};
use rapidpqp::nbody::World;
use rapidpqp::query::{
    CollideRequest, CollideResult, DistanceRequest, Part, QueryError, Ray, SolidQueryError, SweepRequest, ToiRequest,
    Winding, closest_point, closest_points, collide, contact_set, contains, distance, intersection_curves,
    ray_any_hits, ray_first_hits, removal_directions, segment_hits, self_collide, separation, signed_distances,
    solid_collide, sweep, sweep_last_contact, time_of_impact, tolerance, windings,
};
use rapidpqp::{Model, Placement, Triangle, Vec3};
use scale::{Answer, Outcome, Query, Refusal, Scene, pow2, run_harness};

fn model(tris: &[Triangle], k: i32) -> Result<Model, Refusal> {
    let tris = Scene::scaled(tris, k);
    Model::new(tris.clone(), (0..tris.len() as i32).map(|i| 100 + i).collect()).map_err(build_refusal)
}

fn build_refusal(e: BuildError) -> Refusal {
    if e == BuildError::OutOfRange { Refusal::range(e) } else { Refusal::other(e) }
}

fn q(e: QueryError) -> Refusal {
    if e == QueryError::OutOfRange { Refusal::range(e) } else { Refusal::other(e) }
}

fn solid_q(e: SolidQueryError) -> Refusal {
    match e {
        SolidQueryError::Query(e) => q(e),
        e => Refusal::other(e),
    }
}

fn point_q(e: rapidpqp::query::PointError) -> Refusal {
    match e {
        rapidpqp::query::PointError::OutOfRange { .. } => Refusal::range(e),
        e => Refusal::other(e),
    }
}

/// Both models at 2^k and their placements.
fn pair(s: &Scene, k: i32) -> Result<(Model, Model, Placement, Placement), Refusal> {
    let (p1, p2) = s.placements(k);
    Ok((model(&s.a, k)?, model(&s.b, k)?, p1, p2))
}

fn sorted_pairs(out: &CollideResult) -> Vec<(i32, i32)> {
    let mut v: Vec<(i32, i32)> = out.pairs.iter().map(|p| (p.id1, p.id2)).collect();
    v.sort_unstable();
    v
}

fn collide_all(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let mut out = CollideResult::new();
    collide(&m1, &p1, &m2, &p2, &CollideRequest { geometry: true, ..Default::default() }, &mut out).map_err(q)?;
    let mut a = Answer::default();
    // Geometry per pair, in pair order.
    let mut order: Vec<usize> = (0..out.pairs.len()).collect();
    order.sort_by_key(|&i| (out.pairs[i].id1, out.pairs[i].id2));
    a.exact("pairs", sorted_pairs(&out));
    for i in order {
        let g = &out.geometry[i];
        a.exact("flags", g.flags);
        a.exact("points", g.points().len());
        for p in g.points() {
            a.len3("point", p);
        }
        a.unit3("normal1", &g.normal1);
        a.unit3("normal2", &g.normal2);
    }
    Ok(a)
}

fn collide_first(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let mut out = CollideResult::new();
    collide(&m1, &p1, &m2, &p2, &CollideRequest { first_contact: true, ..Default::default() }, &mut out).map_err(q)?;
    let mut a = Answer::default();
    a.exact("colliding", out.colliding());
    Ok(a)
}

fn distance_q(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let d = distance(&m1, &p1, &m2, &p2, &DistanceRequest::default(), None).map_err(q)?;
    let mut a = Answer::default();
    a.len("distance", d.distance);
    a.key("closest pair", d.closest_pair.map(|(i, j)| (m1.ids()[i as usize], m2.ids()[j as usize])));
    a.len3("p1", &d.p1);
    a.len3("p2", &d.p2);
    Ok(a)
}

fn tolerance_q(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let mut a = Answer::default();
    for &t in &s.tolerances {
        let d = tolerance(&m1, &p1, &m2, &p2, t * pow2(k), 2, None).map_err(q)?;
        a.exact("closer", d.closer);
        // (Closer: the distance of a pair within the tolerance, whichever was found first.)
        if d.closer {
            a.key("pair", d.closest_pair.map(|(i, j)| (m1.ids()[i as usize], m2.ids()[j as usize])));
            a.len("distance", d.distance);
        }
    }
    Ok(a)
}

fn contacts_q(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let mut a = Answer::default();
    // (Merge tolerance 0: a positive one merges in discovery order, which may differ.)
    {
        let mut c = contact_set(&m1, &p1, &m2, &p2, 0.0).map_err(q)?;
        c.sort_by(|x, y| (x.point.x, x.point.y, x.point.z).partial_cmp(&(y.point.x, y.point.y, y.point.z)).unwrap());
        a.exact("contacts", c.len());
        for c in &c {
            a.len3("point", &c.point);
            a.unit3("normal", &c.normal);
            a.exact("count", (c.count, c.flags));
        }
    }
    Ok(a)
}

fn curves_q(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let curves = intersection_curves(&m1, &p1, &m2, &p2).map_err(q)?;
    // The curves' segments, each from its lesser end, sorted: where curves branch, how they
    // are chained depends on the order the pairs were found in.
    let key = |p: &Vec3| (p.x, p.y, p.z);
    let mut segments: Vec<(Vec3, Vec3)> = Vec::new();
    for c in &curves {
        for w in c.points.windows(2) {
            segments.push(if key(&w[1]) < key(&w[0]) { (w[1], w[0]) } else { (w[0], w[1]) });
        }
    }
    segments.sort_by(|x, y| (key(&x.0), key(&x.1)).partial_cmp(&(key(&y.0), key(&y.1))).unwrap());
    let mut a = Answer::default();
    a.exact("segments", segments.len());
    a.exact("closed", curves.iter().filter(|c| c.closed).count());
    for (p, q) in &segments {
        a.len3("from", p);
        a.len3("to", q);
    }
    Ok(a)
}

fn scaled_points(s: &Scene, k: i32) -> Vec<Vec3> {
    s.points.iter().map(|p| p * pow2(k)).collect()
}

fn closest_q(s: &Scene, k: i32) -> Outcome {
    let m = model(&s.a, k)?;
    let points = scaled_points(s, k);
    let mut out = vec![None; points.len()];
    closest_points(&m, &points, f64::INFINITY, &mut out).map_err(point_q)?;
    let mut a = Answer::default();
    for (p, c) in points.iter().zip(&out) {
        let c = c.expect("unbounded");
        let one = closest_point(&m, p).map_err(point_q)?;
        a.exact("on_surface", (c.on_surface, one.on_surface));
        a.len("distance", c.distance);
        a.len("distance (one)", one.distance);
        a.key("triangle", c.id);
        a.len3("point", &c.point);
    }
    Ok(a)
}

fn winding_q(s: &Scene, k: i32) -> Outcome {
    let m = model(&s.a, k)?;
    let points = scaled_points(s, k);
    let mut out = vec![Winding::OnSurface; points.len()];
    windings(&m, &points, &mut out).map_err(q)?;
    let mut a = Answer::default();
    a.exact("windings", &out);
    Ok(a)
}

fn contains_q(s: &Scene, k: i32) -> Outcome {
    let m = model(&s.a, k)?;
    let points = scaled_points(s, k);
    let mut out = vec![Winding::OnSurface; points.len()];
    contains(&m, &points, &mut out).map_err(solid_q)?;
    let mut a = Answer::default();
    a.exact("contains", &out);
    Ok(a)
}

fn signed_q(s: &Scene, k: i32) -> Outcome {
    let m = model(&s.a, k)?;
    let points = scaled_points(s, k);
    let mut d = vec![0.0; points.len()];
    signed_distances(&m, &points, &mut d, None).map_err(solid_q)?;
    let mut a = Answer::default();
    for d in d {
        a.len("signed", d);
    }
    Ok(a)
}

fn rays(s: &Scene, k: i32) -> Vec<Ray> {
    s.rays.iter().map(|(o, d)| Ray { origin: o * pow2(k), direction: d * pow2(k) }).collect()
}

fn ray_q(s: &Scene, k: i32) -> Outcome {
    let m = model(&s.a, k)?;
    let rays = rays(s, k);
    let mut a = Answer::default();
    for t_max in [f64::INFINITY, 6.0] {
        let mut out = vec![None; rays.len()];
        ray_first_hits(&m, &rays, t_max, &mut out).map_err(q)?;
        let mut any = vec![false; rays.len()];
        ray_any_hits(&m, &rays, t_max, &mut any).map_err(q)?;
        a.exact("any", &any);
        for h in &out {
            a.exact("hit", h.is_some());
            if let Some(h) = h {
                a.time("t", h.t);
                a.len3("point", &h.point);
                a.key("triangle", h.id);
                for w in h.barycentric {
                    a.unit("barycentric", w);
                }
            }
        }
    }
    Ok(a)
}

fn segment_q(s: &Scene, k: i32) -> Outcome {
    let m = model(&s.a, k)?;
    let mut a = Answer::default();
    let mut hits = Vec::new();
    for r in rays(s, k) {
        let end = r.origin + r.direction * 8.0;
        segment_hits(&m, &r.origin, &end, &mut hits).map_err(q)?;
        hits.sort_by(|x, y| x.t.total_cmp(&y.t).then(x.id.cmp(&y.id)));
        a.exact("hits", hits.iter().map(|h| h.id).collect::<Vec<_>>());
        for h in &hits {
            a.time("t", h.t);
            a.len3("point", &h.point);
        }
    }
    Ok(a)
}

fn solid_collide_q(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let r = solid_collide(&m1, &p1, &m2, &p2).map_err(solid_q)?;
    let mut a = Answer::default();
    a.exact("relation", (r.relation, r.pair.is_some()));
    Ok(a)
}

fn separation_q(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let mut a = Answer::default();
    let mut dirs: Vec<Option<Vec3>> = vec![None];
    dirs.extend(s.directions.iter().take(3).map(|d| Some(d * pow2(k))));
    for d in dirs {
        let r = separation(&m1, &p1, &m2, &p2, d).map_err(solid_q)?;
        a.exact("bound", (r.bound, r.relation, r.directions));
        a.len("signed_distance", r.signed_distance);
        a.len("translation", rapidpqp::math::length(&r.translation));
        // Apart: closest points (of any closest pair) as far apart as the distance.
        if !r.p1.x.is_nan() {
            a.len("gap", rapidpqp::math::length(&(p1.apply(&r.p1) - p2.apply(&r.p2))));
        }
    }
    Ok(a)
}

/// A sweep's contact: its time, and that its points are where they should be: model 1's
/// (moved to `s`) and model 2's within the sweep's contact tolerance of each other and on
/// their triangles (which points of a face contact are reported is the search's choice).
fn sweep_answer(
    a: &mut Answer,
    r: &rapidpqp::query::SweepResult,
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    d: &Vec3,
) {
    a.exact("contact", r.contact.is_some());
    if let Some(c) = r.contact {
        a.time("s", c.s);
        let size =
            m1.magnitude().max(m2.magnitude()) + p1.translation.amax() + p2.translation.amax() + (d * c.s).amax();
        let near = |x: f64| x <= 2f64.powi(-40) * size + 64.0 * scale::TINY;
        let moved = p1.apply(&c.point1) + d * c.s;
        let on1 = closest_point(m1, &c.point1).map(|x| x.distance).unwrap_or(f64::NAN);
        let on2 = closest_point(m2, &c.point2).map(|x| x.distance).unwrap_or(f64::NAN);
        a.exact(
            "points within the tolerance",
            (near(rapidpqp::math::length(&(moved - c.point))), near(on1), near(on2)),
        );
        a.exact("point is point2 placed", near(rapidpqp::math::length(&(p2.apply(&c.point2) - c.point))));
    }
}

fn sweep_q(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let mut a = Answer::default();
    for d in &s.directions {
        let request = SweepRequest { direction: d * pow2(k), s_max: s.s_max, cylinder_cull: false };
        let d = request.direction;
        sweep_answer(&mut a, &sweep(&m1, &p1, &m2, &p2, &request).map_err(q)?, &m1, &p1, &m2, &p2, &d);
        let culled = sweep(&m1, &p1, &m2, &p2, &SweepRequest { cylinder_cull: true, ..request }).map_err(q)?;
        sweep_answer(&mut a, &culled, &m1, &p1, &m2, &p2, &d);
    }
    Ok(a)
}

fn sweep_last_q(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let mut a = Answer::default();
    for d in &s.directions {
        let request = SweepRequest { direction: d * pow2(k), s_max: s.s_max, cylinder_cull: false };
        let r = sweep_last_contact(&m1, &p1, &m2, &p2, &request).map_err(q)?;
        sweep_answer(&mut a, &r, &m1, &p1, &m2, &p2, &request.direction);
    }
    Ok(a)
}

fn removal_q(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let parts = [Part { model: &m1, placement: p1 }, Part { model: &m2, placement: p2 }];
    let dirs: Vec<Vec3> = s.directions.iter().map(|d| d * pow2(k)).collect();
    let mut a = Answer::default();
    for distance in [None, Some(s.s_max * pow2(k))] {
        for r in removal_directions(&parts, 0, &dirs, distance).map_err(q)? {
            a.exact("free", (r.free, r.blocker.map(|(b, _)| b)));
            a.len("free_distance", r.free_distance);
            a.unit3("direction", &r.direction);
        }
    }
    Ok(a)
}

fn toi_q(s: &Scene, k: i32) -> Outcome {
    let (m1, m2, p1, p2) = pair(s, k)?;
    let (rot, t) = s.toi_end.expect("a motion");
    let end = Placement { rotation: rot, translation: t * pow2(k), ..p1 };
    let mut a = Answer::default();
    let r = time_of_impact(&m1, &p1, &end, &m2, &p2, &ToiRequest::default()).map_err(q)?;
    a.exact("outcome", r.outcome);
    if rot == p1.rotation {
        // A translation: the exact sweep's time.
        a.time("time", r.time);
        a.len3("translation", &r.placement.translation);
    } else {
        // Turning: conservative advancement stops somewhere in the band where the models are
        // within the tolerance (1e-3 of the larger model's diagonal) before they touch; its
        // width is at least the tolerance over the fastest point's speed (a quarter turn).
        let size = |t: &[Triangle]| {
            let (lo, hi) = t
                .iter()
                .flatten()
                .fold((Vec3::repeat(f64::MAX), Vec3::repeat(f64::MIN)), |(l, h), p| (l.inf(p), h.sup(p)));
            (hi - lo).norm()
        };
        let tolerance = 1e-3 * size(&s.a).max(size(&s.b));
        let reach = s.a.iter().flatten().map(|p| p.norm()).fold(0.0, f64::max);
        let speed = (t - s.t_a).norm() + std::f64::consts::FRAC_PI_2 * reach;
        a.band("time", r.time, tolerance / speed);
    }
    Ok(a)
}

fn self_collide_q(s: &Scene, k: i32) -> Outcome {
    let mut tris = s.a.clone();
    tris.extend(s.b.iter().map(|t| t.map(|p| p + Vec3::new(1.0, 0.0, 0.0))));
    let m = model(&tris, k)?;
    let mut out = CollideResult::new();
    self_collide(&m, &CollideRequest::default(), &mut out);
    let mut a = Answer::default();
    a.exact("pairs", sorted_pairs(&out));
    Ok(a)
}

/// A deformable model from model a, moved vertex by vertex to model b's corners (as many as
/// fit) and collided with model b; then as a k-DOP model.
fn deformable_q(s: &Scene, k: i32, kdop: bool) -> Outcome {
    let f = pow2(k);
    let tris = Scene::scaled(&s.a, k);
    let refit = |e: RefitError| if e == RefitError::OutOfRange { Refusal::range(e) } else { Refusal::other(e) };
    let mut m = Model::deformable_soup(&tris, None).map_err(refit)?;
    if kdop {
        m.set_kdop(true).map_err(refit)?;
    }
    let (p1, p2) = s.placements(k);
    let m2 = model(&s.b, k)?;
    let mut a = Answer::default();
    let corners: Vec<Vec3> = s.a.iter().chain(&s.b).flatten().copied().collect();
    let moved: Vec<Vec3> = (0..3 * tris.len()).map(|i| corners[(i * 7 + 3) % corners.len()] * f).collect();
    for step in 0..2 {
        if step == 1 {
            m.update_vertices(&moved).map_err(refit)?;
        }
        let mut out = CollideResult::new();
        collide(&m, &p1, &m2, &p2, &CollideRequest::default(), &mut out).map_err(q)?;
        a.exact("pairs", sorted_pairs(&out));
        let mut own = CollideResult::new();
        self_collide(&m, &CollideRequest::default(), &mut own);
        a.exact("self", sorted_pairs(&own));
        let d = distance(&m, &p1, &m2, &p2, &DistanceRequest::default(), None).map_err(q)?;
        a.len("distance", d.distance);
    }
    Ok(a)
}

fn world_q(s: &Scene, k: i32) -> Outcome {
    let f = pow2(k);
    let mut w = World::new();
    let pose = |p: &Placement| {
        let r = &p.rotation;
        let t = &p.translation;
        [
            [r[(0, 0)], r[(0, 1)], r[(0, 2)], t.x],
            [r[(1, 0)], r[(1, 1)], r[(1, 2)], t.y],
            [r[(2, 0)], r[(2, 1)], r[(2, 2)], t.z],
            [0.0, 0.0, 0.0, 1.0],
        ]
    };
    let (p1, p2) = s.placements(k);
    let world = |e| {
        if e == rapidpqp::nbody::NBodyError::OutOfRange { Refusal::range(e) } else { Refusal::other(e) }
    };
    let ids = (0..s.a.len() as i32).collect::<Vec<_>>();
    let a = w.add_object(Scene::scaled(&s.a, k), ids.clone()).map_err(world)?;
    let b = w.add_object(Scene::scaled(&s.b, k), (0..s.b.len() as i32).collect()).map_err(world)?;
    let c = w.add_object(Scene::scaled(&s.a, k), ids).map_err(world)?;
    w.set_pose(a, &pose(&p1)).map_err(world)?;
    w.set_pose(b, &pose(&p2)).map_err(world)?;
    let p3 = Placement { translation: p2.translation + Vec3::new(1.0, 2.0, 0.0) * f, ..p2 };
    w.set_pose(c, &pose(&p3)).map_err(world)?;
    let mut out = Answer::default();
    let mut contacts: Vec<_> = w
        .collide(false)
        .iter()
        .map(|c| {
            let mut t: Vec<(i32, i32)> = c.tri_pairs.iter().map(|p| (p.id1, p.id2)).collect();
            t.sort_unstable();
            (c.id1, c.id2, t)
        })
        .collect();
    contacts.sort();
    out.exact("contacts", contacts);
    Ok(out)
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
fn closed_points(s: &Scene) -> bool {
    s.closed && !s.points.is_empty()
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
/// Separation sweeps model 2 back from beyond both models: up to 4 times their extent away.
fn separating(s: &Scene) -> f64 {
    s.magnitude() + 3.0
}
fn own(s: &Scene) -> f64 {
    s.own_magnitude()
}
fn pointing(s: &Scene) -> f64 {
    s.point_magnitude()
}

/// The queries and their documented range: refused only when the coordinates they compute
/// with (models, placements and motion) exceed `2^limit`.
fn queries() -> Vec<Query> {
    vec![
        Query { name: "collide all with geometry", applies: always, run: collide_all, reach: still, limit: 1000.0 },
        Query { name: "collide first", applies: always, run: collide_first, reach: still, limit: 1000.0 },
        Query { name: "distance", applies: always, run: distance_q, reach: still, limit: 1000.0 },
        Query { name: "tolerance", applies: always, run: tolerance_q, reach: still, limit: 1000.0 },
        Query { name: "contact set", applies: always, run: contacts_q, reach: still, limit: 1000.0 },
        Query { name: "intersection curves", applies: always, run: curves_q, reach: still, limit: 1000.0 },
        Query { name: "closest points", applies: has_points, run: closest_q, reach: pointing, limit: 1000.0 },
        Query { name: "winding numbers", applies: has_points, run: winding_q, reach: pointing, limit: 1000.0 },
        Query { name: "contains", applies: closed_points, run: contains_q, reach: pointing, limit: 1000.0 },
        Query { name: "signed distance", applies: closed_points, run: signed_q, reach: pointing, limit: 1000.0 },
        Query { name: "ray cast", applies: has_rays, run: ray_q, reach: pointing, limit: 1000.0 },
        Query { name: "segment hits", applies: has_rays, run: segment_q, reach: pointing, limit: 1000.0 },
        Query { name: "solid collide", applies: closed, run: solid_collide_q, reach: still, limit: 1000.0 },
        Query { name: "separation", applies: closed, run: separation_q, reach: separating, limit: 1000.0 },
        Query { name: "sweep", applies: moves, run: sweep_q, reach: moving, limit: 1000.0 },
        Query { name: "sweep last contact", applies: moves, run: sweep_last_q, reach: moving, limit: 1000.0 },
        Query { name: "removal directions", applies: moves, run: removal_q, reach: moving, limit: 1000.0 },
        Query { name: "time of impact", applies: has_motion, run: toi_q, reach: moving, limit: 1000.0 },
        Query { name: "self collide", applies: always, run: self_collide_q, reach: own, limit: 1000.0 },
        Query {
            name: "deformable",
            applies: always,
            run: |s, k| deformable_q(s, k, false),
            reach: still,
            limit: 1000.0,
        },
        Query { name: "k-DOP", applies: always, run: |s, k| deformable_q(s, k, true), reach: still, limit: 1000.0 },
        Query { name: "world", applies: always, run: world_q, reach: still, limit: 900.0 },
    ]
}

#[test]
fn every_query_scales_exactly() {
    run_harness(&queries());
}

// Regression cases of issue 25's table, each at the scales it named (they failed before).

fn v(x: f64, y: f64, z: f64) -> Vec3 {
    Vec3::new(x, y, z)
}

fn scaled_model(tris: &[Triangle], k: i32) -> Model {
    model(tris, k).expect("within range")
}

fn at(t: Vec3, k: i32) -> Placement {
    Placement { translation: t * pow2(k), ..Placement::IDENTITY }
}

/// A small triangle falling onto a large one: `sweep` and `time_of_impact` answered "free"
/// at 2^600, 2^900, 2^-1030 and 2^-1060. Contact at s = 1 (t = 1/4 for a 4 times longer
/// motion), the same at every scale.
#[test]
fn sweep_and_time_of_impact_of_a_falling_triangle_at_every_scale() {
    let small = [[v(0.0, 0.0, 1.0), v(1.0, 0.0, 1.0), v(0.0, 1.0, 1.0)]];
    let large = [[v(-8.0, -8.0, 0.0), v(8.0, -8.0, 0.0), v(0.0, 8.0, 0.0)]];
    for k in [0, 520, 600, 900, 990, -1022, -1030, -1060] {
        let (a, b) = (scaled_model(&small, k), scaled_model(&large, k));
        let down = SweepRequest { direction: v(0.0, 0.0, -1.0) * pow2(k), s_max: 2.0, cylinder_cull: false };
        let hit = sweep(&a, &Placement::IDENTITY, &b, &Placement::IDENTITY, &down).unwrap().contact;
        let s = hit.unwrap_or_else(|| panic!("2^{k}: free")).s;
        assert!(s <= 1.0 && s > 1.0 - 1e-12, "2^{k}: s = {s}");
        let end = at(v(0.0, 0.0, -4.0), k);
        let toi =
            time_of_impact(&a, &Placement::IDENTITY, &end, &b, &Placement::IDENTITY, &ToiRequest::default()).unwrap();
        assert_eq!(toi.outcome, rapidpqp::query::ToiOutcome::Contact, "2^{k}");
        assert!(toi.time <= 0.25 && toi.time > 0.25 - 1e-12, "2^{k}: t = {}", toi.time);
    }
}

/// A bar turning a quarter turn about z into a cube: "free" at 2^-700 and 2^-1000, "contact
/// at t = 0" at 2^600 and 2^900 (the models apart). The same contact time at every scale, up
/// to the tolerance band conservative advancement stops in.
#[test]
fn time_of_impact_of_a_turning_bar_at_every_scale() {
    let bar = cube_between(v(0.0, -1.0, -1.0), v(8.0, 1.0, 1.0));
    let post = cube_between(v(4.0, 4.0, -1.0), v(6.0, 6.0, 1.0));
    let turned = Placement { rotation: scale::quarter_turn_z(), ..Placement::IDENTITY };
    let run = |k: i32| {
        let (a, b) = (scaled_model(&bar, k), scaled_model(&post, k));
        time_of_impact(&a, &Placement::IDENTITY, &turned, &b, &Placement::IDENTITY, &ToiRequest::default()).unwrap()
    };
    // The bar's leading face y = 1 first meets the post's corner (6, 4), at the angle θ with
    // −6 sin θ + 4 cos θ = 1; the time is θ over a quarter turn. The tolerance (1e-3 of the
    // bar's diagonal √72) is reached about 0.0085 / (π/2 · 7.1) = 7.6e-4 earlier (the corner
    // meets the face 7.1 from the axis).
    let contact = ((1.0 / 52f64.sqrt()).acos() - 6f64.atan2(4.0)) / std::f64::consts::FRAC_PI_2;
    for k in [0, 600, 900, 990, -500, -700, -1000, -1060] {
        let got = run(k);
        assert_eq!(got.outcome, rapidpqp::query::ToiOutcome::Contact, "2^{k}");
        assert!(got.time <= contact && got.time > contact - 1.5e-3, "2^{k}: t = {} vs {contact}", got.time);
    }
}

fn cube_between(lo: Vec3, hi: Vec3) -> Vec<Triangle> {
    scale::cuboid(lo, hi)
}

/// Two overlapping boxes separated along +z: depth 2.2e-308 (the least normal double) at
/// 2^-540 … 2^-1000, refused at 2^600. Depth 3 × 2^k, as `sweep_last_contact` gives it.
#[test]
fn separation_along_a_direction_of_overlapping_boxes_at_every_scale() {
    let big = cube_between(v(0.0, 0.0, 0.0), v(4.0, 4.0, 4.0));
    let small = cube_between(v(0.0, 0.0, 0.0), v(2.0, 2.0, 2.0));
    for k in [0, 300, 600, 900, 990, -540, -700, -1000, -1022, -1060] {
        let (a, b) = (scaled_model(&big, k), scaled_model(&small, k));
        let (p1, p2) = (Placement::IDENTITY, at(v(3.0, 1.0, 1.0), k));
        let r = separation(&a, &p1, &b, &p2, Some(v(0.0, 0.0, 1.0))).unwrap();
        assert_eq!(r.bound, rapidpqp::query::SeparationBound::DepthAlongDirection, "2^{k}");
        let depth = -r.signed_distance / pow2(k);
        assert!((3.0 - 1e-12..3.0 + 1e-9).contains(&depth), "2^{k}: depth {depth}");
        let request = SweepRequest { direction: v(0.0, 0.0, pow2(k)), s_max: 16.0, cylinder_cull: false };
        let last = sweep_last_contact(&b, &p2, &a, &p1, &request).unwrap().contact.unwrap().s;
        assert!((last - 3.0).abs() < 1e-9, "2^{k}: last contact {last}");
    }
}

/// Boxes that only touch (at a face, an edge, a vertex) are 0 apart, with or without a
/// direction: the separation gave a depth of 3 along one direction and -7e-14 along another.
#[test]
fn separation_of_boxes_that_only_touch_is_zero() {
    let big = cube_between(v(0.0, 0.0, 0.0), v(4.0, 4.0, 4.0));
    let small = cube_between(v(0.0, 0.0, 0.0), v(2.0, 3.0, 2.0));
    let (a, b) = (scaled_model(&big, 0), scaled_model(&small, 0));
    for t in [v(4.0, 0.0, 1.0), v(4.0, 4.0, 1.0), v(4.0, 4.0, 4.0), v(1.0, 4.0, 1.0), v(-2.0, 1.0, 4.0)] {
        let p2 = at(t, 0);
        for d in [None, Some(v(0.0, 0.0, 1.0)), Some(v(1.0, 0.0, 0.0)), Some(v(-1.0, 2.0, 3.0))] {
            let r = separation(&a, &Placement::IDENTITY, &b, &p2, d).unwrap();
            assert_eq!(r.signed_distance, 0.0, "{t:?} {d:?}");
            assert_eq!(r.bound, rapidpqp::query::SeparationBound::Distance, "{t:?} {d:?}");
            assert_eq!(r.relation, rapidpqp::query::SolidRelation::SurfacesCross, "{t:?} {d:?}");
            assert_eq!(r.translation, Vec3::zeros());
        }
    }
    // Overlapping by a sliver, sharing a face plane: a small depth, not 0.
    let r = separation(&a, &Placement::IDENTITY, &b, &at(v(3.0, 0.0, 1.0), 0), None).unwrap();
    assert!(r.signed_distance < -0.99 && r.signed_distance > -1.0 - 1e-9, "{}", r.signed_distance);
    // Nested in a corner, faces on faces: the depth of the way out.
    let r = separation(&a, &Placement::IDENTITY, &b, &at(v(0.0, 0.0, 0.0), 0), Some(v(1.0, 0.0, 0.0))).unwrap();
    assert!((r.signed_distance + 4.0).abs() < 1e-9, "{}", r.signed_distance);
}

/// A closed tetrahedron's own vertices and edge points: `contains` said False for some at
/// 2^-1055 … 2^-1060 while `closest_points` said `on_surface`.
#[test]
fn contains_on_the_surface_of_a_tiny_tetrahedron() {
    let tet = scale::tetrahedron(v(0.0, 0.0, 0.0), v(8.0, 0.0, 0.0), v(0.0, 8.0, 0.0), v(0.0, 0.0, 8.0));
    let on = [
        v(0.0, 0.0, 0.0),
        v(8.0, 0.0, 0.0),
        v(0.0, 8.0, 0.0),
        v(0.0, 0.0, 8.0),
        v(4.0, 4.0, 0.0),
        v(0.0, 4.0, 4.0),
        v(2.0, 2.0, 4.0),
    ];
    for k in (-1064..=-1050).chain([-1000, 0]) {
        let m = scaled_model(&tet, k);
        let points: Vec<Vec3> = on.iter().map(|p| p * pow2(k)).collect();
        let mut sides = vec![Winding::Number(7); points.len()];
        contains(&m, &points, &mut sides).unwrap();
        let mut closest = vec![None; points.len()];
        closest_points(&m, &points, f64::INFINITY, &mut closest).unwrap();
        for (i, (w, c)) in sides.iter().zip(&closest).enumerate() {
            assert_eq!(*w, Winding::OnSurface, "2^{k}: point {i}");
            assert!(c.unwrap().on_surface, "2^{k}: point {i}");
        }
        let mut inside = [Winding::OnSurface];
        contains(&m, &[v(1.0, 1.0, 1.0) * pow2(k)], &mut inside).unwrap();
        assert_eq!(inside[0], Winding::Number(1), "2^{k}");
    }
}

/// A ray and a segment through a triangle's edge: a miss at 2^-1060 (the tree's boxes, fitted
/// in the subnormal range, missed the triangle by a few units of 2^-1074); a hit at t = 22.
/// The fixture and random triangles on the integer grid, rays through an edge's midpoint.
#[test]
fn rays_through_an_edge_of_a_tiny_model() {
    let mut rng = scale::Rng(7);
    let mut cases = vec![([v(4.0, 0.0, 2.0), v(-10.0, -14.0, 4.0), v(16.0, -8.0, 8.0)], v(1.0, 1.0, 0.0))];
    while cases.len() < 300 {
        let t = [rng.ivec(-8, 8), rng.ivec(-8, 8), rng.ivec(-8, 8)].map(|p| p * 2.0);
        let d = rng.ivec(-1, 1);
        if d != Vec3::zeros() && (t[1] - t[0]).cross(&(t[2] - t[0])) != Vec3::zeros() {
            cases.push((t, d));
        }
    }
    for (t, d) in cases {
        let origin = (t[0] + t[1]) * 0.5 - d * 22.0;
        for k in [-1064, -1060, -1055, -1030, 0, 990] {
            let m = scaled_model(&[t], k);
            let ray = Ray { origin: origin * pow2(k), direction: d * pow2(k) };
            let hit = rapidpqp::query::ray_first_hit(&m, &ray, f64::INFINITY).unwrap();
            let got = hit.unwrap_or_else(|| panic!("2^{k}: {t:?} missed by {ray:?}")).t;
            assert!(got <= 22.0 + 1e-12, "2^{k}: {t:?}: t = {got}");
            let mut hits = Vec::new();
            segment_hits(&m, &ray.origin, &(ray.origin + ray.direction * 32.0), &mut hits).unwrap();
            assert!(!hits.is_empty() && hits[0].t <= 22.0 / 32.0 + 1e-12, "2^{k}: {t:?}: {hits:?}");
        }
    }
}

/// The command-line program on OBJ files of scaled boxes (a sample): `collide`, `distance`,
/// `tolerance` and `info` answer as unscaled, lengths times 2^k.
#[test]
fn command_line_sample_scales() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scale_cli");
    std::fs::create_dir_all(&dir).unwrap();
    let obj = |name: &str, tris: &[Triangle], k: i32| {
        let mut text = String::new();
        for t in Scene::scaled(tris, k) {
            for p in t {
                // (Rust prints the shortest decimal that reads back as the same double.)
                text += &format!("v {:e} {:e} {:e}\n", p.x, p.y, p.z);
            }
        }
        for i in 0..tris.len() {
            text += &format!("f {} {} {}\n", 3 * i + 1, 3 * i + 2, 3 * i + 3);
        }
        let path = dir.join(format!("{name}_{k}.obj"));
        std::fs::write(&path, text).unwrap();
        path
    };
    let number = |json: &str, key: &str| -> f64 {
        let at = json.rfind(&format!("\"{key}\": ")).unwrap_or_else(|| panic!("{key} in {json}")) + key.len() + 4;
        let end = json[at..].find([',', '}']).unwrap() + at;
        json[at..end].trim().parse().unwrap_or_else(|e| panic!("{key}: {e} in {json}"))
    };
    let big = cube_between(v(0.0, 0.0, 0.0), v(4.0, 4.0, 4.0));
    let small = cube_between(v(0.0, 0.0, 0.0), v(2.0, 2.0, 2.0));
    for k in [-1060, -1030, -700, -300, 0, 300, 600, 900, 990] {
        let (a, b) = (obj("big", &big, k), obj("small", &small, k));
        let f = pow2(k);
        let cli = |args: &[&str], pose: Vec3| {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_rapidpqp"))
                .args(args)
                .arg(&a)
                .arg(&b)
                .arg(format!("--pose-b={:e},{:e},{:e}", pose.x * f, pose.y * f, pose.z * f))
                .arg("--json")
                .output()
                .unwrap();
            assert!(out.status.success(), "2^{k} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
            String::from_utf8(out.stdout).unwrap()
        };
        let touching = cli(&["collide"], v(4.0, 1.0, 1.0));
        assert!(touching.contains("\"colliding\": true"), "2^{k}: {touching}");
        let apart = cli(&["collide"], v(6.0, 1.0, 1.0));
        assert!(apart.contains("\"colliding\": false"), "2^{k}: {apart}");
        let d = cli(&["distance"], v(6.0, 1.0, 1.0));
        assert!((number(&d, "distance") / f - 2.0).abs() < 1e-12, "2^{k}: {d}");
        let within = format!("--tolerance={:e}", 2.5 * f);
        assert!(cli(&["tolerance", &within], v(6.0, 1.0, 1.0)).contains("\"within\": true"), "2^{k}");
        let short = format!("--tolerance={:e}", 1.5 * f);
        assert!(cli(&["tolerance", &short], v(6.0, 1.0, 1.0)).contains("\"within\": false"), "2^{k}");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_rapidpqp"))
            .arg("info")
            .arg(&a)
            .arg("--json")
            .output()
            .unwrap();
        let info = String::from_utf8(out.stdout).unwrap();
        assert!(info.contains("\"closed\": true") && info.contains("\"triangles\": 12"), "2^{k}: {info}");
    }
}
