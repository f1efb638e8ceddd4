//! Incremental sweep and prune over axis-aligned boxes (the broad phase of [`super::World`]).
//!
//! Per axis, one array holds the lo and hi end of every box, sorted by coordinate; at equal
//! coordinates a lo end sorts before a hi end, so closed intervals that only touch overlap.
//! Moving a box re-sorts its ends by insertion sort (adjacent swaps, cost ∝ swaps). Each
//! swap of a lo end with another box's hi end is the only event that can start or end an
//! overlap on that axis, so the set of overlapping pairs is kept up to date on swaps:
//! a lo end crossing below another box's hi end may start an overlap (tested on all three
//! axes), a hi end crossing below another box's lo end ends one.
//!
//! Invariant (checked by [`SweepAndPrune::validate`]): after every call, the pair set is
//! exactly the set of pairs of boxes whose closed intervals intersect on all three axes.
//! Ends equal in coordinate and kind never swap, so a box that does not move costs nothing
//! and no walk can loop (unlike V-COLLIDE 2.01, see VCOLLIDE.md §5.6).

use std::collections::BTreeSet;

/// An axis-aligned box, `lo[k] <= hi[k]`, finite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Lower corner.
    pub lo: [f64; 3],
    /// Upper corner.
    pub hi: [f64; 3],
}

impl Aabb {
    /// Closed-interval overlap on all three axes (touching counts).
    #[inline]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        (0..3).all(|k| self.lo[k] <= other.hi[k] && other.lo[k] <= self.hi[k])
    }

    fn is_valid(&self) -> bool {
        (0..3).all(|k| self.lo[k].is_finite() && self.hi[k].is_finite() && self.lo[k] <= self.hi[k])
    }
}

/// One end of a box on one axis.
#[derive(Clone, Copy, Debug)]
struct Endpoint {
    value: f64,
    id: u32,
    hi: bool,
}

impl Endpoint {
    /// Strict sort order: by coordinate, and at equal coordinates lo ends first.
    #[inline]
    fn before(&self, other: &Endpoint) -> bool {
        self.value < other.value || (self.value == other.value && !self.hi && other.hi)
    }
}

/// Where a box is: its bounds and the index of its ends in each axis array.
#[derive(Clone, Copy, Debug)]
struct Slot {
    present: bool,
    bounds: Aabb,
    /// `index[axis][0]` = lo end, `index[axis][1]` = hi end.
    index: [[u32; 2]; 3],
}

const EMPTY_SLOT: Slot =
    Slot { present: false, bounds: Aabb { lo: [0.0; 3], hi: [0.0; 3] }, index: [[u32::MAX; 2]; 3] };

/// Boxes keyed by small integer ids, and the set of overlapping pairs `(a, b)`, `a < b`.
#[derive(Clone, Debug, Default)]
pub struct SweepAndPrune {
    axes: [Vec<Endpoint>; 3],
    slots: Vec<Slot>,
    pairs: BTreeSet<(u32, u32)>,
    swaps: u64,
}

impl SweepAndPrune {
    /// An empty sweep-and-prune set.
    pub fn new() -> SweepAndPrune {
        SweepAndPrune::default()
    }

    /// True when `id` holds a box.
    pub fn contains(&self, id: u32) -> bool {
        self.slots.get(id as usize).is_some_and(|s| s.present)
    }

    /// The box of `id`, if present.
    pub fn bounds(&self, id: u32) -> Option<&Aabb> {
        self.slots.get(id as usize).filter(|s| s.present).map(|s| &s.bounds)
    }

    /// Overlapping pairs `(a, b)` with `a < b`, in ascending order.
    pub fn pairs(&self) -> &BTreeSet<(u32, u32)> {
        &self.pairs
    }

    /// Adjacent swaps performed so far (the cost measure of the incremental updates).
    pub fn swaps(&self) -> u64 {
        self.swaps
    }

