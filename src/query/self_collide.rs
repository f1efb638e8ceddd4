//! Self-collision: which pairs of non-adjacent triangles of one model intersect (a cloth
//! folded onto itself, a crumpled sheet, a surface passing through itself).
//!
//! # Adjacency
//!
//! Triangles that share a vertex or an edge touch by construction, so they are never
//! reported. Every edge shared is a pair of vertices shared, so "adjacent" means "sharing a
//! vertex", decided in one of two ways:
//!
//! - **By index**, on a model that keeps its connectivity (a deformable model,
//!   [`Model::deformable`]): two triangles are adjacent when their faces name a common vertex.
//!   Distinct vertices that happen to coincide (a sheet folded exactly onto itself) are
//!   distinct: triangles meeting only there are reported. A [`Model::deformable_soup`] gives
//!   every triangle vertices of its own, so none of its triangles are adjacent: build a cloth
//!   from shared vertices and faces to have its neighbours excluded.
//! - **By coordinates**, on every other model (a triangle soup): two triangles are adjacent
//!   when some corner of one equals some corner of the other, the three coordinates compared
//!   with `==` (so `-0.0` and `0.0` are the same coordinate). A soup cannot tell coincident
//!   distinct vertices apart: they are the same vertex here, and triangles meeting there are
//!   not reported, whatever else they do.
//!
//! Either way, *adjacent triangles that also cross elsewhere* (two faces of a fan sharing a
//! corner with one passing through the other, or two triangles sharing an edge folded flat
//! onto each other) are not reported: the rule is "exclude every pair that shares a vertex or
//! an edge", not "report pairs that meet beyond their shared vertices". Zero-area triangles
//! follow the same rule.
//!
//! Every other pair is reported exactly when the exact test [`triangles_intersect`] finds the
//! two closed triangles sharing a point (touching counts), as [`super::collide()`] decides it.
//!
//! # Traversal
//!
//! The hierarchy against itself: a node's pairs are those within each child plus those
//! between the two children, so each inner node contributes one test of its two children
//! against each other and, if their volumes meet, a descent of that pair of subtrees exactly
//! as in [`super::collide()`] (the same box tests, widened by the same proof, here with the
//! identity as relative placement). Subtrees of the two children are disjoint, so no
//! triangle pair is reached twice and no triangle is paired with itself. The adjacency check
//! (nine point comparisons on coordinates already loaded) runs before the exact test, since
//! adjacent triangles always pass that test and reach its slowest, degenerate paths.

use super::collide::{CollideRequest, CollideResult, ContactPair, Pending, Split};
use crate::bv::kdop::{DopHit, DopTree};
use crate::bv::obb::{
    BoxTest, DUAL, Margins, PlacedPair, Placement3, SAT_LITE, SAT15, SPHERE_SAT15, Spread, pair_disjoint,
};
use crate::geometry::tri_intersect::triangles_intersect;
use crate::math::{Mat3, Triangle, Vec3};
use crate::model::{Model, slot_of};

/// True when `a` and `b` share a vertex by coordinates: some corner of one has the coordinates
/// of some corner of the other (the rule for models without faces, see the module
/// documentation).
#[inline]
pub fn share_a_vertex(a: &Triangle, b: &Triangle) -> bool {
    a.iter().any(|p| b.iter().any(|q| p == q))
}

/// True when faces `a` and `b` name a common vertex (the rule for models that keep faces).
#[inline]
pub fn share_an_index(a: &[u32; 3], b: &[u32; 3]) -> bool {
    a.iter().any(|i| b.contains(i))
}

/// Whether triangles `i` and `j` (leaf order) of `model` are adjacent, by the model's rule.
pub fn adjacent(model: &Model, i: usize, j: usize) -> bool {
    match model.faces() {
        Some(faces) => share_an_index(&faces[i], &faces[j]),
        None => share_a_vertex(&model.triangles()[i], &model.triangles()[j]),
    }
}

