//! k-DOP-18 trees: the bounding volumes of deformable models whose vertices move every frame
//! (the k-DOP option of [`crate::Model::set_kdop`]).
//!
//! A k-DOP-18 is the intersection of 9 slabs `lo[i] <= d_i · p <= hi[i]` along the fixed
//! directions `d` = the 3 axes and (1,±1,0), (1,0,±1), (0,1,±1) (Klosowski et al., QuickCD).
//! Unlike an oriented box it needs no fitted axes, so refitting it is exact and cheap: a leaf
//! takes its triangle's projections, a parent the union of its children's slabs. The price is
//! that it is not rotation invariant: two k-DOPs can be compared only in one frame, or
//! translated one against the other (which the collide query does, widened for rounding).
//!
//! The tree has the topology of the model's box tree (node `i`'s children are `c` and `c + 1`,
//! after it), so one reverse pass over the nodes refits it, children before parents.
//!
//! **Exactness.** Every stored slab holds the *exact* projections of the vertices below the
//! node: the axis projections are the coordinates themselves, the diagonal ones (`x ± y`,
//! rounded when computed) are widened outward by more than their rounding. So if two
//! triangles share a point, its projections lie in both nodes' slabs, and the overlap test
//! (on stored numbers, or on translated ones widened by more than the translation's rounding)
//! never prunes a pair of nodes holding two triangles the exact triangle test finds touching.

use crate::math::{Triangle, Vec3};

/// Directions.
const K: usize = 9;

/// Marks a leaf in [`DopTree::children`]: the word is then `LEAF | triangle`.
const LEAF: u32 = crate::model::LEAF_BIT;

/// A point's 9 projections (the diagonal directions unnormalised: `x ± y` and so on).
#[inline(always)]
fn project(p: &Vec3) -> [f64; K] {
    let (x, y, z) = (p.x, p.y, p.z);
    [x, y, z, x + y, x - y, x + z, x - z, y + z, y - z]
}

/// Outward widening of a rounded diagonal projection: `fl(x ± y)` is within `ε/2 |x ± y|` of
/// the exact value; 2ε of the magnitude, plus the smallest normal number, covers it.
#[inline(always)]
fn margin(v: f64) -> f64 {
    v.abs() * (2.0 * f64::EPSILON) + f64::MIN_POSITIVE
}

/// A k-DOP-18: `lo[i] <= d_i · p <= hi[i]` for every point `p` inside.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(16))]
pub struct Dop {
    /// Lower ends of the slabs.
    pub lo: [f64; K],
    /// Upper ends of the slabs.
    pub hi: [f64; K],
}

impl Dop {
    const EMPTY: Dop = Dop { lo: [f64::INFINITY; K], hi: [f64::NEG_INFINITY; K] };

    /// The k-DOP of a triangle, holding its exact projections.
    #[inline]
    pub fn of_triangle(t: &Triangle) -> Dop {
        let (pa, pb, pc) = (project(&t[0]), project(&t[1]), project(&t[2]));
        let mut d = Dop::EMPTY;
        for i in 0..K {
            let lo = pa[i].min(pb[i]).min(pc[i]);
            let hi = pa[i].max(pb[i]).max(pc[i]);
            // The axis projections are exact: no widening.
            let (wl, wh) = if i < 3 { (0.0, 0.0) } else { (margin(lo), margin(hi)) };
            d.lo[i] = lo - wl;
            d.hi[i] = hi + wh;
        }
        d
    }

    /// The smallest k-DOP holding `a` and `b`.
    #[inline]
    pub fn union(a: &Dop, b: &Dop) -> Dop {
        let mut d = Dop::EMPTY;
        for i in 0..K {
            d.lo[i] = a.lo[i].min(b.lo[i]);
            d.hi[i] = a.hi[i].max(b.hi[i]);
        }
        d
    }

    /// Whether all 9 slab pairs overlap, `other` translated by `shift` (its projections moved
    /// by `shift[i]`) and each slab widened by `slack`.
    #[inline(always)]
    fn overlaps(&self, other: &Dop, shift: &[f64; K], slack: f64) -> bool {
        // The axes first, on their own: they reject most pairs, and the six diagonals are
        // then not read at all.
        let apart =
            |i: usize| (self.lo[i] > other.hi[i] + shift[i] + slack) | (other.lo[i] + shift[i] - slack > self.hi[i]);
        if apart(0) | apart(1) | apart(2) {
            return false;
        }
        !((apart(3) | apart(4)) | (apart(5) | apart(6)) | (apart(7) | apart(8)))
    }

