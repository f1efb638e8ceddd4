//! Oriented bounding boxes (Gottschalk, Lin, Manocha 1996) and their separating-axis test.
//!
//! # The default box test: [`BoxTest::Dual`]
//!
//! Chosen by measurement: callgrind instructions per `collide` query (all contacts unless
//! noted), box tests and triangle tests per query in brackets. "Before" is the query as it
//! was: SAT-15 only, one node pair at a time, both rotations composed per test. Scenario I is
//! two bunny_15k at the sphere-method poses of `benches` (45°/120° sampling, 468 poses per
//! distance d); the tori 4096 and spheres scenes are those of `benches`.
//!
//! | scene | before | SAT-15 | SAT-lite | Dual | sphere + SAT-15 |
//! |---|---|---|---|---|---|
//! | tori fixture (203 poses) | 2.29 M (3929 / 388) | 1.74 M | 1.68 M (4871 / 624) | **1.36 M** (3993 / 390) | 1.78 M (3884 / 388) |
//! | soup fixture (200 poses) | 12.4 M (24457 / 1003) | 9.14 M | 7.32 M (26672 / 1254) | **6.71 M** (23748 / 1003) | 8.82 M (22705 / 988) |
//! | bunny_sphere fixture (600 poses) | 268 k (555 / 6.9) | 193 k | 167 k (678 / 11.2) | **130 k** (518 / 7.0) | 175 k (487 / 6.8) |
//! | Scenario I, d = 0 | 564 k (1143 / 28) | 407 k | 357 k (1393 / 46) | **288 k** (1104 / 29) | 386 k (1045 / 28) |
//! | Scenario I, d = 1 % | 251 k (530) | 179 k | 155 k (655) | **118 k** (489) | 158 k (456) |
//! | Scenario I, d = 5 % | 87 k (185) | 63 k | 52 k (220) | **36 k** (150) | 49 k (141) |
//! | tori 4096, overlapping | 4.04 M (7147 / 597) | 3.06 M | 2.71 M (8621 / 766) | **2.41 M** (7359 / 598) | 3.14 M (7093 / 595) |
//! | tori 4096, linked, first contact | 17.7 k (35) | 13.0 k | 11.4 k (43) | **10.1 k** (35) | 13.7 k (35) |
//! | tori 4096, coplanar, first contact | 82 k (161) | 69 k (181) | 56 k (207) | **53 k** (189) | 70 k (177) |
//! | spheres 1 and 1 + 1e-3, 79,600 triangles | 208 M (437596) | 142 M | 105 M (449791) | **104 M** (431289) | 141 M (417515) |
//!
//! Dual is the cheapest everywhere, and the fastest in time but for the coplanar first
//! contact, where SAT-lite's cheaper test wins (thread CPU time, same scenes: Dual 0.53 to
//! 0.68 of "before" on the fixtures and Scenario I, 0.41 at d = 5 %; SAT-15 0.66 to 0.74):
//! its sphere test needs no rotation, and its five axes prune about as much
//! as all fifteen (at most 5 % more box tests than SAT-15, often fewer) for a third of the
//! arithmetic. Sphere + SAT-15 prunes the most but pays for the nine crosses; SAT-lite prunes
//! too little (more box and triangle tests). The first-contact rows count box tests
//! differently from "before": children are tested before they are stacked, so a query that
//! stops early has tested some pairs it never reaches.
//!
//! The table was measured with f64 collide nodes; storing them in f32 (`Model` memory
//! 956 → 492 bytes per triangle) added about 4 % instructions (one widening per value) and
//! no measurable time, and changed no box or triangle test count by more than 0.1 %.

use crate::bv::Rss;
use crate::bv::sphere::Sphere;
use crate::math::{Mat3, Vec3};
use crate::model::LEAF_BIT;

/// A box in its model's frame: the points `center + axes * u` with `|u_k| <= half[k]`.
/// `axes` is orthonormal (columns are the box axes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obb {
    /// Box axes, one per column (orthonormal).
    pub axes: Mat3,
    /// The box's centre.
    pub center: Vec3,
    /// Half side lengths along each axis.
    pub half: Vec3,
}

/// Which separating axes a box-pair test tries. All variants are conservative, so all
/// give the same contacts; they differ in how much they prune and what a test costs.
///
/// Box axes are numbered by increasing half-extent (axis 0 is the shortest, the normal of
/// the box's largest face), and `c_ij = a_i × b_j`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(C)]
pub enum BoxTest {
    /// The full 15-axis separating-axis test (RAPID's): 6 face normals, 9 edge crosses.
    Sat15 = 0,
    /// Only the 6 face normals ("SAT-lite"): cheaper, prunes a little less.
    SatLite = 1,
    /// The dual OBB-sphere test of Chang, Wang and Kim (2010): the nodes' bounding spheres
    /// first, then the five axes `a0, b0, c22, c12, c21`.
    #[default]
    Dual = 2,
    /// The bounding spheres first, then the full 15-axis test.
    SphereSat15 = 3,
}

impl BoxTest {
    /// Every variant, for tests and benchmarks.
    pub const ALL: [BoxTest; 4] = [BoxTest::Sat15, BoxTest::SatLite, BoxTest::Dual, BoxTest::SphereSat15];

    /// True when the variant tries the bounding spheres before the box axes.
    #[inline]
    pub fn uses_spheres(self) -> bool {
        matches!(self, BoxTest::Dual | BoxTest::SphereSat15)
    }
}

impl Obb {
    /// The box with the given axes that contains every point, grown by `margin` on each side.
    pub fn fit(axes: &Mat3, points: impl Iterator<Item = Vec3>, margin: f64) -> Obb {
        let mut lo = Vec3::repeat(f64::INFINITY);
        let mut hi = Vec3::repeat(f64::NEG_INFINITY);
        let at = axes.transpose();
        for p in points {
            let u = at * p;
            lo = lo.inf(&u);
            hi = hi.sup(&u);
        }
        let mid = (lo + hi) * 0.5;
        let half = (hi - lo) * 0.5 + Vec3::repeat(margin);
        Obb { axes: *axes, center: axes * mid, half }
    }

    /// The largest half-extent: the size used to decide which box of a pair to split.
    #[inline]
    pub fn size(&self) -> f64 {
        self.half.x.max(self.half.y).max(self.half.z)
    }

    /// True when every point is inside the box (up to `tolerance`); for tests and validation.
    pub fn contains(&self, p: &Vec3, tolerance: f64) -> bool {
        let u = self.axes.transpose() * (p - self.center);
        (0..3).all(|k| u[k].abs() <= self.half[k] + tolerance)
    }
}

/// Rounding makes near-zero entries of the relative rotation unreliable; a tiny guard added
/// to every `|c_ij|` keeps the test conservative for nearly parallel edges (RAPID uses 1e-6;
/// exact contacts need less).
const GUARD: f64 = 1e-12;