/// Finds the intersecting pairs of non-adjacent triangles of `model` (all of them, or the
/// first one when `request.first_contact`): see the module documentation for what adjacent
/// means. Each unordered pair is reported once, the smaller caller id first (`id1 <= id2`).
///
/// `request.box_test` chooses the bounding-volume test (all give the same pairs);
/// `request.frame` does not apply (one frame). In `result`, `bv_tests` counts the box-pair
/// tests and `tri_tests` the leaf pairs reached (each checked for adjacency, and the
/// non-adjacent ones by the exact triangle test).
///
/// Cannot fail: a built model's coordinates are within the supported range, and the query
/// places nothing.
pub fn self_collide(model: &Model, request: &CollideRequest, result: &mut CollideResult) {
    result.clear();
    if model.num_triangles() < 2 {
        return;
    }
    let first = request.first_contact;
    if let Some(dops) = model.kdop_tree() {
        return traverse_dops(model, dops, first, result);
    }
    match request.box_test {
        BoxTest::Sat15 => traverse::<SAT15>(model, first, result),
        BoxTest::SatLite => traverse::<SAT_LITE>(model, first, result),
        BoxTest::Dual => traverse::<DUAL>(model, first, result),
        BoxTest::SphereSat15 => traverse::<SPHERE_SAT15>(model, first, result),
    }
}

/// [`traverse`] on a k-DOP model: its k-DOP tree prunes (whatever box test was asked for), the
/// same adjacency rule and exact triangle test decide.
fn traverse_dops(model: &Model, dops: &DopTree, first_contact: bool, result: &mut CollideResult) {
    let mut tri_tests = 0u64;
    let pairs = &mut result.pairs;
    let mut stack = Vec::new();
    result.bv_tests = dops.self_pairs(&mut stack, |DopHit { ta, tb }| {
        tri_tests += 1;
        test_leaf_pair(model, ta, tb, pairs) && first_contact
    });
    result.tri_tests = tri_tests;
}

/// The leaf-pair step of both traversals: triangles `ta` and `tb` (leaf order), unless
/// adjacent, by the exact test; a hit is pushed to `pairs` (smaller id first). Returns whether
/// it was one.
#[inline(always)]
fn test_leaf_pair(model: &Model, ta: usize, tb: usize, pairs: &mut Vec<ContactPair>) -> bool {
    // (Adjacency first: adjacent triangles always pass the exact test, by its slowest paths.)
    if adjacent(model, ta, tb) || !triangles_intersect(&model.triangles()[ta], &model.triangles()[tb]) {
        return false;
    }
    let (ida, idb) = (model.ids()[ta], model.ids()[tb]);
    pairs.push(ContactPair { id1: ida.min(idb), id2: ida.max(idb) });
    true
}

