//! The C entry points added after the fuzzer's first version, driven by the same programs
//! and the same adversarial arguments (`capi.rs`): mesh files (`rpq_mesh_*`), contact
//! geometry (`rpq_collide_result_set_geometry`, `rpq_collide_result_geometry`,
//! `rpq_collide_result_geometries`, `rpq_contacts`, `rpq_intersection_curves`), deformable
//! models (`rpq_model_build_deformable`, `rpq_model_update_vertices`,
//! `rpq_model_update_vertex_subset`, `rpq_model_rebuild`, `rpq_model_degradation`,
//! `rpq_model_set_rebuild_threshold`), self-collision (`rpq_self_collide`) and the native
//! n-body world (`rpq_world_*`), with two more handle kinds (`RpqMesh`, `RpqWorld`).
//!
//! Checked after every call, as in `capi.rs`: the status is one the documentation gives
//! (exactly, where only one applies; `RPQ_ERR_BUSY` never, the program being single-threaded),
//! outputs are written only on success (and buffers only when large enough), and answers are
//! compared with brute force: self-collision with every pair of non-adjacent triangles,
//! geometry and contact sets with the collide pairs (one geometry per pair, every pair point
//! in exactly one contact), a deformable model after each update by colliding it with itself
//! (brute force on the new positions), mesh files with the vertices and faces written, and
//! the world's colliding object pairs and triangle pairs with every active, enabled pair.

use std::ffi::{CStr, c_char, c_int};

use rapidpqp::ffi::contact::*;
use rapidpqp::ffi::mesh::*;
use rapidpqp::ffi::refit::*;
use rapidpqp::ffi::world::*;
use rapidpqp::geometry::tri_intersect::triangles_intersect;
use rapidpqp::query::self_collide::{share_a_vertex, share_an_index};

use super::*;

/// Calls of each [`MoreOp`] kind, and of those the ones that succeeded.
static CALLS: crate::Counters<{ 2 * KINDS_OF_OP }> = crate::Counters::new();
const KINDS_OF_OP: usize = 28;
const NAMES: [&str; KINDS_OF_OP] = [
    "build_deformable",
    "update_vertices",
    "update_vertex_subset",
    "rebuild",
    "degradation",
    "set_rebuild_threshold",
    "self_collide",
    "set_geometry",
    "geometry",
    "geometries",
    "contacts",
    "intersection_curves",
    "mesh_load",
    "mesh_free",
    "mesh_num_*",
    "mesh_copy",
    "mesh_build_model",
    "world_new",
    "world_free",
    "world_add_model",
    "world_remove",
    "world_set_pose",
    "world_update_vertices",
    "world_update_vertex_subset",
    "world_set_active",
    "world_set_pair_active",
    "world_collide+contact",
    "set_kdop+is_kdop",
];

/// A deformable model's vertices and faces, and what its refits depend on.
#[derive(Clone, Debug)]
pub struct Deform {
    pub verts: Vec<[f64; 3]>,
    pub faces: Vec<[u32; 3]>,
    threshold: f64,
    /// Just built or rebuilt: degradation 1.
    fresh: bool,
}

/// What a collide result holds beyond its pairs.
#[derive(Clone, Debug, Default)]
pub struct ResultShadow {
    /// `rpq_collide_result_set_geometry`'s flag.
    pub geometry: bool,
    /// The last query into it computed the pairs' geometry.
    pub geometry_valid: bool,
}

/// A loaded mesh: its vertices and faces.
#[derive(Clone, Debug, Default)]
pub struct MeshShadow {
    verts: Vec<[f64; 3]>,
    faces: Vec<[u32; 3]>,
}

#[derive(Clone, Debug)]
struct WObj {
    mesh: Mesh,
    pose: Placement,
    active: bool,
}

#[derive(Clone, Debug, Default)]
pub struct WorldShadow {
    objects: Vec<Option<WObj>>,
    disabled: BTreeSet<(u32, u32)>,
    /// The last collide's object pairs and their numbers of triangle pairs.
    contacts: Vec<(u32, u32, usize)>,
}

/// New vertex positions, drawn when the call is made (from the model's current ones).
#[derive(Clone, Copy, Debug)]
pub struct Motion {
    seed: u64,
    kind: u8,
}

/// A mesh file to load.
#[derive(Clone, Debug)]
pub enum File {
    /// OBJ text: vertices, faces (1-based; 3 or 4 corners, out of range sometimes), the
    /// extension (0 `.obj`, 1 `.OBJ`, 2 none, 3 `.stl`) and a coordinate written as `nan`.
    Obj {
        verts: Vec<[f64; 3]>,
        faces: Vec<Vec<i64>>,
        ext: u8,
        nan: bool,
    },
    /// Binary STL of these triangles, cut short by `cut` bytes.
    Stl {
        tris: Vec<Triangle>,
        cut: u8,
    },
    /// Random bytes under an extension (0 `.obj`, 1 `.stl`, 2 `.ply`, 3 none, 4 `.txt`).
    Bytes(Vec<u8>, u8),
    Missing,
    Directory,
    NullPath,
    NotUtf8,
}

#[derive(Clone, Debug)]
pub enum MoreOp {
    BuildDeformable {
        verts: Vec<[f64; 3]>,
        faces: Vec<[u32; 3]>,
        ids: Option<Vec<i32>>,
        null_out: bool,
        overflow: bool,
    },
    Update {
        m: H,
        motion: Motion,
        delta: i8,
        null: bool,
        report: bool,
    },
    Subset {
        m: H,
        picks: Vec<u32>,
        motion: Motion,
        null: u8,
        report: bool,
    },
    Rebuild(H),
    Degradation(H, bool),
    Threshold(H, f64),
    SelfCollide {
        r: H,
        m: H,
        req: Option<[c_int; 3]>,
    },
    SetGeometry(H, c_int),
    Geometry {
        r: H,
        index: u8,
        null_out: bool,
    },
    Geometries {
        r: H,
        cap: u8,
        null_out: bool,
        null_count: bool,
    },
    Contacts {
        m1: H,
        m2: H,
        p1: P,
        p2: P,
        tol: f64,
        cap: u8,
        null_out: bool,
        null_count: bool,
    },
    Curves {
        m1: H,
        m2: H,
        p1: P,
        p2: P,
        cap: u8,
        nulls: u8,
    },
    MeshLoad {
        file: File,
        message: u8,
        null_out: bool,
    },
    MeshFree(H),
    MeshInfo(H),
    MeshCopy(H, bool, bool),
    MeshBuild(H, bool),
    WNew(bool),
    WFree(H),
    WAdd(H, H, bool),
    WRemove(H, Id),
    WPose(H, Id, P),
    WUpdate {
        w: H,
        id: Id,
        motion: Motion,
        delta: i8,
        null: bool,
        report: bool,
    },
    WSubset {
        w: H,
        id: Id,
        picks: Vec<u32>,
        motion: Motion,
        null: u8,
        report: bool,
    },
    WActive(H, Id, bool),
    WPair(H, Id, Id, bool),
    WCollide {
        w: H,
        first: bool,
        null_out: bool,
    },
    /// `rpq_model_set_kdop(m, on)`, then `rpq_model_is_kdop(m)`.
    Kdop(H, c_int),
}

impl MoreOp {
    fn index(&self) -> usize {
        use MoreOp::*;
        match self {
            BuildDeformable { .. } => 0,
            Update { .. } => 1,
            Subset { .. } => 2,
            Rebuild(_) => 3,
            Degradation(..) => 4,
            Threshold(..) => 5,
            SelfCollide { .. } => 6,
            SetGeometry(..) => 7,
            Geometry { .. } => 8,
            Geometries { .. } => 9,
            Contacts { .. } => 10,
            Curves { .. } => 11,
            MeshLoad { .. } => 12,
            MeshFree(_) => 13,
            MeshInfo(_) => 14,
            MeshCopy(..) => 15,
            MeshBuild(..) => 16,
            WNew(_) => 17,
            WFree(_) => 18,
            WAdd(..) => 19,
            WRemove(..) => 20,
            WPose(..) => 21,
            WUpdate { .. } => 22,
            WSubset { .. } => 23,
            WActive(..) => 24,
            WPair(..) => 25,
            WCollide { .. } => 26,
            Kdop(..) => 27,
        }
    }
}

/// The summary's part for these functions: calls (successful ones) of each.
pub fn stats() -> String {
    let parts: Vec<String> =
        (0..KINDS_OF_OP).map(|k| format!("{} {}/{}", NAMES[k], CALLS.get(2 * k + 1), CALLS.get(2 * k))).collect();
    format!("; new functions, successful/all calls: {}", parts.join(", "))
}

// ------------------------------------------------------------------------------------------
// Generation

fn motion(rng: &mut Rng) -> Motion {
    Motion { seed: rng.next(), kind: rng.below(12) as u8 }
}

fn delta(rng: &mut Rng) -> i8 {
    if rng.one_in(12) { rng.pick(&[-1, 1, 3, i8::MAX]) } else { 0 }
}

fn picks(rng: &mut Rng) -> Vec<u32> {
    (0..rng.index(7))
        .map(|_| if rng.one_in(12) { rng.pick(&[u32::MAX, 1 << 31, (1 << 31) | 7]) } else { rng.below(1000) as u32 })
        .collect()
}

/// A deformable model's vertices and faces: a bent sheet, a soup or random faces; now and
/// then an index out of range, a NaN or a coordinate beyond range.
fn deformable(rng: &mut Rng) -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let (mut verts, mut faces) = match rng.below(3) {
        0 => {
            let (nx, ny) = (1 + rng.index(4), 1 + rng.index(3));
            let mut verts = Vec::new();
            for j in 0..=ny {
                for i in 0..=nx {
                    let z = if rng.one_in(2) { 0.0 } else { rng.range(-0.5, 0.5) };
                    verts.push([i as f64 * 0.5 - 1.0, j as f64 * 0.5 - 1.0, z]);
                }
            }
            let at = |i: usize, j: usize| (j * (nx + 1) + i) as u32;
            let mut faces = Vec::new();
            for j in 0..ny {
                for i in 0..nx {
                    faces.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
                    faces.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
                }
            }
            (verts, faces)
        }
        1 => {
            let style = draw::style(rng);
            let tris = draw::triangles(rng, style);
            let verts = tris.iter().flatten().map(|v| [v.x, v.y, v.z]).collect();
            let faces = (0..tris.len() as u32).map(|k| [3 * k, 3 * k + 1, 3 * k + 2]).collect();
            (verts, faces)
        }
        _ => {
            let n = 3 + rng.index(6);
            let verts: Vec<[f64; 3]> = (0..n).map(|_| [0; 3].map(|_| rng.range(-1.0, 1.0))).collect();
            let faces = (0..rng.index(7)).map(|_| [0; 3].map(|_| rng.below(n as u64) as u32)).collect();
            (verts, faces)
        }
    };
    if rng.one_in(15) && !faces.is_empty() {
        let k = rng.index(faces.len());
        faces[k][rng.index(3)] = rng.pick(&[verts.len() as u32, u32::MAX, 1 << 31]);
    }
    if rng.one_in(20) {
        verts.push([rng.non_finite(), 0.0, 0.0]);
    }
    if rng.one_in(20) && !verts.is_empty() {
        let k = rng.index(verts.len());
        verts[k][rng.index(3)] = rng.pick(&[2f64.powi(1001), -1e305, 1e300, 2f64.powi(901), 5e-324]);
    }
    (verts, faces)
}

