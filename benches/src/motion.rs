//! The `motion` scene (issue 15 item 6): translational sweeps, disassembly directions and time
//! of impact.
//!
//! - Sweeps (`sweep`, `sweep_last_contact`) on the scenes of `examples/sweep_queries.rs`: µs
//!   per sweep and work counts with the swept-box hierarchy alone and with the directional
//!   cylinder in front of it, and the paper's cylinder culling rate (model 2's triangles whose
//!   three vertices all lie outside the directional cylinder around model 1's sweep).
//! - Disassembly: `removal_directions` for one planet of `meshes/gears.obj` (split into its
//!   connected components) along 14 directions, checked against sweeping every part.
//! - Time of impact of rigid motions: ours (`time_of_impact`), FCL's continuous collision by
//!   conservative advancement, parry's shape casts between triangle meshes.
//!
//! Every answer is checked against dense sampling of the motion (201 poses) with our exact
//! `collide`: ours is never later than the first sampled contact (a failure otherwise); a
//! peer's disagreement is reported, settled by our exact distance at the peer's time.

use std::fmt::Write as _;
use std::time::Instant;

use parry3d_f64::math::{Matrix, Pose as ParryPose, Rotation, Vector};
use parry3d_f64::query::{self as parry_query, NonlinearRigidMotion, ShapeCastOptions};
use parry3d_f64::shape::TriMesh;
use rapidpqp::io::load_obj;
use rapidpqp::query::sweep::{DirectionalCylinder, SweepRequest, SweepResult, sweep, sweep_last_contact};
use rapidpqp::query::{
    CollideRequest, CollideResult, DistanceRequest, Part, QueryError, ToiOutcome, ToiRequest, collide, distance,
    removal_directions, time_of_impact,
};
use rapidpqp::{Mat3, Model, Placement, Triangle, Vec3};

use crate::peers::{fcl, parry};
use crate::report::root;
use crate::shapes::{bounds, centred, cuboid, rot_x, torus};
use crate::timing::time_passes;

/// Samples of a motion for the checks: times k/SAMPLES, k = 0..=SAMPLES.
const SAMPLES: usize = 200;

/// Runs the scene; returns its CSVs. Disagreements of ours go into `failures`.
pub fn run(repeats: usize, failures: &mut Vec<String>) -> Vec<(String, String)> {
    let bunny = load("bunny_15k");
    let teapot = load("teapot");
    vec![
        ("motion_sweeps.csv".into(), sweep_table(&bunny, &teapot, repeats, failures)),
        ("motion_disassembly.csv".into(), disassembly_table(repeats, failures)),
        ("motion_toi.csv".into(), toi_table(&bunny, repeats, failures)),
    ]
}

fn load(name: &str) -> Vec<Triangle> {
    let path = root().join("meshes").join(format!("{name}.obj"));
    load_obj(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).triangles()
}

/// A model of `tris` with ids 0..n.
fn model(tris: &[Triangle]) -> Model {
    Model::new(tris.to_vec(), (0..tris.len() as i32).collect()).expect("model builds")
}

fn rotation(axis: Vec3, angle: f64) -> Mat3 {
    *nalgebra::Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle).matrix()
}

fn placed(rotation: Mat3, translation: Vec3) -> Placement {
    Placement { rotation, translation, scale: 1.0 }
}

/// Whether the models touch or intersect (our exact collide, first contact).
fn touching(m1: &Model, p1: &Placement, m2: &Model, p2: &Placement, result: &mut CollideResult) -> bool {
    let request = CollideRequest { first_contact: true, ..Default::default() };
    collide(m1, p1, m2, p2, &request, result).expect("valid placements");
    !result.pairs.is_empty()
}

/// The sample indices k (time k/SAMPLES of `path`) at which the models touch, first and last.
fn sampled_contacts(m1: &Model, path: impl Fn(f64) -> Placement, m2: &Model, p2: &Placement) -> Option<(usize, usize)> {
    let mut result = CollideResult::default();
    let hits: Vec<usize> =
        (0..=SAMPLES).filter(|&k| touching(m1, &path(k as f64 / SAMPLES as f64), m2, p2, &mut result)).collect();
    Some((*hits.first()?, *hits.last()?))
}

