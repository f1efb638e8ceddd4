//! Triangle soups and the bounding-volume hierarchy built over them.
//!
//! One tree serves every query: each node has an oriented box (collision), its smallest
//! bounding sphere, and the rectangle of a swept sphere (distance, tolerance) on the box's
//! axes. The model holds the nodes only as the queries read them, packed two siblings to a
//! `NodePair` (`Model::collide_slots`, 96 bytes a node, `f32`, rounded outward so that each
//! volume holds the vertices below it), with the triangles in leaf order and their ids.
//!
//! The build works top down in `f64` (moment axes, split, box and swept-sphere fits) and
//! writes each node's packed form as soon as it is complete; the bounding spheres need the
//! children's, so a node is finished on the way back up. Nothing of size proportional to the
//! tree is kept besides the packed nodes: the pending nodes (one path from the root) carry
//! their `f64` boxes, and the finished ones below them their spheres' support points.

pub mod refit;
pub mod solid;

use std::sync::OnceLock;

use crate::bv::obb::{CollideNode, NodePair, PackedFrame, orthonormal_frame, principal_axes};
use crate::bv::sphere::{PointSet, Sphere, Support};
use crate::bv::{Obb, Rss};
use crate::math::{Mat3, Placement, RANGE_LIMIT, Triangle, Vec3, triangle_is_finite};
pub use refit::{DEFAULT_REBUILD_THRESHOLD, RefitError, RefitReport};
pub use solid::{SolidError, SolidFacts, fill_holes};

/// Why a model could not be built or a triangle was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// `build` was called with no triangles.
    EmptyModel,
    /// A coordinate was NaN or infinite.
    NonFiniteCoordinate,
    /// More triangles than the hierarchy can index (2^31 − 1).
    TooManyTriangles,
    /// A coordinate beyond the supported range ([`RANGE_LIMIT`], 2^1000): no query could
    /// use the model.
    OutOfRange,
    /// [`Model::new`] needs one id per triangle.
    IdCountMismatch {
        /// The number of triangles.
        triangles: usize,
        /// The number of ids.
        ids: usize,
    },
    /// [`Model::from_indexed`]: a face names a vertex past the end of the vertex array.
    IndexOutOfRange,
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let BuildError::IdCountMismatch { triangles, ids } = self {
            return write!(f, "{ids} ids for {triangles} triangles: a model needs one id per triangle");
        }
        f.write_str(match self {
            BuildError::IdCountMismatch { .. } => unreachable!("written above"),
            BuildError::IndexOutOfRange => "a face names a vertex index past the end of the vertices",
            BuildError::EmptyModel => "a model needs at least one triangle",
            BuildError::NonFiniteCoordinate => "a triangle coordinate is NaN or infinite",
            BuildError::TooManyTriangles => "too many triangles for one model (limit 2^31 - 1)",
            BuildError::OutOfRange => "a triangle coordinate is beyond 2^1000 (about 1.07e301), the supported range",
        })
    }
}

impl std::error::Error for BuildError {}

/// A triangle's coordinates as a model takes them: finite and within [`RANGE_LIMIT`].
fn check_coordinates(t: &Triangle) -> Result<(), BuildError> {
    if !triangle_is_finite(t) {
        Err(BuildError::NonFiniteCoordinate)
    } else if t.iter().any(|p| p.amax() > RANGE_LIMIT) {
        Err(BuildError::OutOfRange)
    } else {
        Ok(())
    }
}

/// Marks a leaf in a node's child/leaf word: leaf `LEAF_BIT | triangle index` (leaf order),
/// inner node: index of the first of its two children.
pub(crate) const LEAF_BIT: u32 = 1 << 31;

/// Collects triangles and their caller ids, then builds a [`Model`].
///
/// ```
/// use rapidpqp::{BuildError, ModelBuilder, Vec3};
///
/// let mut builder = ModelBuilder::new();
/// builder.add_triangle([Vec3::zeros(), Vec3::x(), Vec3::y()], 7)?;
/// builder.add_triangle([Vec3::zeros(), Vec3::y(), Vec3::z()], 8)?;
/// // A NaN corner is refused and nothing is stored.
/// let bad = [Vec3::zeros(), Vec3::x(), Vec3::new(f64::NAN, 0.0, 0.0)];
/// assert_eq!(builder.add_triangle(bad, 9), Err(BuildError::NonFiniteCoordinate));
/// let model = builder.into_model()?;
/// assert_eq!(model.num_triangles(), 2);
/// let mut ids = model.ids().to_vec();
/// ids.sort();
/// assert_eq!(ids, [7, 8]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct ModelBuilder {
    triangles: Vec<Triangle>,
    ids: Vec<i32>,
}

impl ModelBuilder {
    /// An empty builder.
    pub fn new() -> ModelBuilder {
        ModelBuilder::default()
    }

    /// A builder with room for `triangles` triangles (PQP's `BeginModel` hint): adding that
    /// many reallocates nothing, so no outgrown arrays are left in the allocator's free
    /// lists.
    pub fn with_capacity(triangles: usize) -> ModelBuilder {
        ModelBuilder { triangles: Vec::with_capacity(triangles), ids: Vec::with_capacity(triangles) }
    }

    /// Appends a triangle; refuses (and stores nothing) if a coordinate is not finite or
    /// beyond the supported range.
    pub fn add_triangle(&mut self, triangle: Triangle, id: i32) -> Result<(), BuildError> {
        check_coordinates(&triangle)?;
        if self.triangles.len() >= (LEAF_BIT - 1) as usize {
            return Err(BuildError::TooManyTriangles);
        }
        self.triangles.push(triangle);
        self.ids.push(id);
        Ok(())
    }

    /// Number of triangles added so far.
    pub fn len(&self) -> usize {
        self.triangles.len()
    }

    /// Whether no triangle was added yet.
    pub fn is_empty(&self) -> bool {
        self.triangles.is_empty()
    }

    /// Removes every triangle added, keeping the allocation.
    pub fn clear(&mut self) {
        self.triangles.clear();
        self.ids.clear();
    }

    /// Builds the hierarchy over the triangles added so far (the builder is left unchanged,
    /// so the triangles are then held twice: see [`ModelBuilder::into_model`]).
    pub fn build(&self) -> Result<Model, BuildError> {
        Model::new(self.triangles.clone(), self.ids.clone())
    }

    /// Builds the hierarchy, the model taking over the builder's arrays (no copy).
    pub fn into_model(mut self) -> Result<Model, BuildError> {
        self.finish()
    }

    /// Builds the hierarchy and empties the builder: its triangles move into the model, so no
    /// copy of them is left behind.
    pub fn finish(&mut self) -> Result<Model, BuildError> {
        Model::new(std::mem::take(&mut self.triangles), std::mem::take(&mut self.ids))
    }