fn world_pose(rng: &mut Rng) -> P {
    match rng.below(8) {
        0 => pose_arg(rng),
        1 => Some(GenPose { s: 1.0, ..draw::pose(rng) }),
        _ => Some(GenPose { s: 1.0, ..valid_pose(rng) }),
    }
}

fn file(rng: &mut Rng) -> File {
    match rng.below(20) {
        0..=9 => {
            let n = rng.index(9);
            let f = |rng: &mut Rng| match rng.below(10) {
                0 => rng.any_f64(),
                1..=4 => rng.below(17) as f64 / 4.0 - 2.0,
                _ => rng.range(-1.0, 1.0),
            };
            let verts: Vec<[f64; 3]> = (0..n).map(|_| [f(rng), f(rng), f(rng)]).collect();
            let faces = (0..rng.index(7))
                .map(|_| {
                    let corners = if rng.one_in(4) { 4 } else { 3 };
                    (0..corners)
                        .map(|_| {
                            if rng.one_in(30) {
                                rng.pick(&[0, n as i64 + 1, -1])
                            } else {
                                1 + rng.below(n as u64) as i64
                            }
                        })
                        .collect()
                })
                .collect();
            let ext = if rng.one_in(4) { rng.below(4) as u8 } else { 0 };
            File::Obj {
                verts: verts.into_iter().filter(|v| v.iter().all(|x| x.is_finite())).collect(),
                faces,
                ext,
                nan: rng.one_in(15),
            }
        }
        10..=13 => {
            let style = draw::style(rng);
            let tris = if rng.one_in(10) { Vec::new() } else { draw::triangles(rng, style) };
            File::Stl { tris, cut: if rng.one_in(8) { 1 + rng.below(60) as u8 } else { 0 } }
        }
        14..=16 => {
            let mut b: Vec<u8> = (0..rng.index(200)).map(|_| rng.next() as u8).collect();
            if rng.one_in(2) && b.len() > 8 {
                let head: &[u8] =
                    rng.pick(&[&b"v 0 0 0\nf 1 1 1\n"[..], b"solid ", b"ply\nformat ascii 1.0\n", b"f 1 2 3\n"]);
                let k = head.len().min(b.len());
                b[..k].copy_from_slice(&head[..k]);
            }
            File::Bytes(b, rng.below(5) as u8)
        }
        17 => File::Missing,
        18 => {
            if rng.one_in(2) {
                File::Directory
            } else {
                File::NotUtf8
            }
        }
        _ => File::NullPath,
    }
}

pub fn op(rng: &mut Rng) -> MoreOp {
    use MoreOp::*;
    let geometry_pose = |rng: &mut Rng| query_pose(rng);
    match rng.below(42) {
        0..=1 => {
            let (verts, faces) = deformable(rng);
            let ids = if rng.one_in(2) { Some(faces.iter().map(|_| rng.int()).collect()) } else { None };
            BuildDeformable { verts, faces, ids, null_out: rng.one_in(30), overflow: rng.one_in(30) }
        }
        2..=4 => Update {
            m: handle(rng),
            motion: motion(rng),
            delta: delta(rng),
            null: rng.one_in(30),
            report: rng.one_in(2),
        },
        5..=6 => Subset {
            m: handle(rng),
            picks: picks(rng),
            motion: motion(rng),
            null: rng.below(20) as u8,
            report: rng.one_in(2),
        },
        7 => Rebuild(handle(rng)),
        8 => Degradation(handle(rng), rng.one_in(20)),
        9 => Threshold(
            handle(rng),
            rng.pick(&[1.0, 2.0, 1.5, 1e300, f64::INFINITY, 0.5, 0.0, -1.0, f64::NAN, f64::NEG_INFINITY, 5e-324]),
        ),
        10..=12 => SelfCollide { r: handle(rng), m: handle(rng), req: collide_request(rng) },
        13..=14 => SetGeometry(handle(rng), rng.pick(&[0, 1, 1, -5, c_int::MIN])),
        15 => Geometry { r: handle(rng), index: rng.below(6) as u8, null_out: rng.one_in(20) },
        16 => {
            Geometries { r: handle(rng), cap: rng.below(5) as u8, null_out: rng.one_in(20), null_count: rng.one_in(20) }
        }
        17..=19 => Contacts {
            m1: handle(rng),
            m2: handle(rng),
            p1: geometry_pose(rng),
            p2: geometry_pose(rng),
            tol: match rng.below(8) {
                0 => rng.pick(&[f64::NAN, f64::INFINITY, -1.0, -0.0, 5e-324, 1e300]),
                1..=3 => 0.0,
                _ => rng.pick(&[1e-9, 0.01, 0.25, 1.0]),
            },
            cap: rng.below(4) as u8,
            null_out: rng.one_in(20),
            null_count: rng.one_in(30),
        },
        20..=21 => Curves {
            m1: handle(rng),
            m2: handle(rng),
            p1: geometry_pose(rng),
            p2: geometry_pose(rng),
            cap: rng.below(3) as u8,
            nulls: if rng.one_in(6) { 1 << rng.below(4) } else { 0 },
        },
        22..=23 => MeshLoad { file: file(rng), message: rng.below(5) as u8, null_out: rng.one_in(30) },
        24 => MeshFree(handle(rng)),
        25 => MeshInfo(handle(rng)),
        26 => MeshCopy(handle(rng), rng.one_in(5), rng.one_in(5)),
        27 => MeshBuild(handle(rng), rng.one_in(20)),
        28 => {
            if rng.one_in(2) {
                WNew(rng.one_in(20))
            } else {
                WFree(handle(rng))
            }
        }
        29..=30 => WAdd(handle(rng), handle(rng), rng.one_in(30)),
        31 => WRemove(handle(rng), id(rng)),
        32..=33 => WPose(handle(rng), id(rng), world_pose(rng)),
        34 => WUpdate {
            w: handle(rng),
            id: id(rng),
            motion: motion(rng),
            delta: delta(rng),
            null: rng.one_in(30),
            report: rng.one_in(2),
        },
        35 => WSubset {
            w: handle(rng),
            id: id(rng),
            picks: picks(rng),
            motion: motion(rng),
            null: rng.below(20) as u8,
            report: rng.one_in(2),
        },
        36 => {
            if rng.one_in(2) {
                WActive(handle(rng), id(rng), rng.one_in(2))
            } else {
                WPair(handle(rng), id(rng), id(rng), rng.one_in(2))
            }
        }
        37..=39 => WCollide { w: handle(rng), first: rng.one_in(3), null_out: rng.one_in(30) },
        _ => Kdop(handle(rng), rng.pick(&[0, 1, 1, 1, -3, c_int::MIN])),
    }
}

/// What most programs start with besides `capi.rs`'s: a deformable model (the third
/// native model), a world holding copies of the three, geometry on for the first result,
/// sometimes a mesh file.
pub fn prelude(rng: &mut Rng) -> Vec<Op> {
    let mut ops = Vec::new();
    let (verts, faces) = loop {
        let (v, f) = deformable(rng);
        let fine = !f.is_empty()
            && v.iter().flatten().all(|x| x.is_finite() && x.abs() < 1e3)
            && f.iter().flatten().all(|&i| (i as usize) < v.len());
        if fine {
            break (v, f);
        }
    };
    ops.push(Op::More(MoreOp::BuildDeformable { verts, faces, ids: None, null_out: false, overflow: false }));
    if rng.one_in(2) {
        // Geometry on, and a first model against itself: a result with pairs to read.
        ops.push(Op::More(MoreOp::SetGeometry(H::Own(0), 1)));
        let p = Some(valid_pose(rng));
        ops.push(Op::Collide { r: H::Own(0), m1: H::Own(0), m2: H::Own(0), p1: p, p2: p, req: None });
    }
    if !rng.one_in(3) {
        ops.push(Op::More(MoreOp::WNew(false)));
        for k in 0..3 {
            ops.push(Op::More(MoreOp::WAdd(H::Own(0), H::Own(k), false)));
            let pose = Some(GenPose { s: 1.0, ..valid_pose(rng) });
            ops.push(Op::More(MoreOp::WPose(H::Own(0), Id::Known(k), pose)));
        }
    }
    if rng.one_in(4) {
        ops.push(Op::More(MoreOp::MeshLoad { file: file(rng), message: 4, null_out: false }));
    }
    ops
}

// ------------------------------------------------------------------------------------------
// Oracles

/// Pairs of non-adjacent intersecting triangles of a model, as `(smaller id, larger id)`,
/// sorted: adjacency by shared face indices for a deformable model, by a shared corner
/// position for any other (`rpq_self_collide`'s documentation).
fn self_pairs(m: &Mesh) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    for i in 0..m.tris.len() {
        for j in i + 1..m.tris.len() {
            let adjacent = match &m.deform {
                Some(d) => share_an_index(&d.faces[i], &d.faces[j]),
                None => share_a_vertex(&m.tris[i], &m.tris[j]),
            };
            if !adjacent && triangles_intersect(&m.tris[i], &m.tris[j]) {
                let (a, b) = (m.ids[i], m.ids[j]);
                out.push((a.min(b), a.max(b)));
            }
        }
    }
    out.sort_unstable();
    out
}

fn tris_of(verts: &[[f64; 3]], faces: &[[u32; 3]]) -> Vec<Triangle> {
    faces.iter().map(|f| f.map(|i| Vec3::from(verts[i as usize]))).collect()
}