/// The world vertices of a placed model.
fn world(m: &Model, p: &Placement) -> Vec<Vec3> {
    m.triangles().iter().flatten().map(|v| p.apply(v)).collect()
}

/// The paper's culling rate: the fraction of model 2's triangles whose vertices all lie
/// outside the directional cylinder around model 1's vertices moving by `s_max·direction`.
fn cull_rate(m1: &Model, p1: &Placement, m2: &Model, p2: &Placement, direction: Vec3, s_max: f64) -> f64 {
    let points = world(m1, p1);
    let cylinder =
        DirectionalCylinder::around(points.iter().copied(), direction.normalize(), s_max * direction.norm(), 0.0);
    let outside = m2.triangles().iter().filter(|t| t.iter().all(|v| !cylinder.meets_ball(&p2.apply(v), 0.0))).count();
    outside as f64 / m2.num_triangles() as f64
}

type SweepQuery = fn(&Model, &Placement, &Model, &Placement, &SweepRequest) -> Result<SweepResult, QueryError>;

struct SweepScene<'a> {
    label: String,
    m1: &'a Model,
    p1: Placement,
    m2: &'a Model,
    p2: Placement,
    direction: Vec3,
    s_max: f64,
    /// `sweep_last_contact` instead of `sweep`.
    last: bool,
}

/// The gears split into parts: the planet nearest `(4.6, 14.1, 7.5)` and the others.
fn gear_parts() -> (Vec<Triangle>, Vec<Vec<Triangle>>) {
    let path = root().join("meshes/gears.obj");
    let mut parts = load_obj(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).components();
    let target = Vec3::new(4.6, 14.1, 7.5);
    let nearest =
        |tris: &Vec<Triangle>| tris.iter().flatten().map(|p| (p - target).norm()).fold(f64::INFINITY, f64::min);
    let planet = (0..parts.len()).min_by(|&a, &b| nearest(&parts[a]).total_cmp(&nearest(&parts[b]))).expect("parts");
    let one = parts.swap_remove(planet);
    (one, parts)
}

