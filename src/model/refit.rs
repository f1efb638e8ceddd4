//! Deformable models: new vertex positions for the same triangles, and the hierarchy refitted
//! bottom-up in linear time (cloth, soft bodies, skinned animation).
//!
//! A deformable model remembers its connectivity: the vertex indices of each triangle, kept in
//! leaf order beside the triangles (12 bytes a triangle, on deformable models only; a
//! triangle soup is taken as indexed with three vertices per triangle). An update writes the
//! new corners into the triangles and refits every node, children before parents:
//!
//! * a leaf is fitted afresh from its triangle as the build fits it (box on the triangle's
//!   own axes, smallest sphere), but for its swept-sphere rectangle: the box's cross-section,
//!   which on the triangle's own (flat) box is what the build's rectangle fit finds, up to
//!   rounding;
//! * an inner node takes the smaller of two boxes: on the axes it was built with, the
//!   extents holding its two children (each bounded by the smaller of its box's and its exact
//!   axis-aligned box's projections, so that looseness does not compound up the tree), or its
//!   vertices' exact axis-aligned box (which then refits exactly: axis-aligned boxes need no
//!   fitted axes, and a node already on the coordinate axes tries no other box); a sphere
//!   holding its children (the smaller of the sphere of their spheres and the sphere about
//!   its box's centre through their farthest box corners); and its box's cross-section as
//!   its swept-sphere rectangle.
//!
//! Every refitted number is rounded outward as the build's are (the same packing code,
//! `CollideNode::with_box` and `CollideNode::set_packed_sphere`, in a packed frame made
//! afresh around the new vertices), so every query stays exact: a refitted node holds all the
//! vertices below it, which [`Model::validate`] checks. Refitted inner boxes are looser than
//! built ones (boxes of boxes, on axes fitted to the old shape); [`RefitReport::degradation`]
//! measures by how much, and past [`Model::rebuild_threshold`] the update rebuilds the tree.
//!
//! **Tree cost** (the quality measure): the sum over inner nodes of the stored boxes' surface
//! areas, divided by the surface area of the vertices' axis-aligned bounding box. For random
//! query boxes the number of node visits grows with the summed surface areas (the surface-area
//! heuristic), and dividing by the model's own box makes the figure blind to translation and
//! uniform scaling. **Degradation** is the tree cost now over the tree cost of the last
//! build: 1 just after a build; refitting unmoved vertices already gives a little over 1
//! (boxes of boxes). The refit sums the tree cost as it goes, in the order
//! [`Model::tree_cost`] sums it, so an update makes one pass over the nodes.

use super::{BoxTree, LEAF_BIT, Model, corner_bounds, fit_margin, frame_and_magnitude, leaf_axes, slot_of};
use crate::bv::Obb;
use crate::bv::kdop::DopTree;
use crate::bv::obb::{CollideNode, NodePair, PackedFrame};
use crate::bv::sphere::Sphere;
use crate::math::{Mat3, Triangle, Vec3, box_surface};

/// The default [`Model::rebuild_threshold`]: an update rebuilds the tree when its
/// [degradation](RefitReport::degradation) exceeds this.
pub const DEFAULT_REBUILD_THRESHOLD: f64 = 2.0;

/// What a deformable model keeps besides an ordinary one.
#[derive(Clone, Debug)]
pub(crate) struct Deformable {
    /// Vertex indices of each triangle, parallel to the triangles (leaf order).
    faces: Vec<[u32; 3]>,
    num_vertices: usize,
    /// The tree cost of the last build.
    built_cost: f64,
    rebuild_threshold: f64,
    /// The k-DOP-18 tree of a k-DOP model ([`Model::set_kdop`]); `built_cost` is then its cost.
    dops: Option<DopTree>,
}

impl Deformable {
    /// Heap bytes besides the model's own arrays (the faces, and the box they sit in).
    pub(crate) fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Deformable>()
            + self.faces.capacity() * std::mem::size_of::<[u32; 3]>()
            + self.dops.as_ref().map_or(0, DopTree::memory_bytes)
    }
}

/// What an update did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RefitReport {
    /// The refitted tree's cost over the cost of the tree at its last build (see the module
    /// documentation): 1 is as good as built; 2 means the boxes' summed surface, relative to
    /// the model's size, doubled. Measured before any rebuild this update made.
    pub degradation: f64,
    /// Whether the update rebuilt the tree (degradation above the threshold).
    pub rebuilt: bool,
}

/// Why a deformable model could not be built or updated. On error nothing changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefitError {
    /// The model was not built deformable ([`Model::deformable`], [`Model::deformable_soup`]);
    /// models loaded from a serialized form and legacy models are not.
    NotDeformable,
    /// `update_vertices` needs exactly one position per vertex of the model.
    WrongLength {
        /// The model's number of vertices.
        expected: usize,
        /// The number of positions given.
        got: usize,
    },
    /// A subset update's index and position arrays differ in length.
    LengthMismatch,
    /// A vertex index is not below the number of vertices.
    IndexOutOfRange,
    /// A subset update names a vertex twice.
    DuplicateIndex,
    /// A coordinate was NaN or infinite.
    NonFiniteCoordinate,
    /// A coordinate beyond the supported range (2^1000).
    OutOfRange,
    /// A model needs at least one triangle.
    EmptyModel,
    /// More triangles or vertices than a model can index (2^31 − 1).
    TooMany,
    /// A rebuild threshold must be at least 1 (or infinite: never rebuild), not NaN.
    InvalidThreshold,
}

