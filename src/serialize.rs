//! A built model as bytes: the hierarchy is stored as the queries read it, so a model can be
//! saved or sent to another process and loaded in time linear in its size, without refitting.
//!
//! Layout (version 3), every number little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `RPQMODEL` |
//! | 4 | format version (`u32`, [`FORMAT_VERSION`]) |
//! | 4 | reserved (`u32`, 0) |
//! | 8 | `n`, the number of triangles (`u64`) |
//! | 8 | the number of packed node pairs (`u64`, `n`) |
//! | 72 `n` | triangles in leaf order: 9 `f64` each (`x y z` of the three corners) |
//! | 4 `n` | caller ids (`i32`), parallel to the triangles |
//! | 192 `n` | the packed node pairs, 48 32-bit words each, see below |
//! | 8 | checksum (`u64`) of every byte before it, see [`checksum`] |
//!
//! A node pair is two sibling nodes (node `i` in pair `(i + 1) / 2`, lane `(i + 1) % 2`;
//! pair 0 holds the root in both lanes), each number as lane 0 then lane 1, all `f32` in the
//! model's packed frame (the bounding box of the vertices, recomputed on load) but the last
//! two words: the bounding sphere (centre `x y z`, radius: 8 words), the box by coordinate
//! rows (`row k = axis0[k] axis1[k] axis2[k] centre[k]`, rows 0–2: 24 words), the
//! half-extents (6), the swept-sphere rectangle (offsets along axes 1 and 2, half-lengths:
//! 8) and the child/leaf words (`u32`: 2), as in memory.
//!
//! # What loading checks, and what a crafted input can do
//!
//! Loading checks, in one pass linear in the size: the length against the header (before
//! allocating anything, so a header cannot make it allocate more than the input's size), the
//! checksum, the magic number, the version, that every coordinate is finite, and everything
//! [`Model::check_packed`] lists: the tree's structure (every node reached once from the
//! root, children in the pairs the queries index, every triangle in exactly one leaf), every
//! packed number finite, extents not negative, box axes orthonormal, and every leaf's volumes
//! holding its triangle. A truncated or corrupted input is refused with an error and nothing
//! is built.
//!
//! The checksum detects accidents (every single-bit error, and any other with probability
//! 1 − 2⁻⁶⁴), not forgery: anyone can compute it. What a linear pass cannot prove is that an
//! inner node's volumes hold every vertex below it. So a deliberately crafted input with a
//! valid checksum and structure can make queries on the loaded model give wrong answers
//! (contacts missed, distances too large), as a wrong mesh would; it cannot make the library
//! read or write out of bounds, panic, loop forever or allocate beyond what the input's size
//! and the query's answers need. A caller that loads untrusted bytes and needs the answers
//! right calls [`model_from_bytes_validated`] (or [`Model::validate`]), which also checks
//! containment, in time proportional to `n` times the tree's depth.
//!
//! Versions 1 and 2 (which stored `f64` swept spheres and refitted every box on load) are
//! refused with an error that says so: rebuild the model from its triangles.

use std::mem::MaybeUninit;

use crate::bv::obb::NodePair;
use crate::math::{Triangle, Vec3};
use crate::model::{Model, pair_from_words, pair_words};

/// The first eight bytes of every serialized model.
pub const MAGIC: [u8; 8] = *b"RPQMODEL";
/// The layout version written, and the only one read.
pub const FORMAT_VERSION: u32 = 3;

const HEADER_BYTES: usize = 32;
const TRAILER_BYTES: usize = 8;
const TRIANGLE_BYTES: usize = 9 * 8;
const ID_BYTES: usize = 4;
/// 32-bit words of a packed node pair.
const PAIR_WORDS: usize = 48;
const PAIR_BYTES: usize = PAIR_WORDS * 4;
/// One more than the largest triangle count a model can hold (the leaf bit of a node).
const TRIANGLE_LIMIT: u64 = (1 << 31) - 1;

const _: () = assert!(std::mem::size_of::<NodePair>() == PAIR_BYTES);

/// Bytes [`model_to_bytes`] writes for `model`.
pub fn serialized_size(model: &Model) -> usize {
    let n = model.num_triangles();
    HEADER_BYTES + n * (TRIANGLE_BYTES + ID_BYTES + PAIR_BYTES) + TRAILER_BYTES
}

