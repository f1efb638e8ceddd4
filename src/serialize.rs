//! A built model as bytes: the hierarchy is stored, not rebuilt, so a model can be saved or
//! sent to another process and loaded in time linear in its size.
//!
//! Layout, every number little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `RPQMODEL` |
//! | 4 | format version (`u32`, [`FORMAT_VERSION`]) |
//! | 4 | reserved (`u32`, 0) |
//! | 8 | `n`, the number of triangles (`u64`) |
//! | 8 | the number of nodes (`u64`, `2n − 1`) |
//! | 72 `n` | triangles in leaf order: 9 `f64` each (`x y z` of the three corners) |
//! | 4 `n` | caller ids (`i32`), parallel to the triangles |
//! | 124 a node | the nodes in tree order: 15 `f64` and a `u32` each, see below |
//! | 8 | checksum (`u64`) of every byte before it, see [`checksum`] |
//!
//! A node is its swept sphere's axes (9 numbers, row-major), corner (3), lengths (2) and
//! radius (1), then its child/leaf word ([`Node::payload`]). The nodes' boxes are not stored:
//! loading refits them on the swept spheres' axes, as the build fits them. (Version 1 also
//! stored each node's box: 244 bytes a node.)
//!
//! Loading checks the length, the checksum, that every number is finite, that extents are
//! non-negative and axes orthonormal, and the tree's invariants ([`Model::from_parts`]: the
//! structure, and every swept sphere holding the vertices below it): a corrupted or
//! truncated input is refused with an error, never trusted.

use crate::bv::Rss;
use crate::math::{Mat3, Triangle, Vec3};
use crate::model::{Model, Node};

/// The first eight bytes of every serialized model.
pub const MAGIC: [u8; 8] = *b"RPQMODEL";
/// The layout version written, and the only one read.
pub const FORMAT_VERSION: u32 = 2;

const HEADER_BYTES: usize = 32;
const TRAILER_BYTES: usize = 8;
const TRIANGLE_BYTES: usize = 9 * 8;
const ID_BYTES: usize = 4;
const NODE_BYTES: usize = 15 * 8 + 4;
/// One more than the largest triangle count a model can hold (the leaf bit of a node).
const TRIANGLE_LIMIT: u64 = (1 << 31) - 1;
/// How far from orthonormal stored axes may be (they are built orthonormal to rounding).
const AXES_TOLERANCE: f64 = 1e-9;

/// Bytes [`model_to_bytes`] writes for `model`.
pub fn serialized_size(model: &Model) -> usize {
    let n = model.num_triangles();
    HEADER_BYTES + n * (TRIANGLE_BYTES + ID_BYTES) + model.nodes().len() * NODE_BYTES + TRAILER_BYTES
}

/// Checksum of the format: FNV-1a over 8-byte little-endian words (a shorter tail is
/// zero-padded), each step followed by a shift-xor so that every bit reaches the next word.
pub fn checksum(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash = OFFSET;
    let mut words = bytes.chunks_exact(8);
    let mut mix = |word: u64| {
        hash = (hash ^ word).wrapping_mul(PRIME);
        hash ^= hash >> 29;
    };
    for w in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        mix(u64::from_le_bytes(b));
    }
    let tail = words.remainder();
    if !tail.is_empty() {
        let mut b = [0u8; 8];
        b[..tail.len()].copy_from_slice(tail);
        mix(u64::from_le_bytes(b));
    }
    mix(bytes.len() as u64);
    hash
}

