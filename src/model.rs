//! Triangle soups and the bounding-volume hierarchy built over them.
//!
//! One tree serves every query: each node has an oriented box (collision) and a rectangle
//! swept sphere (distance, tolerance) sharing the node's principal axes. Nodes live in one
//! flat array in depth-first order; an inner node's two children are adjacent.
//!
//! [`Node`] holds the swept sphere. The boxes live only in the collide query's packed nodes
//! (`Model::collide_slots`): each node's box and smallest bounding sphere, rounded outward
//! to `f32`, two sibling nodes side by side. They are derived from the nodes (the box axes
//! are the swept sphere's) and triangles, so [`Model::from_parts`] recomputes them.

use crate::bv::obb::{CollideNode, NodePair, PackedFrame, orthonormal_frame, principal_axes};
use crate::bv::sphere::{PointSet, Sphere, Support};
use crate::bv::{Obb, Rss};
use crate::math::{Mat3, Triangle, Vec3, triangle_is_finite};

/// Why a model could not be built or a triangle was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// `build` was called with no triangles.
    EmptyModel,
    /// A coordinate was NaN or infinite.
    NonFiniteCoordinate,
    /// More triangles than the hierarchy can index (2^31 − 1).
    TooManyTriangles,
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BuildError::EmptyModel => "a model needs at least one triangle",
            BuildError::NonFiniteCoordinate => "a triangle coordinate is NaN or infinite",
            BuildError::TooManyTriangles => "too many triangles for one model (limit 2^31 - 1)",
        })
    }
}

impl std::error::Error for BuildError {}

/// Marks a leaf in [`Node::payload`].
pub(crate) const LEAF_BIT: u32 = 1 << 31;

/// One node of the hierarchy: its swept sphere and its place in the tree. (The node's box,
/// for the collide query, lives in the model's packed collide nodes.)
#[derive(Clone, Copy, Debug)]
pub struct Node {
    pub rss: Rss,
    /// Leaf: `LEAF_BIT | triangle index`; inner node: index of the first of its two children.
    payload: u32,
}

impl Node {
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.payload & LEAF_BIT != 0
    }
    /// Index of the first child (the second is the next one). Only for inner nodes.
    #[inline]
    pub fn first_child(&self) -> usize {
        self.payload as usize
    }
    /// Index of the node's triangle in [`Model::triangles`]. Only for leaves.
    #[inline]
    pub fn triangle(&self) -> usize {
        (self.payload & !LEAF_BIT) as usize
    }
    /// The raw child/leaf word, for serialization.
    pub fn payload(&self) -> u32 {
        self.payload
    }
    /// A node from its parts (serialization); [`Model::from_parts`] validates the tree.
    pub fn from_parts(rss: Rss, payload: u32) -> Node {
        Node { rss, payload }
    }
}

/// Collects triangles and their caller ids, then builds a [`Model`].
#[derive(Clone, Debug, Default)]
pub struct ModelBuilder {
    triangles: Vec<Triangle>,
    ids: Vec<i32>,
}

impl ModelBuilder {
    pub fn new() -> ModelBuilder {
        ModelBuilder::default()
    }

    /// Appends a triangle; refuses (and stores nothing) if a coordinate is not finite.
    pub fn add_triangle(&mut self, triangle: Triangle, id: i32) -> Result<(), BuildError> {
        if !triangle_is_finite(&triangle) {
            return Err(BuildError::NonFiniteCoordinate);
        }
        if self.triangles.len() >= (LEAF_BIT - 1) as usize {
            return Err(BuildError::TooManyTriangles);
        }
        self.triangles.push(triangle);
        self.ids.push(id);
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.triangles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.triangles.is_empty()
    }

    pub fn clear(&mut self) {
        self.triangles.clear();
        self.ids.clear();
    }

