use super::*;
use crate::math::{Mat3, Triangle};
use crate::query::closed_meshes::{cuboid, flipped};
use crate::test_rng::{Rng, budget};

fn model(t: Vec<Triangle>) -> Model {
    let ids = (0..t.len() as i32).collect();
    Model::new(t, ids).unwrap()
}

fn at(t: Vec3) -> Placement {
    Placement { rotation: Mat3::identity(), translation: t, scale: 1.0 }
}

fn boxed(lo: [f64; 3], hi: [f64; 3]) -> Model {
    model(cuboid(Vec3::from(lo), Vec3::from(hi)))
}

const AXES: [[f64; 3]; 6] =
    [[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, -1.0]];

fn axes() -> Vec<Vec3> {
    AXES.iter().map(|a| Vec3::from(*a)).collect()
}

/// A square peg in a square hole (four walls with 0.01 clearance) on a base plate, and a far
/// part off to the side: the peg comes out upwards only.
#[test]
fn a_peg_in_a_hole_comes_out_along_its_axis_only() {
    let peg = boxed([-0.5, -0.5, 0.01], [0.5, 0.5, 3.0]);
    let walls = [
        boxed([-1.5, -1.5, 0.0], [-0.51, 1.5, 2.0]),
        boxed([0.51, -1.5, 0.0], [1.5, 1.5, 2.0]),
        boxed([-0.51, -1.5, 0.0], [0.51, -0.51, 2.0]),
        boxed([-0.51, 0.51, 0.0], [0.51, 1.5, 2.0]),
    ];
    let base = boxed([-1.5, -1.5, -1.0], [1.5, 1.5, 0.0]);
    let far = boxed([10.0, 10.0, 0.0], [11.0, 11.0, 1.0]);
    let o = at(Vec3::zeros());
    let mut parts = vec![Part { model: &peg, placement: o }];
    parts.extend(walls.iter().map(|w| Part { model: w, placement: o }));
    parts.push(Part { model: &base, placement: o });
    parts.push(Part { model: &far, placement: o });
    let r = removal_directions(&parts, 0, &axes(), None).unwrap();
    // +x: the wall at x = 0.51 after 0.01; -x likewise; ±y the walls; -z the base after 0.01.
    let expect_blocker = [2, 1, 4, 3, usize::MAX, 5];
    for (k, res) in r.iter().enumerate() {
        if k == 4 {
            assert!(res.free && res.free_distance == f64::INFINITY && res.blocker.is_none(), "{res:?}");
        } else {
            assert!(!res.free, "direction {k}: {res:?}");
            let (blocker, contact) = res.blocker.unwrap();
            assert_eq!(blocker, expect_blocker[k], "direction {k}");
            assert!((res.free_distance - 0.01).abs() < 1e-12, "direction {k}: {res:?}");
            assert_eq!(contact.s, res.free_distance);
        }
        // The far part is never swept.
        assert!(res.culled >= 1, "{res:?}");
    }
    // Pulled only 0.005 sideways, it is free; a diagonal up and out is blocked by the walls.
    let short = removal_directions(&parts, 0, &[Vec3::x()], Some(0.005)).unwrap();
    assert!(short[0].free && short[0].free_distance == 0.005);
    let diagonal = removal_directions(&parts, 0, &[Vec3::new(1.0, 0.0, 1.0)], None).unwrap();
    assert!(!diagonal[0].free && (diagonal[0].free_distance - 0.01 * 2f64.sqrt()).abs() < 1e-12);
}

