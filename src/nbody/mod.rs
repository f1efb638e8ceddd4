//! N-body collision: many rigid objects, moved one pose at a time, with the colliding object
//! pairs found per frame — V-COLLIDE's job (`VCOLLIDE.md`), in safe Rust and without globals
//! (each [`World`] is independent; different worlds may live in different threads).
//!
//! * Broad phase: every object has a bounding cube around its bounding sphere (computed once
//!   in model space, so it stays valid under any rotation); the cubes are kept in an
//!   incremental sweep and prune on three axes ([`sweep`]), which maintains the set of pairs
//!   with overlapping cubes as the poses change.
//! * Narrow phase: the collide query on every candidate pair whose two objects are active and
//!   which is not disabled, with the lower id as model 1 and the triangle test in model 2's
//!   frame (RAPID's convention, as V-COLLIDE). The poses are the world's, checked by its own
//!   rules (rigid motions, reflections included), not by the Rust API's `Placement::check`,
//!   which refuses reflections.
//!
//! * Deforming objects ([`World::add_model`] with a deformable model,
//!   [`World::add_deformable`]): [`World::update_vertices`] moves an object's vertices, refits
//!   its hierarchy ([`Model::update_vertices`]), recomputes its bounding sphere and moves its
//!   cube in the broad phase at once, so a pair whose cubes come to overlap only because an
//!   object grew is a candidate in the next [`World::collide`] (the step an engine misses
//!   when it refits the mesh but not the broad phase's box).
//!
//! Ids are handed out 0, 1, 2, … and never reused. Memory grows by a few dozen bytes per id
//! ever created (deleted ids keep an empty slot).

pub mod sweep;

use std::collections::BTreeSet;

use crate::math::{Mat3, Placement, Triangle, Vec3};
use crate::model::{BuildError, Model, RefitError, RefitReport};
use crate::query::collide::{CollideRequest, CollideResult, ContactPair, TriangleFrame, collide_placed};
use sweep::{Aabb, SweepAndPrune};

/// An object id (at most `i32::MAX`, so that it fits a C `int`).
///
/// cbindgen:ignore
pub type ObjectId = u32;

/// A 4×4 pose, `pose[row][col]`: rotation = upper-left 3×3, translation = last column
/// (`pose[0][3], pose[1][3], pose[2][3]`); a model point p goes to `R·p + T`. Row 3 is never
/// read.
///
/// cbindgen:ignore
pub type Pose = [[f64; 4]; 4];

/// The identity pose, every object's pose at creation.
///
/// cbindgen:ignore
pub const IDENTITY_POSE: Pose =
    [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];

/// How far the rotation block of a pose may be from orthonormal: every entry of `R·Rᵀ − I`
/// must be at most this in magnitude.
///
/// cbindgen:ignore
pub const RIGIDITY_TOLERANCE: f64 = 1e-6;

/// V-COLLIDE's growth of the bounding-sphere radius (`VCOLLIDE.md` §5.1).
const RADIUS_FACTOR: f64 = 1.0001;

/// Why a call was refused. A refused call changes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NBodyError {
    /// The id is not (or no longer) an object.
    InvalidId,
    /// An object needs at least one triangle.
    EmptyObject,
    /// A coordinate or a pose entry is NaN or infinite.
    NonFinite,
    /// A finite coordinate or translation beyond 2^900 (about 8.5e270): the n-body range, the
    /// collide query's range with room for rotations.
    OutOfRange,
    /// The rotation block of a pose is not orthonormal within [`RIGIDITY_TOLERANCE`].
    NotRigid,
    /// All ids up to `i32::MAX` have been handed out.
    TooManyObjects,
    /// More triangles than one model can index.
    TooManyTriangles,
    /// A deforming object's vertices could not be set or its model built (not deformable,
    /// wrong count, index out of range or repeated, ...): see the [`RefitError`]. Non-finite
    /// and out-of-range coordinates are [`NBodyError::NonFinite`] and
    /// [`NBodyError::OutOfRange`].
    Deform(RefitError),
}

