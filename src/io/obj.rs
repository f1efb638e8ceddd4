//! Wavefront OBJ: `v` vertices and `f` faces; every other statement is skipped.

use super::{LoadError, Mesh, check_vertex_count, lines};
use crate::math::Vec3;

/// Parses OBJ text given as bytes (lines that are not UTF-8 are read with their invalid bytes
/// replaced, so a stray byte in a comment or a material name does no harm).
///
/// * Lines end at LF, CRLF or a bare CR (old Mac tools); a word starting with `#` begins a
///   comment that runs to the end of its line.
/// * `v x y z [w]` and `v x y z r g b [a]`: the first three numbers; a weight `w` (rational
///   curves only) and per-vertex colours are ignored, but must be numbers. Fewer than three
///   numbers, or anything else after them, is an error.
/// * `f` entries `i`, `i/t`, `i//n`, `i/t/n`: the vertex index only; negative indices count back
///   from the last vertex read so far; a polygon of `k` corners becomes the fan of `k − 2`
///   triangles `(c0, cj, cj+1)`; fewer than three corners, or an index that names no vertex
///   read so far (0 among them), is an error.
/// * `vt`, `vn`, `vp`, `l`, `p`, groups, materials, comments, blank lines: skipped. A
///   backslash line continuation is not supported (the next line is read on its own).
///
/// With `finite_only`, a NaN or infinite coordinate (or one that overflows, `1e999`) is an
/// error; without it the vertex is kept as written (the raw reader, [`super::parse_obj`]).
/// Errors name their line: `line N: ...`.
pub(crate) fn parse(bytes: &[u8], finite_only: bool) -> Result<Mesh, LoadError> {
    let mut mesh = Mesh::default();
    let mut corners: Vec<u32> = Vec::with_capacity(4);
    for (index, raw) in lines(bytes).enumerate() {
        let number = index + 1;
        // Only `v` and `f` statements matter: skip the others without decoding them.
        if raw.first().is_some_and(|&b| b == b'#' || (b.is_ascii_alphabetic() && b != b'v' && b != b'f')) {
            continue;
        }
        let lossy;
        let line = match std::str::from_utf8(raw) {
            Ok(line) => line,
            Err(_) => {
                lossy = String::from_utf8_lossy(raw);
                &*lossy
            }
        };
        let mut words = line.split_whitespace().take_while(|w| !w.starts_with('#'));
        match words.next() {
            Some("v") => {
                let mut c = [0.0f64; 3];
                for v in &mut c {
                    *v = words
                        .next()
                        .and_then(|w| w.parse().ok())
                        .ok_or_else(|| LoadError::malformed(format!("line {number}: bad vertex")))?;
                }
                // A weight or a colour (3 or 4 numbers) may follow, nothing else.
                let mut extra = 0;
                for w in words {
                    extra += 1;
                    if w.parse::<f64>().is_err() || extra > 4 {
                        let w: String = w.chars().take(40).collect();
                        return Err(LoadError::malformed(format!(
                            "line {number}: bad vertex: {w:?} after the coordinates (only a weight or a colour may follow)"
                        )));
                    }
                }
                if finite_only && !c.iter().all(|v| v.is_finite()) {
                    return Err(LoadError::non_finite(format!(
                        "line {number}: vertex {} has a non-finite coordinate ({} {} {})",
                        mesh.vertices.len() + 1,
                        c[0],
                        c[1],
                        c[2]
                    )));
                }
                mesh.vertices.push(Vec3::from(c));
                check_vertex_count(mesh.vertices.len(), || format!("line {number}"))?;
            }
            Some("f") => {
                corners.clear();
                let n = mesh.vertices.len() as i64;
                for w in words {
                    let index: i64 = w
                        .split('/')
                        .next()
                        .and_then(|i| i.parse().ok())
                        .ok_or_else(|| LoadError::malformed(format!("line {number}: bad face entry {w:?}")))?;
                    let zero_based = if index < 0 { n + index } else { index - 1 };
                    if zero_based < 0 || zero_based >= n {
                        return Err(LoadError::malformed(format!(
                            "line {number}: vertex index {index} out of range ({n} vertices read so far)"
                        )));
                    }
                    corners.push(zero_based as u32);
                }
                if corners.len() < 3 {
                    return Err(LoadError::malformed(format!("line {number}: face with fewer than 3 corners")));
                }
                for k in 1..corners.len() - 1 {
                    mesh.faces.push([corners[0], corners[k], corners[k + 1]]);
                }
            }
            _ => {}
        }
    }
    Ok(mesh)
}

/// Whether text looks like OBJ: its first statement (skipping blank and comment lines) is one
/// of OBJ's, and no NUL byte comes before it.
pub(crate) fn looks_like(bytes: &[u8]) -> bool {
    const KEYWORDS: [&[u8]; 12] = [b"v", b"vt", b"vn", b"vp", b"f", b"o", b"g", b"s", b"l", b"p", b"mtllib", b"usemtl"];
    for line in lines(bytes).take(1000) {
        if line.contains(&0) {
            return false;
        }
        let mut words = line.split(|b| b.is_ascii_whitespace()).filter(|w| !w.is_empty());
        match words.next() {
            None => continue,
            Some(w) if w.starts_with(b"#") => continue,
            Some(w) => return KEYWORDS.contains(&w),
        }
    }
    false
}