/// Separating-axis test of box `a` against box `b` given in a's frame: `b_axes` and `b_center`
/// are b's axes and centre expressed in a's *box* frame, `b_half` its half-extents (already
/// scaled). `slack` is added to every radius sum to absorb rounding of the transform.
/// Returns true when the boxes are disjoint. Touching boxes are not disjoint.
///
/// The reference form of the test (boxes as given, any axis order); the collide query runs
/// the same axes on two node pairs at a time. The sphere part of [`BoxTest::Dual`] and
/// [`BoxTest::SphereSat15`] needs the spheres, so here those variants test only their axes.
pub fn disjoint(a_half: &Vec3, b_axes: &Mat3, b_center: &Vec3, b_half: &Vec3, slack: f64, test: BoxTest) -> bool {
    // Renumber both boxes' axes by increasing extent.
    let order = |h: &Vec3| {
        let mut o = [0usize, 1, 2];
        o.sort_by(|&i, &j| h[i].total_cmp(&h[j]));
        o
    };
    let (oa, ob) = (order(a_half), order(b_half));
    let a = [a_half[oa[0]], a_half[oa[1]], a_half[oa[2]]];
    let b = [b_half[ob[0]], b_half[ob[1]], b_half[ob[2]]];
    let t = [b_center[oa[0]], b_center[oa[1]], b_center[oa[2]]];
    let mut c = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            c[i][j] = b_axes[(oa[i], ob[j])];
        }
    }
    match test {
        BoxTest::Sat15 | BoxTest::SphereSat15 => axes_disjoint::<SAT15>(&a, &c, &t, &b, slack),
        BoxTest::SatLite => axes_disjoint::<SAT_LITE>(&a, &c, &t, &b, slack),
        BoxTest::Dual => axes_disjoint::<DUAL>(&a, &c, &t, &b, slack),
    }
}

/// The axis sets of [`BoxTest`] as const-generic tags (one monomorphized traversal each).
pub(crate) const SAT15: u8 = BoxTest::Sat15 as u8;
pub(crate) const SAT_LITE: u8 = BoxTest::SatLite as u8;
pub(crate) const DUAL: u8 = BoxTest::Dual as u8;
pub(crate) const SPHERE_SAT15: u8 = BoxTest::SphereSat15 as u8;

/// The separating-axis test proper, for [`disjoint`]: box a with half-extents `a` at the
/// origin of its own frame, box b with half-extents `b`, centre `t` and axes the columns of
/// `c` (so `c[i][j] = a_i · b_j`), both boxes' axes numbered by increasing extent. True when
/// one of the axes of variant `TEST` separates the boxes by more than `slack`.
///
/// Order: a0, b0 (the normals of the boxes' largest faces), then for [`BoxTest::Dual`] the
/// crosses c22, c12, c21; for the others a1, b1, a2, b2, then the nine crosses.
fn axes_disjoint<const TEST: u8>(a: &[f64; 3], c: &[[f64; 3]; 3], t: &[f64; 3], b: &[f64; 3], slack: f64) -> bool {
    let e: [[f64; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| c[i][j].abs() + GUARD));
    // Face normal a_i.
    macro_rules! face_a {
        ($i:literal) => {
            t[$i].abs() > a[$i] + (b[0] * e[$i][0] + b[1] * e[$i][1] + b[2] * e[$i][2]) + slack
        };
    }
    // Face normal b_j.
    macro_rules! face_b {
        ($j:literal) => {
            (t[0] * c[0][$j] + t[1] * c[1][$j] + t[2] * c[2][$j]).abs()
                > (a[0] * e[0][$j] + a[1] * e[1][$j] + a[2] * e[2][$j]) + b[$j] + slack
        };
    }
    // Edge cross a_i × b_j (constant indices, so every entry stays in a register).
    macro_rules! cross {
        ($i:literal, $j:literal) => {{
            const I1: usize = ($i + 1) % 3;
            const I2: usize = ($i + 2) % 3;
            const J1: usize = ($j + 1) % 3;
            const J2: usize = ($j + 2) % 3;
            let proj = t[I2] * c[I1][$j] - t[I1] * c[I2][$j];
            let ra = a[I1] * e[I2][$j] + a[I2] * e[I1][$j];
            let rb = b[J1] * e[$i][J2] + b[J2] * e[$i][J1];
            proj.abs() > ra + rb + slack
        }};
    }
    if face_a!(0) || face_b!(0) {
        return true;
    }
    if TEST == DUAL {
        return cross!(2, 2) || cross!(1, 2) || cross!(2, 1);
    }
    if face_a!(1) || face_b!(1) || face_a!(2) || face_b!(2) {
        return true;
    }
    if TEST == SAT_LITE {
        return false;
    }
    cross!(0, 0)
        || cross!(0, 1)
        || cross!(0, 2)
        || cross!(1, 0)
        || cross!(1, 1)
        || cross!(1, 2)
        || cross!(2, 0)
        || cross!(2, 1)
        || cross!(2, 2)
}

// The two lanes (one child node each) of the box tests: see `crate::lanes`. Measured on the
// tori fixture (Dual, callgrind): written as plain pairs, the auto-vectorizer split them back
// into scalars and the query ran 1.79 M instructions, more than testing one pair at a time
// (1.67 M); with the SSE2 intrinsics it runs 1.44 M.
pub(crate) use crate::lanes::F2;

/// The part of [`Margins::guard`] that covers the packed nodes' `f32` axes: each stored axis
/// is within `√3 · 2⁻²⁵ < 5.2e-8` of a unit axis of an orthonormal frame (orthonormal to 1e-9
/// before rounding), so the matrix of a node's stored axes is within `η_f32 = 9.2e-8` (2-norm)
/// of an orthogonal matrix. The proof at [`boxes_disjoint`] needs `13 η_f32 < 1.2e-6` for two
/// such nodes and an exact rotation.
const PACKED_GUARD: f64 = 2e-6;

/// Beyond this deviation of the relative rotation from orthonormal (`‖MᵀM − I‖_F`) the
/// first-order bounds of [`boxes_disjoint`] are not trusted, and nothing is pruned (the query
/// then tests every triangle pair: right, and slow). Proper rotations composed in `f64` deviate
/// by about 1e-15; rotations stored with six decimals by about 1e-6.
const MAX_ROTATION_DEVIATION: f64 = 1e-3;

/// How much the collide query widens its box and sphere tests, set once per query (see the
/// proof at [`boxes_disjoint`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Margins {
    /// Absolute, in a's packed units: covers the rounding of every placed centre, every
    /// transformed triangle vertex and every projection.
    pub slack: f64,
    /// Relative to the half-extents: `guard · (Σ a's + Σ b's placed half-extents)` is added to
    /// every radius sum; covers the axes' `f32` rounding and the rotation's deviation from
    /// orthonormal. Infinite (no pruning) when the rotation is far from one.
    pub guard: f64,
    /// Factor on sphere radius sums: covers the rotation's stretch (`‖M‖ ≤ 1 + η`) and the
    /// rounding of the squares.
    pub sphere: f64,
}

impl Margins {
    /// The margins of a query whose relative rotation (b's frame in a's) is `rotation` and
    /// whose rounding bound is `slack`.
    pub fn new(rotation: &Mat3, slack: f64) -> Margins {
        // η = ‖MᵀM − I‖_F bounds ‖MᵀM − I‖₂ and, through the singular values (|σ − 1| ≤ |σ² − 1|),
        // the distance of M from the nearest orthogonal matrix and ‖M‖₂ − 1.
        let eta = (rotation.transpose() * rotation - Mat3::identity()).norm();
        if eta <= MAX_ROTATION_DEVIATION {
            Margins { slack, guard: PACKED_GUARD + 8.0 * eta, sphere: 1.0 + 1e-12 + 2.0 * eta }
        } else {
            // (Also when η is NaN.)
            Margins::no_pruning(slack)
        }
    }

    /// Margins that prune nothing: every comparison `x > inf` or `x > NaN` is false.
    pub fn no_pruning(slack: f64) -> Margins {
        Margins { slack, guard: f64::INFINITY, sphere: f64::INFINITY }
    }
}

/// Where a model's packed nodes are expressed: packed coordinates are `(p - origin) / unit`
/// for a point `p` of the model's frame. `unit` is a power of two, so that packed numbers
/// are of order one whatever the model's size and position (they are stored as `f32`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PackedFrame {
    pub origin: Vec3,
    pub unit: f64,
}