impl std::fmt::Display for NBodyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NBodyError::InvalidId => "the id is not an object (never created, or deleted)",
            NBodyError::EmptyObject => "an object needs at least one triangle",
            NBodyError::NonFinite => "a coordinate or pose entry is NaN or infinite",
            NBodyError::OutOfRange => "a coordinate or translation is beyond 2^900 (the n-body range)",
            NBodyError::NotRigid => "the rotation block of the pose is not orthonormal",
            NBodyError::TooManyObjects => "all object ids up to 2^31 - 1 are used",
            NBodyError::TooManyTriangles => "too many triangles for one object",
            NBodyError::Deform(e) => return write!(f, "deforming object: {e}"),
        })
    }
}

impl std::error::Error for NBodyError {}

impl From<RefitError> for NBodyError {
    fn from(e: RefitError) -> NBodyError {
        match e {
            RefitError::NonFiniteCoordinate => NBodyError::NonFinite,
            RefitError::OutOfRange => NBodyError::OutOfRange,
            RefitError::EmptyModel => NBodyError::EmptyObject,
            e => NBodyError::Deform(e),
        }
    }
}

impl From<BuildError> for NBodyError {
    fn from(e: BuildError) -> NBodyError {
        match e {
            BuildError::EmptyModel => NBodyError::EmptyObject,
            BuildError::NonFiniteCoordinate => NBodyError::NonFinite,
            BuildError::OutOfRange => NBodyError::OutOfRange,
            BuildError::TooManyTriangles => NBodyError::TooManyTriangles,
            BuildError::IdCountMismatch { .. } | BuildError::IndexOutOfRange => NBodyError::Deform(e.into()),
        }
    }
}

/// One colliding object pair of a [`World::collide`] call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectContact {
    /// The lower id.
    pub id1: ObjectId,
    /// The higher id.
    pub id2: ObjectId,
    /// All contacts: the intersecting triangles as (triangle id in `id1`, triangle id in
    /// `id2`), in discovery order. First contact: empty.
    pub tri_pairs: Vec<ContactPair>,
}

/// An object: its hierarchy, bounding cube (model space, of its current vertices) and current
/// pose.
#[derive(Clone, Debug)]
struct Object {
    model: Model,
    /// Centre of the bounding cube in model space (the corners' average).
    center: Vec3,
    /// Half-width of the cube: the bounding-sphere radius times 1.0001.
    half: f64,
    /// `max |center[k]|`, for the rounding margin of posed cubes.
    center_magnitude: f64,
    pose: Pose,
    placement: Placement,
    active: bool,
}

impl Object {
    /// The cube at the current pose, widened by a bound on the rounding of its centre so
    /// that it always holds the posed object.
    fn cube(&self) -> Aabb {
        let (c, t) = (&self.center, &self.pose);
        let mut lo = [0.0; 3];
        let mut hi = [0.0; 3];
        for k in 0..3 {
            let ck = c[0] * t[k][0] + c[1] * t[k][1] + c[2] * t[k][2] + t[k][3];
            let h = self.half + 16.0 * f64::EPSILON * (self.center_magnitude + ck.abs() + self.half);
            lo[k] = ck - h;
            hi[k] = ck + h;
        }
        Aabb { lo, hi }
    }
}

/// A set of rigid objects, their poses and activation, and the last collision result.
#[derive(Clone, Debug)]
pub struct World {
    /// Indexed by id; `None` once deleted.
    objects: Vec<Option<Object>>,
    live: usize,
    broad: SweepAndPrune,
    /// Disabled unordered pairs `(a, b)`, `a < b`.
    disabled: BTreeSet<(ObjectId, ObjectId)>,
    contacts: Vec<ObjectContact>,
    scratch: CollideResult,
}

impl Default for World {
    fn default() -> World {
        World::new()
    }
}

impl World {
    /// An empty world.
    pub fn new() -> World {
        World {
            objects: Vec::new(),
            live: 0,
            broad: SweepAndPrune::new(),
            disabled: BTreeSet::new(),
            contacts: Vec::new(),
            scratch: CollideResult::new(),
        }
    }

    /// The id the next [`World::add_object`] will return, or `None` if ids are exhausted.
    pub fn next_id(&self) -> Option<ObjectId> {
        let n = self.objects.len();
        (n <= i32::MAX as usize).then_some(n as ObjectId)
    }