impl std::fmt::Display for RefitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RefitError::NotDeformable => f.write_str("the model was not built deformable"),
            RefitError::WrongLength { expected, got } => {
                write!(f, "expected {expected} vertex positions, got {got}")
            }
            RefitError::LengthMismatch => f.write_str("the index and position arrays differ in length"),
            RefitError::IndexOutOfRange => f.write_str("a vertex index is out of range"),
            RefitError::DuplicateIndex => f.write_str("a vertex index appears twice"),
            RefitError::NonFiniteCoordinate => f.write_str("a coordinate is NaN or infinite"),
            RefitError::OutOfRange => {
                f.write_str("a coordinate is beyond 2^1000 (about 1.07e301), the supported range")
            }
            RefitError::EmptyModel => f.write_str("a model needs at least one triangle"),
            RefitError::TooMany => f.write_str("too many triangles or vertices (limit 2^31 - 1)"),
            RefitError::InvalidThreshold => f.write_str("a rebuild threshold must be at least 1, or infinite"),
        }
    }
}

impl std::error::Error for RefitError {}

impl From<super::BuildError> for RefitError {
    fn from(e: super::BuildError) -> RefitError {
        match e {
            super::BuildError::EmptyModel => RefitError::EmptyModel,
            super::BuildError::NonFiniteCoordinate => RefitError::NonFiniteCoordinate,
            super::BuildError::TooManyTriangles => RefitError::TooMany,
            super::BuildError::OutOfRange => RefitError::OutOfRange,
            super::BuildError::IdCountMismatch { triangles, ids } => {
                RefitError::WrongLength { expected: triangles, got: ids }
            }
            super::BuildError::IndexOutOfRange => RefitError::IndexOutOfRange,
        }
    }
}

fn check_point(p: &Vec3) -> Result<(), RefitError> {
    if !p.iter().all(|v| v.is_finite()) {
        Err(RefitError::NonFiniteCoordinate)
    } else if p.amax() > crate::math::RANGE_LIMIT {
        Err(RefitError::OutOfRange)
    } else {
        Ok(())
    }
}

impl Model {
    /// A deformable model over `vertices` and the triangles `faces` (vertex indices), triangle
    /// k reporting `ids[k]` (k when `ids` is `None`). Every vertex must be finite and within
    /// range, used by a triangle or not. Costs 12 bytes a triangle more than [`Model::new`]
    /// (the faces, kept in leaf order).
    pub fn deformable(vertices: &[Vec3], faces: &[[u32; 3]], ids: Option<Vec<i32>>) -> Result<Model, RefitError> {
        if faces.is_empty() {
            return Err(RefitError::EmptyModel);
        }
        if faces.len() >= (LEAF_BIT - 1) as usize || vertices.len() > u32::MAX as usize {
            return Err(RefitError::TooMany);
        }
        if let Some(ids) = &ids {
            if ids.len() != faces.len() {
                return Err(RefitError::WrongLength { expected: faces.len(), got: ids.len() });
            }
        }
        vertices.iter().try_for_each(check_point)?;
        if faces.iter().flatten().any(|&v| v as usize >= vertices.len()) {
            return Err(RefitError::IndexOutOfRange);
        }
        let triangles = faces.iter().map(|f| f.map(|v| vertices[v as usize])).collect();
        // Built with the triangles' input positions as ids, which the build carries into leaf
        // order: the faces and the caller's ids follow them.
        let mut model = Model::new(triangles, (0..faces.len() as i32).collect())?;
        let order = std::mem::take(&mut model.ids);
        model.ids = match ids {
            Some(ids) => order.iter().map(|&k| ids[k as usize]).collect(),
            None => order.clone(),
        };
        let faces = order.iter().map(|&k| faces[k as usize]).collect();
        let rebuild_threshold = DEFAULT_REBUILD_THRESHOLD;
        model.deform = Some(Box::new(Deformable {
            faces,
            num_vertices: vertices.len(),
            built_cost: 0.0,
            rebuild_threshold,
            dops: None,
        }));
        model.deform.as_mut().expect("just set").built_cost = model.tree_cost();
        Ok(model)
    }

    /// A deformable triangle soup: vertex `3k + c` is corner c of triangle k (the order given
    /// here), so `update_vertices` takes `3 * num_triangles` positions.
    pub fn deformable_soup(triangles: &[Triangle], ids: Option<Vec<i32>>) -> Result<Model, RefitError> {
        if triangles.len() >= (LEAF_BIT - 1) as usize / 3 {
            return Err(RefitError::TooMany);
        }
        let vertices: Vec<Vec3> = triangles.iter().flatten().copied().collect();
        let faces: Vec<[u32; 3]> = (0..triangles.len() as u32).map(|k| [3 * k, 3 * k + 1, 3 * k + 2]).collect();
        Model::deformable(&vertices, &faces, ids)
    }

    /// Whether the model can be updated ([`Model::update_vertices`]).
    pub fn is_deformable(&self) -> bool {
        self.deform.is_some()
    }

