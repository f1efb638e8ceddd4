//! Mesh files over the C boundary: `rpq_mesh_load` reads an OBJ, STL or PLY file with the Rust
//! reader ([`crate::io::load`]) into an opaque `RpqMesh`, whose vertices and faces the caller
//! copies out or builds a model from.

use std::ffi::{CStr, c_char};
use std::path::PathBuf;

use super::guard;
use super::handle::{self, Handle, Kind};
use super::native::{
    RPQ_ERR_BAD_FORMAT, RPQ_ERR_EMPTY_MODEL, RPQ_ERR_FILE_NOT_FOUND, RPQ_ERR_INTERNAL, RPQ_ERR_INVALID_ARGUMENT,
    RPQ_ERR_INVALID_HANDLE, RPQ_ERR_IO, RPQ_ERR_NON_FINITE, RPQ_ERR_NULL_POINTER, RPQ_ERR_OUT_OF_MEMORY, RPQ_OK,
    RpqModel, RpqStatus, model_handle, status_of,
};
use crate::io::{LoadErrorKind, Mesh, load};
use crate::model::Model;

/// A mesh read from a file (opaque): vertices and triangles as vertex index triples.
/// Immutable: share it freely between threads.
pub struct RpqMesh {
    mesh: Mesh,
}

// SAFETY: the only type of kind RpqMesh.
unsafe impl Handle for RpqMesh {
    const KIND: Kind = Kind::RpqMesh;
}

/// Borrows a mesh handle: `RPQ_ERR_NULL_POINTER` for NULL, `RPQ_ERR_INVALID_HANDLE` for anything
/// that is not a live mesh.
///
/// # Safety
/// When `mesh` is a live mesh, it is not freed while the borrow is in use.
unsafe fn mesh_ref<'a>(mesh: *const RpqMesh) -> Result<&'a Mesh, RpqStatus> {
    if mesh.is_null() {
        return Err(RPQ_ERR_NULL_POINTER);
    }
    match handle::get(mesh) {
        // SAFETY: the registry says it is a live RpqMesh; the caller keeps it alive.
        Some(object) => Ok(unsafe { &object.as_ref().mesh }),
        None => Err(RPQ_ERR_INVALID_HANDLE),
    }
}

/// Writes `text` to `buf` (`capacity` bytes), cut at a character boundary to fit, and always
/// NUL-terminated when `capacity > 0`.
///
/// # Safety
/// `buf` is NULL or points to `capacity` writable bytes.
unsafe fn write_message(buf: *mut c_char, capacity: usize, text: &str) {
    if buf.is_null() || capacity == 0 {
        return;
    }
    let mut len = text.len().min(capacity - 1);
    while !text.is_char_boundary(len) {
        len -= 1;
    }
    // SAFETY: `len + 1 <= capacity` bytes of `buf` are writable; `text` cannot overlap it (it
    // is the library's own string).
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast::<u8>(), len);
        *buf.add(len) = 0;
    }
}

/// The file name of a C string: its bytes as they are on Unix, UTF-8 elsewhere.
fn path_of(path: &CStr) -> Option<PathBuf> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Some(PathBuf::from(std::ffi::OsStr::from_bytes(path.to_bytes())))
    }
    #[cfg(not(unix))]
    {
        path.to_str().ok().map(PathBuf::from)
    }
}

/// Reads the mesh file `path` (NUL-terminated; bytes as given on Unix, UTF-8 elsewhere): OBJ,
/// STL (binary or ASCII) or PLY (ASCII or binary), the format chosen by the extension (`.obj`,
/// `.stl`, `.ply`, any case) or else by the content. On success writes the new mesh to
/// `*out_mesh` (free it with `rpq_mesh_free`). On error writes nothing there.
///
/// When `message` is not NULL, a NUL-terminated English message (cut to fit `capacity` bytes)
/// is written there: on error it names the file, the place (`line N`, `byte N`) and what was
/// wrong; on success it is empty.
///
/// What the readers keep: OBJ `v` and `f` (polygons as fans from their first corner, negative
/// indices relative; `vt`, `vn` and other statements skipped); STL corners merged into one
/// vertex where their coordinates are bitwise identical; PLY vertex `x y z` and face
/// `vertex_indices` (or `vertex_index`), polygons as fans, other properties and elements skipped.
///
/// Errors: `RPQ_ERR_NULL_POINTER` (`path` or `out_mesh` NULL), `RPQ_ERR_INVALID_ARGUMENT` (a
/// path that is not UTF-8 where paths must be), `RPQ_ERR_FILE_NOT_FOUND`, `RPQ_ERR_IO` (not
/// readable), `RPQ_ERR_BAD_FORMAT` (not a mesh file by extension nor content; malformed,
/// truncated; an index out of range), `RPQ_ERR_NON_FINITE` (a NaN or infinite coordinate),
/// `RPQ_ERR_EMPTY_MODEL` (no triangles), `RPQ_ERR_OUT_OF_MEMORY`.
///
/// # Safety
/// `path` is NULL or a NUL-terminated string; `out_mesh` is NULL or writable; `message` is NULL
/// or points to `capacity` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_mesh_load(
    path: *const c_char,
    out_mesh: *mut *mut RpqMesh,
    message: *mut c_char,
    capacity: usize,
) -> RpqStatus {
    let mut text = String::new();
    let status = guard(RPQ_ERR_INTERNAL, || {
        if path.is_null() || out_mesh.is_null() {
            text = "a required pointer argument is NULL".into();
            return RPQ_ERR_NULL_POINTER;
        }
        // SAFETY: a NUL-terminated string per the contract.
        let Some(path) = path_of(unsafe { CStr::from_ptr(path) }) else {
            text = "the path is not UTF-8".into();
            return RPQ_ERR_INVALID_ARGUMENT;
        };
        match load(&path) {
            Ok(mesh) => match handle::create(RpqMesh { mesh }) {
                Some(handle) => {
                    // SAFETY: out_mesh is non-NULL and writable per the contract.
                    unsafe { *out_mesh = handle };
                    RPQ_OK
                }
                None => {
                    text = "out of memory".into();
                    RPQ_ERR_OUT_OF_MEMORY
                }
            },
            Err(e) => {
                text = e.to_string();
                match e.kind {
                    LoadErrorKind::NotFound => RPQ_ERR_FILE_NOT_FOUND,
                    LoadErrorKind::Io => RPQ_ERR_IO,
                    LoadErrorKind::UnknownFormat | LoadErrorKind::Malformed => RPQ_ERR_BAD_FORMAT,
                    LoadErrorKind::NonFinite => RPQ_ERR_NON_FINITE,
                    LoadErrorKind::Empty => RPQ_ERR_EMPTY_MODEL,
                }
            }
        }
    });
    if status == RPQ_ERR_INTERNAL && text.is_empty() {
        text = "internal error (a bug in rapidpqp)".into();
    }
    // SAFETY: per the contract; a panic cannot happen here (plain copies).
    unsafe { write_message(message, capacity, &text) };
    status
}

