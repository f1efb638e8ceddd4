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

use crate::bv::sphere::Sphere;
use crate::math::{Mat3, Vec3};
use crate::model::LEAF_BIT;

/// A box in its model's frame: the points `center + axes * u` with `|u_k| <= half[k]`.
/// `axes` is orthonormal (columns are the box axes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obb {
    pub axes: Mat3,
    pub center: Vec3,
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
pub fn disjoint(
    a_half: &Vec3,
    b_axes: &Mat3,
    b_center: &Vec3,
    b_half: &Vec3,
    slack: f64,
    test: BoxTest,
) -> bool {
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

/// Two `f64` lanes operated on together. The collide query runs two box tests at once, one
/// per lane: a node's two children against the same node of the other model.
///
/// On x86-64 the lanes are an SSE2 register, driven by intrinsics. Measured on the tori
/// fixture (Dual, callgrind): written as plain pairs, the auto-vectorizer split them back
/// into scalars and the query ran 1.79 M instructions, more than testing one pair at a time
/// (1.67 M); with the intrinsics it runs 1.44 M. Elsewhere the lanes are a plain pair.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod lanes {
    use std::arch::x86_64::*;

    #[derive(Clone, Copy, Debug)]
    #[repr(transparent)]
    pub struct F2(__m128d);

    // SAFETY (every `unsafe` block in this impl): the intrinsics need only SSE2, which this
    // module is compiled with (`cfg(target_feature = "sse2")`, part of the x86-64 baseline),
    // and `get` stores into a local array of exactly the 16 bytes written.
    impl F2 {
        #[inline(always)]
        pub fn new(lo: f64, hi: f64) -> F2 {
            unsafe { F2(_mm_set_pd(hi, lo)) }
        }
        #[inline(always)]
        pub fn splat(x: f64) -> F2 {
            unsafe { F2(_mm_set1_pd(x)) }
        }
        /// Lane `l`.
        #[inline(always)]
        pub fn get(self, l: usize) -> f64 {
            let mut out = [0.0; 2];
            unsafe { _mm_storeu_pd(out.as_mut_ptr(), self.0) };
            out[l & 1]
        }
        /// Lane `l` in both lanes.
        #[inline(always)]
        pub fn spread(self, l: usize) -> F2 {
            unsafe { F2(if l == 0 { _mm_unpacklo_pd(self.0, self.0) } else { _mm_unpackhi_pd(self.0, self.0) }) }
        }
        #[inline(always)]
        pub fn add(self, o: F2) -> F2 {
            unsafe { F2(_mm_add_pd(self.0, o.0)) }
        }
        #[inline(always)]
        pub fn sub(self, o: F2) -> F2 {
            unsafe { F2(_mm_sub_pd(self.0, o.0)) }
        }
        #[inline(always)]
        pub fn mul(self, o: F2) -> F2 {
            unsafe { F2(_mm_mul_pd(self.0, o.0)) }
        }
        #[inline(always)]
        pub fn abs(self) -> F2 {
            unsafe { F2(_mm_andnot_pd(_mm_set1_pd(-0.0), self.0)) }
        }
        /// Bit `l` set when lane `l` of `self` exceeds that of `o` (NaN: not set).
        #[inline(always)]
        pub fn gt(self, o: F2) -> u32 {
            unsafe { _mm_movemask_pd(_mm_cmpgt_pd(self.0, o.0)) as u32 }
        }
    }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
mod lanes {
    #[derive(Clone, Copy, Debug)]
    pub struct F2([f64; 2]);

    impl F2 {
        #[inline(always)]
        pub fn new(lo: f64, hi: f64) -> F2 {
            F2([lo, hi])
        }
        #[inline(always)]
        pub fn splat(x: f64) -> F2 {
            F2([x, x])
        }
        #[inline(always)]
        pub fn get(self, l: usize) -> f64 {
            self.0[l & 1]
        }
        #[inline(always)]
        pub fn spread(self, l: usize) -> F2 {
            F2::splat(self.0[l & 1])
        }
        #[inline(always)]
        pub fn add(self, o: F2) -> F2 {
            F2([self.0[0] + o.0[0], self.0[1] + o.0[1]])
        }
        #[inline(always)]
        pub fn sub(self, o: F2) -> F2 {
            F2([self.0[0] - o.0[0], self.0[1] - o.0[1]])
        }
        #[inline(always)]
        pub fn mul(self, o: F2) -> F2 {
            F2([self.0[0] * o.0[0], self.0[1] * o.0[1]])
        }
        #[inline(always)]
        pub fn abs(self) -> F2 {
            F2([self.0[0].abs(), self.0[1].abs()])
        }
        #[inline(always)]
        pub fn gt(self, o: F2) -> u32 {
            (self.0[0] > o.0[0]) as u32 | ((self.0[1] > o.0[1]) as u32) << 1
        }
    }
}

pub(crate) use lanes::F2;

impl Default for F2 {
    fn default() -> F2 {
        F2::splat(0.0)
    }
}

impl std::ops::Add for F2 {
    type Output = F2;
    #[inline(always)]
    fn add(self, o: F2) -> F2 {
        F2::add(self, o)
    }
}

impl std::ops::Sub for F2 {
    type Output = F2;
    #[inline(always)]
    fn sub(self, o: F2) -> F2 {
        F2::sub(self, o)
    }
}

impl std::ops::Mul for F2 {
    type Output = F2;
    #[inline(always)]
    fn mul(self, o: F2) -> F2 {
        F2::mul(self, o)
    }
}

/// What the collide query reads of one node: the box with its axes numbered by increasing
/// half-extent, stored by coordinate rows (`frame[k] = [axis0[k], axis1[k], axis2[k],
/// center[k]]`), the centre in the box's own axes, the bounding sphere and the child/leaf
/// word.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CollideNode {
    pub frame: [[f64; 4]; 3],
    /// `axis_i · center`.
    pub center_proj: [f64; 3],
    /// `half[0] <= half[1] <= half[2]`.
    pub half: [f64; 3],
    /// Centre and radius.
    pub sphere: [f64; 4],
    pub payload: u32,
}