    /// Number of vertices of a deformable model (0 for another).
    pub fn num_vertices(&self) -> usize {
        self.deform.as_ref().map_or(0, |d| d.num_vertices)
    }

    /// Vertex indices of the triangles of a deformable model, parallel to
    /// [`Model::triangles`] (leaf order).
    pub fn faces(&self) -> Option<&[[u32; 3]]> {
        self.deform.as_ref().map(|d| &d.faces[..])
    }

    /// The degradation past which an update rebuilds the tree ([`DEFAULT_REBUILD_THRESHOLD`]
    /// unless set); infinite for models that are not deformable.
    pub fn rebuild_threshold(&self) -> f64 {
        self.deform.as_ref().map_or(f64::INFINITY, |d| d.rebuild_threshold)
    }

    /// Sets [`Model::rebuild_threshold`]: at least 1, or `f64::INFINITY` to rebuild only on
    /// request ([`Model::rebuild`]).
    pub fn set_rebuild_threshold(&mut self, threshold: f64) -> Result<(), RefitError> {
        let d = self.deform.as_mut().ok_or(RefitError::NotDeformable)?;
        #[allow(clippy::neg_cmp_op_on_partial_ord)] // also refuses NaN
        if !(threshold >= 1.0) {
            return Err(RefitError::InvalidThreshold);
        }
        d.rebuild_threshold = threshold;
        Ok(())
    }

    /// The current tree's [degradation](RefitReport::degradation).
    pub fn degradation(&self) -> Result<f64, RefitError> {
        let d = self.deform.as_ref().ok_or(RefitError::NotDeformable)?;
        Ok(degradation(self.current_cost(), d.built_cost))
    }

    /// The cost of the tree that updates refit: the k-DOP tree's on a k-DOP model, the box
    /// tree's otherwise.
    fn current_cost(&self) -> f64 {
        match self.deform.as_ref().and_then(|d| d.dops.as_ref()) {
            Some(dops) => dops.cost(),
            None => self.tree_cost(),
        }
    }

    /// Whether this is a k-DOP model ([`Model::set_kdop`]).
    pub fn is_kdop(&self) -> bool {
        self.kdop_tree().is_some()
    }

    /// The k-DOP-18 tree of a k-DOP model.
    pub(crate) fn kdop_tree(&self) -> Option<&DopTree> {
        self.deform.as_ref().and_then(|d| d.dops.as_ref())
    }

    /// The k-DOP tree collide uses against a k-DOP model: the model's own if it is one, else
    /// one built over its box tree on first use and kept (until its vertices move).
    pub(crate) fn kdop_tree_for_collide(&self) -> &DopTree {
        match self.kdop_tree() {
            Some(dops) => dops,
            None => self.partner_dops.get_or_init(|| DopTree::new(self.tree_structure(), &self.triangles)),
        }
    }

    /// Turns the k-DOP option of a deformable model on or off.
    ///
    /// **On**, the model also keeps a k-DOP-18 tree (18 fixed directions: the axes and the
    /// 6 diagonals of the coordinate planes, as in QuickCD) over the box tree's structure, 296
    /// bytes a triangle more. An update then refits only the k-DOPs, exactly (no fitted axes
    /// to loosen): about 15 times faster than refitting the oriented boxes. The k-DOPs serve
    /// [`crate::query::collide()`] when either model is a k-DOP model and their placements differ by a
    /// translation only (the relative rotation exactly the identity and the same scale: for
    /// example both placed with the identity rotation, as vertices simulated in world
    /// coordinates are), and [`crate::query::self_collide()`] always; the answers are those of
    /// the box tree (the same exact triangle test on the same transformed vertices), found in
    /// another order. (The other model, if it is not a k-DOP model, gets k-DOPs of its own on
    /// first use, 296 bytes a triangle, kept until its vertices move: a cloth with the option
    /// against a still body pays its k-DOP refit only.) Every other query (distance, tolerance, collide in other placements,
    /// rays, points, sweeps) uses the box tree, which the first such query after an update
    /// refits (once; [`Model::update_vertices`] documents the cost). [`Model::degradation`]
    /// then measures the k-DOP tree (its axis-aligned boxes, by the same measure).
    ///
    /// **Off**, the box tree is brought up to date and the k-DOPs dropped.
    ///
    /// Refused with [`RefitError::NotDeformable`] for a model not built deformable.
    pub fn set_kdop(&mut self, on: bool) -> Result<(), RefitError> {
        if self.deform.is_none() {
            return Err(RefitError::NotDeformable);
        }
        let dops = on.then(|| DopTree::new(self.tree_structure(), &self.triangles));
        self.boxes_mut(); // the box tree current before the k-DOPs (if any) go
        let d = self.deform.as_mut().expect("a deformable model");
        d.dops = dops;
        self.partner_dops = std::sync::OnceLock::new();
        let cost = self.current_cost();
        self.deform.as_mut().expect("a deformable model").built_cost = cost;
        Ok(())
    }

    /// The box tree's structure as [`DopTree`] takes it: node `i`'s first child, or
    /// `LEAF_BIT | triangle`.
    fn tree_structure(&self) -> Vec<u32> {
        let slots = self.collide_slots();
        (0..self.num_nodes())
            .map(|i| {
                let (slot, lane) = slot_of(i);
                slots[slot].payload[lane]
            })
            .collect()
    }