    /// Builds the hierarchy over the triangles added so far (the builder is left unchanged).
    pub fn build(&self) -> Result<Model, BuildError> {
        Model::new(self.triangles.clone(), self.ids.clone())
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
/// any number of threads may query one model at once.
#[derive(Clone, Debug)]
pub struct Model {
    triangles: Vec<Triangle>,
    ids: Vec<i32>,
    nodes: Vec<Node>,
    /// What the collide query reads of the nodes, two by two (see [`Model::collide_slots`]);
    /// derived from the nodes and triangles, so it is recomputed rather than serialized.
    collide_slots: Vec<NodePair>,
    /// The coordinates of `collide_slots`.
    packed_frame: PackedFrame,
    /// The largest absolute coordinate: bounds the rounding of transformed boxes.
    magnitude: f64,
}

/// Per-triangle quantities the top-down build reuses at every level.
struct TriStats {
    centroid: Vec3,
    /// Weight of the triangle in the moment sums: its area (zero-area triangles get the
    /// smallest positive area of the model, so they still steer the fit a little).
    weight: f64,
}

impl Model {
    /// Builds the hierarchy over `triangles`, reporting `ids[k]` for triangle k.
    pub fn new(triangles: Vec<Triangle>, ids: Vec<i32>) -> Result<Model, BuildError> {
        assert_eq!(triangles.len(), ids.len(), "one id per triangle");
        if triangles.is_empty() {
            return Err(BuildError::EmptyModel);
        }
        if triangles.len() >= (LEAF_BIT - 1) as usize {
            return Err(BuildError::TooManyTriangles);
        }
        if !triangles.iter().all(triangle_is_finite) {
            return Err(BuildError::NonFiniteCoordinate);
        }
        let n = triangles.len();
        let areas: Vec<f64> = triangles.iter().map(|t| 0.5 * (t[1] - t[0]).cross(&(t[2] - t[0])).norm()).collect();
        let min_area = areas.iter().copied().filter(|a| *a > 0.0 && a.is_finite()).fold(f64::INFINITY, f64::min);
        let fallback = if min_area.is_finite() { min_area } else { 1.0 };
        let stats: Vec<TriStats> = triangles
            .iter()
            .zip(&areas)
            .map(|(t, &a)| TriStats {
                centroid: (t[0] + t[1] + t[2]) / 3.0,
                weight: if a > 0.0 && a.is_finite() { a } else { fallback },
            })
            .collect();

        let mut order: Vec<u32> = (0..n as u32).collect();
        let mut nodes: Vec<Node> = Vec::with_capacity(2 * n - 1);
        let mut boxes: Vec<Obb> = vec![placeholder_box(); 2 * n - 1];
        nodes.push(placeholder());
        // (node index, start, end) ranges of `order` still to build; popping the left child
        // first gives depth-first order.
        let mut pending: Vec<(usize, usize, usize)> = vec![(0, 0, n)];
        let mut points: Vec<Vec3> = Vec::new();
        while let Some((node, start, end)) = pending.pop() {
            let range = &mut order[start..end];
            points.clear();
            points.extend(range.iter().flat_map(|&k| triangles[k as usize]));
            if range.len() == 1 {
                let axes = leaf_axes(&triangles[range[0] as usize]);
                boxes[node] = Obb::fit(&axes, points.iter().copied(), fit_margin(&points));
                nodes[node] = Node { rss: Rss::fit(&axes, &points), payload: LEAF_BIT | start as u32 };
                continue;
            }
            let (axes, mean) = moment_frame(range, &triangles, &stats);
            let split_axis = axes.column(0).into_owned();
            let split_value = split_axis.dot(&mean);
            let mid = start + partition(range, |k| stats[k as usize].centroid.dot(&split_axis) < split_value);
            let mid = if mid == start || mid == end { start + range.len() / 2 } else { mid };
            let first_child = nodes.len();
            nodes.push(placeholder());
            nodes.push(placeholder());
            boxes[node] = Obb::fit(&axes, points.iter().copied(), fit_margin(&points));
            nodes[node] = Node { rss: Rss::fit(&axes, &points), payload: first_child as u32 };
            pending.push((first_child + 1, mid, end));
            pending.push((first_child, start, mid));
        }

        let magnitude = triangles.iter().flat_map(|t| t.iter()).map(|p| p.amax()).fold(0.0, f64::max);
        let leaf_triangles: Vec<Triangle> = order.iter().map(|&k| triangles[k as usize]).collect();
        let leaf_ids = order.iter().map(|&k| ids[k as usize]).collect();
        let packed_frame = PackedFrame::around(leaf_triangles.iter().flatten().copied());
        let collide_slots = collide_slots(&nodes, &boxes, &leaf_triangles, &packed_frame);
        Ok(Model { triangles: leaf_triangles, ids: leaf_ids, nodes, collide_slots, packed_frame, magnitude })
    }

    /// Reassembles a model from the parts of a built one (as serialized), checking the
    /// tree's invariants so that a corrupted input is refused rather than trusted. Each
    /// node's box is refitted on its swept sphere's axes (which must be orthonormal), as the
    /// build fits it.
    pub fn from_parts(triangles: Vec<Triangle>, ids: Vec<i32>, nodes: Vec<Node>) -> Result<Model, String> {
        if triangles.is_empty() || triangles.len() != ids.len() {
            return Err("a model needs one id per triangle and at least one triangle".into());
        }
        if !triangles.iter().all(triangle_is_finite) {
            return Err(BuildError::NonFiniteCoordinate.to_string());
        }
        let magnitude = triangles.iter().flat_map(|t| t.iter()).map(|p| p.amax()).fold(0.0, f64::max);
        let packed_frame = PackedFrame::around(triangles.iter().flatten().copied());
        let mut model = Model { triangles, ids, nodes, collide_slots: Vec::new(), packed_frame, magnitude };
        model.validate_tree()?;
        let boxes = fit_boxes(&model.nodes, &model.triangles)?;
        model.collide_slots = collide_slots(&model.nodes, &boxes, &model.triangles, &model.packed_frame);
        Ok(model)
    }

    /// Convenience: a model from vertices and index triples; triangle k gets id k.
    pub fn from_indexed(vertices: &[Vec3], faces: &[[u32; 3]]) -> Result<Model, BuildError> {
        let mut triangles = Vec::with_capacity(faces.len());
        for f in faces {
            let corner = |i: u32| vertices.get(i as usize).copied();
            match (corner(f[0]), corner(f[1]), corner(f[2])) {
                (Some(a), Some(b), Some(c)) => triangles.push([a, b, c]),
                _ => return Err(BuildError::NonFiniteCoordinate),
            }
        }
        let ids = (0..faces.len() as i32).collect();
        Model::new(triangles, ids)
    }

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
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }
    /// The nodes as the collide query reads them, two per slot: the children of a node sit
    /// side by side (node `i` in slot `(i + 1) / 2`, lane `(i + 1) % 2`; children are
    /// allocated in pairs `2k - 1, 2k`), and slot 0 holds the root in both lanes.
    #[inline]
    pub(crate) fn collide_slots(&self) -> &[NodePair] {
        &self.collide_slots
    }
    /// The coordinates of [`Model::collide_slots`].
    #[inline]
    pub(crate) fn packed_frame(&self) -> &PackedFrame {
        &self.packed_frame
    }
    pub fn magnitude(&self) -> f64 {
        self.magnitude
    }
    /// Heap bytes held by the model (triangles, ids, nodes and the collide query's packed
    /// nodes).
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Model>()
            + self.triangles.capacity() * std::mem::size_of::<Triangle>()
            + self.ids.capacity() * std::mem::size_of::<i32>()
            + self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.collide_slots.capacity() * std::mem::size_of::<NodePair>()
    }

