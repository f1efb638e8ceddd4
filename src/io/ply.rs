//! PLY: ASCII, binary little endian and binary big endian. The vertex element's `x`, `y`, `z`
//! (any numeric type, among any other properties in any order) and the face element's list
//! `vertex_indices` (or `vertex_index`; any integer count and item types) are read; every other
//! property and element is read past and dropped. Polygons become fans. Elements may come in
//! any order (indices are checked against the vertex count the header declares).
//!
//! Refused, with the line or byte: a second element or property of the same name (which one
//! would count?); an ASCII value that is not of its declared type (an integer type's value
//! must be an integer within the type's range, so `300` and `0.5` are both refused for a
//! `uchar`; a `float`'s must be within `f32`'s range); a header whose counts need more data
//! than the file holds, before any memory is reserved for them.

use super::{LoadError, Mesh, Words, check_vertex_count, line_at};
use crate::math::Vec3;

/// Starts with the PLY magic line (ended by LF, CRLF or a bare CR).
pub(crate) fn has_magic(bytes: &[u8]) -> bool {
    bytes.starts_with(b"ply\n") || bytes.starts_with(b"ply\r")
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scalar {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    F32,
    F64,
}

impl Scalar {
    fn parse(name: &[u8]) -> Option<Scalar> {
        Some(match name {
            b"char" | b"int8" => Scalar::I8,
            b"uchar" | b"uint8" => Scalar::U8,
            b"short" | b"int16" => Scalar::I16,
            b"ushort" | b"uint16" => Scalar::U16,
            b"int" | b"int32" => Scalar::I32,
            b"uint" | b"uint32" => Scalar::U32,
            b"float" | b"float32" => Scalar::F32,
            b"double" | b"float64" => Scalar::F64,
            _ => return None,
        })
    }

    fn size(self) -> usize {
        match self {
            Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::F64 => 8,
        }
    }

    fn is_integer(self) -> bool {
        !matches!(self, Scalar::F32 | Scalar::F64)
    }

    /// The type's name in a header.
    fn name(self) -> &'static str {
        match self {
            Scalar::I8 => "char",
            Scalar::U8 => "uchar",
            Scalar::I16 => "short",
            Scalar::U16 => "ushort",
            Scalar::I32 => "int",
            Scalar::U32 => "uint",
            Scalar::F32 => "float",
            Scalar::F64 => "double",
        }
    }

    /// Whether a value written in ASCII is one of the type: an integer type's within its range
    /// (its text an integer: checked by the reader), a `float` within `f32`'s finite range
    /// (NaN and infinities are left to the checks of what reads them).
    fn holds(self, value: f64) -> bool {
        let range = |lo: f64, hi: f64| (lo..=hi).contains(&value);
        match self {
            Scalar::I8 => range(-128.0, 127.0),
            Scalar::U8 => range(0.0, 255.0),
            Scalar::I16 => range(-32768.0, 32767.0),
            Scalar::U16 => range(0.0, 65535.0),
            Scalar::I32 => range(-2147483648.0, 2147483647.0),
            Scalar::U32 => range(0.0, 4294967295.0),
            Scalar::F32 => !value.is_finite() || value.abs() <= f64::from(f32::MAX),
            Scalar::F64 => true,
        }
    }
}

#[derive(Clone, Debug)]
enum Property {
    Scalar(Scalar),
    List { count: Scalar, item: Scalar },
}

