//! Collide-query profile driver: `cargo run --release --features capi --example collide_profile -- FIXTURE [REPEATS]`
//! runs every pose of a conformance fixture (all contacts, default request) REPEATS times;
//! `-- memory MESH.obj` prints the built model's bytes per triangle; a third argument `rapid`
//! runs the native query in RAPID's frame, `rapid-c` goes through `RAPID_Collide` (models built
//! with `RAPID_AddTri`). For callgrind:
//! `cargo build --profile release-with-debug --features capi --example collide_profile`, then
//! `valgrind --tool=callgrind --toggle-collect='*traverse*' target/release-with-debug/examples/collide_profile tori 1`
//! (the release profile strips symbols; this one keeps them and line tables).

use rapidpqp::query::{CollideRequest, CollideResult, collide};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args[1] == "memory" {
        let tris = rapidpqp::io::load_obj(&args[2]).unwrap().triangles();
        let n = tris.len();
        let m = rapidpqp::Model::new(tris, (0..n as i32).collect()).unwrap();
        let b = m.memory_bytes();
        println!(
            "{n} triangles, {b} bytes, {:.1} bytes/triangle, {} serialized",
            b as f64 / n as f64,
            rapidpqp::serialize::model_to_bytes(&m).len()
        );
        return;
    }
    let case = Case::load(&args[1]);
    let repeats: usize = args.get(2).map_or(1, |r| r.parse().unwrap());
    if args.get(3).map(String::as_str) == Some("rapid-c") {
        return rapid_c(&case, repeats);
    }
    let mut out = CollideResult::new();
    // A third argument `rapid`: RAPID's frame (model 1's triangles moved into model 2's).
    let frame = match args.get(3).map(String::as_str) {
        Some("rapid") => rapidpqp::query::TriangleFrame::Model2,
        _ => rapidpqp::query::TriangleFrame::Model1,
    };
    let request = CollideRequest { frame, ..CollideRequest::default() };
    let (mut pairs, mut bv, mut tri) = (0usize, 0u64, 0u64);
    let t = std::time::Instant::now();
    for _ in 0..repeats {
        for (p1, p2) in &case.poses {
            collide(&case.a, p1, &case.b, p2, &request, &mut out).unwrap();
            pairs += out.pairs.len();
            bv += out.bv_tests;
            tri += out.tri_tests;
        }
    }
    let q = (repeats * case.poses.len()) as f64;
    println!(
        "{}: {} queries, {:.2} us/query, pairs {pairs} bv {bv} tri {tri}",
        case.name,
        q,
        t.elapsed().as_secs_f64() * 1e6 / q
    );
}

/// A conformance fixture (tests/data/conformance/FORMAT.md): both models and the poses.
struct Case {
    name: String,
    a: rapidpqp::Model,
    b: rapidpqp::Model,
    poses: Vec<(rapidpqp::Placement, rapidpqp::Placement)>,
}

impl Case {
    fn load(name: &str) -> Case {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance").join(name);
        let model = |f: &str| {
            let tris = rapidpqp::io::load_obj(dir.join(f)).unwrap().triangles();
            let n = tris.len() as i32;
            rapidpqp::Model::new(tris, (0..n).collect()).unwrap()
        };
        let poses = std::fs::read_to_string(dir.join("poses.txt"))
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let v: Vec<f64> = l.split_whitespace().map(|w| w.parse().unwrap()).collect();
                let p = |o: usize| {
                    rapidpqp::Placement::from_rows(
                        &[[v[o], v[o + 1], v[o + 2]], [v[o + 3], v[o + 4], v[o + 5]], [v[o + 6], v[o + 7], v[o + 8]]],
                        &[v[o + 9], v[o + 10], v[o + 11]],
                        v[o + 12],
                    )
                };
                (p(0), p(13))
            })
            .collect();
        Case { name: name.to_string(), a: model("a.obj"), b: model("b.obj"), poses }
    }
}

/// Every pose through the legacy C function `RAPID_Collide` (all contacts).
fn rapid_c(case: &Case, repeats: usize) {
    use rapidpqp::ffi::rapid::*;
    let build = |m: &rapidpqp::Model| {
        // SAFETY: a fresh handle; 3 readable doubles per point.
        unsafe {
            let h = RAPID_model_new();
            RAPID_BeginModel(h);
            for (t, &id) in m.triangles().iter().zip(m.ids()) {
                let v = t.map(|p| [p.x, p.y, p.z]);
                RAPID_AddTri(h, v[0].as_ptr(), v[1].as_ptr(), v[2].as_ptr(), id);
            }
            assert_eq!(RAPID_EndModel(h), RAPID_OK);
            h
        }
    };
    let (ha, hb) = (build(&case.a), build(&case.b));
    let rows = |m: &rapidpqp::Mat3| -> [[f64; 3]; 3] { std::array::from_fn(|i| std::array::from_fn(|j| m[(i, j)])) };
    let (mut pairs, mut bv, mut tri) = (0usize, 0u64, 0u64);
    let t = std::time::Instant::now();
    for _ in 0..repeats {
        for (p1, p2) in &case.poses {
            let (mut r1, mut r2) = (rows(&p1.rotation), rows(&p2.rotation));
            let (mut t1, mut t2): ([f64; 3], [f64; 3]) = (p1.translation.into(), p2.translation.into());
            // SAFETY: live models, 9 and 3 doubles; the globals are read on this thread.
            unsafe {
                let rc = RAPID_Collide(
                    r1.as_mut_ptr(),
                    t1.as_mut_ptr(),
                    ha,
                    r2.as_mut_ptr(),
                    t2.as_mut_ptr(),
                    hb,
                    RAPID_ALL_CONTACTS,
                );
                assert_eq!(rc, RAPID_OK);
                pairs += RAPID_num_contacts as usize;
                bv += RAPID_num_box_tests as u64;
                tri += RAPID_num_tri_tests as u64;
            }
        }
    }
    let q = (repeats * case.poses.len()) as f64;
    println!(
        "{} via RAPID_Collide: {} queries, {:.2} us/query, pairs {pairs} bv {bv} tri {tri}",
        case.name,
        q,
        t.elapsed().as_secs_f64() * 1e6 / q
    );
}