    /// Checks the tree's invariants: 2n−1 nodes, adjacent children in range and after their
    /// parent, every triangle in exactly one leaf; and that the collide query's packed nodes
    /// match the nodes, their boxes and spheres holding all the vertices below them.
    pub fn validate(&self) -> Result<(), String> {
        self.validate_tree()?;
        if self.collide_slots.len() != self.nodes.len() / 2 + 1 {
            return Err("packed collide nodes do not match the nodes".into());
        }
        let spans = leaf_spans(&self.nodes);
        let mut points = Vec::new();
        for (i, node) in self.nodes.iter().enumerate() {
            let (slot, lane) = slot_of(i);
            let packed = self.collide_slots[slot].lane(lane);
            if packed.payload != node.payload {
                return Err(format!("node {i}: packed collide node differs"));
            }
            points.clear();
            subtree_points(&self.nodes, &self.triangles, i, spans[i], &mut points);
            let f = &self.packed_frame;
            // (The rounding of the measures is far below the tolerance, and the nodes are
            // padded by far more: see `CollideNode::new`.)
            let tol = 1e-12;
            for p in &points {
                let x = (p - f.origin) / f.unit;
                if !packed.box_holds(&x, tol) {
                    return Err(format!("node {i}: box misses a vertex below it"));
                }
                if !packed.sphere_holds(&x, tol) {
                    return Err(format!("node {i}: bounding sphere misses a vertex below it"));
                }
            }
        }
        Ok(())
    }