    /// Reserves room for `additional` more triangles, reporting failure instead of aborting.
    pub fn try_reserve(&mut self, additional: usize) -> Result<(), std::collections::TryReserveError> {
        self.triangles.try_reserve(additional)?;
        self.ids.try_reserve(additional)
    }

    /// Heap bytes the builder holds.
    pub fn memory_bytes(&self) -> usize {
        self.triangles.capacity() * std::mem::size_of::<Triangle>() + self.ids.capacity() * std::mem::size_of::<i32>()
    }
}

/// A built model: triangles (in leaf order), their ids, and the hierarchy. Immutable, so
/// any number of threads may query one model at once; only a deformable model
/// ([`Model::deformable`]) changes, through `&mut self` ([`Model::update_vertices`]), so never
/// while it is queried.
#[derive(Debug)]
pub struct Model {
    triangles: Vec<Triangle>,
    ids: Vec<i32>,
    /// The box tree (see [`Model::collide_slots`]); refitted on first use after the vertices
    /// of a k-DOP model moved.
    boxes: LazyBoxes,
    /// The largest absolute coordinate: bounds the rounding of transformed boxes.
    magnitude: f64,
    /// The solid facts, computed on first request (not serialized). Reset when the vertices
    /// move.
    solid: OnceLock<SolidFacts>,
    /// k-DOPs of a model without the k-DOP option, built when it first meets a k-DOP model a
    /// translation apart (see [`Model::set_kdop`]). Reset when the vertices move.
    partner_dops: OnceLock<crate::bv::kdop::DopTree>,
    /// What a deformable model keeps to refit (`None` for others: no cost to them).
    deform: Option<Box<refit::Deformable>>,
}

/// The oriented-box hierarchy: the packed nodes and their frame.
#[derive(Clone, Debug)]
pub(crate) struct BoxTree {
    /// The nodes, two by two (see [`Model::collide_slots`]).
    pub(crate) slots: Vec<NodePair>,
    /// The coordinates of `slots`.
    pub(crate) frame: PackedFrame,
}

/// The box tree of a model. It is always current, except on a k-DOP model
/// ([`Model::set_kdop`]) whose vertices moved: an update then refits only the k-DOPs and
/// parks the box tree in `stale`, and the first query that needs it refits it
/// ([`Model::boxes`]). Reading a current tree costs one atomic load.
#[derive(Debug)]
struct LazyBoxes {
    current: OnceLock<BoxTree>,
    /// The tree before the vertices moved, to be refitted (on its fitted axes) when needed.
    stale: std::sync::Mutex<Option<BoxTree>>,
}

impl LazyBoxes {
    fn fresh(tree: BoxTree) -> LazyBoxes {
        LazyBoxes { current: OnceLock::from(tree), stale: std::sync::Mutex::new(None) }
    }

    /// Node pairs allocated, current or stale (without refitting a stale tree).
    fn capacity(&self) -> usize {
        match self.current.get() {
            Some(tree) => tree.slots.capacity(),
            None => self
                .stale
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .as_ref()
                .map_or(0, |t| t.slots.capacity()),
        }
    }
}

/// A copy with a current box tree: a stale one is refitted first (through `Model::boxes`,
/// so a copy taken while another thread refits it waits for that refit, never sees it half
/// done).
impl Clone for Model {
    fn clone(&self) -> Model {
        Model {
            triangles: self.triangles.clone(),
            ids: self.ids.clone(),
            boxes: LazyBoxes::fresh(self.boxes().clone()),
            magnitude: self.magnitude,
            solid: self.solid.clone(),
            partner_dops: OnceLock::new(), // rebuilt if needed
            deform: self.deform.clone(),
        }
    }
}

fn area(t: &Triangle) -> f64 {
    0.5 * (t[1] - t[0]).cross(&(t[2] - t[0])).norm()
}

impl Model {
    /// Builds the hierarchy over `triangles`, reporting `ids[k]` for triangle k. The model
    /// keeps the two arrays, reordered into leaf order in place: besides them the build
    /// allocates only the packed nodes and what one path from the root needs.
    ///
    /// Refused with [`BuildError::IdCountMismatch`] when `ids` is not as long as `triangles`.
    ///
    /// ```
    /// use rapidpqp::{BuildError, Model, Vec3};
    ///
    /// // A square of two triangles, reported as ids 10 and 11.
    /// let (a, b, c, d) = (Vec3::zeros(), Vec3::x(), Vec3::new(1.0, 1.0, 0.0), Vec3::y());
    /// let model = Model::new(vec![[a, b, c], [a, c, d]], vec![10, 11])?;
    /// assert_eq!(model.num_triangles(), 2);
    /// assert!(!model.solid_facts().closed); // a square bounds no solid
    ///
    /// assert_eq!(Model::new(vec![], vec![]).unwrap_err(), BuildError::EmptyModel);
    /// # Ok::<(), BuildError>(())
    /// ```
    pub fn new(mut triangles: Vec<Triangle>, mut ids: Vec<i32>) -> Result<Model, BuildError> {
        if triangles.len() != ids.len() {
            return Err(BuildError::IdCountMismatch { triangles: triangles.len(), ids: ids.len() });
        }
        if triangles.is_empty() {
            return Err(BuildError::EmptyModel);
        }
        if triangles.len() >= (LEAF_BIT - 1) as usize {
            return Err(BuildError::TooManyTriangles);
        }
        for t in &triangles {
            check_coordinates(t)?;
        }
        let (packed_frame, magnitude) = frame_and_magnitude(&triangles);
        let collide_slots = build_tree(&mut triangles, &mut ids, &packed_frame);
        triangles.shrink_to_fit();
        ids.shrink_to_fit();
        let boxes = LazyBoxes::fresh(BoxTree { slots: collide_slots, frame: packed_frame });
        Ok(Model {
            triangles,
            ids,
            boxes,
            magnitude,
            solid: OnceLock::new(),
            partner_dops: OnceLock::new(),
            deform: None,
        })
    }