    /// Number of objects (not deleted).
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether there are no objects (none added, or all deleted).
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// True when `id` is an object (created and not deleted).
    pub fn contains(&self, id: ObjectId) -> bool {
        self.object(id).is_some()
    }

    fn object(&self, id: ObjectId) -> Option<&Object> {
        self.objects.get(id as usize).and_then(Option::as_ref)
    }

    fn object_mut(&mut self, id: ObjectId) -> Result<&mut Object, NBodyError> {
        self.objects.get_mut(id as usize).and_then(Option::as_mut).ok_or(NBodyError::InvalidId)
    }

    /// Adds an object made of `triangles` (triangle k reports `tri_ids[k]` in all-contacts
    /// results) at the identity pose, active, and returns its id. Its cube enters the broad
    /// phase at once, tested against every other cube at its current pose.
    ///
    /// Panics if the two vectors differ in length.
    pub fn add_object(&mut self, triangles: Vec<Triangle>, tri_ids: Vec<i32>) -> Result<ObjectId, NBodyError> {
        assert_eq!(triangles.len(), tri_ids.len(), "one id per triangle");
        let id = self.next_id().ok_or(NBodyError::TooManyObjects)?;
        if triangles.is_empty() {
            return Err(NBodyError::EmptyObject);
        }
        let (center, radius) = bounding_sphere(&triangles);
        let model = Model::new(triangles, tri_ids)?;
        self.insert(id, model, center, radius)
    }

    /// Adds a built model as an object (the world owns it) at the identity pose, active, and
    /// returns its id. A deformable model ([`Model::deformable`]) makes a deforming object,
    /// whose vertices [`World::update_vertices`] moves; any other is rigid. Its bounding
    /// sphere is that of its triangles (as [`World::add_object`]'s, up to the order of the
    /// sums). Refused with [`NBodyError::OutOfRange`] when a coordinate is beyond 2^900.
    pub fn add_model(&mut self, model: Model) -> Result<ObjectId, NBodyError> {
        let id = self.next_id().ok_or(NBodyError::TooManyObjects)?;
        let (center, radius) = bounding_sphere(model.triangles());
        self.insert(id, model, center, radius)
    }

    /// Adds a deforming object over `vertices` and `faces` (vertex indices; triangle k reports
    /// `tri_ids[k]`, or k when `None`): [`Model::deformable`] then [`World::add_model`].
    pub fn add_deformable(
        &mut self,
        vertices: &[Vec3],
        faces: &[[u32; 3]],
        tri_ids: Option<Vec<i32>>,
    ) -> Result<ObjectId, NBodyError> {
        self.next_id().ok_or(NBodyError::TooManyObjects)?;
        check_vertices(vertices)?;
        self.add_model(Model::deformable(vertices, faces, tri_ids)?)
    }

    fn insert(&mut self, id: ObjectId, model: Model, center: Vec3, radius: f64) -> Result<ObjectId, NBodyError> {
        if model.magnitude() > NBODY_RANGE {
            return Err(NBodyError::OutOfRange);
        }
        let object = Object {
            model,
            center,
            half: radius * RADIUS_FACTOR,
            center_magnitude: center.amax(),
            pose: IDENTITY_POSE,
            placement: Placement::IDENTITY,
            active: true,
        };
        self.broad.insert(id, object.cube());
        self.objects.push(Some(object));
        self.live += 1;
        Ok(id)
    }

    /// Moves every vertex of a deforming object (`vertices[v]` is vertex v's new position in
    /// its model frame, one per vertex of its model) and refits it ([`Model::update_vertices`]);
    /// its bounding sphere is recomputed and its cube moved in the broad phase at once. Linear
    /// in the object's size. Refused, changing nothing: [`NBodyError::InvalidId`],
    /// [`NBodyError::NonFinite`] (a coordinate NaN or infinite), [`NBodyError::OutOfRange`]
    /// (beyond 2^900),
    /// [`NBodyError::Deform`] (a rigid object: [`RefitError::NotDeformable`]; a wrong count).
    pub fn update_vertices(&mut self, id: ObjectId, vertices: &[Vec3]) -> Result<RefitReport, NBodyError> {
        self.object_mut(id)?;
        check_vertices(vertices)?;
        let object = self.object_mut(id)?;
        let report = object.model.update_vertices(vertices)?;
        self.after_deform(id);
        Ok(report)
    }