impl PackedFrame {
    /// The frame centred on the bounding box of `points`, with the power of two just above
    /// its half-extent as unit (1 when all points coincide).
    pub fn around(points: impl Iterator<Item = Vec3>) -> PackedFrame {
        let mut lo = Vec3::repeat(f64::INFINITY);
        let mut hi = Vec3::repeat(f64::NEG_INFINITY);
        for p in points {
            lo = lo.inf(&p);
            hi = hi.sup(&p);
        }
        if !lo.iter().chain(hi.iter()).all(|v| v.is_finite()) {
            return PackedFrame { origin: Vec3::zeros(), unit: 1.0 };
        }
        let origin = lo * 0.5 + hi * 0.5;
        // (At least 2^-40 of the coordinates' magnitude: the nodes are padded by a few units
        // of rounding of that magnitude, which must stay a modest f32 in packed units even for
        // a model of no extent far from the origin.)
        let magnitude = lo.amax().max(hi.amax());
        let reach = (hi * 0.5 - lo * 0.5).amax().max(magnitude * 9.094947017729282e-13);
        let unit = if reach > 0.0 { 2f64.powi((reach.log2().ceil() as i32).clamp(-1000, 1000)) } else { 1.0 };
        PackedFrame { origin, unit }
    }

    /// `p` in packed coordinates, with a bound on the rounding of that value.
    fn to_packed(self, p: &Vec3) -> (Vec3, f64) {
        // (`unit` is a power of two: the product by its inverse is the quotient, and cheaper.)
        let inverse = 1.0 / self.unit;
        let x = (p - self.origin) * inverse;
        // (|v| <= √3 max|v_k| < 2 max|v_k|, without squares that could overflow.)
        (x, 8.0 * f64::EPSILON * (p.amax() + self.origin.amax()) * inverse)
    }
}

/// The indices of `half` in increasing order, equal values in index order (a stable sort by
/// `total_cmp`, unrolled: the library sort was a tenth of `with_box`'s time in the refit).
#[inline]
fn ascending(half: &Vec3) -> [usize; 3] {
    let mut order = [0usize, 1, 2];
    let greater = |o: &[usize; 3], a: usize, b: usize| half[o[a]].total_cmp(&half[o[b]]).is_gt();
    for (a, b) in [(0, 1), (1, 2), (0, 1)] {
        if greater(&order, a, b) {
            order.swap(a, b);
        }
    }
    order
}

/// `x` rounded to the nearest `f32`.
fn f32_near(x: f64) -> f32 {
    x as f32
}

/// The least `f32` at least `x` (`x` finite and non-negative).
#[inline]
fn f32_up(x: f64) -> f32 {
    let f = x as f32;
    // Without a branch: rounding to nearest goes up or down about half the time, and the
    // mispredictions were most of `with_box`'s time in the refit.
    #[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN steps too, as it did
    let below = !((f as f64) >= x);
    f32::from_bits(f.to_bits() + below as u32)
}

/// What the collide query reads of one node, in its model's [`PackedFrame`] and as `f32`:
/// the box with its axes numbered by increasing half-extent, stored by coordinate rows
/// (`frame[k] = [axis0[k], axis1[k], axis2[k], center[k]]`), the bounding sphere and the
/// child/leaf word.
///
/// The numbers are rounded conservatively: with `a_i` the stored (rounded, so only nearly
/// orthonormal) axes, `c` the stored centre and `h` the stored half-extents, every vertex `x`
/// below the node (in packed coordinates, exactly) satisfies `|a_i · (x - c)| <= h_i` for
/// each `i`, and lies within the stored radius of the stored sphere centre. The query relies
/// on these slabs only (see the proof at [`boxes_disjoint`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CollideNode {
    pub frame: [[f32; 4]; 3],
    /// `half[0] <= half[1] <= half[2]`.
    pub half: [f32; 3],
    /// Centre and radius.
    pub sphere: [f32; 4],
    /// The node's swept-sphere rectangle, in the box's plane through the stored centre and
    /// normal to axis 0: its centre's offsets along axes 1 and 2 from the box centre, and its
    /// half-lengths along them. Every vertex below the node is within `half[0]` of it (see
    /// [`CollideNode::set_rect`]). The distance query's bounds read it.
    pub rect: [f32; 4],
    pub payload: u32,
}

impl CollideNode {
    /// The packed form of a node whose box is `obb` (holding its vertices, axes orthonormal
    /// to 1e-9) and whose sphere is `sphere` (holding them too).
    #[cfg(test)]
    pub fn new(obb: &Obb, sphere: &Sphere, frame: &PackedFrame, payload: u32) -> CollideNode {
        let mut node = CollideNode::with_box(obb, frame, payload);
        node.set_sphere(sphere, frame);
        node
    }

    /// [`CollideNode::new`] without the sphere (zero until [`CollideNode::set_sphere`]): the
    /// build knows a node's box before its children, its sphere only after them.
    pub fn with_box(obb: &Obb, frame: &PackedFrame, payload: u32) -> CollideNode {
        let order = ascending(&obb.half);
        let axis = |i: usize| obb.axes.column(order[i]).into_owned();
        let axes = [axis(0), axis(1), axis(2)];
        let stored: [Vec3; 3] = axes.map(|a| a.map(|v| f32_near(v) as f64));
        // (`unit` is a power of two: the product by its inverse is the quotient, and cheaper.)
        let half = obb.half * (1.0 / frame.unit);
        let sum: f64 = half.iter().sum();
        let (c, c_err) = frame.to_packed(&obb.center);
        let cs = c.map(|v| f32_near(v) as f64);
        let dc = (c - cs).norm() + c_err;
        // A vertex is c_true + sum_l u_l axis_l with |u_l| <= half_l (the unit axes orthonormal
        // to 1e-9). Along a stored axis a_i = axis_i + e_i: |a_i . (x - cs)| <= half_i
        // + (1e-9 + |e_i| (1 + 1e-9)) sum_l half_l + |a_i| |c_true - cs|.
        let h: [f32; 3] = std::array::from_fn(|i| {
            let e = (stored[i] - axes[i]).norm();
            let grow = (1e-9 + e * 1.01) * sum + (1.0 + 1e-6) * dc;
            f32_up((half[order[i]] + grow) * (1.0 + 1e-12))
        });
        // Non-decreasing exactly (the growth can reorder nearly equal extents by an ulp): wider
        // slabs still hold the vertices, and the box test counts on `Σ h ≤ 3 h[2]`.
        let h = [h[0], h[0].max(h[1]), h[0].max(h[1]).max(h[2])];
        let row = |k: usize| [stored[0][k] as f32, stored[1][k] as f32, stored[2][k] as f32, cs[k] as f32];
        // The box's cross-section: holds every vertex within half[0] (the slab along axis 0).
        let rect = [0.0, 0.0, h[1], h[2]];
        CollideNode { frame: [row(0), row(1), row(2)], half: h, sphere: [0.0; 4], rect, payload }
    }

    /// Stores `sphere` (holding the node's vertices), rounded outward.
    pub fn set_sphere(&mut self, sphere: &Sphere, frame: &PackedFrame) {
        let (sc, s_err) = frame.to_packed(&sphere.center);
        self.set_packed_sphere(&sc, s_err, sphere.radius / frame.unit);
    }

