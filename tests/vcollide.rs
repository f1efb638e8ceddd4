//! V-COLLIDE conformance and misuse tests.
//!
//! - `rust_engine_replays_the_scene`: every frame of `tests/data/vcollide_scene` (format in
//!   SCENE_FORMAT.md there) through [`rapidpqp::nbody::World`], compared with what V-COLLIDE
//!   2.01 reported (`vcollide_report.txt`); prints the agreeing frames and the time per frame.
//! - `c_api_replays_the_scene`: `c_tests/vcollide_scene.c`, compiled with the system C compiler
//!   against the header build.rs generated and linked with `librapidpqp.a`, does the same
//!   through the legacy `vc*` C API (plus its own misuse checks).
//! - `misuse_*`: the legacy C functions called directly from Rust on every row of VCOLLIDE.md
//!   §4.7 and on the bad input V-COLLIDE left undefined.
//!
//! Set `RAPIDPQP_VC_SCENE=/path/to/scene` to replay another scene folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

mod common;

use common::cbuild::{manifest_dir, report, static_link};
use rapidpqp::Triangle;
use rapidpqp::ffi::vcollide::*;
use rapidpqp::io::load_obj;
use rapidpqp::nbody::{ObjectId, Pose, World};

/// V-COLLIDE 2.01's frame loop on the public scene (NOTES.md): 1.14e-4 s per frame.
const VCOLLIDE_US_PER_FRAME: f64 = 114.0;

fn scene_dir() -> PathBuf {
    std::env::var_os("RAPIDPQP_VC_SCENE")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest_dir().join("tests/data/vcollide_scene"))
}

// ---------------------------------------------------------------------------------------------
// Scene reading (SCENE_FORMAT.md)

#[derive(Clone, Copy, Debug)]
enum SceneCommand {
    DeactivatePair(i32, i32),
    ActivatePair(i32, i32),
    Deactivate(i32),
    Activate(i32),
}

struct Frame {
    /// Commands applied just before this frame.
    commands: Vec<SceneCommand>,
    poses: Vec<Pose>,
}

struct Scene {
    objects: Vec<Vec<Triangle>>,
    frames: Vec<Frame>,
    /// Per frame, the pairs V-COLLIDE reported.
    expected: Vec<Vec<(i32, i32)>>,
}

fn words(line: &str) -> impl Iterator<Item = &str> {
    line.split([' ', '\t', '\r']).filter(|w| !w.is_empty())
}

fn load_scene(dir: &Path) -> Scene {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir.join("objects"))
        .unwrap_or_else(|e| panic!("cannot list {}/objects: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "obj"))
        .collect();
    // Byte-wise order of the file names.
    names.sort_by(|a, b| a.file_name().unwrap().as_encoded_bytes().cmp(b.file_name().unwrap().as_encoded_bytes()));
    let objects: Vec<Vec<Triangle>> = names.iter().map(|p| load_obj(p).unwrap().triangles()).collect();
    let n = objects.len();

    let text = std::fs::read_to_string(dir.join("frames.txt")).expect("frames.txt");
    let mut frames = Vec::new();
    let mut pending = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let w: Vec<&str> = words(line).collect();
        let Some(&first) = w.first() else { continue };
        if first.starts_with('#') {
            continue;
        }
        let int = |k: usize| -> i32 {
            w.get(k).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("frames.txt:{}: bad command", number + 1))
        };
        let command = match first {
            "deactivate_pair" => Some(SceneCommand::DeactivatePair(int(1), int(2))),
            "activate_pair" => Some(SceneCommand::ActivatePair(int(1), int(2))),
            "deactivate" => Some(SceneCommand::Deactivate(int(1))),
            "activate" => Some(SceneCommand::Activate(int(1))),
            _ => None,
        };
        if let Some(c) = command {
            pending.push(c);
            continue;
        }
        let numbers: Vec<f64> = w
            .iter()
            .map(|v| v.parse().unwrap_or_else(|_| panic!("frames.txt:{}: bad number {v:?}", number + 1)))
            .collect();
        assert_eq!(numbers.len(), 16 * n, "frames.txt:{}: 16 numbers per object", number + 1);
        let poses =
            numbers.chunks(16).map(|m| std::array::from_fn(|r| std::array::from_fn(|c| m[4 * r + c]))).collect();
        frames.push(Frame { commands: std::mem::take(&mut pending), poses });
    }

    let report = std::fs::read_to_string(dir.join("vcollide_report.txt")).expect("vcollide_report.txt");
    let expected: Vec<Vec<(i32, i32)>> = report
        .lines()
        .take(frames.len())
        .map(|line| {
            let v: Vec<i32> = words(line).map(|x| x.parse().expect("report number")).collect();
            assert_eq!(v.len(), 1 + 2 * v[0] as usize, "report line {line:?}");
            v[1..].chunks(2).map(|p| (p[0], p[1])).collect()
        })
        .collect();
    assert_eq!(expected.len(), frames.len(), "one report line per frame");
    Scene { objects, frames, expected }
}