impl CollideNode {
    pub fn new(obb: &Obb, sphere: &Sphere, payload: u32) -> CollideNode {
        let mut order = [0usize, 1, 2];
        order.sort_by(|&i, &j| obb.half[i].total_cmp(&obb.half[j]));
        let axis = |i: usize| obb.axes.column(order[i]).into_owned();
        let (a0, a1, a2) = (axis(0), axis(1), axis(2));
        let c = obb.center;
        let row = |k: usize| [a0[k], a1[k], a2[k], c[k]];
        // Rounded as the query rounds the placed centre's projections.
        let proj = |a: &Vec3| a[0] * c[0] + a[1] * c[1] + a[2] * c[2];
        CollideNode {
            frame: [row(0), row(1), row(2)],
            center_proj: [proj(&a0), proj(&a1), proj(&a2)],
            half: [obb.half[order[0]], obb.half[order[1]], obb.half[order[2]]],
            sphere: [sphere.center.x, sphere.center.y, sphere.center.z, sphere.radius],
            payload,
        }
    }
}

/// Two nodes side by side, lane 0 and lane 1 of every number: a node's two children, which
/// the query tests together against one node of the other model. See
/// [`crate::Model`]'s `collide_slots` for which node sits where.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct NodePair {
    /// `frame[k][i]`: [`CollideNode::frame`] of each lane.
    pub frame: [[F2; 4]; 3],
    pub center_proj: [F2; 3],
    pub half: [F2; 3],
    pub sphere: [F2; 4],
    pub payload: [u32; 2],
}