    /// Stores the sphere of centre `sc` (packed coordinates, computed to within `s_err`) and
    /// radius `radius` (packed units), holding the node's vertices, rounded outward; or the
    /// box's sphere when that one is smaller or the given one is not a finite `f32`.
    pub fn set_packed_sphere(&mut self, sc: &Vec3, s_err: f64, radius: f64) {
        let ss = sc.map(f32_near);
        let ds = (sc - ss.map(|v| v as f64)).norm() + s_err;
        let radius = f32_up((radius + ds) * (1.0 + 1e-12));
        // The box's centre and the sum of its half-extents also make a sphere holding every
        // point of the box (each is the centre plus at most h_i along each of the nearly
        // orthonormal axes): it stands in when the fitted sphere is not a finite f32 (its
        // squares overflow beyond about 1e154, and its absolute pad dwarfs models below about
        // 1e-140) or is the larger one.
        let sum: f64 = self.half.iter().map(|&h| h as f64).sum();
        let boxed = f32_up(sum * (1.0 + 1e-6));
        if radius.is_finite() && ss.iter().all(|v| v.is_finite()) && radius <= boxed {
            self.sphere = [ss.x, ss.y, ss.z, radius];
        } else {
            self.sphere = [self.frame[0][3], self.frame[1][3], self.frame[2][3], boxed];
        }
    }

    /// Replaces the rectangle by the (smaller) one of `rss`, the node's swept sphere fitted
    /// on the box's axes with its normal along the thinnest, when every point of `points`
    /// (the vertices below the node, in packed coordinates) is within the stored `half[0]` of
    /// the stored rectangle, as computed here; otherwise the box's cross-section stays.
    pub fn set_rect(&mut self, rss: &Rss, frame: &PackedFrame, points: impl Iterator<Item = Vec3> + Clone) {
        let axis = |i: usize| Vec3::new(self.frame[0][i] as f64, self.frame[1][i] as f64, self.frame[2][i] as f64);
        let centre = Vec3::new(self.frame[0][3] as f64, self.frame[1][3] as f64, self.frame[2][3] as f64);
        let (a1, a2) = (axis(1), axis(2));
        let middle =
            rss.corner + rss.axes.column(0) * (0.5 * rss.lengths[0]) + rss.axes.column(1) * (0.5 * rss.lengths[1]);
        let (m, m_err) = frame.to_packed(&middle);
        let off = [f32_near(a1.dot(&(m - centre))), f32_near(a2.dot(&(m - centre)))];
        // Rounding of the offsets and of the packing grows the half-lengths.
        let grow = m_err + 1e-6 * (rss.lengths[0] + rss.lengths[1]) / frame.unit;
        let len = [f32_up(0.5 * rss.lengths[0] / frame.unit + grow), f32_up(0.5 * rss.lengths[1] / frame.unit + grow)];
        let rect = [off[0], off[1], len[0], len[1]];
        let candidate = CollideNode { rect, ..*self };
        if points.clone().all(|x| candidate.rect_distance(&x) <= self.half[0] as f64) {
            self.rect = rect;
        }
    }

    /// Distance from `x` (packed coordinates) to the stored rectangle, computed with the
    /// stored axes as if orthonormal.
    pub fn rect_distance(&self, x: &Vec3) -> f64 {
        let v: [f64; 3] = std::array::from_fn(|k| x[k] - self.frame[k][3] as f64);
        let along = |i: usize| (0..3).map(|k| self.frame[k][i] as f64 * v[k]).sum::<f64>();
        let out = |u: f64, half: f32| (u.abs() - half as f64).max(0.0);
        let (u1, u2) = (along(1) - self.rect[0] as f64, along(2) - self.rect[1] as f64);
        let (d1, d2, d0) = (out(u1, self.rect[2]), out(u2, self.rect[3]), along(0));
        (d0 * d0 + d1 * d1 + d2 * d2).sqrt()
    }
}

/// One number of two nodes, lane 0 and lane 1, as stored: `f32`, widened when loaded.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(8))]
pub(crate) struct P32(pub [f32; 2]);

impl P32 {
    #[inline(always)]
    pub fn load(&self) -> F2 {
        F2::from_f32(&self.0)
    }
}

/// Two nodes side by side, lane 0 and lane 1 of every number: a node's two children, which
/// the query tests together against one node of the other model. See
/// [`crate::Model`]'s `collide_slots` for which node sits where. 192 bytes.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(crate) struct NodePair {
    /// Centre and radius ([`CollideNode::sphere`]): read first.
    pub sphere: [P32; 4],
    /// `frame[k][i]`: [`CollideNode::frame`] of each lane.
    pub frame: [[P32; 4]; 3],
    pub half: [P32; 3],
    /// [`CollideNode::rect`] of each lane.
    pub rect: [P32; 4],
    pub payload: [u32; 2],
}

impl NodePair {
    pub fn new(n0: &CollideNode, n1: &CollideNode) -> NodePair {
        let two = |x: f32, y: f32| P32([x, y]);
        NodePair {
            sphere: std::array::from_fn(|i| two(n0.sphere[i], n1.sphere[i])),
            frame: std::array::from_fn(|k| std::array::from_fn(|i| two(n0.frame[k][i], n1.frame[k][i]))),
            half: std::array::from_fn(|i| two(n0.half[i], n1.half[i])),
            rect: std::array::from_fn(|i| two(n0.rect[i], n1.rect[i])),
            payload: [n0.payload, n1.payload],
        }
    }
    /// Writes `n` into lane `l`.
    pub fn set_lane(&mut self, l: usize, n: &CollideNode) {
        for i in 0..4 {
            self.sphere[i].0[l] = n.sphere[i];
            self.rect[i].0[l] = n.rect[i];
        }
        for k in 0..3 {
            for i in 0..4 {
                self.frame[k][i].0[l] = n.frame[k][i];
            }
            self.half[k].0[l] = n.half[k];
        }
        self.payload[l] = n.payload;
    }
    #[inline(always)]
    pub fn is_leaf(&self, l: usize) -> bool {
        self.payload[l] & LEAF_BIT != 0
    }
    /// Index of the first child (the second is the next one). Only for inner nodes.
    #[inline(always)]
    pub fn first_child(&self, l: usize) -> u32 {
        self.payload[l]
    }
    /// Index of the node's triangle. Only for leaves.
    #[inline(always)]
    pub fn triangle(&self, l: usize) -> usize {
        (self.payload[l] & !LEAF_BIT) as usize
    }
    /// The largest half-extent (packed units).
    #[inline(always)]
    pub fn size(&self, l: usize) -> f64 {
        self.half[2].0[l] as f64
    }
}

/// Two nodes of model b placed in a's packed frame, one per lane: `rows[k][j]` is
/// coordinate k of axis j (j < 3) or of the centre (j = 3); half-extents and sphere radius
/// scaled.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
pub(crate) struct PlacedPair {
    rows: [[F2; 4]; 3],
    half: [F2; 3],
    spheres: PlacedSpheres,
}

/// The spheres of two nodes of model b placed in a's packed frame: centre, radius (scaled).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
pub(crate) struct PlacedSpheres(pub [F2; 4]);

/// What carries bounding spheres, two at a time: centre coordinate `k` (k < 3) or radius
/// (k = 3).
pub(crate) trait Spheres {
    fn sphere(&self, k: usize) -> F2;
}

impl Spheres for NodePair {
    #[inline(always)]
    fn sphere(&self, k: usize) -> F2 {
        self.sphere[k].load()
    }
}

impl Spheres for PlacedPair {
    #[inline(always)]
    fn sphere(&self, k: usize) -> F2 {
        self.spheres.0[k]
    }
}

impl Spheres for PlacedSpheres {
    #[inline(always)]
    fn sphere(&self, k: usize) -> F2 {
        self.0[k]
    }
}

/// The placement of model b's packed frame in a's, `x -> scale * rotation * x + translation`,
/// each number in both lanes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Placement3 {
    rows: [[F2; 3]; 3],
    translation: [F2; 3],
    scale: f64,
}