// ---------------------------------------------------------------------------------------------
// The Rust engine

fn apply(world: &mut World, command: SceneCommand) {
    let id = |i: i32| i as ObjectId;
    let result = match command {
        SceneCommand::DeactivatePair(i, j) => world.deactivate_pair(id(i), id(j)),
        SceneCommand::ActivatePair(i, j) => world.activate_pair(id(i), id(j)),
        SceneCommand::Deactivate(i) => world.deactivate(id(i)),
        SceneCommand::Activate(i) => world.activate(id(i)),
    };
    result.unwrap_or_else(|e| panic!("{command:?}: {e}"));
}

#[test]
fn rust_engine_replays_the_scene() {
    let dir = scene_dir();
    let scene = load_scene(&dir);
    let setup = Instant::now();
    let mut world = World::new();
    for (i, tris) in scene.objects.iter().enumerate() {
        let ids = (0..tris.len() as i32).collect();
        assert_eq!(world.add_object(tris.clone(), ids).unwrap(), i as ObjectId);
    }
    let setup = setup.elapsed();

    let mut agreeing = 0;
    let mut loop_time = 0.0;
    let mut update_time = 0.0;
    let mut frame_times = Vec::new();
    let mut candidates = 0;
    let mut mismatches = Vec::new();
    for (f, frame) in scene.frames.iter().enumerate() {
        let start = Instant::now();
        for &c in &frame.commands {
            apply(&mut world, c);
        }
        for (i, pose) in frame.poses.iter().enumerate() {
            world.set_pose(i as ObjectId, pose).unwrap();
        }
        update_time += start.elapsed().as_secs_f64();
        let got: Vec<(i32, i32)> = world.collide(true).iter().map(|c| (c.id1 as i32, c.id2 as i32)).collect();
        let t = start.elapsed().as_secs_f64();
        loop_time += t;
        frame_times.push(t);
        candidates += world.candidates().count();
        world.validate().unwrap_or_else(|e| panic!("frame {f}: {e}"));
        if got == scene.expected[f] {
            agreeing += 1;
        } else {
            mismatches.push(format!("frame {f}: V-COLLIDE {:?}, rapidpqp {got:?}", scene.expected[f]));
        }
    }
    let frames = scene.frames.len();
    frame_times.sort_by(f64::total_cmp);
    println!(
        "{}: {} objects, {frames} frames\n  Rust engine: agreeing frames {agreeing} / {frames}\n  \
         frame loop (commands + updates + collide): mean {:.1} us per frame, median {:.1} us \
         -- V-COLLIDE 2.01: ~{VCOLLIDE_US_PER_FRAME:.0} us per frame\n  \
         commands + updates (sweep and prune): {:.1} us per frame (V-COLLIDE 2.01: ~1.5 us)\n  \
         broad phase: {:.1} candidate pairs per frame, {} swaps in all; setup {:.3} s",
        dir.display(),
        scene.objects.len(),
        1e6 * loop_time / frames as f64,
        1e6 * frame_times[frames / 2],
        1e6 * update_time / frames as f64,
        candidates as f64 / frames as f64,
        world.broad_phase_swaps(),
        setup.as_secs_f64(),
    );
    assert!(mismatches.is_empty(), "{} frames differ:\n{}", mismatches.len(), mismatches.join("\n"));
}