    /// The box tree, current: refitted first if it is stale.
    fn boxes_mut(&mut self) -> &mut BoxTree {
        self.boxes();
        self.boxes.current.get_mut().expect("the box tree was just made current")
    }

    /// Moves every vertex: `vertices[v]` is vertex v's new position (one per vertex the model
    /// was built with, used or not), and refits the tree (linear time), rebuilding it when
    /// the degradation passes [`Model::rebuild_threshold`]. On error nothing changed.
    ///
    /// The model must not be queried while this runs (`&mut self`; the C API detects it).
    pub fn update_vertices(&mut self, vertices: &[Vec3]) -> Result<RefitReport, RefitError> {
        let d = self.deform.as_ref().ok_or(RefitError::NotDeformable)?;
        if vertices.len() != d.num_vertices {
            return Err(RefitError::WrongLength { expected: d.num_vertices, got: vertices.len() });
        }
        vertices.iter().try_for_each(check_point)?;
        for (t, f) in self.triangles.iter_mut().zip(&d.faces) {
            *t = f.map(|v| vertices[v as usize]);
        }
        Ok(self.after_move())
    }

    /// Moves the vertices `indices[k]` to `positions[k]` (each index below
    /// [`Model::num_vertices`], none twice), the others staying, and refits as
    /// [`Model::update_vertices`]. Time linear in the model's size (the whole tree is
    /// refitted). On error nothing changed.
    pub fn update_vertex_subset(&mut self, indices: &[u32], positions: &[Vec3]) -> Result<RefitReport, RefitError> {
        let d = self.deform.as_ref().ok_or(RefitError::NotDeformable)?;
        if indices.len() != positions.len() {
            return Err(RefitError::LengthMismatch);
        }
        positions.iter().try_for_each(check_point)?;
        // slot[v]: where vertex v's new position is in `positions` (NONE: unmoved).
        const NONE: u32 = u32::MAX;
        let mut slot = vec![NONE; d.num_vertices];
        for (k, &v) in indices.iter().enumerate() {
            let s = slot.get_mut(v as usize).ok_or(RefitError::IndexOutOfRange)?;
            if *s != NONE {
                return Err(RefitError::DuplicateIndex);
            }
            *s = k as u32;
        }
        for (t, f) in self.triangles.iter_mut().zip(&d.faces) {
            for c in 0..3 {
                let s = slot[f[c] as usize];
                if s != NONE {
                    t[c] = positions[s as usize];
                }
            }
        }
        Ok(self.after_move())
    }

    /// Rebuilds the tree of a deformable model from its current positions: the model
    /// [`Model::new`] builds from its triangles and ids in their current (leaf) order. Resets
    /// the degradation to 1.
    pub fn rebuild(&mut self) -> Result<(), RefitError> {
        if self.deform.is_none() {
            return Err(RefitError::NotDeformable);
        }
        self.rebuild_in_place();
        Ok(())
    }

    /// Refits after the triangles moved (the k-DOPs of a k-DOP model, its box tree left to
    /// be refitted when a query needs it; the box tree otherwise); rebuilds past the
    /// threshold.
    fn after_move(&mut self) -> RefitReport {
        self.solid = std::sync::OnceLock::new();
        self.partner_dops = std::sync::OnceLock::new();
        let d = self.deform.as_mut().expect("a deformable model");
        let cost = if let Some(dops) = d.dops.as_mut() {
            dops.refit(&self.triangles);
            self.magnitude = dops.magnitude();
            if let Some(tree) = self.boxes.current.take() {
                *self.boxes.stale.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(tree);
            }
            dops.cost()
        } else {
            let tree = self.boxes.current.get_mut().expect("a model without k-DOPs keeps its box tree current");
            let refitted = refit_boxes(tree, &self.triangles);
            self.magnitude = refitted.magnitude;
            refitted.cost
        };
        let d = self.deform.as_ref().expect("a deformable model");
        let report = RefitReport { degradation: degradation(cost, d.built_cost), rebuilt: false };
        if report.degradation > d.rebuild_threshold {
            self.rebuild_in_place();
            return RefitReport { rebuilt: true, ..report };
        }
        report
    }

    /// Builds the tree afresh over the current triangles, carrying the faces and ids into the
    /// new leaf order.
    fn rebuild_in_place(&mut self) {
        let mut order: Vec<i32> = (0..self.triangles.len() as i32).collect();
        let (frame, magnitude) = frame_and_magnitude(&self.triangles);
        let slots = super::build_tree(&mut self.triangles, &mut order, &frame);
        self.boxes = super::LazyBoxes::fresh(BoxTree { slots, frame });
        self.magnitude = magnitude;
        self.solid = std::sync::OnceLock::new();
        self.partner_dops = std::sync::OnceLock::new();
        self.ids = order.iter().map(|&k| self.ids[k as usize]).collect();
        let structure = self.is_kdop().then(|| self.tree_structure());
        let d = self.deform.as_mut().expect("a deformable model");
        d.faces = order.iter().map(|&k| d.faces[k as usize]).collect();
        if let Some(structure) = structure {
            d.dops = Some(DopTree::new(structure, &self.triangles));
        }
        let cost = self.current_cost();
        self.deform.as_mut().expect("a deformable model").built_cost = cost;
    }

