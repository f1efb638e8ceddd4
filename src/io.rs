//! Reading triangle meshes from files: Wavefront OBJ, STL (binary and ASCII) and PLY (ASCII,
//! binary little and big endian), into one [`Mesh`] of vertices and zero-based index triples.
//!
//! [`load`] reads a file, choosing the format by the file name's extension (`.obj`, `.stl`,
//! `.ply`, any case) or, for any other name, by the content; [`read_mesh`] does the same for
//! bytes in memory. Every error says which file, where in it (`line N` in text, `byte N` in
//! binary data) and what was wrong, with a [`LoadErrorKind`] for programs: a missing or
//! unreadable file, an unknown format, malformed or truncated content (an index out of range
//! among others), a NaN or infinite coordinate, or a mesh without triangles. Nothing panics,
//! whatever the bytes.
//!
//! What each reader keeps and skips: `obj` (polygons become fans, `vt`/`vn` skipped), `stl`
//! (corners merged where bitwise identical), `ply` (any property order, other elements
//! skipped). Coordinates written as decimals are read as the nearest `f64`; binary `float`s are
//! widened exactly.

mod obj;
mod ply;
mod stl;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::math::{Triangle, Vec3};

/// A mesh as vertices and zero-based index triples.
#[derive(Clone, Debug, Default)]
pub struct Mesh {
    /// Vertex coordinates.
    pub vertices: Vec<Vec3>,
    /// Triangles as zero-based indices into `vertices`.
    pub faces: Vec<[u32; 3]>,
}

impl Mesh {
    /// The faces as triangles, in file order.
    pub fn triangles(&self) -> Vec<Triangle> {
        self.faces.iter().map(|f| f.map(|i| self.vertices[i as usize])).collect()
    }

    /// The connected components (faces sharing a vertex index), each as triangles in file
    /// order; the components ordered by their first face. Splits an assembly saved as one file
    /// (the bundled gear set) into its parts.
    pub fn components(&self) -> Vec<Vec<Triangle>> {
        // Union-find over vertex indices, halving paths.
        let mut up: Vec<usize> = (0..self.vertices.len()).collect();
        let find = |up: &mut Vec<usize>, mut v: usize| {
            while up[v] != v {
                up[v] = up[up[v]];
                v = up[v];
            }
            v
        };
        for f in &self.faces {
            let a = find(&mut up, f[0] as usize);
            for &i in &f[1..] {
                let b = find(&mut up, i as usize);
                up[b] = a;
            }
        }
        let mut slot = vec![usize::MAX; self.vertices.len()];
        let mut parts: Vec<Vec<Triangle>> = Vec::new();
        for f in &self.faces {
            let r = find(&mut up, f[0] as usize);
            if slot[r] == usize::MAX {
                slot[r] = parts.len();
                parts.push(Vec::new());
            }
            parts[slot[r]].push(f.map(|i| self.vertices[i as usize]));
        }
        parts
    }
}

/// A file format [`load`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Wavefront OBJ text.
    Obj,
    /// STL, binary or ASCII (told apart by the content).
    Stl,
    /// PLY, ASCII or binary (its header says which).
    Ply,
}

impl Format {
    /// The format a file name's extension names (`.obj`, `.stl`, `.ply`, in any case).
    pub fn from_extension(path: impl AsRef<Path>) -> Option<Format> {
        let ext = path.as_ref().extension()?.to_str()?;
        [("obj", Format::Obj), ("stl", Format::Stl), ("ply", Format::Ply)]
            .into_iter()
            .find_map(|(name, format)| ext.eq_ignore_ascii_case(name).then_some(format))
    }

    /// The format the content shows: the PLY magic line, a binary STL's exact size (84 + 50
    /// bytes a facet), ASCII STL's leading `solid`, or OBJ text whose first statement is an
    /// OBJ one; `None` otherwise.
    pub fn detect(bytes: &[u8]) -> Option<Format> {
        // (A binary STL's 80-byte header is anything: it is told by its size, BOM or not.)
        let text = strip_bom(bytes);
        if ply::has_magic(text) {
            Some(Format::Ply)
        } else if stl::is_binary(bytes) || stl::looks_ascii(text) {
            Some(Format::Stl)
        } else if obj::looks_like(text) {
            Some(Format::Obj)
        } else {
            None
        }
    }