/// Checksum of the format: four interleaved lanes over 8-byte little-endian words (word `k`
/// to lane `k mod 4`; a shorter tail is zero-padded), each step `h = (h ^ w) · P` then
/// `h ^= h >> 29` (both invertible, so a change in one word always changes its lane), the
/// lanes then folded the same way with the length. Four lanes keep four multiplications in
/// flight: about 1 cycle a word.
pub fn checksum(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    #[inline(always)]
    fn mix(h: u64, word: u64) -> u64 {
        let h = (h ^ word).wrapping_mul(PRIME);
        h ^ (h >> 29)
    }
    let word = |w: &[u8]| {
        let mut b = [0u8; 8];
        b[..w.len()].copy_from_slice(w);
        u64::from_le_bytes(b)
    };
    let mut lanes = [OFFSET, OFFSET ^ 1, OFFSET ^ 2, OFFSET ^ 3];
    let mut blocks = bytes.chunks_exact(32);
    for block in &mut blocks {
        for (l, w) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            *l = mix(*l, word(w));
        }
    }
    for (l, w) in lanes.iter_mut().zip(blocks.remainder().chunks(8)) {
        *l = mix(*l, word(w));
    }
    let folded = lanes.iter().fold(OFFSET, |h, &l| mix(h, l));
    mix(folded, bytes.len() as u64)
}