    /// [`Model::validate`] without the packed collide nodes.
    fn validate_tree(&self) -> Result<(), String> {
        let n = self.triangles.len();
        if self.nodes.len() != 2 * n - 1 {
            return Err(format!("{} nodes for {} triangles", self.nodes.len(), n));
        }
        let mut seen = vec![false; n];
        let mut stack = vec![0usize];
        let mut reached = 0;
        let mut visited = vec![false; self.nodes.len()];
        while let Some(i) = stack.pop() {
            if std::mem::replace(&mut visited[i], true) {
                return Err(format!("node {i} is reached twice"));
            }
            reached += 1;
            let node = &self.nodes[i];
            if node.is_leaf() {
                let t = node.triangle();
                if t >= n || std::mem::replace(&mut seen[t], true) {
                    return Err(format!("leaf {i} has bad or repeated triangle {t}"));
                }
            } else {
                let c = node.first_child();
                // Children come in the pairs 2k - 1, 2k (which the collide query relies on).
                if c <= i || c + 1 >= self.nodes.len() || c % 2 == 0 {
                    return Err(format!("node {i} has children {c}, {}", c + 1));
                }
                stack.push(c);
                stack.push(c + 1);
            }
        }
        if reached != self.nodes.len() || seen.iter().any(|s| !s) {
            return Err("some nodes or triangles are unreachable".into());
        }
        // Every swept sphere holds the vertices below it (the distance queries prune on
        // them; the boxes are refitted, so hold them by construction).
        let spans = leaf_spans(&self.nodes);
        let mut points = Vec::new();
        for (i, node) in self.nodes.iter().enumerate() {
            let rss = &node.rss;
            let numbers = rss.axes.iter().chain(&rss.corner).chain(&rss.lengths).chain([&rss.radius]);
            if !numbers.clone().all(|v| v.is_finite()) || rss.lengths.iter().chain([&rss.radius]).any(|&v| v < 0.0) {
                return Err(format!("node {i}: swept sphere is not finite or has a negative extent"));
            }
            let tol = 1e-9 * (self.magnitude + rss.size()) + 1e-300;
            points.clear();
            subtree_points(&self.nodes, &self.triangles, i, spans[i], &mut points);
            if !points.iter().all(|p| rss.rectangle_point_distance(p) <= rss.radius + tol) {
                return Err(format!("node {i}: swept sphere misses a vertex below it"));
            }
        }
        Ok(())
    }
}

/// For each node of a valid tree: the first and one past the last leaf-order triangle below
/// it, and how many triangles are below it (children come after their parents, so one
/// backward sweep does).
fn leaf_spans(nodes: &[Node]) -> Vec<(usize, usize, usize)> {
    let mut spans = vec![(0, 0, 0); nodes.len()];
    for i in (0..nodes.len()).rev() {
        let node = &nodes[i];
        spans[i] = if node.is_leaf() {
            (node.triangle(), node.triangle() + 1, 1)
        } else {
            let (l, r) = (spans[node.first_child()], spans[node.first_child() + 1]);
            (l.0.min(r.0), l.1.max(r.1), l.2 + r.2)
        };
    }
    spans
}

/// Appends the corners of the triangles below node `i` (whose span is `span`): the span's
/// range when it holds nothing else (always, for built trees), else found by a walk.
fn subtree_points(
    nodes: &[Node],
    triangles: &[Triangle],
    i: usize,
    span: (usize, usize, usize),
    points: &mut Vec<Vec3>,
) {
    let (first, last, count) = span;
    if last - first == count {
        points.extend(triangles[first..last].iter().flatten());
        return;
    }
    let mut stack = vec![i];
    while let Some(k) = stack.pop() {
        let n = &nodes[k];
        if n.is_leaf() {
            points.extend(triangles[n.triangle()].iter());
        } else {
            stack.push(n.first_child());
            stack.push(n.first_child() + 1);
        }
    }
}