/// A box in a closed hollow box: blocked every way by the shell, after its clearance.
#[test]
fn nested_boxes_are_blocked_every_way() {
    let mut shell = cuboid(Vec3::repeat(-2.0), Vec3::repeat(2.0));
    shell.extend(flipped(&cuboid(Vec3::repeat(-1.0), Vec3::repeat(1.0))));
    let shell = model(shell);
    let inner = boxed([-0.5, -0.5, -0.5], [0.5, 0.5, 0.25]);
    let parts =
        [Part { model: &inner, placement: at(Vec3::zeros()) }, Part { model: &shell, placement: at(Vec3::zeros()) }];
    let r = removal_directions(&parts, 0, &axes(), None).unwrap();
    let gaps = [0.5, 0.5, 0.5, 0.5, 0.75, 0.5];
    for (res, gap) in r.iter().zip(gaps) {
        assert!(!res.free && res.blocker.unwrap().0 == 1 && (res.free_distance - gap).abs() < 1e-12, "{res:?}");
    }
    // The shell itself moves freely to infinity in no direction either: the inner box blocks.
    let out = removal_directions(&parts, 1, &axes(), None).unwrap();
    assert!(out.iter().all(|res| !res.free && res.blocker.unwrap().0 == 0));
}

#[test]
fn bad_requests_are_refused() {
    let b = boxed([0.0; 3], [1.0; 3]);
    let parts = [Part { model: &b, placement: at(Vec3::zeros()) }];
    assert_eq!(removal_directions(&parts, 1, &axes(), None), Err(QueryError::InvalidArgument));
    assert_eq!(removal_directions(&parts, 0, &[Vec3::zeros()], None), Err(QueryError::InvalidArgument));
    assert_eq!(removal_directions(&parts, 0, &[Vec3::new(f64::NAN, 0.0, 0.0)], None), Err(QueryError::NonFinite));
    assert_eq!(removal_directions(&parts, 0, &axes(), Some(-1.0)), Err(QueryError::InvalidArgument));
    assert_eq!(removal_directions(&parts, 0, &axes(), Some(f64::NAN)), Err(QueryError::InvalidArgument));
    // A lone part is free every way.
    assert!(removal_directions(&parts, 0, &axes(), None).unwrap().iter().all(|r| r.free));
}

/// Random assemblies of small boxes: the culled, ordered search gives the least first contact
/// over sweeps against every other part, without culling.
#[test]
fn random_assemblies_agree_with_sweeping_every_part() {
    let mut rng = Rng(0xd15a_55e3);
    let (mut free, mut blocked, mut culled) = (0, 0, 0);
    for case in 0..budget(40, 400) {
        let n = 2 + rng.below(10) as usize;
        let models: Vec<Model> = (0..n)
            .map(|_| {
                let lo = rng.vec(-2.0, 2.0);
                boxed(
                    [lo.x, lo.y, lo.z],
                    [lo.x + rng.range(0.1, 1.5), lo.y + rng.range(0.1, 1.5), lo.z + rng.range(0.1, 1.5)],
                )
            })
            .collect();
        let parts: Vec<Part> = models
            .iter()
            .map(|m| Part {
                model: m,
                placement: Placement { rotation: rng.rotation(), translation: rng.vec(-0.5, 0.5), scale: 1.0 },
            })
            .collect();
        let dirs: Vec<Vec3> = (0..4).map(|_| rng.dir()).collect();
        let distance = if rng.below(2) == 0 { None } else { Some(rng.range(0.0, 4.0)) };
        let got = removal_directions(&parts, 0, &dirs, distance).unwrap();
        for (res, u) in got.iter().zip(&dirs) {
            culled += res.culled;
            let travel = distance.unwrap_or(1e3);
            let mut want: Option<f64> = None;
            for k in 1..n {
                let request = SweepRequest { direction: *u, s_max: travel, cylinder_cull: false };
                let r =
                    sweep(parts[0].model, &parts[0].placement, parts[k].model, &parts[k].placement, &request).unwrap();
                if let Some(c) = r.contact {
                    want = Some(want.map_or(c.s, |w: f64| w.min(c.s)));
                }
            }
            match want {
                None => {
                    assert!(res.free, "case {case}: {res:?}");
                    free += 1;
                }
                Some(s) => {
                    assert!(!res.free, "case {case}: {res:?} vs {s}");
                    blocked += 1;
                    assert!(
                        (res.free_distance - s).abs() <= 1e-12 * (1.0 + s),
                        "case {case}: {} vs {s}",
                        res.free_distance
                    );
                }
            }
        }
    }
    assert!(free > 10 && blocked > 10 && culled > 10, "{free} free, {blocked} blocked, {culled} culled");
}