    /// The summed axis extents: which node of a pair to split.
    #[inline(always)]
    fn size(&self) -> f64 {
        (self.hi[0] - self.lo[0]) + (self.hi[1] - self.lo[1]) + (self.hi[2] - self.lo[2])
    }

    /// Surface area of the axis-aligned box (the first three slabs).
    fn box_surface(&self) -> f64 {
        crate::math::box_surface(&Vec3::new(self.hi[0] - self.lo[0], self.hi[1] - self.lo[1], self.hi[2] - self.lo[2]))
    }
}

/// The k-DOP-18 tree of a model: one k-DOP per node of the model's box tree, and the tree's
/// structure (`children[i]`: node `i`'s first child, or `LEAF_BIT | triangle`).
#[derive(Clone, Debug)]
pub struct DopTree {
    dops: Vec<Dop>,
    children: Vec<u32>,
}

/// Where two k-DOP trees are compared: `b`'s nodes translated into `a`'s frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DopShift {
    shift: [f64; K],
    slack: f64,
}

impl DopShift {
    /// `b` translated by `t` into `a`'s frame, `b`'s vertices computed there as `fl(x + t)`
    /// (the rounding the query's own transform makes); `magnitude` bounds both models'
    /// coordinates. The slack covers the rounding of those vertices (within `ε/2 (|x| + |t|)`
    /// a coordinate, twice that on a diagonal), of the shift's own projections and of the
    /// comparisons' sums, each under `4ε (magnitude + |t|)`, four times over.
    pub(crate) fn translation(t: &Vec3, magnitude: f64) -> DopShift {
        let shift = project(t);
        let slack = if *t == Vec3::zeros() {
            0.0 // fl(x + 0) = x: the stored slabs compare exactly
        } else {
            16.0 * f64::EPSILON * (magnitude + t.amax()) + f64::MIN_POSITIVE
        };
        DopShift { shift, slack }
    }
}

/// A pair of leaves whose k-DOPs overlap.
pub(crate) struct DopHit {
    /// Leaf-order triangles of `a` and `b`.
    pub(crate) ta: usize,
    pub(crate) tb: usize,
}

impl DopTree {
    /// A tree of the given structure (`children` as documented on the type), fitted to
    /// `triangles`.
    pub(crate) fn new(children: Vec<u32>, triangles: &[Triangle]) -> DopTree {
        let mut tree = DopTree { dops: vec![Dop::EMPTY; children.len()], children };
        tree.refit(triangles);
        tree
    }

    /// Refits every node to `triangles` (leaf order), children before parents: exact, linear.
    pub(crate) fn refit(&mut self, triangles: &[Triangle]) {
        for i in (0..self.children.len()).rev() {
            let c = self.children[i];
            self.dops[i] = if c & LEAF != 0 {
                Dop::of_triangle(&triangles[(c & !LEAF) as usize])
            } else {
                Dop::union(&self.dops[c as usize], &self.dops[c as usize + 1])
            };
        }
    }

    /// The root's k-DOP.
    pub fn root(&self) -> &Dop {
        &self.dops[0]
    }

    /// The largest absolute coordinate of the vertices: the root's axis slabs are their exact
    /// bounds.
    pub(crate) fn magnitude(&self) -> f64 {
        let r = &self.dops[0];
        (0..3).map(|i| r.lo[i].abs().max(r.hi[i].abs())).fold(0.0, f64::max)
    }

    /// Nodes (`2n − 1` for `n` triangles).
    pub fn len(&self) -> usize {
        self.dops.len()
    }

    /// Never empty: a tree has a root.
    pub fn is_empty(&self) -> bool {
        self.dops.is_empty()
    }

    /// The k-DOP of node `i`.
    pub fn dop(&self, i: usize) -> &Dop {
        &self.dops[i]
    }