    /// Reassembles a model from the parts of a built one (as serialized): triangles in leaf
    /// order, their ids and the packed nodes. Runs the checks of [`Model::check_packed`]
    /// (linear in the size); the inner nodes' containment of their vertices is not checked
    /// (see [`Model::validate`]).
    pub(crate) fn from_packed(
        triangles: Vec<Triangle>,
        ids: Vec<i32>,
        collide_slots: Vec<NodePair>,
    ) -> Result<Model, String> {
        if triangles.is_empty() || triangles.len() != ids.len() {
            return Err("a model needs one id per triangle and at least one triangle".into());
        }
        if triangles.len() >= (LEAF_BIT - 1) as usize {
            return Err(BuildError::TooManyTriangles.to_string());
        }
        // Finiteness, bounding box and magnitude in one pass.
        let mut lo = Vec3::repeat(f64::INFINITY);
        let mut hi = Vec3::repeat(f64::NEG_INFINITY);
        let mut finite = true;
        for p in triangles.iter().flatten() {
            lo = lo.inf(p);
            hi = hi.sup(p);
            finite &= p.x.is_finite() & p.y.is_finite() & p.z.is_finite();
        }
        if !finite {
            return Err(BuildError::NonFiniteCoordinate.to_string());
        }
        if lo.amax().max(hi.amax()) > RANGE_LIMIT {
            return Err(BuildError::OutOfRange.to_string());
        }
        // (The frame depends on the bounding box only, the magnitude on its corners.)
        let packed_frame = PackedFrame::around([lo, hi].into_iter());
        let magnitude = lo.amax().max(hi.amax());
        let boxes = LazyBoxes::fresh(BoxTree { slots: collide_slots, frame: packed_frame });
        let (solid, partner_dops) = (OnceLock::new(), OnceLock::new());
        let model = Model { triangles, ids, boxes, magnitude, solid, partner_dops, deform: None };
        model.check_packed()?;
        Ok(model)
    }

    /// Convenience: a model from vertices and index triples; triangle k gets id k.
    pub fn from_indexed(vertices: &[Vec3], faces: &[[u32; 3]]) -> Result<Model, BuildError> {
        let mut triangles = Vec::with_capacity(faces.len());
        for f in faces {
            let corner = |i: u32| vertices.get(i as usize).copied();
            match (corner(f[0]), corner(f[1]), corner(f[2])) {
                (Some(a), Some(b), Some(c)) => triangles.push([a, b, c]),
                _ => return Err(BuildError::IndexOutOfRange),
            }
        }
        let ids = (0..faces.len() as i32).collect();
        Model::new(triangles, ids)
    }

    /// Number of triangles.
    pub fn num_triangles(&self) -> usize {
        self.triangles.len()
    }
    /// Triangles in leaf order (not the order they were added).
    pub fn triangles(&self) -> &[Triangle] {
        &self.triangles
    }
    /// Caller ids, parallel to [`Model::triangles`].
    pub fn ids(&self) -> &[i32] {
        &self.ids
    }
    /// Nodes of the hierarchy: `2n − 1` for `n` triangles.
    pub fn num_nodes(&self) -> usize {
        2 * self.triangles.len() - 1
    }
    /// The nodes as the queries read them, two per slot: the children of a node sit side by
    /// side (node `i` in slot `(i + 1) / 2`, lane `(i + 1) % 2`; children are allocated in
    /// pairs `2k - 1, 2k`), and slot 0 holds the root in both lanes.
    #[inline]
    pub(crate) fn collide_slots(&self) -> &[NodePair] {
        &self.boxes().slots
    }
    /// The coordinates of [`Model::collide_slots`].
    #[inline]
    pub(crate) fn packed_frame(&self) -> &PackedFrame {
        &self.boxes().frame
    }
    /// The box tree, refitted first if the vertices of a k-DOP model moved since it was last
    /// used (once, whichever thread asks first; the others wait for it).
    #[inline]
    pub(crate) fn boxes(&self) -> &BoxTree {
        match self.boxes.current.get() {
            Some(tree) => tree,
            None => self.refit_stale_boxes(),
        }
    }
    /// [`Model::boxes`] when the box tree is stale: refits it, once.
    #[cold]
    #[inline(never)]
    fn refit_stale_boxes(&self) -> &BoxTree {
        self.boxes.current.get_or_init(|| {
            let stale = self.boxes.stale.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
            let mut tree = stale.expect("a model's box tree is current or stale");
            refit::refit_boxes(&mut tree, &self.triangles);
            tree
        })
    }
    /// A ball holding the model, placed in the world by `placement`: centre at the placed
    /// centre of the vertices' bounding box, radius the largest distance of a vertex from it
    /// (times the scale, widened for rounding). Linear in the number of triangles.
    pub fn bounding_ball_placed(&self, placement: &Placement) -> (Vec3, f64) {
        let (lo, hi) = corner_bounds(&self.triangles);
        let centre = (lo + hi) * 0.5;
        // (Lengths without squares: no underflow or overflow at any scale.)
        let radius = self.triangles.iter().flatten().map(|c| crate::math::length(&(c - centre))).fold(0.0, f64::max);
        (placement.apply(&centre), radius * placement.scale * (1.0 + 1e-12))
    }

    /// The largest absolute coordinate of any vertex (in the model's own frame).
    pub fn magnitude(&self) -> f64 {
        self.magnitude
    }
    /// Whether the triangles bound a solid, and its volume ([`SolidFacts`]): computed on the
    /// first call (linear time: a hash map of the vertices and the edges bucketed by vertex,
    /// freed when done) and kept, so that building costs nothing extra; safe to call from
    /// any number of threads at once.
    pub fn solid_facts(&self) -> &SolidFacts {
        self.solid.get_or_init(|| SolidFacts::of(&self.triangles))
    }

    /// Levels of the hierarchy: 1 for a single triangle (the root is a leaf), the most nodes
    /// on a path from the root to a leaf otherwise. Linear in the number of nodes.
    pub fn tree_depth(&self) -> usize {
        // Children come after their parent (a pair 2k - 1, 2k), so one pass in node order sees
        // every parent's depth before its children's.
        let mut depth = vec![0u32; self.num_nodes()];
        depth[0] = 1;
        let mut deepest = 1;
        for i in 0..self.num_nodes() {
            let (slot, lane) = slot_of(i);
            let node = &self.collide_slots()[slot];
            if node.is_leaf(lane) {
                deepest = deepest.max(depth[i]);
            } else {
                let c = node.first_child(lane) as usize;
                depth[c] = depth[i] + 1;
                depth[c + 1] = depth[i] + 1;
            }
        }
        deepest as usize
    }