/// Frees a mesh. NULL is a no-op; anything that is not a live mesh is ignored, as in
/// `rpq_model_free`.
///
/// # Safety
/// No call using `mesh` is running.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_mesh_free(mesh: *mut RpqMesh) {
    guard((), || {
        handle::destroy(mesh);
    })
}

/// Number of vertices of a mesh (0 for NULL or an invalid handle).
///
/// # Safety
/// `mesh` is not freed during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_mesh_num_vertices(mesh: *const RpqMesh) -> usize {
    // SAFETY: forwarded contract.
    guard(0, || unsafe { mesh_ref(mesh) }.map_or(0, |m| m.vertices.len()))
}

/// Number of triangles of a mesh (0 for NULL or an invalid handle).
///
/// # Safety
/// `mesh` is not freed during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_mesh_num_faces(mesh: *const RpqMesh) -> usize {
    // SAFETY: forwarded contract.
    guard(0, || unsafe { mesh_ref(mesh) }.map_or(0, |m| m.faces.len()))
}

/// Copies a mesh's vertices (`3 * rpq_mesh_num_vertices` doubles, `x y z` each) to `vertices`
/// and its triangles (`3 * rpq_mesh_num_faces` zero-based `uint32_t` vertex indices) to
/// `faces`; either may be NULL to skip it. Errors: `RPQ_ERR_NULL_POINTER` (`mesh` NULL),
/// `RPQ_ERR_INVALID_HANDLE` (nothing written).
///
/// # Safety
/// `mesh` is not freed during the call; `vertices` is NULL or holds `3 * num_vertices` writable
/// doubles, `faces` NULL or `3 * num_faces` writable `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_mesh_copy(mesh: *const RpqMesh, vertices: *mut f64, faces: *mut u32) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract.
        let m = match unsafe { mesh_ref(mesh) } {
            Ok(m) => m,
            Err(status) => return status,
        };
        if !vertices.is_null() {
            // SAFETY: 3 * len writable doubles per the contract; distinct from the mesh's own.
            let out = unsafe { std::slice::from_raw_parts_mut(vertices, 3 * m.vertices.len()) };
            for (o, v) in out.chunks_exact_mut(3).zip(&m.vertices) {
                o.copy_from_slice(&[v.x, v.y, v.z]);
            }
        }
        if !faces.is_null() {
            // SAFETY: as above, 3 * len writable uint32_t.
            let out = unsafe { std::slice::from_raw_parts_mut(faces, 3 * m.faces.len()) };
            for (o, f) in out.chunks_exact_mut(3).zip(&m.faces) {
                o.copy_from_slice(f);
            }
        }
        RPQ_OK
    })
}

/// Builds a model of a mesh's triangles, triangle `k` (in file order) with id `k`; writes it to
/// `*out_model` (free it with `rpq_model_free`). Errors: `RPQ_ERR_NULL_POINTER`,
/// `RPQ_ERR_INVALID_HANDLE`, `RPQ_ERR_OUT_OF_RANGE` (a coordinate beyond 2^1000),
/// `RPQ_ERR_INVALID_ARGUMENT` (too many triangles), `RPQ_ERR_OUT_OF_MEMORY`.
///
/// # Safety
/// `mesh` is not freed during the call; `out_model` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_mesh_build_model(mesh: *const RpqMesh, out_model: *mut *mut RpqModel) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract.
        let m = match unsafe { mesh_ref(mesh) } {
            Ok(m) => m,
            Err(status) => return status,
        };
        if out_model.is_null() {
            return RPQ_ERR_NULL_POINTER;
        }
        match Model::from_indexed(&m.vertices, &m.faces).map_err(status_of).and_then(model_handle) {
            Ok(handle) => {
                // SAFETY: out_model is non-NULL and writable per the contract.
                unsafe { *out_model = handle };
                RPQ_OK
            }
            Err(status) => status,
        }
    })
}