fn sweep_table(bunny: &[Triangle], teapot: &[Triangle], repeats: usize, failures: &mut Vec<String>) -> String {
    let (bunny_m, teapot_m) = (model(bunny), model(teapot));
    let (lo, hi) = bounds(bunny);
    let (cb, rb) = ((lo + hi) * 0.5, (hi - lo).amax() * 0.5);
    let (tlo, thi) = bounds(teapot);
    let (ct, rt) = ((tlo + thi) * 0.5, (thi - tlo).amax() * 0.5);
    let (planet, others) = gear_parts();
    let planet_m = model(&planet);
    let others_m = model(&others.concat());
    let id = Placement::IDENTITY;

    let directions = [
        Vec3::x(),
        -Vec3::x(),
        Vec3::y(),
        -Vec3::z(),
        Vec3::new(1.0, 1.0, 1.0).normalize(),
        Vec3::new(-0.3, 0.8, 0.5).normalize(),
    ];
    let mut scenes = Vec::new();
    for (k, dir) in directions.iter().enumerate() {
        // Starts 3 half-sizes away along `dir`, turned about its centre, swept back 6.
        let r = rotation(Vec3::new(0.2, 1.0, 0.3), 0.7 * k as f64);
        let p1 = placed(r, cb + dir * (3.0 * rb) - r * cb);
        let (m1, m2, p2, direction, s_max, last) = (&bunny_m, &bunny_m, id, -dir, 6.0 * rb, false);
        scenes.push(SweepScene {
            label: format!("bunny_15k into bunny_15k, dir {k}"),
            m1,
            p1,
            m2,
            p2,
            direction,
            s_max,
            last,
        });
    }
    let scale = rb / rt;
    let pt = Placement { rotation: Mat3::identity(), translation: cb - ct * scale, scale };
    for (k, dir) in directions.iter().take(3).enumerate() {
        let p1 = placed(Mat3::identity(), dir * (3.0 * rb));
        let (m1, m2, p2, direction, s_max, last) = (&bunny_m, &teapot_m, pt, -dir, 6.0 * rb, false);
        scenes.push(SweepScene {
            label: format!("bunny_15k into teapot, dir {k}"),
            m1,
            p1,
            m2,
            p2,
            direction,
            s_max,
            last,
        });
    }
    let side = placed(Mat3::identity(), Vec3::new(-3.0 * rb, 2.2 * rb, 0.0));
    for (label, s_max) in [("bunny_15k passing beside (free)", 6.0 * rb), ("the same, s_max a million sizes", 1e6 * rb)]
    {
        let (m1, m2, p2, direction, last) = (&bunny_m, &bunny_m, id, Vec3::x(), false);
        scenes.push(SweepScene { label: label.into(), m1, p1: side, m2, p2, direction, s_max, last });
    }
    let overlap = placed(Mat3::identity(), Vec3::new(0.3 * rb, 0.0, 0.0));
    for (label, last) in
        [("overlapping bunnies: last contact +x", true), ("overlapping bunnies: first contact +x", false)]
    {
        let (m1, m2, p2, direction, s_max) = (&bunny_m, &bunny_m, id, Vec3::x(), 4.0 * rb);
        scenes.push(SweepScene { label: label.into(), m1, p1: overlap, m2, p2, direction, s_max, last });
    }
    let lifted = placed(Mat3::identity(), Vec3::new(0.0, 0.0, 16.0));
    for (label, p1, direction) in [
        ("gear planet out along +z", id, Vec3::z()),
        ("gear planet sideways +x", id, Vec3::x()),
        ("gear planet radial", id, Vec3::new(0.31, 0.95, 0.0)),
        ("gear planet back in along −z", lifted, -Vec3::z()),
    ] {
        let (m1, m2, p2, s_max, last) = (&planet_m, &others_m, id, 30.0, false);
        scenes.push(SweepScene { label: label.into(), m1, p1, m2, p2, direction, s_max, last });
    }

    say!("\n## Motion: sweeps, disassembly, time of impact\n");
    say!("### Translational sweeps\n");
    say!(
        "Model 1 translates by s·direction, s in [0, s_max], against a static model 2 (`sweep`; the last-contact row \
         `sweep_last_contact`). µs per sweep (median of {repeats} runs), bounding-volume / triangle tests of one sweep, \
         with the swept-box hierarchy alone and with `cylinder_cull` (the directional cylinder culls model 2's nodes \
         first; its tests are counted with the box tests). Cull rate: the paper's measure, the fraction of model 2's \
         triangles whose three vertices all lie outside the directional cylinder around model 1's vertices and their \
         motion (`DirectionalCylinder::around`, no padding) — what the cylinder alone would leave out. Check: both \
         requests give the same s, and s is never after the first (last: never before the last) of {} sampled poses \
         at which our exact `collide` finds contact.",
        SAMPLES + 1
    );
    say!(
        "bunny_15k: {} triangles; teapot {} (scaled to the bunny's size); gears: a planet of {} triangles against the \
         other {} parts ({} triangles) as one model.\n",
        bunny.len(),
        teapot.len(),
        planet.len(),
        others.len(),
        others_m.num_triangles()
    );
    say!(
        "| scene | answer | boxes µs | box / tri tests | cylinder µs | bv / tri tests | cylinder / boxes | cull rate | check |"
    );
    say!("|---|---|---|---|---|---|---|---|---|");
    let mut csv = String::from(
        "scene,s,boxes_us,boxes_bv,boxes_tri,cylinder_us,cylinder_bv,cylinder_tri,cull_rate,sampled_first,sampled_last\n",
    );
    for s in &scenes {
        let query: SweepQuery = if s.last { sweep_last_contact } else { sweep };
        let mut runs = [SweepResult::default(); 2];
        let mut times = [0.0; 2];
        for (k, cull) in [false, true].into_iter().enumerate() {
            let request = SweepRequest { direction: s.direction, s_max: s.s_max, cylinder_cull: cull };
            times[k] = time_passes(repeats, 1, || {
                runs[k] = query(s.m1, &s.p1, s.m2, &s.p2, &request).expect("valid sweep");
            })
            .median;
        }
        let rate = cull_rate(s.m1, &s.p1, s.m2, &s.p2, s.direction, s.s_max);
        let path = |t: f64| Placement { translation: s.p1.translation + s.direction * (t * s.s_max), ..s.p1 };
        let sampled = sampled_contacts(s.m1, path, s.m2, &s.p2);
        let at = |k: usize| s.s_max * k as f64 / SAMPLES as f64;
        let (ours, culled) = (runs[0].contact.map(|c| c.s), runs[1].contact.map(|c| c.s));
        let mut problems = Vec::new();
        if ours != culled {
            problems.push(format!("cylinder s {culled:?} ≠ boxes s {ours:?}"));
        }
        match (ours, sampled) {
            (None, Some((first, _))) => problems.push(format!("free, but contact sampled at s = {:.6}", at(first))),
            (Some(x), Some((first, _))) if !s.last && x > at(first) => {
                problems.push(format!("s = {x} after the sampled contact at {}", at(first)))
            }
            (Some(x), Some((_, last))) if s.last && x < at(last) => {
                problems.push(format!("s = {x} before the sampled contact at {}", at(last)))
            }
            _ => {}
        }
        let check = if problems.is_empty() { "ok".to_string() } else { format!("**{}**", problems.join("; ")) };
        for p in &problems {
            failures.push(format!("motion sweep {}: {p}", s.label));
        }
        let answer = ours.map_or("free".to_string(), |x| format!("s = {x:.6}"));
        say!(
            "| {} | {answer} | {:.1} | {} / {} | {:.1} | {} / {} | {:.2} | {:.1} % | {check} |",
            s.label,
            times[0],
            runs[0].bv_tests,
            runs[0].tri_tests,
            times[1],
            runs[1].bv_tests,
            runs[1].tri_tests,
            times[1] / times[0],
            100.0 * rate,
        );
        let (first, last) =
            sampled.map_or((String::new(), String::new()), |(f, l)| (at(f).to_string(), at(l).to_string()));
        let _ = writeln!(
            csv,
            "{},{},{:.2},{},{},{:.2},{},{},{rate:.4},{first},{last}",
            s.label,
            ours.map_or(String::new(), |x| x.to_string()),
            times[0],
            runs[0].bv_tests,
            runs[0].tri_tests,
            times[1],
            runs[1].bv_tests,
            runs[1].tri_tests,
        );
    }
    csv
}

