//! The `kdop` scene (issue 16): the library's k-DOP model option (`Model::set_kdop`) on the
//! deforming scenes of `refit` (cloth over the bunny, wobbling bunny).
//!
//! Per frame, three models of the deforming mesh take the same positions: (a) a deformable
//! box model (`update_vertices` refits its oriented boxes), (b) the same with the k-DOP option
//! (`update_vertices` refits the k-DOP-18 tree, the box tree left stale), (c) a fresh
//! `Model::new` build (what a rebuild costs). Both deformable models never rebuild (threshold
//! infinite), so (a) and (b) keep one tree structure. The still partner is a box model for
//! (a) and (c) and a k-DOP model for (b), all at identity, so (b)'s collide takes the k-DOP
//! path (two k-DOP models a pure translation apart).
//!
//! Measured: the update or build; collide (all contacts) with its box-pair and triangle-pair
//! tests; the cloth's self-collision on (a) and (b); and the first exact distance query after
//! the update, which on (b) pays the lazy refit of the box tree (timed on a copy of the
//! freshly updated model each run, so every run pays it). Every frame the sorted collide pair
//! sets of (a), (b), (c) must be equal, the self-collision pair sets of (a) and (b) equal, and
//! the distances of (a) and (b) equal to the fresh build's; a failure otherwise.

use std::fmt::Write as _;
use std::time::Instant;

use rapidpqp::query::self_collide::self_collide;
use rapidpqp::query::{CollideRequest, CollideResult, DistanceRequest, collide, distance};
use rapidpqp::{Mat3, Model, Placement, Vec3};

use crate::refit::scenes::{Cloth, Wobble, bounds};
use crate::refit::{load, sorted_pairs, time_us, triangles};
use crate::report::load_average;
use crate::timing::median;

/// Lanes: (a) box model refitted, (b) k-DOP model, (c) fresh build.
const LANES: [&str; 3] = ["box", "kdop", "fresh"];

/// One frame's figures (lanes as [`LANES`]).
#[derive(Default, Clone, Copy)]
struct Frame {
    /// `update_vertices` of (a) and (b).
    update_ms: [f64; 2],
    /// `Model::new` of (c).
    build_ms: f64,
    collide_us: [f64; 3],
    bv: [u64; 3],
    tri: [u64; 3],
    contacts: usize,
    /// Self-collision of (a) and (b) (the cloth only; NaN otherwise).
    self_ms: [f64; 2],
    self_bv: [u64; 2],
    self_tri: [u64; 2],
    self_pairs: usize,
    /// The first exact distance after the update, (a) and (b).
    first_distance_us: [f64; 2],
}

/// A scene's frames, its models' bytes per triangle (lanes as [`LANES`]) and the load average
/// when it ended.
struct SceneRun {
    rows: Vec<Frame>,
    bytes_per_triangle: [f64; 3],
    load: String,
}

/// The median over `repeats` runs of `run` on what `setup` makes afresh for each (untimed),
/// in ms, and the last run's result. Results are dropped outside the timing: `run` should
/// return what it consumed (a model's drop frees tens of megabytes).
fn time_after_setup_ms<T, R>(repeats: usize, mut setup: impl FnMut() -> T, mut run: impl FnMut(T) -> R) -> (f64, R) {
    let mut last = None;
    let mut times: Vec<f64> = (0..repeats.max(1))
        .map(|_| {
            let input = setup();
            let start = Instant::now();
            let out = run(input);
            let ms = start.elapsed().as_secs_f64() * 1e3;
            last = Some(out);
            ms
        })
        .collect();
    (median(&mut times), last.expect("at least one run"))
}

