//! The C entry points, called as a C program calls them, in generated sequences.
//!
//! A case is a program of 1 to 40 calls over seven kinds of handle (native models and collide
//! results, PQP models, RAPID models, V-COLLIDE engines, loaded meshes, n-body worlds). A third
//! of the calls go to the entry points of `capi_more.rs` (mesh files, contact geometry,
//! deformable models, self-collision, the native world), which lists its own checks. Every
//! handle argument is drawn among:
//! a handle of the right kind (live, or freed earlier in the program), a live handle of another
//! kind, NULL, a pointer into the program's own memory, and wild values (misaligned neighbours
//! of a handle, small integers, non-canonical addresses). Numbers are drawn with NaN, infinities,
//! huge, tiny and subnormal values; rotations are proper, reflections, scaled, sheared, zero or
//! within rounding of a tolerance; builds and V-COLLIDE objects are driven out of sequence;
//! sizes are absurd where the API checks them before reading (counts that overflow, queue sizes,
//! thread counts, report sizes, buffer lengths).
//!
//! Checked after every call, against a shadow of what the program has done:
//! - the status is one the documentation gives for the arguments (the exact code where only
//!   one applies), never an internal error (a caught panic);
//! - outputs (out-handles, results, caches, batch arrays, buffers, RAPID's globals, report
//!   arrays) are written only on success;
//! - successful queries agree with brute force over every triangle pair: collide contacts
//!   exactly (the same exact predicates, in the frame the query documents), distances and
//!   tolerance answers within the error bounds and rounding, closest points on the models at
//!   the distance returned, V-COLLIDE reports over every active, enabled object pair, and
//!   the point queries (`rpq_closest_points`, `rpq_contains`, `rpq_signed_distance`: distances
//!   within rounding, exactly 0 iff on a triangle, open models refused);
//! - counts (triangles, pairs, report totals) match the shadow.
//!
//! The child process this runs in also checks that nothing was printed on stderr, and a crash
//! or abort shows as the child's failure with the case number.

use std::collections::BTreeSet;
use std::ffi::{CStr, c_int, c_void};

use rapidpqp::ffi::batch::*;
use rapidpqp::ffi::native::*;
use rapidpqp::ffi::pose::*;
use rapidpqp::ffi::pqp::*;
use rapidpqp::ffi::rapid::*;
use rapidpqp::ffi::serialize::*;
use rapidpqp::ffi::solid::*;
use rapidpqp::ffi::vcollide::*;
use rapidpqp::geometry::tri_distance::triangle_distance;
use rapidpqp::query::TriangleFrame;
use rapidpqp::{Placement, Triangle, Vec3};

use crate::Target;
use crate::common::brute_force;
use crate::draw::{self, GenPose, Rng, RotKind};

/// Mesh files, contact geometry, deformable models, self-collision and the native world.
#[path = "capi_more.rs"]
mod more;

pub struct CApi;

/// Calls made, calls refused with an error, query answers compared with brute force.
static COUNT: crate::Counters<3> = crate::Counters::new();

/// Kinds of handle.
const NM: usize = 0; // RpqModel
const NR: usize = 1; // RpqCollideResult
const PM: usize = 2; // PQP_Model
const RM: usize = 3; // RAPID_model
const VC: usize = 4; // V-COLLIDE engine
const MS: usize = 5; // RpqMesh
const WD: usize = 6; // RpqWorld
/// Number of handle kinds.
const KINDS: usize = 7;

/// A handle argument.
#[derive(Clone, Copy, Debug)]
pub enum H {
    Null,
    /// The k-th handle of the right kind made so far (live or freed).
    Own(u8),
    /// A live handle of another kind.
    Other(u8, u8),
    /// A pointer into the program's memory.
    Foreign(u8),
    /// A value that is no handle.
    Wild(u8),
}

/// A pose argument: NULL or a pose.
pub type P = Option<GenPose>;

/// A V-COLLIDE id argument: one of the ids handed out so far, or any int.
#[derive(Clone, Copy, Debug)]
pub enum Id {
    Known(u8),
    Raw(i32),
}

#[derive(Clone, Debug)]
pub enum Op {
    // Native.
    Build {
        tris: Vec<Triangle>,
        ids: Option<Vec<i32>>,
        null_out: bool,
        count: u8,
    },
    BuildIndexed {
        verts: Vec<[f64; 3]>,
        faces: Vec<[u32; 3]>,
        ids: Option<Vec<i32>>,
        overflow: bool,
    },
    Free(H),
    NewResult,
    FreeResult(H),
    Info(H),
    Collide {
        r: H,
        m1: H,
        m2: H,
        p1: P,
        p2: P,
        req: Option<[c_int; 3]>,
    },
    Distance {
        m1: H,
        m2: H,
        p1: P,
        p2: P,
        req: Option<(f64, f64, c_int)>,
        cache: Option<(c_int, u32, u32)>,
        null_out: bool,
    },
    Tolerance {
        m1: H,
        m2: H,
        p1: P,
        p2: P,
        tol: f64,
        qsize: c_int,
        null_out: bool,
    },
    CollideBatch {
        m1: H,
        m2: H,
        p1: Vec<GenPose>,
        p2: Vec<GenPose>,
        req: Option<[c_int; 3]>,
        threads: c_int,
        null_out: bool,
        pairs: bool,
    },
    DistanceBatch {
        m1: H,
        m2: H,
        p1: Vec<GenPose>,
        p2: Vec<GenPose>,
        req: Option<(f64, f64, c_int)>,
        warm: c_int,
        threads: c_int,
        points: bool,
    },
    ToleranceBatch {
        m1: H,
        m2: H,
        p1: Vec<GenPose>,
        p2: Vec<GenPose>,
        tol: f64,
        qsize: c_int,
        threads: c_int,
        extras: bool,
    },
    Serialize {
        m: H,
        len: u8,
        null_buf: bool,
        null_written: bool,
        load: bool,
    },
    Deserialize {
        bytes: Vec<u8>,
        null_buf: bool,
        null_out: bool,
    },
    PosesFromMatrices {
        mats: Vec<[f64; 16]>,
        tol: f64,
    },
    SetTolerance(f64),
    Message(c_int),
    // PQP.
    PNew,
    PDelete(H),
    PBegin(H, c_int),
    PAddTri(H, Option<Triangle>, c_int),
    PEnd(H),
    PMem(H, c_int),
    PCollide {
        m1: H,
        m2: H,
        p1: P,
        p2: P,
        flag: c_int,
        null_out: bool,
    },
    PDistance {
        m1: H,
        m2: H,
        p1: P,
        p2: P,
        rel: f64,
        abs: f64,
        qsize: c_int,
        null_out: bool,
    },
    PTolerance {
        m1: H,
        m2: H,
        p1: P,
        p2: P,
        tol: f64,
        qsize: c_int,
        null_out: bool,
    },
    PFreePairs,
    // RAPID.
    RNew,
    RDelete(H),
    RBegin(H),
    RAddTri(H, Option<Triangle>, c_int),
    REnd(H),
    RCollide {
        m1: H,
        m2: H,
        p1: P,
        p2: P,
        flag: c_int,
        scaled: bool,
    },
    // V-COLLIDE.
    VOpen,
    VClose(H),
    VNew(H, bool),
    VAddTri(H, Option<Triangle>, Option<c_int>),
    VEnd(H),
    VUpdate(H, Id, Option<GenPose>),
    VActivate(H, Id, bool),
    VPair(H, Id, Id, bool),
    VDelete(H, Id),
    VCollide(H, bool),
    VReport(H, c_int, bool),
    VReportTri(H, c_int, c_int, bool),
    /// `rpq_closest_points` (kind 0), `rpq_contains` (1) or `rpq_signed_distance` (2).
    Points {
        m: H,
        points: Vec<[f64; 3]>,
        max_distance: f64,
        threads: c_int,
        kind: u8,
        null_out: bool,
    },
    /// The functions of `capi_more.rs`.
    More(more::MoreOp),
}

// ------------------------------------------------------------------------------------------
// Generation

fn handle(rng: &mut Rng) -> H {
    match rng.below(20) {
        0 => H::Null,
        1 => H::Other(rng.below(KINDS as u64) as u8, rng.next() as u8),
        2 => H::Foreign(rng.next() as u8),
        3 => H::Wild(rng.next() as u8),
        _ => H::Own(rng.next() as u8),
    }
}

fn pose_arg(rng: &mut Rng) -> P {
    if rng.one_in(40) { None } else { Some(draw::pose(rng)) }
}

/// A pose for a query whose answer is checked: mostly a valid one.
fn query_pose(rng: &mut Rng) -> P {
    if rng.one_in(3) { pose_arg(rng) } else { Some(valid_pose(rng)) }
}

fn valid_pose(rng: &mut Rng) -> GenPose {
    let (r, kind) = if rng.one_in(2) { draw::rotation(rng) } else { (draw::random_rotation(rng), RotKind::Proper) };
    let (r, kind) = if matches!(kind, RotKind::Proper | RotKind::Exact) {
        (r, kind)
    } else {
        (draw::random_rotation(rng), RotKind::Proper)
    };
    let t = [0; 3].map(|_| rng.below(17) as f64 / 8.0 - 1.0);
    GenPose { r, t, s: if rng.one_in(5) { draw::scale(rng) } else { 1.0 }, kind }
}

fn triangle(rng: &mut Rng) -> Option<Triangle> {
    if rng.one_in(25) {
        return None;
    }
    let style = draw::style(rng);
    let mut t = draw::triangles(rng, style)[0];
    if rng.one_in(20) {
        t[rng.index(3)][rng.index(3)] = rng.non_finite();
    }
    Some(t)
}

fn id(rng: &mut Rng) -> Id {
    if rng.one_in(4) { Id::Raw(rng.int()) } else { Id::Known(rng.next() as u8) }
}

fn poses(rng: &mut Rng) -> Vec<GenPose> {
    let n = match rng.below(6) {
        0 => 0,
        1 | 2 => 1,
        _ => 2 + rng.index(5),
    };
    (0..n).map(|_| if rng.one_in(8) { draw::pose(rng) } else { valid_pose(rng) }).collect()
}

fn distance_request(rng: &mut Rng) -> Option<(f64, f64, c_int)> {
    if rng.one_in(3) {
        return None;
    }
    let err = |rng: &mut Rng| match rng.below(8) {
        0 => rng.pick(&[f64::NAN, -1.0, f64::INFINITY, -0.0, 1e300]),
        1 | 2 => rng.pick(&[0.01, 0.1, 0.5]),
        _ => 0.0,
    };
    Some((err(rng), err(rng), qsize(rng)))
}

fn qsize(rng: &mut Rng) -> c_int {
    match rng.below(4) {
        0 => rng.int(),
        1 => rng.pick(&[c_int::MAX, c_int::MIN, 3, 1 << 20, 0, -1]),
        _ => 2,
    }
}

fn threads(rng: &mut Rng) -> c_int {
    rng.pick(&[0, 1, 2, 3, -1, 1000, c_int::MAX, c_int::MIN])
}

fn collide_request(rng: &mut Rng) -> Option<[c_int; 3]> {
    if rng.one_in(2) {
        return None;
    }
    let pick = |rng: &mut Rng, n: c_int| if rng.one_in(10) { rng.int() } else { rng.below(n as u64) as c_int };
    Some([rng.below(2) as c_int * if rng.one_in(5) { rng.int() } else { 1 }, pick(rng, 5), pick(rng, 2)])
}

fn tolerance_value(rng: &mut Rng) -> f64 {
    match rng.below(6) {
        0 => rng.any_f64(),
        1 => rng.pick(&[0.0, -1.0, f64::INFINITY, f64::NAN]),
        _ => rng.range(0.0, 1.5),
    }
}

fn matrix(rng: &mut Rng) -> [f64; 16] {
    let p = draw::pose(rng);
    let k = if rng.one_in(3) { p.s } else { 1.0 };
    let mut m = [
        k * p.r[0],
        k * p.r[1],
        k * p.r[2],
        p.t[0],
        k * p.r[3],
        k * p.r[4],
        k * p.r[5],
        p.t[1],
        k * p.r[6],
        k * p.r[7],
        k * p.r[8],
        p.t[2],
        0.0,
        0.0,
        0.0,
        1.0,
    ];
    if rng.one_in(10) {
        m[12 + rng.index(4)] = rng.any_f64();
    }
    m
}