#[derive(Clone, Debug)]
struct Element {
    name: Vec<u8>,
    count: u64,
    /// Property names and types, in file order.
    properties: Vec<(Vec<u8>, Property)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Encoding {
    Ascii,
    Little,
    Big,
}

struct Header {
    encoding: Encoding,
    elements: Vec<Element>,
    /// Where the body starts, and on which line (for ASCII).
    body: usize,
    body_line: usize,
}

fn header(bytes: &[u8]) -> Result<Header, LoadError> {
    if !has_magic(bytes) {
        return Err(LoadError::malformed("line 1: no \"ply\" magic line".into()));
    }
    let mut pos = 0;
    let mut encoding = None;
    let mut elements: Vec<Element> = Vec::new();
    for number in 1.. {
        // (The last header line needs its line break: the body starts after it.)
        let Some((line, next)) = line_at(bytes, pos).filter(|&(line, next)| next > pos + line.len()) else {
            return Err(LoadError::malformed(format!("line {number}: truncated header: no \"end_header\"")));
        };
        pos = next;
        let fail = |what: &str| {
            let text = String::from_utf8_lossy(&line[..line.len().min(80)]);
            Err(LoadError::malformed(format!("line {number}: {what}: {text:?}")))
        };
        let words: Vec<&[u8]> = line.split(|b| b.is_ascii_whitespace()).filter(|w| !w.is_empty()).collect();
        match words.as_slice() {
            [b"ply"] if number == 1 => {}
            [b"comment" | b"obj_info", ..] | [] => {}
            [b"format", kind, version] => {
                if *version != b"1.0" {
                    return fail("unsupported PLY version (1.0 only)");
                }
                encoding = Some(match *kind {
                    b"ascii" => Encoding::Ascii,
                    b"binary_little_endian" => Encoding::Little,
                    b"binary_big_endian" => Encoding::Big,
                    _ => return fail("unknown format"),
                });
            }
            [b"element", name, count] => {
                let Some(count) = std::str::from_utf8(count).ok().and_then(|c| c.parse().ok()) else {
                    return fail("bad element count");
                };
                if elements.iter().any(|e| e.name == *name) {
                    return fail("a second element of that name");
                }
                elements.push(Element { name: name.to_vec(), count, properties: Vec::new() });
            }
            [b"property", rest @ ..] => {
                let Some(element) = elements.last_mut() else {
                    return fail("a property before any element");
                };
                let (name, property) = match rest {
                    [b"list", count, item, name] => match (Scalar::parse(count), Scalar::parse(item)) {
                        (Some(count), Some(item)) if count.is_integer() => (name, Property::List { count, item }),
                        _ => return fail("bad list property types"),
                    },
                    [ty, name] => match Scalar::parse(ty) {
                        Some(ty) => (name, Property::Scalar(ty)),
                        None => return fail("unknown property type"),
                    },
                    _ => return fail("bad property line"),
                };
                if element.properties.iter().any(|(n, _)| n == name) {
                    return fail("a second property of that name in the element");
                }
                element.properties.push((name.to_vec(), property));
            }
            [b"end_header"] => {
                let Some(encoding) = encoding else {
                    return fail("no \"format\" line before \"end_header\"");
                };
                return Ok(Header { encoding, elements, body: pos, body_line: number + 1 });
            }
            _ => return fail("unknown header line"),
        }
    }
    unreachable!("the header loop returns")
}

/// Reads the body's numbers, ASCII or binary.
enum Body<'a> {
    Ascii(Words<'a>),
    Binary { bytes: &'a [u8], pos: usize, big: bool },
}

impl Body<'_> {
    /// Where the reader is: a line (ASCII) or a byte offset (binary); [`Body::describe`] says it.
    fn mark(&self) -> usize {
        match self {
            Body::Ascii(words) => words.word_line(),
            Body::Binary { pos, .. } => *pos,
        }
    }

    fn describe(&self, mark: usize) -> String {
        match self {
            Body::Ascii(_) => format!("line {mark}"),
            Body::Binary { .. } => format!("byte {mark}"),
        }
    }

    /// Where the reader is, for messages.
    fn position(&self) -> String {
        self.describe(self.mark())
    }

    /// The next value of type `ty` (integers exactly: they fit in an `f64`).
    fn read(&mut self, ty: Scalar, what: &dyn Fn() -> String) -> Result<f64, LoadError> {
        match self {
            Body::Ascii(words) => {
                let value = if ty.is_integer() { words.integer().map(|i| i as f64) } else { words.number() };
                let value = value.map_err(|mut e| {
                    e.message += &format!(" ({}, of type {})", what(), ty.name());
                    e
                })?;
                if !ty.holds(value) {
                    return Err(words.error_here(&format!("value out of range for {} ({})", ty.name(), what())));
                }
                Ok(value)
            }
            Body::Binary { bytes, pos, big } => {
                let size = ty.size();
                let Some(b) = bytes.get(*pos..*pos + size) else {
                    return Err(LoadError::malformed(format!(
                        "byte {}: truncated: the file ends inside {}",
                        bytes.len(),
                        what()
                    )));
                };
                *pos += size;
                let mut raw = [0u8; 8];
                raw[..size].copy_from_slice(b);
                if *big {
                    raw[..size].reverse();
                }
                Ok(match ty {
                    Scalar::I8 => f64::from(raw[0] as i8),
                    Scalar::U8 => f64::from(raw[0]),
                    Scalar::I16 => f64::from(i16::from_le_bytes([raw[0], raw[1]])),
                    Scalar::U16 => f64::from(u16::from_le_bytes([raw[0], raw[1]])),
                    Scalar::I32 => f64::from(i32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]])),
                    Scalar::U32 => f64::from(u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]])),
                    Scalar::F32 => f64::from(f32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]])),
                    Scalar::F64 => f64::from_le_bytes(raw),
                })
            }
        }
    }
}