    /// The tree cost (module documentation) of the same tree with each node's exact
    /// axis-aligned box of its vertices instead of its oriented box: what an axis-aligned
    /// hierarchy of this topology, refitted exactly, would cost. For measurements (the refit
    /// benchmark compares it with [`Model::tree_cost`]); any model, linear time.
    pub fn aabb_tree_cost(&self) -> f64 {
        let unit = self.packed_frame().unit;
        let area = |lo: &Vec3, hi: &Vec3| box_surface(&((hi - lo) / unit));
        let mut sum = 0.0;
        let mut walk: Vec<(u32, bool)> = vec![(0, false)];
        let mut finished: Vec<(Vec3, Vec3)> = Vec::new();
        while let Some((i, expanded)) = walk.pop() {
            let (slot, lane) = slot_of(i as usize);
            let pair = &self.collide_slots()[slot];
            if pair.is_leaf(lane) {
                let t = &self.triangles[pair.triangle(lane)];
                finished.push((t[0].inf(&t[1]).inf(&t[2]), t[0].sup(&t[1]).sup(&t[2])));
            } else if !expanded {
                let c = pair.first_child(lane);
                walk.extend([(i, true), (c + 1, false), (c, false)]);
            } else {
                let (r, l) = (finished.pop().expect("a child"), finished.pop().expect("a child"));
                let (lo, hi) = (l.0.inf(&r.0), l.1.sup(&r.1));
                sum += area(&lo, &hi);
                finished.push((lo, hi));
            }
        }
        let (lo, hi) = finished.pop().expect("the root");
        sum / area(&lo, &hi).max(1e-12)
    }

    /// The tree cost (module documentation): summed surface of the inner nodes' stored boxes
    /// over the surface of the vertices' axis-aligned box, both in packed units. Any model.
    pub fn tree_cost(&self) -> f64 {
        // Summed in post-order (children's subtrees before the node), the order in which the
        // refit sums it as it goes: an update's degradation equals `degradation()` after it.
        let mut sum = 0.0;
        let mut walk: Vec<(u32, bool)> = vec![(0, false)];
        while let Some((i, expanded)) = walk.pop() {
            let (slot, lane) = slot_of(i as usize);
            let pair = &self.collide_slots()[slot];
            if pair.is_leaf(lane) {
                continue;
            }
            if expanded {
                sum += inner_area(&[pair.half[0].0[lane], pair.half[1].0[lane], pair.half[2].0[lane]]);
            } else {
                let c = pair.first_child(lane);
                walk.extend([(i, true), (c + 1, false), (c, false)]);
            }
        }
        let (lo, hi) = corner_bounds(&self.triangles);
        cost_ratio(sum, &lo, &hi, self.packed_frame())
    }
}

/// What [`refit_boxes`] measured on the way.
pub(super) struct Refitted {
    /// The refitted tree's cost (the number [`Model::tree_cost`] gives, summed in the same
    /// order), so that an update needs no second pass over the nodes.
    pub(super) cost: f64,
    /// The triangles' magnitude (largest absolute coordinate).
    pub(super) magnitude: f64,
}