    /// Bytes held by the model: the struct (the cached [`SolidFacts`] included) and its three
    /// arrays (triangles, ids and packed nodes) as allocated, and a deformable model's faces.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Model>()
            + self.triangles.capacity() * std::mem::size_of::<Triangle>()
            + self.ids.capacity() * std::mem::size_of::<i32>()
            + self.boxes.capacity() * std::mem::size_of::<NodePair>()
            + self.deform.as_ref().map_or(0, |d| d.memory_bytes())
            + self.partner_dops.get().map_or(0, |d| d.memory_bytes())
    }

    /// The child/leaf word of node `i`.
    #[cfg(test)]
    pub(crate) fn node_word(&self, i: usize) -> u32 {
        let (slot, lane) = slot_of(i);
        self.collide_slots()[slot].payload[lane]
    }

    /// Checks everything [`Model::check_packed`] does, and that every node's box, sphere and
    /// swept-sphere rectangle hold all the vertices below it (time proportional to the sum of
    /// the subtrees' sizes, `n log n` for a balanced tree).
    pub fn validate(&self) -> Result<(), String> {
        self.check_packed()?;
        if let Some(dops) = self.kdop_tree() {
            dops.validate(&self.triangles)?;
        }
        let mut stack = Vec::new();
        for i in 0..self.num_nodes() {
            let (slot, lane) = slot_of(i);
            let node = &self.collide_slots()[slot];
            if node.is_leaf(lane) {
                continue; // checked by check_packed
            }
            stack.clear();
            stack.push(i);
            while let Some(k) = stack.pop() {
                let (s, l) = slot_of(k);
                let below = &self.collide_slots()[s];
                if below.is_leaf(l) {
                    self.holds(i, node, lane, &self.triangles[below.triangle(l)])?;
                } else {
                    let c = below.first_child(l) as usize;
                    stack.extend([c, c + 1]);
                }
            }
        }
        Ok(())
    }

    /// The checks of a packed tree that take time linear in its size, which loading a
    /// serialized model runs:
    /// * `n` slots for `n` triangles, slot 0 holding the same node (the root) in both lanes;
    /// * the structure: every inner node's children are a pair `2k − 1, 2k` after it, and
    ///   every pair is some node's children exactly once (so every node but the root has
    ///   exactly one parent, of smaller index: the nodes form one tree from the root), and
    ///   every triangle is in exactly one leaf;
    /// * every number is finite, half-extents, radii and rectangle half-lengths are not
    ///   negative, and each box's axes are orthonormal to 1e-6;
    /// * every leaf's box, sphere and rectangle hold its triangle.
    ///
    /// With these the queries are memory-safe and terminate, whatever the numbers. What a
    /// linear pass cannot prove is that an inner node's volumes hold all the vertices below
    /// it ([`Model::validate`] does, in `n log n`): a crafted model whose inner volumes miss
    /// their vertices gives wrong answers (missed contacts, too large distances), nothing
    /// worse.
    pub fn check_packed(&self) -> Result<(), String> {
        let n = self.triangles.len();
        let slots = self.collide_slots();
        if slots.len() != n {
            return Err(format!("{} packed node pairs for {n} triangles", slots.len()));
        }
        if pair_words(&slots[0])[..].chunks(2).any(|w| w[0] != w[1]) {
            return Err("the root's two lanes differ".into());
        }
        // Large models: two halves of the slots on two threads (this is most of the time of
        // loading a serialized model that is not spent writing fresh memory).
        let parallel =
            n >= crate::serialize::PARALLEL_PAIRS && std::thread::available_parallelism().is_ok_and(|p| p.get() > 1);
        let ((mut parented, mut seen), second) = if parallel {
            std::thread::scope(|scope| {
                // (If no thread can be had, this thread checks both halves.)
                let helper = std::thread::Builder::new().spawn_scoped(scope, || self.check_slots(n / 2..n));
                let first = self.check_slots(0..n / 2);
                let second = match helper {
                    Ok(h) => h.join().unwrap_or_else(|_| Err("the check panicked".into())),
                    Err(_) => self.check_slots(n / 2..n),
                };
                first.map(|f| (f, Some(second)))
            })?
        } else {
            (self.check_slots(0..n)?, None)
        };
        if let Some(second) = second {
            let (p2, s2) = second?;
            if !parented.merge(&p2) || !seen.merge(&s2) {
                return Err("a pair of nodes has two parents or a triangle two leaves".into());
            }
        }
        // n - 1 pairs of children, each with one parent: n - 1 inner nodes and n leaves.
        if parented.count() != n - 1 || seen.count() != n {
            return Err("some nodes or triangles are unreachable".into());
        }
        Ok(())
    }

    /// [`Model::check_packed`] of the nodes in `slots`, in index order (node `2s + l - 1` is
    /// lane `l` of slot `s`; the root is lane 0 of slot 0, whose lane 1 is the same): the
    /// child pairs they point to (by slot) and the triangles of their leaves.
    fn check_slots(&self, range: std::ops::Range<usize>) -> Result<(Bits, Bits), String> {
        let n = self.triangles.len();
        let num_nodes = 2 * n - 1;
        let mut parented = Bits::new(n);
        let mut seen = Bits::new(n);
        for (s, pair) in self.collide_slots()[range.clone()].iter().enumerate().map(|(k, p)| (range.start + k, p)) {
            let lanes = if s == 0 { 0..1 } else { 0..2 };
            if let Err(what) = numbers_ok(pair) {
                let l = lanes.clone().find(|&l| numbers_ok(&lane_only(pair, l)).is_err()).unwrap_or(0);
                return Err(format!("node {}: {what}", (2 * s + l).max(1) - 1));
            }
            for l in lanes {
                let i = (2 * s + l).max(1) - 1;
                if pair.is_leaf(l) {
                    let t = pair.triangle(l);
                    if t >= n || seen.set(t) {
                        return Err(format!("leaf {i} has a bad or repeated triangle {t}"));
                    }
                    self.holds(i, pair, l, &self.triangles[t])?;
                } else {
                    let c = pair.first_child(l) as usize;
                    // Children come in the pairs 2k - 1, 2k (which the queries rely on).
                    if c <= i || c + 1 >= num_nodes || c % 2 == 0 || parented.set(slot_of(c).0) {
                        return Err(format!("node {i} has children {c}, {} (or shares them)", c + 1));
                    }
                }
            }
        }
        Ok((parented, seen))
    }

    /// Whether node `i` (lane `l` of `pair`) holds the corners of `t` in its box, sphere and
    /// rectangle, each up to 1e-12 packed units. (The rounding of these measures is far
    /// below that, and the nodes are padded by far more: see `CollideNode::new`.)
    #[inline]
    #[allow(clippy::neg_cmp_op_on_partial_ord)] // `!(x <= y)` deliberately also catches NaN
    fn holds(&self, i: usize, pair: &NodePair, l: usize, t: &Triangle) -> Result<(), String> {
        const TOL: f64 = 1e-12;
        let f = self.packed_frame();
        let fr = |k: usize, a: usize| pair.frame[k][a].0[l] as f64;
        let c = [fr(0, 3), fr(1, 3), fr(2, 3)];
        // ax[a][k]: coordinate k of box axis a.
        let ax = [[fr(0, 0), fr(1, 0), fr(2, 0)], [fr(0, 1), fr(1, 1), fr(2, 1)], [fr(0, 2), fr(1, 2), fr(2, 2)]];
        let h = [pair.half[0].0[l] as f64, pair.half[1].0[l] as f64, pair.half[2].0[l] as f64];
        let sc = [pair.sphere[0].0[l] as f64, pair.sphere[1].0[l] as f64, pair.sphere[2].0[l] as f64];
        let reach = pair.sphere[3].0[l] as f64 + TOL;
        let rect =
            [pair.rect[0].0[l] as f64, pair.rect[1].0[l] as f64, pair.rect[2].0[l] as f64, pair.rect[3].0[l] as f64];
        let out = |u: f64, half: f64| (u.abs() - half).max(0.0);
        for p in t {
            let x = [(p.x - f.origin.x) / f.unit, (p.y - f.origin.y) / f.unit, (p.z - f.origin.z) / f.unit];
            let d = [x[0] - c[0], x[1] - c[1], x[2] - c[2]];
            let u = [
                ax[0][0] * d[0] + ax[0][1] * d[1] + ax[0][2] * d[2],
                ax[1][0] * d[0] + ax[1][1] * d[1] + ax[1][2] * d[2],
                ax[2][0] * d[0] + ax[2][1] * d[1] + ax[2][2] * d[2],
            ];
            if !(u[0].abs() <= h[0] + TOL && u[1].abs() <= h[1] + TOL && u[2].abs() <= h[2] + TOL) {
                return Err(format!("node {i}: box misses a vertex below it"));
            }
            let e = [x[0] - sc[0], x[1] - sc[1], x[2] - sc[2]];
            if !(e[0] * e[0] + e[1] * e[1] + e[2] * e[2] <= reach * reach) {
                return Err(format!("node {i}: bounding sphere misses a vertex below it"));
            }
            // The rectangle: in the plane through the centre normal to axis 0.
            let (d1, d2) = (out(u[1] - rect[0], rect[2]), out(u[2] - rect[1], rect[3]));
            if !(u[0] * u[0] + d1 * d1 + d2 * d2 <= (h[0] + TOL) * (h[0] + TOL)) {
                return Err(format!("node {i}: swept-sphere rectangle misses a vertex below it"));
            }
        }
        Ok(())
    }
}