/// The deforming mesh (`faces` over `frames`) against the still one (`other_vertices`,
/// `other_faces`, world coordinates): collide at identity, distance with the still one at
/// `apart`; self-collision of the deforming mesh when `self_collision`.
#[allow(clippy::too_many_arguments)]
fn run_scene(
    name: &str,
    faces: &[[u32; 3]],
    frames: &[Vec<Vec3>],
    other_vertices: &[Vec3],
    other_faces: &[[u32; 3]],
    apart: &Placement,
    self_collision: bool,
    repeats: usize,
    csv: &mut String,
    failures: &mut Vec<String>,
) -> SceneRun {
    let ids: Vec<i32> = (0..faces.len() as i32).collect();
    let mut boxed = Model::deformable(&frames[0], faces, None).expect("deformable model");
    boxed.set_rebuild_threshold(f64::INFINITY).expect("threshold");
    let mut kdop = boxed.clone();
    kdop.set_kdop(true).expect("k-DOP option");
    let other_ids: Vec<i32> = (0..other_faces.len() as i32).collect();
    let other_box = Model::new(triangles(other_vertices, other_faces), other_ids).expect("other");
    let mut other_kdop = Model::deformable(other_vertices, other_faces, None).expect("other, deformable");
    other_kdop.set_kdop(true).expect("k-DOP option");
    let n = faces.len() as f64;
    let fresh0 = Model::new(triangles(&frames[0], faces), ids.clone()).expect("build");
    let bytes_per_triangle =
        [boxed.memory_bytes() as f64 / n, kdop.memory_bytes() as f64 / n, fresh0.memory_bytes() as f64 / n];
    drop(fresh0);

    let size = boxed.magnitude().max(other_box.magnitude());
    let identity = Placement::IDENTITY;
    let request = CollideRequest::default();
    let exact = DistanceRequest { rel_err: 0.0, abs_err: 0.0, qsize: 2 };
    let mut out = CollideResult::new();
    let mut rows = Vec::new();
    for (k, positions) in frames.iter().enumerate().skip(1) {
        let mut f = Frame::default();
        for (lane, m) in [&mut boxed, &mut kdop].into_iter().enumerate() {
            f.update_ms[lane] = time_after_setup_ms(
                repeats,
                || m.clone(),
                |mut c| {
                    c.update_vertices(positions).expect("update");
                    c
                },
            )
            .0;
            m.update_vertices(positions).expect("update");
        }
        let tris = triangles(positions, faces);
        let (build_ms, fresh) =
            time_after_setup_ms(repeats, || tris.clone(), |t| Model::new(t, ids.clone()).expect("build"));
        f.build_ms = build_ms;

        // The first distance after the update, on a copy updated anew (untimed) each run: a
        // copy takes a current box tree, so only a fresh update leaves (b)'s stale.
        for (lane, (m, o)) in [(&boxed, &other_box), (&kdop, &other_kdop)].into_iter().enumerate() {
            let updated_copy = || {
                let mut c = m.clone();
                c.update_vertices(positions).expect("update");
                c
            };
            let (ms, _) = time_after_setup_ms(repeats, updated_copy, |c| {
                distance(&c, &identity, o, apart, &exact, None).expect("distance");
                c
            });
            f.first_distance_us[lane] = 1e3 * ms;
        }

        let mut answers = Vec::new();
        for (lane, (m, o)) in [(&boxed, &other_box), (&kdop, &other_kdop), (&fresh, &other_box)].into_iter().enumerate()
        {
            f.collide_us[lane] = time_us(repeats, || {
                collide(m, &identity, o, &identity, &request, &mut out).expect("collide");
            });
            collide(m, &identity, o, &identity, &request, &mut out).expect("collide");
            f.bv[lane] = out.bv_tests;
            f.tri[lane] = out.tri_tests;
            answers.push(sorted_pairs(&out));
        }
        f.contacts = answers[2].len();
        for lane in 0..2 {
            if answers[lane] != answers[2] {
                let missing = answers[2].iter().filter(|p| answers[lane].binary_search(p).is_err()).count();
                let extra = answers[lane].iter().filter(|p| answers[2].binary_search(p).is_err()).count();
                failures.push(format!(
                    "kdop {name} frame {k}: collide pairs of the {} model ({}) differ from the fresh build's ({}): {missing} missing, {extra} extra",
                    LANES[lane],
                    answers[lane].len(),
                    answers[2].len()
                ));
            }
        }

        f.self_ms = [f64::NAN; 2];
        if self_collision {
            let mut selves = Vec::new();
            for (lane, m) in [&boxed, &kdop].into_iter().enumerate() {
                f.self_ms[lane] = time_us(repeats, || self_collide(m, &request, &mut out)) / 1e3;
                self_collide(m, &request, &mut out);
                f.self_bv[lane] = out.bv_tests;
                f.self_tri[lane] = out.tri_tests;
                selves.push(sorted_pairs(&out));
            }
            f.self_pairs = selves[0].len();
            if selves[0] != selves[1] {
                let missing = selves[0].iter().filter(|p| selves[1].binary_search(p).is_err()).count();
                let extra = selves[1].iter().filter(|p| selves[0].binary_search(p).is_err()).count();
                failures.push(format!(
                    "kdop {name} frame {k}: self-collision pairs of the k-DOP model ({}) differ from the box model's ({}): {missing} missing, {extra} extra",
                    selves[1].len(),
                    selves[0].len()
                ));
            }
        }

        // Distances (untimed; refits (b)'s boxes now) against the fresh build's.
        let want = distance(&fresh, &identity, &other_box, apart, &exact, None).expect("distance").distance;
        for (lane, (m, o)) in [(&boxed, &other_box), (&kdop, &other_kdop)].into_iter().enumerate() {
            let d = distance(m, &identity, o, apart, &exact, None).expect("distance").distance;
            if (d - want).abs() > 1e-12 * size {
                failures.push(format!(
                    "kdop {name} frame {k}: distance of the {} model {d} vs the fresh build's {want}",
                    LANES[lane]
                ));
            }
        }

        writeln!(
            csv,
            "{name},{k},{},{},{:.3},{:.3},{:.3},{:.1},{:.1},{:.1},{},{},{},{},{},{},{},{:.3},{:.3},{},{},{},{},{},{:.1},{:.1}",
            faces.len(),
            other_faces.len(),
            f.update_ms[0],
            f.update_ms[1],
            f.build_ms,
            f.collide_us[0],
            f.collide_us[1],
            f.collide_us[2],
            f.bv[0],
            f.bv[1],
            f.bv[2],
            f.tri[0],
            f.tri[1],
            f.tri[2],
            f.contacts,
            f.self_ms[0],
            f.self_ms[1],
            f.self_bv[0],
            f.self_bv[1],
            f.self_tri[0],
            f.self_tri[1],
            f.self_pairs,
            f.first_distance_us[0],
            f.first_distance_us[1],
        )
        .expect("a String");
        rows.push(f);
    }
    SceneRun { rows, bytes_per_triangle, load: load_average() }
}