    /// Adds a box under a new id: tests it against every box (adds the overlapping pairs),
    /// then inserts its ends. Panics if `id` is present or the box is not valid.
    pub fn insert(&mut self, id: u32, bounds: Aabb) {
        assert!(!self.contains(id), "box {id} inserted twice");
        assert!(bounds.is_valid(), "invalid box {bounds:?}");
        for (other, slot) in self.slots.iter().enumerate() {
            if slot.present && slot.bounds.overlaps(&bounds) {
                self.pairs.insert(ordered(id, other as u32));
            }
        }
        if self.slots.len() <= id as usize {
            self.slots.resize(id as usize + 1, EMPTY_SLOT);
        }
        self.slots[id as usize] = Slot { present: true, bounds, index: [[0; 2]; 3] };
        for axis in 0..3 {
            for hi in [false, true] {
                let end = Endpoint { value: if hi { bounds.hi[axis] } else { bounds.lo[axis] }, id, hi };
                let list = &mut self.axes[axis];
                let at = list.partition_point(|e| e.before(&end));
                list.insert(at, end);
                reindex(list, &mut self.slots, axis, at);
            }
        }
    }

    /// Removes the box of `id` and every pair it is in. Returns false if it was absent.
    pub fn remove(&mut self, id: u32) -> bool {
        if !self.contains(id) {
            return false;
        }
        for axis in 0..3 {
            let [lo, hi] = self.slots[id as usize].index[axis];
            let list = &mut self.axes[axis];
            // The hi end sorts after the lo end: remove it first so the lo index stays valid.
            list.remove(hi as usize);
            list.remove(lo as usize);
            reindex(list, &mut self.slots, axis, lo as usize);
        }
        self.slots[id as usize] = EMPTY_SLOT;
        self.pairs.retain(|&(a, b)| a != id && b != id);
        true
    }

    /// Moves the box of `id` to `bounds`, updating the pair set on the way.
    /// Panics if `id` is absent or the box is not valid.
    pub fn update(&mut self, id: u32, bounds: Aabb) {
        assert!(self.contains(id), "box {id} is not present");
        assert!(bounds.is_valid(), "invalid box {bounds:?}");
        for axis in 0..3 {
            let old_lo = self.slots[id as usize].bounds.lo[axis];
            // Walk first the end that leads the motion, so that the two ends rarely cross.
            if bounds.lo[axis] < old_lo {
                self.move_end(id, axis, false, bounds.lo[axis]);
                self.move_end(id, axis, true, bounds.hi[axis]);
            } else {
                self.move_end(id, axis, true, bounds.hi[axis]);
                self.move_end(id, axis, false, bounds.lo[axis]);
            }
        }
    }

    /// Gives one end a new coordinate and walks it to its sorted place.
    fn move_end(&mut self, id: u32, axis: usize, hi: bool, value: f64) {
        let SweepAndPrune { axes, slots, pairs, swaps } = self;
        let list = &mut axes[axis];
        let slot = &mut slots[id as usize];
        let mut i = slot.index[axis][hi as usize] as usize;
        if hi {
            slot.bounds.hi[axis] = value;
        } else {
            slot.bounds.lo[axis] = value;
        }
        list[i].value = value;
        let moving = list[i];
        // Toward the head: `moving` passes `other`, which now sorts after it.
        while i > 0 && moving.before(&list[i - 1]) {
            let other = list[i - 1];
            if other.id != id {
                if !moving.hi && other.hi {
                    // lo below other's hi: an overlap on this axis may start.
                    start_if_overlapping(slots, pairs, id, other.id);
                } else if moving.hi && !other.hi {
                    // hi below other's lo: no overlap on this axis any more.
                    pairs.remove(&ordered(id, other.id));
                }
            }
            list.swap(i - 1, i);
            slots[other.id as usize].index[axis][other.hi as usize] = i as u32;
            i -= 1;
            *swaps += 1;
        }
        // Toward the tail: `other` passes below `moving`.
        while i + 1 < list.len() && list[i + 1].before(&moving) {
            let other = list[i + 1];
            if other.id != id {
                if moving.hi && !other.hi {
                    // other's lo below our hi: an overlap on this axis may start.
                    start_if_overlapping(slots, pairs, id, other.id);
                } else if !moving.hi && other.hi {
                    // other's hi below our lo: no overlap on this axis any more.
                    pairs.remove(&ordered(id, other.id));
                }
            }
            list.swap(i, i + 1);
            slots[other.id as usize].index[axis][other.hi as usize] = i as u32;
            i += 1;
            *swaps += 1;
        }
        slots[id as usize].index[axis][hi as usize] = i as u32;
    }