/// New positions for `verts` by `m`.
fn moved(verts: &[[f64; 3]], m: Motion) -> Vec<[f64; 3]> {
    let mut rng = Rng::new(m.seed);
    let mut out = verts.to_vec();
    match m.kind {
        0..=4 => out.iter_mut().flatten().for_each(|x| *x += rng.range(-0.4, 0.4)),
        5 => out.iter_mut().flatten().for_each(|x| *x = rng.range(-1.0, 1.0)),
        6 => {}
        7 | 8 => {
            if !out.is_empty() {
                let k = rng.index(out.len());
                out[k][rng.index(3)] = if m.kind == 7 {
                    rng.non_finite()
                } else {
                    rng.pick(&[2f64.powi(1001), -1e300, 2f64.powi(901), 5e-324, -f64::MAX])
                };
            }
        }
        9 => {
            let f = rng.pick(&[1e-300, 2f64.powi(900), 5e-324, 1e150]);
            out.iter_mut().flatten().for_each(|x| *x *= f);
        }
        _ => {
            // Fold half the vertices through the others (self-intersections).
            for (k, v) in out.iter_mut().enumerate() {
                if k % 2 == 1 {
                    v[2] = -v[2] + rng.range(-0.6, 0.6);
                }
            }
        }
    }
    out
}

/// Adds what refitting to `points` gives at the given range limit. With a NaN or infinity
/// and also a finite coordinate beyond range, either problem may be reported first (both are
/// documented).
fn points_expect(e: &mut Expect, points: &[[f64; 3]], limit: f64) {
    let m = points.iter().flatten().filter(|x| x.is_finite()).fold(0.0f64, |a, x| a.max(x.abs()));
    if !points.iter().flatten().all(|x| x.is_finite()) {
        e.code(RPQ_ERR_NON_FINITE);
        if m > limit * 0.99 {
            e.doubtful.push(RPQ_ERR_OUT_OF_RANGE);
        }
    } else if m > limit * 1.01 {
        e.code(RPQ_ERR_OUT_OF_RANGE);
    } else if m > limit * 0.99 {
        e.doubtful.extend([RPQ_OK, RPQ_ERR_OUT_OF_RANGE]);
    }
}

fn model_magnitude(m: &Mesh) -> f64 {
    m.tris.iter().flatten().map(|v| v.amax()).fold(0.0, f64::max)
}

fn snapshot(r: *const RpqCollideResult) -> (Vec<(i32, i32)>, u64, u64) {
    // SAFETY: the library checks the handle; the pairs array is read right after.
    unsafe {
        let n = rpq_collide_result_num_pairs(r);
        let p = rpq_collide_result_pairs(r);
        let pairs = if p.is_null() { Vec::new() } else { (0..n).map(|k| ((*p.add(k)).id1, (*p.add(k)).id2)).collect() };
        let (mut bv, mut tri) = (0u64, 0u64);
        rpq_collide_result_counts(r, &mut bv, &mut tri);
        (pairs, bv, tri)
    }
}

fn sentinel_tri_contact() -> RpqTriContact {
    RpqTriContact {
        points: [[-9.0; 3]; 6],
        normal1: [-9.0; 3],
        normal2: [-9.0; 3],
        error_bound: -9.0,
        num_points: 99,
        flags: 99,
    }
}

fn unit_or_zero(n: &[f64; 3]) -> bool {
    let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    l == 0.0 || (l - 1.0).abs() < 1e-9
}

/// A pair's geometry is well formed: 1 to 6 points, zero after them, finite, unit or zero
/// normals as their flags say.
fn check_tri_contact(c: &RpqTriContact, what: &str) {
    let n = c.num_points as usize;
    assert!((1..=6).contains(&n), "{what}: {n} points");
    assert!(c.points[n..].iter().flatten().all(|&x| x == 0.0), "{what}: points past num_points");
    assert!(c.points[..n].iter().flatten().all(|x| x.is_finite()), "{what}: a point not finite: {c:?}");
    assert!(c.error_bound >= 0.0 && c.error_bound.is_finite(), "{what}: error bound {}", c.error_bound);
    let known =
        RPQ_CONTACT_NORMAL1_DEGENERATE | RPQ_CONTACT_NORMAL2_DEGENERATE | RPQ_CONTACT_COPLANAR | RPQ_CONTACT_CROSSING;
    assert!(c.flags & !known == 0, "{what}: flags {}", c.flags);
    // (A crossing is a segment of two triangles in different planes.)
    let crossing = c.flags & RPQ_CONTACT_CROSSING != 0;
    assert!(!crossing || (n == 2 && c.flags & RPQ_CONTACT_COPLANAR == 0), "{what}: crossing {c:?}");
    for (normal, flag) in [(&c.normal1, RPQ_CONTACT_NORMAL1_DEGENERATE), (&c.normal2, RPQ_CONTACT_NORMAL2_DEGENERATE)] {
        assert!(unit_or_zero(normal), "{what}: normal {normal:?}");
        assert_eq!(normal == &[0.0; 3], c.flags & flag != 0, "{what}: normal {normal:?} and flags {}", c.flags);
    }
}

// ------------------------------------------------------------------------------------------
// Running

pub fn cleanup(st: &mut State) {
    // SAFETY: live handles, each freed once.
    unsafe {
        for s in st.meshes.iter().filter(|s| s.live) {
            rpq_mesh_free(s.ptr as *mut RpqMesh);
        }
        for s in st.worlds.iter().filter(|s| s.live) {
            rpq_world_free(s.ptr as *mut RpqWorld);
        }
    }
}

pub fn step(st: &mut State, op: &MoreOp, what: &str) {
    let k = op.index();
    CALLS.add(2 * k);
    if run(st, op, what) {
        CALLS.add(2 * k + 1);
    }
}

/// The shadow model of a model argument, when it is live.
fn live_model(st: &State, v: Valid) -> Option<Mesh> {
    match v {
        Valid::Live(i) => Some(st.models[i].shadow.clone()),
        _ => None,
    }
}

/// Checks that a deformable model collides with itself (at the identity) as brute force says
/// on its shadow's positions.
fn check_model_now(model: *const RpqModel, mesh: &Mesh, what: &str) {
    let identity =
        RpqPose { rotation: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], translation: [0.0; 3], scale: 1.0 };
    // SAFETY: a live model and result; poses readable.
    unsafe {
        let r = rpq_collide_result_new();
        let status = rpq_collide(model, &identity, model, &identity, std::ptr::null(), r);
        assert_eq!(status, RPQ_OK, "{what}: the updated model collided with itself");
        let got = snapshot(r).0;
        rpq_collide_result_free(r);
        check_contacts(
            &got,
            mesh,
            &Placement::IDENTITY,
            mesh,
            &Placement::IDENTITY,
            TriangleFrame::Model1,
            false,
            what,
        );
        let n = rpq_model_num_vertices(model);
        assert_eq!(n, mesh.deform.as_ref().map_or(0, |d| d.verts.len()), "{what}: rpq_model_num_vertices");
    }
}

/// After a call that gave a live deformable model a tree of degradation 1 (a rebuild, the
/// k-DOP option switched): the shadow says so, and the model collided with itself agrees with
/// brute force. Returns `true` (the call succeeded).
fn after_fresh_tree(st: &mut State, v: Valid, p: usize, what: &str) -> bool {
    let Valid::Live(i) = v else { unreachable!("a successful call on a live model") };
    st.models[i].shadow.deform.as_mut().expect("deformable").fresh = true;
    check_model_now(p as *const RpqModel, &st.models[i].shadow, what);
    true
}