    /// The format's usual name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Obj => "OBJ",
            Format::Stl => "STL",
            Format::Ply => "PLY",
        }
    }
}

/// What kind of failure a [`LoadError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoadErrorKind {
    /// The file does not exist.
    NotFound,
    /// The file could not be read (permissions, an I/O error), or is not a regular file (a
    /// directory, a device such as `/dev/zero`, a FIFO, a socket): refused before any read.
    Io,
    /// Neither the extension nor the content shows OBJ, STL or PLY.
    UnknownFormat,
    /// The content does not follow its format: a syntax error, a truncated file, a vertex
    /// index out of range, a count that does not match.
    Malformed,
    /// A coordinate is NaN or infinite (or overflows, as `1e999`).
    NonFinite,
    /// The file holds no triangle.
    Empty,
}

/// Why a mesh could not be loaded: the kind, the file (when there is one) and a message that
/// says where (`line N`, `byte N`) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// What went wrong, for programs that act on it.
    pub kind: LoadErrorKind,
    /// The file, when the mesh came from one (not from bytes in memory).
    pub path: Option<PathBuf>,
    /// Where (`line N`, `byte N`) and what, for people.
    pub message: String,
}

impl LoadError {
    fn new(kind: LoadErrorKind, message: String) -> LoadError {
        LoadError { kind, path: None, message }
    }
    pub(crate) fn malformed(message: String) -> LoadError {
        LoadError::new(LoadErrorKind::Malformed, message)
    }
    pub(crate) fn non_finite(message: String) -> LoadError {
        LoadError::new(LoadErrorKind::NonFinite, message)
    }
    fn in_file(mut self, path: &Path) -> LoadError {
        self.path = Some(path.to_path_buf());
        self
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(path) => write!(f, "{}: {}", path.display(), self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for LoadError {}

/// Indices are `u32`: refuses the vertex that would make `count` more than that.
pub(crate) fn check_vertex_count(count: usize, at: impl FnOnce() -> String) -> Result<(), LoadError> {
    if count > u32::MAX as usize {
        return Err(LoadError::malformed(format!("{}: more than 2^32 - 1 vertices", at())));
    }
    Ok(())
}

/// The bytes of a regular file. Anything else (a directory, a device such as `/dev/zero` or
/// `/dev/urandom`, a FIFO, a socket) is refused before it is opened for reading, so that
/// nothing is read without bound; at most the size the file had when opened is read, so memory
/// stays bounded by the file's real size.
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, LoadError> {
    use std::io::Read;
    let fail = |e: std::io::Error| {
        let kind = if e.kind() == std::io::ErrorKind::NotFound { LoadErrorKind::NotFound } else { LoadErrorKind::Io };
        LoadError::new(kind, format!("cannot read the file: {e}")).in_file(path)
    };
    let not_regular = |m: &std::fs::Metadata| {
        let what = if m.is_dir() { "a directory" } else { "a device, FIFO or socket" };
        LoadError::new(LoadErrorKind::Io, format!("not a regular file ({what}): only mesh files are read"))
            .in_file(path)
    };
    // (Checked before opening too: opening a FIFO for reading waits for a writer.)
    let before = std::fs::metadata(path).map_err(fail)?;
    if !before.is_file() {
        return Err(not_regular(&before));
    }
    let file = std::fs::File::open(path).map_err(fail)?;
    let meta = file.metadata().map_err(fail)?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    let size = meta.len();
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(usize::try_from(size).unwrap_or(usize::MAX)).map_err(|_| {
        LoadError::new(LoadErrorKind::Io, format!("cannot read the file: {size} bytes do not fit in memory"))
            .in_file(path)
    })?;
    file.take(size).read_to_end(&mut bytes).map_err(fail)?;
    Ok(bytes)
}

/// The text without a leading UTF-8 byte-order mark (as Windows tools write).
pub(crate) fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// The line of text starting at `pos` (without its line break) and where the next one starts:
/// a line ends at LF, CRLF or a bare CR. `None` at the end of the text (so a final line break
/// does not start an empty line, as `str::lines`).
pub(crate) fn line_at(bytes: &[u8], pos: usize) -> Option<(&[u8], usize)> {
    let rest = bytes.get(pos..).filter(|r| !r.is_empty())?;
    Some(match rest.iter().position(|&b| b == b'\n' || b == b'\r') {
        Some(k) => {
            let crlf = rest[k] == b'\r' && rest.get(k + 1) == Some(&b'\n');
            (&rest[..k], pos + k + 1 + usize::from(crlf))
        }
        None => (rest, bytes.len()),
    })
}

/// The lines of a text ([`line_at`]'s rule: LF, CRLF and bare CR end a line).
pub(crate) fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut pos = 0;
    std::iter::from_fn(move || {
        let (line, next) = line_at(bytes, pos)?;
        pos = next;
        Some(line)
    })
}

/// Reads a mesh file: the format by the extension (`.obj`, `.stl`, `.ply`, any case), else by
/// the content ([`Format::detect`]). The mesh has at least one triangle, every vertex finite,
/// every index in range. Text may start with a UTF-8 byte-order mark and end its lines with
/// LF, CRLF or a bare CR. Only regular files are read: a directory or a device (`/dev/zero`)
/// is refused at once ([`LoadErrorKind::Io`]).
pub fn load(path: impl AsRef<Path>) -> Result<Mesh, LoadError> {
    let path = path.as_ref();
    let bytes = read_file(path)?;
    let format = match Format::from_extension(path) {
        Some(format) => format,
        None => Format::detect(&bytes).ok_or_else(|| {
            LoadError::new(
                LoadErrorKind::UnknownFormat,
                "unknown mesh format: the name does not end in .obj, .stl or .ply, and the content is none of them"
                    .into(),
            )
            .in_file(path)
        })?,
    };
    read_mesh(&bytes, format).map_err(|e| e.in_file(path))
}

/// Reads a mesh in `format` from bytes in memory, with the checks of [`load`]. When the content
/// does not parse and looks like another format, the message says so.
pub fn read_mesh(bytes: &[u8], format: Format) -> Result<Mesh, LoadError> {
    let mesh = match format {
        Format::Obj => obj::parse(strip_bom(bytes), true),
        Format::Stl => stl::parse(bytes),
        Format::Ply => ply::parse(strip_bom(bytes)),
    };
    let mut mesh = mesh.map_err(|mut e| {
        e.message = format!("{} {}", format.name(), e.message);
        if let Some(other) = Format::detect(bytes).filter(|&f| f != format) {
            e.message += &format!(" (the content looks like {})", other.name());
        }
        e
    })?;
    if mesh.faces.is_empty() {
        let mut message = format!("{}: no triangles", format.name());
        if let Some(other) = Format::detect(bytes).filter(|&f| f != format) {
            message += &format!(" (the content looks like {})", other.name());
        }
        return Err(LoadError::new(LoadErrorKind::Empty, message));
    }
    mesh.vertices.shrink_to_fit();
    mesh.faces.shrink_to_fit();
    Ok(mesh)
}

/// Parses OBJ text as the raw reader: `v x y z` vertices and `f` faces (entries `i`, `i/t`,
/// `i//n`, `i/t/n`; negative indices count back; polygons become fans), other lines ignored.
/// Unlike [`load`] and [`read_mesh`] it keeps NaN and infinite coordinates and accepts a text
/// without faces. Errors start with `line N: `.
pub fn parse_obj(text: &str) -> Result<Mesh, String> {
    obj::parse(strip_bom(text.as_bytes()), false).map_err(|e| e.message)
}

/// Reads and parses an OBJ file ([`parse_obj`]'s rules; the error names the file). Use [`load`]
/// for the checked reader of every format. Only regular files are read, as by [`load`].
pub fn load_obj(path: impl AsRef<Path>) -> Result<Mesh, String> {
    let path = path.as_ref();
    let bytes = read_file(path).map_err(|e| e.to_string())?;
    obj::parse(strip_bom(&bytes), false).map_err(|e| format!("{}: {}", path.display(), e.message))
}

/// The whitespace-separated words of text, with line numbers, for the ASCII STL and PLY
/// readers.
pub(crate) struct Words<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// The line the position is on (1-based).
    line: usize,
    /// The last word returned, and its line.
    last: &'a [u8],
    last_line: usize,
}

impl<'a> Words<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Words<'a> {
        Words { bytes, pos: 0, line: 1, last: &[], last_line: 1 }
    }

