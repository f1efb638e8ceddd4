//! Peers measured in the same run on the same meshes and poses: parry3d-f64 always; FCL
//! (BVHModel<OBBRSS>, through the C++ shim of `fcl_shim/`) when `scripts/install_fcl.sh` has
//! installed it (`build.rs` then sets `cfg(has_fcl)`). FCL's answers are checked against ours.

use rapidpqp::query::ContactPair;

/// What our query answered at each pose, for checking a peer's answers.
#[derive(Default)]
pub struct Answers {
    /// Collide: the intersecting triangle pairs, sorted.
    pub pairs: Vec<Vec<ContactPair>>,
    /// Distance: the distance.
    pub distances: Vec<f64>,
}

/// A peer's answer at one pose.
pub enum PeerAnswer {
    /// All contacts: the intersecting triangle pairs, sorted.
    Pairs(Vec<ContactPair>),
    /// First contact: whether the models intersect.
    Colliding(bool),
    /// The distance (FCL: negative when the models intersect).
    Distance(f64),
}

/// The query a peer is timed on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PeerQuery {
    CollideFirst,
    CollideAll,
    Distance,
}

/// parry3d-f64, measured in the same run on the same meshes and poses.
pub mod parry {
    use crate::timing::time_passes;

    use parry3d_f64::math::{Matrix, Pose as ParryPose, Rotation, Vector};
    use parry3d_f64::query;
    use parry3d_f64::shape::{TriMesh, TriMeshFlags};
    use rapidpqp::{Placement, Triangle};

    /// A triangle soup as parry's mesh: three vertices per triangle, nothing merged.
    pub fn mesh(tris: &[Triangle]) -> TriMesh {
        mesh_with_flags(tris, TriMeshFlags::empty())
    }

    /// A closed mesh for parry's inside/outside answers: vertices merged (exact coordinates)
    /// and `ORIENTED`, so that its pseudo-normals decide whether a point is inside.
    pub fn oriented_mesh(tris: &[Triangle]) -> TriMesh {
        mesh_with_flags(tris, TriMeshFlags::MERGE_DUPLICATE_VERTICES | TriMeshFlags::ORIENTED)
    }

    fn mesh_with_flags(tris: &[Triangle], flags: TriMeshFlags) -> TriMesh {
        let mut vertices = Vec::with_capacity(3 * tris.len());
        let mut indices = Vec::with_capacity(tris.len());
        for (k, t) in tris.iter().enumerate() {
            for p in t {
                vertices.push(Vector::new(p.x, p.y, p.z));
            }
            let k = 3 * k as u32;
            indices.push([k, k + 1, k + 2]);
        }
        TriMesh::with_flags(vertices, indices, flags).expect("parry trimesh")
    }

    fn pose(p: &Placement) -> ParryPose {
        let r = &p.rotation;
        let m = Matrix::from_cols(
            Vector::new(r[(0, 0)], r[(1, 0)], r[(2, 0)]),
            Vector::new(r[(0, 1)], r[(1, 1)], r[(2, 1)]),
            Vector::new(r[(0, 2)], r[(1, 2)], r[(2, 2)]),
        );
        ParryPose::from_parts(Vector::new(p.translation.x, p.translation.y, p.translation.z), Rotation::from_mat3(&m))
    }

    /// Median over repeats of the mean µs per query; `distance` selects the query.
    pub fn time(a: &TriMesh, b: &TriMesh, poses: &[(Placement, Placement)], distance: bool, repeats: usize) -> f64 {
        let converted: Vec<_> = poses.iter().map(|(p1, p2)| (pose(p1), pose(p2))).collect();
        let mut checksum = 0.0;
        let timing = time_passes(repeats, converted.len(), || {
            for (p1, p2) in &converted {
                checksum += if distance {
                    query::distance(p1, a, p2, b).map_or(f64::NAN, |d| d.distance)
                } else {
                    f64::from(u8::from(query::intersection_test(p1, a, p2, b).is_ok_and(|i| i.intersecting)))
                };
            }
        });
        std::hint::black_box(checksum);
        timing.median
    }
}

/// FCL (BVHModel<OBBRSS<double>>), measured in the same run on the same meshes and poses
/// through the C++ shim `fcl_shim/fcl_shim.cpp`, which `build.rs` compiles when FCL is
/// installed (`scripts/install_fcl.sh`).
#[cfg(has_fcl)]
pub mod fcl {
    use std::ffi::c_void;

    use rapidpqp::query::ContactPair;
    use rapidpqp::{Placement, Triangle};

    use super::{Answers, PeerAnswer, PeerQuery};
    use crate::timing::{Timing, time_passes};