/// The model, its hierarchy included, as bytes (see the module documentation).
pub fn model_to_bytes(model: &Model) -> Vec<u8> {
    let mut out = Vec::with_capacity(serialized_size(model));
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(model.num_triangles() as u64).to_le_bytes());
    out.extend_from_slice(&(model.nodes().len() as u64).to_le_bytes());
    let put = |out: &mut Vec<u8>, v: f64| out.extend_from_slice(&v.to_le_bytes());
    for t in model.triangles() {
        for p in t {
            for k in 0..3 {
                put(&mut out, p[k]);
            }
        }
    }
    for id in model.ids() {
        out.extend_from_slice(&id.to_le_bytes());
    }
    for node in model.nodes() {
        let rss = &node.rss;
        for v in rows(&rss.axes).into_iter().chain(rss.corner.iter().copied()).chain(rss.lengths) {
            put(&mut out, v);
        }
        put(&mut out, rss.radius);
        out.extend_from_slice(&node.payload().to_le_bytes());
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    debug_assert_eq!(out.len(), serialized_size(model));
    out
}

/// A model from bytes written by [`model_to_bytes`]; an error names what is wrong when the
/// bytes are truncated, corrupted, of another format version or not a model at all.
pub fn model_from_bytes(bytes: &[u8]) -> Result<Model, String> {
    if bytes.len() < HEADER_BYTES + TRAILER_BYTES {
        return Err(format!("{} bytes are too few for a serialized model", bytes.len()));
    }
    let mut r = Reader { bytes, pos: 0 };
    if r.take(8)? != MAGIC {
        return Err("not a serialized rapidpqp model (bad magic number)".into());
    }
    let version = r.u32()?;
    if version != FORMAT_VERSION {
        return Err(format!("serialized model format version {version}; this library reads version {FORMAT_VERSION}"));
    }
    if r.u32()? != 0 {
        return Err("corrupted serialized model (reserved header field is not 0)".into());
    }
    let n = r.u64()?;
    let num_nodes = r.u64()?;
    if n == 0 || n >= TRIANGLE_LIMIT {
        return Err(format!("corrupted serialized model ({n} triangles)"));
    }
    if num_nodes != 2 * n - 1 {
        return Err(format!("corrupted serialized model ({num_nodes} nodes for {n} triangles)"));
    }
    // n < 2^31 and NODE_BYTES < 2^8, so this fits in u64; usize may be 32 bits.
    let expected = HEADER_BYTES as u64
        + n * (TRIANGLE_BYTES + ID_BYTES) as u64
        + num_nodes * NODE_BYTES as u64
        + TRAILER_BYTES as u64;
    if expected != bytes.len() as u64 {
        return Err(format!(
            "serialized model of {n} triangles should be {expected} bytes, got {} (truncated or corrupted)",
            bytes.len()
        ));
    }
    let body = bytes.len() - TRAILER_BYTES;
    let mut stored = [0u8; 8];
    stored.copy_from_slice(&bytes[body..]);
    if u64::from_le_bytes(stored) != checksum(&bytes[..body]) {
        return Err("corrupted serialized model (checksum mismatch)".into());
    }

    let (n, num_nodes) = (n as usize, num_nodes as usize);
    let mut triangles: Vec<Triangle> = Vec::with_capacity(n);
    for _ in 0..n {
        let mut corner = || -> Result<Vec3, String> { Ok(Vec3::new(r.f64()?, r.f64()?, r.f64()?)) };
        triangles.push([corner()?, corner()?, corner()?]);
    }
    let mut ids = Vec::with_capacity(n);
    for _ in 0..n {
        ids.push(r.i32()?);
    }
    let mut nodes = Vec::with_capacity(num_nodes);
    for i in 0..num_nodes {
        let bad = |what: &str| format!("corrupted serialized model (node {i}: {what})");
        let rss_axes = r.mat3()?;
        let corner = r.vec3()?;
        let lengths = [r.f64()?, r.f64()?];
        let radius = r.f64()?;
        let payload = r.u32()?;
        let numbers = rss_axes.iter().chain(&corner);
        if !numbers.chain(&lengths).chain([&radius]).all(|v| v.is_finite()) {
            return Err(bad("a number is NaN or infinite"));
        }
        if lengths.iter().chain([&radius]).any(|&v| v < 0.0) {
            return Err(bad("a negative extent"));
        }
        if !orthonormal(&rss_axes) {
            return Err(bad("axes are not orthonormal"));
        }
        let rss = Rss { axes: rss_axes, corner, lengths, radius };
        nodes.push(Node::from_parts(rss, payload));
    }
    if r.pos != body {
        return Err("corrupted serialized model (length)".into());
    }
    Model::from_parts(triangles, ids, nodes).map_err(|e| format!("corrupted serialized model ({e})"))
}