fn med(rows: &[Frame], f: impl Fn(&Frame) -> f64) -> f64 {
    median(&mut rows.iter().map(f).collect::<Vec<_>>())
}

/// The scene's row in the update-and-collide table.
fn collide_row(name: &str, tris: usize, run: &SceneRun) {
    let r = &run.rows;
    say!(
        "| {name} | {tris} | {} | {:.2} / {:.2} / {:.1} | {:.0} / {:.0} / {:.0} | {:.0} / {:.0} / {:.0} | {:.0} / {:.0} / {:.0} | {:.0} | {:.1} / {:.1} / {:.1} | {} |",
        r.len(),
        med(r, |f| f.update_ms[0]),
        med(r, |f| f.update_ms[1]),
        med(r, |f| f.build_ms),
        med(r, |f| f.collide_us[0]),
        med(r, |f| f.collide_us[1]),
        med(r, |f| f.collide_us[2]),
        med(r, |f| f.bv[0] as f64),
        med(r, |f| f.bv[1] as f64),
        med(r, |f| f.bv[2] as f64),
        med(r, |f| f.tri[0] as f64),
        med(r, |f| f.tri[1] as f64),
        med(r, |f| f.tri[2] as f64),
        med(r, |f| f.contacts as f64),
        med(r, |f| f.update_ms[0] + f.collide_us[0] / 1e3),
        med(r, |f| f.update_ms[1] + f.collide_us[1] / 1e3),
        med(r, |f| f.build_ms + f.collide_us[2] / 1e3),
        run.load,
    );
}

/// The scene's row in the other-queries table.
fn other_row(name: &str, run: &SceneRun) {
    let r = &run.rows;
    let selfc = if r.iter().any(|f| f.self_ms[0].is_nan()) {
        "– | – | – | –".to_string()
    } else {
        format!(
            "{:.2} / {:.2} | {:.0} / {:.0} | {:.0} / {:.0} | {:.0}",
            med(r, |f| f.self_ms[0]),
            med(r, |f| f.self_ms[1]),
            med(r, |f| f.self_bv[0] as f64),
            med(r, |f| f.self_bv[1] as f64),
            med(r, |f| f.self_tri[0] as f64),
            med(r, |f| f.self_tri[1] as f64),
            med(r, |f| f.self_pairs as f64),
        )
    };
    let b = run.bytes_per_triangle;
    say!(
        "| {name} | {selfc} | {:.0} / {:.0} | {:.0} / {:.0} / {:.0} | {} |",
        med(r, |f| f.first_distance_us[0]),
        med(r, |f| f.first_distance_us[1]),
        b[0],
        b[1],
        b[2],
        run.load,
    );
}