    /// Checks every invariant: arrays sorted, indices consistent, and the pair set equal to
    /// the brute-force set of overlapping boxes.
    pub fn validate(&self) -> Result<(), String> {
        let present = self.slots.iter().filter(|s| s.present).count();
        for (axis, list) in self.axes.iter().enumerate() {
            if list.len() != 2 * present {
                return Err(format!("axis {axis}: {} ends for {present} boxes", list.len()));
            }
            for (i, e) in list.iter().enumerate() {
                if i > 0 && e.before(&list[i - 1]) {
                    return Err(format!("axis {axis}: ends {} and {i} out of order", i - 1));
                }
                let slot = self.slots.get(e.id as usize).ok_or("end of an unknown id")?;
                if !slot.present || slot.index[axis][e.hi as usize] as usize != i {
                    return Err(format!("axis {axis}: end {i} of box {} not indexed", e.id));
                }
                let expected = if e.hi { slot.bounds.hi[axis] } else { slot.bounds.lo[axis] };
                if e.value.to_bits() != expected.to_bits() {
                    return Err(format!("axis {axis}: end {i} of box {} has a stale value", e.id));
                }
            }
        }
        let brute = self.brute_force_pairs();
        if brute != self.pairs {
            let missing: Vec<_> = brute.difference(&self.pairs).collect();
            let extra: Vec<_> = self.pairs.difference(&brute).collect();
            return Err(format!("pair set wrong: missing {missing:?}, extra {extra:?}"));
        }
        Ok(())
    }

    /// Every overlapping pair, by testing all pairs (for checks).
    pub fn brute_force_pairs(&self) -> BTreeSet<(u32, u32)> {
        let live: Vec<(u32, &Aabb)> =
            self.slots.iter().enumerate().filter(|(_, s)| s.present).map(|(i, s)| (i as u32, &s.bounds)).collect();
        let mut out = BTreeSet::new();
        for (k, &(a, ba)) in live.iter().enumerate() {
            for &(b, bb) in &live[k + 1..] {
                if ba.overlaps(bb) {
                    out.insert((a, b));
                }
            }
        }
        out
    }
}

#[inline]
fn ordered(a: u32, b: u32) -> (u32, u32) {
    if a < b { (a, b) } else { (b, a) }
}

/// Adds the pair if the two boxes, as they are now, overlap on all axes.
#[inline]
fn start_if_overlapping(slots: &[Slot], pairs: &mut BTreeSet<(u32, u32)>, a: u32, b: u32) {
    if slots[a as usize].bounds.overlaps(&slots[b as usize].bounds) {
        pairs.insert(ordered(a, b));
    }
}