fn op(rng: &mut Rng) -> Op {
    let f = |rng: &mut Rng| if rng.one_in(10) { rng.any_f64() } else { rng.range(-1.0, 1.0) };
    if rng.one_in(3) {
        return Op::More(more::op(rng));
    }
    match rng.below(66) {
        0..=5 => {
            let style = draw::style(rng);
            let mut tris = draw::triangles(rng, style);
            if rng.one_in(10) {
                tris[0][rng.index(3)][rng.index(3)] = rng.non_finite();
            }
            let ids = if rng.one_in(2) { Some(tris.iter().map(|_| rng.int()).collect()) } else { None };
            Op::Build {
                tris,
                ids,
                null_out: rng.one_in(30),
                count: if rng.one_in(15) { 1 + rng.below(3) as u8 } else { 0 },
            }
        }
        6 => {
            let verts: Vec<[f64; 3]> = (0..rng.index(8)).map(|_| [f(rng), f(rng), f(rng)]).collect();
            let n = verts.len() as u64;
            let faces = (0..rng.index(6))
                .map(|_| {
                    [0; 3].map(|_| {
                        if rng.one_in(15) { rng.pick(&[u32::MAX, n as u32, 1 << 31]) } else { rng.below(n) as u32 }
                    })
                })
                .collect::<Vec<_>>();
            let ids = if rng.one_in(2) { Some(faces.iter().map(|_| rng.int()).collect()) } else { None };
            Op::BuildIndexed { verts, faces, ids, overflow: rng.one_in(20) }
        }
        7..=8 => Op::Free(handle(rng)),
        9 => Op::NewResult,
        10 => Op::FreeResult(handle(rng)),
        11 => Op::Info(handle(rng)),
        12..=17 => Op::Collide {
            r: handle(rng),
            m1: handle(rng),
            m2: handle(rng),
            p1: query_pose(rng),
            p2: query_pose(rng),
            req: collide_request(rng),
        },
        18..=20 => Op::Distance {
            m1: handle(rng),
            m2: handle(rng),
            p1: query_pose(rng),
            p2: query_pose(rng),
            req: distance_request(rng),
            cache: if rng.one_in(2) {
                None
            } else {
                Some((
                    rng.below(2) as c_int,
                    rng.next() as u32 % 12,
                    if rng.one_in(4) { u32::MAX } else { rng.below(12) as u32 },
                ))
            },
            null_out: rng.one_in(30),
        },
        21..=22 => Op::Tolerance {
            m1: handle(rng),
            m2: handle(rng),
            p1: query_pose(rng),
            p2: query_pose(rng),
            tol: tolerance_value(rng),
            qsize: qsize(rng),
            null_out: rng.one_in(30),
        },
        23..=24 => Op::CollideBatch {
            m1: handle(rng),
            m2: handle(rng),
            p1: poses(rng),
            p2: poses(rng),
            req: collide_request(rng),
            threads: threads(rng),
            null_out: rng.one_in(20),
            pairs: rng.one_in(2),
        },
        25 => Op::DistanceBatch {
            m1: handle(rng),
            m2: handle(rng),
            p1: poses(rng),
            p2: poses(rng),
            req: distance_request(rng),
            warm: rng.pick(&[0, 1, -7]),
            threads: threads(rng),
            points: rng.one_in(2),
        },
        26 => Op::ToleranceBatch {
            m1: handle(rng),
            m2: handle(rng),
            p1: poses(rng),
            p2: poses(rng),
            tol: tolerance_value(rng),
            qsize: qsize(rng),
            threads: threads(rng),
            extras: rng.one_in(2),
        },
        27..=28 => Op::Serialize {
            m: handle(rng),
            len: rng.below(4) as u8,
            null_buf: rng.one_in(20),
            null_written: rng.one_in(3),
            load: rng.one_in(2),
        },
        29 => Op::Deserialize {
            bytes: {
                let mut b: Vec<u8> = (0..rng.index(120)).map(|_| rng.next() as u8).collect();
                if rng.one_in(2) && b.len() >= 8 {
                    b[..8].copy_from_slice(b"RPQMODEL");
                }
                b
            },
            null_buf: rng.one_in(10),
            null_out: rng.one_in(10),
        },
        30 => Op::PosesFromMatrices {
            mats: (0..rng.index(4)).map(|_| matrix(rng)).collect(),
            tol: rng.pick(&[1e-5, 1e-6, 0.0, 1e-2, -1.0, f64::NAN, 0.5]),
        },
        31 => Op::SetTolerance(rng.pick(&[1e-5, 1e-4, 1e-3, 1e-2, f64::NAN, -1e-9, 0.5, f64::INFINITY])),
        32 => Op::Message(rng.int()),
        33..=34 => Op::PNew,
        35 => Op::PDelete(handle(rng)),
        36 => Op::PBegin(handle(rng), rng.int()),
        37..=39 => Op::PAddTri(handle(rng), triangle(rng), rng.int()),
        40 => Op::PEnd(handle(rng)),
        41 => Op::PMem(handle(rng), rng.int()),
        42 => Op::PCollide {
            m1: handle(rng),
            m2: handle(rng),
            p1: query_pose(rng),
            p2: query_pose(rng),
            flag: rng.pick(&[1, 2, 0, 7]),
            null_out: rng.one_in(30),
        },
        43 => Op::PDistance {
            m1: handle(rng),
            m2: handle(rng),
            p1: query_pose(rng),
            p2: query_pose(rng),
            rel: rng.pick(&[0.0, 0.0, 0.1, -1.0, f64::NAN, f64::INFINITY]),
            abs: rng.pick(&[0.0, 0.0, 0.05, -0.0, f64::NAN, f64::INFINITY]),
            qsize: qsize(rng),
            null_out: rng.one_in(30),
        },
        44 => Op::PTolerance {
            m1: handle(rng),
            m2: handle(rng),
            p1: query_pose(rng),
            p2: query_pose(rng),
            tol: tolerance_value(rng),
            qsize: qsize(rng),
            null_out: rng.one_in(30),
        },
        45 => Op::PFreePairs,
        46 => Op::RNew,
        47 => Op::RDelete(handle(rng)),
        48 => Op::RBegin(handle(rng)),
        49..=50 => Op::RAddTri(handle(rng), triangle(rng), rng.int()),
        51 => Op::REnd(handle(rng)),
        52 => Op::RCollide {
            m1: handle(rng),
            m2: handle(rng),
            p1: query_pose(rng),
            p2: query_pose(rng),
            flag: rng.pick(&[1, 2, 0, -3]),
            scaled: rng.one_in(2),
        },
        53 => Op::VOpen,
        54 => Op::VClose(handle(rng)),
        55 => Op::VNew(handle(rng), rng.one_in(20)),
        56..=57 => Op::VAddTri(handle(rng), triangle(rng), if rng.one_in(2) { Some(rng.int()) } else { None }),
        58 => Op::VEnd(handle(rng)),
        59 => Op::VUpdate(
            handle(rng),
            id(rng),
            if rng.one_in(30) { None } else { Some(if rng.one_in(2) { valid_pose(rng) } else { draw::pose(rng) }) },
        ),
        60 => {
            if rng.one_in(2) {
                Op::VActivate(handle(rng), id(rng), rng.one_in(2))
            } else {
                Op::VPair(handle(rng), id(rng), id(rng), rng.one_in(2))
            }
        }
        61 => Op::VDelete(handle(rng), id(rng)),
        62 => Op::VCollide(handle(rng), rng.one_in(2)),
        63..=64 => {
            let coordinate = |rng: &mut Rng| {
                if rng.one_in(40) {
                    rng.non_finite()
                } else if rng.one_in(10) {
                    rng.any_f64()
                } else {
                    rng.range(-2.0, 2.0)
                }
            };
            Op::Points {
                m: handle(rng),
                points: (0..rng.index(12)).map(|_| [0; 3].map(|_| coordinate(rng))).collect(),
                max_distance: rng.pick(&[f64::INFINITY, f64::INFINITY, 0.5, 0.0, -1.0, f64::NAN]),
                threads: threads(rng),
                kind: rng.below(3) as u8,
                null_out: rng.one_in(30),
            }
        }
        _ => {
            let size = rng.pick(&[0, 1, 3, 64, -1, c_int::MAX, c_int::MIN]);
            if rng.one_in(2) {
                Op::VReport(handle(rng), size, rng.one_in(10))
            } else {
                Op::VReportTri(handle(rng), rng.pick(&[0, 1, 2, -1, 99, c_int::MAX]), size, rng.one_in(10))
            }
        }
    }
}

/// A program: a few handles of each kind made first (so that most handle arguments are
/// live), then random calls.
fn program(rng: &mut Rng) -> Vec<Op> {
    let mut ops = Vec::new();
    let ordinary = |rng: &mut Rng| {
        let style = if rng.one_in(2) { draw::Style::Grid } else { draw::Style::Random };
        draw::triangles(rng, style)
    };
    // Most programs start with live, built handles of every kind, so that most later calls
    // reach the queries.
    if !rng.one_in(5) {
        ops.push(Op::NewResult);
        for _ in 0..2 {
            let tris = ordinary(rng);
            let ids = if rng.one_in(2) { Some(tris.iter().map(|_| rng.int()).collect()) } else { None };
            ops.push(Op::Build { tris, ids, null_out: false, count: 0 });
        }
        for _ in 0..2 {
            ops.push(Op::PNew);
            ops.push(Op::RNew);
        }
        for (k, tri) in ordinary(rng).into_iter().chain(ordinary(rng)).enumerate() {
            ops.push(Op::PAddTri(H::Own((k % 2) as u8), Some(tri), rng.int()));
            ops.push(Op::RAddTri(H::Own((k % 2) as u8), Some(tri), rng.int()));
        }
        for k in 0..2 {
            ops.push(Op::PEnd(H::Own(k)));
            ops.push(Op::REnd(H::Own(k)));
        }
        ops.push(Op::VOpen);
        for k in 0..2 + rng.index(3) {
            ops.push(Op::VNew(H::Own(0), false));
            for tri in ordinary(rng) {
                ops.push(Op::VAddTri(H::Own(0), Some(tri), if rng.one_in(2) { Some(rng.int()) } else { None }));
            }
            ops.push(Op::VEnd(H::Own(0)));
            ops.push(Op::VUpdate(H::Own(0), Id::Known(k as u8), Some(valid_pose(rng))));
        }
        ops.extend(more::prelude(rng));
    }
    let n = 1 + rng.index(40);
    ops.extend((0..n).map(|_| op(rng)));
    ops
}

// ------------------------------------------------------------------------------------------
// The shadow of the program's state

#[derive(Clone, Debug, Default)]
struct Mesh {
    tris: Vec<Triangle>,
    ids: Vec<i32>,
    /// A deformable model's vertices and faces (`tris` is the faces over the vertices).
    deform: Option<more::Deform>,
}

/// A legacy model: triangles added, and whether it is built.
#[derive(Clone, Debug, Default)]
struct Legacy {
    /// PQP: 0 empty, 1 begun, 2 built. RAPID: 0 const, 1 begun, 3 processed.
    state: u8,
    mesh: Mesh,
    built: Option<Mesh>,
}

#[derive(Clone, Debug)]
struct VcObject {
    mesh: Mesh,
    pose: Placement,
    active: bool,
}

/// An object pair of a report and its triangle-id pairs (after `vcCollideAll`).
type ReportEntry = (i32, i32, Vec<(i32, i32)>);

#[derive(Clone, Debug, Default)]
struct VcShadow {
    objects: Vec<Option<VcObject>>,
    disabled: BTreeSet<(i32, i32)>,
    building: Option<(i32, Mesh)>,
    /// The last report: object pairs, with their triangle-id pairs after `vcCollideAll`.
    report: Vec<ReportEntry>,
}

struct Slot<T> {
    ptr: usize,
    live: bool,
    shadow: T,
}

#[derive(Default)]
struct State {
    models: Vec<Slot<Mesh>>,
    results: Vec<Slot<more::ResultShadow>>,
    pqp: Vec<Slot<Legacy>>,
    rapid: Vec<Slot<Legacy>>,
    vc: Vec<Slot<VcShadow>>,
    meshes: Vec<Slot<more::MeshShadow>>,
    worlds: Vec<Slot<more::WorldShadow>>,
    tol: f64,
    pqp_result: Option<Box<PQP_CollideResult>>,
    foreign: Vec<u64>,
}

/// What a handle argument turned out to be.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Valid {
    Null,
    Bad,
    Live(usize),
}

impl State {
    fn ptrs(&self, kind: usize) -> Vec<(usize, bool)> {
        match kind {
            NM => self.models.iter().map(|s| (s.ptr, s.live)).collect(),
            NR => self.results.iter().map(|s| (s.ptr, s.live)).collect(),
            PM => self.pqp.iter().map(|s| (s.ptr, s.live)).collect(),
            RM => self.rapid.iter().map(|s| (s.ptr, s.live)).collect(),
            VC => self.vc.iter().map(|s| (s.ptr, s.live)).collect(),
            MS => self.meshes.iter().map(|s| (s.ptr, s.live)).collect(),
            _ => self.worlds.iter().map(|s| (s.ptr, s.live)).collect(),
        }
    }

    fn any_live(&self) -> Option<usize> {
        (0..KINDS).flat_map(|k| self.ptrs(k)).find(|&(_, live)| live).map(|(p, _)| p)
    }