    /// Moves the vertices `indices[k]` of a deforming object to `positions[k]`, the others
    /// staying ([`Model::update_vertex_subset`]); otherwise as [`World::update_vertices`].
    pub fn update_vertex_subset(
        &mut self,
        id: ObjectId,
        indices: &[u32],
        positions: &[Vec3],
    ) -> Result<RefitReport, NBodyError> {
        self.object_mut(id)?;
        check_vertices(positions)?;
        let object = self.object_mut(id)?;
        let report = object.model.update_vertex_subset(indices, positions)?;
        self.after_deform(id);
        Ok(report)
    }

    /// The bounding sphere of an object whose vertices moved, and its cube in the broad phase.
    fn after_deform(&mut self, id: ObjectId) {
        let object = self.objects[id as usize].as_mut().expect("a live object");
        let (center, radius) = bounding_sphere(object.model.triangles());
        object.center = center;
        object.half = radius * RADIUS_FACTOR;
        object.center_magnitude = center.amax();
        let cube = object.cube();
        self.broad.update(id, cube);
    }

    /// An object's model (its current vertices, for a deforming one).
    pub fn model(&self, id: ObjectId) -> Option<&Model> {
        self.object(id).map(|o| &o.model)
    }

    /// Deletes an object: its cube, candidate pairs and disabled pairs go; its id stays
    /// invalid for ever. The last collision result is not changed.
    pub fn delete(&mut self, id: ObjectId) -> Result<(), NBodyError> {
        self.object_mut(id)?;
        self.objects[id as usize] = None;
        self.live -= 1;
        self.broad.remove(id);
        self.disabled.retain(|&(a, b)| a != id && b != id);
        Ok(())
    }

    /// Sets an object's pose; the broad phase is updated at once. Refused (nothing changes)
    /// if an entry of the upper 3×4 block is not finite ([`NBodyError::NonFinite`]), the
    /// translation is beyond 2^900 ([`NBodyError::OutOfRange`]) or the rotation is not
    /// orthonormal within [`RIGIDITY_TOLERANCE`] (reflections are accepted: they are
    /// isometries too).
    pub fn set_pose(&mut self, id: ObjectId, pose: &Pose) -> Result<(), NBodyError> {
        let object = self.object_mut(id)?;
        check_pose(pose)?;
        object.pose = *pose;
        object.placement = placement_of(pose);
        let cube = object.cube();
        self.broad.update(id, cube);
        Ok(())
    }

    /// An object's pose (as given to [`World::set_pose`]; row 3 as given too).
    pub fn pose(&self, id: ObjectId) -> Option<&Pose> {
        self.object(id).map(|o| &o.pose)
    }

    /// Lets [`World::collide`] test the pairs involving `id` again.
    pub fn activate(&mut self, id: ObjectId) -> Result<(), NBodyError> {
        self.object_mut(id)?.active = true;
        Ok(())
    }

    /// Makes [`World::collide`] skip every pair involving `id` (the object still moves in
    /// the broad phase). Independent of the pair layer.
    pub fn deactivate(&mut self, id: ObjectId) -> Result<(), NBodyError> {
        self.object_mut(id)?.active = false;
        Ok(())
    }

    /// Whether the object is active; `None` if `id` is not an object.
    pub fn is_active(&self, id: ObjectId) -> Option<bool> {
        self.object(id).map(|o| o.active)
    }

    /// Re-enables the unordered pair {a, b} (no effect if it was not disabled, or a == b).
    pub fn activate_pair(&mut self, a: ObjectId, b: ObjectId) -> Result<(), NBodyError> {
        self.check_pair(a, b)?;
        self.disabled.remove(&ordered(a, b));
        Ok(())
    }

    /// Disables the unordered pair {a, b} (no effect if a == b). Independent of the object
    /// layer.
    pub fn deactivate_pair(&mut self, a: ObjectId, b: ObjectId) -> Result<(), NBodyError> {
        self.check_pair(a, b)?;
        if a != b {
            self.disabled.insert(ordered(a, b));
        }
        Ok(())
    }