/// Rewrites the indices of the ends from `from` on (after an insertion or removal).
fn reindex(list: &[Endpoint], slots: &mut [Slot], axis: usize, from: usize) {
    for (i, e) in list.iter().enumerate().skip(from) {
        slots[e.id as usize].index[axis][e.hi as usize] = i as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SplitMix64: a small seeded generator for the randomised tests.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        /// Uniform in [0, 1).
        fn unit(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    fn cube(c: [f64; 3], r: f64) -> Aabb {
        Aabb { lo: c.map(|v| v - r), hi: c.map(|v| v + r) }
    }

    /// Coordinates on a coarse grid, so that ends often coincide exactly (ties).
    fn grid_box(rng: &mut Rng, span: u64) -> Aabb {
        let mut b = Aabb { lo: [0.0; 3], hi: [0.0; 3] };
        for k in 0..3 {
            let lo = rng.below(span) as f64 * 0.25;
            b.lo[k] = lo;
            b.hi[k] = lo + rng.below(5) as f64 * 0.25;
        }
        b
    }

    #[test]
    fn touching_boxes_overlap_and_separated_ones_do_not() {
        let mut sap = SweepAndPrune::new();
        sap.insert(0, cube([0.0; 3], 0.5));
        sap.insert(1, cube([1.0, 0.0, 0.0], 0.5));
        sap.insert(2, cube([2.0 + 1e-12, 0.0, 0.0], 0.5));
        assert_eq!(sap.pairs().iter().copied().collect::<Vec<_>>(), vec![(0, 1)]);
        sap.update(2, cube([2.0, 0.0, 0.0], 0.5));
        assert_eq!(sap.pairs().iter().copied().collect::<Vec<_>>(), vec![(0, 1), (1, 2)]);
        sap.validate().unwrap();
    }

    #[test]
    fn random_motion_matches_brute_force() {
        let mut rng = Rng(20240611);
        let mut sap = SweepAndPrune::new();
        let mut centres: Vec<Option<([f64; 3], f64)>> = Vec::new();
        for id in 0..40u32 {
            let c = [rng.unit() * 20.0, rng.unit() * 20.0, rng.unit() * 20.0];
            let r = 0.2 + rng.unit() * 2.0;
            sap.insert(id, cube(c, r));
            centres.push(Some((c, r)));
            sap.validate().unwrap();
        }
        let mut next_id = 40u32;
        for step in 0..600 {
            for (id, slot) in centres.iter_mut().enumerate() {
                let Some((mut c, r)) = *slot else {
                    continue;
                };
                match rng.below(20) {
                    // Teleport.
                    0 => c = [rng.unit() * 20.0, rng.unit() * 20.0, rng.unit() * 20.0],
                    // Stay put (the ends keep their bits).
                    1..=3 => {}
                    // Coherent motion.
                    _ => {
                        for v in &mut c {
                            *v += (rng.unit() - 0.5) * 0.6;
                        }
                    }
                }
                *slot = Some((c, r));
                sap.update(id as u32, cube(c, r));
            }
            if step % 50 == 7 {
                // Delete one box and add a new one under a fresh id.
                let victim = rng.below(centres.len() as u64) as usize;
                if centres[victim].take().is_some() {
                    assert!(sap.remove(victim as u32));
                    assert!(!sap.remove(victim as u32));
                }
                let c = [rng.unit() * 20.0, rng.unit() * 20.0, rng.unit() * 20.0];
                sap.insert(next_id, cube(c, 1.0));
                centres.push(Some((c, 1.0)));
                next_id += 1;
            }
            sap.validate().unwrap_or_else(|e| panic!("step {step}: {e}"));
        }
        assert!(sap.swaps() > 0);
    }

    #[test]
    fn ties_on_a_grid_match_brute_force() {
        let mut rng = Rng(7);
        let mut sap = SweepAndPrune::new();
        for id in 0..30u32 {
            sap.insert(id, grid_box(&mut rng, 12));
        }
        sap.validate().unwrap();
        for step in 0..2000 {
            let id = rng.below(30) as u32;
            let b = if rng.below(3) == 0 { *sap.bounds(id).unwrap() } else { grid_box(&mut rng, 12) };
            sap.update(id, b);
            sap.validate().unwrap_or_else(|e| panic!("step {step}: {e}"));
        }
    }

    #[test]
    fn an_end_that_moves_by_one_ulp_or_not_at_all_terminates() {
        // VCOLLIDE.md §5.6: lo changes while hi keeps its bits.
        let mut sap = SweepAndPrune::new();
        sap.insert(0, cube([0.0; 3], 1.0));
        sap.insert(1, cube([0.34, 0.0, 0.0], 1.0));
        let mut b = *sap.bounds(1).unwrap();
        b.lo[0] = f64::from_bits(b.lo[0].to_bits() - 1);
        sap.update(1, b);
        sap.update(1, b);
        b.hi[0] = f64::from_bits(b.hi[0].to_bits() + 1);
        sap.update(1, b);
        sap.validate().unwrap();
        // A box of zero width, lo == hi.
        sap.update(0, cube([0.0; 3], 0.0));
        sap.validate().unwrap();
        assert_eq!(sap.pairs().len(), 1);
    }
}