    /// Starts at `pos`, which is on line `line`.
    pub(crate) fn at(bytes: &'a [u8], pos: usize, line: usize) -> Words<'a> {
        Words { bytes, pos, line, last: &[], last_line: line }
    }

    pub(crate) fn next(&mut self) -> Option<&'a [u8]> {
        while let Some(&b) = self.bytes.get(self.pos) {
            if !b.is_ascii_whitespace() {
                break;
            }
            // A line ends at LF, CRLF (counted at its LF) or a bare CR.
            self.line += usize::from(b == b'\n' || (b == b'\r' && self.bytes.get(self.pos + 1) != Some(&b'\n')));
            self.pos += 1;
        }
        if self.pos == self.bytes.len() {
            return None;
        }
        let start = self.pos;
        while self.bytes.get(self.pos).is_some_and(|b| !b.is_ascii_whitespace()) {
            self.pos += 1;
        }
        self.last = &self.bytes[start..self.pos];
        self.last_line = self.line;
        Some(self.last)
    }

    /// Skips the rest of the current line (which ends at LF, CRLF or a bare CR).
    pub(crate) fn skip_line(&mut self) {
        match line_at(self.bytes, self.pos) {
            Some((line, next)) => {
                // (No line break at the end of the text: the line count stays.)
                self.line += usize::from(next > self.pos + line.len());
                self.pos = next;
            }
            None => self.pos = self.bytes.len(),
        }
    }