    /// Whether the pair layer lets {a, b} be tested (ignores the object layer); `None` if an
    /// id is not an object.
    pub fn is_pair_enabled(&self, a: ObjectId, b: ObjectId) -> Option<bool> {
        (self.contains(a) && self.contains(b)).then(|| !self.disabled.contains(&ordered(a, b)))
    }

    fn check_pair(&self, a: ObjectId, b: ObjectId) -> Result<(), NBodyError> {
        if self.contains(a) && self.contains(b) { Ok(()) } else { Err(NBodyError::InvalidId) }
    }

    /// Whether {a, b} (a ≠ b) would be tested if its cubes overlapped: both active and the
    /// pair not disabled.
    fn tested(&self, a: ObjectId, b: ObjectId) -> bool {
        let active = |id| self.object(id).is_some_and(|o| o.active);
        active(a) && active(b) && !self.disabled.contains(&ordered(a, b))
    }

    /// The broad phase's candidate pairs (cubes overlap), `(a, b)` with `a < b`, ascending.
    /// Activation is not applied.
    pub fn candidates(&self) -> impl Iterator<Item = (ObjectId, ObjectId)> + '_ {
        self.broad.pairs().iter().copied()
    }

    /// Adjacent swaps the sweep and prune has made so far (its cost measure).
    pub fn broad_phase_swaps(&self) -> u64 {
        self.broad.swaps()
    }

    /// Finds the colliding object pairs: every candidate pair whose objects are both active
    /// and which is not disabled, for which the two posed meshes have an intersecting
    /// triangle pair (touching counts; containment without surface contact does not).
    /// Sorted by `id1`, then `id2`, with `id1 < id2`. With `first_contact` the search stops at
    /// the first triangle pair per object pair and `tri_pairs` stay empty; otherwise they
    /// list every intersecting triangle pair. The result is kept until the next call
    /// ([`World::contacts`]).
    pub fn collide(&mut self, first_contact: bool) -> &[ObjectContact] {
        let request = CollideRequest { first_contact, frame: TriangleFrame::Model2, ..Default::default() };
        let mut contacts = std::mem::take(&mut self.contacts);
        let mut scratch = std::mem::take(&mut self.scratch);
        contacts.clear();
        for &(a, b) in self.broad.pairs() {
            if !self.tested(a, b) {
                continue;
            }
            let (Some(oa), Some(ob)) = (self.object(a), self.object(b)) else {
                continue;
            };
            // (Never out of range: objects and poses are checked against NBODY_RANGE.)
            let in_range = collide_placed(&oa.model, &oa.placement, &ob.model, &ob.placement, &request, &mut scratch);
            if in_range.is_ok() && scratch.colliding() {
                let tri_pairs = if first_contact { Vec::new() } else { scratch.pairs.clone() };
                contacts.push(ObjectContact { id1: a, id2: b, tri_pairs });
            }
        }
        self.contacts = contacts;
        self.scratch = scratch;
        &self.contacts
    }

    /// The result of the last [`World::collide`] (empty before the first).
    pub fn contacts(&self) -> &[ObjectContact] {
        &self.contacts
    }

    /// The answer [`World::collide`] must give, by brute force: `collide` on every pair of
    /// tested objects, without the broad phase (for checks; quadratic).
    pub fn collide_brute_force(&self, first_contact: bool) -> Vec<ObjectContact> {
        let request = CollideRequest { first_contact, frame: TriangleFrame::Model2, ..Default::default() };
        let mut scratch = CollideResult::new();
        let mut out = Vec::new();
        let ids: Vec<ObjectId> = (0..self.objects.len() as ObjectId).filter(|&i| self.contains(i)).collect();
        for (k, &a) in ids.iter().enumerate() {
            for &b in &ids[k + 1..] {
                if !self.tested(a, b) {
                    continue;
                }
                let (oa, ob) = (self.object(a).unwrap(), self.object(b).unwrap());
                // (Never out of range: objects and poses are checked against NBODY_RANGE.)
                let in_range =
                    collide_placed(&oa.model, &oa.placement, &ob.model, &ob.placement, &request, &mut scratch);
                if in_range.is_ok() && scratch.colliding() {
                    let tri_pairs = if first_contact { Vec::new() } else { scratch.pairs.clone() };
                    out.push(ObjectContact { id1: a, id2: b, tri_pairs });
                }
            }
        }
        out
    }

    /// Checks the broad phase: sorted lists, and candidates equal to the brute-force set of
    /// overlapping cubes, each cube at its object's current pose.
    pub fn validate(&self) -> Result<(), String> {
        self.broad.validate()?;
        for (id, object) in self.objects.iter().enumerate() {
            let stored = self.broad.bounds(id as ObjectId);
            match (object, stored) {
                (Some(o), Some(b)) if o.cube() == *b => {}
                (None, None) => {}
                _ => return Err(format!("object {id}: broad-phase cube out of date")),
            }
        }
        Ok(())
    }
}