/// Where the collide query keeps node `i`: slot and lane (see [`Model::collide_slots`]).
#[inline(always)]
#[allow(clippy::manual_div_ceil)] // branch-free in the query's inner loop; `i` < 2^32
pub(crate) fn slot_of(i: usize) -> (usize, usize) {
    ((i + 1) / 2, (i + 1) % 2)
}

/// The packed nodes of the collide query: each node's box with axes sorted by extent, and
/// the smallest sphere holding the corners of the triangles below it; two by two. Needs a
/// valid tree.
fn collide_slots(nodes: &[Node], boxes: &[Obb], triangles: &[Triangle], frame: &PackedFrame) -> Vec<NodePair> {
    let mut spheres = vec![Sphere { center: Vec3::zeros(), radius: 0.0 }; nodes.len()];
    let mut supports = vec![Support::default(); nodes.len()];
    let mut hints: Vec<Vec3> = Vec::new();
    let mut stack = Vec::new();
    // Children before parents: a node's search starts from its children's support points,
    // and looks for points outside a candidate sphere only below the children whose spheres
    // reach out of it.
    for i in (0..nodes.len()).rev() {
        let node = &nodes[i];
        if node.is_leaf() {
            (spheres[i], supports[i]) = Sphere::enclosing_with_support(&triangles[node.triangle()], &boxes[i]);
            continue;
        }
        hints.clear();
        for c in [node.first_child(), node.first_child() + 1] {
            hints.extend_from_slice(&supports[c].points[..supports[c].len]);
        }
        let mut below = Subtree { nodes, triangles, spheres: &spheres, root: i, stack: &mut stack };
        let (sphere, support) = Sphere::enclosing_set(&mut below, &hints, &boxes[i]);
        spheres[i] = sphere;
        supports[i] = support;
    }
    let packed: Vec<CollideNode> =
        (0..nodes.len()).map(|i| CollideNode::new(&boxes[i], &spheres[i], frame, nodes[i].payload)).collect();
    let mut slots = vec![NodePair::new(&packed[0], &packed[0])];
    slots.extend(packed[1..].chunks_exact(2).map(|c| NodePair::new(&c[0], &c[1])));
    slots
}

/// The corners of the triangles below an inner node, queried through its descendants'
/// spheres (all computed): a subtree whose sphere cannot reach beyond the distance asked
/// is skipped.
struct Subtree<'a> {
    nodes: &'a [Node],
    triangles: &'a [Triangle],
    spheres: &'a [Sphere],
    root: usize,
    stack: &'a mut Vec<usize>,
}

impl PointSet for Subtree<'_> {
    fn farthest(&mut self, c: &Vec3, beyond2: f64) -> Option<(f64, Vec3)> {
        let mut best = (beyond2, None);
        let first = self.nodes[self.root].first_child();
        self.stack.clear();
        self.stack.extend([first, first + 1]);
        while let Some(j) = self.stack.pop() {
            // Every point below j is within `radius` of its centre (exactly: the radius is
            // padded); the margin covers the rounding of this bound, so a skipped subtree
            // holds no point whose rounded distance beats `best`.
            let s = &self.spheres[j];
            let reach = ((s.center - c).norm() + s.radius) * (1.0 + 1e-9);
            if reach * reach <= best.0 {
                continue;
            }
            let node = &self.nodes[j];
            if node.is_leaf() {
                for p in &self.triangles[node.triangle()] {
                    let d2 = (p - c).norm_squared();
                    if d2 > best.0 {
                        best = (d2, Some(*p));
                    }
                }
            } else {
                self.stack.extend([node.first_child(), node.first_child() + 1]);
            }
        }
        best.1.map(|p| (best.0, p))
    }

    fn collect(&mut self, out: &mut Vec<Vec3>) {
        let span = leaf_spans_of(self.nodes, self.root);
        subtree_points(self.nodes, self.triangles, self.root, span, out);
    }
}