/// Refits every node of `tree` to `triangles` (leaf order; children before parents), in a
/// packed frame made afresh around them.
pub(super) fn refit_boxes(tree: &mut BoxTree, triangles: &[Triangle]) -> Refitted {
    // One pass for the frame and the magnitude (they depend on the corners' bounding box
    // only, as in `Model::from_packed`).
    let (lo, hi) = corner_bounds(triangles);
    let frame = PackedFrame::around([lo, hi].into_iter());
    tree.frame = frame;
    let magnitude = lo.amax().max(hi.amax());
    let slots = &mut tree.slots;
    // Post-order walk: `finished` holds the bounds of finished nodes whose parents are not
    // finished, in order. (Children are numbered after their parent but not in an order a
    // reverse pass over the indices could finish with a stack: a node's right sibling gets
    // its children's indices after the node's whole subtree.)
    let mut walk: Vec<(u32, bool)> = Vec::with_capacity(64);
    walk.push((0, false));
    let mut finished: Vec<Bounds> = Vec::with_capacity(64);
    let mut cost = 0.0;
    while let Some((i, expanded)) = walk.pop() {
        let i = i as usize;
        let (slot, lane) = slot_of(i);
        let payload = slots[slot].payload[lane];
        if payload & LEAF_BIT != 0 {
            let k = (payload & !LEAF_BIT) as usize;
            let t = &triangles[k];
            // The build's box (`fit_node`'s), without its swept-sphere rectangle: on the
            // triangle's own axes the box is flat, so the rectangle fitted there is the
            // box's cross-section (which `with_box` stores) but for the rounding, and
            // `set_rect` grows it by more than that (1e-6 of its lengths against about 1e-7
            // of the box's): the fit and its check were a sixth of the refit's time.
            let corners = t.iter().copied();
            let obb = Obb::fit(&leaf_frame(t), corners.clone(), fit_margin(corners));
            let mut packed = CollideNode::with_box(&obb, &frame, LEAF_BIT | k as u32);
            packed.set_sphere(&Sphere::enclosing(t, &obb), &frame);
            write(slots, i, &packed);
            let (lo, hi) = (t[0].inf(&t[1]).inf(&t[2]), t[0].sup(&t[1]).sup(&t[2]));
            finished.push(Bounds { obb, lo, hi });
            continue;
        }
        let c = payload;
        if !expanded {
            walk.extend([(i as u32, true), (c + 1, false), (c, false)]);
            continue;
        }
        // The children's bounds, the last two finished, read in place (not popped: they
        // are 336 bytes, and copies were a fair part of the walk's time).
        let two = finished.len().checked_sub(2).expect("the children's bounds");
        let children: &[Bounds; 2] = finished[two..].try_into().expect("two bounds");
        // The built axes (boxes of the children's bounds on them) or the coordinate axes
        // (the children's exact axis-aligned bounds), whichever box is smaller: a node
        // whose built axes no longer fit its vertices turns axis-aligned, which refits
        // exactly from then on (until a rebuild).
        let reach = reach(children);
        let aligned = aligned_box(children, reach, magnitude);
        // A node already on the coordinate axes (most of a draped cloth's after a frame or
        // two) has no other box to try: its oriented box would be the aligned one again.
        let obb = if on_coordinate_axes(&slots[slot], lane) {
            aligned
        } else {
            let oriented = enclosing_box(&stored_axes(&slots[slot], lane), children, reach, magnitude);
            // (Chosen by index, not by a branch: which box wins is data, not habit.)
            *[&oriented, &aligned][usize::from(surface(&aligned) < surface(&oriented))]
        };
        let mut packed = CollideNode::with_box(&obb, &frame, c);
        cost += inner_area(&packed.half);
        let child_pair = &slots[slot_of(c as usize).0];
        let (centre, err, radius) =
            smaller(enclosing_sphere(child_pair), sphere_about(&obb.center, child_pair, children, &frame));
        packed.set_packed_sphere(&centre, err, radius);
        write(slots, i, &packed);
        let (lo, hi) = (children[0].lo.inf(&children[1].lo), children[0].hi.sup(&children[1].hi));
        finished.truncate(two);
        finished.push(Bounds { obb, lo, hi });
    }
    Refitted { cost: cost_ratio(cost, &lo, &hi, &frame), magnitude }
}

/// An inner node's term of the tree cost: its stored box's surface area (packed units).
#[inline]
fn inner_area(h: &[f32; 3]) -> f64 {
    let h = [h[0] as f64, h[1] as f64, h[2] as f64];
    8.0 * (h[0] * h[1] + h[1] * h[2] + h[2] * h[0])
}

/// The tree cost: the summed inner-node surface `sum` over the surface of the box `lo..hi`
/// (both in the packed units of `frame`).
fn cost_ratio(sum: f64, lo: &Vec3, hi: &Vec3, frame: &PackedFrame) -> f64 {
    sum / box_surface(&((hi - lo) / frame.unit)).max(1e-12)
}

/// What the refit knows of a finished node: its box (model frame), and the exact
/// axis-aligned bounds of its vertices.
#[derive(Clone, Copy)]
struct Bounds {
    obb: Obb,
    lo: Vec3,
    hi: Vec3,
}

fn degradation(cost: f64, built: f64) -> f64 {
    if built > 0.0 && cost.is_finite() { cost / built } else { 1.0 }
}

fn write(slots: &mut [NodePair], node: usize, packed: &CollideNode) {
    if node == 0 {
        slots[0].set_lane(0, packed);
        slots[0].set_lane(1, packed);
    } else {
        let (slot, lane) = slot_of(node);
        slots[slot].set_lane(lane, packed);
    }
}

/// The build's leaf axes ([`leaf_axes`]: the longest edge, the normal third), by a plain
/// Gram-Schmidt step where nothing can underflow or overflow: `orthonormal_frame`'s rescaling
/// divisions were a ninth of the refit's time. The axes are orthonormal to about 1e-15 either
/// way (the box's fit needs 1e-9), and may differ from the build's by a few ulps.
#[inline]
#[allow(clippy::neg_cmp_op_on_partial_ord)] // `!(x >= y)` deliberately also takes NaN to `leaf_axes`
fn leaf_frame(t: &Triangle) -> Mat3 {
    let edges = [t[1] - t[0], t[2] - t[1], t[0] - t[2]];
    let n2 = [edges[0].norm_squared(), edges[1].norm_squared(), edges[2].norm_squared()];
    // The last of the longest, as `max_by` picks (by arithmetic: a branch here mispredicts).
    let last = (n2[2] >= n2[1]) & (n2[2] >= n2[0]);
    let longest = 2 * usize::from(last) + usize::from(!last & (n2[1] >= n2[0]));
    let (x, x2) = (edges[longest], n2[longest]);
    let in_plane = edges[0].cross(&edges[1]).cross(&x);
    let p2 = in_plane.norm_squared();
    // Squares well within range (and not NaN): no underflow or overflow below.
    const LOW: f64 = 1e-280;
    const HIGH: f64 = 1e280;
    if !(x2 > LOW && x2 < HIGH && p2 > LOW && p2 < HIGH) {
        return leaf_axes(t);
    }
    let x = x * (1.0 / x2.sqrt());
    let y = in_plane - x * x.dot(&in_plane);
    let y2 = y.norm_squared();
    // `in_plane` is normal to the edge up to rounding, so `y` is nearly all of it; otherwise
    // (rounding dominating a tiny normal) the general frame.
    if !(y2 >= 0.25 * p2) {
        return leaf_axes(t);
    }
    let y = y * (1.0 / y2.sqrt());
    let z = x.cross(&y);
    Mat3::from_columns(&[x, z.cross(&x), z])
}