/// The model, its hierarchy included, as bytes (see the module documentation).
pub fn model_to_bytes(model: &Model) -> Vec<u8> {
    let n = model.num_triangles();
    let mut out = Vec::with_capacity(serialized_size(model));
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(n as u64).to_le_bytes());
    out.extend_from_slice(&(model.collide_slots().len() as u64).to_le_bytes());
    for t in model.triangles() {
        for p in t {
            for k in 0..3 {
                out.extend_from_slice(&p[k].to_le_bytes());
            }
        }
    }
    for id in model.ids() {
        out.extend_from_slice(&id.to_le_bytes());
    }
    for pair in model.collide_slots() {
        for w in pair_words(pair) {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    debug_assert_eq!(out.len(), serialized_size(model));
    out
}

/// A model from bytes written by [`model_to_bytes`]; an error names what is wrong when the
/// bytes are truncated, corrupted, of another format version or not a model at all. The
/// checks are linear in the size (see the module documentation for what they leave out).
pub fn model_from_bytes(bytes: &[u8]) -> Result<Model, String> {
    let n = check_header(bytes)?;
    let body = &bytes[HEADER_BYTES..bytes.len() - TRAILER_BYTES];
    let (tri_bytes, rest) = body.split_at(n * TRIANGLE_BYTES);
    let (id_bytes, pair_bytes) = rest.split_at(n * ID_BYTES);
    // Loading is mostly writing fresh memory (the kernel's page faults: about 0.25 s for the
    // 536 MB of 2M triangles on the project's 2-core machine), so a large model is decoded on
    // two threads: this one the triangles, ids and first half of the nodes, a helper the
    // checksum and the second half of the nodes.
    let split =
        if n >= PARALLEL_PAIRS && std::thread::available_parallelism().is_ok_and(|p| p.get() > 1) { n / 2 } else { n };
    let mut slots: Vec<NodePair> = Vec::with_capacity(n);
    let (first, second) = slots.spare_capacity_mut()[..n].split_at_mut(split);
    let (first_bytes, second_bytes) = pair_bytes.split_at(split * PAIR_BYTES);
    let decode = |out: &mut [MaybeUninit<NodePair>], bytes: &[u8]| {
        for (o, p) in out.iter_mut().zip(bytes.chunks_exact(PAIR_BYTES)) {
            o.write(pair_from_words(&std::array::from_fn(|k| {
                u32::from_le_bytes(p[4 * k..4 * k + 4].try_into().expect("4 bytes"))
            })));
        }
    };
    let sum_ok = |bytes: &[u8]| {
        let end = bytes.len() - TRAILER_BYTES;
        bytes[end..] == checksum(&bytes[..end]).to_le_bytes()
    };
    let (triangles, ids, helper_sum) = std::thread::scope(|scope| {
        // (If no thread can be had, the second half is decoded below, on this thread.)
        let helper = (split < n).then(|| {
            std::thread::Builder::new().spawn_scoped(scope, || {
                decode(second, second_bytes);
                sum_ok(bytes)
            })
        });
        let triangles = decode_triangles(tri_bytes);
        let ids: Vec<i32> =
            id_bytes.chunks_exact(ID_BYTES).map(|b| i32::from_le_bytes(b.try_into().expect("4 bytes"))).collect();
        decode(first, first_bytes);
        (triangles, ids, helper.and_then(Result::ok).map(|h| h.join().unwrap_or(false)))
    });
    let sum_ok = match helper_sum {
        Some(ok) => ok,
        None => {
            decode(&mut slots.spare_capacity_mut()[split..n], second_bytes);
            sum_ok(bytes)
        }
    };
    if !sum_ok {
        return Err("corrupted serialized model (checksum mismatch)".into());
    }
    // SAFETY: every element of slots[..n] was written: `first` by `decode` on this thread and
    // `second` (empty when split == n) by the helper or, when it could not be started, by
    // `decode` above; each over as many chunks of PAIR_BYTES as it has elements
    // (`pair_bytes` is n * PAIR_BYTES long, split at `split` pairs). A helper that panicked
    // (it cannot: no indexing in `decode` is out of range) gives `false`: no set_len.
    unsafe { slots.set_len(n) };
    Model::from_packed(triangles, ids, slots).map_err(|e| format!("corrupted serialized model ({e})"))
}

/// Node pairs at and above which loading decodes on two threads (below, a thread costs more
/// than it saves).
pub(crate) const PARALLEL_PAIRS: usize = 1 << 16;

fn decode_triangles(bytes: &[u8]) -> Vec<Triangle> {
    bytes
        .chunks_exact(TRIANGLE_BYTES)
        .map(|t| {
            let v = |k: usize| f64::from_le_bytes(t[8 * k..8 * k + 8].try_into().expect("8 bytes"));
            [Vec3::new(v(0), v(1), v(2)), Vec3::new(v(3), v(4), v(5)), Vec3::new(v(6), v(7), v(8))]
        })
        .collect()
}

/// [`model_from_bytes`], and then [`Model::validate`]: also checks that every node's volumes
/// hold all the vertices below it, in time proportional to `n` times the tree's depth. For
/// bytes from a source that may have crafted them.
pub fn model_from_bytes_validated(bytes: &[u8]) -> Result<Model, String> {
    let model = model_from_bytes(bytes)?;
    model.validate().map_err(|e| format!("corrupted serialized model ({e})"))?;
    Ok(model)
}

/// Checks the header and the length against it; returns `n`. (The checksum is checked while
/// decoding.)
fn check_header(bytes: &[u8]) -> Result<usize, String> {
    if bytes.len() < HEADER_BYTES + TRAILER_BYTES {
        return Err(format!("{} bytes are too few for a serialized model", bytes.len()));
    }
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    if bytes[..8] != MAGIC {
        return Err("not a serialized rapidpqp model (bad magic number)".into());
    }
    let version = u32_at(8);
    if version != FORMAT_VERSION {
        let hint = if version < FORMAT_VERSION { " (written by an older rapidpqp: rebuild the model)" } else { "" };
        return Err(format!(
            "serialized model format version {version}; this library reads version {FORMAT_VERSION}{hint}"
        ));
    }
    if u32_at(12) != 0 {
        return Err("corrupted serialized model (reserved header field is not 0)".into());
    }
    let (n, pairs) = (u64_at(16), u64_at(24));
    if n == 0 || n >= TRIANGLE_LIMIT {
        return Err(format!("corrupted serialized model ({n} triangles)"));
    }
    if pairs != n {
        return Err(format!("corrupted serialized model ({pairs} node pairs for {n} triangles)"));
    }
    // n < 2^31 and the per-triangle size < 2^9, so this fits in u64; usize may be 32 bits.
    let expected = (HEADER_BYTES + TRAILER_BYTES) as u64 + n * (TRIANGLE_BYTES + ID_BYTES + PAIR_BYTES) as u64;
    if expected != bytes.len() as u64 {
        return Err(format!(
            "serialized model of {n} triangles should be {expected} bytes, got {} (truncated or corrupted)",
            bytes.len()
        ));
    }
    Ok(n as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Placement;
    use crate::query::collide::{CollideRequest, CollideResult, collide};
    use crate::query::distance::{DistanceRequest, DistanceResult, distance, tolerance};

    /// A bumpy closed-ish surface: a torus of `n × n` quads split into triangles.
    fn torus(n: usize, major: f64, minor: f64) -> Model {
        let p = |i: usize, j: usize| {
            let (u, v) = (
                2.0 * std::f64::consts::PI * (i % n) as f64 / n as f64,
                2.0 * std::f64::consts::PI * (j % n) as f64 / n as f64,
            );
            let r = major + minor * v.cos();
            Vec3::new(r * u.cos(), r * u.sin(), minor * v.sin())
        };
        let mut tris = Vec::new();
        for i in 0..n {
            for j in 0..n {
                tris.push([p(i, j), p(i + 1, j), p(i + 1, j + 1)]);
                tris.push([p(i, j), p(i + 1, j + 1), p(i, j + 1)]);
            }
        }
        let ids = (0..tris.len() as i32).map(|k| 3 * k + 7).collect();
        Model::new(tris, ids).unwrap()
    }

    fn pose(k: usize) -> Placement {
        let a = 0.37 * k as f64;
        let (c, s) = (a.cos(), a.sin());
        Placement::from_rows(
            &[[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]],
            &[0.2 * (k as f64 * 0.7).sin(), 0.15 * k as f64 - 0.6, 0.05],
            1.0,
        )
    }

    /// Rewrites the checksum so that a deliberately corrupted body reaches the checks after it.
    fn reseal(bytes: &mut [u8]) {
        let body = bytes.len() - TRAILER_BYTES;
        let sum = checksum(&bytes[..body]);
        bytes[body..].copy_from_slice(&sum.to_le_bytes());
    }

    /// Byte offset of word `k` of the packed pair holding node `i`, lane of node `i` (the
    /// root: lane 0 of pair 0).
    fn word_at(model: &Model, i: usize, k: usize) -> usize {
        let n = model.num_triangles();
        let (slot, lane) = if i == 0 { (0, 0) } else { (i.div_ceil(2), (i + 1) % 2) };
        HEADER_BYTES + n * (TRIANGLE_BYTES + ID_BYTES) + slot * PAIR_BYTES + 4 * (2 * k + lane)
    }
    /// Word indices (per lane) of the fields of a node.
    const SPHERE: usize = 0;
    const FRAME: usize = 4;
    const HALF: usize = 16;
    const RECT: usize = 19;
    const PAYLOAD: usize = 23;

    #[test]
    fn round_trip_keeps_the_model_and_its_answers() {
        let a = torus(12, 1.0, 0.3);
        let b = torus(9, 0.8, 0.25);
        let bytes = model_to_bytes(&a);
        assert_eq!(bytes.len(), serialized_size(&a));
        let a2 = model_from_bytes(&bytes).unwrap();
        a2.validate().unwrap();
        assert_eq!(model_to_bytes(&a2), bytes, "a second round trip changes nothing");
        assert_eq!(a2.triangles(), a.triangles());
        assert_eq!(a2.ids(), a.ids());
        assert_eq!(a2.magnitude(), a.magnitude());
        assert_eq!(a2.packed_frame(), a.packed_frame());
        let words = |m: &Model| m.collide_slots().iter().map(pair_words).collect::<Vec<_>>();
        assert_eq!(words(&a2), words(&a));
        let (mut r1, mut r2) = (CollideResult::new(), CollideResult::new());
        let request = CollideRequest::default();
        let dreq = DistanceRequest { rel_err: 0.0, abs_err: 0.0, qsize: 2 };
        let mut contacts = 0;
        for k in 0..12 {
            let (p, q) = (Placement::IDENTITY, pose(k));
            collide(&a, &p, &b, &q, &request, &mut r1).unwrap();
            collide(&a2, &p, &b, &q, &request, &mut r2).unwrap();
            assert_eq!(r1.pairs, r2.pairs);
            assert_eq!((r1.bv_tests, r1.tri_tests), (r2.bv_tests, r2.tri_tests));
            contacts += r1.pairs.len();
            // Compared as text: a tolerance result that is not closer has NaN points.
            let same = |x: DistanceResult, y: DistanceResult| assert_eq!(format!("{x:?}"), format!("{y:?}"));
            same(distance(&a, &p, &b, &q, &dreq, None).unwrap(), distance(&a2, &p, &b, &q, &dreq, None).unwrap());
            same(tolerance(&a, &p, &b, &q, 0.05, 2, None).unwrap(), tolerance(&a2, &p, &b, &q, 0.05, 2, None).unwrap());
        }
        assert!(contacts > 0, "some poses collide");
    }

    #[test]
    fn single_triangle_round_trips() {
        let t = [Vec3::zeros(), Vec3::x(), Vec3::y()];
        let m = Model::new(vec![t], vec![-5]).unwrap();
        let m2 = model_from_bytes_validated(&model_to_bytes(&m)).unwrap();
        assert_eq!(m2.ids(), &[-5]);
        assert_eq!(m2.triangles(), m.triangles());
    }

    #[test]
    fn truncated_or_extended_inputs_are_refused() {
        let bytes = model_to_bytes(&torus(3, 1.0, 0.3));
        for len in 0..bytes.len() {
            assert!(model_from_bytes(&bytes[..len]).is_err(), "prefix of {len} bytes");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(model_from_bytes(&longer).is_err());
    }

    #[test]
    fn every_flipped_bit_is_refused() {
        let bytes = model_to_bytes(&torus(3, 1.0, 0.3));
        for pos in 0..bytes.len() {
            for bit in 0..8 {
                let mut bad = bytes.clone();
                bad[pos] ^= 1 << bit;
                assert!(model_from_bytes(&bad).is_err(), "bit {bit} of byte {pos}");
            }
        }
    }

    #[test]
    fn checksum_sees_every_word_and_the_length() {
        let bytes: Vec<u8> = (0..101u32).map(|k| (k * 37 % 251) as u8).collect();
        let sum = checksum(&bytes);
        for len in 0..bytes.len() {
            assert_ne!(checksum(&bytes[..len]), sum, "prefix of {len}");
        }
        let mut zeros = bytes.clone();
        zeros.push(0);
        assert_ne!(checksum(&zeros), sum, "a zero byte appended");
    }

    #[test]
    fn huge_counts_are_refused_without_allocating() {
        let mut bytes = model_to_bytes(&torus(2, 1.0, 0.3));
        for n in [u64::MAX, 1 << 40, TRIANGLE_LIMIT, 0] {
            bytes[16..24].copy_from_slice(&n.to_le_bytes());
            bytes[24..32].copy_from_slice(&n.to_le_bytes());
            reseal(&mut bytes);
            assert!(model_from_bytes(&bytes).is_err(), "{n} triangles");
        }
    }

    #[test]
    fn other_versions_and_formats_are_refused() {
        let bytes = model_to_bytes(&torus(2, 1.0, 0.3));
        for version in [1u32, 2, 4] {
            let mut v = bytes.clone();
            v[8..12].copy_from_slice(&version.to_le_bytes());
            reseal(&mut v);
            let e = model_from_bytes(&v).unwrap_err();
            assert!(e.contains(&format!("version {version}")), "{e}");
            assert_eq!(e.contains("older"), version < FORMAT_VERSION, "{e}");
        }
        let mut other = bytes.clone();
        other[0] = b'X';
        reseal(&mut other);
        assert!(model_from_bytes(&other).unwrap_err().contains("magic"));
    }

    /// Corruptions with a valid checksum still fail the linear checks.
    #[test]
    fn resealed_corruptions_are_refused() {
        let model = torus(3, 1.0, 0.3);
        let bytes = model_to_bytes(&model);
        let n = model.num_triangles();
        let w = |i: usize, k: usize| word_at(&model, i, k);
        let leaf = (0..model.num_nodes()).find(|&i| model.node_word(i) & crate::model::LEAF_BIT != 0).unwrap();
        let f32b = |v: f32| v.to_le_bytes().to_vec();
        let cases: Vec<(&str, usize, Vec<u8>)> = vec![
            ("root child out of range", w(0, PAYLOAD), (u32::MAX >> 1).to_le_bytes().to_vec()),
            ("root points to itself", w(0, PAYLOAD), 0u32.to_le_bytes().to_vec()),
            ("root's lanes differ", w(0, HALF), f32b(1e3)),
            ("even first child", w(1, PAYLOAD), 2u32.to_le_bytes().to_vec()),
            ("leaf triangle out of range", w(leaf, PAYLOAD), ((1u32 << 31) | 9999).to_le_bytes().to_vec()),
            ("NaN sphere centre", w(1, SPHERE), f32b(f32::NAN)),
            ("infinite radius", w(2, SPHERE + 3), f32b(f32::INFINITY)),
            ("negative half-extent", w(1, HALF + 2), f32b(-1.0)),
            ("negative rectangle", w(2, RECT + 3), f32b(-1e-3)),
            ("sheared axes", w(1, FRAME), f32b(2.0)),
            ("moved leaf box", w(leaf, FRAME + 3), f32b(0.5)),
            ("shrunk leaf sphere", w(leaf, SPHERE + 3), f32b(0.0)),
            ("NaN vertex", HEADER_BYTES, f64::NAN.to_le_bytes().to_vec()),
            ("far vertex", HEADER_BYTES, 1e6f64.to_le_bytes().to_vec()),
            ("pair count", 24, (n as u64 + 1).to_le_bytes().to_vec()),
            ("reserved field", 12, 1u32.to_le_bytes().to_vec()),
        ];
        assert!(model_from_bytes(&bytes).is_ok());
        for (what, at, patch) in cases {
            let mut bad = bytes.clone();
            bad[at..at + patch.len()].copy_from_slice(&patch);
            reseal(&mut bad);
            assert!(model_from_bytes(&bad).is_err(), "{what}");
        }
        // Two leaves far apart swapping triangles: each leaf then misses its triangle.
        let leaves: Vec<usize> =
            (0..model.num_nodes()).filter(|&i| model.node_word(i) & crate::model::LEAF_BIT != 0).collect();
        let (first, last) = (leaves[0], leaves[leaves.len() - 1]);
        let mut bad = bytes.clone();
        let (wa, wb) = (model.node_word(first), model.node_word(last));
        bad[w(first, PAYLOAD)..w(first, PAYLOAD) + 4].copy_from_slice(&wb.to_le_bytes());
        bad[w(last, PAYLOAD)..w(last, PAYLOAD) + 4].copy_from_slice(&wa.to_le_bytes());
        reseal(&mut bad);
        assert!(model_from_bytes(&bad).is_err(), "leaves swapped across the tree");
    }

    /// Large models are decoded and checked on two threads: same model, and corruptions
    /// that only the merged halves reveal are refused.
    #[test]
    fn large_models_load_on_two_threads() {
        let model = torus(185, 1.0, 0.3);
        let n = model.num_triangles();
        assert!(n >= PARALLEL_PAIRS);
        let bytes = model_to_bytes(&model);
        let loaded = model_from_bytes(&bytes).unwrap();
        assert_eq!(model_to_bytes(&loaded), bytes);
        let inner = |i: usize| model.node_word(i) & crate::model::LEAF_BIT == 0;
        let half = |i: usize| usize::from(i.div_ceil(2) >= n / 2);
        // An inner node of the first half given the children of one of the second (which
        // come after both).
        let a = (0..model.num_nodes()).find(|&a| inner(a) && half(a) == 1).expect("an inner node");
        let b = (1..model.num_nodes()).find(|&b| inner(b) && half(b) == 0).expect("an inner node");
        let mut bad = bytes.clone();
        let at = word_at(&model, b, PAYLOAD);
        bad[at..at + 4].copy_from_slice(&model.node_word(a).to_le_bytes());
        reseal(&mut bad);
        assert!(model_from_bytes(&bad).unwrap_err().contains("two parents"));
        // A flipped bit in the second half (the helper's checksum).
        let mut bad = bytes.clone();
        let last = bad.len() - TRAILER_BYTES - 1;
        bad[last] ^= 4;
        assert!(model_from_bytes(&bad).unwrap_err().contains("checksum"));
    }

    /// An inner node whose volumes miss vertices below it passes the linear checks (the
    /// documented limit: wrong answers, nothing unsafe) and fails the validated load.
    #[test]
    fn shrunk_inner_volumes_need_the_validated_load() {
        let model = torus(3, 1.0, 0.3);
        let bytes = model_to_bytes(&model);
        let inner = (1..model.num_nodes()).find(|&i| model.node_word(i) & crate::model::LEAF_BIT == 0).unwrap();
        for (what, k) in [("box", HALF + 2), ("sphere", SPHERE + 3), ("rectangle", RECT + 3)] {
            let mut bad = bytes.clone();
            let at = word_at(&model, inner, k);
            bad[at..at + 4].copy_from_slice(&0f32.to_le_bytes());
            if k == HALF + 2 {
                // Keep the rectangle within the box's cross-section.
                let r = word_at(&model, inner, RECT + 3);
                bad[r..r + 4].copy_from_slice(&0f32.to_le_bytes());
            }
            reseal(&mut bad);
            let loaded = model_from_bytes(&bad).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(loaded.validate().is_err(), "{what}");
            assert!(model_from_bytes_validated(&bad).is_err(), "{what}");
            // Queries on it run (their answers may be wrong).
            let mut r = CollideResult::new();
            collide(&loaded, &Placement::IDENTITY, &model, &pose(1), &CollideRequest::default(), &mut r).unwrap();
            distance(&loaded, &Placement::IDENTITY, &model, &pose(1), &DistanceRequest::default(), None).unwrap();
        }
    }
}