#[inline]
fn ordered(a: ObjectId, b: ObjectId) -> (ObjectId, ObjectId) {
    if a < b { (a, b) } else { (b, a) }
}

/// Centre (average of all corners, each triangle's three counted) and radius (largest
/// distance from it to a corner) of the object's bounding sphere, as V-COLLIDE (§5.1).
fn bounding_sphere(triangles: &[Triangle]) -> (Vec3, f64) {
    let mut sum = [0.0f64; 3];
    for t in triangles {
        for (k, s) in sum.iter_mut().enumerate() {
            *s += (t[0][k] + t[1][k]) + t[2][k];
        }
    }
    let n = 3.0 * triangles.len() as f64;
    let center = Vec3::new(sum[0] / n, sum[1] / n, sum[2] / n);
    // The distances are measured in units of the largest offset, so that their squares neither
    // overflow (objects up to 2^900) nor underflow (subnormal ones); the rounding this adds is
    // far inside RADIUS_FACTOR.
    let unit = triangles.iter().flatten().map(|p| (p - center).amax()).fold(0.0f64, f64::max);
    if unit == 0.0 {
        return (center, 0.0);
    }
    let mut max_sq = 0.0f64;
    for p in triangles.iter().flatten() {
        let d = (p - center) / unit;
        max_sq = max_sq.max(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    }
    (center, unit * max_sq.sqrt())
}

/// The largest coordinate and translation of the n-body world: rigid poses of objects within
/// it keep every placed coordinate within the collide query's range (`RANGE_LIMIT`, 2^1000).
pub(crate) const NBODY_RANGE: f64 = 8.452712498170644e270; // 2^900

/// Vertices of a deforming object: finite and within [`NBODY_RANGE`].
fn check_vertices(vertices: &[Vec3]) -> Result<(), NBodyError> {
    if !vertices.iter().all(|p| p.iter().all(|v| v.is_finite())) {
        Err(NBodyError::NonFinite)
    } else if !vertices.iter().all(|p| p.amax() <= NBODY_RANGE) {
        Err(NBodyError::OutOfRange)
    } else {
        Ok(())
    }
}

/// Refuses non-finite entries in the upper 3×4 block, translations beyond [`NBODY_RANGE`] and
/// rotations that are not orthonormal within [`RIGIDITY_TOLERANCE`].
fn check_pose(pose: &Pose) -> Result<(), NBodyError> {
    if !pose[..3].iter().flatten().all(|v| v.is_finite()) {
        return Err(NBodyError::NonFinite);
    }
    if (0..3).any(|i| pose[i][3].abs() > NBODY_RANGE) {
        return Err(NBodyError::OutOfRange);
    }
    for i in 0..3 {
        for j in i..3 {
            let dot: f64 = (0..3).map(|k| pose[i][k] * pose[j][k]).sum();
            let expected = if i == j { 1.0 } else { 0.0 };
            if (dot - expected).abs() > RIGIDITY_TOLERANCE {
                return Err(NBodyError::NotRigid);
            }
        }
    }
    Ok(())
}

fn placement_of(pose: &Pose) -> Placement {
    let p = pose;
    Placement {
        rotation: Mat3::new(p[0][0], p[0][1], p[0][2], p[1][0], p[1][1], p[1][2], p[2][0], p[2][1], p[2][2]),
        translation: Vec3::new(p[0][3], p[1][3], p[2][3]),
        scale: 1.0,
    }
}

#[cfg(test)]
mod tests;