    /// Heap bytes.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.dops.capacity() * std::mem::size_of::<Dop>() + self.children.capacity() * std::mem::size_of::<u32>()
    }

    /// The tree cost ([`crate::model::refit`]'s measure, on these volumes): the summed
    /// surfaces of the inner nodes' axis-aligned boxes over the root's.
    pub(crate) fn cost(&self) -> f64 {
        let sum: f64 =
            (0..self.len()).filter(|&i| self.children[i] & LEAF == 0).map(|i| self.dops[i].box_surface()).sum();
        let root = self.dops[0].box_surface();
        if root > 0.0 { sum / root } else { 0.0 }
    }

    /// Checks that every node's k-DOP holds the exact projections of the vertices below it
    /// (`n log n`), for [`crate::Model::validate`].
    pub(crate) fn validate(&self, triangles: &[Triangle]) -> Result<(), String> {
        let mut stack = Vec::new();
        for i in 0..self.len() {
            stack.clear();
            stack.push(i);
            let d = &self.dops[i];
            while let Some(k) = stack.pop() {
                let c = self.children[k];
                if c & LEAF == 0 {
                    stack.extend([c as usize, c as usize + 1]);
                    continue;
                }
                for p in &triangles[(c & !LEAF) as usize] {
                    let q = project(p);
                    #[allow(clippy::needless_range_loop)] // three arrays in lockstep
                    for j in 0..K {
                        // Rounded diagonal projections are within their margin of the exact.
                        let m = if j < 3 { 0.0 } else { margin(q[j]) / 4.0 };
                        if !(d.lo[j] <= q[j] - m && q[j] + m <= d.hi[j]) {
                            return Err(format!("k-DOP node {i} misses a vertex of triangle {} (slab {j})", c & !LEAF));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Every pair of leaves (triangles of `self`, of `other`) whose k-DOPs overlap, `other`
    /// placed by `at`, handed to `leaf` (which returns `true` to stop), in a depth-first
    /// simultaneous descent splitting the larger node. Returns the k-DOP pair tests made.
    #[inline(always)]
    pub(crate) fn pairs(
        &self,
        other: &DopTree,
        at: &DopShift,
        stack: &mut Vec<(u32, u32)>,
        mut leaf: impl FnMut(DopHit) -> bool,
    ) -> u64 {
        self.descend(other, at, (0, 0), stack, &mut leaf).0
    }

    /// Every pair of distinct leaves of this tree whose k-DOPs overlap, each unordered pair
    /// once, handed to `leaf` (which returns `true` to stop): each inner node's two subtrees
    /// against each other. Returns the k-DOP pair tests made.
    pub(crate) fn self_pairs(&self, stack: &mut Vec<(u32, u32)>, mut leaf: impl FnMut(DopHit) -> bool) -> u64 {
        let same_frame = DopShift { shift: [0.0; K], slack: 0.0 };
        let mut tests = 0u64;
        for &c in &self.children {
            if c & LEAF != 0 {
                continue;
            }
            let (made, stopped) = self.descend(self, &same_frame, (c, c + 1), stack, &mut leaf);
            tests += made;
            if stopped {
                break;
            }
        }
        tests
    }

    /// The descent from the node pair `start`: the k-DOP pair tests made, and whether `leaf`
    /// asked to stop.
    #[inline(always)]
    fn descend(
        &self,
        other: &DopTree,
        at: &DopShift,
        start: (u32, u32),
        stack: &mut Vec<(u32, u32)>,
        leaf: &mut impl FnMut(DopHit) -> bool,
    ) -> (u64, bool) {
        let mut tests = 0u64;
        stack.clear();
        stack.push(start);
        while let Some((a, b)) = stack.pop() {
            tests += 1;
            let (da, db) = (&self.dops[a as usize], &other.dops[b as usize]);
            if !da.overlaps(db, &at.shift, at.slack) {
                continue;
            }
            let (ca, cb) = (self.children[a as usize], other.children[b as usize]);
            match (ca & LEAF != 0, cb & LEAF != 0) {
                (true, true) => {
                    if leaf(DopHit { ta: (ca & !LEAF) as usize, tb: (cb & !LEAF) as usize }) {
                        return (tests, true);
                    }
                }
                (false, true) => stack.extend([(ca + 1, b), (ca, b)]),
                (true, false) => stack.extend([(a, cb + 1), (a, cb)]),
                // Split the larger node (a's when level).
                (false, false) if da.size() >= db.size() => stack.extend([(ca + 1, b), (ca, b)]),
                (false, false) => stack.extend([(a, cb + 1), (a, cb)]),
            }
        }
        (tests, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_triangle_dop_holds_its_exact_projections() {
        // x + y rounds here (1 + 2^-53 ties to even), and the widened slab still holds it.
        let t = [Vec3::new(1.0, 2f64.powi(-53), 0.0), Vec3::new(-3.0, 0.5, 1e300), Vec3::new(1e-310, -1e-310, 0.0)];
        let d = Dop::of_triangle(&t);
        let tree = DopTree { dops: vec![d], children: vec![LEAF] };
        tree.validate(&[t]).unwrap();
        assert!(d.lo[3] < 1.0 && d.hi[3] > 1.0, "x + y = 1 + 2^-53 exactly, rounded to 1");
        assert_eq!((d.lo[0], d.hi[0]), (-3.0, 1.0), "axis slabs are exact");
    }

    /// The k-DOP path runs exactly when both models are k-DOP models a translation apart:
    /// its count of volume tests is the k-DOP traversal's, otherwise the box tree's.
    #[test]
    fn collide_and_self_collide_take_the_kdop_trees_when_they_can() {
        use crate::Model;
        use crate::query::{CollideResult, collide, self_collide};
        let (nx, mut vertices, mut faces) = (9u32, Vec::new(), Vec::new());
        for i in 0..=nx {
            for j in 0..=nx {
                let (x, y) = (i as f64 / 9.0, j as f64 / 9.0);
                vertices.push(Vec3::new(x, y, 0.2 * (7.0 * x).sin() * (5.0 * y).cos()));
            }
        }
        for i in 0..nx {
            for j in 0..nx {
                let v = |a: u32, b: u32| a * (nx + 1) + b;
                faces.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
                faces.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]);
            }
        }
        let plain = Model::deformable(&vertices, &faces, None).unwrap();
        let mut kdop = plain.clone();
        kdop.set_kdop(true).unwrap();
        let dops = kdop.kdop_tree().unwrap();
        let (mut out, mut stack) = (CollideResult::new(), Vec::new());
        let t = Vec3::new(0.05, -0.1, 0.02);
        let shift = crate::Placement { translation: t, ..crate::Placement::IDENTITY };
        let at = DopShift::translation(&t, kdop.magnitude());
        let mut leaves = 0;
        let tests = dops.pairs(dops, &at, &mut stack, |_| {
            leaves += 1;
            false
        });
        collide(&kdop, &crate::Placement::IDENTITY, &kdop, &shift, &Default::default(), &mut out).unwrap();
        assert_eq!((out.bv_tests, out.tri_tests), (tests, leaves));
        assert!(!out.pairs.is_empty());
        // One model without the option: it gets k-DOPs of its own (the same, over the same
        // tree), once.
        let before = plain.memory_bytes();
        collide(&plain, &crate::Placement::IDENTITY, &kdop, &shift, &Default::default(), &mut out).unwrap();
        assert_eq!((out.bv_tests, out.tri_tests), (tests, leaves));
        assert_eq!(plain.memory_bytes() - before, dops.memory_bytes());
        // Neither, or a rotation: the box trees.
        let mut boxes = CollideResult::new();
        collide(&plain, &crate::Placement::IDENTITY, &plain, &shift, &Default::default(), &mut boxes).unwrap();
        let turn =
            crate::Placement { rotation: crate::Mat3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0), ..shift };
        collide(&kdop, &crate::Placement::IDENTITY, &kdop, &turn, &Default::default(), &mut out).unwrap();
        let mut turned = CollideResult::new();
        collide(&plain, &crate::Placement::IDENTITY, &plain, &turn, &Default::default(), &mut turned).unwrap();
        assert_eq!(out.bv_tests, turned.bv_tests);
        assert_ne!(boxes.bv_tests, tests);
        // Self-collision.
        let mut leaves = 0;
        let tests = dops.self_pairs(&mut stack, |_| {
            leaves += 1;
            false
        });
        self_collide(&kdop, &Default::default(), &mut out);
        assert_eq!((out.bv_tests, out.tri_tests), (tests, leaves));
    }

    #[test]
    fn translated_overlap_is_widened_by_the_slack_only() {
        let t = [Vec3::zeros(), Vec3::x(), Vec3::y()];
        let d = Dop::of_triangle(&t);
        let touching = DopShift::translation(&Vec3::new(1.0, 0.0, 0.0), 1.0);
        assert!(d.overlaps(&d, &touching.shift, touching.slack));
        let apart = DopShift::translation(&Vec3::new(1.0 + 1e-9, 0.0, 0.0), 1.0);
        assert!(!d.overlaps(&d, &apart.shift, apart.slack));
        // Along a diagonal only: (1, 1, 0)/2 + δ separates on x + y, not on any axis.
        let diagonal = DopShift::translation(&Vec3::new(0.5 + 1e-9, 0.5 + 1e-9, 0.0), 1.0);
        assert!(!d.overlaps(&d, &diagonal.shift, diagonal.slack));
    }
}
