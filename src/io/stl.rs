//! STL, binary and ASCII. STL stores each triangle's three corners by value; the reader merges
//! corners into one vertex only where their coordinates are bitwise identical (the `f32` bits
//! of a binary file, the `f64` bits of the parsed decimals of an ASCII one), numbered in order
//! of first appearance; faces follow the facet order, corners in the file's order (winding).
//! Normals and attribute words are ignored.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use super::{LoadError, Mesh, Words, check_vertex_count, strip_bom};
use crate::math::Vec3;

const HEADER: usize = 80;
const FACET: usize = 50;

/// The facet count of a binary STL header and the file size it implies, if `bytes` holds one.
fn binary_size(bytes: &[u8]) -> Option<(u32, u64)> {
    let count = u32::from_le_bytes(bytes.get(HEADER..HEADER + 4)?.try_into().ok()?);
    Some((count, (HEADER + 4) as u64 + FACET as u64 * u64::from(count)))
}

/// A binary STL: at least the 84-byte header, and exactly as long as its facet count says (so a
/// binary file whose header happens to start with `solid` is still told from ASCII).
pub(crate) fn is_binary(bytes: &[u8]) -> bool {
    binary_size(bytes).is_some_and(|(_, size)| size == bytes.len() as u64)
}

/// Starts with the keyword `solid` (after optional whitespace), as ASCII STL does.
pub(crate) fn looks_ascii(bytes: &[u8]) -> bool {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(bytes.len());
    let rest = &bytes[start..];
    rest.len() >= 5 && rest[..5].eq_ignore_ascii_case(b"solid") && rest.get(5).is_none_or(|b| b.is_ascii_whitespace())
}

pub(crate) fn parse(bytes: &[u8]) -> Result<Mesh, LoadError> {
    if is_binary(bytes) {
        return parse_binary(bytes);
    }
    // ASCII STL is text: a NUL byte means a binary file whose header starts with "solid" (and
    // whose size is wrong: reported below).
    let text = strip_bom(bytes);
    if looks_ascii(text) && !text.contains(&0) {
        return parse_ascii(text).map_err(|mut e| {
            if let Some((count, size)) = binary_size(bytes) {
                e.message += &format!(
                    " (read as ASCII STL because it starts with \"solid\"; as a binary STL its header's {count} \
                     facets would need {size} bytes, and the file has {})",
                    bytes.len()
                );
            }
            e
        });
    }
    Err(match binary_size(bytes) {
        None => LoadError::malformed(format!(
            "byte {}: too short for a binary STL (an 84-byte header), and not ASCII STL (no \"solid\" at the start)",
            bytes.len()
        )),
        Some((count, size)) => LoadError::malformed(format!(
            "byte {}: binary STL truncated or padded: the header counts {count} facets, which need {size} bytes, \
             but the file has {} (and it is not ASCII STL: {})",
            bytes.len().min(size as usize),
            bytes.len(),
            if looks_ascii(strip_bom(bytes)) { "it holds NUL bytes" } else { "no \"solid\" at the start" }
        )),
    })
}

/// Merges corners with bitwise identical coordinates (`K` the bits of one corner).
struct Merger<K> {
    index: HashMap<K, u32>,
    mesh: Mesh,
}

impl<K: std::hash::Hash + Eq> Merger<K> {
    fn with_capacity(facets: usize) -> Self {
        let mut mesh = Mesh::default();
        mesh.faces.reserve(facets);
        // Closed meshes have about half as many vertices as faces.
        mesh.vertices.reserve(facets / 2 + 3);
        Merger { index: HashMap::with_capacity(facets / 2 + 3), mesh }
    }

    fn vertex(&mut self, key: K, at: impl Fn() -> String) -> Result<u32, LoadError> {
        Ok(match self.index.entry(key) {
            Entry::Occupied(e) => *e.get(),
            Entry::Vacant(e) => {
                check_vertex_count(self.mesh.vertices.len() + 1, at)?;
                *e.insert(self.mesh.vertices.len() as u32)
            }
        })
    }
}