#[test]
fn rust_engine_matches_all_pairs_collide_on_the_scene() {
    // The broad phase must never drop a pair: compare with brute force on every 10th frame,
    // with all contacts (triangle pairs included).
    let scene = load_scene(&scene_dir());
    let mut world = World::new();
    for tris in &scene.objects {
        world.add_object(tris.clone(), (0..tris.len() as i32).collect()).unwrap();
    }
    for (f, frame) in scene.frames.iter().enumerate() {
        for &c in &frame.commands {
            apply(&mut world, c);
        }
        for (i, pose) in frame.poses.iter().enumerate() {
            world.set_pose(i as ObjectId, pose).unwrap();
        }
        if f % 10 == 0 {
            let all = world.collide(false).to_vec();
            assert_eq!(all, world.collide_brute_force(false), "frame {f}");
            let pairs: Vec<(i32, i32)> = all.iter().map(|c| (c.id1 as i32, c.id2 as i32)).collect();
            assert_eq!(pairs, scene.expected[f], "frame {f}, all contacts");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The C API, from C

/// Compiles `c_tests/<source>` (C99, all warnings as errors) against the header build.rs
/// generated for this build, linked with `librapidpqp.a`.
fn compile_c(source: &str, exe: &str) -> PathBuf {
    let lib = common::built_library("librapidpqp.a");
    let compiler = common::cbuild::compiler(false, "c99")
        .pic(true) // cc's default, as this program has always been built
        .include(env!("OUT_DIR"))
        .include(manifest_dir().join("c_tests"))
        .get_compiler()
        .to_command();
    common::cbuild::compile(compiler, source, exe, &static_link(&lib))
}

#[test]
fn c_api_replays_the_scene() {
    let exe = compile_c("vcollide_scene.c", "vcollide_scene");
    let output = Command::new(&exe).arg(scene_dir()).output().expect("run vcollide_scene");
    let report = report(&output);
    println!("{report}");
    assert!(output.status.success(), "vcollide_scene failed ({}):\n{report}", output.status);
}

// ---------------------------------------------------------------------------------------------
// Misuse, through the extern functions

const IDENTITY: [[f64; 4]; 4] =
    [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];

/// An open V-COLLIDE handle, closed on drop.
struct Handle(*mut std::ffi::c_void);

impl Handle {
    fn open() -> Handle {
        let h = vcOpen();
        assert!(!h.is_null());
        Handle(h)
    }
    fn new_object(&self) -> (i32, i32) {
        let mut id = -100;
        // SAFETY: live handle, writable int.
        let code = unsafe { vcNewObject(self.0, &mut id) };
        (code, id)
    }
    fn add_tri(&self, a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> i32 {
        // SAFETY: live handle, three readable corners.
        unsafe { vcAddTri(self.0, a.as_ptr().cast_mut(), b.as_ptr().cast_mut(), c.as_ptr().cast_mut()) }
    }
    fn end_object(&self) -> i32 {
        // SAFETY: live handle.
        unsafe { vcEndObject(self.0) }
    }
    /// A unit cube around `centre`'s model origin as a new object.
    fn add_cube(&self) -> i32 {
        let (code, id) = self.new_object();
        assert_eq!(code, VC_OK);
        let c = |i: usize| [[-0.5, 0.5][i & 1], [-0.5, 0.5][(i >> 1) & 1], [-0.5, 0.5][(i >> 2) & 1]];
        for q in common::CUBE_QUADS {
            assert_eq!(self.add_tri(c(q[0]), c(q[1]), c(q[2])), VC_OK);
            assert_eq!(self.add_tri(c(q[0]), c(q[2]), c(q[3])), VC_OK);
        }
        assert_eq!(self.end_object(), VC_OK);
        id
    }
    fn update(&self, id: i32, m: &[[f64; 4]; 4]) -> i32 {
        let mut m = *m;
        // SAFETY: live handle, 16 readable doubles.
        unsafe { vcUpdateTrans(self.0, id, m.as_mut_ptr()) }
    }
    fn collide(&self) -> i32 {
        // SAFETY: live handle.
        unsafe { vcCollide(self.0) }
    }
    fn report(&self) -> Vec<(i32, i32)> {
        // SAFETY: live handle; NULL with size 0.
        let total = unsafe { vcReport(self.0, 0, std::ptr::null_mut()) };
        assert!(total >= 0);
        let mut out = vec![VCReportType::default(); total as usize];
        // SAFETY: `total` writable elements.
        assert_eq!(unsafe { vcReport(self.0, total, out.as_mut_ptr()) }, total);
        out.iter().map(|p| (p.id1, p.id2)).collect()
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: made by vcOpen; closing twice is ignored.
        unsafe { vcClose(self.0) };
    }
}

fn translated(x: f64) -> [[f64; 4]; 4] {
    let mut m = IDENTITY;
    m[0][3] = x;
    m
}

#[test]
fn misuse_build_state_machine() {
    let h = Handle::open();
    let (p, q, r) = ([0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
    // AddTri / EndObject before any NewObject.
    assert_eq!(h.add_tri(p, q, r), VC_ERR_CALL_OUT_OF_SEQUENCE);
    assert_eq!(h.end_object(), VC_ERR_CALL_OUT_OF_SEQUENCE);
    // Collide on an empty engine.
    assert_eq!(h.collide(), VC_OK);
    assert_eq!(h.report(), vec![]);
    assert_eq!(h.add_cube(), 0);
    // AddTri / EndObject after EndObject.
    assert_eq!(h.add_tri(p, q, r), VC_ERR_CALL_OUT_OF_SEQUENCE);
    assert_eq!(h.end_object(), VC_ERR_CALL_OUT_OF_SEQUENCE);
    // EndObject right after NewObject: -3, object still open.
    assert_eq!(h.new_object(), (VC_OK, 1));
    assert_eq!(h.end_object(), VC_ERR_EMPTY_OBJECT);
    // NewObject while open: -2, *id not written.
    assert_eq!(h.new_object(), (VC_ERR_CALL_OUT_OF_SEQUENCE, -100));
    // Everything else while open: -2.
    assert_eq!(h.update(0, &IDENTITY), VC_ERR_CALL_OUT_OF_SEQUENCE);
    assert_eq!(h.collide(), VC_ERR_CALL_OUT_OF_SEQUENCE);
    // SAFETY (all blocks below): live handle.
    assert_eq!(unsafe { vcCollideAll(h.0) }, VC_ERR_CALL_OUT_OF_SEQUENCE);
    assert_eq!(unsafe { vcDeleteObject(h.0, 0) }, VC_ERR_CALL_OUT_OF_SEQUENCE);
    assert_eq!(unsafe { vcActivateObject(h.0, 0) }, VC_ERR_CALL_OUT_OF_SEQUENCE);
    assert_eq!(unsafe { vcDeactivateObject(h.0, 0) }, VC_ERR_CALL_OUT_OF_SEQUENCE);
    assert_eq!(unsafe { vcActivatePair(h.0, 0, 0) }, VC_ERR_CALL_OUT_OF_SEQUENCE);
    assert_eq!(unsafe { vcDeactivatePair(h.0, 0, 0) }, VC_ERR_CALL_OUT_OF_SEQUENCE);
    // Bad triangles are refused and leave the object empty.
    assert_eq!(h.add_tri(p, q, [f64::NAN, 0.0, 0.0]), VC_ERR_NON_FINITE);
    assert_eq!(h.add_tri(p, [f64::INFINITY, 0.0, 0.0], r), VC_ERR_NON_FINITE);
    // SAFETY: live handle; NULL corners are checked.
    assert_eq!(
        unsafe { vcAddTri(h.0, p.as_ptr().cast_mut(), std::ptr::null_mut(), r.as_ptr().cast_mut()) },
        VC_ERR_NULL_POINTER
    );
    assert_eq!(h.end_object(), VC_ERR_EMPTY_OBJECT);
    // The open object can still be completed; it gets the id NewObject gave.
    assert_eq!(h.add_tri(p, q, r), VC_OK);
    assert_eq!(h.end_object(), VC_OK);
    assert_eq!(h.update(1, &IDENTITY), VC_OK);
    // NewObject with a NULL out pointer starts nothing.
    // SAFETY: live handle; NULL is checked.
    assert_eq!(unsafe { vcNewObject(h.0, std::ptr::null_mut()) }, VC_ERR_NULL_POINTER);
    assert_eq!(h.add_tri(p, q, r), VC_ERR_CALL_OUT_OF_SEQUENCE);
    assert_eq!(h.new_object(), (VC_OK, 2));
}

#[test]
fn misuse_ids() {
    let h = Handle::open();
    assert_eq!(h.add_cube(), 0);
    assert_eq!(h.add_cube(), 1);
    // Never created (e.g. 4, 1000), negative, i32::MIN.
    for bad in [2, 4, 1000, -1, -5, i32::MIN, i32::MAX] {
        assert_eq!(h.update(bad, &IDENTITY), VC_ERR_INVALID_ID, "id {bad}");
        // SAFETY (block): live handle.
        unsafe {
            assert_eq!(vcActivateObject(h.0, bad), VC_ERR_INVALID_ID);
            assert_eq!(vcDeactivateObject(h.0, bad), VC_ERR_INVALID_ID);
            assert_eq!(vcActivatePair(h.0, 0, bad), VC_ERR_INVALID_ID);
            assert_eq!(vcDeactivatePair(h.0, bad, 0), VC_ERR_INVALID_ID);
            assert_eq!(vcDeactivatePair(h.0, bad, bad), VC_ERR_INVALID_ID);
            assert_eq!(vcDeleteObject(h.0, bad), VC_ERR_INVALID_ID);
        }
    }
    // Deleted id: -4 for every call naming it; delete twice → -4; ids never reused.
    // SAFETY (block): live handle.
    unsafe {
        assert_eq!(vcDeleteObject(h.0, 1), VC_OK);
        assert_eq!(vcDeleteObject(h.0, 1), VC_ERR_INVALID_ID);
        assert_eq!(h.update(1, &IDENTITY), VC_ERR_INVALID_ID);
        assert_eq!(vcActivatePair(h.0, 0, 1), VC_ERR_INVALID_ID);
        assert_eq!(vcDeactivatePair(h.0, 1, 0), VC_ERR_INVALID_ID);
        assert_eq!(vcDeactivateObject(h.0, 1), VC_ERR_INVALID_ID);
        assert_eq!(vcActivateObject(h.0, 1), VC_ERR_INVALID_ID);
    }
    assert_eq!(h.add_cube(), 2);
    assert_eq!(h.update(1, &IDENTITY), VC_ERR_INVALID_ID);
    // Pair (i, i): VC_OK, no effect.
    // SAFETY (block): live handle.
    unsafe {
        assert_eq!(vcDeactivatePair(h.0, 0, 0), VC_OK);
        assert_eq!(vcActivatePair(h.0, 2, 2), VC_OK);
    }
    assert_eq!(h.collide(), VC_OK);
    assert_eq!(h.report(), vec![(0, 2)]);
}

#[test]
fn misuse_transforms() {
    let h = Handle::open();
    assert_eq!(h.add_cube(), 0);
    assert_eq!(h.add_cube(), 1);
    assert_eq!(h.update(1, &translated(3.0)), VC_OK);
    assert_eq!(h.collide(), VC_OK);
    assert_eq!(h.report(), vec![]);
    // Each bad matrix is refused and the pose stays (the cubes would touch at x = 0.9).
    let mut bad = Vec::new();
    for (r, c) in [(0, 3), (1, 1), (2, 0), (2, 3)] {
        for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let mut m = translated(0.9);
            m[r][c] = v;
            bad.push((m, VC_ERR_NON_FINITE));
        }
    }
    let mut scaled = translated(0.9);
    scaled[0][0] = 2.0;
    scaled[1][1] = 2.0;
    scaled[2][2] = 2.0;
    bad.push((scaled, VC_ERR_NOT_RIGID));
    let mut sheared = translated(0.9);
    sheared[0][1] = 0.5;
    bad.push((sheared, VC_ERR_NOT_RIGID));
    for (m, code) in bad {
        assert_eq!(h.update(1, &m), code, "{m:?}");
        assert_eq!(h.collide(), VC_OK);
        assert_eq!(h.report(), vec![], "{m:?} changed the pose");
    }
    // SAFETY: live handle; NULL is checked.
    assert_eq!(unsafe { vcUpdateTrans(h.0, 1, std::ptr::null_mut()) }, VC_ERR_NULL_POINTER);
    // Row 3 is not read: junk there changes nothing.
    let mut junk = translated(0.9);
    junk[3] = [f64::NAN, 7.0, -1.0, 0.0];
    assert_eq!(h.update(1, &junk), VC_OK);
    assert_eq!(h.collide(), VC_OK);
    assert_eq!(h.report(), vec![(0, 1)]);
    // Touching faces count; a hair apart does not (VCOLLIDE.md §4.6).
    assert_eq!(h.update(1, &translated(1.0)), VC_OK);
    assert_eq!(h.collide(), VC_OK);
    assert_eq!(h.report(), vec![(0, 1)]);
    assert_eq!(h.update(1, &translated(1.0000001)), VC_OK);
    assert_eq!(h.collide(), VC_OK);
    assert_eq!(h.report(), vec![]);
    // The §5.6 probe: 0.34, then the next double below it; must not hang.
    assert_eq!(h.update(1, &translated(0.34)), VC_OK);
    assert_eq!(h.update(1, &translated(f64::from_bits(0.34f64.to_bits() - 1))), VC_OK);
    assert_eq!(h.update(0, &IDENTITY), VC_OK);
    assert_eq!(h.collide(), VC_OK);
    assert_eq!(h.report(), vec![(0, 1)]);
}

/// Found by the C API fuzz target (`tests/fuzz`): a pose with a reflection (accepted, as
/// documented) made the object collide with nothing, in `vcCollide` and `vcCollideAll` alike,
/// because the narrow phase ran the Rust API's checked `collide`, which refuses reflections,
/// and took the refusal for "no contact".
#[test]
fn reflected_objects_still_collide() {
    let h = Handle::open();
    assert_eq!(h.add_cube(), 0);
    assert_eq!(h.add_cube(), 1);
    for (name, diagonal) in [("x", [-1.0, 1.0, 1.0]), ("y", [1.0, -1.0, 1.0]), ("xyz", [-1.0, -1.0, -1.0])] {
        let mut m = translated(0.5);
        for k in 0..3 {
            m[k][k] = diagonal[k];
        }
        assert_eq!(h.update(1, &m), VC_OK, "mirror {name}");
        assert_eq!(h.collide(), VC_OK);
        assert_eq!(h.report(), vec![(0, 1)], "cubes overlapping by half, one mirrored in {name}");
        // SAFETY: live handle.
        assert_eq!(unsafe { vcCollideAll(h.0) }, VC_OK);
        assert_eq!(h.report(), vec![(0, 1)], "all contacts, mirror {name}");
        // SAFETY: live handle, report index 0 exists.
        assert!(unsafe { vcReportTriPairs(h.0, 0, 0, std::ptr::null_mut()) } > 0, "mirror {name}: triangle pairs");
        let mut far = m;
        far[0][3] = 3.0;
        assert_eq!(h.update(1, &far), VC_OK);
        assert_eq!(h.collide(), VC_OK);
        assert_eq!(h.report(), vec![], "mirror {name}, apart");
    }
}

/// Found by the C API fuzz target: an object whose coordinates reach beyond about 1.3e154 (up to
/// the documented 2^900) made `vcEndObject` fail with `VC_ERR` (a caught panic: the squared
/// radius of its bounding sphere overflowed, and the broad phase refused the infinite cube),
/// and one of subnormal size got a zero radius, so its cube could miss overlapping objects.
#[test]
fn huge_and_tiny_objects_are_accepted_and_collide() {
    for size in [1e160, 1e200, 2e270, 1e-200, 1e-310] {
        let h = Handle::open();
        for _ in 0..2 {
            let (code, _) = h.new_object();
            assert_eq!(code, VC_OK);
            let c =
                |i: usize| [[-0.5, 0.5][i & 1], [-0.5, 0.5][(i >> 1) & 1], [-0.5, 0.5][(i >> 2) & 1]].map(|x| x * size);
            for q in common::CUBE_QUADS {
                assert_eq!(h.add_tri(c(q[0]), c(q[1]), c(q[2])), VC_OK);
                assert_eq!(h.add_tri(c(q[0]), c(q[2]), c(q[3])), VC_OK);
            }
            assert_eq!(h.end_object(), VC_OK, "cube of size {size:e}");
        }
        let mut m = translated(0.0);
        // Overlapping by half: a pair; three sizes apart: none.
        m[0][3] = 0.5 * size;
        assert_eq!(h.update(1, &m), VC_OK);
        assert_eq!(h.collide(), VC_OK);
        assert_eq!(h.report(), vec![(0, 1)], "cubes of size {size:e} overlapping");
        m[0][3] = 3.0 * size;
        assert_eq!(h.update(1, &m), VC_OK);
        assert_eq!(h.collide(), VC_OK);
        assert_eq!(h.report(), vec![], "cubes of size {size:e} apart");
    }
}

#[test]
fn misuse_handles_and_reports() {
    // vcClose(NULL) is a no-op; NULL handle → VC_ERR_NULL_POINTER.
    // SAFETY (block): NULL and closed handles are checked.
    unsafe {
        vcClose(std::ptr::null_mut());
        let mut id = 0;
        assert_eq!(vcNewObject(std::ptr::null_mut(), &mut id), VC_ERR_NULL_POINTER);
        assert_eq!(vcCollide(std::ptr::null_mut()), VC_ERR_NULL_POINTER);
        assert_eq!(vcReport(std::ptr::null_mut(), 0, std::ptr::null_mut()), VC_ERR_NULL_POINTER);
    }
    let h = Handle::open();
    // Before any collide: 0 pairs.
    // SAFETY (block): live handle; pointers checked or valid.
    unsafe {
        assert_eq!(vcReport(h.0, 0, std::ptr::null_mut()), 0);
        assert_eq!(vcReport(h.0, 5, std::ptr::null_mut()), VC_ERR_NULL_POINTER);
        assert_eq!(vcReportTriPairs(h.0, 0, 0, std::ptr::null_mut()), VC_ERR_INVALID_INDEX);
    }
    for _ in 0..4 {
        h.add_cube();
    }
    assert_eq!(h.update(3, &translated(10.0)), VC_OK);
    assert_eq!(h.collide(), VC_OK);
    let expected = vec![(0, 1), (0, 2), (1, 2)];
    assert_eq!(h.report(), expected);
    // SAFETY (block): live handle; arrays sized as passed.
    unsafe {
        // size 0 / NULL → count; negative size writes nothing; a short array gets the first.
        assert_eq!(vcReport(h.0, 0, std::ptr::null_mut()), 3);
        let mut two = [VCReportType { id1: -9, id2: -9 }; 3];
        assert_eq!(vcReport(h.0, -1, two.as_mut_ptr()), 3);
        assert_eq!(two[0], VCReportType { id1: -9, id2: -9 });
        assert_eq!(vcReport(h.0, 2, two.as_mut_ptr()), 3);
        assert_eq!(
            two,
            [VCReportType { id1: 0, id2: 1 }, VCReportType { id1: 0, id2: 2 }, VCReportType { id1: -9, id2: -9 }]
        );
        // Not consumed: the same again.
        assert_eq!(vcReport(h.0, 3, two.as_mut_ptr()), 3);
        // First contact: no triangle pairs; out-of-range indices are refused.
        assert_eq!(vcReportTriPairs(h.0, 0, 0, std::ptr::null_mut()), 0);
        assert_eq!(vcReportTriPairs(h.0, 3, 0, std::ptr::null_mut()), VC_ERR_INVALID_INDEX);
        assert_eq!(vcReportTriPairs(h.0, -1, 0, std::ptr::null_mut()), VC_ERR_INVALID_INDEX);
        // All contacts: the same object pairs, with triangle pairs (ids = index in object).
        assert_eq!(vcCollideAll(h.0), VC_OK);
        assert_eq!(h.report(), expected);
        let n = vcReportTriPairs(h.0, 0, 0, std::ptr::null_mut());
        assert!(n > 0);
        assert_eq!(vcReportTriPairs(h.0, 0, 1, std::ptr::null_mut()), VC_ERR_NULL_POINTER);
        let mut tris = vec![VCReportType::default(); n as usize];
        assert_eq!(vcReportTriPairs(h.0, 0, n, tris.as_mut_ptr()), n);
        assert!(tris.iter().all(|t| (0..12).contains(&t.id1) && (0..12).contains(&t.id2)));
        // The report survives deletions and failed calls until the next collide.
        assert_eq!(vcDeleteObject(h.0, 1), VC_OK);
        assert_eq!(h.report(), expected);
        let mut id = 0;
        assert_eq!(vcNewObject(h.0, &mut id), VC_OK);
        assert_eq!(vcCollide(h.0), VC_ERR_CALL_OUT_OF_SEQUENCE);
        assert_eq!(h.report(), expected);
        assert_eq!(vcReportTriPairs(h.0, 0, 0, std::ptr::null_mut()), n);
    }
    // Closing twice is ignored; a closed handle is refused.
    let raw = h.0;
    drop(h);
    // SAFETY (block): closed handles are detected.
    unsafe {
        vcClose(raw);
        assert_eq!(vcCollide(raw), VC_ERR_INVALID_HANDLE);
        assert_eq!(vcReport(raw, 0, std::ptr::null_mut()), VC_ERR_INVALID_HANDLE);
        // A pointer vcOpen never returned is refused too.
        let mut not_a_handle = 0u64;
        assert_eq!(vcCollide((&raw mut not_a_handle).cast()), VC_ERR_INVALID_HANDLE);
    }
    assert!(!vcStatusMessage(VC_ERR_NOT_RIGID).is_null());
}

#[test]
fn misuse_activation_layers() {
    // VCOLLIDE.md §4.5: deactivate object 2, deactivate pair (0,2), activate object 2 →
    // pair (0,2) is still off.
    let h = Handle::open();
    for _ in 0..3 {
        h.add_cube();
    }
    // SAFETY (block): live handle.
    unsafe {
        assert_eq!(vcDeactivateObject(h.0, 2), VC_OK);
        assert_eq!(h.collide(), VC_OK);
        assert_eq!(h.report(), vec![(0, 1)]);
        assert_eq!(vcDeactivatePair(h.0, 2, 0), VC_OK);
        assert_eq!(vcDeactivatePair(h.0, 0, 2), VC_OK);
        assert_eq!(vcActivateObject(h.0, 2), VC_OK);
        assert_eq!(h.collide(), VC_OK);
        assert_eq!(h.report(), vec![(0, 1), (1, 2)]);
        assert_eq!(vcActivatePair(h.0, 1, 0), VC_OK); // never disabled: no effect
        assert_eq!(vcActivatePair(h.0, 2, 0), VC_OK);
        assert_eq!(h.collide(), VC_OK);
        assert_eq!(h.report(), vec![(0, 1), (0, 2), (1, 2)]);
    }
}

#[test]
fn handles_are_independent_across_threads() {
    let counts: BTreeMap<usize, Vec<(i32, i32)>> = std::thread::scope(|s| {
        let jobs: Vec<_> = (0..3usize)
            .map(|k| {
                s.spawn(move || {
                    let h = Handle::open();
                    for _ in 0..=k {
                        h.add_cube();
                    }
                    for _ in 0..50 {
                        assert_eq!(h.collide(), VC_OK);
                    }
                    (k, h.report())
                })
            })
            .collect();
        jobs.into_iter().map(|j| j.join().unwrap()).collect()
    });
    assert_eq!(counts[&0], vec![]);
    assert_eq!(counts[&1], vec![(0, 1)]);
    assert_eq!(counts[&2], vec![(0, 1), (0, 2), (1, 2)]);
}

/// Issue 25 item 6: a finite vertex beyond 2^900 (the n-body range) is refused by the
/// `vcAddTri` that gives it, with `VC_ERR_OUT_OF_RANGE`, and nothing else is lost: the object
/// keeps its other triangles and ends normally. It used to be accepted, after which
/// `vcEndObject` failed with `VC_ERR_NON_FINITE` ("NaN or infinite") and dropped the whole
/// object. A translation beyond 2^900 is refused by `vcUpdateTrans` with the same code.
#[test]
fn coordinates_beyond_the_range_are_refused_when_given() {
    let h = Handle::open();
    let (code, id) = h.new_object();
    assert_eq!(code, VC_OK);
    let ok = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    assert_eq!(h.add_tri(ok[0], ok[1], ok[2]), VC_OK);
    let range = 2f64.powi(900);
    for far in [2f64.powi(901), 1e300, -1e300, f64::MAX] {
        assert_eq!(h.add_tri([0.0, 0.0, far], ok[1], ok[2]), VC_ERR_OUT_OF_RANGE, "{far:e}");
        assert_eq!(h.add_tri(ok[0], [far, 0.0, 0.0], ok[2]), VC_ERR_OUT_OF_RANGE, "{far:e}");
    }
    assert_eq!(h.add_tri([f64::NAN, 0.0, 0.0], ok[1], ok[2]), VC_ERR_NON_FINITE);
    assert_eq!(h.add_tri([f64::INFINITY, 0.0, 0.0], ok[1], ok[2]), VC_ERR_NON_FINITE);
    // At the limit itself: accepted.
    assert_eq!(h.add_tri([range, 0.0, 0.0], [range, 1.0, 0.0], [range, 0.0, 1.0]), VC_OK);
    // SAFETY: a live handle; the vertices are 3 readable doubles each.
    unsafe {
        let far = [1e300, 0.0, 0.0];
        assert_eq!(vcAddTriWithId(h.0, far.as_ptr(), ok[1].as_ptr(), ok[2].as_ptr(), 7), VC_ERR_OUT_OF_RANGE);
    }
    assert_eq!(h.end_object(), VC_OK, "the object keeps its two good triangles");
    h.add_cube();
    // Poses: a translation beyond 2^900 is out of range (the pose is kept); NaN is non-finite.
    let mut m = translated(0.25);
    assert_eq!(h.update(id, &m), VC_OK);
    for far in [1e300, -2f64.powi(901)] {
        let mut bad = translated(0.0);
        bad[1][3] = far;
        assert_eq!(h.update(id, &bad), VC_ERR_OUT_OF_RANGE, "{far:e}");
    }
    m[2][3] = f64::NAN;
    assert_eq!(h.update(id, &m), VC_ERR_NON_FINITE);
    // Nothing was lost: the object, at its last good pose, touches the cube.
    assert_eq!(h.collide(), VC_OK);
    assert_eq!(h.report(), vec![(0, 1)]);
}