/// The nine entries of `m`, row by row.
fn rows(m: &Mat3) -> [f64; 9] {
    std::array::from_fn(|k| m[(k / 3, k % 3)])
}

fn orthonormal(m: &Mat3) -> bool {
    let gram = m.transpose() * m - Mat3::identity();
    gram.iter().all(|v| v.abs() <= AXES_TOLERANCE)
}

/// Reads little-endian numbers from a byte slice; running past the end is an error.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, len: usize) -> Result<&'a [u8], String> {
        let end = self.pos.checked_add(len).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err("truncated serialized model".into());
        };
        let out = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(out)
    }
    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.array()?))
    }
    fn i32(&mut self) -> Result<i32, String> {
        Ok(i32::from_le_bytes(self.array()?))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.array()?))
    }
    fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_le_bytes(self.array()?))
    }
    fn vec3(&mut self) -> Result<Vec3, String> {
        Ok(Vec3::new(self.f64()?, self.f64()?, self.f64()?))
    }
    /// A matrix stored row by row.
    fn mat3(&mut self) -> Result<Mat3, String> {
        let mut v = [0.0; 9];
        for x in &mut v {
            *x = self.f64()?;
        }
        Ok(Mat3::new(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]))
    }
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

    #[test]
    fn round_trip_keeps_the_model_and_its_answers() {
        let a = torus(12, 1.0, 0.3);
        let b = torus(9, 0.8, 0.25);
        let bytes = model_to_bytes(&a);
        assert_eq!(bytes.len(), serialized_size(&a));
        let a2 = model_from_bytes(&bytes).unwrap();
        assert_eq!(model_to_bytes(&a2), bytes, "a second round trip changes nothing");
        assert_eq!(a2.triangles(), a.triangles());
        assert_eq!(a2.ids(), a.ids());
        assert_eq!(a2.magnitude(), a.magnitude());
        for (x, y) in a.nodes().iter().zip(a2.nodes()) {
            assert_eq!((x.rss, x.payload()), (y.rss, y.payload()));
        }
        let (mut r1, mut r2) = (CollideResult::new(), CollideResult::new());
        let request = CollideRequest::default();
        let dreq = DistanceRequest { rel_err: 0.0, abs_err: 0.0, qsize: 2 };
        for k in 0..12 {
            let (p, q) = (Placement::IDENTITY, pose(k));
            collide(&a, &p, &b, &q, &request, &mut r1).unwrap();
            collide(&a2, &p, &b, &q, &request, &mut r2).unwrap();
            assert_eq!(r1.pairs, r2.pairs);
            assert_eq!((r1.bv_tests, r1.tri_tests), (r2.bv_tests, r2.tri_tests));
            // Compared as text: a tolerance result that is not closer has NaN points.
            let same = |x: DistanceResult, y: DistanceResult| assert_eq!(format!("{x:?}"), format!("{y:?}"));
            same(distance(&a, &p, &b, &q, &dreq, None), distance(&a2, &p, &b, &q, &dreq, None));
            same(tolerance(&a, &p, &b, &q, 0.05, 2), tolerance(&a2, &p, &b, &q, 0.05, 2));
        }
    }

    #[test]
    fn single_triangle_round_trips() {
        let t = [Vec3::zeros(), Vec3::x(), Vec3::y()];
        let m = Model::new(vec![t], vec![-5]).unwrap();
        let m2 = model_from_bytes(&model_to_bytes(&m)).unwrap();
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
    fn huge_counts_are_refused_without_allocating() {
        let mut bytes = model_to_bytes(&torus(2, 1.0, 0.3));
        for n in [u64::MAX, 1 << 40, TRIANGLE_LIMIT, 0] {
            bytes[16..24].copy_from_slice(&n.to_le_bytes());
            bytes[24..32].copy_from_slice(&n.wrapping_mul(2).wrapping_sub(1).to_le_bytes());
            reseal(&mut bytes);
            assert!(model_from_bytes(&bytes).is_err(), "{n} triangles");
        }
    }

    #[test]
    fn other_versions_and_formats_are_refused() {
        let bytes = model_to_bytes(&torus(2, 1.0, 0.3));
        for version in [1u32, 3] {
            let mut v = bytes.clone();
            v[8..12].copy_from_slice(&version.to_le_bytes());
            reseal(&mut v);
            assert!(model_from_bytes(&v).unwrap_err().contains(&format!("version {version}")));
        }
        let mut other = bytes.clone();
        other[0] = b'X';
        reseal(&mut other);
        assert!(model_from_bytes(&other).unwrap_err().contains("magic"));
    }

    /// Corruptions with a valid checksum still fail the structural checks.
    #[test]
    fn resealed_corruptions_are_refused() {
        let model = torus(3, 1.0, 0.3);
        let bytes = model_to_bytes(&model);
        let n = model.num_triangles();
        let nodes_at = HEADER_BYTES + n * (TRIANGLE_BYTES + ID_BYTES);
        let node = |i: usize| nodes_at + i * NODE_BYTES;
        let payload = |i: usize| node(i) + NODE_BYTES - 4;
        let f64_at = |i: usize, k: usize| node(i) + 8 * k;
        let cases: Vec<(&str, usize, Vec<u8>)> = vec![
            ("root child out of range", payload(0), (u32::MAX >> 1).to_le_bytes().to_vec()),
            ("root points to itself", payload(0), 0u32.to_le_bytes().to_vec()),
            ("leaf triangle out of range", payload(1), ((1u32 << 31) | 9999).to_le_bytes().to_vec()),
            ("NaN corner", f64_at(0, 9), f64::NAN.to_le_bytes().to_vec()),
            ("infinite radius", f64_at(0, 14), f64::INFINITY.to_le_bytes().to_vec()),
            ("negative length", f64_at(0, 12), (-1.0f64).to_le_bytes().to_vec()),
            ("sheared axes", f64_at(0, 0), 2.0f64.to_le_bytes().to_vec()),
            ("tiny root rectangle", f64_at(0, 12), 1e-9f64.to_le_bytes().to_vec()),
            ("moved leaf corner", f64_at(2, 10), 0.5f64.to_le_bytes().to_vec()),
            ("NaN vertex", HEADER_BYTES, f64::NAN.to_le_bytes().to_vec()),
            ("far vertex", HEADER_BYTES, 1e6f64.to_le_bytes().to_vec()),
            ("reserved field", 12, 1u32.to_le_bytes().to_vec()),
        ];
        for (what, at, patch) in cases {
            let mut bad = bytes.clone();
            bad[at..at + patch.len()].copy_from_slice(&patch);
            reseal(&mut bad);
            assert!(model_from_bytes(&bad).is_err(), "{what}");
        }
        // Two leaves swapping triangles is harmless (the tree still covers every triangle)
        // only if the swept spheres still hold them; swapping with a distant leaf is refused.
        let leaves: Vec<usize> = (0..model.nodes().len()).filter(|&i| model.nodes()[i].is_leaf()).collect();
        let (first, last) = (leaves[0], leaves[leaves.len() - 1]);
        let mut bad = bytes.clone();
        let (wa, wb) = (model.nodes()[first].payload(), model.nodes()[last].payload());
        bad[payload(first)..payload(first) + 4].copy_from_slice(&wb.to_le_bytes());
        bad[payload(last)..payload(last) + 4].copy_from_slice(&wa.to_le_bytes());
        reseal(&mut bad);
        assert!(model_from_bytes(&bad).is_err(), "leaves swapped across the tree");
    }
}