/// A fixed set of bits.
struct Bits(Vec<u64>);

impl Bits {
    fn new(len: usize) -> Bits {
        Bits(vec![0; len.div_ceil(64)])
    }
    /// Sets bit `i`; returns whether it was set already.
    fn set(&mut self, i: usize) -> bool {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let was = self.0[w] & b != 0;
        self.0[w] |= b;
        was
    }
    /// Adds the bits of `other`; false if the two shared one.
    fn merge(&mut self, other: &Bits) -> bool {
        let mut disjoint = true;
        for (w, o) in self.0.iter_mut().zip(&other.0) {
            disjoint &= *w & o == 0;
            *w |= o;
        }
        disjoint
    }
    fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// The 48 words of a node pair, as stored: the sphere (centre, radius), the box frame's rows,
/// the half-extents, the rectangle, each number lane 0 then lane 1 (`f32` bits), then the
/// two child/leaf words. (The serialized format's layout.)
pub(crate) fn pair_words(p: &NodePair) -> [u32; 48] {
    let mut out = [0u32; 48];
    let mut put = |k: usize, v: &crate::bv::obb::P32| {
        out[2 * k] = v.0[0].to_bits();
        out[2 * k + 1] = v.0[1].to_bits();
    };
    for i in 0..4 {
        put(i, &p.sphere[i]);
        put(19 + i, &p.rect[i]);
    }
    for r in 0..3 {
        for c in 0..4 {
            put(4 + 4 * r + c, &p.frame[r][c]);
        }
        put(16 + r, &p.half[r]);
    }
    out[46] = p.payload[0];
    out[47] = p.payload[1];
    out
}

/// The node pair of [`pair_words`].
pub(crate) fn pair_from_words(w: &[u32; 48]) -> NodePair {
    let two = |k: usize| crate::bv::obb::P32([f32::from_bits(w[2 * k]), f32::from_bits(w[2 * k + 1])]);
    NodePair {
        sphere: std::array::from_fn(two),
        frame: std::array::from_fn(|r| std::array::from_fn(|c| two(4 + 4 * r + c))),
        half: std::array::from_fn(|i| two(16 + i)),
        rect: std::array::from_fn(|i| two(19 + i)),
        payload: [w[46], w[47]],
    }
}

/// `pair` with lane `l` in both lanes.
fn lane_only(pair: &NodePair, l: usize) -> NodePair {
    let mut w = pair_words(pair);
    for k in 0..24 {
        w[2 * k + 1 - l] = w[2 * k + l];
    }
    pair_from_words(&w)
}

/// Both lanes of `pair`: every number finite, extents not negative, box axes orthonormal.
#[inline]
#[allow(clippy::neg_cmp_op_on_partial_ord)] // `!(x <= y)` deliberately also catches NaN
fn numbers_ok(pair: &NodePair) -> Result<(), &'static str> {
    let w = pair_words(pair);
    if !w[..46].iter().fold(true, |ok, &x| ok & (x & 0x7f80_0000 != 0x7f80_0000)) {
        return Err("a number is NaN or infinite");
    }
    // Sphere radius (words 6, 7), half-extents (32..38), rectangle half-lengths (42..46).
    let extents = w[6..8].iter().chain(&w[32..38]).chain(&w[42..46]);
    if !extents.fold(true, |ok, &x| ok & (f32::from_bits(x) >= 0.0)) {
        return Err("a negative extent");
    }
    for l in 0..2 {
        let fr = |k: usize, a: usize| pair.frame[k][a].0[l] as f64;
        let dot = |a: usize, b: usize| fr(0, a) * fr(0, b) + fr(1, a) * fr(1, b) + fr(2, a) * fr(2, b);
        let off = |v: f64, want: f64| (v - want).abs();
        let worst = off(dot(0, 0), 1.0)
            .max(off(dot(1, 1), 1.0))
            .max(off(dot(2, 2), 1.0))
            .max(off(dot(0, 1), 0.0))
            .max(off(dot(0, 2), 0.0))
            .max(off(dot(1, 2), 0.0));
        if !(worst <= AXES_TOLERANCE) {
            return Err("box axes are not orthonormal");
        }
    }
    Ok(())
}

/// How far from orthonormal stored (`f32`) box axes may be: built ones are within a few
/// `f32` roundings (about 2e-7); the queries' guards cover up to 1.5e-6.
const AXES_TOLERANCE: f64 = 1e-6;

/// The bounding box of the triangles' corners.
fn corner_bounds(triangles: &[Triangle]) -> (Vec3, Vec3) {
    let (mut lo, mut hi) = (Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY));
    for p in triangles.iter().flatten() {
        lo = lo.inf(p);
        hi = hi.sup(p);
    }
    (lo, hi)
}