    /// The line of the last word.
    pub(crate) fn word_line(&self) -> usize {
        self.last_line
    }

    /// An error at the current position (the end of the text, say).
    pub(crate) fn error(&self, what: &str) -> LoadError {
        LoadError::malformed(format!("line {}: {what}", self.line))
    }

    /// An error about the last word.
    pub(crate) fn error_here(&self, what: &str) -> LoadError {
        let word = String::from_utf8_lossy(&self.last[..self.last.len().min(40)]);
        LoadError::malformed(format!("line {}: {what}, found {word:?}", self.last_line))
    }

    /// The next word, which must be `keyword` (in any case).
    pub(crate) fn keyword(&mut self, keyword: &[u8]) -> Result<(), LoadError> {
        let what = || format!("expected \"{}\"", String::from_utf8_lossy(keyword));
        match self.next() {
            Some(w) if w.eq_ignore_ascii_case(keyword) => Ok(()),
            Some(_) => Err(self.error_here(&what())),
            None => Err(self.error(&format!("truncated: {}", what()))),
        }
    }

    /// The next word as a number (the nearest `f64` to the decimal; `nan` and `inf` parse).
    pub(crate) fn number(&mut self) -> Result<f64, LoadError> {
        match self.next() {
            Some(w) => std::str::from_utf8(w)
                .ok()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| self.error_here("expected a number")),
            None => Err(self.error("truncated: expected a number")),
        }
    }

    /// The next word as an integer.
    pub(crate) fn integer(&mut self) -> Result<i64, LoadError> {
        match self.next() {
            Some(w) => std::str::from_utf8(w)
                .ok()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| self.error_here("expected an integer")),
            None => Err(self.error("truncated: expected an integer")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_faces_with_slashes_negatives_and_fans() {
        let m = parse_obj("# c\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1/1 2//3 3/4/5 4\nf -1 -2 -3\n").unwrap();
        assert_eq!(m.faces, vec![[0, 1, 2], [0, 2, 3], [3, 2, 1]]);
        assert!(parse_obj("v 0 0 0\nf 1 2 3\n").is_err());
    }

    #[test]
    fn components_are_the_faces_sharing_vertices() {
        // Two triangles sharing an edge, a lone triangle, and a triangle joined to the first
        // pair through a vertex only, listed last.
        let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 5 0 0\nv 6 0 0\nv 5 1 0\nv 2 2 0\nv 3 2 0\n\
                    f 1 2 3\nf 5 6 7\nf 2 4 3\nf 4 8 9\n";
        let parts = parse_obj(text).unwrap().components();
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].len(), 3);
        assert_eq!(parts[1], vec![[Vec3::new(5.0, 0.0, 0.0), Vec3::new(6.0, 0.0, 0.0), Vec3::new(5.0, 1.0, 0.0)]]);
        assert_eq!(parts[0][2][2], Vec3::new(3.0, 2.0, 0.0));
    }
}
