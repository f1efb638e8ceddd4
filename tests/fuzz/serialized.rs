//! The serialized model format (`model_from_bytes`, `rpq_model_deserialize`) on mutated
//! serializations of generated models.
//!
//! Mutations: bit flips, byte writes, truncation, extension, splices from another model's
//! bytes, size fields that lie (triangle and pair counts), and structured writes of edge
//! values (NaN, infinities, negative, huge and tiny numbers, child and leaf words out of
//! range) into chosen fields of the triangles, ids and packed nodes; and half the time the
//! checksum is recomputed afterwards ("valid-checksum corruptions", which only the structural
//! checks can catch).
//!
//! Invariants: loading never panics, hangs or allocates much more than the input's size
//! (every allocation during a load is watched by a counting allocator); the Rust and C loaders
//! agree; a corruption without a recomputed checksum is always refused; a loaded model passes
//! `check_packed()` (the documented linear checks), serializes back to the same bytes, and
//! can be queried (collide, distance, tolerance, from Rust and through the C API) without
//! a panic or an error; `model_from_bytes_validated` accepts it only if `validate()` does.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rapidpqp::ffi::native::*;
use rapidpqp::ffi::serialize::rpq_model_deserialize;
use rapidpqp::query::{CollideRequest, CollideResult, DistanceRequest, collide, distance, tolerance};
use rapidpqp::serialize::{checksum, model_from_bytes, model_from_bytes_validated, model_to_bytes};
use rapidpqp::{Model, Placement, Triangle};

use crate::Target;
use crate::draw::{self, Rng};

/// The system allocator, recording the largest single request while `WATCH` is set.
struct Counting;

static WATCH: AtomicBool = AtomicBool::new(false);
static LARGEST: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if WATCH.load(Ordering::Relaxed) {
            LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        }
        // SAFETY: forwarded.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if WATCH.load(Ordering::Relaxed) {
            LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        }
        // SAFETY: forwarded.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if WATCH.load(Ordering::Relaxed) {
            LARGEST.fetch_max(new_size, Ordering::Relaxed);
        }
        // SAFETY: forwarded.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and returns the largest single allocation it made (this target runs alone in its
/// process, on one thread, so nothing else allocates meanwhile but the loader's helper).
fn largest_allocation<R>(f: impl FnOnce() -> R) -> (R, usize) {
    LARGEST.store(0, Ordering::Relaxed);
    WATCH.store(true, Ordering::Relaxed);
    let r = f();
    WATCH.store(false, Ordering::Relaxed);
    (r, LARGEST.load(Ordering::Relaxed))
}

pub struct Serialized;

/// Refused, loaded unchanged, loaded after a valid-checksum corruption.
static COUNT: crate::Counters<3> = crate::Counters::new();

#[derive(Clone, Debug)]
pub enum Mutation {
    FlipBit(usize, u8),
    SetByte(usize, u8),
    Truncate(usize),
    Extend(Vec<u8>),
    /// Copies `len` bytes of the other model's serialization from `from` over `to`.
    Splice {
        from: usize,
        to: usize,
        len: usize,
    },
    /// Replaces everything after `at` with the other model's bytes after `from`.
    Tail {
        at: usize,
        from: usize,
    },
    /// Writes the triangle count (`pairs` false) or the pair count.
    Count {
        pairs: bool,
        value: u64,
    },
    /// Writes bytes at a field's offset.
    Field {
        at: usize,
        bytes: Vec<u8>,
    },
}

#[derive(Clone, Debug)]
pub struct SerializedInput {
    pub model: Vec<Triangle>,
    pub ids: Vec<i32>,
    pub other: Vec<Triangle>,
    pub mutations: Vec<Mutation>,
    pub reseal: bool,
}

const HEADER: usize = 32;

/// Offset of a field chosen at random among the structured ones of a model of `n` triangles.
fn field(rng: &mut Rng, n: usize) -> (usize, Vec<u8>) {
    let f32b = |v: f32| v.to_le_bytes().to_vec();
    let pairs = HEADER + 76 * n;
    match rng.below(5) {
        0 => {
            // A vertex coordinate.
            let at = HEADER + 8 * rng.index(9 * n);
            let v = rng.pick(&[f64::NAN, f64::INFINITY, 1e300, -1e300, 2f64.powi(1001), 5e-324, 0.0, 1e6, -1e6]);
            (at, v.to_le_bytes().to_vec())
        }
        1 => (HEADER + 72 * n + 4 * rng.index(n), rng.int().to_le_bytes().to_vec()),
        2 => {
            // A child/leaf word: the last two words of the pair.
            let at = pairs + 192 * rng.index(n) + 4 * (46 + rng.index(2));
            let w: u32 = match rng.below(5) {
                0 => rng.next() as u32,
                1 => (1 << 31) | rng.below(2 * n as u64 + 2) as u32,
                2 => rng.below(2 * n as u64 + 2) as u32,
                3 => rng.pick(&[0, 1, 2, u32::MAX, 1 << 31, (1 << 31) - 1]),
                _ => (1 << 31) | (rng.next() as u32),
            };
            (at, w.to_le_bytes().to_vec())
        }
        _ => {
            // A packed f32 of some node.
            let at = pairs + 192 * rng.index(n) + 4 * rng.index(46);
            let v = rng.pick(&[f32::NAN, f32::INFINITY, -1.0, 0.0, -0.0, 1e30, 1e-30, 2.0, 0.5, f32::MAX, -1e-3]);
            (at, f32b(v))
        }
    }
}