/// The packed frame of a tree over `triangles` and their magnitude (largest absolute
/// coordinate), from one pass: both depend on the corners' bounding box only (as in
/// [`Model::from_packed`]).
fn frame_and_magnitude(triangles: &[Triangle]) -> (PackedFrame, f64) {
    let (lo, hi) = corner_bounds(triangles);
    (PackedFrame::around([lo, hi].into_iter()), lo.amax().max(hi.amax()))
}

/// Where the queries keep node `i`: slot and lane (see [`Model::collide_slots`]).
#[inline(always)]
#[allow(clippy::manual_div_ceil)] // branch-free in the query's inner loop; `i` < 2^32
pub(crate) fn slot_of(i: usize) -> (usize, usize) {
    ((i + 1) / 2, (i + 1) % 2)
}

/// A node whose children are still to be built (or finished).
struct Pending {
    node: usize,
    start: usize,
    mid: usize,
    end: usize,
    first_child: usize,
    /// The node's box (its sphere's search is bounded by it).
    obb: Obb,
    /// The packed node but for its sphere.
    packed: CollideNode,
    /// Children opened so far.
    opened: u8,
}

/// The build's state: the triangles and ids (reordered into leaf order as the build goes),
/// and the packed nodes written so far.
struct Build<'a> {
    triangles: &'a mut [Triangle],
    ids: &'a mut [i32],
    /// Weight of a zero-area triangle (see [`centroid_weight`]).
    fallback: f64,
    frame: PackedFrame,
    slots: Vec<NodePair>,
    /// Nodes allocated so far.
    next: usize,
    /// Support points of the finished nodes whose parents are not finished, in order.
    supports: Vec<Support>,
    /// Scratch stack of the sphere searches.
    walk: Vec<usize>,
}

/// Builds the tree over `triangles`, reordering them (and `ids`) into leaf order: returns
/// the packed nodes.
fn build_tree(triangles: &mut [Triangle], ids: &mut [i32], frame: &PackedFrame) -> Vec<NodePair> {
    let n = triangles.len();
    let min_area = triangles.iter().map(area).filter(|a| *a > 0.0 && a.is_finite()).fold(f64::INFINITY, f64::min);
    let fallback = if min_area.is_finite() { min_area } else { 1.0 };
    let empty = CollideNode { frame: [[0.0; 4]; 3], half: [0.0; 3], sphere: [0.0; 4], rect: [0.0; 4], payload: 0 };
    let mut b = Build {
        triangles,
        ids,
        fallback,
        frame: *frame,
        slots: vec![NodePair::new(&empty, &empty); n],
        next: 1,
        supports: Vec::new(),
        walk: Vec::new(),
    };
    // Depth first, the first child's subtree before the second's: the order in which nodes
    // are opened (and their children's indices allocated) is the tree's pre-order.
    let mut pending: Vec<Pending> = b.open(0, 0, n).into_iter().collect();
    while let Some(top) = pending.last_mut() {
        let child = match top.opened {
            0 => Some((top.first_child, top.start, top.mid)),
            1 => Some((top.first_child + 1, top.mid, top.end)),
            _ => None,
        };
        top.opened += 1;
        match child {
            Some((c, start, end)) => pending.extend(b.open(c, start, end)),
            None => {
                let p = pending.pop().expect("a pending node");
                b.finish(p);
            }
        }
    }
    debug_assert_eq!(b.next, 2 * n - 1);
    b.slots
}

impl Build<'_> {
    /// Fits node `node` over `triangles[start..end]`: a leaf is finished at once; an inner
    /// node is split (its range partitioned, its children's indices allocated) and returned
    /// to be finished after them.
    fn open(&mut self, node: usize, start: usize, end: usize) -> Option<Pending> {
        let frame = self.frame;
        if end - start == 1 {
            let t = &self.triangles[start];
            let (obb, rss) = fit_node(&leaf_axes(t), std::slice::from_ref(t));
            let mut packed = CollideNode::with_box(&obb, &frame, LEAF_BIT | start as u32);
            packed.set_rect(&rss, &frame, packed_points(std::slice::from_ref(t), &frame));
            let (sphere, support) = Sphere::enclosing_with_support(t, &obb);
            packed.set_sphere(&sphere, &frame);
            self.write(node, &packed);
            self.supports.push(support);
            return None;
        }
        let range = &mut self.triangles[start..end];
        let (axes, mean) = moment_frame(range, self.fallback);
        let (obb, rss) = fit_node(&axes, range);
        let split_axis = axes.column(0).into_owned();
        let split_value = split_axis.dot(&mean);
        let left = |t: &Triangle| centroid(t).dot(&split_axis) < split_value;
        let mid = start + partition(range, &mut self.ids[start..end], left);
        let mid = if mid == start || mid == end { start + (end - start) / 2 } else { mid };
        let first_child = self.next;
        self.next += 2;
        let mut packed = CollideNode::with_box(&obb, &frame, first_child as u32);
        packed.set_rect(&rss, &frame, packed_points(&self.triangles[start..end], &frame));
        Some(Pending { node, start, mid, end, first_child, obb, packed, opened: 0 })
    }

    /// Finishes an inner node whose children are finished: its sphere, from the children's
    /// support points and a search of the vertices below it.
    fn finish(&mut self, mut p: Pending) {
        let right = self.supports.pop().expect("the second child's support");
        let left = self.supports.pop().expect("the first child's support");
        let mut hints = [Vec3::zeros(); 8];
        hints[..left.len].copy_from_slice(&left.points[..left.len]);
        hints[left.len..left.len + right.len].copy_from_slice(&right.points[..right.len]);
        let mut below = Subtree {
            triangles: self.triangles,
            slots: &self.slots,
            frame: &self.frame,
            first_child: p.first_child,
            span: (p.start, p.end),
            walk: &mut self.walk,
        };
        let (sphere, support) = Sphere::enclosing_set(&mut below, &hints[..left.len + right.len], &p.obb);
        p.packed.set_sphere(&sphere, &self.frame);
        self.write(p.node, &p.packed);
        self.supports.push(support);
    }

    fn write(&mut self, node: usize, packed: &CollideNode) {
        if node == 0 {
            self.slots[0].set_lane(0, packed);
            self.slots[0].set_lane(1, packed);
        } else {
            let (slot, lane) = slot_of(node);
            self.slots[slot].set_lane(lane, packed);
        }
    }
}

/// The corners of the triangles below an inner node (all of whose descendants are
/// finished), queried through its descendants' packed spheres: a subtree whose sphere cannot
/// reach beyond the distance asked is skipped.
struct Subtree<'a> {
    /// In leaf order as far as the node's descendants go.
    triangles: &'a [Triangle],
    slots: &'a [NodePair],
    frame: &'a PackedFrame,
    first_child: usize,
    /// The node's leaves: `triangles[span.0..span.1]`.
    span: (usize, usize),
    walk: &'a mut Vec<usize>,
}