impl NodePair {
    pub fn new(n0: &CollideNode, n1: &CollideNode) -> NodePair {
        let two = F2::new;
        NodePair {
            frame: std::array::from_fn(|k| std::array::from_fn(|i| two(n0.frame[k][i], n1.frame[k][i]))),
            center_proj: std::array::from_fn(|i| two(n0.center_proj[i], n1.center_proj[i])),
            half: std::array::from_fn(|i| two(n0.half[i], n1.half[i])),
            sphere: std::array::from_fn(|i| two(n0.sphere[i], n1.sphere[i])),
            payload: [n0.payload, n1.payload],
        }
    }
    /// The node of lane `l`.
    pub fn lane(&self, l: usize) -> CollideNode {
        CollideNode {
            frame: std::array::from_fn(|k| std::array::from_fn(|i| self.frame[k][i].get(l))),
            center_proj: std::array::from_fn(|i| self.center_proj[i].get(l)),
            half: std::array::from_fn(|i| self.half[i].get(l)),
            sphere: std::array::from_fn(|i| self.sphere[i].get(l)),
            payload: self.payload[l],
        }
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
    /// The largest half-extent, as [`Obb::size`].
    #[inline(always)]
    pub fn size(&self, l: usize) -> f64 {
        self.half[2].get(l)
    }
}

/// Two nodes of model b placed in a's model frame, one per lane: `rows[k][j]` is coordinate
/// k of axis j (j < 3) or of the centre (j = 3); half-extents and sphere radius scaled.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
pub(crate) struct PlacedPair {
    rows: [[F2; 4]; 3],
    half: [F2; 3],
    spheres: PlacedSpheres,
}

/// The spheres of two nodes of model b placed in a's model frame: centre, radius (scaled).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
pub(crate) struct PlacedSpheres(pub [F2; 4]);

/// What carries bounding spheres, two at a time: centre coordinates and radius.
pub(crate) trait Spheres {
    fn sphere(&self) -> &[F2; 4];
}

impl Spheres for NodePair {
    #[inline(always)]
    fn sphere(&self) -> &[F2; 4] {
        &self.sphere
    }
}

impl Spheres for PlacedPair {
    #[inline(always)]
    fn sphere(&self) -> &[F2; 4] {
        &self.spheres.0
    }
}

impl Spheres for PlacedSpheres {
    #[inline(always)]
    fn sphere(&self) -> &[F2; 4] {
        &self.0
    }
}

/// The relative placement of model b in a's frame, `p -> scale * rotation * p + translation`,
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

    /// `n`'s two spheres placed: centres moved (rounded as `Relative::apply` rounds a
    /// point), radii scaled. (Zeros when `TEST` does not use spheres.)
    #[inline(always)]
    pub fn place_spheres<const TEST: u8>(&self, n: &NodePair) -> PlacedSpheres {
        if !uses_spheres(TEST) {
            return PlacedSpheres::default();
        }
        let (r, t, s) = (&self.rows, &self.translation, self.scale);
        let c = &n.sphere;
        let mut out = [F2::default(); 4];
        for k in 0..3 {
            let v = r[k][0] * c[0] + r[k][1] * c[1] + r[k][2] * c[2];
            out[k] = if s == 1.0 { v + t[k] } else { v * F2::splat(s) + t[k] };
        }
        out[3] = if s == 1.0 { c[3] } else { c[3] * F2::splat(s) };
        PlacedSpheres(out)
    }

    /// `n`'s two boxes placed: axes rotated, centres moved (rounded as `Relative::apply`
    /// rounds a point), sizes scaled; `spheres` are its spheres, placed.
    #[inline(always)]
    pub fn place(&self, n: &NodePair, spheres: PlacedSpheres) -> PlacedPair {
        let (r, t, s) = (&self.rows, &self.translation, self.scale);
        let f = &n.frame;
        let mut rows = [[F2::default(); 4]; 3];
        for k in 0..3 {
            for j in 0..4 {
                rows[k][j] = r[k][0] * f[0][j] + r[k][1] * f[1][j] + r[k][2] * f[2][j];
            }
        }
        let mut half = n.half;
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
/// lanes (lane `l` of a pair, spread).
pub(crate) trait Side<T> {
    fn get(&self, f: impl Fn(&T) -> &F2) -> F2;
}

/// Both lanes of `T`, as stored.
pub(crate) struct Both<'a, T>(pub &'a T);
/// Lane `L` of `T` in both lanes.
pub(crate) struct Spread<'a, T, const L: usize>(pub &'a T);