fn disassembly_table(repeats: usize, failures: &mut Vec<String>) -> String {
    let (planet, others) = gear_parts();
    let mut models = vec![model(&planet)];
    models.extend(others.iter().map(|t| model(t)));
    let parts: Vec<Part> = models.iter().map(|m| Part { model: m, placement: Placement::IDENTITY }).collect();
    let mut directions: Vec<Vec3> = (0..3)
        .flat_map(|k| {
            let e = Vec3::ith(k, 1.0);
            [e, -e]
        })
        .collect();
    for k in 0..8 {
        let sign = |bit: usize| if k >> bit & 1 == 0 { 1.0 } else { -1.0 };
        directions.push(Vec3::new(sign(0), sign(1), sign(2)));
    }
    let n = directions.len();
    let mut results = Vec::new();
    let t = time_passes(repeats, n, || {
        results = removal_directions(&parts, 0, &directions, None).expect("valid removal");
    });

    // The check: sweep the planet against every other part, no cull, far enough to leave the
    // whole assembly behind.
    let all: Vec<Triangle> = models.iter().flat_map(|m| m.triangles().iter().copied()).collect();
    let (lo, hi) = bounds(&all);
    let far = 2.0 * (hi - lo).norm();
    let id = Placement::IDENTITY;
    let mut brute = Vec::new();
    let t_brute = time_passes(1, n, || {
        brute = directions
            .iter()
            .map(|d| {
                let request = SweepRequest { direction: d.normalize(), s_max: far, cylinder_cull: false };
                (1..models.len())
                    .filter_map(|k| sweep(&models[0], &id, &models[k], &id, &request).expect("valid sweep").contact)
                    .map(|c| c.s)
                    .min_by(f64::total_cmp)
            })
            .collect();
    });

    say!("\n### Disassembly directions\n");
    say!(
        "`removal_directions` for the gears' planet ({} triangles) among the other {} parts ({} triangles), each part \
         its own model, along the 6 axes and 8 diagonals, to infinity. µs per direction (median of {repeats} runs of \
         all {n}); per direction: parts culled by the directional cylinder and parts swept. Check: the same answer \
         (free, or the travel to the first contact to 1e-9) as sweeping the planet against every part without the \
         cull (its µs per direction beside).\n",
        planet.len(),
        others.len(),
        others.iter().map(Vec::len).sum::<usize>()
    );
    say!("| direction | answer | blocker | culled / swept | box / tri tests | check |");
    say!("|---|---|---|---|---|---|");
    let mut csv = String::from("direction,free,travel,blocker,culled,swept,bv_tests,tri_tests,us_per_direction\n");
    let (mut free, mut culled, mut swept) = (0, 0, 0);
    for ((d, r), b) in directions.iter().zip(&results).zip(&brute) {
        let travel = (!r.free).then_some(r.free_distance);
        let agree = match (travel, b) {
            (None, None) => true,
            (Some(x), Some(y)) => (x - y).abs() <= 1e-9 * x.abs().max(*y).max(1.0),
            _ => false,
        };
        let check = if agree { "ok".to_string() } else { format!("**brute force: {b:?}**") };
        if !agree {
            failures.push(format!("motion disassembly along {d:?}: ours {travel:?}, sweeping every part {b:?}"));
        }
        free += usize::from(r.free);
        culled += r.culled;
        swept += r.swept;
        // (Components as integers: no "-0".)
        let direction = format!("({}, {}, {})", d.x as i32, d.y as i32, d.z as i32);
        let answer = travel.map_or("free".to_string(), |x| format!("blocked after {x:.4}"));
        let blocker = r.blocker.map_or("—".to_string(), |(k, _)| format!("part {k}"));
        say!(
            "| {direction} | {answer} | {blocker} | {} / {} | {} / {} | {check} |",
            r.culled,
            r.swept,
            r.bv_tests,
            r.tri_tests
        );
        let _ = writeln!(
            csv,
            "\"{direction}\",{},{},{},{},{},{},{},{:.2}",
            r.free,
            travel.map_or(String::new(), |x| x.to_string()),
            r.blocker.map_or(String::new(), |(k, _)| k.to_string()),
            r.culled,
            r.swept,
            r.bv_tests,
            r.tri_tests,
            t.median
        );
    }
    say!(
        "\n{free} of {n} directions free; {culled} part tests culled, {swept} parts swept in all; **{:.0} µs per \
         direction** (sweeping every part without the cull: {:.0} µs).",
        t.median,
        t_brute.median
    );
    csv
}