impl PointSet for Subtree<'_> {
    fn farthest(&mut self, c: &Vec3, beyond2: f64) -> Option<(f64, Vec3)> {
        let mut best = (beyond2, None);
        let f = self.frame;
        self.walk.clear();
        self.walk.extend([self.first_child, self.first_child + 1]);
        while let Some(j) = self.walk.pop() {
            let (slot, lane) = slot_of(j);
            let node = &self.slots[slot];
            // Every point below j is within the packed radius of the packed centre (exactly:
            // both are rounded outward); `err` covers the rounding of the centre's return to
            // model coordinates (the scaling by the power of two `unit` is exact), and the
            // relative margin the rounding of this bound, so a skipped subtree holds no
            // point whose rounded distance beats `best`.
            let s = |k: usize| node.sphere[k].0[lane] as f64;
            let center = Vec3::new(s(0), s(1), s(2)) * f.unit + f.origin;
            let err = 2.0 * f64::EPSILON * center.amax();
            let reach = ((center - c).norm() + s(3) * f.unit + err) * (1.0 + 1e-9);
            if reach * reach <= best.0 {
                continue;
            }
            if node.is_leaf(lane) {
                for p in &self.triangles[node.triangle(lane)] {
                    let d2 = (p - c).norm_squared();
                    if d2 > best.0 {
                        best = (d2, Some(*p));
                    }
                }
            } else {
                let c = node.first_child(lane) as usize;
                self.walk.extend([c, c + 1]);
            }
        }
        best.1.map(|p| (best.0, p))
    }

    fn collect(&mut self, out: &mut Vec<Vec3>) {
        let (start, end) = self.span;
        out.extend(self.triangles[start..end].iter().flatten());
    }
}

/// The corners of `triangles`, in packed coordinates.
fn packed_points<'a>(triangles: &'a [Triangle], frame: &'a PackedFrame) -> impl Iterator<Item = Vec3> + Clone + 'a {
    triangles.iter().flatten().map(move |p| (p - frame.origin) / frame.unit)
}

/// A node's box on `axes` around the corners of `triangles` and its swept sphere on the same
/// axes, the sphere's normal along the box's thinnest axis (so that the packed node can carry
/// the sphere's rectangle in its box frame).
fn fit_node(axes: &Mat3, triangles: &[Triangle]) -> (Obb, Rss) {
    let points = triangles.iter().flatten().copied();
    let obb = Obb::fit(axes, points.clone(), fit_margin(points.clone()));
    let rss = Rss::fit_iter(&rss_axes(&obb), points);
    (obb, rss)
}

/// The box's axes ordered as a swept sphere's: the two widest first, the thinnest (the
/// rectangle's normal) last; right-handed.
fn rss_axes(obb: &Obb) -> Mat3 {
    let mut order = [0usize, 1, 2];
    order.sort_by(|&i, &j| obb.half[i].total_cmp(&obb.half[j]));
    let (x, y) = (obb.axes.column(order[1]).into_owned(), obb.axes.column(order[2]).into_owned());
    Mat3::from_columns(&[x, y, x.cross(&y)])
}

/// Grows boxes by the rounding the fit itself can make (projection and back-projection): a
/// relative part, and an absolute one for products that fall in the subnormal range (each
/// rounds by up to 2^-1075 there, whatever the magnitude).
fn fit_margin(points: impl Iterator<Item = Vec3>) -> f64 {
    let m = points.map(|p| p.amax()).fold(0.0, f64::max);
    16.0 * f64::EPSILON * m + 64.0 * SUBNORMAL_UNIT
}

/// The least subnormal, 2^-1074: the absolute rounding unit of the subnormal range.
const SUBNORMAL_UNIT: f64 = 5e-324;

/// Leaf frame: first axis along the longest edge, third along the normal, so the box is
/// flat. Zero-area triangles get any frame containing their segment.
fn leaf_axes(t: &Triangle) -> Mat3 {
    let edges = [t[1] - t[0], t[2] - t[1], t[0] - t[2]];
    let longest =
        edges.iter().copied().max_by(|a, b| a.norm_squared().total_cmp(&b.norm_squared())).unwrap_or_else(Vec3::zeros);
    let normal = edges[0].cross(&edges[1]);
    let in_plane = normal.cross(&longest);
    orthonormal_frame(&longest, &in_plane)
}

/// A triangle's centroid.
#[inline]
fn centroid(t: &Triangle) -> Vec3 {
    (t[0] + t[1] + t[2]) / 3.0
}

/// A triangle's centroid and its weight in the moment sums: its area (zero-area triangles
/// get `fallback`, the smallest positive area of the model, so they still steer the fit a
/// little). Computed where needed rather than stored (a per-triangle array would outlive
/// the build in the allocator's free lists).
#[inline]
fn centroid_weight(t: &Triangle, fallback: f64) -> (Vec3, f64) {
    let a = area(t);
    (centroid(t), if a > 0.0 && a.is_finite() { a } else { fallback })
}

/// Principal axes of the area-weighted second moments of `triangles` (moments of the
/// filled triangles, taken about their weighted mean to avoid cancellation), and that mean.
fn moment_frame(triangles: &[Triangle], fallback: f64) -> (Mat3, Vec3) {
    let mut total = 0.0;
    let mut weighted = Vec3::zeros();
    for t in triangles {
        let (c, w) = centroid_weight(t, fallback);
        total += w;
        weighted += c * w;
    }
    let mean = weighted / total;
    let mut cov = Mat3::zeros();
    for t in triangles {
        let (c, w) = centroid_weight(t, fallback);
        let m = c - mean;
        let (p, q, r) = (t[0] - mean, t[1] - mean, t[2] - mean);
        cov += (m * m.transpose() * 9.0 + p * p.transpose() + q * q.transpose() + r * r.transpose()) * (w / 12.0);
    }
    cov -= (weighted / total - mean) * (weighted / total - mean).transpose() * total;
    (principal_axes(&cov), mean)
}