impl<T> Side<T> for Both<'_, T> {
    #[inline(always)]
    fn get(&self, f: impl Fn(&T) -> &F2) -> F2 {
        *f(self.0)
    }
}

impl<T, const L: usize> Side<T> for Spread<'_, T, L> {
    #[inline(always)]
    fn get(&self, f: impl Fn(&T) -> &F2) -> F2 {
        f(self.0).spread(L)
    }
}

/// True when the variant tries the bounding spheres first.
#[inline(always)]
pub(crate) const fn uses_spheres(test: u8) -> bool {
    test == DUAL || test == SPHERE_SAT15
}

/// The collide query's sphere test of two node pairs at once, lane by lane: node `a` of
/// model a against node `b` of model b placed in a's model frame. Returns bit `l` set when
/// the spheres of lane `l` are disjoint. Conservative: both spheres hold their subtrees'
/// triangles (see `Sphere::enclosing`); the placed centre is off by at most what `slack`
/// bounds for box centres, and the squares round by a few ε, far less than the 1e-12
/// relative widening.
#[inline(always)]
pub(crate) fn spheres_disjoint<A: Spheres, B: Spheres>(a: &impl Side<A>, b: &impl Side<B>, slack: f64) -> u32 {
    let d: [F2; 3] = std::array::from_fn(|k| b.get(|p| &p.sphere()[k]) - a.get(|n| &n.sphere()[k]));
    let reach = (a.get(|n| &n.sphere()[3]) + b.get(|p| &p.sphere()[3])) * F2::splat(1.0 + 1e-12) + F2::splat(slack);
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).gt(reach * reach)
}

/// The collide query's test `TEST` of two node pairs at once, lane by lane: node `a` of
/// model a against node `b` of model b placed in a's model frame. Returns bit `l` set when
/// the nodes of lane `l` are disjoint. Every radius sum is widened by `slack`, so touching
/// nodes never are.
#[inline(always)]
pub(crate) fn pair_disjoint<const TEST: u8>(
    a: &impl Side<NodePair>,
    b: &impl Side<PlacedPair>,
    slack: f64,
) -> u32 {
    let spheres = if uses_spheres(TEST) { spheres_disjoint(a, b, slack) } else { 0 };
    if spheres == 3 {
        return spheres;
    }
    spheres | boxes_disjoint::<TEST>(a, b, slack)
}