fn mutation(rng: &mut Rng, len: usize, other_len: usize, n: usize) -> Mutation {
    match rng.below(12) {
        0..=1 => Mutation::FlipBit(rng.index(len), rng.below(8) as u8),
        2 => Mutation::SetByte(rng.index(len), rng.next() as u8),
        3 => Mutation::Truncate(rng.index(len)),
        4 => Mutation::Extend((0..1 + rng.index(300)).map(|_| rng.next() as u8).collect()),
        5 => Mutation::Splice { from: rng.index(other_len), to: rng.index(len), len: 1 + rng.index(200) },
        6 => Mutation::Tail { at: rng.index(len), from: rng.index(other_len) },
        7 => {
            let value = rng.pick(&[
                0,
                1,
                n as u64 + 1,
                n.saturating_sub(1) as u64,
                u64::MAX,
                (1 << 31) - 1,
                1 << 31,
                1 << 40,
                u64::MAX / 268,
                2 * n as u64,
            ]);
            Mutation::Count { pairs: rng.one_in(2), value }
        }
        _ => {
            let (at, bytes) = field(rng, n);
            Mutation::Field { at, bytes }
        }
    }
}

fn apply(bytes: &mut Vec<u8>, other: &[u8], m: &Mutation) {
    let len = bytes.len();
    match m {
        Mutation::FlipBit(at, bit) if *at < len => bytes[*at] ^= 1 << bit,
        Mutation::SetByte(at, v) if *at < len => bytes[*at] = *v,
        Mutation::Truncate(at) => bytes.truncate(*at),
        Mutation::Extend(more) => bytes.extend_from_slice(more),
        Mutation::Splice { from, to, len: n } => {
            for k in 0..*n {
                if let (Some(&b), true) = (other.get(from + k), to + k < len) {
                    bytes[to + k] = b;
                }
            }
        }
        Mutation::Tail { at, from } => {
            bytes.truncate(*at);
            bytes.extend_from_slice(other.get(*from..).unwrap_or_default());
        }
        Mutation::Count { pairs, value } => {
            let at = if *pairs { 24 } else { 16 };
            if at + 8 <= len {
                bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
            }
        }
        Mutation::Field { at, bytes: b } if at + b.len() <= len => bytes[*at..at + b.len()].copy_from_slice(b),
        _ => {}
    }
}

fn reseal(bytes: &mut [u8]) {
    if bytes.len() >= 8 {
        let body = bytes.len() - 8;
        let sum = checksum(&bytes[..body]);
        bytes[body..].copy_from_slice(&sum.to_le_bytes());
    }
}

/// Triangles that stay out of the extreme styles' way in most cases (all styles are drawn,
/// and a model that cannot be built is replaced by one triangle).
fn model(rng: &mut Rng) -> Vec<Triangle> {
    let style = draw::style(rng);
    let mut tris = draw::triangles(rng, style);
    if rng.one_in(4) {
        // Bigger trees: more inner nodes to corrupt.
        for _ in 0..3 {
            tris.extend(draw::triangles(rng, draw::Style::Random));
        }
    }
    tris
}

impl Target for Serialized {
    type Input = SerializedInput;
    const NAME: &'static str = "serialized_models";
    const SHORT_CASES: u64 = 8000;

    fn generate(rng: &mut Rng) -> SerializedInput {
        let tris = model(rng);
        let ids = tris.iter().map(|_| rng.int()).collect();
        let other = model(rng);
        let (n, len) = (tris.len(), 40 + 268 * tris.len());
        let other_len = 40 + 268 * other.len();
        let count = match rng.below(4) {
            0 => 0,
            1 => 1,
            _ => 1 + rng.index(4),
        };
        let mutations = (0..count).map(|_| mutation(rng, len, other_len, n)).collect();
        SerializedInput { model: tris, ids, other, mutations, reseal: rng.one_in(2) }
    }