/// Whether the box axes stored in lane `lane` of `pair` are the coordinate axes (in some
/// order and directions: every entry 0, 1 or -1).
#[inline]
fn on_coordinate_axes(pair: &NodePair, lane: usize) -> bool {
    pair.frame.iter().flat_map(|row| &row[..3]).all(|v| v.0[lane] * v.0[lane] == v.0[lane].abs())
}

/// The box axes stored in lane `lane` of `pair`, made orthonormal in `f64` (Gram-Schmidt:
/// stored axes are unit and orthogonal to about 1e-7, so nothing degenerates; the general
/// `orthonormal_frame` was a quarter of the refit's time).
fn stored_axes(pair: &NodePair, lane: usize) -> Mat3 {
    let axis = |i: usize| {
        Vec3::new(pair.frame[0][i].0[lane] as f64, pair.frame[1][i].0[lane] as f64, pair.frame[2][i].0[lane] as f64)
    };
    let x = axis(0).normalize();
    let y = axis(1);
    let y = (y - x * x.dot(&y)).normalize();
    let z = x.cross(&y);
    Mat3::from_columns(&[x, y, z])
}

/// The box on `axes` (orthonormal) holding the vertices of `children`, grown by more than
/// the rounding of the projections. Along each axis a child's vertices project within both its
/// box's and its axis-aligned box's projections: the smaller of the two is taken, so that the
/// looseness of boxes of boxes does not compound up the tree (the axis-aligned bounds are
/// exact at every level). `reach` is [`reach`] of the children.
fn enclosing_box(axes: &Mat3, children: &[Bounds; 2], reach: f64, magnitude: f64) -> Obb {
    let mut lo = Vec3::repeat(f64::INFINITY);
    let mut hi = Vec3::repeat(f64::NEG_INFINITY);
    for b in children {
        let (aabb_centre, aabb_half) = ((b.lo + b.hi) * 0.5, (b.hi - b.lo) * 0.5);
        for a in 0..3 {
            let axis = axes.column(a);
            let centre = axis.dot(&b.obb.center);
            let radius: f64 = (0..3).map(|j| axis.dot(&b.obb.axes.column(j)).abs() * b.obb.half[j]).sum();
            let aligned_centre = axis.dot(&aabb_centre);
            let aligned_radius: f64 = (0..3).map(|j| axis[j].abs() * aabb_half[j]).sum();
            lo[a] = lo[a].min((centre - radius).max(aligned_centre - aligned_radius));
            hi[a] = hi[a].max((centre + radius).min(aligned_centre + aligned_radius));
        }
    }
    let mid = (lo + hi) * 0.5;
    Obb { axes: *axes, center: axes * mid, half: (hi - lo) * 0.5 + Vec3::repeat(box_margin(reach, magnitude)) }
}

/// [`enclosing_box`] on the coordinate axes, which need no projections: the same numbers
/// (a product by 1 or 0 is exact, so each projection there is the coordinate itself).
fn aligned_box(children: &[Bounds; 2], reach: f64, magnitude: f64) -> Obb {
    let mut lo = Vec3::repeat(f64::INFINITY);
    let mut hi = Vec3::repeat(f64::NEG_INFINITY);
    for b in children {
        let (aabb_centre, aabb_half) = ((b.lo + b.hi) * 0.5, (b.hi - b.lo) * 0.5);
        let (axes, half) = (&b.obb.axes, &b.obb.half);
        for a in 0..3 {
            let centre = b.obb.center[a];
            let radius = axes[(a, 0)].abs() * half[0] + axes[(a, 1)].abs() * half[1] + axes[(a, 2)].abs() * half[2];
            let (aligned_centre, aligned_radius) = (aabb_centre[a], aabb_half[a]);
            lo[a] = lo[a].min((centre - radius).max(aligned_centre - aligned_radius));
            hi[a] = hi[a].max((centre + radius).min(aligned_centre + aligned_radius));
        }
    }
    let mid = (lo + hi) * 0.5;
    Obb { axes: Mat3::identity(), center: mid, half: (hi - lo) * 0.5 + Vec3::repeat(box_margin(reach, magnitude)) }
}

/// The largest coordinate a child's bounds reach (for [`box_margin`]).
fn reach(children: &[Bounds; 2]) -> f64 {
    let mut reach: f64 = 0.0;
    for b in children {
        reach = reach.max(b.obb.center.amax() + b.obb.half.sum()).max(b.lo.amax()).max(b.hi.amax());
    }
    reach
}

/// The growth of a box of boxes: the children's axes are orthonormal only to rounding
/// (relative 1e-15 of their extents), and the projections, the midpoint and its return to the
/// model frame each round by a few ulps of the coordinates' magnitude.
fn box_margin(reach: f64, magnitude: f64) -> f64 {
    1e-12 * reach + 64.0 * f64::EPSILON * (magnitude + reach)
}