    pub const AVAILABLE: bool = true;

    /// "All contacts": more than any scene of the benchmark has.
    const ALL_CONTACTS: usize = 1 << 40;

    unsafe extern "C" {
        fn fcl_shim_model_new(coords: *const f64, triangles: usize) -> *mut c_void;
        fn fcl_shim_model_free(model: *mut c_void);
        fn fcl_shim_collide(
            m1: *const c_void,
            rot1: *const f64,
            trans1: *const f64,
            m2: *const c_void,
            rot2: *const f64,
            trans2: *const f64,
            max_contacts: usize,
            pairs: *mut i32,
            capacity: usize,
        ) -> usize;
        fn fcl_shim_distance(
            m1: *const c_void,
            rot1: *const f64,
            trans1: *const f64,
            m2: *const c_void,
            rot2: *const f64,
            trans2: *const f64,
        ) -> f64;
        fn fcl_shim_continuous(
            m1: *const c_void,
            rot1a: *const f64,
            trans1a: *const f64,
            rot1b: *const f64,
            trans1b: *const f64,
            m2: *const c_void,
            rot2: *const f64,
            trans2: *const f64,
            motion: i32,
            collide: *mut i32,
        ) -> f64;
    }

    /// FCL's motion models for continuous collision.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Motion {
        /// `CCDM_TRANS`: translation only.
        Translation = 0,
        /// `CCDM_LINEAR`: translation linear in time, rotation about the model's origin at a
        /// constant rate (our `time_of_impact`'s motion).
        Linear = 1,
        /// `CCDM_SCREW`: a screw motion between the two poses.
        Screw = 2,
    }

    /// FCL's continuous collision (conservative advancement) of `a` moving from `start` to
    /// `end` against `b` at `pb`: `Some(time of contact)` when FCL reports a contact, `None`
    /// when free; `Err` when FCL threw.
    pub fn continuous(
        a: &Mesh,
        start: &Placement,
        end: &Placement,
        b: &Mesh,
        pb: &Placement,
        motion: Motion,
    ) -> Result<Option<f64>, String> {
        let ((ra, ta), (rb, tb), (r2, t2)) = (pose(start), pose(end), pose(pb));
        let mut hit = 0i32;
        // SAFETY: live models; 9 + 3 numbers per placement; `hit` is a valid out pointer.
        let toc = unsafe {
            fcl_shim_continuous(
                a.0,
                ra.as_ptr(),
                ta.as_ptr(),
                rb.as_ptr(),
                tb.as_ptr(),
                b.0,
                r2.as_ptr(),
                t2.as_ptr(),
                motion as i32,
                &mut hit,
            )
        };
        if toc < 0.0 {
            return Err("FCL threw".into());
        }
        Ok((hit != 0).then_some(toc))
    }

    /// Whether FCL's discrete collide finds the placed meshes intersecting.
    pub fn intersecting(a: &Mesh, pa: &Placement, b: &Mesh, pb: &Placement) -> bool {
        collide(a, b, &(pose(pa), pose(pb)), 1, None) > 0
    }

    /// An FCL model of a triangle soup; triangle k has id k, as in our models.
    pub struct Mesh(*mut c_void);

    impl Mesh {
        pub fn new(tris: &[Triangle]) -> Option<Mesh> {
            let coords: Vec<f64> = tris.iter().flat_map(|t| t.iter().flat_map(|p| [p.x, p.y, p.z])).collect();
            // SAFETY: `coords` holds 9 numbers per triangle.
            let model = unsafe { fcl_shim_model_new(coords.as_ptr(), tris.len()) };
            if model.is_null() {
                eprintln!("FCL: model build failed ({} triangles)", tris.len());
                None
            } else {
                Some(Mesh(model))
            }
        }
    }

    impl Drop for Mesh {
        fn drop(&mut self) {
            // SAFETY: built by fcl_shim_model_new, freed once.
            unsafe { fcl_shim_model_free(self.0) }
        }
    }

    /// Row-major rotation and translation of a placement (FCL has no scale).
    fn pose(p: &Placement) -> ([f64; 9], [f64; 3]) {
        assert!(p.scale == 1.0, "FCL peer: placements with a scale are not supported");
        let r = &p.rotation;
        let t = &p.translation;
        (
            [r[(0, 0)], r[(0, 1)], r[(0, 2)], r[(1, 0)], r[(1, 1)], r[(1, 2)], r[(2, 0)], r[(2, 1)], r[(2, 2)]],
            [t.x, t.y, t.z],
        )
    }

    type FclPose = (([f64; 9], [f64; 3]), ([f64; 9], [f64; 3]));

    fn collide(a: &Mesh, b: &Mesh, (p1, p2): &FclPose, max: usize, pairs: Option<&mut Vec<i32>>) -> usize {
        let (ptr, cap) = match pairs {
            Some(v) => (v.as_mut_ptr(), v.len() / 2),
            None => (std::ptr::null_mut(), 0),
        };
        // SAFETY: live models; 9 + 3 numbers per placement; `ptr` has room for `cap` pairs.
        unsafe { fcl_shim_collide(a.0, p1.0.as_ptr(), p1.1.as_ptr(), b.0, p2.0.as_ptr(), p2.1.as_ptr(), max, ptr, cap) }
    }

    fn distance(a: &Mesh, b: &Mesh, (p1, p2): &FclPose) -> f64 {
        // SAFETY: live models; 9 + 3 numbers per placement.
        unsafe { fcl_shim_distance(a.0, p1.0.as_ptr(), p1.1.as_ptr(), b.0, p2.0.as_ptr(), p2.1.as_ptr()) }
    }

    /// Poses converted once for FCL.
    pub struct Poses(Vec<FclPose>);

    impl Poses {
        pub fn new(poses: &[(Placement, Placement)]) -> Poses {
            Poses(poses.iter().map(|(p1, p2)| (pose(p1), pose(p2))).collect())
        }
    }

    /// `repeats` sweeps of `query` over all poses (the caller times them).
    pub fn sweep(a: &Mesh, b: &Mesh, poses: &Poses, query: PeerQuery, repeats: usize) {
        let max = if query == PeerQuery::CollideAll { ALL_CONTACTS } else { 1 };
        let mut checksum = 0.0;
        for _ in 0..repeats {
            for p in &poses.0 {
                checksum += match query {
                    PeerQuery::Distance => distance(a, b, p),
                    _ => collide(a, b, p, max, None) as f64,
                };
            }
        }
        std::hint::black_box(checksum);
    }

    impl Poses {
        pub fn len(&self) -> usize {
            self.0.len()
        }
    }

    /// FCL's answer at each pose: the sorted contact pairs (all contacts; duplicates
    /// removed, and counted in the second value), whether any (first contact), or the distance.
    pub fn answers(a: &Mesh, b: &Mesh, poses: &Poses, query: PeerQuery) -> (Vec<PeerAnswer>, usize) {
        let (mut buffer, mut dupes) = (Vec::new(), 0);
        let answers = poses
            .0
            .iter()
            .map(|p| match query {
                PeerQuery::Distance => PeerAnswer::Distance(distance(a, b, p)),
                PeerQuery::CollideFirst => PeerAnswer::Colliding(collide(a, b, p, 1, None) > 0),
                PeerQuery::CollideAll => {
                    let n = collide(a, b, p, ALL_CONTACTS, None);
                    buffer.resize(2 * n, 0);
                    collide(a, b, p, ALL_CONTACTS, Some(&mut buffer));
                    let mut pairs: Vec<ContactPair> =
                        buffer.chunks_exact(2).map(|c| ContactPair { id1: c[0], id2: c[1] }).collect();
                    pairs.sort_unstable();
                    let len = pairs.len();
                    pairs.dedup();
                    dupes += len - pairs.len();
                    PeerAnswer::Pairs(pairs)
                }
            })
            .collect();
        (answers, dupes)
    }

    /// µs per query over `repeats` sweeps, and the check of FCL's answers against ours ("ok",
    /// or what differs).
    pub fn time_and_check(
        a: &Mesh,
        b: &Mesh,
        poses: &[(Placement, Placement)],
        query: PeerQuery,
        ours: &Answers,
        repeats: usize,
    ) -> (Timing, String) {
        let converted: Vec<FclPose> = poses.iter().map(|(p1, p2)| (pose(p1), pose(p2))).collect();
        let max = if query == PeerQuery::CollideAll { ALL_CONTACTS } else { 1 };
        let mut checksum = 0.0;
        let timing = time_passes(repeats, converted.len(), || {
            for p in &converted {
                checksum += match query {
                    PeerQuery::Distance => distance(a, b, p),
                    _ => collide(a, b, p, max, None) as f64,
                };
            }
        });
        std::hint::black_box(checksum);
        let check = match query {
            PeerQuery::Distance => check_distances(a, b, &converted, &ours.distances),
            _ => check_contacts(a, b, &converted, query, &ours.pairs),
        };
        (timing, check)
    }

    fn check_contacts(a: &Mesh, b: &Mesh, poses: &[FclPose], query: PeerQuery, ours: &[Vec<ContactPair>]) -> String {
        let (mut differ, mut only_ours, mut only_fcl, mut dupes) = (0usize, 0usize, 0usize, 0usize);
        let mut buffer = Vec::new();
        for (p, ours) in poses.iter().zip(ours) {
            if query == PeerQuery::CollideFirst {
                if (collide(a, b, p, 1, None) > 0) == ours.is_empty() {
                    differ += 1;
                }
                continue;
            }
            let n = collide(a, b, p, ALL_CONTACTS, None);
            buffer.resize(2 * n, 0);
            collide(a, b, p, ALL_CONTACTS, Some(&mut buffer));
            let mut theirs: Vec<ContactPair> =
                buffer.chunks_exact(2).map(|c| ContactPair { id1: c[0], id2: c[1] }).collect();
            theirs.sort_unstable();
            let len = theirs.len();
            theirs.dedup();
            dupes += len - theirs.len();
            if theirs != *ours {
                differ += 1;
                only_ours += ours.iter().filter(|c| theirs.binary_search(c).is_err()).count();
                only_fcl += theirs.iter().filter(|c| ours.binary_search(c).is_err()).count();
            }
        }
        let mut check = if differ == 0 {
            "ok".to_string()
        } else if query == PeerQuery::CollideFirst {
            format!("WARNING: colliding or not differs at {differ}/{} poses", poses.len())
        } else {
            format!(
                "WARNING: contacts differ at {differ}/{} poses ({only_ours} pairs only ours, {only_fcl} only FCL's)",
                poses.len()
            )
        };
        if dupes > 0 {
            check += &format!(" (FCL reported {dupes} pairs twice)");
        }
        check
    }

    fn check_distances(a: &Mesh, b: &Mesh, poses: &[FclPose], ours: &[f64]) -> String {
        let (mut differ, mut worst) = (0usize, 0.0f64);
        let mut negative = 0usize;
        for (p, &d) in poses.iter().zip(ours) {
            let theirs = distance(a, b, p);
            if theirs < 0.0 && d == 0.0 {
                // FCL: "if the objects are in collision, the result distance is implementation
                // defined (mostly -1)" when signed distance is off.
                negative += 1;
                continue;
            }
            let err = (theirs - d).abs();
            if err > 1e-9 * d.abs().max(theirs.abs()) {
                differ += 1;
                worst = worst.max(err / d.abs().max(theirs.abs()).max(f64::MIN_POSITIVE));
            }
        }
        let mut check = if differ == 0 {
            "ok (rel. 1e-9)".to_string()
        } else {
            format!("WARNING: distance differs at {differ}/{} poses (worst rel. {worst:.1e})", poses.len())
        };
        if negative > 0 {
            check += &format!("; {negative} intersecting poses: FCL < 0, ours 0");
        }
        check
    }
}