/// The box part of [`pair_disjoint`]: the axes of [`disjoint`], all of them for
/// [`BoxTest::Dual`] and SAT-lite (with two tests in flight an early exit rarely serves
/// both, and straight-line code has no branch to mispredict), the crosses of SAT-15 only
/// when the faces leave a lane undecided. b's centre in a's box frame is
/// `axis_i · placed centre - axis_i · a's centre`, off by a few ε times the magnitudes of the
/// two centres (unit axes), which `slack` covers along with the rounding of the placement;
/// the rotation entries are off by a few ε, which the 1e-12 guard on `|c_ij|` covers.
#[inline(always)]
pub(crate) fn boxes_disjoint<const TEST: u8>(
    a: &impl Side<NodePair>,
    b: &impl Side<PlacedPair>,
    slack: f64,
) -> u32 {
    let sl = F2::splat(slack);
    let mut out = 0;
    // c[i][j] = a_i · b_j, t[i] = a_i · (b's centre - a's centre), e = |c| + guard.
    let fa: [[F2; 3]; 3] = std::array::from_fn(|k| std::array::from_fn(|i| a.get(|n| &n.frame[k][i])));
    let fb: [[F2; 4]; 3] = std::array::from_fn(|k| std::array::from_fn(|j| b.get(|p| &p.rows[k][j])));
    let dot = |i: usize, j: usize| fa[0][i] * fb[0][j] + fa[1][i] * fb[1][j] + fa[2][i] * fb[2][j];
    let c: [[F2; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| dot(i, j)));
    let t: [F2; 3] = std::array::from_fn(|i| dot(i, 3) - a.get(|n| &n.center_proj[i]));
    let g = F2::splat(GUARD);
    let e: [[F2; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| c[i][j].abs() + g));
    let ah: [F2; 3] = std::array::from_fn(|i| a.get(|n| &n.half[i]));
    let bh: [F2; 3] = std::array::from_fn(|j| b.get(|p| &p.half[j]));
    macro_rules! face_a {
        ($i:literal) => {
            t[$i].abs().gt(ah[$i] + (bh[0] * e[$i][0] + bh[1] * e[$i][1] + bh[2] * e[$i][2]) + sl)
        };
    }
    macro_rules! face_b {
        ($j:literal) => {
            (t[0] * c[0][$j] + t[1] * c[1][$j] + t[2] * c[2][$j])
                .abs()
                .gt((ah[0] * e[0][$j] + ah[1] * e[1][$j] + ah[2] * e[2][$j]) + bh[$j] + sl)
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
pub fn orthonormal_frame(x: &Vec3, y: &Vec3) -> Mat3 {
    let Some(x) = x.try_normalize(0.0).filter(|v| v.iter().all(|c| c.is_finite())) else {
        return Mat3::identity();
    };
    let y = y - x * x.dot(y);
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
            let p = Vec3::new(
                (2.0 * rnd() - 1.0) * ha.x,
                (2.0 * rnd() - 1.0) * ha.y,
                (2.0 * rnd() - 1.0) * ha.z,
            );
            let u = Vec3::new(
                (2.0 * rnd() - 1.0) * hb.x,
                (2.0 * rnd() - 1.0) * hb.y,
                (2.0 * rnd() - 1.0) * hb.z,
            );
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
    /// reference gives the same answer with the slack moved by ±1e-9 (so rounding cannot
    /// decide), both lanes give that answer; and boxes sharing a point are never pruned.
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
            let node = |b: &Obb| CollideNode::new(b, &sphere(b), 0);
            let (a0, a1, b) = (&boxes[0], &boxes[1], &boxes[2]);
            let pair_a = NodePair::new(&node(a0), &node(a1));
            let pair_b = NodePair::new(&node(b), &node(b));
            let rows: [[f64; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| r[(i, j)]));
            let xf = Placement3::new(&rows, &[t.x, t.y, t.z], scale);
            let placed = xf.place(&pair_b, xf.place_spheres::<SPHERE_SAT15>(&pair_b));
            let bc = r * b.center * scale + t;
            for (test, code) in BoxTest::ALL.into_iter().zip([SAT15, SAT_LITE, DUAL, SPHERE_SAT15]) {
                let got = match code {
                    SAT15 => pair_disjoint::<SAT15>(&Both(&pair_a), &Spread::<_, 0>(&placed), 0.0),
                    SAT_LITE => pair_disjoint::<SAT_LITE>(&Both(&pair_a), &Spread::<_, 0>(&placed), 0.0),
                    DUAL => pair_disjoint::<DUAL>(&Both(&pair_a), &Spread::<_, 0>(&placed), 0.0),
                    _ => pair_disjoint::<SPHERE_SAT15>(&Both(&pair_a), &Spread::<_, 0>(&placed), 0.0),
                };
                for (lane, a) in [a0, a1].into_iter().enumerate() {
                    let at = a.axes.transpose();
                    let reference = |slack: f64| {
                        let spheres = test.uses_spheres()
                            && (bc - a.center).norm() > sphere(a).radius + sphere(b).radius * scale + slack;
                        let (axes, center) = (at * r * b.axes, at * (bc - a.center));
                        spheres || disjoint(&a.half, &axes, &center, &(b.half * scale), slack, test)
                    };
                    let (loose, tight) = (reference(1e-9), reference(-1e-9));
                    if loose == tight {
                        decided[code as usize] += 1;
                        assert_eq!(got >> lane & 1 == 1, loose, "round {round} {test:?} lane {lane}");
                    }
                }
            }
        }
        assert!(decided.iter().all(|&d| d > 7000), "{decided:?}");
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