fn parse_binary(bytes: &[u8]) -> Result<Mesh, LoadError> {
    let count = (bytes.len() - HEADER - 4) / FACET;
    let mut merged = Merger::<[u32; 3]>::with_capacity(count);
    for (k, facet) in bytes[HEADER + 4..].chunks_exact(FACET).enumerate() {
        let at = HEADER + 4 + k * FACET;
        let mut face = [0; 3];
        for (j, corner) in face.iter_mut().enumerate() {
            let offset = 12 + 12 * j;
            let bits: [u32; 3] = std::array::from_fn(|c| {
                let b = &facet[offset + 4 * c..offset + 4 * c + 4];
                u32::from_le_bytes([b[0], b[1], b[2], b[3]])
            });
            let xyz = bits.map(f32::from_bits);
            if !xyz.iter().all(|v| v.is_finite()) {
                return Err(LoadError::non_finite(format!(
                    "byte {}: facet {} corner {}: non-finite coordinate ({} {} {})",
                    at + offset,
                    k + 1,
                    j + 1,
                    xyz[0],
                    xyz[1],
                    xyz[2]
                )));
            }
            let before = merged.mesh.vertices.len();
            *corner = merged.vertex(bits, || format!("byte {}", at + offset))?;
            if *corner as usize == before {
                merged.mesh.vertices.push(Vec3::new(xyz[0].into(), xyz[1].into(), xyz[2].into()));
            }
        }
        merged.mesh.faces.push(face);
    }
    Ok(merged.mesh)
}

fn parse_ascii(bytes: &[u8]) -> Result<Mesh, LoadError> {
    let mut words = Words::new(bytes);
    let mut merged = Merger::<[u64; 3]>::with_capacity(bytes.len() / 256);
    let mut corners: Vec<u32> = Vec::with_capacity(3);
    let mut solids = 0;
    loop {
        match words.next() {
            None if solids > 0 => return Ok(merged.mesh),
            None => return Err(words.error("no \"solid\"")),
            Some(w) if w.eq_ignore_ascii_case(b"solid") => {
                words.skip_line(); // the solid's name
                solids += 1;
            }
            Some(_) => {
                return Err(words.error_here(if solids == 0 {
                    "expected \"solid\""
                } else {
                    "expected \"solid\" or the end of the file after \"endsolid\""
                }));
            }
        }
        loop {
            let Some(w) = words.next() else {
                return Err(words.error("truncated: the solid has no \"endsolid\""));
            };
            if w.eq_ignore_ascii_case(b"endsolid") {
                words.skip_line();
                break;
            }
            if !w.eq_ignore_ascii_case(b"facet") {
                return Err(words.error_here("expected \"facet\" or \"endsolid\""));
            }
            words.keyword(b"normal")?;
            for _ in 0..3 {
                words.number()?; // the normal: ignored, but it must be a number
            }
            words.keyword(b"outer")?;
            words.keyword(b"loop")?;
            corners.clear();
            loop {
                let Some(w) = words.next() else {
                    return Err(words.error("truncated inside a facet"));
                };
                if w.eq_ignore_ascii_case(b"endloop") {
                    break;
                }
                if !w.eq_ignore_ascii_case(b"vertex") {
                    return Err(words.error_here("expected \"vertex\" or \"endloop\""));
                }
                let line = words.word_line();
                let xyz = [words.number()?, words.number()?, words.number()?];
                if !xyz.iter().all(|v| v.is_finite()) {
                    return Err(LoadError::non_finite(format!(
                        "line {line}: non-finite coordinate ({} {} {})",
                        xyz[0], xyz[1], xyz[2]
                    )));
                }
                let before = merged.mesh.vertices.len();
                let index = merged.vertex(xyz.map(f64::to_bits), || format!("line {line}"))?;
                if index as usize == before {
                    merged.mesh.vertices.push(Vec3::from(xyz));
                }
                corners.push(index);
            }
            if corners.len() < 3 {
                return Err(words.error_here("a facet with fewer than 3 vertices"));
            }
            words.keyword(b"endfacet")?;
            // Writers put triangles here; a polygon becomes a fan.
            for k in 1..corners.len() - 1 {
                merged.mesh.faces.push([corners[0], corners[k], corners[k + 1]]);
            }
        }
    }
}