/// Runs the scene; returns its CSV. Disagreements go into `failures`.
pub fn run(quick: bool, repeats: usize, failures: &mut Vec<String>) -> (String, String) {
    let frames_n = if quick { 8 } else { 24 };
    let mut csv = String::from(
        "scene,frame,triangles,other_triangles,update_ms_box,update_ms_kdop,build_ms_fresh,collide_us_box,\
         collide_us_kdop,collide_us_fresh,bv_box,bv_kdop,bv_fresh,tri_box,tri_kdop,tri_fresh,contacts,\
         self_ms_box,self_ms_kdop,self_bv_box,self_bv_kdop,self_tri_box,self_tri_kdop,self_pairs,\
         first_distance_us_box,first_distance_us_kdop\n",
    );
    let bunny = load("bunny");
    let (lo, hi) = bounds(&bunny.vertices);
    let size = (hi - lo).amax();
    let aside = Placement { rotation: Mat3::identity(), translation: Vec3::new(1.3 * size, 0.0, 0.0), scale: 1.0 };

    let cloth = Cloth::new(&bunny, 160, 1);
    let cloth_faces = cloth.faces();
    let frames: Vec<Vec<Vec3>> = (0..=frames_n).map(|k| cloth.frame(k, frames_n)).collect();
    eprintln!("kdop: cloth ({} triangles) over the bunny", cloth_faces.len());
    let cloth_run = run_scene(
        "cloth",
        &cloth_faces,
        &frames,
        &bunny.vertices,
        &bunny.faces,
        &aside,
        true,
        repeats,
        &mut csv,
        failures,
    );

    let small = load("bunny_15k");
    let wobble = Wobble::new(bunny.vertices.clone(), 0.03, 2);
    let frames: Vec<Vec<Vec3>> = (0..=frames_n).map(|k| wobble.frame(k as f64 * 12.0 / frames_n as f64)).collect();
    // As in the refit scene: the still bunny_15k, moved to overlap, baked into world coordinates.
    let overlap = Placement { rotation: Mat3::identity(), translation: Vec3::new(0.3 * size, 0.0, 0.0), scale: 1.0 };
    let moved: Vec<Vec3> = small.vertices.iter().map(|p| overlap.apply(p)).collect();
    eprintln!("kdop: wobbling bunny ({} triangles)", bunny.faces.len());
    let wobble_run =
        run_scene("wobble", &bunny.faces, &frames, &moved, &small.faces, &aside, false, repeats, &mut csv, failures);

    say!("\n## The k-DOP model option vs the box model and a rebuild (`--case kdop`)\n");
    say!(
        "The `refit` scenes. Three models of the deforming mesh take the same positions every frame: \
         **box**, `Model::deformable` (`update_vertices` refits the oriented boxes); **k-DOP**, the \
         same with `Model::set_kdop(true)` (`update_vertices` refits the k-DOP-18 tree only, the \
         box tree left stale until a query needs it); **fresh**, `Model::new` over the frame's \
         triangles (what a rebuild costs). Neither deformable model rebuilds (threshold infinite). \
         The still partner is a box model for box and fresh, a k-DOP model for k-DOP, all at the \
         identity, so k-DOP's collide runs on the k-DOP trees. Medians over the frames, each timed \
         as the median of {repeats} runs; load: the 1-, 5-, 15-minute load averages when the \
         scene ended. Every frame the sorted collide pair sets of the three are checked equal, \
         the self-collision pair sets of box and k-DOP equal, and their distances equal to the \
         fresh build's (a failure otherwise).\n"
    );
    say!(
        "Update / build ms: box update / k-DOP update / fresh build. Collide: all contacts, box / k-DOP \
         / fresh. Frame ms: the deforming model's update (or build) plus collide.\n"
    );
    say!(
        "| scene | triangles | frames | update ms box / k-DOP / build ms | collide µs | collide BV tests | collide tri tests | contacts | frame ms | load |"
    );
    say!("|---|---|---|---|---|---|---|---|---|---|");
    collide_row("cloth over bunny", cloth_faces.len(), &cloth_run);
    collide_row("wobbling bunny", bunny.faces.len(), &wobble_run);
    say!(
        "\nSelf-collision of the deforming mesh (the cloth; all pairs), box / k-DOP. First distance: \
         the first exact distance query after the update (the still model moved aside), timed on a \
         copy of the updated model each run: on k-DOP it includes the lazy refit of the box tree. \
         Memory: `Model::memory_bytes()` per triangle, box / k-DOP / fresh.\n"
    );
    say!(
        "| scene | self-collide ms | self BV tests | self tri tests | self pairs | first distance µs box / k-DOP | memory B/triangle | load |"
    );
    say!("|---|---|---|---|---|---|---|---|");
    other_row("cloth over bunny", &cloth_run);
    other_row("wobbling bunny", &wobble_run);
    ("kdop.csv".into(), csv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refit::scenes::uv_sphere;
    use rapidpqp::geometry::tri_intersect::triangles_intersect;
    use rapidpqp::query::self_collide::share_an_index;

    /// The k-DOP option against brute force: a small cloth over a wobbling sphere, both k-DOP
    /// models at the identity (collide on the k-DOP trees), and the cloth's self-collision.
    #[test]
    fn kdop_option_equals_brute_force() {
        let body = uv_sphere(16, 20, Vec3::zeros(), 1.0);
        let cloth = Cloth::new(&body, 24, 7);
        let faces = cloth.faces();
        let wobble = Wobble::new(body.vertices.clone(), 0.05, 3);
        let mut sheet = Model::deformable(&cloth.frame(0, 10), &faces, None).expect("sheet");
        let mut ball = Model::deformable(&body.vertices, &body.faces, None).expect("ball");
        sheet.set_kdop(true).expect("k-DOP");
        ball.set_kdop(true).expect("k-DOP");
        let (mut out, mut contacts) = (CollideResult::new(), 0);
        let p = Placement::IDENTITY;
        for k in 1..=10 {
            let (a, b) = (cloth.frame(k, 10), wobble.frame(k as f64));
            sheet.update_vertices(&a).expect("update");
            ball.update_vertices(&b).expect("update");
            let (ta, tb) = (triangles(&a, &faces), triangles(&b, &body.faces));
            let mut want = Vec::new();
            for (i, x) in ta.iter().enumerate() {
                for (j, y) in tb.iter().enumerate() {
                    if triangles_intersect(x, y) {
                        want.push((i as i32, j as i32));
                    }
                }
            }
            collide(&sheet, &p, &ball, &p, &CollideRequest::default(), &mut out).expect("collide");
            assert_eq!(sorted_pairs(&out), want, "frame {k}");
            contacts += want.len();

            let mut want_self = Vec::new();
            for i in 0..ta.len() {
                for j in i + 1..ta.len() {
                    if !share_an_index(&faces[i], &faces[j]) && triangles_intersect(&ta[i], &ta[j]) {
                        want_self.push((i as i32, j as i32));
                    }
                }
            }
            self_collide(&sheet, &CollideRequest::default(), &mut out);
            assert_eq!(sorted_pairs(&out), want_self, "frame {k}: self-collision");
        }
        assert!(contacts > 0, "the scene has contacts");
    }

    /// The k-DOP option's self-collision against brute force on a sheet whose layers cross
    /// (the cloth above never touches itself): the crumpled fold of the self-collision scene,
    /// indexed, stretched a little more every frame.
    #[test]
    fn kdop_self_collision_equals_brute_force() {
        let soup = crate::selfcollide::crumpled_fold(24, 0x5e1f);
        let mut index = std::collections::HashMap::new();
        let mut rest = Vec::new();
        let faces: Vec<[u32; 3]> = soup
            .iter()
            .map(|t| {
                t.map(|p| {
                    *index.entry(p.map(f64::to_bits)).or_insert_with(|| {
                        rest.push(p);
                        rest.len() as u32 - 1
                    })
                })
            })
            .collect();
        let mut sheet = Model::deformable(&rest, &faces, None).expect("sheet");
        sheet.set_kdop(true).expect("k-DOP");
        let (mut out, mut found) = (CollideResult::new(), 0);
        for k in 0..6 {
            let s = 1.0 + 0.1 * k as f64;
            let moved: Vec<Vec3> = rest.iter().map(|p| Vec3::new(p.x, p.y * (2.0 - s), p.z * s)).collect();
            sheet.update_vertices(&moved).expect("update");
            let t = triangles(&moved, &faces);
            let mut want = Vec::new();
            for i in 0..t.len() {
                for j in i + 1..t.len() {
                    if !share_an_index(&faces[i], &faces[j]) && triangles_intersect(&t[i], &t[j]) {
                        want.push((i as i32, j as i32));
                    }
                }
            }
            self_collide(&sheet, &CollideRequest::default(), &mut out);
            assert_eq!(sorted_pairs(&out), want, "frame {k}");
            found += want.len();
        }
        assert!(found > 0, "the sheet crosses itself");
    }
}