/// [`leaf_spans`] of one node (for the rare fallback that needs all its points).
fn leaf_spans_of(nodes: &[Node], i: usize) -> (usize, usize, usize) {
    let mut span = (usize::MAX, 0, 0);
    let mut stack = vec![i];
    while let Some(k) = stack.pop() {
        let n = &nodes[k];
        if n.is_leaf() {
            span = (span.0.min(n.triangle()), span.1.max(n.triangle() + 1), span.2 + 1);
        } else {
            stack.extend([n.first_child(), n.first_child() + 1]);
        }
    }
    span
}

fn placeholder() -> Node {
    Node { rss: Rss { axes: Mat3::identity(), corner: Vec3::zeros(), lengths: [0.0; 2], radius: 0.0 }, payload: 0 }
}

fn placeholder_box() -> Obb {
    Obb { axes: Mat3::identity(), center: Vec3::zeros(), half: Vec3::zeros() }
}

/// The nodes' boxes of a valid tree, fitted as the build fits them: on the node's axes (its
/// swept sphere's, which must be orthonormal) around the vertices below it.
fn fit_boxes(nodes: &[Node], triangles: &[Triangle]) -> Result<Vec<Obb>, String> {
    let spans = leaf_spans(nodes);
    let mut points = Vec::new();
    let mut boxes = Vec::with_capacity(nodes.len());
    for (i, node) in nodes.iter().enumerate() {
        let axes = &node.rss.axes;
        let gram = axes.transpose() * axes - Mat3::identity();
        if !gram.iter().all(|v| v.abs() <= 1e-9) {
            return Err(format!("node {i}: axes are not orthonormal"));
        }
        points.clear();
        subtree_points(nodes, triangles, i, spans[i], &mut points);
        boxes.push(Obb::fit(axes, points.iter().copied(), fit_margin(&points)));
    }
    Ok(boxes)
}

/// Grows boxes by the rounding the fit itself can make (projection and back-projection).
fn fit_margin(points: &[Vec3]) -> f64 {
    let m = points.iter().map(|p| p.amax()).fold(0.0, f64::max);
    16.0 * f64::EPSILON * m
}

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

/// Principal axes of the area-weighted second moments of the triangles in `range`
/// (moments of the filled triangles, taken about their weighted mean to avoid
/// cancellation), and that mean.
fn moment_frame(range: &[u32], triangles: &[Triangle], stats: &[TriStats]) -> (Mat3, Vec3) {
    let mut total = 0.0;
    let mut weighted = Vec3::zeros();
    for &k in range {
        let s = &stats[k as usize];
        total += s.weight;
        weighted += s.centroid * s.weight;
    }
    let mean = weighted / total;
    let mut cov = Mat3::zeros();
    for &k in range {
        let t = &triangles[k as usize];
        let s = &stats[k as usize];
        let m = s.centroid - mean;
        let (p, q, r) = (t[0] - mean, t[1] - mean, t[2] - mean);
        cov +=
            (m * m.transpose() * 9.0 + p * p.transpose() + q * q.transpose() + r * r.transpose()) * (s.weight / 12.0);
    }
    cov -= (weighted / total - mean) * (weighted / total - mean).transpose() * total;
    (principal_axes(&cov), mean)
}

/// Moves the items satisfying `left` to the front; returns how many there are.
fn partition(items: &mut [u32], left: impl Fn(u32) -> bool) -> usize {
    let mut boundary = 0;
    for i in 0..items.len() {
        if left(items[i]) {
            items.swap(i, boundary);
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
    fn builds_valid_trees() {
        for n in [1, 2, 3, 10] {
            let (tris, ids) = grid(n);
            let m = Model::new(tris, ids).unwrap();
            m.validate().unwrap();
        }
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

    #[test]
    fn refuses_bad_input() {
        assert_eq!(Model::new(vec![], vec![]).unwrap_err(), BuildError::EmptyModel);
        let t = [Vec3::zeros(), Vec3::x(), Vec3::new(f64::NAN, 0.0, 0.0)];
        assert_eq!(Model::new(vec![t], vec![0]).unwrap_err(), BuildError::NonFiniteCoordinate);
        let mut b = ModelBuilder::new();
        assert!(b.add_triangle(t, 0).is_err());
        assert!(b.is_empty());
    }
}