impl Placement3 {
    pub fn new(rows: &[[f64; 3]; 3], translation: &[f64; 3], scale: f64) -> Placement3 {
        Placement3 {
            rows: std::array::from_fn(|k| std::array::from_fn(|m| F2::splat(rows[k][m]))),
            translation: std::array::from_fn(|k| F2::splat(translation[k])),
            scale,
        }
    }

    /// The placement of `b`'s packed frame in `a`'s, given the placement `rel` of b's model
    /// frame in a's (`p -> scale * rotation * p + translation`): `x_a = (rel(o_b + u_b x_b)
    /// - o_a) / u_a`.
    pub fn between(a: &PackedFrame, b: &PackedFrame, rotation: &Mat3, translation: &Vec3, scale: f64) -> Placement3 {
        let rows = std::array::from_fn(|k| std::array::from_fn(|m| rotation[(k, m)]));
        let t = ((rotation * b.origin) * scale + translation - a.origin) / a.unit;
        Placement3::new(&rows, &[t.x, t.y, t.z], scale * b.unit / a.unit)
    }

    /// The scale: packed lengths of b times this are packed lengths of a.
    #[inline(always)]
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// `n`'s two spheres placed: centres moved, radii scaled. (Zeros when `TEST` does not
    /// use spheres.)
    #[inline(always)]
    pub fn place_spheres<const TEST: u8>(&self, n: &NodePair) -> PlacedSpheres {
        if !uses_spheres(TEST) {
            return PlacedSpheres::default();
        }
        let (r, t, s) = (&self.rows, &self.translation, self.scale);
        let c: [F2; 4] = std::array::from_fn(|k| n.sphere[k].load());
        let mut out = [F2::default(); 4];
        for k in 0..3 {
            let v = r[k][0] * c[0] + r[k][1] * c[1] + r[k][2] * c[2];
            out[k] = if s == 1.0 { v + t[k] } else { v * F2::splat(s) + t[k] };
        }
        out[3] = if s == 1.0 { c[3] } else { c[3] * F2::splat(s) };
        PlacedSpheres(out)
    }

    /// `n`'s two boxes placed: axes rotated, centres moved, sizes scaled; `spheres` are its
    /// spheres, placed.
    #[inline(always)]
    pub fn place(&self, n: &NodePair, spheres: PlacedSpheres) -> PlacedPair {
        let (r, t, s) = (&self.rows, &self.translation, self.scale);
        let f: [[F2; 4]; 3] = std::array::from_fn(|k| std::array::from_fn(|j| n.frame[k][j].load()));
        let mut rows = [[F2::default(); 4]; 3];
        for k in 0..3 {
            for j in 0..4 {
                rows[k][j] = r[k][0] * f[0][j] + r[k][1] * f[1][j] + r[k][2] * f[2][j];
            }
        }
        let mut half: [F2; 3] = std::array::from_fn(|j| n.half[j].load());
        if s == 1.0 {
            for k in 0..3 {
                rows[k][3] = rows[k][3] + t[k];
            }
        } else {
            let sc = F2::splat(s);
            for k in 0..3 {
                rows[k][3] = rows[k][3] * sc + t[k];
                half[k] = half[k] * sc;
            }
        }
        PlacedPair { rows, half, spheres }
    }
}

/// One side of a two-lane test: either a pair of nodes (one per lane) or one node in both
/// lanes (lane `l` of a pair, spread). `f` reads a number of both lanes.
pub(crate) trait Side<T> {
    fn get(&self, f: impl Fn(&T) -> F2) -> F2;
}

/// Both lanes of `T`, as stored.
pub(crate) struct Both<'a, T>(pub &'a T);
/// Lane `L` of `T` in both lanes.
pub(crate) struct Spread<'a, T, const L: usize>(pub &'a T);

impl<T> Side<T> for Both<'_, T> {
    #[inline(always)]
    fn get(&self, f: impl Fn(&T) -> F2) -> F2 {
        f(self.0)
    }
}

impl<T, const L: usize> Side<T> for Spread<'_, T, L> {
    #[inline(always)]
    fn get(&self, f: impl Fn(&T) -> F2) -> F2 {
        f(self.0).spread(L)
    }
}

/// True when the variant tries the bounding spheres first.
#[inline(always)]
pub(crate) const fn uses_spheres(test: u8) -> bool {
    test == DUAL || test == SPHERE_SAT15
}

/// The collide query's sphere test of two node pairs at once, lane by lane: node `a` of
/// model a against node `b` of model b placed in a's packed frame. Returns bit `l` set when
/// the spheres of lane `l` are disjoint.
///
/// Conservative (the proof at [`boxes_disjoint`] applies, with this part): both stored
/// spheres hold their subtrees' vertices exactly (see [`CollideNode`]); the exact image of b's
/// ball under the placement `Y ↦ s·M·Y + τ` lies within `‖M‖·s·ρ_b ≤ (1 + η)·s·ρ_b` of the
/// image of its centre, which the factor [`Margins::sphere`] (`1 + 1e-12 + 2η`) covers; the
/// computed placed centre and a shared point of the two triangles as the triangle test sees
/// it are off by less than [`Margins::slack`] (see [`boxes_disjoint`]); the squares and sums
/// round by a few ε relative, which the `1e-12` covers. Zero radii (point leaves) change none
/// of this.
#[inline(always)]
pub(crate) fn spheres_disjoint<A: Spheres, B: Spheres>(a: &impl Side<A>, b: &impl Side<B>, m: &Margins) -> u32 {
    let d: [F2; 3] = std::array::from_fn(|k| b.get(|p| p.sphere(k)) - a.get(|n| n.sphere(k)));
    let reach = (a.get(|n| n.sphere(3)) + b.get(|p| p.sphere(3))) * F2::splat(m.sphere) + F2::splat(m.slack);
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).gt(reach * reach)
}

/// The collide query's test `TEST` of two node pairs at once, lane by lane: node `a` of
/// model a against node `b` of model b placed in a's packed frame. Returns bit `l` set when
/// the nodes of lane `l` are disjoint. Never set for nodes holding two triangles that the
/// triangle test finds intersecting (see [`boxes_disjoint`]).
#[inline(always)]
pub(crate) fn pair_disjoint<const TEST: u8>(a: &impl Side<NodePair>, b: &impl Side<PlacedPair>, m: &Margins) -> u32 {
    let spheres = if uses_spheres(TEST) { spheres_disjoint(a, b, m) } else { 0 };
    if spheres == 3 {
        return spheres;
    }
    spheres | boxes_disjoint::<TEST>(a, b, m)
}