    fn run(input: &SerializedInput) {
        let Ok(original) = Model::new(input.model.clone(), input.ids.clone()) else {
            return; // a generated model out of range: nothing to serialize
        };
        let clean = model_to_bytes(&original);
        assert!(model_from_bytes(&clean).is_ok(), "a built model's own bytes are refused");
        let other = Model::new(input.other.clone(), (0..input.other.len() as i32).collect())
            .map(|m| model_to_bytes(&m))
            .unwrap_or_default();
        let mut bytes = clean.clone();
        for m in &input.mutations {
            apply(&mut bytes, &other, m);
        }
        if input.reseal {
            reseal(&mut bytes);
        }
        let changed = bytes != clean;
        let (loaded, largest) = largest_allocation(|| model_from_bytes(&bytes));
        // The loader allocates the model (268 bytes a triangle, less than the input) and small
        // things: never a size the header alone decided.
        assert!(largest <= 2 * bytes.len() + 4096, "a load of {} bytes allocated {largest} at once", bytes.len());

        let mut out: *mut RpqModel = std::ptr::dangling_mut();
        // SAFETY: a readable buffer of its length and a writable out pointer.
        let status = unsafe { rpq_model_deserialize(bytes.as_ptr(), bytes.len(), &mut out) };
        match &loaded {
            Ok(_) => assert_eq!(status, RPQ_OK, "the C loader refused what the Rust loader took"),
            Err(_) => {
                assert_eq!(status, RPQ_ERR_INVALID_ARGUMENT, "the C loader's status for refused bytes");
                assert_eq!(out, std::ptr::dangling_mut(), "out_model written on error");
            }
        }
        let Ok(model) = loaded else {
            COUNT.add(0);
            return;
        };
        COUNT.add(if changed { 2 } else { 1 });
        // (A mutation can rebuild a valid checksum by itself: a tail spliced from the other
        // model's bytes of the same length is that model's serialization.)
        let sealed = bytes.len() >= 8 && {
            let body = bytes.len() - 8;
            bytes[body..] == checksum(&bytes[..body]).to_le_bytes()
        };
        assert!(sealed, "bytes with a wrong checksum were accepted");
        if !input.reseal && changed {
            assert!(bytes == other, "a corruption without a recomputed checksum was accepted");
        }
        model.check_packed().unwrap_or_else(|e| panic!("a loaded model fails check_packed(): {e}"));
        assert_eq!(model_to_bytes(&model), bytes, "a loaded model serializes to other bytes");
        match model_from_bytes_validated(&bytes) {
            Ok(m) => m.validate().expect("validated load"),
            Err(_) => assert!(model.validate().is_err(), "the validated load refused a model that validates"),
        }
        if !changed {
            model.validate().expect("an unchanged model validates");
        }
        // Queries run on whatever was loaded (their answers may be wrong for forged bytes).
        let poses = [
            Placement::IDENTITY,
            Placement::from_rows(&[[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]], &[0.25, -0.5, 0.0], 1.0),
        ];
        for p in &poses {
            let mut r = CollideResult::new();
            let ok = collide(&model, &Placement::IDENTITY, &original, p, &CollideRequest::default(), &mut r).is_ok();
            let range_ok =
                collide(&original, &Placement::IDENTITY, &original, p, &CollideRequest::default(), &mut r).is_ok();
            assert_eq!(ok, range_ok, "collide on a loaded model refused where the original was not");
            let request = DistanceRequest { rel_err: 0.0, abs_err: 0.0, qsize: 2 };
            if range_ok {
                distance(&model, &Placement::IDENTITY, &original, p, &request, None).expect("distance");
                distance(&original, p, &model, &Placement::IDENTITY, &DistanceRequest { qsize: 10, ..request }, None)
                    .expect("distance, best first");
                tolerance(&model, &Placement::IDENTITY, &original, p, 0.1, 2, None).expect("tolerance");
            }
        }
        // And through the C API.
        let pose =
            RpqPose { rotation: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], translation: [0.0; 3], scale: 1.0 };
        // SAFETY: `out` is a live model; the result handle is fresh; outputs are writable.
        unsafe {
            let result = rpq_collide_result_new();
            let status = rpq_collide(out, &pose, out, &pose, std::ptr::null(), result);
            assert!(status == RPQ_OK || status == RPQ_ERR_OUT_OF_RANGE, "rpq_collide on a loaded model: {status}");
            let mut d = RpqDistanceResult::default();
            let status = rpq_distance(out, &pose, out, &pose, std::ptr::null(), std::ptr::null_mut(), &mut d);
            assert!(status == RPQ_OK || status == RPQ_ERR_OUT_OF_RANGE, "rpq_distance on a loaded model: {status}");
            assert_eq!(rpq_model_num_triangles(out), model.num_triangles());
            rpq_collide_result_free(result);
            rpq_model_free(out);
        }
    }

    fn stats() -> String {
        format!(
            " ({} refused, {} loaded unchanged, {} loaded after a corruption with a valid checksum)",
            COUNT.get(0),
            COUNT.get(1),
            COUNT.get(2)
        )
    }

    fn shrink(input: &SerializedInput) -> Vec<SerializedInput> {
        let mut out = Vec::new();
        for i in 0..input.mutations.len() {
            let mut fewer = input.clone();
            fewer.mutations.remove(i);
            out.push(fewer);
        }
        if input.reseal {
            out.push(SerializedInput { reseal: false, ..input.clone() });
        }
        for i in 0..input.model.len() {
            if input.model.len() > 1 {
                let mut fewer = input.clone();
                fewer.model.remove(i);
                fewer.ids.remove(i);
                out.push(fewer);
            }
        }
        if input.other.len() > 1 {
            let mut fewer = input.clone();
            fewer.other.truncate(1);
            out.push(fewer);
        }
        out
    }
}