#[inline(never)]
fn traverse<const TEST: u8>(model: &Model, first_contact: bool, result: &mut CollideResult) {
    let frame = model.packed_frame();
    let identity = Mat3::identity();
    // The node "placements" are exact copies (identity rotation, zero translation, scale 1).
    let xf = Placement3::between(frame, frame, &identity, &Vec3::zeros(), 1.0);
    // The collide query's widening for this model against itself at the identity (its `m`
    // with both magnitudes this one's and no translation): no rounding of a transform here,
    // so this over-covers the triangle test's view, never under-covers it.
    let m = 2.0 * model.magnitude() / frame.unit;
    let slack = 512.0 * f64::EPSILON * m + 2f64.powi(-1065) / frame.unit;
    let margins = if m <= 1e290 { Margins::new(&identity, slack) } else { Margins::no_pruning(slack) };
    let margins = &margins;
    let slots = model.collide_slots();
    // Inner nodes whose own subtree is still to be searched for pairs.
    let mut selves: Vec<u32> = vec![0];
    let mut pending: Vec<Pending> = Vec::new();
    let mut placed: Vec<PlacedPair> = Vec::new();
    let mut bv_tests = 0u64;
    let mut tri_tests = 0u64;
    'nodes: while let Some(node) = selves.pop() {
        let (slot, lane) = slot_of(node as usize);
        let first = slots[slot].first_child(lane);
        let children = &slots[slot_of(first as usize).0];
        for l in [1, 0] {
            if !children.is_leaf(l) {
                selves.push(first + l as u32);
            }
        }
        // The two children against each other: lane 0 against lane 1 of the same slot.
        bv_tests += 1;
        placed.clear();
        pending.clear();
        placed.push(xf.place(children, xf.place_spheres::<TEST>(children)));
        if pair_disjoint::<TEST>(&Spread::<_, 0>(children), &Spread::<_, 1>(&placed[0]), margins) & 1 != 0 {
            continue;
        }
        pending.push(Pending { ia: first, ib: first + 1, placed: 1 });
        while let Some(Pending { ia, ib, placed: p }) = pending.pop() {
            let (slot_a, lane_a) = slot_of(ia as usize);
            let (slot_b, lane_b) = slot_of(ib as usize);
            let (na, nb) = (&slots[slot_a], &slots[slot_b]);
            let split_a = match (na.is_leaf(lane_a), nb.is_leaf(lane_b)) {
                (true, true) => {
                    tri_tests += 1;
                    let (ta, tb) = (na.triangle(lane_a), nb.triangle(lane_b));
                    if test_leaf_pair(model, ta, tb, &mut result.pairs) && first_contact {
                        break 'nodes;
                    }
                    continue;
                }
                (false, true) => true,
                (true, false) => false,
                (false, false) => na.size(lane_a) > nb.size(lane_b),
            };
            bv_tests += 2;
            let split = Split { ia, ib, placed: p, na, lane_a, nb, lane_b, split_a };
            split.push_overlapping::<TEST>(slots, slots, &xf, margins, &mut pending, &mut placed);
        }
    }
    result.bv_tests = bv_tests;
    result.tri_tests = tri_tests;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    fn model(tris: &[Triangle]) -> Model {
        Model::new(tris.to_vec(), (0..tris.len() as i32).collect()).unwrap()
    }

    /// All i < j pairs, the same adjacency rule, the exact test.
    fn brute_force(tris: &[Triangle]) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        for i in 0..tris.len() {
            for j in i + 1..tris.len() {
                if !share_a_vertex(&tris[i], &tris[j]) && triangles_intersect(&tris[i], &tris[j]) {
                    out.push((i as i32, j as i32));
                }
            }
        }
        out
    }

    /// All leaf pairs of `m` by its own adjacency rule and the exact test, as sorted id pairs.
    fn brute_force_model(m: &Model) -> Vec<(i32, i32)> {
        let (tris, ids) = (m.triangles(), m.ids());
        let mut out = Vec::new();
        for i in 0..tris.len() {
            for j in i + 1..tris.len() {
                if !adjacent(m, i, j) && triangles_intersect(&tris[i], &tris[j]) {
                    out.push((ids[i].min(ids[j]), ids[i].max(ids[j])));
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// Every box test gives the brute force's pairs, each once; a first-contact query gives one
    /// of them (or none when there are none). Returns the pairs.
    fn check_model(m: &Model, what: &str) -> Vec<(i32, i32)> {
        let want = brute_force_model(m);
        let mut out = CollideResult::new();
        for box_test in BoxTest::ALL {
            self_collide(m, &CollideRequest { first_contact: false, box_test, ..Default::default() }, &mut out);
            let mut got: Vec<_> = out.pairs.iter().map(|p| (p.id1, p.id2)).collect();
            assert!(got.iter().all(|&(i, j)| i < j), "{what} {box_test:?}: ordered, never (i, i)");
            let reported = got.len();
            got.sort_unstable();
            got.dedup();
            assert_eq!(reported, got.len(), "{what} {box_test:?}: a pair reported twice");
            assert_eq!(got, want, "{what} {box_test:?}");
            let n = m.num_triangles() as u64;
            assert!(out.tri_tests <= n * (n - 1) / 2, "{what}: a leaf pair reached twice");
            self_collide(m, &CollideRequest { first_contact: true, box_test, ..Default::default() }, &mut out);
            assert_eq!(out.pairs.len(), usize::from(!want.is_empty()), "{what} {box_test:?} first");
            assert!(out.pairs.iter().all(|p| want.binary_search(&(p.id1, p.id2)).is_ok()));
        }
        want
    }

    /// [`check_model`] on a soup, whose brute force is also run in input order.
    fn check(tris: &[Triangle], what: &str) -> Vec<(i32, i32)> {
        let want = check_model(&model(tris), what);
        assert_eq!(want, brute_force(tris), "{what}: the two brute forces");
        want
    }

    /// A regular grid sheet of `nx` by `ny` cells, each split in two, mapped through `f`
    /// (from the parameter plane `[0, nx] x [0, ny]`).
    fn sheet(nx: usize, ny: usize, f: impl Fn(f64, f64) -> Vec3) -> Vec<Triangle> {
        let mut out = Vec::new();
        for i in 0..nx {
            for j in 0..ny {
                let p = |di: usize, dj: usize| f((i + di) as f64, (j + dj) as f64);
                out.push([p(0, 0), p(1, 0), p(1, 1)]);
                out.push([p(0, 0), p(1, 1), p(0, 1)]);
            }
        }
        out
    }

    #[test]
    fn a_flat_sheet_has_no_pairs() {
        let tris = sheet(20, 15, |u, v| Vec3::new(u * 0.1, v * 0.1, 0.0));
        assert!(check(&tris, "flat").is_empty());
        // Its leaf pairs were reached (the neighbours touch), and none was reported.
        let mut out = CollideResult::new();
        self_collide(&model(&tris), &CollideRequest::default(), &mut out);
        assert!(out.tri_tests > 0 && out.bv_tests > 0);
    }

    #[test]
    fn single_triangles_and_pairs() {
        let t = [Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0)];
        assert!(check(&[t], "one").is_empty());
        // A copy of itself shares its vertices: adjacent, not reported.
        assert!(check(&[t, t], "copy").is_empty());
        // Crossing, no shared vertex: reported.
        let u = [Vec3::new(0.2, 0.2, -1.0), Vec3::new(0.2, 0.2, 1.0), Vec3::new(2.0, 2.0, 0.0)];
        assert_eq!(check(&[t, u], "crossing"), vec![(0, 1)]);
        // Sharing a vertex and crossing elsewhere: excluded by the rule.
        let w = [t[0], Vec3::new(0.5, 0.5, 1.0), Vec3::new(0.5, 0.5, -1.0)];
        assert!(triangles_intersect(&t, &w));
        assert!(check(&[t, w], "fan").is_empty());
        // -0.0 and 0.0 are the same coordinate.
        let z = [Vec3::new(-0.0, 0.0, -0.0), Vec3::new(0.0, 0.0, 1.0), Vec3::new(0.0, -1.0, 0.0)];
        assert!(check(&[t, z], "signed zero").is_empty());
    }

    /// A sheet of 2n x n cells folded at the middle onto itself: `gap` 0 lays the upper half
    /// exactly on the lower one (coplanar touching everywhere), the `shift` of its grid
    /// (in cells) avoids or keeps coincident vertices; `tilt` makes the upper half cross the
    /// lower one.
    fn folded(n: usize, gap: f64, shift: f64, tilt: f64) -> Vec<Triangle> {
        let h = 1.0 / n as f64;
        sheet(2 * n, n, |u, v| {
            if u <= n as f64 {
                Vec3::new(u * h, v * h, 0.0)
            } else {
                let back = 2.0 * n as f64 - u;
                Vec3::new(back * h + shift * h, v * h, gap + tilt * (u - n as f64) * h)
            }
        })
    }

    #[test]
    fn folded_sheets_agree_with_brute_force() {
        // Exactly on top, grid aligned: coincident vertices count as shared, and every
        // triangle of one layer touches only triangles of the other that meet it at a grid
        // vertex: the soup's adjacency rule hides every contact (documented).
        assert!(check(&folded(8, 0.0, 0.0, 0.0), "aligned fold").is_empty());
        // Exactly on top, grid shifted by a quarter cell (no coincident vertices off the
        // crease): many coplanar touching pairs.
        let shifted = check(&folded(8, 0.0, 0.25, 0.0), "shifted fold");
        assert!(shifted.len() > 8 * 8 * 2, "{}", shifted.len());
        // Touching at a distance: the upper layer lifted a little never meets the lower.
        assert!(check(&folded(8, 1e-9, 0.25, 0.0), "lifted fold").is_empty());
        // Tilted through the lower layer.
        assert!(!check(&folded(8, 0.05, 0.3, -0.2), "tilted fold").is_empty());
    }

    /// A sheet crumpled by random bumps large enough to pass through itself.
    fn crumpled(rng: &mut Rng, n: usize, amplitude: f64) -> Vec<Triangle> {
        let bumps: Vec<(f64, f64, Vec3)> = (0..12)
            .map(|_| (rng.range(0.0, n as f64), rng.range(0.0, n as f64), rng.vec(-amplitude, amplitude)))
            .collect();
        sheet(n, n, |u, v| {
            let mut p = Vec3::new(u, v, 0.0) / n as f64;
            for &(bu, bv, d) in &bumps {
                let r2 = ((u - bu).powi(2) + (v - bv).powi(2)) / (n as f64 * 0.15).powi(2);
                p += d * (-r2).exp();
            }
            p
        })
    }

    #[test]
    fn crumpled_sheets_agree_with_brute_force() {
        let mut rng = Rng(0x5e1f_c011_1de5);
        let mut total = 0;
        for round in 0..6 {
            total += check(&crumpled(&mut rng, 12 + round, 0.6), &format!("crumpled {round}")).len();
        }
        assert!(total > 50, "the sheets should pass through themselves ({total})");
    }

    #[test]
    fn random_soups_agree_with_brute_force() {
        let mut rng = Rng(0x5009_7e50_0000);
        let mut total = 0;
        for round in 0..12 {
            let n = 20 + 10 * round;
            let mut tris = rng.soup(n, round % 3, Vec3::zeros(), 1.0);
            // Snapped copies of some vertices, so that shared vertices and exact touching occur.
            for k in 0..n / 3 {
                let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
                tris[a][k % 3] = tris[b][(k + 1) % 3];
                tris[k] = tris[k].map(|p| p.map(|v| (v * 4.0).round() / 4.0));
            }
            total += check(&tris, &format!("soup {round}")).len();
        }
        assert!(total > 100, "{total}");
    }

    #[test]
    fn far_from_the_origin_and_at_extreme_scales() {
        let mut rng = Rng(77);
        let base = crumpled(&mut rng, 10, 0.6);
        let fold = folded(6, 0.0, 0.25, 0.0);
        for (scale, offset) in [
            (1.0, Vec3::new(1e9, -3e9, 7e8)),
            (2f64.powi(300), Vec3::zeros()),
            (2f64.powi(-300), Vec3::zeros()),
            (2f64.powi(300), Vec3::new(2f64.powi(340), 0.0, -2f64.powi(330))),
            (2f64.powi(-300), Vec3::new(2f64.powi(-260), 1.0, 0.0)),
        ] {
            // (Power-of-two scales keep the shapes exact: the same pairs at every scale; the
            // offsets round, so only the brute force decides those.)
            for (name, tris) in [("crumpled", &base), ("fold", &fold)] {
                let moved: Vec<Triangle> = tris.iter().map(|t| t.map(|p| p * scale + offset)).collect();
                let got = check(&moved, &format!("{name} x{scale:e} +{offset:?}"));
                if offset == Vec3::zeros() {
                    assert_eq!(got, brute_force(tris), "{name} x{scale:e}");
                }
            }
        }
    }

    /// An indexed grid of `nx` by `ny` cells through `f`: vertices and faces.
    fn indexed_sheet(nx: usize, ny: usize, f: impl Fn(f64, f64) -> Vec3) -> (Vec<Vec3>, Vec<[u32; 3]>) {
        let at = |i: usize, j: usize| (i * (ny + 1) + j) as u32;
        let vertices = (0..=nx).flat_map(|i| (0..=ny).map(move |j| (i, j))).map(|(i, j)| f(i as f64, j as f64));
        let mut faces = Vec::new();
        for i in 0..nx {
            for j in 0..ny {
                faces.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
                faces.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
            }
        }
        (vertices.collect(), faces)
    }

    #[test]
    fn models_with_faces_decide_adjacency_by_index() {
        // The aligned exact fold: the soup hides every contact, the indexed model shows them
        // (coincident distinct vertices are distinct).
        let n = 6;
        let h = 1.0 / n as f64;
        let fold = |u: f64, v: f64| {
            if u <= n as f64 { Vec3::new(u * h, v * h, 0.0) } else { Vec3::new((2.0 * n as f64 - u) * h, v * h, 0.0) }
        };
        let (vertices, faces) = indexed_sheet(2 * n, n, fold);
        let m = Model::deformable(&vertices, &faces, None).unwrap();
        let pairs = check_model(&m, "indexed aligned fold");
        assert!(pairs.len() > 2 * n * n, "{}", pairs.len());
        let soup: Vec<Triangle> = faces.iter().map(|f| f.map(|v| vertices[v as usize])).collect();
        assert!(check(&soup, "soup aligned fold").is_empty());
        // A deformable soup shares no index: its touching neighbours are reported.
        let flat = sheet(4, 4, |u, v| Vec3::new(u, v, 0.0));
        let ds = Model::deformable_soup(&flat, None).unwrap();
        assert!(!check_model(&ds, "deformable soup").is_empty());
    }

    #[test]
    fn deformed_sheets_after_refits_agree_with_brute_force_and_fresh_builds() {
        let n = 14;
        let (flat, faces) = indexed_sheet(n, n, |u, v| Vec3::new(u, v, 0.0) / n as f64);
        let mut m = Model::deformable(&flat, &faces, None).unwrap();
        assert!(check_model(&m, "flat deformable").is_empty());
        let mut rng = Rng(0xc107);
        let mut total = 0;
        for frame in 0..8 {
            // Folding progressively (the far half swings over and through the near one),
            // crumpled by random bumps.
            let angle = std::f64::consts::PI * (0.6 + 0.06 * frame as f64);
            let bumps: Vec<(f64, f64, Vec3)> =
                (0..6).map(|_| (rng.range(0.0, 1.0), rng.range(0.0, 1.0), rng.vec(-0.08, 0.08))).collect();
            let moved: Vec<Vec3> = flat
                .iter()
                .map(|p| {
                    let mut q = if p.x <= 0.5 {
                        *p
                    } else {
                        let r = p.x - 0.5;
                        Vec3::new(0.5 + r * angle.cos(), p.y, r * angle.sin() - 0.2 * r * r)
                    };
                    for &(bx, by, d) in &bumps {
                        q += d * (-((p.x - bx).powi(2) + (p.y - by).powi(2)) / 0.02).exp();
                    }
                    q
                })
                .collect();
            m.update_vertices(&moved).unwrap();
            let got = check_model(&m, &format!("frame {frame}"));
            let fresh = Model::deformable(&moved, &faces, None).unwrap();
            assert_eq!(got, check_model(&fresh, &format!("fresh {frame}")), "frame {frame}");
            total += got.len();
        }
        assert!(total > 50, "the fold should pass through the sheet ({total})");
    }
}