/// A box's surface area over 8.
fn surface(b: &Obb) -> f64 {
    let h = &b.half;
    h.x * h.y + h.y * h.z + h.z * h.x
}

/// The one of two spheres (centre, its rounding, radius) with the smaller reach.
fn smaller(a: (Vec3, f64, f64), b: (Vec3, f64, f64)) -> (Vec3, f64, f64) {
    // (By index, not by a branch: which sphere wins is data, not habit.)
    [a, b][usize::from(b.1 + b.2 < a.1 + a.2)]
}

/// A sphere about `centre` (model frame) holding the vertices of `children` (their packed
/// spheres, lanes 0 and 1 of `spheres`, and their exact axis-aligned boxes): per child, the
/// nearer of its sphere's far side and its box's farthest corner. The axis-aligned term is
/// exact at every level, so that spheres of spheres do not loosen up the tree. Packed
/// coordinates, as [`enclosing_sphere`].
fn sphere_about(centre: &Vec3, spheres: &NodePair, children: &[Bounds; 2], frame: &PackedFrame) -> (Vec3, f64, f64) {
    // (`unit` is a power of two: the products by its inverse are the quotients, and cheaper.)
    let inverse = 1.0 / frame.unit;
    let packed = |p: &Vec3| (p - frame.origin) * inverse;
    // Rounding of a packed coordinate: a few ulps of the model-frame magnitudes, in units.
    let ulps = |p: &Vec3| 8.0 * f64::EPSILON * (p.amax() + frame.origin.amax()) * inverse;
    let c = packed(centre);
    let c_err = ulps(centre);
    let mut radius: f64 = 0.0;
    for (l, child) in children.iter().enumerate() {
        let v = |k: usize| spheres.sphere[k].0[l] as f64;
        let through_sphere = (Vec3::new(v(0), v(1), v(2)) - c).norm() * (1.0 + 4.0 * f64::EPSILON) + v(3);
        let (lo, hi) = (packed(&child.lo), packed(&child.hi));
        let far = Vec3::new(
            (c.x - lo.x).abs().max((hi.x - c.x).abs()),
            (c.y - lo.y).abs().max((hi.y - c.y).abs()),
            (c.z - lo.z).abs().max((hi.z - c.z).abs()),
        );
        let through_box = far.norm() * (1.0 + 4.0 * f64::EPSILON) + 2.0 * (ulps(&child.lo) + ulps(&child.hi));
        radius = radius.max(through_sphere.min(through_box));
    }
    (c, c_err, radius)
}

/// A sphere (packed centre, a bound on its rounding, packed radius) holding the two spheres
/// stored in `children` (a node's two children, lanes 0 and 1), each of which holds its
/// vertices exactly.
fn enclosing_sphere(children: &NodePair) -> (Vec3, f64, f64) {
    let s = |l: usize| {
        let v = |k: usize| children.sphere[k].0[l] as f64;
        (Vec3::new(v(0), v(1), v(2)), v(3))
    };
    let ((c1, r1), (c2, r2)) = (s(0), s(1));
    let d = (c2 - c1).norm() * (1.0 + 4.0 * f64::EPSILON);
    if d + r2 <= r1 {
        return (c1, 0.0, r1);
    }
    if d + r1 <= r2 {
        return (c2, 0.0, r2);
    }
    let radius = 0.5 * (d + r1 + r2);
    let centre = c1 + (c2 - c1) * ((radius - r1) / d);
    let err = 16.0 * f64::EPSILON * (c1.amax() + c2.amax() + radius);
    (centre, err, radius)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// The refit's leaf axes are orthonormal far within the 1e-9 `with_box` needs, first along
    /// the longest edge as the build's are, and their box holds the triangle, whatever the
    /// triangle: ordinary, slivers and zero-area ones, tiny ones, at every scale (the fast
    /// path's and the fallback's ranges) and far from the origin.
    #[test]
    fn leaf_frames_are_orthonormal_and_their_boxes_hold_the_triangle() {
        let mut rng = Rng(0x5eed);
        let scales =
            [(1.0, 0.0), (1e-150, 0.0), (1e-140, 1e-138), (1e140, 0.0), (1e150, 0.0), (1.0, 1e12), (1e-9, 1e6)];
        for kind in 0..3 {
            for &(size, offset) in &scales {
                for t in rng.soup(500, kind, Vec3::repeat(offset), size) {
                    let axes = leaf_frame(&t);
                    let off = (axes.transpose() * axes - Mat3::identity()).amax();
                    assert!(off <= 1e-13, "{t:?}: axes off orthonormal by {off}");
                    assert!(axes.determinant() > 0.0, "{t:?}: left-handed axes");
                    let built = leaf_axes(&t);
                    let along = axes.column(0).dot(&built.column(0)).abs();
                    assert!(along >= 1.0 - 1e-12, "{t:?}: first axis off the longest edge ({along})");
                    let obb = Obb::fit(&axes, t.iter().copied(), fit_margin(t.iter().copied()));
                    let tol = 1e-15 * t.iter().map(|p| p.amax()).fold(0.0, f64::max);
                    assert!(t.iter().all(|p| obb.contains(p, tol)), "{t:?}: box misses a corner");
                }
            }
        }
    }
}