/// What the reader does with one property of an element.
#[derive(Clone, Copy)]
enum Role {
    Skip,
    Coordinate(usize),
    Corners,
}

pub(crate) fn parse(bytes: &[u8]) -> Result<Mesh, LoadError> {
    let header = header(bytes)?;
    let vertex = header.elements.iter().find(|e| e.name == b"vertex");
    let num_vertices = vertex.map_or(0, |e| e.count);
    if num_vertices > u64::from(u32::MAX) {
        check_vertex_count(usize::MAX, || "the header".into())?;
    }
    if let Some(vertex) = vertex {
        for axis in [&b"x"[..], b"y", b"z"] {
            match vertex.properties.iter().find(|(name, _)| name == axis) {
                Some((_, Property::Scalar(_))) => {}
                Some(_) => {
                    return Err(LoadError::malformed(format!("header: vertex property {} is a list", axis[0] as char)));
                }
                None => {
                    return Err(LoadError::malformed(format!(
                        "header: the vertex element has no property {}",
                        axis[0] as char
                    )));
                }
            }
        }
    }
    if let Some(face) = header.elements.iter().find(|e| e.name == b"face") {
        let indices = face.properties.iter().find(|(name, _)| name == b"vertex_indices" || name == b"vertex_index");
        match indices {
            Some((_, Property::List { item, .. })) if item.is_integer() => {}
            Some(_) => {
                return Err(LoadError::malformed(
                    "header: the face element's vertex indices are not a list of integers".into(),
                ));
            }
            None => {
                return Err(LoadError::malformed(
                    "header: the face element has no vertex_indices (or vertex_index) list".into(),
                ));
            }
        }
    }
    let mut body = match header.encoding {
        Encoding::Ascii => Body::Ascii(Words::at(bytes, header.body, header.body_line)),
        Encoding::Little | Encoding::Big => {
            Body::Binary { bytes, pos: header.body, big: header.encoding == Encoding::Big }
        }
    };
    // A header may claim anything: the counts must fit in the data before anything is reserved
    // for them (memory stays bounded by the file's size).
    let body_len = (bytes.len() - header.body) as u128;
    let mut need = 0u128;
    for element in &header.elements {
        // The least bytes an element takes: binary, its scalars and list counts (lists empty);
        // ASCII, one character and a separator a number.
        let least: u128 = element
            .properties
            .iter()
            .map(|(_, p)| match (header.encoding, p) {
                (Encoding::Ascii, _) => 2,
                (_, Property::Scalar(ty)) | (_, Property::List { count: ty, .. }) => ty.size() as u128,
            })
            .sum();
        need += u128::from(element.count) * least;
        let need_here = if header.encoding == Encoding::Ascii { need.saturating_sub(1) } else { need };
        if need_here > body_len {
            return Err(LoadError::malformed(format!(
                "header: element {} claims {} entries, which need at least {need_here} bytes of data with the \
                 elements before it; the file has {body_len} after the header",
                String::from_utf8_lossy(&element.name),
                element.count
            )));
        }
    }
    let mut mesh = Mesh::default();
    mesh.vertices.reserve(num_vertices as usize);
    let mut corners: Vec<u32> = Vec::new();
    for element in &header.elements {
        let is_vertex = element.name == b"vertex";
        let is_face = element.name == b"face";
        let roles: Vec<Role> = element
            .properties
            .iter()
            .map(|(name, _)| match name.as_slice() {
                b"x" if is_vertex => Role::Coordinate(0),
                b"y" if is_vertex => Role::Coordinate(1),
                b"z" if is_vertex => Role::Coordinate(2),
                b"vertex_indices" | b"vertex_index" if is_face => Role::Corners,
                _ => Role::Skip,
            })
            .collect();
        if element.properties.is_empty() {
            continue; // no data, however large its count (a loop over it could take forever)
        }
        let element_name = String::from_utf8_lossy(&element.name).into_owned();
        if is_face {
            mesh.faces.reserve(element.count as usize);
        }
        // The first vertex_indices list of a face is the one read (a second is skipped).
        let first_corners = roles.iter().position(|r| matches!(r, Role::Corners));
        for k in 0..element.count {
            let mut xyz = [0.0; 3];
            let start = body.mark();
            for (p, ((name, property), role)) in element.properties.iter().zip(&roles).enumerate() {
                let what = || {
                    format!(
                        "element {element_name} {} of {}, property {}",
                        k + 1,
                        element.count,
                        String::from_utf8_lossy(name)
                    )
                };
                match *property {
                    Property::Scalar(ty) => {
                        let value = body.read(ty, &what)?;
                        if let Role::Coordinate(axis) = role {
                            xyz[*axis] = value;
                        }
                    }
                    Property::List { count, item } => {
                        let n = body.read(count, &what)?;
                        if n < 0.0 {
                            return Err(LoadError::malformed(format!(
                                "{}: negative list length {n} ({})",
                                body.position(),
                                what()
                            )));
                        }
                        let keep = first_corners == Some(p);
                        if keep {
                            corners.clear();
                        }
                        for _ in 0..n as u64 {
                            let v = body.read(item, &what)?;
                            if keep {
                                if v < 0.0 || v >= num_vertices as f64 {
                                    return Err(LoadError::malformed(format!(
                                        "{}: vertex index {v} out of range ({num_vertices} vertices) in face {}",
                                        body.position(),
                                        k + 1
                                    )));
                                }
                                corners.push(v as u32);
                            }
                        }
                        if keep {
                            if corners.len() < 3 {
                                return Err(LoadError::malformed(format!(
                                    "{}: face {} has {} corners (3 at least)",
                                    body.position(),
                                    k + 1,
                                    corners.len()
                                )));
                            }
                            for j in 1..corners.len() - 1 {
                                mesh.faces.push([corners[0], corners[j], corners[j + 1]]);
                            }
                        }
                    }
                }
            }
            if is_vertex {
                if !xyz.iter().all(|v| v.is_finite()) {
                    return Err(LoadError::non_finite(format!(
                        "{}: vertex {} has a non-finite coordinate ({} {} {})",
                        // The vertex's first byte; in ASCII the line of its last word.
                        if matches!(body, Body::Ascii(_)) { body.position() } else { body.describe(start) },
                        k + 1,
                        xyz[0],
                        xyz[1],
                        xyz[2]
                    )));
                }
                mesh.vertices.push(Vec3::from(xyz));
            }
        }
    }
    match &mut body {
        Body::Ascii(words) => {
            if words.next().is_some() {
                return Err(words.error_here("data after the last element"));
            }
        }
        Body::Binary { bytes, pos, .. } => {
            if *pos != bytes.len() {
                return Err(LoadError::malformed(format!(
                    "byte {pos}: {} bytes after the last element (the header's counts do not match the data)",
                    bytes.len() - *pos
                )));
            }
        }
    }
    Ok(mesh)
}