/// Model 1's rigid motion as `time_of_impact` defines it: translation linear in time, the
/// rotation turning at a constant rate about a fixed world axis through model 1's origin.
#[derive(Clone, Copy)]
struct Motion {
    start: Placement,
    end: Placement,
    axis: Vec3,
    angle: f64,
}

impl Motion {
    fn new(start: Placement, end: Placement) -> Motion {
        let turn = nalgebra::Rotation3::from_matrix(&(end.rotation * start.rotation.transpose()));
        let (axis, angle) = turn.axis_angle().map_or((Vec3::z(), 0.0), |(a, angle)| (a.into_inner(), angle));
        Motion { start, end, axis, angle }
    }

    fn at(&self, t: f64) -> Placement {
        let turn = rotation(self.axis, self.angle * t);
        let translation = self.start.translation + (self.end.translation - self.start.translation) * t;
        placed(turn * self.start.rotation, translation)
    }
}

fn parry_pose(p: &Placement) -> ParryPose {
    let r = &p.rotation;
    let m = Matrix::from_cols(
        Vector::new(r[(0, 0)], r[(1, 0)], r[(2, 0)]),
        Vector::new(r[(0, 1)], r[(1, 1)], r[(2, 1)]),
        Vector::new(r[(0, 2)], r[(1, 2)], r[(2, 2)]),
    );
    ParryPose::from_parts(Vector::new(p.translation.x, p.translation.y, p.translation.z), Rotation::from_mat3(&m))
}