/// Runs one call and checks it; whether it succeeded.
fn run(st: &mut State, op: &MoreOp, what: &str) -> bool {
    use MoreOp::*;
    // SAFETY (every call below): handles are passed as a C program passes them (the library
    // checks them); data pointers point to live buffers of the sizes given.
    unsafe {
        match op {
            BuildDeformable { verts, faces, ids, null_out, overflow } => {
                let flat: Vec<f64> = verts.iter().flatten().copied().collect();
                let fl: Vec<u32> = faces.iter().flatten().copied().collect();
                let nf = if *overflow { usize::MAX / 2 } else { faces.len() };
                let ids_ptr = ids.as_ref().map_or(std::ptr::null(), |v| v.as_ptr());
                let mut out: *mut RpqModel = std::ptr::dangling_mut();
                let vptr = if verts.is_empty() { std::ptr::null() } else { flat.as_ptr() };
                let fptr = if faces.is_empty() { std::ptr::null() } else { fl.as_ptr() };
                let out_ptr = if *null_out { std::ptr::null_mut() } else { &mut out as *mut _ };
                let status = rpq_model_build_deformable(vptr, verts.len(), fptr, nf, ids_ptr, out_ptr);
                let mut e = Expect::default();
                if *null_out || (fptr.is_null() && nf > 0) {
                    assert_eq!(status, RPQ_ERR_NULL_POINTER, "{what}");
                } else if nf == 0 {
                    assert_eq!(status, RPQ_ERR_EMPTY_MODEL, "{what}");
                } else {
                    if *overflow {
                        e.code(RPQ_ERR_INVALID_ARGUMENT);
                    }
                    points_expect(&mut e, verts, rapidpqp::query::RANGE_LIMIT);
                    if faces.iter().flatten().any(|&i| i as usize >= verts.len()) {
                        e.code(RPQ_ERR_INVALID_ARGUMENT);
                    }
                    e.check(status, RPQ_OK, RPQ_ERR_OUT_OF_RANGE, what);
                }
                if status != RPQ_OK {
                    assert_eq!(out, std::ptr::dangling_mut(), "{what}: out_model written on error");
                    return false;
                }
                let mesh = Mesh {
                    tris: tris_of(verts, faces),
                    ids: ids.clone().unwrap_or_else(|| (0..faces.len() as i32).collect()),
                    deform: Some(Deform { verts: verts.clone(), faces: faces.clone(), threshold: 2.0, fresh: true }),
                };
                assert_eq!(rpq_model_num_triangles(out), faces.len(), "{what}");
                assert_eq!(rpq_model_num_vertices(out), verts.len(), "{what}");
                st.models.push(Slot { ptr: out as usize, live: true, shadow: mesh });
                true
            }
            Update { m, motion, delta, null, report } => {
                let (p, v) = st.resolve(*m, NM);
                let model = live_model(st, v);
                let current =
                    model.as_ref().and_then(|m| m.deform.as_ref()).map_or(vec![[0.5; 3]; 4], |d| d.verts.clone());
                let new = moved(&current, *motion);
                let (flat, n) = vertex_buffer(&new, *delta);
                let mut rep = RpqRefitReport { degradation: -3.0, rebuilt: 7 };
                let status = rpq_model_update_vertices(
                    p as *mut RpqModel,
                    if *null { std::ptr::null() } else { flat.as_ptr() },
                    n,
                    if *report { &mut rep } else { std::ptr::null_mut() },
                );
                let mut e = Expect::default();
                if *null && n > 0 {
                    assert_eq!(status, RPQ_ERR_NULL_POINTER, "{what}");
                } else {
                    e.add(Ok(handle_code(v, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
                    match model.as_ref().map(|m| &m.deform) {
                        Some(None) => e.code(RPQ_ERR_NOT_DEFORMABLE),
                        Some(Some(d)) if d.verts.len() != n => e.code(RPQ_ERR_INVALID_ARGUMENT),
                        Some(Some(_)) => points_expect(&mut e, &new, rapidpqp::query::RANGE_LIMIT),
                        None => {}
                    }
                    e.check(status, RPQ_OK, RPQ_ERR_OUT_OF_RANGE, what);
                }
                refit_done(st, p, v, status, &new, *report, &rep, what)
            }
            Subset { m, picks, motion, null, report } => {
                let (p, v) = st.resolve(*m, NM);
                let model = live_model(st, v);
                let current =
                    model.as_ref().and_then(|m| m.deform.as_ref()).map_or(vec![[0.5; 3]; 4], |d| d.verts.clone());
                let (indices, positions) = subset_args(&current, picks, *motion);
                let flat: Vec<f64> = positions.iter().flatten().copied().collect();
                let mut rep = RpqRefitReport { degradation: -3.0, rebuilt: 7 };
                let count = indices.len();
                let (ni, np) = (*null == 1, *null == 2);
                let status = rpq_model_update_vertex_subset(
                    p as *mut RpqModel,
                    if ni { std::ptr::null() } else { indices.as_ptr() },
                    if np { std::ptr::null() } else { flat.as_ptr() },
                    count,
                    if *report { &mut rep } else { std::ptr::null_mut() },
                );
                let mut new = current.clone();
                if count > 0 && (ni || np) {
                    assert_eq!(status, RPQ_ERR_NULL_POINTER, "{what}");
                } else {
                    let mut e = Expect::default();
                    e.add(Ok(handle_code(v, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
                    match model.as_ref().map(|m| &m.deform) {
                        Some(None) => e.code(RPQ_ERR_NOT_DEFORMABLE),
                        Some(Some(_)) => {
                            subset_expect(&mut e, &mut new, &indices, &positions, rapidpqp::query::RANGE_LIMIT)
                        }
                        None => {}
                    }
                    e.check(status, RPQ_OK, RPQ_ERR_OUT_OF_RANGE, what);
                }
                refit_done(st, p, v, status, &new, *report, &rep, what)
            }
            Rebuild(m) => {
                let (p, v) = st.resolve(*m, NM);
                let status = rpq_model_rebuild(p as *mut RpqModel);
                let model = live_model(st, v);
                let expected = handle_code(v, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE).unwrap_or(
                    if model.as_ref().is_some_and(|m| m.deform.is_some()) { RPQ_OK } else { RPQ_ERR_NOT_DEFORMABLE },
                );
                assert_eq!(status, expected, "{what}");
                if status != RPQ_OK {
                    return false;
                }
                after_fresh_tree(st, v, p, what)
            }
            Degradation(m, null_out) => {
                let (p, v) = st.resolve(*m, NM);
                let mut d = -5.0;
                let status =
                    rpq_model_degradation(p as *const RpqModel, if *null_out { std::ptr::null_mut() } else { &mut d });
                let model = live_model(st, v);
                let mut e = Expect::default();
                e.add(Ok(handle_code(v, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
                if *null_out {
                    e.code(RPQ_ERR_NULL_POINTER);
                }
                if model.as_ref().is_some_and(|m| m.deform.is_none()) {
                    e.code(RPQ_ERR_NOT_DEFORMABLE);
                }
                e.check(status, RPQ_OK, RPQ_OK, what);
                assert_eq!(
                    rpq_model_num_vertices(p as *const RpqModel),
                    model.as_ref().and_then(|m| m.deform.as_ref()).map_or(0, |d| d.verts.len()),
                    "{what}: rpq_model_num_vertices"
                );
                if status != RPQ_OK {
                    assert_eq!(d, -5.0, "{what}: written on error");
                    return false;
                }
                let dm = model.and_then(|m| m.deform).expect("deformable");
                assert!(d.is_finite() && d >= 0.0, "{what}: degradation {d}");
                if dm.fresh {
                    assert!((d - 1.0).abs() < 1e-9, "{what}: degradation {d} just after a build");
                }
                true
            }
            Kdop(m, on) => {
                let (p, v) = st.resolve(*m, NM);
                let status = rpq_model_set_kdop(p as *mut RpqModel, *on);
                let model = live_model(st, v);
                let expected = handle_code(v, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE).unwrap_or(
                    if model.as_ref().is_some_and(|m| m.deform.is_some()) { RPQ_OK } else { RPQ_ERR_NOT_DEFORMABLE },
                );
                assert_eq!(status, expected, "{what}");
                let is = rpq_model_is_kdop(p as *const RpqModel);
                if status != RPQ_OK {
                    // Refused: a model that is not deformable never has the option.
                    assert!(is == 0 || model.as_ref().is_some_and(|m| m.deform.is_some()), "{what}: is_kdop {is}");
                    return false;
                }
                assert_eq!(is, c_int::from(*on != 0), "{what}: rpq_model_is_kdop after set_kdop({on})");
                // (Collided with itself at the identity: on its k-DOPs when the option is on.)
                after_fresh_tree(st, v, p, what)
            }
            Threshold(m, t) => {
                let (p, v) = st.resolve(*m, NM);
                let status = rpq_model_set_rebuild_threshold(p as *mut RpqModel, *t);
                let model = live_model(st, v);
                let mut e = Expect::default();
                e.add(Ok(handle_code(v, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
                match model.as_ref().map(|m| m.deform.is_some()) {
                    Some(false) => e.code(RPQ_ERR_NOT_DEFORMABLE),
                    Some(true) if t.is_nan() || *t < 1.0 => e.code(RPQ_ERR_INVALID_ARGUMENT),
                    _ => {}
                }
                e.check(status, RPQ_OK, RPQ_OK, what);
                if status == RPQ_OK {
                    let Valid::Live(i) = v else { unreachable!() };
                    st.models[i].shadow.deform.as_mut().expect("deformable").threshold = *t;
                }
                status == RPQ_OK
            }
            SelfCollide { r, m, req } => {
                let (rp, vr) = st.resolve(*r, NR);
                let (mp, vm) = st.resolve(*m, NM);
                let mut e = Expect::default();
                e.add(Ok(handle_code(vr, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
                e.add(Ok(handle_code(vm, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
                if let Some(r) = req {
                    if !(0..5).contains(&r[1]) || !(0..2).contains(&r[2]) {
                        e.code(RPQ_ERR_INVALID_ARGUMENT);
                    }
                }
                let request = req.map(|r| RpqCollideRequest { first_contact: r[0], box_test: r[1], frame: r[2] });
                let result = rp as *mut RpqCollideResult;
                let before = snapshot(result);
                let status = rpq_self_collide(
                    mp as *const RpqModel,
                    request.as_ref().map_or(std::ptr::null(), |r| r as *const _),
                    result,
                );
                e.check(status, RPQ_OK, RPQ_OK, what);
                let after = snapshot(result);
                if status != RPQ_OK {
                    assert_eq!(after, before, "{what}: result changed on error");
                    return false;
                }
                let (Valid::Live(ri), Some(mesh)) = (vr, live_model(st, vm)) else { unreachable!() };
                st.results[ri].shadow.geometry_valid = false;
                COUNT.add(2);
                let want = self_pairs(&mesh);
                let mut got = after.0.clone();
                assert!(got.iter().all(|&(a, b)| a <= b), "{what}: a pair not ordered: {got:?}");
                let n = mesh.tris.len() as u64;
                assert!(after.2 <= n * n.saturating_sub(1) / 2, "{what}: {} triangle tests for {n} triangles", after.2);
                if request.is_some_and(|r| r.first_contact != 0) {
                    assert!(got.len() <= 1, "{what}: first contact gave {got:?}");
                    assert_eq!(
                        got.is_empty(),
                        want.is_empty(),
                        "{what}: first contact {got:?} vs brute force {want:?}"
                    );
                    assert!(got.iter().all(|p| want.contains(p)), "{what}: {got:?} not among {want:?}");
                } else {
                    got.sort_unstable();
                    assert_eq!(got, want, "{what}: self-collision pairs vs brute force");
                }
                true
            }
            SetGeometry(r, enable) => {
                let (rp, vr) = st.resolve(*r, NR);
                let status = rpq_collide_result_set_geometry(rp as *mut RpqCollideResult, *enable);
                assert_eq!(
                    status,
                    handle_code(vr, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE).unwrap_or(RPQ_OK),
                    "{what}"
                );
                if let Valid::Live(i) = vr {
                    st.results[i].shadow.geometry = *enable != 0;
                }
                status == RPQ_OK
            }
            Geometry { r, index, null_out } => {
                let (rp, vr) = st.resolve(*r, NR);
                let result = rp as *const RpqCollideResult;
                let pairs = rpq_collide_result_num_pairs(result);
                let index = match index {
                    0 => 0,
                    1 => pairs.saturating_sub(1),
                    2 => pairs,
                    3 => usize::MAX,
                    4 => 1,
                    _ => pairs / 2,
                };
                let mut out = sentinel_tri_contact();
                let status =
                    rpq_collide_result_geometry(result, index, if *null_out { std::ptr::null_mut() } else { &mut out });
                let expected = handle_code(vr, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE).unwrap_or_else(|| {
                    let Valid::Live(i) = vr else { unreachable!() };
                    if *null_out {
                        RPQ_ERR_NULL_POINTER
                    } else if index >= pairs || !st.results[i].shadow.geometry_valid {
                        RPQ_ERR_INVALID_ARGUMENT
                    } else {
                        RPQ_OK
                    }
                });
                assert_eq!(status, expected, "{what}");
                if status != RPQ_OK {
                    assert_eq!(out, sentinel_tri_contact(), "{what}: written on error");
                    return false;
                }
                check_tri_contact(&out, what);
                true
            }
            Geometries { r, cap, null_out, null_count } => {
                let (rp, vr) = st.resolve(*r, NR);
                let result = rp as *const RpqCollideResult;
                let pairs = rpq_collide_result_num_pairs(result);
                let capacity = match cap {
                    0 => 0,
                    1 => pairs,
                    2 => pairs.saturating_sub(1),
                    _ => pairs + 3,
                };
                let mut buf = vec![sentinel_tri_contact(); capacity + 2];
                let mut count = 777usize;
                let status = rpq_collide_result_geometries(
                    result,
                    if *null_out { std::ptr::null_mut() } else { buf.as_mut_ptr() },
                    capacity,
                    if *null_count { std::ptr::null_mut() } else { &mut count },
                );
                let expected = handle_code(vr, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE).unwrap_or_else(|| {
                    let Valid::Live(i) = vr else { unreachable!() };
                    if *null_count || (*null_out && capacity > 0) {
                        RPQ_ERR_NULL_POINTER
                    } else if pairs > 0 && !st.results[i].shadow.geometry_valid {
                        RPQ_ERR_INVALID_ARGUMENT
                    } else {
                        RPQ_OK
                    }
                });
                assert_eq!(status, expected, "{what}");
                if status != RPQ_OK {
                    assert_eq!(count, 777, "{what}: count written on error");
                    assert!(buf.iter().all(|c| *c == sentinel_tri_contact()), "{what}: written on error");
                    return false;
                }
                assert_eq!(count, pairs, "{what}: geometries vs pairs");
                let written = if pairs <= capacity && !*null_out { pairs } else { 0 };
                assert!(buf[written..].iter().all(|c| *c == sentinel_tri_contact()), "{what}: wrote past the pairs");
                for (k, c) in buf[..written].iter().enumerate() {
                    check_tri_contact(c, &format!("{what} pair {k}"));
                    let mut one = sentinel_tri_contact();
                    assert_eq!(rpq_collide_result_geometry(result, k, &mut one), RPQ_OK, "{what}");
                    assert_eq!(&one, c, "{what}: pair {k} read alone");
                }
                true
            }
            Contacts { m1, m2, p1, p2, tol, cap, null_out, null_count } => {
                contacts_call(st, *m1, *m2, p1, p2, *tol, *cap, *null_out, *null_count, what)
            }
            Curves { m1, m2, p1, p2, cap, nulls } => curves_call(st, *m1, *m2, p1, p2, *cap, *nulls, what),
            MeshLoad { file, message, null_out } => mesh_load(st, file, *message, *null_out, what),
            MeshFree(h) => {
                let (p, v) = st.resolve(*h, MS);
                rpq_mesh_free(p as *mut RpqMesh);
                if let Valid::Live(i) = v {
                    st.meshes[i].live = false;
                }
                true
            }
            MeshInfo(h) => {
                let (p, v) = st.resolve(*h, MS);
                let (nv, nf) = (rpq_mesh_num_vertices(p as *const RpqMesh), rpq_mesh_num_faces(p as *const RpqMesh));
                match v {
                    Valid::Live(i) => {
                        let s = &st.meshes[i].shadow;
                        assert_eq!((nv, nf), (s.verts.len(), s.faces.len()), "{what}");
                    }
                    _ => assert_eq!((nv, nf), (0, 0), "{what}"),
                }
                matches!(v, Valid::Live(_))
            }
            MeshCopy(h, null_v, null_f) => {
                let (p, v) = st.resolve(*h, MS);
                let shadow = match v {
                    Valid::Live(i) => st.meshes[i].shadow.clone(),
                    _ => MeshShadow::default(),
                };
                let mut verts = vec![-4.5; 3 * shadow.verts.len() + 3];
                let mut faces = vec![0xdead_beef_u32; 3 * shadow.faces.len() + 3];
                let status = rpq_mesh_copy(
                    p as *const RpqMesh,
                    if *null_v { std::ptr::null_mut() } else { verts.as_mut_ptr() },
                    if *null_f { std::ptr::null_mut() } else { faces.as_mut_ptr() },
                );
                assert_eq!(
                    status,
                    handle_code(v, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE).unwrap_or(RPQ_OK),
                    "{what}"
                );
                let nv = if status == RPQ_OK && !*null_v { 3 * shadow.verts.len() } else { 0 };
                let nf = if status == RPQ_OK && !*null_f { 3 * shadow.faces.len() } else { 0 };
                let want_v: Vec<f64> = shadow.verts.iter().flatten().copied().collect();
                let want_f: Vec<u32> = shadow.faces.iter().flatten().copied().collect();
                assert_eq!(&verts[..nv], &want_v[..nv], "{what}: vertices");
                assert_eq!(&faces[..nf], &want_f[..nf], "{what}: faces");
                assert!(verts[nv..].iter().all(|&x| x == -4.5), "{what}: vertices written past or on error");
                assert!(faces[nf..].iter().all(|&x| x == 0xdead_beef), "{what}: faces written past or on error");
                status == RPQ_OK
            }
            MeshBuild(h, null_out) => {
                let (p, v) = st.resolve(*h, MS);
                let mut out: *mut RpqModel = std::ptr::dangling_mut();
                let status =
                    rpq_mesh_build_model(p as *const RpqMesh, if *null_out { std::ptr::null_mut() } else { &mut out });
                let shadow = match v {
                    Valid::Live(i) => Some(st.meshes[i].shadow.clone()),
                    _ => None,
                };
                let expected = handle_code(v, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE).unwrap_or_else(|| {
                    let s = shadow.as_ref().expect("live");
                    if *null_out {
                        RPQ_ERR_NULL_POINTER
                    } else if s.faces.iter().flatten().any(|&i| beyond_range(&s.verts[i as usize])) {
                        RPQ_ERR_OUT_OF_RANGE
                    } else {
                        RPQ_OK
                    }
                });
                assert_eq!(status, expected, "{what}");
                if status != RPQ_OK {
                    assert_eq!(out, std::ptr::dangling_mut(), "{what}: out_model written on error");
                    return false;
                }
                let s = shadow.expect("live");
                let mesh =
                    Mesh { tris: tris_of(&s.verts, &s.faces), ids: (0..s.faces.len() as i32).collect(), deform: None };
                assert_eq!(rpq_model_num_triangles(out), s.faces.len(), "{what}");
                st.models.push(Slot { ptr: out as usize, live: true, shadow: mesh });
                true
            }
            _ => world(st, op, what),
        }
    }
}

/// The vertex array of an update to `new` and the count passed (`new`'s, or off by `delta`;
/// the array padded to hold every point the count says, but for a count that overflows).
fn vertex_buffer(new: &[[f64; 3]], delta: i8) -> (Vec<f64>, usize) {
    let n = match delta {
        0 => new.len(),
        i8::MAX => usize::MAX / 2,
        d => (new.len() as i64 + d as i64).max(0) as usize,
    };
    let mut flat: Vec<f64> = new.iter().flatten().copied().collect();
    if n != usize::MAX / 2 {
        flat.resize(3 * n.max(new.len()), 0.5);
    }
    (flat, n)
}

/// The arguments of a subset update: indices (most below the number of vertices) and their
/// new positions.
fn subset_args(current: &[[f64; 3]], picks: &[u32], m: Motion) -> (Vec<u32>, Vec<[f64; 3]>) {
    let n = current.len().max(1) as u32;
    let indices: Vec<u32> = picks.iter().map(|&p| if p & (1 << 31) != 0 { p } else { p % n }).collect();
    let from: Vec<[f64; 3]> = indices.iter().map(|&i| current.get(i as usize).copied().unwrap_or([0.25; 3])).collect();
    (indices, moved(&from, m))
}

/// Expectations of a subset update on a deformable model with vertices `new` (updated in
/// place when it is accepted).
fn subset_expect(e: &mut Expect, new: &mut [[f64; 3]], indices: &[u32], positions: &[[f64; 3]], limit: f64) {
    let mut seen = BTreeSet::new();
    if indices.iter().any(|&i| i as usize >= new.len() || !seen.insert(i)) {
        e.code(RPQ_ERR_INVALID_ARGUMENT);
    }
    points_expect(e, positions, limit);
    if e.definite.is_empty() {
        for (&i, p) in indices.iter().zip(positions) {
            new[i as usize] = *p;
        }
    }
}

/// After a model update: the report and the model unchanged on error; on success the shadow
/// moved, the report consistent with the threshold, and the model checked against brute force.
fn refit_done(
    st: &mut State,
    p: usize,
    v: Valid,
    status: c_int,
    new: &[[f64; 3]],
    report: bool,
    rep: &RpqRefitReport,
    what: &str,
) -> bool {
    let Valid::Live(i) = v else {
        assert!(rep.degradation == -3.0 && rep.rebuilt == 7, "{what}: report written on error");
        return false;
    };
    let mesh = &mut st.models[i].shadow;
    if status != RPQ_OK {
        assert!(rep.degradation == -3.0 && rep.rebuilt == 7, "{what}: report written on error");
        if mesh.deform.is_some() && p != 0 {
            // Unchanged: it still collides as its shadow says.
            check_model_now(p as *const RpqModel, mesh, what);
        }
        return false;
    }
    let d = mesh.deform.as_mut().expect("deformable");
    d.verts = new.to_vec();
    mesh.tris = tris_of(&d.verts, &d.faces);
    if report {
        assert!(rep.rebuilt == 0 || rep.rebuilt == 1, "{what}: rebuilt {}", rep.rebuilt);
        assert!(rep.degradation.is_finite() && rep.degradation >= 0.0, "{what}: degradation {}", rep.degradation);
        if (rep.degradation - d.threshold).abs() > 1e-12 * d.threshold.min(1e300) {
            assert_eq!(rep.rebuilt != 0, rep.degradation > d.threshold, "{what}: {rep:?}, threshold {}", d.threshold);
        }
        d.fresh = rep.rebuilt != 0;
    } else {
        d.fresh = false;
    }
    check_model_now(p as *const RpqModel, mesh, what);
    true
}

#[allow(clippy::too_many_arguments)]
fn contacts_call(
    st: &mut State,
    m1: H,
    m2: H,
    p1: &P,
    p2: &P,
    tol: f64,
    cap: u8,
    null_out: bool,
    null_count: bool,
    what: &str,
) -> bool {
    let (a, va) = st.resolve(m1, NM);
    let (b, vb) = st.resolve(m2, NM);
    let mut e = Expect::default();
    e.add(Ok(handle_code(va, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
    e.add(Ok(handle_code(vb, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
    e.add(native_pose(p1, st.tol));
    e.add(native_pose(p2, st.tol));
    if !tol.is_finite() {
        e.code(RPQ_ERR_NON_FINITE);
    } else if tol < 0.0 {
        e.code(RPQ_ERR_INVALID_ARGUMENT);
    }
    let capacity = match cap {
        0 => 0,
        1 => 1,
        2 => 4,
        _ => 64,
    };
    if null_count || (null_out && capacity > 0) {
        e.code(RPQ_ERR_NULL_POINTER);
    }
    let pair = live_pair(st, va, vb);
    e.range = range_possible(&pair, p1, p2);
    let (q1, q2) = (p1.map(|p| rpq_pose(&p)), p2.map(|p| rpq_pose(&p)));
    let sentinel = RpqContact { point: [-8.0; 3], normal: [-8.0; 3], count: 99, flags: 99 };
    let mut buf = vec![sentinel; capacity + 2];
    let mut count = 777usize;
    // SAFETY: handles checked by the library; buffers of the capacities given.
    let status = unsafe {
        rpq_contacts(
            a as *const RpqModel,
            pose_ptr(&q1),
            b as *const RpqModel,
            pose_ptr(&q2),
            tol,
            if null_out { std::ptr::null_mut() } else { buf.as_mut_ptr() },
            capacity,
            if null_count { std::ptr::null_mut() } else { &mut count },
        )
    };
    e.check(status, RPQ_OK, RPQ_ERR_OUT_OF_RANGE, what);
    if status != RPQ_OK {
        assert_eq!(count, 777, "{what}: count written on error");
        assert!(buf.iter().all(|c| *c == sentinel), "{what}: contacts written on error");
        return false;
    }
    let written = if count <= capacity && !null_out { count } else { 0 };
    assert!(buf[written..].iter().all(|c| *c == sentinel), "{what}: contacts written past the count or capacity");
    let (Some((ma, mb)), Some(p1), Some(p2)) = (pair, p1, p2) else { unreachable!() };
    // The pairs and their geometry, by a collide with geometry on.
    // SAFETY: as above.
    let (pairs, geometry) = unsafe {
        let r = rpq_collide_result_new();
        assert_eq!(rpq_collide_result_set_geometry(r, 1), RPQ_OK);
        let status =
            rpq_collide(a as *const RpqModel, pose_ptr(&q1), b as *const RpqModel, pose_ptr(&q2), std::ptr::null(), r);
        assert_eq!(status, RPQ_OK, "{what}: collide refused what rpq_contacts took");
        let pairs = snapshot(r).0;
        let mut n = 0usize;
        assert_eq!(rpq_collide_result_geometries(r, std::ptr::null_mut(), 0, &mut n), RPQ_OK, "{what}");
        assert_eq!(n, pairs.len(), "{what}: geometries vs pairs");
        let mut g = vec![RpqTriContact::default(); n];
        assert_eq!(rpq_collide_result_geometries(r, g.as_mut_ptr(), n, &mut n), RPQ_OK, "{what}");
        rpq_collide_result_free(r);
        (pairs, g)
    };
    check_contacts(&pairs, &ma, &placement(p1), &mb, &placement(p2), TriangleFrame::Model1, false, what);
    for (k, g) in geometry.iter().enumerate() {
        check_tri_contact(g, &format!("{what} pair {k}"));
    }
    assert_eq!(count == 0, pairs.is_empty(), "{what}: {count} contacts for {} pairs", pairs.len());
    let points: usize = geometry.iter().map(|g| g.num_points as usize).sum();
    assert!(count <= points, "{what}: {count} contacts of {points} points");
    if written > 0 {
        let merged: usize = buf[..written].iter().map(|c| c.count as usize).sum();
        assert_eq!(merged, points, "{what}: contacts' counts vs the pairs' points");
        for c in &buf[..written] {
            assert!(c.point.iter().all(|x| x.is_finite()), "{what}: contact {c:?}");
            assert!(c.flags & !RPQ_CONTACT_NO_NORMAL == 0, "{what}: flags {c:?}");
            assert!(unit_or_zero(&c.normal), "{what}: normal {c:?}");
            assert_eq!(c.normal == [0.0; 3], c.flags & RPQ_CONTACT_NO_NORMAL != 0, "{what}: normal {c:?}");
            assert!(c.count >= 1, "{what}: {c:?}");
        }
    }
    true
}

#[allow(clippy::too_many_arguments)]
fn curves_call(st: &mut State, m1: H, m2: H, p1: &P, p2: &P, cap: u8, nulls: u8, what: &str) -> bool {
    let (a, va) = st.resolve(m1, NM);
    let (b, vb) = st.resolve(m2, NM);
    let mut e = Expect::default();
    e.add(Ok(handle_code(va, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
    e.add(Ok(handle_code(vb, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
    e.add(native_pose(p1, st.tol));
    e.add(native_pose(p2, st.tol));
    let (pcap, ocap) = match cap {
        0 => (0, 0),
        1 => (256, 64),
        _ => (1, 1),
    };
    if nulls & 3 != 0 || (nulls & 4 != 0 && pcap > 0) || (nulls & 8 != 0 && ocap > 0) {
        e.code(RPQ_ERR_NULL_POINTER);
    }
    let pair = live_pair(st, va, vb);
    e.range = range_possible(&pair, p1, p2);
    let (q1, q2) = (p1.map(|p| rpq_pose(&p)), p2.map(|p| rpq_pose(&p)));
    let call = |pcap: usize, ocap: usize, nulls: u8| {
        let mut points = vec![-6.5; 3 * pcap + 3];
        let mut offsets = vec![usize::MAX - 1; ocap + 1];
        let (mut np, mut nc) = (555usize, 666usize);
        // SAFETY: handles checked by the library; buffers of the capacities given.
        let status = unsafe {
            rpq_intersection_curves(
                a as *const RpqModel,
                pose_ptr(&q1),
                b as *const RpqModel,
                pose_ptr(&q2),
                if nulls & 4 != 0 { std::ptr::null_mut() } else { points.as_mut_ptr() },
                pcap,
                if nulls & 8 != 0 { std::ptr::null_mut() } else { offsets.as_mut_ptr() },
                ocap,
                if nulls & 1 != 0 { std::ptr::null_mut() } else { &mut np },
                if nulls & 2 != 0 { std::ptr::null_mut() } else { &mut nc },
            )
        };
        (status, points, offsets, np, nc)
    };
    let (status, points, offsets, np, nc) = call(pcap, ocap, nulls);
    e.check(status, RPQ_OK, RPQ_ERR_OUT_OF_RANGE, what);
    if status != RPQ_OK {
        assert_eq!((np, nc), (555, 666), "{what}: counts written on error");
        assert!(points.iter().all(|&x| x == -6.5), "{what}: points written on error");
        assert!(offsets.iter().all(|&x| x == usize::MAX - 1), "{what}: offsets written on error");
        return false;
    }
    let check = |points: &[f64], offsets: &[usize], pcap: usize, ocap: usize, np: usize, nc: usize| {
        let fits = np <= pcap && nc < ocap;
        let (wp, wo) = if fits { (3 * np, nc + 1) } else { (0, 0) };
        assert!(points[wp..].iter().all(|&x| x == -6.5), "{what}: points written past ({np} points, capacity {pcap})");
        assert!(offsets[wo..].iter().all(|&x| x == usize::MAX - 1), "{what}: offsets written past");
        if fits {
            assert_eq!(offsets[0], 0, "{what}");
            assert_eq!(offsets[nc], np, "{what}: last offset");
            assert!(offsets[..=nc].windows(2).all(|w| w[0] < w[1]), "{what}: offsets {:?}", &offsets[..=nc]);
            assert!(points[..3 * np].iter().all(|x| x.is_finite()), "{what}: a point not finite");
        }
    };
    check(&points, &offsets, pcap, ocap, np, nc);
    let (Some((ma, mb)), Some(p1), Some(p2)) = (pair, p1, p2) else { unreachable!() };
    let touching = !contacts(&ma, &placement(p1), &mb, &placement(p2), TriangleFrame::Model1).is_empty();
    COUNT.add(2);
    if !touching {
        assert_eq!((np, nc), (0, 0), "{what}: curves of models that do not touch");
    }
    assert!(nc <= np, "{what}: {nc} curves of {np} points");
    if cap == 0 && nulls == 0 {
        // Asked for the sizes: a second call with room gets them all, the same.
        let (status, points, offsets, np2, nc2) = call(np, nc + 1, 0);
        assert_eq!(status, RPQ_OK, "{what}: the second call");
        assert_eq!((np2, nc2), (np, nc), "{what}: the second call's sizes");
        check(&points, &offsets, np, nc + 1, np, nc);
    }
    true
}

// ------------------------------------------------------------------------------------------
// Mesh files

fn mesh_dir() -> std::path::PathBuf {
    let dir = crate::common::cbuild::scratch_dir("fuzz").join("meshes");
    std::fs::create_dir_all(&dir).expect("mesh folder");
    dir
}

/// Writes a file anew: removed first, since truncating and rewriting a file makes some file
/// systems (ext4's `auto_da_alloc`) flush it, a millisecond each time.
fn put_file(p: &std::path::Path, bytes: impl AsRef<[u8]>) {
    std::fs::remove_file(p).ok();
    std::fs::write(p, bytes).expect("write a mesh file");
}

fn obj_text(verts: &[[f64; 3]], faces: &[Vec<i64>], nan: bool) -> String {
    let mut s = String::from("# fuzz\n");
    for (k, v) in verts.iter().enumerate() {
        if nan && k == 0 {
            s += "v nan 0 0\n";
        }
        s += &format!("v {:e} {:e} {:e}\n", v[0], v[1], v[2]);
    }
    if nan && verts.is_empty() {
        s += "v 0 inf 0\n";
    }
    for f in faces {
        s += "f";
        for i in f {
            s += &format!(" {i}");
        }
        s += "\n";
    }
    s
}

fn stl_bytes(tris: &[Triangle]) -> Vec<u8> {
    let mut b = vec![b'x'; 80];
    b.extend_from_slice(&(tris.len() as u32).to_le_bytes());
    for t in tris {
        b.extend_from_slice(&[0u8; 12]);
        for v in t {
            for x in [v.x, v.y, v.z] {
                b.extend_from_slice(&(x as f32).to_le_bytes());
            }
        }
        b.extend_from_slice(&[0u8; 2]);
    }
    b
}

/// Loads a mesh file; checks the status, the message, and the mesh against what was written.
fn mesh_load(st: &mut State, file: &File, message: u8, null_out: bool, what: &str) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let dir = mesh_dir();
    // The expected status (any of these) and, for OK, the expected vertices and faces when known.
    let mut allowed: Vec<c_int>;
    let mut want: Option<MeshShadow> = None;
    let mut want_tris: Option<Vec<Triangle>> = None;
    let path: Option<Vec<u8>> = match file {
        File::Obj { verts, faces, ext, nan } => {
            let name = ["m.obj", "m.OBJ", "m", "m.stl"][*ext as usize % 4];
            let p = dir.join(name);
            put_file(&p, obj_text(verts, faces, *nan));
            let n = verts.len() as i64 + i64::from(*nan);
            let bad_index = faces.iter().flatten().any(|&i| i == 0 || i > n || i < -n);
            let tris: Vec<[u32; 3]> = faces
                .iter()
                .flat_map(|f| {
                    let idx = |i: i64| if i > 0 { (i - 1) as u32 } else { (n + i) as u32 };
                    (1..f.len() - 1).map(move |k| [idx(f[0]), idx(f[k]), idx(f[k + 1])])
                })
                .collect();
            allowed = Vec::new();
            if *nan {
                allowed.push(RPQ_ERR_NON_FINITE);
            }
            if bad_index {
                allowed.push(RPQ_ERR_BAD_FORMAT);
            }
            if faces.is_empty() {
                allowed.push(RPQ_ERR_EMPTY_MODEL);
            }
            if allowed.is_empty() {
                allowed.push(RPQ_OK);
                want = Some(MeshShadow { verts: verts.clone(), faces: tris });
            }
            match ext {
                3 => allowed = vec![RPQ_ERR_BAD_FORMAT],
                2 => allowed.push(RPQ_ERR_BAD_FORMAT),
                _ => {}
            }
            Some(p.as_os_str().as_bytes().to_vec())
        }
        File::Stl { tris, cut } => {
            let p = dir.join("m.stl");
            let mut bytes = stl_bytes(tris);
            bytes.truncate(bytes.len().saturating_sub(*cut as usize));
            put_file(&p, bytes);
            let rounded: Vec<Triangle> = tris.iter().map(|t| t.map(|v| v.map(|x| x as f32 as f64))).collect();
            allowed = if *cut > 0 {
                vec![RPQ_ERR_BAD_FORMAT]
            } else if tris.is_empty() {
                vec![RPQ_ERR_EMPTY_MODEL]
            } else if rounded.iter().flatten().any(|v| !v.iter().all(|x| x.is_finite())) {
                vec![RPQ_ERR_NON_FINITE]
            } else {
                want_tris = Some(rounded);
                vec![RPQ_OK]
            };
            Some(p.as_os_str().as_bytes().to_vec())
        }
        File::Bytes(b, ext) => {
            let p = dir.join(["r.obj", "r.stl", "r.ply", "r", "r.txt"][*ext as usize % 5]);
            put_file(&p, b);
            allowed = vec![RPQ_OK, RPQ_ERR_BAD_FORMAT, RPQ_ERR_NON_FINITE, RPQ_ERR_EMPTY_MODEL];
            Some(p.as_os_str().as_bytes().to_vec())
        }
        File::Missing => {
            allowed = vec![RPQ_ERR_FILE_NOT_FOUND];
            Some(dir.join("no such file.obj").as_os_str().as_bytes().to_vec())
        }
        File::NotUtf8 => {
            allowed = vec![RPQ_ERR_FILE_NOT_FOUND];
            let mut p = dir.as_os_str().as_bytes().to_vec();
            p.extend_from_slice(b"/\xff\xfe.obj");
            Some(p)
        }
        File::Directory => {
            allowed = vec![RPQ_ERR_IO];
            Some(dir.as_os_str().as_bytes().to_vec())
        }
        File::NullPath => {
            allowed = vec![RPQ_ERR_NULL_POINTER];
            None
        }
    };
    if null_out {
        allowed = vec![RPQ_ERR_NULL_POINTER];
    }
    let c_path = path.map(|p| std::ffi::CString::new(p).expect("no NUL"));
    let capacity = [0usize, 0, 1, 7, 256][message as usize % 5];
    let mut msg = vec![0x55 as c_char; 300];
    let mut out: *mut RpqMesh = std::ptr::dangling_mut();
    // SAFETY: a NUL-terminated path or NULL; the message buffer holds `capacity` bytes.
    let status = unsafe {
        rpq_mesh_load(
            c_path.as_ref().map_or(std::ptr::null(), |p| p.as_ptr()),
            if null_out { std::ptr::null_mut() } else { &mut out },
            if message == 0 { std::ptr::null_mut() } else { msg.as_mut_ptr() },
            capacity,
        )
    };
    if status != RPQ_OK {
        COUNT.add(1);
    }
    assert!(allowed.contains(&status), "{what}: status {status}, expected one of {allowed:?} ({file:?})");
    // The message: NUL-terminated within the capacity, nothing written past it; empty on
    // success, not on error.
    assert!(msg[capacity..].iter().all(|&c| c == 0x55), "{what}: message written past its capacity");
    if message != 0 && capacity > 0 {
        let end = msg[..capacity].iter().position(|&c| c == 0).expect("a NUL within the capacity");
        // SAFETY: NUL-terminated (just found).
        let text = unsafe { CStr::from_ptr(msg.as_ptr()) };
        assert!(text.to_str().is_ok(), "{what}: the message is not UTF-8");
        if status == RPQ_OK {
            assert_eq!(end, 0, "{what}: a message on success: {text:?}");
        } else if capacity > 1 {
            assert!(end > 0, "{what}: no message for error {status}");
        }
    }
    if status != RPQ_OK {
        assert_eq!(out, std::ptr::dangling_mut(), "{what}: out_mesh written on error");
        return false;
    }
    // Read the mesh back.
    // SAFETY: a live mesh; buffers of its sizes.
    let shadow = unsafe {
        let m = out as *const RpqMesh;
        let (nv, nf) = (rpq_mesh_num_vertices(m), rpq_mesh_num_faces(m));
        let mut v = vec![0.0; 3 * nv];
        let mut f = vec![0u32; 3 * nf];
        assert_eq!(rpq_mesh_copy(m, v.as_mut_ptr(), f.as_mut_ptr()), RPQ_OK, "{what}");
        MeshShadow {
            verts: v.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(),
            faces: f.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(),
        }
    };
    assert!(!shadow.faces.is_empty(), "{what}: a mesh without faces loaded");
    assert!(
        shadow.faces.iter().flatten().all(|&i| (i as usize) < shadow.verts.len()),
        "{what}: a face index out of range"
    );
    assert!(shadow.verts.iter().flatten().all(|x| x.is_finite()), "{what}: a coordinate not finite");
    if let Some(w) = &want {
        assert_eq!(shadow.verts, w.verts, "{what}: vertices read");
        assert_eq!(shadow.faces, w.faces, "{what}: faces read");
    }
    if let Some(t) = &want_tris {
        let got = tris_of(&shadow.verts, &shadow.faces);
        assert_eq!(&got, t, "{what}: STL triangles read");
        // Corners merged where bitwise equal: no two vertices equal.
        let distinct: BTreeSet<[u64; 3]> = shadow.verts.iter().map(|v| v.map(f64::to_bits)).collect();
        assert_eq!(distinct.len(), shadow.verts.len(), "{what}: equal STL corners not merged");
    }
    st.meshes.push(Slot { ptr: out as usize, live: true, shadow });
    true
}

// ------------------------------------------------------------------------------------------
// The n-body world

fn world_id(s: &WorldShadow, id: Id) -> u32 {
    match id {
        Id::Known(k) if !s.objects.is_empty() => (k as usize % s.objects.len()) as u32,
        Id::Known(k) => k as u32 % 3,
        Id::Raw(v) => v as u32,
    }
}

fn world_object(s: &WorldShadow, id: u32) -> Option<&WObj> {
    s.objects.get(id as usize).and_then(Option::as_ref)
}

fn world(st: &mut State, op: &MoreOp, what: &str) -> bool {
    use MoreOp::*;
    if let WNew(null) = op {
        let mut out: *mut RpqWorld = std::ptr::dangling_mut();
        // SAFETY: a writable pointer or NULL.
        let status = unsafe { rpq_world_new(if *null { std::ptr::null_mut() } else { &mut out }) };
        if *null {
            assert_eq!(status, RPQ_ERR_NULL_POINTER, "{what}");
            return false;
        }
        assert_eq!(status, RPQ_OK, "{what}");
        st.worlds.push(Slot { ptr: out as usize, live: true, shadow: WorldShadow::default() });
        return true;
    }
    let h = match op {
        WFree(h) | WAdd(h, ..) | WRemove(h, _) | WPose(h, ..) | WActive(h, ..) | WPair(h, ..) => *h,
        WUpdate { w, .. } | WSubset { w, .. } | WCollide { w, .. } => *w,
        _ => unreachable!("{op:?}"),
    };
    let (p, v) = st.resolve(h, WD);
    let w = p as *mut RpqWorld;
    if let WFree(_) = op {
        // SAFETY: the library checks the handle.
        unsafe { rpq_world_free(w) };
        if let Valid::Live(i) = v {
            st.worlds[i].live = false;
        }
        return true;
    }
    // The model argument of WAdd is resolved before the world shadow is borrowed.
    let added = if let WAdd(_, m, _) = op { Some(st.resolve(*m, NM)) } else { None };
    let added_mesh = added.and_then(|(_, vm)| live_model(st, vm));
    let tol = st.tol;
    let mut dummy = WorldShadow::default();
    let (s, code) = match v {
        Valid::Live(i) => (&mut st.worlds[i].shadow, None),
        _ => (&mut dummy, handle_code(v, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)),
    };
    let mut e = Expect::default();
    e.add(Ok(code));
    // SAFETY (every call below): the library checks the handles; buffers sized as passed.
    unsafe {
        match op {
            WAdd(_, _, null_out) => {
                let (mp, vm) = added.expect("resolved");
                let mut id = 0xdead_u32;
                let status = rpq_world_add_model(
                    w,
                    mp as *const RpqModel,
                    if *null_out { std::ptr::null_mut() } else { &mut id },
                );
                if *null_out {
                    e.code(RPQ_ERR_NULL_POINTER);
                }
                e.add(Ok(handle_code(vm, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
                if let Some(m) = &added_mesh {
                    let mag = model_magnitude(m);
                    if mag > NBODY_RANGE * 1.01 {
                        e.code(RPQ_ERR_OUT_OF_RANGE);
                    } else if mag > NBODY_RANGE * 0.99 {
                        e.doubtful.extend([RPQ_OK, RPQ_ERR_OUT_OF_RANGE]);
                    }
                }
                e.check(status, RPQ_OK, RPQ_OK, what);
                if status != RPQ_OK {
                    assert_eq!(id, 0xdead, "{what}: id written on error");
                    return false;
                }
                assert_eq!(id as usize, s.objects.len(), "{what}: the new id");
                s.objects.push(Some(WObj { mesh: added_mesh.expect("live"), pose: Placement::IDENTITY, active: true }));
                true
            }
            WRemove(_, id) => {
                let i = world_id(s, *id);
                let status = rpq_world_remove(w, i);
                if code.is_none() && world_object(s, i).is_none() {
                    e.code(RPQ_ERR_INVALID_ARGUMENT);
                }
                e.check(status, RPQ_OK, RPQ_OK, what);
                if status == RPQ_OK {
                    s.objects[i as usize] = None;
                    s.disabled.retain(|&(a, b)| a != i && b != i);
                }
                status == RPQ_OK
            }
            WPose(_, id, pose) => {
                let i = world_id(s, *id);
                let q = pose.map(|p| rpq_pose(&p));
                let status = rpq_world_set_pose(w, i, pose_ptr(&q));
                e.add(native_pose(pose, tol));
                if let Some(p) = pose {
                    if p.s != 1.0 && p.s.is_finite() {
                        e.code(RPQ_ERR_INVALID_SCALE);
                    }
                    if p.t.iter().any(|x| x.abs() > NBODY_RANGE) && p.t.iter().all(|x| x.is_finite()) {
                        e.code(RPQ_ERR_OUT_OF_RANGE);
                    }
                    // The world's own rigidity bound (1e-6 per entry) is tighter than the
                    // rotation tolerance may be.
                    if p.r.iter().all(|x| x.is_finite()) && skew(&placement(p)) > 1e-7 {
                        e.doubtful.extend([RPQ_OK, RPQ_ERR_NOT_ROTATION]);
                    }
                }
                if code.is_none() && world_object(s, i).is_none() {
                    e.code(RPQ_ERR_INVALID_ARGUMENT);
                }
                e.check(status, RPQ_OK, RPQ_OK, what);
                if status == RPQ_OK {
                    s.objects[i as usize].as_mut().expect("live").pose = placement(&pose.expect("a pose"));
                }
                status == RPQ_OK
            }
            WUpdate { id, motion, delta, null, report, .. } => {
                let i = world_id(s, *id);
                let obj = world_object(s, i).cloned();
                let current =
                    obj.as_ref().and_then(|o| o.mesh.deform.as_ref()).map_or(vec![[0.5; 3]; 4], |d| d.verts.clone());
                let new = moved(&current, *motion);
                let (flat, n) = vertex_buffer(&new, *delta);
                let mut rep = RpqRefitReport { degradation: -3.0, rebuilt: 7 };
                let status = rpq_world_update_vertices(
                    w,
                    i,
                    if *null { std::ptr::null() } else { flat.as_ptr() },
                    n,
                    if *report { &mut rep } else { std::ptr::null_mut() },
                );
                if *null && n > 0 {
                    e.code(RPQ_ERR_NULL_POINTER);
                }
                if code.is_none() {
                    match &obj {
                        None => e.code(RPQ_ERR_INVALID_ARGUMENT),
                        Some(o) => {
                            if n == usize::MAX / 2 {
                                e.code(RPQ_ERR_INVALID_ARGUMENT);
                            } else {
                                let read: Vec<[f64; 3]> =
                                    flat.chunks_exact(3).take(n).map(|c| [c[0], c[1], c[2]]).collect();
                                points_expect(&mut e, &read, NBODY_RANGE);
                            }
                            match &o.mesh.deform {
                                None => e.code(RPQ_ERR_NOT_DEFORMABLE),
                                Some(d) if d.verts.len() != n => e.code(RPQ_ERR_INVALID_ARGUMENT),
                                Some(_) => {}
                            }
                        }
                    }
                }
                e.check(status, RPQ_OK, RPQ_OK, what);
                world_refit_done(s, i, status, &new, *report, &rep, what)
            }
            WSubset { id, picks, motion, null, report, .. } => {
                let i = world_id(s, *id);
                let obj = world_object(s, i).cloned();
                let current =
                    obj.as_ref().and_then(|o| o.mesh.deform.as_ref()).map_or(vec![[0.5; 3]; 4], |d| d.verts.clone());
                let (indices, positions) = subset_args(&current, picks, *motion);
                let flat: Vec<f64> = positions.iter().flatten().copied().collect();
                let (ni, np) = (*null == 1, *null == 2);
                let mut rep = RpqRefitReport { degradation: -3.0, rebuilt: 7 };
                let status = rpq_world_update_vertex_subset(
                    w,
                    i,
                    if ni { std::ptr::null() } else { indices.as_ptr() },
                    if np { std::ptr::null() } else { flat.as_ptr() },
                    indices.len(),
                    if *report { &mut rep } else { std::ptr::null_mut() },
                );
                let mut new = current.clone();
                if !indices.is_empty() && (ni || np) {
                    e.code(RPQ_ERR_NULL_POINTER);
                }
                if code.is_none() {
                    match &obj {
                        None => e.code(RPQ_ERR_INVALID_ARGUMENT),
                        Some(o) => {
                            points_expect(&mut e, &positions, NBODY_RANGE);
                            match &o.mesh.deform {
                                None => e.code(RPQ_ERR_NOT_DEFORMABLE),
                                Some(_) => subset_expect(&mut e, &mut new, &indices, &positions, NBODY_RANGE),
                            }
                        }
                    }
                }
                e.check(status, RPQ_OK, RPQ_OK, what);
                world_refit_done(s, i, status, &new, *report, &rep, what)
            }
            WActive(_, id, on) => {
                let i = world_id(s, *id);
                let status = rpq_world_set_active(w, i, c_int::from(*on) * 3);
                if code.is_none() && world_object(s, i).is_none() {
                    e.code(RPQ_ERR_INVALID_ARGUMENT);
                }
                e.check(status, RPQ_OK, RPQ_OK, what);
                if status == RPQ_OK {
                    s.objects[i as usize].as_mut().expect("live").active = *on;
                }
                status == RPQ_OK
            }
            WPair(_, a, b, on) => {
                let (i, j) = (world_id(s, *a), world_id(s, *b));
                let status = rpq_world_set_pair_active(w, i, j, c_int::from(*on));
                if code.is_none() && (world_object(s, i).is_none() || world_object(s, j).is_none()) {
                    e.code(RPQ_ERR_INVALID_ARGUMENT);
                }
                e.check(status, RPQ_OK, RPQ_OK, what);
                if status == RPQ_OK && i != j {
                    let key = (i.min(j), i.max(j));
                    if *on {
                        s.disabled.remove(&key);
                    } else {
                        s.disabled.insert(key);
                    }
                }
                status == RPQ_OK
            }
            WCollide { first, null_out, .. } => {
                // The last result's pairs, read before (unchanged by a refused call).
                let mut n = 777usize;
                let status =
                    rpq_world_collide(w, c_int::from(*first), if *null_out { std::ptr::null_mut() } else { &mut n });
                if *null_out {
                    e.code(RPQ_ERR_NULL_POINTER);
                }
                e.check(status, RPQ_OK, RPQ_OK, what);
                if status == RPQ_OK {
                    // Brute force over every live, active, enabled pair.
                    let mut want = Vec::new();
                    for i in 0..s.objects.len() {
                        for j in i + 1..s.objects.len() {
                            let (Some(a), Some(b)) = (&s.objects[i], &s.objects[j]) else { continue };
                            if !a.active || !b.active || s.disabled.contains(&(i as u32, j as u32)) {
                                continue;
                            }
                            let tri = contacts(&a.mesh, &a.pose, &b.mesh, &b.pose, TriangleFrame::Model2);
                            if !tri.is_empty() {
                                want.push((i as u32, j as u32, if *first { Vec::new() } else { tri }));
                            }
                        }
                    }
                    COUNT.add(2);
                    assert_eq!(n, want.len(), "{what}: colliding object pairs: {n} vs brute force {want:?}");
                    s.contacts = want.iter().map(|(a, b, t)| (*a, *b, t.len())).collect();
                } else {
                    assert_eq!(n, 777, "{what}: count written on error");
                }
                // Read every contact of the last result, and one past the end.
                let want = s.contacts.clone();
                let brute: Vec<Vec<(i32, i32)>> = if status == RPQ_OK && !*first {
                    want.iter()
                        .map(|&(i, j, _)| {
                            let (a, b) = (world_object(s, i).expect("live"), world_object(s, j).expect("live"));
                            contacts(&a.mesh, &a.pose, &b.mesh, &b.pose, TriangleFrame::Model2)
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                for k in 0..=want.len() + 1 {
                    let index = if k == want.len() + 1 { usize::MAX } else { k };
                    let null = k == 0 && *null_out;
                    let sentinel =
                        RpqObjectContact { id1: 99, id2: 99, num_tri_pairs: 99, tri_pairs: std::ptr::dangling() };
                    let mut c = sentinel;
                    let status = rpq_world_contact(w, index, if null { std::ptr::null_mut() } else { &mut c });
                    let expected = code.unwrap_or(if null {
                        RPQ_ERR_NULL_POINTER
                    } else if index >= want.len() {
                        RPQ_ERR_INVALID_ARGUMENT
                    } else {
                        RPQ_OK
                    });
                    assert_eq!(status, expected, "{what}: contact {index}");
                    if status != RPQ_OK {
                        assert_eq!(c.id1, 99, "{what}: contact written on error");
                        continue;
                    }
                    let (i, j, t) = want[index];
                    assert_eq!((c.id1, c.id2, c.num_tri_pairs), (i, j, t), "{what}: contact {index}");
                    assert_eq!(c.tri_pairs.is_null(), t == 0, "{what}: contact {index}'s array");
                    if let Some(bf) = brute.get(index) {
                        let mut got: Vec<(i32, i32)> =
                            (0..t).map(|q| ((*c.tri_pairs.add(q)).id1, (*c.tri_pairs.add(q)).id2)).collect();
                        got.sort_unstable();
                        assert_eq!(&got, bf, "{what}: triangle pairs of objects {i} and {j}");
                    }
                }
                status == RPQ_OK
            }
            _ => unreachable!("{op:?}"),
        }
    }
}

/// After a world object's update: the report untouched on error; on success the shadow moved.
fn world_refit_done(
    s: &mut WorldShadow,
    id: u32,
    status: c_int,
    new: &[[f64; 3]],
    report: bool,
    rep: &RpqRefitReport,
    what: &str,
) -> bool {
    if status != RPQ_OK {
        assert!(rep.degradation == -3.0 && rep.rebuilt == 7, "{what}: report written on error");
        return false;
    }
    let obj = s.objects[id as usize].as_mut().expect("live");
    let d = obj.mesh.deform.as_mut().expect("deformable");
    d.verts = new.to_vec();
    obj.mesh.tris = tris_of(&d.verts, &d.faces);
    if report {
        assert!(rep.rebuilt == 0 || rep.rebuilt == 1, "{what}: rebuilt {}", rep.rebuilt);
        assert!(rep.degradation.is_finite() && rep.degradation >= 0.0, "{what}: degradation {}", rep.degradation);
    }
    true
}