/// The box part of [`pair_disjoint`]: the axes of [`disjoint`], all of them for
/// [`BoxTest::Dual`] and SAT-lite (with two tests in flight an early exit rarely serves
/// both, and straight-line code has no branch to mispredict), the crosses of SAT-15 only
/// when the faces leave a lane undecided.
///
/// # Why no pair of touching triangles is ever pruned
///
/// Claim: if a triangle below node a and a triangle below node b intersect *as the triangle
/// test sees them* (a's as stored, b's vertices transformed and rounded by `Relative::apply`),
/// no lane bit is set, here or in [`spheres_disjoint`], for every box test variant and frame
/// (the frames only swap which model is a), and whatever the boxes' shapes: flat, needle or
/// point boxes of zero-area triangles included.
///
/// Notation, in a's packed units (`X = (x − o_a)/u_a`; `u_a` a power of two): `α_i` a's stored
/// `f32` axes, `p` its centre, `h_i` its half-extents; `β_j`, `q`, `k_j` b's, in b's packed
/// units; `M` the relative rotation (`rel.rotation`, exactly as the triangle test uses it),
/// `s` the packed scale, `τ` the packed translation, so that b's packed point `Y` is at
/// `s·M·Y + τ`. `η = ‖MᵀM − I‖_F` (so `M` is within `η` of an orthogonal matrix and
/// `‖M‖ ≤ 1 + η`); `η₃₂ = 9.2e-8` bounds the distance of each node's axis matrix from an
/// orthogonal one ([`PACKED_GUARD`]).
///
/// 1. *Slabs* ([`CollideNode`]): every vertex `X` below a satisfies `|α_i·(X − p)| ≤ h_i`
///    exactly, for each `i`; so does every point of those triangles (the slabs are convex).
///    Likewise for b. Nothing here divides by an extent or needs one to be positive.
/// 2. *Support of a slab box*: for any vector `w`, `max |w·(X − p)|` over a's slabs is
///    `Σ_i |λ_i| h_i` with `λ = A⁻¹w` (`A` the axis matrix), and `|λ_i| ≤ |α_i·w| + 2.1 η₃₂ |w|`.
///    When `w` is a combination `Σ μ_i α_i` of a's own axes the bound is exact: `Σ |μ_i| h_i`.
/// 3. *Shared point*: let `x` be a point of both triangles as tested. `x` is in a's slabs
///    (1). `x` is a convex combination of b's rounded transformed vertices, each within
///    `16ε·m` of its exact image (`m = (a.mag + s·b.mag + |t|∞)/u_a`, the magnitudes in
///    [`crate::query::collide`]'s slack), so within `16ε·m` of a point `x*` of the exact
///    image of b's slabs. The computed placement (`τ`, placed centre, `d = q' − p`, the
///    `t_i`, each projection) rounds by less than `250ε·m` along any tested direction of
///    length ≤ `√2`; [`Margins::slack`] is `512ε·m`.
/// 4. *Each tested direction `w`*, with exact radii `r_a(w)`, `r_b(w)` of a's slabs and of
///    b's placed slabs along it; the boxes share the point `x*` up to `slack`, so
///    `|w·d| ≤ r_a(w) + r_b(w) + slack`. The formula's radii differ from the true ones only
///    in the coefficients of the half-extents, each by at most `1.2e-6 + 5η` (below):
///    - face `a_i` (`w = α_i`): a's radius is exactly `h_i`; b's is `s Σ_j |λ_j| k_j` with
///      `|λ_j| ≤ |c_ij| + 2.1 η₃₂ (1 + η)`.
///    - face `b_j` (`w = M β_j` as computed): a's radius `Σ_i (|c_ij| + 2.1 η₃₂ (1 + η)) h_i`;
///      b's radius `s Σ_m |β_m·MᵀMβ_j| k_m` off from `s k_j` by `(4η₃₂ + 2η) Σ k`.
///    - cross `(i, j)` (`w = c_{i+1,j} α_{i+2} − c_{i+2,j} α_{i+1}`, what RAPID's
///      `t_{i+2} c_{i+1,j} − t_{i+1} c_{i+2,j}` measures): a combination of a's axes, so a's
///      radius is exactly `|c_{i+1,j}| h_{i+2} + |c_{i+2,j}| h_{i+1}`. For b, `(Mβ_m)·w` is a
///      2×2 minor of `C = AᵀMB`: zero for `m = j`, and for `m ≠ j` within `5(2η₃₂ + η)` of
///      `±c_{i,m'}` (C is within `2η₃₂ + η` of an orthogonal matrix, whose 2×2 minors are its
///      entries up to sign; a minor moves by at most 4 times an entry), plus `2.1 η₃₂ |Mᵀw|`
///      with `|w| ≤ √2` from (2): `13 η₃₂ + 5η < 1.2e-6 + 5η` in all. **The `m = j` term is the one a needle box
///      exposes**: the formula gives its long half-extent `k_j` a zero coefficient, while
///      the truth is up to `2.1 η₃₂ |w| k_j` (this is what lost touching segment contacts:
///      the per-entry guard of `|c_ij|` multiplied only the needle's zero widths).
///
///    So adding `guard · (Σ_i h_i + Σ_j s k_j)` to every radius sum, with `guard ≥ 1.2e-6 + 5η`
///    ([`Margins::guard`] is `2e-6 + 8η`), covers every coefficient of every half-extent, long
///    or zero, on every axis of every variant. (The stored half-extents are non-decreasing,
///    so the test adds `3 · guard · (h_2 + s k_2)`, which is at least that.) It also covers the relative rounding of the
///    radius sums themselves (a few ε), since `2e-6 ≫ ε`. The bounds are first order in `η`;
///    the factors 2e-6 and 8 cover the second-order terms while `η ≤ 1e-3`, beyond which the guard is
///    infinite and nothing is pruned.
///
/// Every variant only *tries fewer* of these directions, so each is conservative; the
/// `f32` storage is covered by (1) (outward-rounded extents) and `η₃₂`.
#[inline(always)]
pub(crate) fn boxes_disjoint<const TEST: u8>(a: &impl Side<NodePair>, b: &impl Side<PlacedPair>, m: &Margins) -> u32 {
    let mut out = 0;
    // c[i][j] = a_i · b_j, d = b's centre - a's centre, t[i] = a_i · d, e = |c|.
    let fa: [[F2; 4]; 3] = std::array::from_fn(|k| std::array::from_fn(|i| a.get(|n| n.frame[k][i].load())));
    let fb: [[F2; 4]; 3] = std::array::from_fn(|k| std::array::from_fn(|j| b.get(|p| p.rows[k][j])));
    let d: [F2; 3] = std::array::from_fn(|k| fb[k][3] - fa[k][3]);
    let c: [[F2; 3]; 3] = std::array::from_fn(|i| {
        std::array::from_fn(|j| fa[0][i] * fb[0][j] + fa[1][i] * fb[1][j] + fa[2][i] * fb[2][j])
    });
    let t: [F2; 3] = std::array::from_fn(|i| fa[0][i] * d[0] + fa[1][i] * d[1] + fa[2][i] * d[2]);
    let e: [[F2; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| c[i][j].abs()));
    let ah: [F2; 3] = std::array::from_fn(|i| a.get(|n| n.half[i].load()));
    let bh: [F2; 3] = std::array::from_fn(|j| b.get(|p| p.half[j]));
    // The widening of every radius sum (step 4 of the proof).
    // (Both boxes' half-extents are non-decreasing, so `Σ h ≤ 3 h[2]`; the 1e-5 covers the
    // rounding of this sum and product.)
    let sl = F2::splat(m.slack) + (ah[2] + bh[2]) * F2::splat(3.00001 * m.guard);
    macro_rules! face_a {
        ($i:literal) => {
            t[$i].abs().gt(ah[$i] + (bh[0] * e[$i][0] + bh[1] * e[$i][1] + bh[2] * e[$i][2]) + sl)
        };
    }
    macro_rules! face_b {
        ($j:literal) => {
            (fb[0][$j] * d[0] + fb[1][$j] * d[1] + fb[2][$j] * d[2]).abs().gt((ah[0] * e[0][$j]
                + ah[1] * e[1][$j]
                + ah[2] * e[2][$j])
                + bh[$j]
                + sl)
        };
    }
    macro_rules! cross {
        ($i:literal, $j:literal) => {{
            const I1: usize = ($i + 1) % 3;
            const I2: usize = ($i + 2) % 3;
            const J1: usize = ($j + 1) % 3;
            const J2: usize = ($j + 2) % 3;
            let proj = t[I2] * c[I1][$j] - t[I1] * c[I2][$j];
            let ra = ah[I1] * e[I2][$j] + ah[I2] * e[I1][$j];
            let rb = bh[J1] * e[$i][J2] + bh[J2] * e[$i][J1];
            proj.abs().gt(ra + rb + sl)
        }};
    }
    out |= face_a!(0) | face_b!(0);
    if TEST == DUAL {
        return out | cross!(2, 2) | cross!(1, 2) | cross!(2, 1);
    }
    out |= face_a!(1) | face_b!(1) | face_a!(2) | face_b!(2);
    // The nine crosses cost as much again as everything before: skip them when the faces
    // have decided both lanes.
    if TEST == SAT_LITE || out == 3 {
        return out;
    }
    out | cross!(0, 0)
        | cross!(0, 1)
        | cross!(0, 2)
        | cross!(1, 0)
        | cross!(1, 1)
        | cross!(1, 2)
        | cross!(2, 0)
        | cross!(2, 1)
        | cross!(2, 2)
}