/// parry's time of impact between the meshes: `cast_shapes` for a translation,
/// `cast_shapes_nonlinear` (rotation about model 1's origin) otherwise.
fn parry_toi(a: &TriMesh, motion: &Motion, b: &TriMesh, pb: &Placement) -> Result<Option<f64>, String> {
    let shift = motion.end.translation - motion.start.translation;
    let v = Vector::new(shift.x, shift.y, shift.z);
    let hit = if motion.angle == 0.0 {
        let options = ShapeCastOptions { stop_at_penetration: true, ..ShapeCastOptions::with_max_time_of_impact(1.0) };
        parry_query::cast_shapes(&parry_pose(&motion.start), v, a, &parry_pose(pb), Vector::ZERO, b, options)
    } else {
        let w = motion.axis * motion.angle;
        let m1 = NonlinearRigidMotion::new(parry_pose(&motion.start), Vector::ZERO, v, Vector::new(w.x, w.y, w.z));
        let m2 = NonlinearRigidMotion::constant_position(parry_pose(pb));
        parry_query::cast_shapes_nonlinear(&m1, a, &m2, b, 0.0, 1.0, true)
    };
    hit.map(|h| h.map(|h| h.time_of_impact)).map_err(|_| "unsupported".to_string())
}

struct ToiScene {
    label: &'static str,
    tris1: Vec<Triangle>,
    tris2: Vec<Triangle>,
    motion: Motion,
    p2: Placement,
    fcl_motion: fcl::Motion,
}

/// A peer's answer beside the sampled contacts: "consistent", or how it differs, settled by
/// our exact distance at the peer's time (`tol`: ours's contact tolerance).
fn judge(answer: Option<f64>, sampled: Option<(usize, usize)>, distance_at: impl Fn(f64) -> f64, tol: f64) -> String {
    let at = |k: usize| k as f64 / SAMPLES as f64;
    match (answer, sampled) {
        (None, None) => "consistent (free)".into(),
        (None, Some((first, _))) => format!("WARNING: free, but contact sampled at t = {:.3}", at(first)),
        (Some(t), None) => {
            format!("WARNING: contact at t = {t:.4}, none sampled (distance there {:.2e})", distance_at(t))
        }
        (Some(t), Some((first, _))) if t > at(first) => {
            format!(
                "WARNING: late: contact sampled at t = {:.3} (distance at its t: {:.2e})",
                at(first),
                distance_at(t)
            )
        }
        (Some(t), Some(_)) => {
            let d = distance_at(t);
            if d <= tol {
                format!("consistent (distance at its t {d:.1e})")
            } else {
                format!("WARNING: early: distance {d:.2e} at its t")
            }
        }
    }
}