/// FCL not installed: the benchmark runs without that peer (`scripts/install_fcl.sh`).
#[cfg(not(has_fcl))]
pub mod fcl {
    use rapidpqp::{Placement, Triangle};

    use super::{Answers, PeerAnswer, PeerQuery};
    use crate::timing::Timing;

    pub const AVAILABLE: bool = false;

    pub struct Mesh;

    impl Mesh {
        pub fn new(_: &[Triangle]) -> Option<Mesh> {
            None
        }
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Motion {
        Translation,
        Linear,
        Screw,
    }

    pub fn continuous(
        _: &Mesh,
        _: &Placement,
        _: &Placement,
        _: &Mesh,
        _: &Placement,
        _: Motion,
    ) -> Result<Option<f64>, String> {
        unreachable!("no FCL model without FCL")
    }

    pub fn intersecting(_: &Mesh, _: &Placement, _: &Mesh, _: &Placement) -> bool {
        unreachable!("no FCL model without FCL")
    }

    pub fn time_and_check(
        _: &Mesh,
        _: &Mesh,
        _: &[(Placement, Placement)],
        _: PeerQuery,
        _: &Answers,
        _: usize,
    ) -> (Timing, String) {
        unreachable!("no FCL model without FCL")
    }

    pub struct Poses;

    impl Poses {
        pub fn new(_: &[(Placement, Placement)]) -> Poses {
            Poses
        }
    }

    pub fn sweep(_: &Mesh, _: &Mesh, _: &Poses, _: PeerQuery, _: usize) {
        unreachable!("no FCL model without FCL")
    }

    impl Poses {
        pub fn len(&self) -> usize {
            0
        }
    }

    pub fn answers(_: &Mesh, _: &Mesh, _: &Poses, _: PeerQuery) -> (Vec<PeerAnswer>, usize) {
        unreachable!("no FCL model without FCL")
    }
}