/// Orthonormal right-handed axes whose first column is the principal direction of the
/// symmetric 3×3 `covariance` (eigenvalues sorted decreasing). Falls back to the identity
/// when the matrix is not finite.
pub fn principal_axes(covariance: &Mat3) -> Mat3 {
    if !covariance.iter().all(|v| v.is_finite()) {
        return Mat3::identity();
    }
    let eig = nalgebra::SymmetricEigen::new(*covariance);
    let mut order = [0usize, 1, 2];
    order.sort_by(|&i, &j| eig.eigenvalues[j].total_cmp(&eig.eigenvalues[i]));
    let c0 = eig.eigenvectors.column(order[0]).into_owned();
    let c1 = eig.eigenvectors.column(order[1]).into_owned();
    orthonormal_frame(&c0, &c1)
}

/// Right-handed orthonormal frame with first axis along `x` and second as close to `y` as
/// possible. Degenerate inputs fall back to any perpendicular, then to the identity.
///
/// Each input is first divided by its largest component, so that the norms' squares neither
/// underflow (vectors of 1e-162 had squares of 1e-324 and "unit" axes far from unit length,
/// which the collide query's box tests cannot allow) nor overflow.
pub fn orthonormal_frame(x: &Vec3, y: &Vec3) -> Mat3 {
    let unscaled = |v: &Vec3| {
        let m = v.amax();
        if m > 0.0 && m.is_finite() { v / m } else { *v }
    };
    let Some(x) = unscaled(x).try_normalize(0.0).filter(|v| v.iter().all(|c| c.is_finite())) else {
        return Mat3::identity();
    };
    let y = unscaled(y);
    let y = unscaled(&(y - x * x.dot(&y)));
    let y = match y.try_normalize(1e-300).filter(|v| v.iter().all(|c| c.is_finite())) {
        Some(y) => y,
        None => any_perpendicular(&x),
    };
    let z = x.cross(&y).normalize();
    // Re-orthogonalise y against rounding.
    let y = z.cross(&x);
    Mat3::from_columns(&[x, y, z])
}