fn toi_table(bunny: &[Triangle], repeats: usize, failures: &mut Vec<String>) -> String {
    let bunny = centred(bunny);
    let (lo, hi) = bounds(&bunny);
    let rb = (hi - lo).amax() * 0.5;
    let id = Placement::IDENTITY;
    let tilt = rot_x(0.5);
    let scenes = [
        ToiScene {
            label: "bunny_15k turning 90° about (0.2, 1, 0.3) while moving 6 half-sizes into another",
            tris1: bunny.clone(),
            tris2: bunny.clone(),
            motion: Motion::new(
                placed(Mat3::identity(), Vec3::new(3.0 * rb, 0.2 * rb, 0.0)),
                placed(
                    rotation(Vec3::new(0.2, 1.0, 0.3), std::f64::consts::FRAC_PI_2),
                    Vec3::new(-3.0 * rb, 0.2 * rb, 0.0),
                ),
            ),
            p2: id,
            fcl_motion: fcl::Motion::Linear,
        },
        ToiScene {
            label: "torus (4,096 tris, tilted) screwing down onto a box: half a turn about z, 4 down",
            tris1: torus(1.0, 0.3, 64, 32),
            tris2: cuboid(Vec3::new(-2.0, -2.0, -1.0), Vec3::new(2.0, 2.0, 0.0)),
            motion: Motion::new(
                placed(tilt, Vec3::new(0.0, 0.0, 3.0)),
                placed(rotation(Vec3::z(), std::f64::consts::PI * 0.999) * tilt, Vec3::new(0.0, 0.0, -1.0)),
            ),
            p2: id,
            fcl_motion: fcl::Motion::Screw,
        },
        ToiScene {
            label: "bunny_15k translating 6 half-sizes into another (no rotation)",
            tris1: bunny.clone(),
            tris2: bunny.clone(),
            motion: Motion::new(
                placed(rotation(Vec3::new(0.2, 1.0, 0.3), 0.7), Vec3::new(0.0, 3.0 * rb, 0.1 * rb)),
                placed(rotation(Vec3::new(0.2, 1.0, 0.3), 0.7), Vec3::new(0.0, -3.0 * rb, 0.1 * rb)),
            ),
            p2: id,
            fcl_motion: fcl::Motion::Translation,
        },
    ];

    say!("\n### Time of impact\n");
    say!(
        "Model 1 moves from its start to its end pose (t from 0 to 1; translation linear, rotation at a constant rate \
         about a fixed axis through its origin) against a static model 2. Ours: `time_of_impact`, default request \
         (contact within 1e-3 of the larger model's size), exact sweep for a pure translation; steps = tolerance \
         queries or sweeps. FCL: `continuousCollide` with `CCDC_CONSERVATIVE_ADVANCEMENT` on BVHModel<OBBRSS>, motion \
         `CCDM_LINEAR` (the same path as ours), `CCDM_SCREW` for the screw (translation along the turning axis through \
         the origin: the same path) and `CCDM_TRANS`. parry: `cast_shapes` (translation) or `cast_shapes_nonlinear` \
         between `TriMesh` shapes (composite against composite: parry nests its traversals), stopping at penetration. \
         µs: median of {repeats} runs (peers: of up to {repeats}, once when a run takes over a second). Sampled: the \
         first of {} evenly spaced poses at which our exact `collide` finds contact. Ours must not be later (exit \
         status 1 otherwise); a peer's answer is judged by our exact distance at its time.\n",
        SAMPLES + 1
    );
    say!(
        "| motion | sampled first contact | ours t | steps | ours µs | FCL t | FCL µs | FCL check | parry t | parry µs | parry check |"
    );
    say!("|---|---|---|---|---|---|---|---|---|---|---|");
    let mut csv =
        String::from("motion,sampled_first,ours_t,ours_outcome,steps,ours_us,fcl_t,fcl_us,parry_t,parry_us\n");
    for s in &scenes {
        let (m1, m2) = (model(&s.tris1), model(&s.tris2));
        let request = ToiRequest::default();
        let mut ours = None;
        let t_ours = time_passes(repeats, 1, || {
            ours =
                Some(time_of_impact(&m1, &s.motion.start, &s.motion.end, &m2, &s.p2, &request).expect("valid motion"));
        });
        let ours = ours.expect("ran");
        let sampled = sampled_contacts(&m1, |t| s.motion.at(t), &m2, &s.p2);
        let at = |k: usize| k as f64 / SAMPLES as f64;
        // Ours's contact tolerance (the default): 1e-3 of the larger bounding ball's diameter.
        let size = |m: &Model| m.bounding_ball_placed(&id).1 * 2.0;
        let tol = 1e-3 * size(&m1).max(size(&m2));
        let distance_at = |t: f64| {
            distance(&m1, &s.motion.at(t), &m2, &s.p2, &DistanceRequest::default(), None).expect("valid").distance
        };
        let ours_check = match (ours.outcome, sampled) {
            (ToiOutcome::Contact, Some((first, _))) if ours.time > at(first) => {
                Some(format!("ours t = {} after the sampled contact at {}", ours.time, at(first)))
            }
            (ToiOutcome::Free, Some((first, _))) => Some(format!("ours free, contact sampled at {}", at(first))),
            _ => None,
        };
        if let Some(p) = &ours_check {
            failures.push(format!("motion toi {}: {p}", s.label));
        }
        let ours_shown = match ours.outcome {
            ToiOutcome::Contact => format!("{:.4}", ours.time),
            ToiOutcome::Free => "free".into(),
            ToiOutcome::StepLimit => format!("step limit at {:.4}", ours.time),
        } + &ours_check.map_or(String::new(), |p| format!(" **{p}**"));

        let (fcl_t, fcl_us, fcl_check) = match (fcl::Mesh::new(&s.tris1), fcl::Mesh::new(&s.tris2)) {
            (Some(a), Some(b)) => {
                let mut answer = Err(String::new());
                let us = time_peer(repeats, || {
                    answer = fcl::continuous(&a, &s.motion.start, &s.motion.end, &b, &s.p2, s.fcl_motion);
                });
                match answer {
                    Ok(t) => {
                        let mut check = judge(t, sampled, distance_at, tol);
                        // A wrong answer, not a wrong input: FCL's own discrete collide sees the
                        // sampled contact.
                        if let (None, Some((first, _))) = (t, sampled) {
                            let seen = fcl::intersecting(&a, &s.motion.at(at(first)), &b, &s.p2);
                            check += if seen { " (FCL's collide finds it)" } else { " (FCL's collide misses it too)" };
                        }
                        (t, Some(us), check)
                    }
                    Err(e) => (None, None, e),
                }
            }
            _ => (None, None, "— (FCL not installed)".to_string()),
        };
        let (pa, pb) = (parry::mesh(&s.tris1), parry::mesh(&s.tris2));
        let mut answer = Err(String::new());
        let parry_us = time_peer(repeats, || answer = parry_toi(&pa, &s.motion, &pb, &s.p2));
        let (parry_t, parry_us, parry_check) = match answer {
            Ok(t) => (t, Some(parry_us), judge(t, sampled, distance_at, tol)),
            Err(e) => (None, None, e),
        };
        let t_shown = |t: Option<f64>, us: Option<f64>| match (t, us) {
            (_, None) => "—".to_string(),
            (None, Some(_)) => "free".to_string(),
            (Some(t), Some(_)) => format!("{t:.4}"),
        };
        let us_shown = |us: Option<f64>| us.map_or("—".to_string(), |us| format!("{us:.0}"));
        say!(
            "| {} | {} | {ours_shown} | {} | {:.0} | {} | {} | {fcl_check} | {} | {} | {parry_check} |",
            s.label,
            sampled.map_or("none".to_string(), |(f, _)| format!("{:.3}", at(f))),
            ours.steps,
            t_ours.median,
            t_shown(fcl_t, fcl_us),
            us_shown(fcl_us),
            t_shown(parry_t, parry_us),
            us_shown(parry_us),
        );
        let opt = |x: Option<f64>| x.map_or(String::new(), |x| x.to_string());
        let _ = writeln!(
            csv,
            "\"{}\",{},{},{:?},{},{:.1},{},{},{},{}",
            s.label,
            opt(sampled.map(|(f, _)| at(f))),
            ours.time,
            ours.outcome,
            ours.steps,
            t_ours.median,
            opt(fcl_t),
            opt(fcl_us),
            opt(parry_t),
            opt(parry_us)
        );
    }
    csv
}

/// µs of a peer's query: the median of `repeats` runs, or the first run alone when it takes
/// over a second.
fn time_peer(repeats: usize, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    f();
    let first = start.elapsed().as_secs_f64() * 1e6;
    if first > 1e6 || repeats <= 1 { first } else { time_passes(repeats - 1, 1, f).median }
}