    /// The pointer a handle argument of `kind` stands for, and what it is.
    fn resolve(&mut self, h: H, kind: usize) -> (usize, Valid) {
        match h {
            H::Null => (0, Valid::Null),
            H::Own(k) => {
                let list = self.ptrs(kind);
                if list.is_empty() {
                    return (0, Valid::Null);
                }
                let i = k as usize % list.len();
                (list[i].0, if list[i].1 { Valid::Live(i) } else { Valid::Bad })
            }
            H::Other(other, k) => {
                let other = if other as usize % KINDS == kind { (kind + 1) % KINDS } else { other as usize % KINDS };
                let live: Vec<usize> = self.ptrs(other).into_iter().filter(|p| p.1).map(|p| p.0).collect();
                if live.is_empty() {
                    return (self.foreign.as_ptr() as usize, Valid::Bad);
                }
                (live[k as usize % live.len()], Valid::Bad)
            }
            H::Foreign(k) => {
                // Into the program's memory; sometimes holding a copy of a handle's value.
                if let Some(p) = self.any_live() {
                    self.foreign[0] = p as u64;
                }
                let at = (k as usize % 8) * 8;
                (self.foreign.as_ptr() as usize + at, Valid::Bad)
            }
            H::Wild(k) => {
                let near = self.any_live().unwrap_or(0x1000);
                let v = match k % 7 {
                    0 => 0x10,
                    1 => 12345,
                    2 => near + 1,
                    3 => near + 8,
                    4 => usize::MAX,
                    5 => 0x8000_0000_0000_1230,
                    _ => 0xfff0_0000_0000_0000,
                };
                (v, Valid::Bad)
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// Oracles

/// The code the native API gives for a pose, when it can be known: `Ok(None)` accepted,
/// `Ok(Some(code))` refused, `Err(codes)` for a pose near a tolerance (any of these).
fn native_pose(p: &P, tol: f64) -> Result<Option<c_int>, Vec<c_int>> {
    let Some(p) = p else {
        return Ok(Some(RPQ_ERR_NULL_POINTER));
    };
    let finite = p.t.iter().chain(&p.r).all(|v| v.is_finite()) && p.s.is_finite();
    if !finite {
        return Ok(Some(RPQ_ERR_NON_FINITE));
    }
    if !(1e-100..=1e100).contains(&p.s) {
        return Ok(Some(RPQ_ERR_INVALID_SCALE));
    }
    match p.kind {
        RotKind::Proper | RotKind::Exact if tol >= 1e-5 => Ok(None),
        RotKind::Proper | RotKind::Exact => Err(vec![RPQ_OK, RPQ_ERR_NOT_ROTATION]),
        RotKind::Doubtful => Err(vec![RPQ_OK, RPQ_ERR_NOT_ROTATION]),
        RotKind::Reflection | RotKind::Bad => Ok(Some(RPQ_ERR_NOT_ROTATION)),
        RotKind::NonFinite => Ok(Some(RPQ_ERR_NON_FINITE)),
    }
}

/// The same for the legacy PQP and RAPID layers (scale separately): `(non_finite,
/// not_rotation)` codes of the layer given.
fn legacy_pose(p: &P, null: c_int, non_finite: c_int, not_rotation: c_int) -> Result<Option<c_int>, Vec<c_int>> {
    let Some(p) = p else {
        return Ok(Some(null));
    };
    if !p.t.iter().chain(&p.r).all(|v| v.is_finite()) {
        return Ok(Some(non_finite));
    }
    match p.kind {
        RotKind::Proper | RotKind::Exact | RotKind::Reflection => Ok(None),
        RotKind::Doubtful => Err(vec![0, not_rotation]),
        RotKind::Bad => Ok(Some(not_rotation)),
        RotKind::NonFinite => Ok(Some(non_finite)),
    }
}

/// Allowed statuses: `definite` problems (each one's code), `doubtful` ones (may or may not be
/// reported), and whether the query could be beyond the supported range.
#[derive(Default, Debug)]
struct Expect {
    definite: Vec<c_int>,
    doubtful: Vec<c_int>,
    range: bool,
}

impl Expect {
    fn add(&mut self, r: Result<Option<c_int>, Vec<c_int>>) {
        match r {
            Ok(Some(c)) => self.definite.push(c),
            Ok(None) => {}
            Err(codes) => self.doubtful.extend(codes),
        }
    }
    fn code(&mut self, c: c_int) {
        self.definite.push(c);
    }
    /// Checks `status` (`ok` is the layer's success code, `range` its out-of-range code).
    fn check(&self, status: c_int, ok: c_int, range_code: c_int, what: &str) {
        if status != ok {
            COUNT.add(1);
        }
        let fine = if self.definite.is_empty() {
            status == ok || self.doubtful.contains(&status) || (self.range && status == range_code)
        } else {
            self.definite.contains(&status) || self.doubtful.contains(&status)
        };
        assert!(fine, "{what}: status {status}, expected {self:?}");
    }
}

fn handle_code(v: Valid, null: c_int, bad: c_int) -> Option<c_int> {
    match v {
        Valid::Null => Some(null),
        Valid::Bad => Some(bad),
        Valid::Live(_) => None,
    }
}

fn placement(p: &GenPose) -> Placement {
    let r = &p.r;
    Placement::from_rows(&[[r[0], r[1], r[2]], [r[3], r[4], r[5]], [r[6], r[7], r[8]]], &p.t, p.s)
}

fn place(p: &Placement, v: &Vec3) -> Vec3 {
    (p.rotation * v) * p.scale + p.translation
}

/// Whether a query on these meshes and placements may be refused as beyond the supported
/// range, in either frame (the query maps model 2 into model 1's frame or the other way).
fn maybe_out_of_range(a: &Mesh, pa: &Placement, b: &Mesh, pb: &Placement) -> bool {
    one_way_out_of_range(a, pa, b, pb) || one_way_out_of_range(b, pb, a, pa)
}

/// `b` placed in `a`'s frame: the check of `query::Relative::check_range`, with a margin.
fn one_way_out_of_range(a: &Mesh, pa: &Placement, b: &Mesh, pb: &Placement) -> bool {
    let mag = |m: &Mesh| m.tris.iter().flatten().map(|v| v.amax()).fold(0.0, f64::max);
    let at = pa.rotation_inverse();
    let rot = at * pb.rotation;
    let trans = at * (pb.translation - pa.translation) / pa.scale;
    let scale = pb.scale / pa.scale;
    let limit = 2f64.powi(1000);
    let norm = (0..3).map(|k| rot.row(k).abs().sum()).fold(0.0, f64::max);
    let rotated = norm * mag(b);
    let placed = scale * rotated + trans.amax();
    let bad = |x: f64| !x.is_finite() || x > limit / 8.0;
    bad(mag(a)) || bad(rotated) || bad(placed) || !(2f64.powi(-990)..=2f64.powi(990)).contains(&scale) || {
        let both = [pa, pb];
        both.iter().any(|p| p.translation.amax() > 1e290)
    }
}

/// Contacts by brute force, as id pairs, sorted.
fn contacts(a: &Mesh, pa: &Placement, b: &Mesh, pb: &Placement, frame: TriangleFrame) -> Vec<(i32, i32)> {
    let mut v: Vec<(i32, i32)> = brute_force(&a.tris, &b.tris, pa, pb, frame)
        .into_iter()
        .map(|(i, j)| (a.ids[i as usize], b.ids[j as usize]))
        .collect();
    v.sort_unstable();
    v
}

/// Checks a collide answer (`pairs` as reported) against brute force.
#[allow(clippy::too_many_arguments)]
fn check_contacts(
    got: &[(i32, i32)],
    a: &Mesh,
    pa: &Placement,
    b: &Mesh,
    pb: &Placement,
    frame: TriangleFrame,
    first: bool,
    what: &str,
) {
    COUNT.add(2);
    let want = contacts(a, pa, b, pb, frame);
    if first {
        assert!(got.len() <= 1, "{what}: first contact gave {} pairs", got.len());
        assert_eq!(got.is_empty(), want.is_empty(), "{what}: first contact {got:?} vs brute force {want:?}");
        if let Some(p) = got.first() {
            assert!(want.contains(p), "{what}: first contact {p:?} not among {want:?}");
        }
    } else {
        let mut got = got.to_vec();
        got.sort_unstable();
        assert_eq!(got, want, "{what}: contacts vs brute force");
    }
}

/// World coordinates of both meshes are finite and moderate (where a brute-force distance
/// can be compared): their largest magnitude.
fn world_magnitude(a: &Mesh, pa: &Placement, b: &Mesh, pb: &Placement) -> Option<f64> {
    let m = a
        .tris
        .iter()
        .flatten()
        .map(|v| place(pa, v).amax())
        .chain(b.tris.iter().flatten().map(|v| place(pb, v).amax()))
        .fold(0.0, f64::max);
    (m.is_finite() && m < 1e250 && m > 1e-250).then_some(m)
}

/// `|v|` without overflow or underflow of the squares.
fn norm(v: &Vec3) -> f64 {
    let m = v.amax();
    if m == 0.0 || !m.is_finite() { m } else { (v / m).norm() * m }
}

/// How far from orthonormal a placement's rotation is (`max |RᵀR − I|`): accepted rotations
/// may be off by the tolerance, and the query then answers for a rotation that near.
fn skew(p: &Placement) -> f64 {
    let e = p.rotation.transpose() * p.rotation - rapidpqp::Mat3::identity();
    e.amax()
}

/// The rounding allowed in comparing a distance with brute force at magnitude `m`.
fn slack(m: f64, pa: &Placement, pb: &Placement) -> f64 {
    m * (1e-9 + 8.0 * (skew(pa) + skew(pb)))
}

fn brute_distance(a: &Mesh, pa: &Placement, b: &Mesh, pb: &Placement) -> f64 {
    let mut best = f64::INFINITY;
    for ta in &a.tris {
        let ta = ta.map(|v| place(pa, &v));
        for tb in &b.tris {
            best = best.min(triangle_distance(&ta, &tb.map(|v| place(pb, &v))).distance);
        }
    }
    best
}

fn point_distance(m: &Mesh, p: &Placement, x: &Vec3) -> f64 {
    m.tris
        .iter()
        .map(|t| triangle_distance(&t.map(|v| place(p, &v)), &[*x, *x, *x]).distance)
        .fold(f64::INFINITY, f64::min)
}

/// Whether a coordinate is beyond the range models are built from (2^1000).
fn beyond_range(values: &[f64]) -> bool {
    values.iter().any(|x| x.abs() > rapidpqp::query::RANGE_LIMIT)
}

/// Checks a distance answer: within the error bounds of brute force (and rounding), its
/// points on the models and that far apart.
#[allow(clippy::too_many_arguments)]
fn check_distance(
    d: f64,
    p1: [f64; 3],
    p2: [f64; 3],
    rel: f64,
    abs: f64,
    a: &Mesh,
    pa: &Placement,
    b: &Mesh,
    pb: &Placement,
    what: &str,
) {
    COUNT.add(2);
    let Some(m) = world_magnitude(a, pa, b, pb) else {
        return;
    };
    let eps = slack(m, pa, pb);
    let bf = brute_distance(a, pa, b, pb);
    assert!(d >= bf - eps, "{what}: distance {d} below brute force {bf}");
    let slack = if rel.is_finite() && abs.is_finite() { (rel * d).max(abs) } else { f64::INFINITY };
    assert!(d <= bf + slack + eps, "{what}: distance {d} vs brute force {bf} (rel {rel}, abs {abs})");
    let (w1, w2) = (place(pa, &Vec3::from(p1)), place(pb, &Vec3::from(p2)));
    assert!((norm(&(w1 - w2)) - d).abs() <= eps + 1e-9 * d, "{what}: points {w1:?} {w2:?} are not {d} apart");
    assert!(point_distance(a, pa, &w1) <= eps, "{what}: p1 not on model 1");
    assert!(point_distance(b, pb, &w2) <= eps, "{what}: p2 not on model 2");
}

/// Checks a tolerance answer.
#[allow(clippy::too_many_arguments)]
fn check_tolerance(
    closer: bool,
    d: f64,
    p1: [f64; 3],
    p2: [f64; 3],
    tol: f64,
    a: &Mesh,
    pa: &Placement,
    b: &Mesh,
    pb: &Placement,
    what: &str,
) {
    COUNT.add(2);
    let Some(m) = world_magnitude(a, pa, b, pb) else {
        return;
    };
    let eps = slack(m, pa, pb);
    let tol = tol.max(0.0);
    let bf = brute_distance(a, pa, b, pb);
    if (bf - tol).abs() <= eps {
        return; // a tie within rounding
    }
    assert_eq!(closer, bf <= tol, "{what}: closer {closer}, brute force {bf}, tolerance {tol}");
    if closer {
        assert!(d <= tol + eps && d >= bf - eps, "{what}: distance {d} of a closer answer (bf {bf}, tol {tol})");
        let (w1, w2) = (place(pa, &Vec3::from(p1)), place(pb, &Vec3::from(p2)));
        assert!((norm(&(w1 - w2)) - d).abs() <= eps + 1e-9 * d, "{what}: points not {d} apart");
    } else {
        assert!(d > tol && d <= bf + eps, "{what}: lower bound {d} (bf {bf}, tol {tol})");
        assert!(p1.iter().chain(&p2).all(|v| v.is_nan()), "{what}: points of a not-closer answer");
    }
}

fn rpq_pose(p: &GenPose) -> RpqPose {
    RpqPose { rotation: p.r, translation: p.t, scale: p.s }
}

fn pose_ptr(p: &Option<RpqPose>) -> *const RpqPose {
    p.as_ref().map_or(std::ptr::null(), |p| p as *const RpqPose)
}

fn sentinel_distance() -> RpqDistanceResult {
    RpqDistanceResult { distance: -7.5, p1: [7.0; 3], p2: [-7.0; 3], closer: 77, bv_tests: 7, tri_tests: 7 }
}

// ------------------------------------------------------------------------------------------
// Running a program

impl Target for CApi {
    type Input = Vec<Op>;
    const NAME: &'static str = "c_api";
    const SHORT_CASES: u64 = 8000;

    fn generate(rng: &mut Rng) -> Vec<Op> {
        program(rng)
    }

    fn run(ops: &Vec<Op>) {
        assert_eq!(rpq_set_rotation_tolerance(1e-5), RPQ_OK);
        let mut st = State { tol: 1e-5, foreign: vec![0; 16], ..State::default() };
        for (k, op) in ops.iter().enumerate() {
            let what = format!("call {k} ({})", format!("{op:?}").split([' ', '(', '{']).next().unwrap_or(""));
            COUNT.add(0);
            step(&mut st, op, &what);
        }
        cleanup(&mut st);
    }

    fn stats() -> String {
        format!(
            " ({} calls, {} refused with an error code, {} answers checked against brute force)",
            COUNT.get(0),
            COUNT.get(1),
            COUNT.get(2)
        ) + &more::stats()
    }

    fn shrink(ops: &Vec<Op>) -> Vec<Vec<Op>> {
        let mut out = Vec::new();
        // Halves, then single calls.
        if ops.len() > 4 {
            out.push(ops[..ops.len() / 2].to_vec());
            out.push(ops[ops.len() / 2..].to_vec());
        }
        for i in (0..ops.len()).rev() {
            let mut fewer = ops.clone();
            fewer.remove(i);
            out.push(fewer);
        }
        out
    }
}

/// Frees whatever the program left live (as a tidy C program would).
fn cleanup(st: &mut State) {
    // SAFETY: live handles, each freed once.
    unsafe {
        for s in st.models.iter().filter(|s| s.live) {
            rpq_model_free(s.ptr as *mut RpqModel);
        }
        for s in st.results.iter().filter(|s| s.live) {
            rpq_collide_result_free(s.ptr as *mut RpqCollideResult);
        }
        for s in st.pqp.iter().filter(|s| s.live) {
            PQP_Model_delete(s.ptr as *mut PQP_Model);
        }
        for s in st.rapid.iter().filter(|s| s.live) {
            RAPID_model_delete(s.ptr as *mut RAPID_model);
        }
        for s in st.vc.iter().filter(|s| s.live) {
            vcClose(s.ptr as *mut c_void);
        }
        more::cleanup(st);
        if let Some(r) = st.pqp_result.as_mut() {
            PQP_CollideResult_FreePairsList(&mut **r);
        }
    }
    assert_eq!(rpq_set_rotation_tolerance(1e-5), RPQ_OK);
}

fn step(st: &mut State, op: &Op, what: &str) {
    // SAFETY (every block below): handles are passed as the C program passes them (checked by
    // the library, never read here); data pointers point to live buffers of the sizes given.
    unsafe {
        match op {
            Op::Build { tris, ids, null_out, count } => {
                let flat: Vec<f64> = tris.iter().flatten().flat_map(|v| [v.x, v.y, v.z]).collect();
                let n = match count {
                    0 => tris.len(),
                    1 => 0,
                    2 => usize::MAX,
                    _ => usize::MAX / 9 + 1,
                };
                let ids_ptr = ids.as_ref().map_or(std::ptr::null(), |v| v.as_ptr());
                let mut out: *mut RpqModel = std::ptr::dangling_mut();
                let out_ptr = if *null_out { std::ptr::null_mut() } else { &mut out as *mut _ };
                let status = rpq_model_build(flat.as_ptr(), ids_ptr, n, out_ptr);
                let finite = flat.iter().all(|v| v.is_finite());
                let expected = if *null_out {
                    RPQ_ERR_NULL_POINTER
                } else if n == 0 {
                    RPQ_ERR_EMPTY_MODEL
                } else if n != tris.len() {
                    RPQ_ERR_INVALID_ARGUMENT
                } else if !finite {
                    RPQ_ERR_NON_FINITE
                } else if beyond_range(&flat) {
                    RPQ_ERR_OUT_OF_RANGE
                } else {
                    RPQ_OK
                };
                assert_eq!(status, expected, "{what}");
                if status == RPQ_OK {
                    let mesh = Mesh {
                        tris: tris.clone(),
                        ids: ids.clone().unwrap_or_else(|| (0..tris.len() as i32).collect()),
                        deform: None,
                    };
                    assert_eq!(rpq_model_num_triangles(out), tris.len(), "{what}");
                    st.models.push(Slot { ptr: out as usize, live: true, shadow: mesh });
                } else {
                    assert_eq!(out, std::ptr::dangling_mut(), "{what}: out_model written on error");
                }
            }
            Op::BuildIndexed { verts, faces, ids, overflow } => {
                let flat: Vec<f64> = verts.iter().flatten().copied().collect();
                let fl: Vec<u32> = faces.iter().flatten().copied().collect();
                let nf = if *overflow { usize::MAX / 2 } else { faces.len() };
                let ids_ptr = ids.as_ref().map_or(std::ptr::null(), |v| v.as_ptr());
                let mut out: *mut RpqModel = std::ptr::dangling_mut();
                let vptr = if verts.is_empty() { std::ptr::null() } else { flat.as_ptr() };
                let fptr = if faces.is_empty() { std::ptr::null() } else { fl.as_ptr() };
                let status = rpq_model_build_indexed(vptr, verts.len(), fptr, nf, ids_ptr, &mut out);
                let in_range = faces.iter().flatten().all(|&i| (i as usize) < verts.len());
                let expected = if nf == 0 {
                    RPQ_ERR_EMPTY_MODEL
                } else if *overflow {
                    RPQ_ERR_INVALID_ARGUMENT
                } else if !flat.iter().all(|v| v.is_finite()) {
                    RPQ_ERR_NON_FINITE
                } else if !in_range {
                    RPQ_ERR_INVALID_ARGUMENT
                } else if faces.iter().flatten().any(|&i| beyond_range(&verts[i as usize])) {
                    RPQ_ERR_OUT_OF_RANGE
                } else {
                    RPQ_OK
                };
                // (An overflowing face count with no faces array is a NULL pointer first.)
                if !(*overflow && faces.is_empty()) {
                    assert_eq!(status, expected, "{what}");
                } else {
                    assert_eq!(status, RPQ_ERR_NULL_POINTER, "{what}");
                }
                if status == RPQ_OK {
                    let tris: Vec<Triangle> = faces.iter().map(|f| f.map(|i| Vec3::from(verts[i as usize]))).collect();
                    let mesh = Mesh {
                        ids: ids.clone().unwrap_or_else(|| (0..tris.len() as i32).collect()),
                        tris,
                        deform: None,
                    };
                    st.models.push(Slot { ptr: out as usize, live: true, shadow: mesh });
                } else {
                    assert_eq!(out, std::ptr::dangling_mut(), "{what}: out_model written on error");
                }
            }
            Op::Free(h) => {
                let (p, v) = st.resolve(*h, NM);
                rpq_model_free(p as *mut RpqModel);
                if let Valid::Live(i) = v {
                    st.models[i].live = false;
                }
            }
            Op::NewResult => {
                let r = rpq_collide_result_new();
                assert!(!r.is_null(), "{what}");
                assert_eq!(rpq_collide_result_num_pairs(r), 0);
                assert!(rpq_collide_result_pairs(r).is_null());
                st.results.push(Slot { ptr: r as usize, live: true, shadow: more::ResultShadow::default() });
            }
            Op::FreeResult(h) => {
                let (p, v) = st.resolve(*h, NR);
                rpq_collide_result_free(p as *mut RpqCollideResult);
                if let Valid::Live(i) = v {
                    st.results[i].live = false;
                }
            }
            Op::Info(h) => {
                let (p, v) = st.resolve(*h, NM);
                let m = p as *const RpqModel;
                let (n, bytes, size) =
                    (rpq_model_num_triangles(m), rpq_model_memory_bytes(m), rpq_model_serialized_size(m));
                match v {
                    Valid::Live(i) => {
                        let t = st.models[i].shadow.tris.len();
                        assert_eq!(n, t, "{what}");
                        assert!(bytes >= 268 * t, "{what}: {bytes} bytes");
                        assert_eq!(size, 40 + 268 * t, "{what}");
                    }
                    _ => assert_eq!((n, bytes, size), (0, 0, 0), "{what}"),
                }
                // The same pointer as a collide result: refused unless it is one.
                let (r, vr) = st.resolve(*h, NR);
                let mut c = 5u64;
                let status = rpq_collide_result_counts(r as *const RpqCollideResult, &mut c, std::ptr::null_mut());
                assert_eq!(
                    status,
                    handle_code(vr, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE).unwrap_or(RPQ_OK),
                    "{what}: counts"
                );
                if status != RPQ_OK {
                    assert_eq!(c, 5, "{what}: counts written on error");
                    assert_eq!(rpq_collide_result_num_pairs(r as *const RpqCollideResult), 0, "{what}");
                    assert!(rpq_collide_result_pairs(r as *const RpqCollideResult).is_null(), "{what}");
                }
            }
            Op::Collide { r, m1, m2, p1, p2, req } => collide(st, *r, *m1, *m2, p1, p2, req, what),
            Op::Distance { m1, m2, p1, p2, req, cache, null_out } => {
                let (a, va) = st.resolve(*m1, NM);
                let (b, vb) = st.resolve(*m2, NM);
                let mut e = Expect::default();
                let (q1, q2) = (p1.map(|p| rpq_pose(&p)), p2.map(|p| rpq_pose(&p)));
                e.add(Ok(handle_code(va, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
                e.add(Ok(handle_code(vb, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
                e.add(native_pose(p1, st.tol));
                e.add(native_pose(p2, st.tol));
                if *null_out {
                    e.code(RPQ_ERR_NULL_POINTER);
                }
                let request = req.map(|(rel, abs, qsize)| RpqDistanceRequest { rel_err: rel, abs_err: abs, qsize });
                if let Some(r) = request {
                    if !(r.rel_err.is_finite() && r.rel_err >= 0.0 && r.abs_err.is_finite() && r.abs_err >= 0.0) {
                        e.code(RPQ_ERR_INVALID_ARGUMENT);
                    }
                }
                let pair = live_pair(st, va, vb);
                e.range = range_possible(&pair, p1, p2);
                let mut c = cache.map(|(valid, tri1, tri2)| RpqDistanceCache { valid, tri1, tri2 });
                let before_cache = format!("{c:?}");
                let mut out = sentinel_distance();
                let status = rpq_distance(
                    a as *const RpqModel,
                    pose_ptr(&q1),
                    b as *const RpqModel,
                    pose_ptr(&q2),
                    request.as_ref().map_or(std::ptr::null(), |r| r as *const _),
                    c.as_mut().map_or(std::ptr::null_mut(), |c| c as *mut _),
                    if *null_out { std::ptr::null_mut() } else { &mut out },
                );
                e.check(status, RPQ_OK, RPQ_ERR_OUT_OF_RANGE, what);
                if status != RPQ_OK {
                    assert_eq!(
                        format!("{out:?}"),
                        format!("{:?}", sentinel_distance()),
                        "{what}: result written on error"
                    );
                    assert_eq!(format!("{c:?}"), before_cache, "{what}: cache written on error");
                } else if let (Some((ma, mb)), Some(p1), Some(p2)) = (pair, p1, p2) {
                    let (rel, abs) = request.map_or((0.0, 0.0), |r| (r.rel_err, r.abs_err));
                    check_distance(
                        out.distance,
                        out.p1,
                        out.p2,
                        rel,
                        abs,
                        &ma,
                        &placement(p1),
                        &mb,
                        &placement(p2),
                        what,
                    );
                }
            }
            Op::Tolerance { m1, m2, p1, p2, tol, qsize, null_out } => {
                let (a, va) = st.resolve(*m1, NM);
                let (b, vb) = st.resolve(*m2, NM);
                let mut e = Expect::default();
                let (q1, q2) = (p1.map(|p| rpq_pose(&p)), p2.map(|p| rpq_pose(&p)));
                e.add(Ok(handle_code(va, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
                e.add(Ok(handle_code(vb, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
                e.add(native_pose(p1, st.tol));
                e.add(native_pose(p2, st.tol));
                if *null_out {
                    e.code(RPQ_ERR_NULL_POINTER);
                }
                if tol.is_nan() {
                    e.code(RPQ_ERR_NON_FINITE);
                }
                let pair = live_pair(st, va, vb);
                e.range = range_possible(&pair, p1, p2);
                let mut out = sentinel_distance();
                let status = rpq_tolerance(
                    a as *const RpqModel,
                    pose_ptr(&q1),
                    b as *const RpqModel,
                    pose_ptr(&q2),
                    &RpqToleranceRequest { tolerance: *tol, qsize: *qsize },
                    if *null_out { std::ptr::null_mut() } else { &mut out },
                );
                e.check(status, RPQ_OK, RPQ_ERR_OUT_OF_RANGE, what);
                if status != RPQ_OK {
                    assert_eq!(
                        format!("{out:?}"),
                        format!("{:?}", sentinel_distance()),
                        "{what}: result written on error"
                    );
                } else if let (Some((ma, mb)), Some(p1), Some(p2)) = (pair, p1, p2) {
                    check_tolerance(
                        out.closer != 0,
                        out.distance,
                        out.p1,
                        out.p2,
                        *tol,
                        &ma,
                        &placement(p1),
                        &mb,
                        &placement(p2),
                        what,
                    );
                }
            }
            Op::CollideBatch { m1, m2, p1, p2, req, threads, null_out, pairs } => {
                let (a, va) = st.resolve(*m1, NM);
                let (b, vb) = st.resolve(*m2, NM);
                let Some((mut e, n, pair)) = batch_expect(st, va, vb, p1, p2, what) else { return };
                if let Some(r) = req {
                    if !(0..5).contains(&r[1]) || !(0..2).contains(&r[2]) {
                        e.code(RPQ_ERR_INVALID_ARGUMENT);
                    }
                }
                if *null_out && n > 0 {
                    e.code(RPQ_ERR_NULL_POINTER);
                }
                let request = req.map(|r| RpqCollideRequest { first_contact: r[0], box_test: r[1], frame: r[2] });
                let (q1, q2): (Vec<RpqPose>, Vec<RpqPose>) =
                    (p1.iter().map(rpq_pose).collect(), p2.iter().map(rpq_pose).collect());
                let mut col = vec![9u8; n.max(1)];
                let mut np = vec![99u64; n.max(1)];
                let status = rpq_collide_batch(
                    a as *const RpqModel,
                    q1.as_ptr(),
                    q1.len(),
                    b as *const RpqModel,
                    q2.as_ptr(),
                    q2.len(),
                    request.as_ref().map_or(std::ptr::null(), |r| r as *const _),
                    *threads,
                    if *null_out { std::ptr::null_mut() } else { col.as_mut_ptr() },
                    if *pairs { np.as_mut_ptr() } else { std::ptr::null_mut() },
                );
                e.check(status, RPQ_OK, RPQ_ERR_OUT_OF_RANGE, what);
                if status != RPQ_OK {
                    assert!(
                        col.iter().all(|&c| c == 9) && np.iter().all(|&c| c == 99),
                        "{what}: outputs written on error"
                    );
                    return;
                }
                let Some((ma, mb)) = pair else { return };
                let first = request.is_some_and(|r| r.first_contact != 0);
                let frame =
                    if request.is_some_and(|r| r.frame == 1) { TriangleFrame::Model2 } else { TriangleFrame::Model1 };
                for i in 0..n {
                    let (x, y) = (placement(&p1[i.min(p1.len() - 1)]), placement(&p2[i.min(p2.len() - 1)]));
                    let want = contacts(&ma, &x, &mb, &y, frame);
                    assert_eq!(col[i] != 0, !want.is_empty(), "{what}: query {i} colliding");
                    if *pairs {
                        let expect = if first { want.len().min(1) } else { want.len() } as u64;
                        assert_eq!(np[i], expect, "{what}: query {i} pairs");
                    }
                }
            }
            Op::DistanceBatch { m1, m2, p1, p2, req, warm, threads, points } => {
                let (a, va) = st.resolve(*m1, NM);
                let (b, vb) = st.resolve(*m2, NM);
                let Some((mut e, n, pair)) = batch_expect(st, va, vb, p1, p2, what) else { return };
                let request = req.map(|(rel, abs, qsize)| RpqDistanceRequest { rel_err: rel, abs_err: abs, qsize });
                if let Some(r) = request {
                    if !(r.rel_err.is_finite() && r.rel_err >= 0.0 && r.abs_err.is_finite() && r.abs_err >= 0.0) {
                        e.code(RPQ_ERR_INVALID_ARGUMENT);
                    }
                }
                let (q1, q2): (Vec<RpqPose>, Vec<RpqPose>) =
                    (p1.iter().map(rpq_pose).collect(), p2.iter().map(rpq_pose).collect());
                let mut d = vec![-3.5; n.max(1)];
                let mut o1 = vec![-3.5; 3 * n.max(1)];
                let mut o2 = vec![-3.5; 3 * n.max(1)];
                let status = rpq_distance_batch(
                    a as *const RpqModel,
                    q1.as_ptr(),
                    q1.len(),
                    b as *const RpqModel,
                    q2.as_ptr(),
                    q2.len(),
                    request.as_ref().map_or(std::ptr::null(), |r| r as *const _),
                    *warm,
                    *threads,
                    d.as_mut_ptr(),
                    if *points { o1.as_mut_ptr() } else { std::ptr::null_mut() },
                    if *points { o2.as_mut_ptr() } else { std::ptr::null_mut() },
                );
                e.check(status, RPQ_OK, RPQ_ERR_OUT_OF_RANGE, what);
                if status != RPQ_OK {
                    assert!(d.iter().chain(&o1).chain(&o2).all(|&x| x == -3.5), "{what}: outputs written on error");
                    return;
                }
                let Some((ma, mb)) = pair else { return };
                let (rel, abs) = request.map_or((0.0, 0.0), |r| (r.rel_err, r.abs_err));
                for i in 0..n {
                    let (x, y) = (placement(&p1[i.min(p1.len() - 1)]), placement(&p2[i.min(p2.len() - 1)]));
                    let (w1, w2) = if *points {
                        ([o1[3 * i], o1[3 * i + 1], o1[3 * i + 2]], [o2[3 * i], o2[3 * i + 1], o2[3 * i + 2]])
                    } else {
                        assert!(o1.iter().all(|&v| v == -3.5), "{what}: NULL point arrays");
                        // Without points, check the distance alone (points taken as the answer).
                        let mut r = RpqDistanceResult::default();
                        let (s1, s2) = (q1[i.min(q1.len() - 1)], q2[i.min(q2.len() - 1)]);
                        assert_eq!(
                            rpq_distance(
                                a as *const RpqModel,
                                &s1,
                                b as *const RpqModel,
                                &s2,
                                request.as_ref().map_or(std::ptr::null(), |r| r as *const _),
                                std::ptr::null_mut(),
                                &mut r
                            ),
                            RPQ_OK
                        );
                        (r.p1, r.p2)
                    };
                    if *points || rel == 0.0 && abs == 0.0 {
                        check_distance(d[i], w1, w2, rel, abs, &ma, &x, &mb, &y, &format!("{what} query {i}"));
                    }
                }
            }
            Op::ToleranceBatch { m1, m2, p1, p2, tol, qsize, threads, extras } => {
                let (a, va) = st.resolve(*m1, NM);
                let (b, vb) = st.resolve(*m2, NM);
                let Some((mut e, n, pair)) = batch_expect(st, va, vb, p1, p2, what) else { return };
                if tol.is_nan() {
                    e.code(RPQ_ERR_NON_FINITE);
                }
                let (q1, q2): (Vec<RpqPose>, Vec<RpqPose>) =
                    (p1.iter().map(rpq_pose).collect(), p2.iter().map(rpq_pose).collect());
                let mut closer = vec![9u8; n.max(1)];
                let mut d = vec![-3.5; n.max(1)];
                let mut o1 = vec![-3.5; 3 * n.max(1)];
                let mut o2 = vec![-3.5; 3 * n.max(1)];
                let status = rpq_tolerance_batch(
                    a as *const RpqModel,
                    q1.as_ptr(),
                    q1.len(),
                    b as *const RpqModel,
                    q2.as_ptr(),
                    q2.len(),
                    &RpqToleranceRequest { tolerance: *tol, qsize: *qsize },
                    *threads,
                    closer.as_mut_ptr(),
                    if *extras { d.as_mut_ptr() } else { std::ptr::null_mut() },
                    if *extras { o1.as_mut_ptr() } else { std::ptr::null_mut() },
                    if *extras { o2.as_mut_ptr() } else { std::ptr::null_mut() },
                );
                e.check(status, RPQ_OK, RPQ_ERR_OUT_OF_RANGE, what);
                if status != RPQ_OK {
                    assert!(closer.iter().all(|&c| c == 9), "{what}: outputs written on error");
                    assert!(d.iter().chain(&o1).chain(&o2).all(|&x| x == -3.5), "{what}: outputs written on error");
                    return;
                }
                let Some((ma, mb)) = pair else { return };
                for i in 0..n {
                    let (x, y) = (placement(&p1[i.min(p1.len() - 1)]), placement(&p2[i.min(p2.len() - 1)]));
                    let w = |o: &[f64]| [o[3 * i], o[3 * i + 1], o[3 * i + 2]];
                    if *extras {
                        check_tolerance(
                            closer[i] != 0,
                            d[i],
                            w(&o1),
                            w(&o2),
                            *tol,
                            &ma,
                            &x,
                            &mb,
                            &y,
                            &format!("{what} query {i}"),
                        );
                    } else if let Some(m) = world_magnitude(&ma, &x, &mb, &y) {
                        let bf = brute_distance(&ma, &x, &mb, &y);
                        if (bf - tol.max(0.0)).abs() > slack(m, &x, &y) {
                            assert_eq!(closer[i] != 0, bf <= tol.max(0.0), "{what}: query {i} closer");
                        }
                    }
                }
            }
            Op::Serialize { m, len, null_buf, null_written, load } => {
                let (p, v) = st.resolve(*m, NM);
                let size = rpq_model_serialized_size(p as *const RpqModel);
                let cap = size.max(64);
                let mut buf = vec![0xabu8; cap];
                let given = match len {
                    0 => size,
                    1 => size.saturating_sub(1),
                    2 => usize::MAX,
                    _ => cap,
                };
                let mut written = 777usize;
                let status = rpq_model_serialize(
                    p as *const RpqModel,
                    if *null_buf { std::ptr::null_mut() } else { buf.as_mut_ptr() },
                    given,
                    if *null_written { std::ptr::null_mut() } else { &mut written },
                );
                let expected = match v {
                    Valid::Null => RPQ_ERR_NULL_POINTER,
                    Valid::Bad => RPQ_ERR_INVALID_HANDLE,
                    Valid::Live(_) if *null_buf => RPQ_ERR_NULL_POINTER,
                    Valid::Live(_) if given < size => RPQ_ERR_INVALID_ARGUMENT,
                    Valid::Live(_) => RPQ_OK,
                };
                assert_eq!(status, expected, "{what}");
                if status != RPQ_OK {
                    assert!(buf.iter().all(|&b| b == 0xab) && written == 777, "{what}: output written on error");
                    return;
                }
                assert!(buf[size..].iter().all(|&b| b == 0xab), "{what}: wrote past the model's size");
                if !*null_written {
                    assert_eq!(written, size, "{what}");
                }
                if *load {
                    let mut out: *mut RpqModel = std::ptr::null_mut();
                    let Valid::Live(i) = v else { unreachable!() };
                    // A loaded model is rigid, whatever the saved one was.
                    let mesh = Mesh { deform: None, ..st.models[i].shadow.clone() };
                    assert_eq!(
                        rpq_model_deserialize(buf.as_ptr(), size, &mut out),
                        RPQ_OK,
                        "{what}: a model's own bytes are refused"
                    );
                    assert_eq!(rpq_model_num_triangles(out), mesh.tris.len());
                    st.models.push(Slot { ptr: out as usize, live: true, shadow: mesh });
                }
            }
            Op::Deserialize { bytes, null_buf, null_out } => {
                let mut out: *mut RpqModel = std::ptr::dangling_mut();
                let status = rpq_model_deserialize(
                    if *null_buf { std::ptr::null() } else { bytes.as_ptr() },
                    bytes.len(),
                    if *null_out { std::ptr::null_mut() } else { &mut out },
                );
                let expected = if *null_buf || *null_out { RPQ_ERR_NULL_POINTER } else { RPQ_ERR_INVALID_ARGUMENT };
                assert_eq!(status, expected, "{what}");
                assert_eq!(out, std::ptr::dangling_mut(), "{what}: out_model written on error");
            }
            Op::PosesFromMatrices { mats, tol } => {
                let flat: Vec<f64> = mats.iter().flatten().copied().collect();
                let sentinel = RpqPose { rotation: [5.0; 9], translation: [5.0; 3], scale: 5.0 };
                let mut out = vec![sentinel; mats.len().max(1)];
                let status = rpq_poses_from_matrices(
                    if mats.is_empty() { std::ptr::null() } else { flat.as_ptr() },
                    mats.len(),
                    *tol,
                    out.as_mut_ptr(),
                );
                assert_ne!(status, RPQ_ERR_INTERNAL, "{what}");
                if mats.is_empty() {
                    assert_eq!(status, RPQ_OK, "{what}");
                } else if !(0.0..=1e-2).contains(tol) {
                    assert_eq!(status, RPQ_ERR_INVALID_ARGUMENT, "{what}");
                } else {
                    let codes = [
                        RPQ_OK,
                        RPQ_ERR_NON_FINITE,
                        RPQ_ERR_INVALID_ARGUMENT,
                        RPQ_ERR_NOT_ROTATION,
                        RPQ_ERR_INVALID_SCALE,
                    ];
                    assert!(codes.contains(&status), "{what}: {status}");
                    if mats.iter().flatten().any(|v| !v.is_finite()) {
                        assert_ne!(status, RPQ_OK, "{what}: a NaN accepted");
                    }
                }
                if status != RPQ_OK {
                    assert!(
                        out.iter().all(|p| format!("{p:?}") == format!("{sentinel:?}")),
                        "{what}: poses written on error"
                    );
                } else {
                    for (p, m) in out.iter().zip(mats) {
                        assert_eq!(p.translation, [m[3], m[7], m[11]], "{what}");
                        assert!(p.scale >= 1e-100 && p.scale <= 1e100, "{what}");
                        assert_eq!(
                            [m[12], m[13], m[14], m[15]],
                            [0.0, 0.0, 0.0, 1.0],
                            "{what}: a bad last row accepted"
                        );
                        for k in 0..9 {
                            let block = m[4 * (k / 3) + k % 3];
                            assert!(
                                (p.rotation[k] * p.scale - block).abs() <= 1e-12 * p.scale.max(1.0) * 4.0,
                                "{what}: rotation times scale"
                            );
                        }
                    }
                }
            }
            Op::SetTolerance(t) => {
                let status = rpq_set_rotation_tolerance(*t);
                if (0.0..=1e-2).contains(t) {
                    assert_eq!(status, RPQ_OK, "{what}");
                    st.tol = *t;
                } else {
                    assert_eq!(status, RPQ_ERR_INVALID_ARGUMENT, "{what}");
                }
                assert_eq!(rpq_rotation_tolerance(), st.tol, "{what}");
            }
            Op::Message(code) => {
                for text in [rpq_status_message(*code), vcStatusMessage(*code)] {
                    assert!(!text.is_null(), "{what}");
                    let s = CStr::from_ptr(text).to_str().expect("ASCII message");
                    assert!(!s.is_empty(), "{what}");
                }
            }
            Op::PNew => {
                let m = PQP_Model_new();
                assert!(!m.is_null(), "{what}");
                st.pqp.push(Slot { ptr: m as usize, live: true, shadow: Legacy::default() });
            }
            Op::PDelete(h) => {
                let (p, v) = st.resolve(*h, PM);
                PQP_Model_delete(p as *mut PQP_Model);
                if let Valid::Live(i) = v {
                    st.pqp[i].live = false;
                }
            }
            Op::PBegin(h, n) => {
                let (p, v) = st.resolve(*h, PM);
                let status = PQP_BeginModel(p as *mut PQP_Model, *n);
                match v {
                    Valid::Live(i) => {
                        let s = &mut st.pqp[i].shadow;
                        let expected = if s.state == 0 { PQP_OK } else { PQP_ERR_BUILD_OUT_OF_SEQUENCE };
                        assert_eq!(status, expected, "{what}");
                        *s = Legacy { state: 1, ..Legacy::default() };
                    }
                    _ => assert_eq!(
                        status,
                        handle_code(v, PQP_ERR_NULL_POINTER, PQP_ERR_INVALID_MODEL).unwrap(),
                        "{what}"
                    ),
                }
            }
            Op::PAddTri(h, t, id) => {
                let (p, v) = st.resolve(*h, PM);
                let status = match t {
                    Some(t) => {
                        let c = t.map(|v| [v.x, v.y, v.z]);
                        PQP_AddTri(p as *mut PQP_Model, c[0].as_ptr(), c[1].as_ptr(), c[2].as_ptr(), *id)
                    }
                    None => PQP_AddTri(p as *mut PQP_Model, std::ptr::null(), std::ptr::null(), std::ptr::null(), *id),
                };
                match v {
                    Valid::Live(i) => {
                        let s = &mut st.pqp[i].shadow;
                        let expected = match t {
                            None => PQP_ERR_NULL_POINTER,
                            Some(_) if s.state == 2 => PQP_ERR_BUILD_OUT_OF_SEQUENCE,
                            Some(t) if !t.iter().all(|v| v.iter().all(|x| x.is_finite())) => PQP_ERR_NON_FINITE,
                            Some(t) if t.iter().any(|v| beyond_range(v.as_slice())) => PQP_ERR_OUT_OF_RANGE,
                            Some(t) => {
                                s.mesh.tris.push(*t);
                                s.mesh.ids.push(*id);
                                s.state = 1;
                                PQP_OK
                            }
                        };
                        assert_eq!(status, expected, "{what}");
                    }
                    _ => assert_eq!(
                        status,
                        handle_code(v, PQP_ERR_NULL_POINTER, PQP_ERR_INVALID_MODEL).unwrap(),
                        "{what}"
                    ),
                }
            }
            Op::PEnd(h) => {
                let (p, v) = st.resolve(*h, PM);
                let status = PQP_EndModel(p as *mut PQP_Model);
                match v {
                    Valid::Live(i) => {
                        let s = &mut st.pqp[i].shadow;
                        let expected = if s.state == 2 {
                            PQP_ERR_BUILD_OUT_OF_SEQUENCE
                        } else if s.mesh.tris.is_empty() {
                            PQP_ERR_BUILD_EMPTY_MODEL
                        } else {
                            s.built = Some(std::mem::take(&mut s.mesh));
                            s.state = 2;
                            PQP_OK
                        };
                        assert_eq!(status, expected, "{what}");
                    }
                    _ => assert_eq!(
                        status,
                        handle_code(v, PQP_ERR_NULL_POINTER, PQP_ERR_INVALID_MODEL).unwrap(),
                        "{what}"
                    ),
                }
            }
            Op::PMem(h, msg) => {
                let (p, v) = st.resolve(*h, PM);
                let bytes = PQP_MemUsage(p as *mut PQP_Model, *msg);
                match v {
                    Valid::Live(i) => {
                        let s = &st.pqp[i].shadow;
                        let n = s.built.as_ref().map_or(s.mesh.tris.len(), |b| b.tris.len());
                        assert!(bytes as usize >= 76 * n, "{what}: {bytes} bytes for {n} triangles");
                    }
                    _ => assert_eq!(bytes, 0, "{what}"),
                }
            }
            Op::PCollide { m1, m2, p1, p2, flag, null_out } => {
                pqp_query(st, 0, *m1, *m2, p1, p2, *flag, (0.0, 0.0, 0.0, 0), *null_out, what)
            }
            Op::PDistance { m1, m2, p1, p2, rel, abs, qsize, null_out } => {
                pqp_query(st, 1, *m1, *m2, p1, p2, 0, (*rel, *abs, 0.0, *qsize), *null_out, what)
            }
            Op::PTolerance { m1, m2, p1, p2, tol, qsize, null_out } => {
                pqp_query(st, 2, *m1, *m2, p1, p2, 0, (0.0, 0.0, *tol, *qsize), *null_out, what)
            }
            Op::PFreePairs => {
                if let Some(r) = st.pqp_result.as_mut() {
                    PQP_CollideResult_FreePairsList(&mut **r);
                    assert!(r.pairs.is_null() && r.num_pairs == 0 && r.num_pairs_alloced == 0, "{what}");
                }
                PQP_CollideResult_FreePairsList(std::ptr::null_mut());
            }
            Op::RNew => {
                let m = RAPID_model_new();
                assert!(!m.is_null(), "{what}");
                st.rapid.push(Slot { ptr: m as usize, live: true, shadow: Legacy::default() });
            }
            Op::RDelete(h) => {
                let (p, v) = st.resolve(*h, RM);
                RAPID_model_delete(p as *mut RAPID_model);
                if let Valid::Live(i) = v {
                    st.rapid[i].live = false;
                }
            }
            Op::RBegin(h) => {
                let (p, v) = st.resolve(*h, RM);
                let status = RAPID_BeginModel(p as *mut RAPID_model);
                match v {
                    Valid::Live(i) => {
                        let s = &mut st.rapid[i].shadow;
                        let expected = if s.state == 1 { RAPID_ERR_BUILD_OUT_OF_SEQUENCE } else { RAPID_OK };
                        assert_eq!(status, expected, "{what}");
                        *s = Legacy { state: 1, ..Legacy::default() };
                    }
                    _ => assert_eq!(
                        status,
                        handle_code(v, RAPID_ERR_NULL_POINTER, RAPID_ERR_INVALID_MODEL).unwrap(),
                        "{what}"
                    ),
                }
            }
            Op::RAddTri(h, t, id) => {
                let (p, v) = st.resolve(*h, RM);
                let status = match t {
                    Some(t) => {
                        let c = t.map(|v| [v.x, v.y, v.z]);
                        RAPID_AddTri(p as *mut RAPID_model, c[0].as_ptr(), c[1].as_ptr(), c[2].as_ptr(), *id)
                    }
                    None => {
                        RAPID_AddTri(p as *mut RAPID_model, std::ptr::null(), std::ptr::null(), std::ptr::null(), *id)
                    }
                };
                match v {
                    Valid::Live(i) => {
                        let s = &mut st.rapid[i].shadow;
                        let expected = match t {
                            None => RAPID_ERR_NULL_POINTER,
                            Some(_) if s.state == 3 => RAPID_ERR_BUILD_OUT_OF_SEQUENCE,
                            Some(t) if !t.iter().all(|v| v.iter().all(|x| x.is_finite())) => RAPID_ERR_NON_FINITE,
                            Some(t) if t.iter().any(|v| beyond_range(v.as_slice())) => RAPID_ERR_OUT_OF_RANGE,
                            Some(t) => {
                                s.mesh.tris.push(*t);
                                s.mesh.ids.push(*id);
                                RAPID_OK
                            }
                        };
                        assert_eq!(status, expected, "{what}");
                    }
                    _ => assert_eq!(
                        status,
                        handle_code(v, RAPID_ERR_NULL_POINTER, RAPID_ERR_INVALID_MODEL).unwrap(),
                        "{what}"
                    ),
                }
            }
            Op::REnd(h) => {
                let (p, v) = st.resolve(*h, RM);
                let status = RAPID_EndModel(p as *mut RAPID_model);
                match v {
                    Valid::Live(i) => {
                        let s = &mut st.rapid[i].shadow;
                        let expected = if s.state == 3 {
                            RAPID_OK
                        } else if s.mesh.tris.is_empty() {
                            RAPID_ERR_BUILD_EMPTY_MODEL
                        } else {
                            s.built = Some(std::mem::take(&mut s.mesh));
                            s.state = 3;
                            RAPID_OK
                        };
                        assert_eq!(status, expected, "{what}");
                    }
                    _ => assert_eq!(
                        status,
                        handle_code(v, RAPID_ERR_NULL_POINTER, RAPID_ERR_INVALID_MODEL).unwrap(),
                        "{what}"
                    ),
                }
            }
            Op::RCollide { m1, m2, p1, p2, flag, scaled } => rapid_collide(st, *m1, *m2, p1, p2, *flag, *scaled, what),
            Op::Points { m, points, max_distance, threads, kind, null_out } => {
                point_queries(st, *m, points, *max_distance, *threads, *kind, *null_out, what)
            }
            Op::VOpen => {
                let h = vcOpen();
                assert!(!h.is_null(), "{what}");
                st.vc.push(Slot { ptr: h as usize, live: true, shadow: VcShadow::default() });
            }
            Op::VClose(h) => {
                let (p, v) = st.resolve(*h, VC);
                vcClose(p as *mut c_void);
                if let Valid::Live(i) = v {
                    st.vc[i].live = false;
                }
            }
            Op::More(m) => more::step(st, m, what),
            _ => vcollide(st, op, what),
        }
    }
}

fn live_pair(st: &State, va: Valid, vb: Valid) -> Option<(Mesh, Mesh)> {
    match (va, vb) {
        (Valid::Live(i), Valid::Live(j)) => Some((st.models[i].shadow.clone(), st.models[j].shadow.clone())),
        _ => None,
    }
}

fn range_possible(pair: &Option<(Mesh, Mesh)>, p1: &P, p2: &P) -> bool {
    match (pair, p1, p2) {
        (Some((a, b)), Some(p1), Some(p2)) => maybe_out_of_range(a, &placement(p1), b, &placement(p2)),
        _ => true,
    }
}

/// The common expectations of a batch: handles, pose counts and poses. `None` when the
/// counts do not broadcast and a NULL or invalid handle is not there to be reported first
/// (then the call is still made by the caller? no: the check is done here).
fn batch_expect(
    st: &State,
    va: Valid,
    vb: Valid,
    p1: &[GenPose],
    p2: &[GenPose],
    _what: &str,
) -> Option<(Expect, usize, Option<(Mesh, Mesh)>)> {
    let mut e = Expect::default();
    e.add(Ok(handle_code(va, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
    e.add(Ok(handle_code(vb, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
    let (a, b) = (p1.len(), p2.len());
    let n = if a == b {
        a
    } else if a == 0 || b == 0 {
        0
    } else if a == 1 {
        b
    } else if b == 1 {
        a
    } else {
        e.code(RPQ_ERR_INVALID_ARGUMENT);
        0
    };
    for p in p1.iter().chain(p2) {
        e.add(native_pose(&Some(*p), st.tol));
    }
    let pair = live_pair(st, va, vb);
    e.range = match &pair {
        Some((ma, mb)) => {
            (0..n).any(|i| maybe_out_of_range(ma, &placement(&p1[i.min(a - 1)]), mb, &placement(&p2[i.min(b - 1)])))
        }
        None => true,
    };
    Some((e, n, pair))
}

fn collide(st: &mut State, r: H, m1: H, m2: H, p1: &P, p2: &P, req: &Option<[c_int; 3]>, what: &str) {
    let (rp, vr) = st.resolve(r, NR);
    let (a, va) = st.resolve(m1, NM);
    let (b, vb) = st.resolve(m2, NM);
    let mut e = Expect::default();
    e.add(Ok(handle_code(vr, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
    e.add(Ok(handle_code(va, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
    e.add(Ok(handle_code(vb, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
    e.add(native_pose(p1, st.tol));
    e.add(native_pose(p2, st.tol));
    if let Some(r) = req {
        if !(0..5).contains(&r[1]) || !(0..2).contains(&r[2]) {
            e.code(RPQ_ERR_INVALID_ARGUMENT);
        }
    }
    let pair = live_pair(st, va, vb);
    e.range = range_possible(&pair, p1, p2);
    let request = req.map(|r| RpqCollideRequest { first_contact: r[0], box_test: r[1], frame: r[2] });
    let (q1, q2) = (p1.map(|p| rpq_pose(&p)), p2.map(|p| rpq_pose(&p)));
    let result = rp as *mut RpqCollideResult;
    // SAFETY: handles are checked by the library; pointers to live values.
    unsafe {
        let snapshot = |r: *mut RpqCollideResult| {
            let n = rpq_collide_result_num_pairs(r);
            let p = rpq_collide_result_pairs(r);
            let pairs: Vec<(i32, i32)> =
                if p.is_null() { Vec::new() } else { (0..n).map(|k| ((*p.add(k)).id1, (*p.add(k)).id2)).collect() };
            let (mut bv, mut tri) = (0u64, 0u64);
            rpq_collide_result_counts(r, &mut bv, &mut tri);
            (pairs, bv, tri)
        };
        let before = snapshot(result);
        let status = rpq_collide(
            a as *const RpqModel,
            pose_ptr(&q1),
            b as *const RpqModel,
            pose_ptr(&q2),
            request.as_ref().map_or(std::ptr::null(), |r| r as *const _),
            result,
        );
        e.check(status, RPQ_OK, RPQ_ERR_OUT_OF_RANGE, what);
        let after = snapshot(result);
        if status != RPQ_OK {
            assert_eq!(after, before, "{what}: result changed on error");
            return;
        }
        if let Valid::Live(i) = vr {
            let s = &mut st.results[i].shadow;
            s.geometry_valid = s.geometry;
        }
        let (Some((ma, mb)), Some(p1), Some(p2)) = (pair, p1, p2) else { return };
        let first = request.is_some_and(|r| r.first_contact != 0);
        let frame = if request.is_some_and(|r| r.frame == 1) { TriangleFrame::Model2 } else { TriangleFrame::Model1 };
        check_contacts(&after.0, &ma, &placement(p1), &mb, &placement(p2), frame, first, what);
    }
}

/// PQP's three queries: `kind` 0 collide, 1 distance, 2 tolerance; `args` (rel, abs, tol, qsize).
#[allow(clippy::too_many_arguments)]
fn pqp_query(
    st: &mut State,
    kind: u8,
    m1: H,
    m2: H,
    p1: &P,
    p2: &P,
    flag: c_int,
    args: (f64, f64, f64, c_int),
    null_out: bool,
    what: &str,
) {
    let (a, va) = st.resolve(m1, PM);
    let (b, vb) = st.resolve(m2, PM);
    let mut e = Expect::default();
    e.add(Ok(handle_code(va, PQP_ERR_NULL_POINTER, PQP_ERR_INVALID_MODEL)));
    e.add(Ok(handle_code(vb, PQP_ERR_NULL_POINTER, PQP_ERR_INVALID_MODEL)));
    let built = |v: Valid| match v {
        Valid::Live(i) => st.pqp[i].shadow.built.clone(),
        _ => None,
    };
    let (ba, bb) = (built(va), built(vb));
    let handles_ok = matches!((va, vb), (Valid::Live(_), Valid::Live(_)));
    if handles_ok && (ba.is_none() || bb.is_none()) {
        e.code(PQP_ERR_UNPROCESSED_MODEL);
    }
    e.add(legacy_pose(p1, PQP_ERR_NULL_POINTER, PQP_ERR_NON_FINITE, PQP_ERR_NOT_ROTATION));
    e.add(legacy_pose(p2, PQP_ERR_NULL_POINTER, PQP_ERR_NON_FINITE, PQP_ERR_NOT_ROTATION));
    if null_out {
        e.code(PQP_ERR_NULL_POINTER);
    }
    let (rel, abs, tol, qsize) = args;
    if kind == 1 && (rel.is_nan() || rel < 0.0 || abs.is_nan() || abs < 0.0) {
        e.code(PQP_ERR_INVALID_ARGUMENT);
    }
    if kind == 2 && tol.is_nan() {
        e.code(PQP_ERR_NON_FINITE);
    }
    // PQP's poses have scale 1.
    let unit = |p: &P| p.map(|p| GenPose { s: 1.0, ..p });
    let (u1, u2) = (unit(p1), unit(p2));
    let pair = match (&ba, &bb) {
        (Some(x), Some(y)) => Some((x.clone(), y.clone())),
        _ => None,
    };
    e.range = range_possible(&pair, &u1, &u2);
    let rows = |p: &P| p.map(|p| ([[p.r[0], p.r[1], p.r[2]], [p.r[3], p.r[4], p.r[5]], [p.r[6], p.r[7], p.r[8]]], p.t));
    let (mut r1, mut r2) = (rows(p1), rows(p2));
    let rp = |r: &mut Option<([[f64; 3]; 3], [f64; 3])>| r.as_mut().map_or(std::ptr::null_mut(), |r| r.0.as_mut_ptr());
    let tp = |r: &mut Option<([[f64; 3]; 3], [f64; 3])>| r.as_mut().map_or(std::ptr::null_mut(), |r| r.1.as_mut_ptr());
    let (a, b) = (a as *mut PQP_Model, b as *mut PQP_Model);
    // SAFETY: results are zeroed or previously used; arrays live.
    unsafe {
        match kind {
            0 => {
                let res = st.pqp_result.get_or_insert_with(|| Box::new(std::mem::zeroed()));
                let before = format!("{:?}", **res);
                let out: *mut PQP_CollideResult = if null_out { std::ptr::null_mut() } else { &mut **res };
                let status = PQP_Collide(out, rp(&mut r1), tp(&mut r1), a, rp(&mut r2), tp(&mut r2), b, flag);
                e.check(status, PQP_OK, PQP_ERR_OUT_OF_RANGE, what);
                if status != PQP_OK {
                    assert_eq!(format!("{:?}", **res), before, "{what}: result written on error");
                    return;
                }
                let got: Vec<(i32, i32)> =
                    (0..res.num_pairs as usize).map(|k| ((*res.pairs.add(k)).id1, (*res.pairs.add(k)).id2)).collect();
                assert!(res.num_pairs <= res.num_pairs_alloced, "{what}");
                if let (Some((ma, mb)), Some(x), Some(y)) = (pair, u1, u2) {
                    check_contacts(
                        &got,
                        &ma,
                        &placement(&x),
                        &mb,
                        &placement(&y),
                        TriangleFrame::Model1,
                        flag == PQP_FIRST_CONTACT,
                        what,
                    );
                }
            }
            1 => {
                let mut res: PQP_DistanceResult = std::mem::zeroed();
                res.distance = -7.5;
                let before = format!("{res:?}");
                let out: *mut PQP_DistanceResult = if null_out { std::ptr::null_mut() } else { &mut res };
                let status =
                    PQP_Distance(out, rp(&mut r1), tp(&mut r1), a, rp(&mut r2), tp(&mut r2), b, rel, abs, qsize);
                e.check(status, PQP_OK, PQP_ERR_OUT_OF_RANGE, what);
                if status != PQP_OK {
                    assert_eq!(format!("{res:?}"), before, "{what}: result written on error");
                    return;
                }
                if let (Some((ma, mb)), Some(x), Some(y)) = (pair, u1, u2) {
                    check_distance(
                        res.distance,
                        res.p1,
                        res.p2,
                        rel,
                        abs,
                        &ma,
                        &placement(&x),
                        &mb,
                        &placement(&y),
                        what,
                    );
                }
            }
            _ => {
                let mut res: PQP_ToleranceResult = std::mem::zeroed();
                res.distance = -7.5;
                let before = format!("{res:?}");
                let out: *mut PQP_ToleranceResult = if null_out { std::ptr::null_mut() } else { &mut res };
                let status = PQP_Tolerance(out, rp(&mut r1), tp(&mut r1), a, rp(&mut r2), tp(&mut r2), b, tol, qsize);
                e.check(status, PQP_OK, PQP_ERR_OUT_OF_RANGE, what);
                if status != PQP_OK {
                    assert_eq!(format!("{res:?}"), before, "{what}: result written on error");
                    return;
                }
                if let (Some((ma, mb)), Some(x), Some(y)) = (pair, u1, u2) {
                    let closer = res.closer_than_tolerance != 0;
                    check_tolerance(
                        closer,
                        res.distance,
                        res.p1,
                        res.p2,
                        tol,
                        &ma,
                        &placement(&x),
                        &mb,
                        &placement(&y),
                        what,
                    );
                }
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn rapid_collide(st: &mut State, m1: H, m2: H, p1: &P, p2: &P, flag: c_int, scaled: bool, what: &str) {
    let (a, va) = st.resolve(m1, RM);
    let (b, vb) = st.resolve(m2, RM);
    let mut e = Expect::default();
    e.add(Ok(handle_code(va, RAPID_ERR_NULL_POINTER, RAPID_ERR_INVALID_MODEL)));
    e.add(Ok(handle_code(vb, RAPID_ERR_NULL_POINTER, RAPID_ERR_INVALID_MODEL)));
    let built = |v: Valid| match v {
        Valid::Live(i) => st.rapid[i].shadow.built.clone(),
        _ => None,
    };
    let (ba, bb) = (built(va), built(vb));
    if matches!((va, vb), (Valid::Live(_), Valid::Live(_))) && (ba.is_none() || bb.is_none()) {
        e.code(RAPID_ERR_UNPROCESSED_MODEL);
    }
    e.add(legacy_pose(p1, RAPID_ERR_NULL_POINTER, RAPID_ERR_NON_FINITE, RAPID_ERR_NOT_ROTATION));
    e.add(legacy_pose(p2, RAPID_ERR_NULL_POINTER, RAPID_ERR_NON_FINITE, RAPID_ERR_NOT_ROTATION));
    let s = |p: &P| if scaled { p.map_or(1.0, |p| p.s) } else { 1.0 };
    for sc in [s(p1), s(p2)] {
        if !sc.is_finite() {
            e.code(RAPID_ERR_NON_FINITE);
        } else if !(1e-100..=1e100).contains(&sc) {
            e.code(RAPID_ERR_INVALID_SCALE);
        }
    }
    let with = |p: &P, sc: f64| p.map(|p| GenPose { s: sc, ..p });
    let (u1, u2) = (with(p1, s(p1)), with(p2, s(p2)));
    let pair = match (&ba, &bb) {
        (Some(x), Some(y)) => Some((x.clone(), y.clone())),
        _ => None,
    };
    e.range = range_possible(&pair, &u1, &u2);
    let rows = |p: &P| p.map(|p| ([[p.r[0], p.r[1], p.r[2]], [p.r[3], p.r[4], p.r[5]], [p.r[6], p.r[7], p.r[8]]], p.t));
    let (mut r1, mut r2) = (rows(p1), rows(p2));
    let rp = |r: &mut Option<([[f64; 3]; 3], [f64; 3])>| r.as_mut().map_or(std::ptr::null_mut(), |r| r.0.as_mut_ptr());
    let tp = |r: &mut Option<([[f64; 3]; 3], [f64; 3])>| r.as_mut().map_or(std::ptr::null_mut(), |r| r.1.as_mut_ptr());
    // SAFETY: arrays live; the globals are read as a C program reads them, on this thread.
    unsafe {
        let globals = || (RAPID_num_box_tests, RAPID_num_tri_tests, RAPID_num_contacts, RAPID_contact as usize);
        let before = globals();
        let (a, b) = (a as *mut RAPID_model, b as *mut RAPID_model);
        let status = if scaled {
            RAPID_CollideScaled(rp(&mut r1), tp(&mut r1), s(p1), a, rp(&mut r2), tp(&mut r2), s(p2), b, flag)
        } else {
            RAPID_Collide(rp(&mut r1), tp(&mut r1), a, rp(&mut r2), tp(&mut r2), b, flag)
        };
        e.check(status, RAPID_OK, RAPID_ERR_OUT_OF_RANGE, what);
        if status != RAPID_OK {
            assert_eq!(globals(), before, "{what}: globals written on error");
            return;
        }
        let n = RAPID_num_contacts as usize;
        let got: Vec<(i32, i32)> = (0..n).map(|k| ((*RAPID_contact.add(k)).id1, (*RAPID_contact.add(k)).id2)).collect();
        if let (Some((ma, mb)), Some(x), Some(y)) = (pair, u1, u2) {
            check_contacts(
                &got,
                &ma,
                &placement(&x),
                &mb,
                &placement(&y),
                TriangleFrame::Model2,
                flag == RAPID_FIRST_CONTACT,
                what,
            );
        }
    }
}

const NBODY_RANGE: f64 = 8.452712498170644e270; // 2^900, as the n-body world's

fn vc_pose_code(p: &GenPose) -> Result<Option<c_int>, Vec<c_int>> {
    if !p.r.iter().chain(&p.t).all(|v| v.is_finite()) {
        return Ok(Some(VC_ERR_NON_FINITE));
    }
    if p.t.iter().any(|v| v.abs() > NBODY_RANGE) {
        return Ok(Some(VC_ERR_OUT_OF_RANGE));
    }
    match p.kind {
        RotKind::Exact | RotKind::Reflection => Ok(None),
        // Quaternion rotations are orthonormal far within 1e-6; six-decimal ones are not
        // always (V-COLLIDE's own bound).
        RotKind::Proper => Err(vec![VC_OK, VC_ERR_NOT_RIGID]),
        RotKind::Doubtful => Err(vec![VC_OK, VC_ERR_NOT_RIGID]),
        RotKind::Bad => Ok(Some(VC_ERR_NOT_RIGID)),
        RotKind::NonFinite => Ok(Some(VC_ERR_NON_FINITE)),
    }
}

/// The one-model point queries of the native API: statuses, outputs untouched on error, and
/// answers against brute force over the model's triangles (distances within rounding; exactly 0
/// iff the point is on a triangle; found iff within `max_distance`).
#[allow(clippy::too_many_arguments)]
fn point_queries(
    st: &mut State,
    m: H,
    points: &[[f64; 3]],
    max_distance: f64,
    threads: c_int,
    kind: u8,
    null_out: bool,
    what: &str,
) {
    let (p, v) = st.resolve(m, NM);
    let model = p as *const RpqModel;
    let mut e = Expect::default();
    e.add(Ok(handle_code(v, RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE)));
    let n = points.len();
    if null_out && n > 0 {
        e.code(RPQ_ERR_NULL_POINTER);
    }
    let flat: Vec<f64> = points.iter().flatten().copied().collect();
    // (The first bad point decides which of the two is reported.)
    if flat.iter().any(|x| !x.is_finite()) {
        e.code(RPQ_ERR_NON_FINITE);
    }
    if beyond_range(&flat.iter().copied().filter(|x| x.is_finite()).collect::<Vec<_>>()) {
        e.code(RPQ_ERR_OUT_OF_RANGE);
    }
    let mesh = match v {
        Valid::Live(i) => Some(st.models[i].shadow.clone()),
        _ => None,
    };
    if kind == 0 && (max_distance.is_nan() || max_distance < 0.0) {
        e.code(RPQ_ERR_INVALID_ARGUMENT);
    }
    if kind != 0 {
        if let Some(mesh) = &mesh {
            let built = rapidpqp::Model::new(mesh.tris.clone(), mesh.ids.clone()).expect("the shadow of a built model");
            if !built.solid_facts().closed {
                e.code(RPQ_ERR_NOT_CLOSED);
            }
        }
    }
    let sentinel = RpqClosestPoint { distance: -7.0, point: [-7.0; 3], id: -7, triangle: 7, on_surface: 7, found: 7 };
    let mut closest = vec![sentinel; n];
    let mut signed = vec![-7.0f64; n];
    let mut place = vec![9u8; n];
    let mut winding = vec![-7i32; n];
    let null = null_out && n > 0;
    // SAFETY: the handle is passed as a C program passes it (checked by the library); the
    // arrays hold `n` entries.
    let status = unsafe {
        match kind {
            0 => rpq_closest_points(
                model,
                flat.as_ptr(),
                n,
                max_distance,
                threads,
                if null { std::ptr::null_mut() } else { closest.as_mut_ptr() },
            ),
            1 => rpq_contains(
                model,
                flat.as_ptr(),
                n,
                threads,
                if null { std::ptr::null_mut() } else { place.as_mut_ptr() },
                winding.as_mut_ptr(),
            ),
            _ => rpq_signed_distance(
                model,
                flat.as_ptr(),
                n,
                threads,
                if null { std::ptr::null_mut() } else { signed.as_mut_ptr() },
                closest.as_mut_ptr(),
            ),
        }
    };
    e.check(status, RPQ_OK, RPQ_ERR_OUT_OF_RANGE, what);
    if status != RPQ_OK {
        assert!(closest.iter().all(|c| *c == sentinel), "{what}: closest points written on error");
        assert!(signed.iter().all(|&d| d == -7.0), "{what}: distances written on error");
        assert!(place.iter().all(|&w| w == 9) && winding.iter().all(|&w| w == -7), "{what}: written on error");
        return;
    }
    let Some(mesh) = mesh else { return };
    let identity = Placement::from_rows(&[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], &[0.0; 3], 1.0);
    let magnitude = mesh.tris.iter().flatten().map(norm).fold(0.0, f64::max);
    for (k, q) in points.iter().enumerate() {
        let x = Vec3::new(q[0], q[1], q[2]);
        let brute = point_distance(&mesh, &identity, &x);
        let tolerance = 1e-9 * (magnitude + norm(&x)).max(f64::MIN_POSITIVE);
        // Whether the library's "exactly on the surface" agrees with brute force, whose 0 is
        // itself exact only for moderate coordinates: near huge triangles (a model scaled by
        // 2^900) a point off them can round to distance 0, so there only the library's 0 is
        // checked (it must be within rounding of brute force).
        let zero_agrees = |zero: bool| {
            if magnitude <= 1e3 && norm(&x) <= 1e3 { zero == (brute == 0.0) } else { !zero || brute <= tolerance }
        };
        COUNT.add(2);
        match kind {
            0 => {
                let c = &closest[k];
                let within = brute <= max_distance;
                if (brute - max_distance).abs() > tolerance {
                    assert_eq!(c.found != 0, within, "{what}: point {k} found, brute force {brute}");
                }
                if c.found != 0 {
                    assert!((c.distance - brute).abs() <= tolerance, "{what}: point {k}: {} vs {brute}", c.distance);
                    assert!(
                        zero_agrees(c.on_surface != 0),
                        "{what}: point {k} on the surface: {c:?}, brute force {brute}"
                    );
                    assert!(
                        zero_agrees(c.distance == 0.0),
                        "{what}: point {k} at distance 0: {c:?}, brute force {brute}"
                    );
                    assert_eq!(
                        c.on_surface != 0,
                        c.distance == 0.0,
                        "{what}: point {k}: distance 0 iff on the surface"
                    );
                }
            }
            1 => {
                assert!(place[k] <= 2, "{what}: point {k} placed {}", place[k]);
                assert!(
                    zero_agrees(place[k] == RPQ_ON_SURFACE),
                    "{what}: point {k} on the surface, brute force {brute}"
                );
                assert_eq!(place[k] == RPQ_INSIDE, winding[k] != 0, "{what}: point {k} winding {}", winding[k]);
            }
            _ => {
                assert!((signed[k].abs() - brute).abs() <= tolerance, "{what}: point {k}: {} vs {brute}", signed[k]);
                assert!(zero_agrees(signed[k] == 0.0), "{what}: point {k} at distance 0, brute force {brute}");
                assert!((closest[k].distance - brute).abs() <= tolerance, "{what}: point {k} closest");
            }
        }
    }
}

fn vc_id(s: &VcShadow, id: Id) -> c_int {
    match id {
        Id::Known(k) if !s.objects.is_empty() => (k as usize % s.objects.len()) as c_int,
        Id::Known(k) => k as c_int % 3,
        Id::Raw(v) => v,
    }
}

fn vc_object(s: &VcShadow, id: c_int) -> Option<&VcObject> {
    usize::try_from(id).ok().and_then(|i| s.objects.get(i)).and_then(Option::as_ref)
}

fn vcollide(st: &mut State, op: &Op, what: &str) {
    let h = match op {
        Op::VNew(h, _) | Op::VAddTri(h, ..) | Op::VEnd(h) | Op::VUpdate(h, ..) | Op::VActivate(h, ..) => *h,
        Op::VPair(h, ..) | Op::VDelete(h, _) | Op::VCollide(h, _) | Op::VReport(h, ..) | Op::VReportTri(h, ..) => *h,
        _ => unreachable!("{op:?}"),
    };
    let (p, v) = st.resolve(h, VC);
    let engine = p as *mut c_void;
    let mut dummy = VcShadow::default();
    let (s, code) = match v {
        Valid::Live(i) => (&mut st.vc[i].shadow, None),
        _ => (&mut dummy, handle_code(v, VC_ERR_NULL_POINTER, VC_ERR_INVALID_HANDLE)),
    };
    let idle = s.building.is_none();
    // SAFETY: handles checked by the library; arrays live and sized as passed.
    unsafe {
        match op {
            Op::VNew(_, null) => {
                let mut id: c_int = -77;
                let status = vcNewObject(engine, if *null { std::ptr::null_mut() } else { &mut id });
                let expected = code.unwrap_or(if !idle {
                    VC_ERR_CALL_OUT_OF_SEQUENCE
                } else if *null {
                    VC_ERR_NULL_POINTER
                } else {
                    VC_OK
                });
                assert_eq!(status, expected, "{what}");
                if status == VC_OK {
                    assert_eq!(id, s.objects.len() as c_int, "{what}: the new id");
                    s.building = Some((id, Mesh::default()));
                } else {
                    assert_eq!(id, -77, "{what}: id written on error");
                }
            }
            Op::VAddTri(_, t, tri_id) => {
                let status = match t {
                    Some(t) => {
                        let mut c = t.map(|v| [v.x, v.y, v.z]);
                        match tri_id {
                            None => vcAddTri(engine, c[0].as_mut_ptr(), c[1].as_mut_ptr(), c[2].as_mut_ptr()),
                            Some(i) => vcAddTriWithId(engine, c[0].as_ptr(), c[1].as_ptr(), c[2].as_ptr(), *i),
                        }
                    }
                    None => vcAddTri(engine, std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::null_mut()),
                };
                let expected = code.unwrap_or_else(|| match (&mut s.building, t) {
                    (None, _) => VC_ERR_CALL_OUT_OF_SEQUENCE,
                    (Some(_), None) => VC_ERR_NULL_POINTER,
                    (Some(_), Some(t)) if !t.iter().all(|v| v.iter().all(|x| x.is_finite())) => VC_ERR_NON_FINITE,
                    // (Refused when given: the object keeps its other triangles.)
                    (Some(_), Some(t)) if t.iter().any(|v| v.amax() > NBODY_RANGE) => VC_ERR_OUT_OF_RANGE,
                    (Some((_, mesh)), Some(t)) => {
                        let index = mesh.tris.len() as c_int;
                        mesh.tris.push(*t);
                        mesh.ids.push(tri_id.unwrap_or(index));
                        VC_OK
                    }
                });
                assert_eq!(status, expected, "{what}");
            }
            Op::VEnd(_) => {
                let status = vcEndObject(engine);
                match code {
                    Some(c) => assert_eq!(status, c, "{what}"),
                    None => match s.building.take() {
                        None => assert_eq!(status, VC_ERR_CALL_OUT_OF_SEQUENCE, "{what}"),
                        Some((id, mesh)) if mesh.tris.is_empty() => {
                            assert_eq!(status, VC_ERR_EMPTY_OBJECT, "{what}");
                            s.building = Some((id, mesh));
                        }
                        Some((id, mesh)) => {
                            // (Every triangle added is within range: the object always ends.)
                            assert_eq!(status, VC_OK, "{what}");
                            assert_eq!(id, s.objects.len() as c_int);
                            s.objects.push(Some(VcObject { mesh, pose: Placement::IDENTITY, active: true }));
                        }
                    },
                }
            }
            Op::VUpdate(_, id, pose) => {
                let i = vc_id(s, *id);
                let m = pose.map(|p| {
                    let r = p.r;
                    [
                        [r[0], r[1], r[2], p.t[0]],
                        [r[3], r[4], r[5], p.t[1]],
                        [r[6], r[7], r[8], p.t[2]],
                        [7.0, 7.0, 7.0, 7.0],
                    ]
                });
                let mut mm = m;
                let status = vcUpdateTrans(engine, i, mm.as_mut().map_or(std::ptr::null_mut(), |m| m.as_mut_ptr()));
                let mut e = Expect::default();
                match code {
                    Some(c) => e.code(c),
                    None if !idle => e.code(VC_ERR_CALL_OUT_OF_SEQUENCE),
                    None if vc_object(s, i).is_none() => e.code(VC_ERR_INVALID_ID),
                    None => match pose {
                        None => e.code(VC_ERR_NULL_POINTER),
                        Some(p) => e.add(vc_pose_code(p)),
                    },
                }
                e.check(status, VC_OK, VC_OK, what);
                if status == VC_OK {
                    let p = pose.expect("a pose");
                    let obj = s.objects[i as usize].as_mut().expect("live");
                    obj.pose = placement(&GenPose { s: 1.0, ..p });
                }
            }
            Op::VActivate(_, id, on) => {
                let i = vc_id(s, *id);
                let status = if *on { vcActivateObject(engine, i) } else { vcDeactivateObject(engine, i) };
                let expected = code.unwrap_or(if !idle {
                    VC_ERR_CALL_OUT_OF_SEQUENCE
                } else if vc_object(s, i).is_none() {
                    VC_ERR_INVALID_ID
                } else {
                    s.objects[i as usize].as_mut().expect("live").active = *on;
                    VC_OK
                });
                assert_eq!(status, expected, "{what}");
            }
            Op::VPair(_, a, b, on) => {
                let (i, j) = (vc_id(s, *a), vc_id(s, *b));
                let status = if *on { vcActivatePair(engine, i, j) } else { vcDeactivatePair(engine, i, j) };
                let expected = code.unwrap_or(if !idle {
                    VC_ERR_CALL_OUT_OF_SEQUENCE
                } else if vc_object(s, i).is_none() || vc_object(s, j).is_none() {
                    VC_ERR_INVALID_ID
                } else {
                    let key = (i.min(j), i.max(j));
                    if *on {
                        s.disabled.remove(&key);
                    } else if i != j {
                        s.disabled.insert(key);
                    }
                    VC_OK
                });
                assert_eq!(status, expected, "{what}");
            }
            Op::VDelete(_, id) => {
                let i = vc_id(s, *id);
                let status = vcDeleteObject(engine, i);
                let expected = code.unwrap_or(if !idle {
                    VC_ERR_CALL_OUT_OF_SEQUENCE
                } else if vc_object(s, i).is_none() {
                    VC_ERR_INVALID_ID
                } else {
                    s.objects[i as usize] = None;
                    s.disabled.retain(|&(a, b)| a != i && b != i);
                    VC_OK
                });
                assert_eq!(status, expected, "{what}");
            }
            Op::VCollide(_, all) => {
                let status = if *all { vcCollideAll(engine) } else { vcCollide(engine) };
                let expected = code.unwrap_or(if idle { VC_OK } else { VC_ERR_CALL_OUT_OF_SEQUENCE });
                assert_eq!(status, expected, "{what}");
                if status != VC_OK {
                    return;
                }
                // Brute force over every active, enabled pair.
                let mut report = Vec::new();
                for i in 0..s.objects.len() {
                    for j in i + 1..s.objects.len() {
                        let (Some(a), Some(b)) = (&s.objects[i], &s.objects[j]) else { continue };
                        if !a.active || !b.active || s.disabled.contains(&(i as c_int, j as c_int)) {
                            continue;
                        }
                        let tri = contacts(&a.mesh, &a.pose, &b.mesh, &b.pose, TriangleFrame::Model2);
                        if !tri.is_empty() {
                            report.push((i as c_int, j as c_int, if *all { tri } else { Vec::new() }));
                        }
                    }
                }
                let total = vcReport(engine, 0, std::ptr::null_mut());
                let mut got = vec![VCReportType::default(); total.max(0) as usize];
                assert_eq!(vcReport(engine, total, got.as_mut_ptr()), total);
                let pairs: Vec<(c_int, c_int)> = got.iter().map(|r| (r.id1, r.id2)).collect();
                let want: Vec<(c_int, c_int)> = report.iter().map(|r| (r.0, r.1)).collect();
                assert_eq!(pairs, want, "{what}: colliding object pairs vs brute force");
                for (k, r) in report.iter().enumerate() {
                    let n = vcReportTriPairs(engine, k as c_int, 0, std::ptr::null_mut());
                    let mut tri = vec![VCReportType::default(); n.max(0) as usize];
                    assert_eq!(vcReportTriPairs(engine, k as c_int, n, tri.as_mut_ptr()), n);
                    let mut tri: Vec<(c_int, c_int)> = tri.iter().map(|p| (p.id1, p.id2)).collect();
                    tri.sort_unstable();
                    assert_eq!(tri, r.2, "{what}: triangle pairs of object pair {k}");
                }
                s.report = report;
            }
            Op::VReport(_, size, null) => {
                let mut buf = vec![VCReportType { id1: -9, id2: -9 }; 4096];
                let status = vcReport(engine, *size, if *null { std::ptr::null_mut() } else { buf.as_mut_ptr() });
                let total = s.report.len() as c_int;
                let expected = code.unwrap_or(if *size > 0 && *null { VC_ERR_NULL_POINTER } else { total });
                assert_eq!(status, expected, "{what}");
                let written = if status >= 0 && *size > 0 { (*size).min(total) as usize } else { 0 };
                for (k, r) in buf.iter().enumerate() {
                    if k < written {
                        assert_eq!((r.id1, r.id2), (s.report[k].0, s.report[k].1), "{what}");
                    } else {
                        assert_eq!((r.id1, r.id2), (-9, -9), "{what}: wrote past the report");
                    }
                }
            }
            Op::VReportTri(_, k, size, null) => {
                let mut buf = vec![VCReportType { id1: -9, id2: -9 }; 4096];
                let status =
                    vcReportTriPairs(engine, *k, *size, if *null { std::ptr::null_mut() } else { buf.as_mut_ptr() });
                let entry = usize::try_from(*k).ok().and_then(|k| s.report.get(k));
                let expected = code.unwrap_or(match entry {
                    None => VC_ERR_INVALID_INDEX,
                    Some(_) if *size > 0 && *null => VC_ERR_NULL_POINTER,
                    Some(e) => e.2.len() as c_int,
                });
                assert_eq!(status, expected, "{what}");
                let written = if status >= 0 && *size > 0 { (*size).min(status) as usize } else { 0 };
                assert!(
                    buf[written.min(4096)..].iter().all(|r| (r.id1, r.id2) == (-9, -9)),
                    "{what}: wrote past the pairs"
                );
            }
            _ => unreachable!(),
        }
    }
}