fn any_perpendicular(x: &Vec3) -> Vec3 {
    let helper = if x.x.abs() <= x.y.abs() && x.x.abs() <= x.z.abs() {
        Vec3::x()
    } else if x.y.abs() <= x.z.abs() {
        Vec3::y()
    } else {
        Vec3::z()
    };
    x.cross(&helper).normalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rot(axis: Vec3, angle: f64) -> Mat3 {
        *nalgebra::Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle).matrix()
    }

    /// Brute force: two boxes overlap iff some point of one is in the other or they
    /// overlap along all 15 axes; here we sample to check the test never prunes a pair of
    /// boxes that share a sampled point.
    #[test]
    fn never_disjoint_when_a_shared_point_exists() {
        let mut seed = 12345u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..20000 {
            let ha = Vec3::new(rnd(), rnd(), rnd());
            let hb = Vec3::new(rnd(), rnd(), rnd());
            let r = rot(Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5), 6.0 * rnd());
            // A point inside a; put b's centre so that this point is inside b too.
            let p = Vec3::new((2.0 * rnd() - 1.0) * ha.x, (2.0 * rnd() - 1.0) * ha.y, (2.0 * rnd() - 1.0) * ha.z);
            let u = Vec3::new((2.0 * rnd() - 1.0) * hb.x, (2.0 * rnd() - 1.0) * hb.y, (2.0 * rnd() - 1.0) * hb.z);
            let center = p - r * u;
            for test in BoxTest::ALL {
                assert!(!disjoint(&ha, &r, &center, &hb, 0.0, test), "{test:?}");
            }
        }
    }

    #[test]
    fn separated_boxes_are_disjoint() {
        let h = Vec3::new(1.0, 1.0, 1.0);
        let r = rot(Vec3::new(1.0, 1.0, 0.0), 0.3);
        assert!(disjoint(&h, &r, &Vec3::new(5.0, 0.0, 0.0), &h, 0.0, BoxTest::Sat15));
        // Touching faces are not disjoint.
        assert!(!disjoint(&h, &Mat3::identity(), &Vec3::new(2.0, 0.0, 0.0), &h, 0.0, BoxTest::Sat15));
        // Edge-edge separation needs a cross axis: two boxes rotated 45° about different axes.
        let ra = rot(Vec3::z(), std::f64::consts::FRAC_PI_4);
        let rb = rot(Vec3::x(), std::f64::consts::FRAC_PI_4);
        // b in a's frame.
        let rel = ra.transpose() * rb;
        let c = ra.transpose() * Vec3::new(0.0, 1.0 + 1.0 / 2f64.sqrt() + 0.3, 1.0 + 0.3);
        let lite = disjoint(&h, &rel, &c, &h, 0.0, BoxTest::SatLite);
        let full = disjoint(&h, &rel, &c, &h, 0.0, BoxTest::Sat15);
        assert!(full || !lite, "the full test prunes at least what SAT-lite prunes");
    }

    /// The collide query's two-lane test against the reference `disjoint` (and a plain
    /// sphere test), on random box pairs in random placements with scale: wherever the
    /// reference gives the same answer with the slack moved by ±1e-4 (so neither rounding
    /// nor the packed nodes' outward rounding to `f32` and guard can decide), both lanes give
    /// that answer.
    #[test]
    fn two_lane_test_matches_the_reference() {
        let mut seed = 0x5eed_u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut decided = [0usize; 4];
        for round in 0..4000 {
            let mut v = |s: f64| Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5) * s;
            let mut boxes = Vec::new();
            for _ in 0..3 {
                let (axis, angle, center, half) = (v(1.0), v(12.0).x, v(3.0), v(2.0).map(f64::abs));
                boxes.push(Obb { axes: rot(axis + Vec3::new(1e-3, 0.0, 0.0), angle), center, half });
            }
            let (r, t, scale) = (rot(v(1.0) + Vec3::new(0.0, 1e-3, 0.0), v(14.0).y), v(2.0), 0.5 + v(2.0).z.abs());
            let scale = if round % 3 == 0 { scale } else { 1.0 };
            let sphere = |b: &Obb| Sphere { center: b.center, radius: b.half.norm() * (1.0 + 1e-9) };
            let frame = PackedFrame { origin: Vec3::zeros(), unit: 1.0 };
            let node = |b: &Obb| CollideNode::new(b, &sphere(b), &frame, 0);
            let (a0, a1, b) = (&boxes[0], &boxes[1], &boxes[2]);
            let pair_a = NodePair::new(&node(a0), &node(a1));
            let pair_b = NodePair::new(&node(b), &node(b));
            let rows: [[f64; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| r[(i, j)]));
            let xf = Placement3::new(&rows, &[t.x, t.y, t.z], scale);
            let placed = xf.place(&pair_b, xf.place_spheres::<SPHERE_SAT15>(&pair_b));
            let bc = r * b.center * scale + t;
            // (The guard adds at most 2e-6 times the extents, well within the ±1e-4 below.)
            let m = &Margins::new(&r, 0.0);
            for (test, code) in BoxTest::ALL.into_iter().zip([SAT15, SAT_LITE, DUAL, SPHERE_SAT15]) {
                let got = match code {
                    SAT15 => pair_disjoint::<SAT15>(&Both(&pair_a), &Spread::<_, 0>(&placed), m),
                    SAT_LITE => pair_disjoint::<SAT_LITE>(&Both(&pair_a), &Spread::<_, 0>(&placed), m),
                    DUAL => pair_disjoint::<DUAL>(&Both(&pair_a), &Spread::<_, 0>(&placed), m),
                    _ => pair_disjoint::<SPHERE_SAT15>(&Both(&pair_a), &Spread::<_, 0>(&placed), m),
                };
                for (lane, a) in [a0, a1].into_iter().enumerate() {
                    let at = a.axes.transpose();
                    let reference = |slack: f64| {
                        let spheres = test.uses_spheres()
                            && (bc - a.center).norm() > sphere(a).radius + sphere(b).radius * scale + slack;
                        let (axes, center) = (at * r * b.axes, at * (bc - a.center));
                        spheres || disjoint(&a.half, &axes, &center, &(b.half * scale), slack, test)
                    };
                    let (loose, tight) = (reference(1e-4), reference(-1e-4));
                    if loose == tight {
                        decided[code as usize] += 1;
                        assert_eq!(got >> lane & 1 == 1, loose, "round {round} {test:?} lane {lane}");
                    }
                }
            }
        }
        assert!(decided.iter().all(|&d| d > 7000), "{decided:?}");
    }

    /// The collide query's two-lane test on packed nodes never prunes two boxes sharing a
    /// point: random boxes (flat, thin and large ones among them) in random packed frames,
    /// b placed (with scale) so that a point of a's box is in b's, the point near a face
    /// or a corner; both lanes hold a.
    #[test]
    fn packed_test_never_prunes_a_shared_point() {
        let mut seed = 0xfeed_u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for round in 0..100_000 {
            let mut v = |s: f64| Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5) * s;
            // Flat, thin, needle and point boxes among them (zero-area triangles' leaves).
            let half = |v: Vec3, kind: usize| match kind % 7 {
                0 => Vec3::new(0.0, v.y.abs(), v.z.abs()),
                1 => Vec3::new(1e-6, 1e-6, v.z.abs()),
                2 => Vec3::new(0.0, 0.0, v.z.abs()),
                3 => Vec3::zeros(),
                _ => v.map(f64::abs),
            };
            let (ha, hb) = (half(v(4.0), round), half(v(4.0), round / 7));
            let (ra, rb) = (
                rot(v(1.0) + Vec3::new(1e-3, 0.0, 0.0), v(14.0).x),
                rot(v(1.0) + Vec3::new(0.0, 1e-3, 0.0), v(14.0).y),
            );
            let r = rot(v(1.0) + Vec3::new(0.0, 0.0, 1e-3), v(14.0).z);
            let (t, scale) = (v(8.0), if round % 3 == 0 { 0.25 + v(4.0).z.abs() } else { 1.0 });
            // Some placements exactly the identity.
            let (r, t, scale) = if round % 4 == 1 { (Mat3::identity(), Vec3::zeros(), 1.0) } else { (r, t, scale) };
            let (ca, oa, ob, ea, eb) = (v(6.0), v(10.0), v(10.0), v(6.0).x as i32, v(6.0).y as i32);
            let (wa, wb) = (v(2.0), v(2.0));
            // A point of a on its boundary (each coordinate at ± the extent or inside).
            let at_face = |h: f64, w: f64| {
                if w.abs() < 0.5 {
                    h * 2.0 * w
                } else if w > 0.0 {
                    h
                } else {
                    -h
                }
            };
            let ua = Vec3::new(at_face(ha.x, wa.x), at_face(ha.y, wa.y), at_face(ha.z, wa.z));
            let ub = Vec3::new(at_face(hb.x, wb.x), at_face(hb.y, wb.y), at_face(hb.z, wb.z));
            let p = ca + ra * ua;
            // b's centre such that scale * r * (cb + rb ub) + t = p.
            let cb = (r.transpose() * (p - t)) / scale - rb * ub;
            let a = Obb { axes: ra, center: ca, half: ha };
            let b = Obb { axes: rb, center: cb, half: hb };
            let sphere = |o: &Obb| Sphere { center: o.center, radius: o.half.norm() * (1.0 + 1e-12) };
            // A point or needle box centred on its frame's origin (as a model of one zero-area
            // triangle is): its packed centre and extents are then exactly zero.
            let oa = if round % 2 == 0 && ha.x == 0.0 && ha.y == 0.0 { ca } else { oa };
            let ob = if round % 2 == 0 && hb.x == 0.0 && hb.y == 0.0 { cb } else { ob };
            let (fa, fb) =
                (PackedFrame { origin: oa, unit: 2f64.powi(ea) }, PackedFrame { origin: ob, unit: 2f64.powi(eb) });
            let na = CollideNode::new(&a, &sphere(&a), &fa, 0);
            let nb = CollideNode::new(&b, &sphere(&b), &fb, 0);
            let (pair_a, pair_b) = (NodePair::new(&na, &na), NodePair::new(&nb, &nb));
            let xf = Placement3::between(&fa, &fb, &r, &t, scale);
            let placed = xf.place(&pair_b, xf.place_spheres::<SPHERE_SAT15>(&pair_b));
            let mag = [ca, cb, p, t, fa.origin, fb.origin].iter().map(|x| x.amax()).fold(0.0, f64::max) * (1.0 + scale);
            let m = &Margins::new(&r, 512.0 * f64::EPSILON * mag / fa.unit);
            let results = [
                pair_disjoint::<SAT15>(&Both(&pair_a), &Spread::<_, 0>(&placed), m),
                pair_disjoint::<SAT_LITE>(&Both(&pair_a), &Spread::<_, 1>(&placed), m),
                pair_disjoint::<DUAL>(&Both(&pair_a), &Spread::<_, 0>(&placed), m),
                pair_disjoint::<SPHERE_SAT15>(&Both(&pair_a), &Spread::<_, 1>(&placed), m),
                pair_disjoint::<DUAL>(&Spread::<_, 0>(&pair_a), &Both(&placed), m),
            ];
            assert_eq!(results, [0; 5], "round {round}");
        }
    }

    /// Frames from tiny and huge vectors are orthonormal too.
    #[test]
    fn frames_are_orthonormal_at_every_scale() {
        for e in [-1074, -1060, -600, -540, -300, 0, 300, 600, 1000] {
            let s = 2f64.powi(e);
            let (x, y) = (Vec3::new(3.0, -1.0, 2.0) * s, Vec3::new(1.0, 4.0, 1.0) * s);
            let f = orthonormal_frame(&x, &y);
            assert!((f.transpose() * f - Mat3::identity()).norm() < 1e-14, "2^{e}: {f}");
            assert!(f.determinant() > 0.0);
        }
    }

    #[test]
    fn fit_contains_points_and_frame_is_orthonormal() {
        let pts: Vec<Vec3> = (0..50)
            .map(|i| {
                let t = i as f64;
                Vec3::new(t.sin() * 3.0, (t * 0.7).cos(), t * 0.01)
            })
            .collect();
        let mut cov = Mat3::zeros();
        for p in &pts {
            cov += p * p.transpose();
        }
        let axes = principal_axes(&cov);
        assert!((axes.transpose() * axes - Mat3::identity()).norm() < 1e-12);
        assert!(axes.determinant() > 0.0);
        let b = Obb::fit(&axes, pts.iter().copied(), 1e-12);
        assert!(pts.iter().all(|p| b.contains(p, 1e-12)));
    }
}