/// Moves the triangles satisfying `left` (and their ids) to the front; returns how many
/// there are.
fn partition(triangles: &mut [Triangle], ids: &mut [i32], left: impl Fn(&Triangle) -> bool) -> usize {
    let mut boundary = 0;
    for i in 0..triangles.len() {
        if left(&triangles[i]) {
            triangles.swap(i, boundary);
            ids.swap(i, boundary);
            boundary += 1;
        }
    }
    boundary
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(n: usize) -> (Vec<Triangle>, Vec<i32>) {
        let mut tris = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let (x, y) = (i as f64, j as f64);
                let z = |x: f64, y: f64| (x * 0.3).sin() + (y * 0.2).cos();
                let p = |x: f64, y: f64| Vec3::new(x, y, z(x, y));
                tris.push([p(x, y), p(x + 1.0, y), p(x + 1.0, y + 1.0)]);
                tris.push([p(x, y), p(x + 1.0, y + 1.0), p(x, y + 1.0)]);
            }
        }
        let ids = (0..tris.len() as i32).collect();
        (tris, ids)
    }

    #[test]
    fn mismatched_ids_and_bad_indices_are_errors_not_panics() {
        let (tris, mut ids) = grid(2);
        ids.pop();
        let e = Model::new(tris, ids).unwrap_err();
        assert_eq!(e, BuildError::IdCountMismatch { triangles: 8, ids: 7 });
        assert_eq!(e.to_string(), "7 ids for 8 triangles: a model needs one id per triangle");
        let v = [Vec3::zeros(), Vec3::x(), Vec3::y()];
        assert_eq!(Model::from_indexed(&v, &[[0, 1, 3]]).unwrap_err(), BuildError::IndexOutOfRange);
        assert!(Model::from_indexed(&v, &[[0, 1, 2]]).is_ok());
    }

    #[test]
    fn builds_valid_trees() {
        for n in [1, 2, 3, 10] {
            let (tris, ids) = grid(n);
            let m = Model::new(tris, ids).unwrap();
            m.validate().unwrap();
        }
    }

    /// The depth by a recursive walk from the root, against `tree_depth`'s one pass.
    #[test]
    fn tree_depth_is_the_longest_root_to_leaf_path() {
        fn walk(m: &Model, i: usize) -> usize {
            let (slot, lane) = slot_of(i);
            let node = &m.collide_slots()[slot];
            if node.is_leaf(lane) {
                return 1;
            }
            let c = node.first_child(lane) as usize;
            1 + walk(m, c).max(walk(m, c + 1))
        }
        for n in [1, 2, 3, 10, 25] {
            let (tris, ids) = grid(n);
            let m = Model::new(tris, ids).unwrap();
            let depth = m.tree_depth();
            assert_eq!(depth, walk(&m, 0), "grid {n}");
            // Between a balanced tree's levels and one level per triangle.
            let t = m.num_triangles();
            assert!(depth > (t as f64).log2().ceil() as usize && depth <= t, "grid {n}: {depth}");
        }
        let one = Model::new(vec![[Vec3::zeros(), Vec3::x(), Vec3::y()]], vec![0]).unwrap();
        assert_eq!(one.tree_depth(), 1);
    }

    #[test]
    fn single_and_degenerate_triangles() {
        let z = Vec3::zeros();
        let x = Vec3::x();
        for t in [[z, x, Vec3::y()], [z, x, x * 2.0], [z, z, z], [x, x, z]] {
            let m = Model::new(vec![t, t, t], vec![1, 2, 3]).unwrap();
            m.validate().unwrap();
        }
    }

    /// The builder's three ways give the same model (the same packed nodes, leaf order and
    /// ids), and a build reorders nothing but the arrays it was given.
    #[test]
    fn builder_ways_agree() {
        let (tris, ids) = grid(6);
        let mut b = ModelBuilder::with_capacity(tris.len());
        for (t, &id) in tris.iter().zip(&ids) {
            b.add_triangle(*t, id).unwrap();
        }
        let (m1, m2) = (b.build().unwrap(), Model::new(tris.clone(), ids.clone()).unwrap());
        let m3 = b.into_model().unwrap();
        for m in [&m2, &m3] {
            m.validate().unwrap();
            assert_eq!(m.triangles(), m1.triangles());
            assert_eq!(m.ids(), m1.ids());
            let words = |m: &Model| m.collide_slots().iter().map(pair_words).collect::<Vec<_>>();
            assert_eq!(words(m), words(&m1));
        }
        // Leaf order is a permutation of the input, ids following their triangles.
        for (t, id) in m1.triangles().iter().zip(m1.ids()) {
            assert_eq!(&tris[*id as usize], t);
        }
    }

    #[test]
    fn refuses_bad_input() {
        assert_eq!(Model::new(vec![], vec![]).unwrap_err(), BuildError::EmptyModel);
        let t = [Vec3::zeros(), Vec3::x(), Vec3::new(f64::NAN, 0.0, 0.0)];
        assert_eq!(Model::new(vec![t], vec![0]).unwrap_err(), BuildError::NonFiniteCoordinate);
        let mut b = ModelBuilder::new();
        assert!(b.add_triangle(t, 0).is_err());
        assert!(b.is_empty());
    }

    /// Models of huge or tiny coordinates, or of no extent far from the origin, build into
    /// finite packed nodes: they validate, and load from their own serialization. (Their
    /// bounding spheres' squares overflow beyond about 1e154, and the rounding pads of a model
    /// of no extent at 3e72 did not fit an f32 in packed units.)
    #[test]
    fn extreme_models_are_valid_and_serializable() {
        let tri = |s: f64, o: Vec3| [o, o + Vec3::new(s, 0.0, 0.0), o + Vec3::new(0.0, s, s * 0.5)];
        let cases: Vec<Vec<Triangle>> = vec![
            vec![[Vec3::new(0.0, 0.0, 3e72); 3]; 3],
            vec![tri(1e155, Vec3::zeros()); 2],
            vec![tri(1e300, Vec3::zeros()), tri(1e300, Vec3::new(1e300, 0.0, 0.0))],
            vec![tri(1e-161, Vec3::zeros()); 2],
            vec![tri(1e-300, Vec3::new(0.0, 5e-300, 0.0)); 3],
            vec![tri(1.0, Vec3::new(1e200, -1e200, 0.0)), tri(1e-3, Vec3::new(1e200, -1e200, 1.0))],
            vec![tri(1e301, Vec3::new(-1e301, 0.0, 0.0)), tri(-1e301, Vec3::new(1e301, 1.0, 0.0))],
        ];
        for tris in cases {
            let ids = (0..tris.len() as i32).collect();
            let m = Model::new(tris.clone(), ids).unwrap();
            m.validate().unwrap_or_else(|e| panic!("{tris:?}: {e}"));
            let loaded = crate::serialize::model_from_bytes(&crate::serialize::model_to_bytes(&m));
            assert!(loaded.is_ok(), "{tris:?}: {:?}", loaded.err());
        }
        // Beyond the supported range: refused, by the builder too (nothing stored).
        let far = [Vec3::new(1e308, 9.875, -5.8), Vec3::new(0.0, f64::MAX, 3.08), Vec3::new(0.0, 1.1e301, 3.08)];
        for corner in far {
            let t = [corner, Vec3::zeros(), Vec3::new(1.0, 0.0, 0.0)];
            assert_eq!(Model::new(vec![t], vec![0]).unwrap_err(), BuildError::OutOfRange);
            let mut builder = ModelBuilder::new();
            assert_eq!(builder.add_triangle(t, 0), Err(BuildError::OutOfRange));
            assert!(builder.is_empty());
        }
    }
}
