//! Models as bytes over the C boundary: save a built model (hierarchy included) and load it
//! without rebuilding. The layout, and what loading checks, are described in
//! `crate::serialize`.

use super::guard;
use super::native::{
    RPQ_ERR_INTERNAL, RPQ_ERR_INVALID_ARGUMENT, RPQ_ERR_NULL_POINTER, RPQ_OK, RpqModel, RpqStatus, model_handle,
    model_ref,
};
use crate::serialize::{model_from_bytes, model_to_bytes, serialized_size};

/// Bytes `rpq_model_serialize` needs for `model` (0 for NULL or an invalid handle).
///
/// # Safety
/// `model` is NULL or a live model.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_serialized_size(model: *const RpqModel) -> usize {
    // SAFETY: forwarded contract.
    guard(0, || unsafe { model_ref(model) }.map_or(0, |m| serialized_size(&m)))
}

/// Writes `model`, its hierarchy included, to `buf` (`len` bytes, at least
/// `rpq_model_serialized_size(model)`), and the number of bytes written to `*written` when
/// `written` is not NULL. The bytes are the same on every platform (little-endian) and load
/// with `rpq_model_deserialize`.
///
/// Errors: `RPQ_ERR_NULL_POINTER` (`model` or `buf` NULL), `RPQ_ERR_INVALID_HANDLE`,
/// `RPQ_ERR_INVALID_ARGUMENT` (`len` too small). Nothing is written on error.
///
/// # Safety
/// `model` is NULL or a live model; `buf` is NULL or points to `len` writable bytes; `written`
/// is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_serialize(
    model: *const RpqModel,
    buf: *mut u8,
    len: usize,
    written: *mut usize,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract.
        let m = match unsafe { model_ref(model) } {
            Ok(m) => m,
            Err(status) => return status,
        };
        if buf.is_null() {
            return RPQ_ERR_NULL_POINTER;
        }
        if len < serialized_size(&m) {
            return RPQ_ERR_INVALID_ARGUMENT;
        }
        let bytes = model_to_bytes(&m);
        // SAFETY: buf holds len >= bytes.len() writable bytes, and cannot overlap the fresh Vec.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf, bytes.len());
            if let Some(w) = written.as_mut() {
                *w = bytes.len();
            }
        }
        RPQ_OK
    })
}

/// Loads a model written by `rpq_model_serialize` (from `len` bytes at `buf`) and writes it to
/// `*out_model`; free it with `rpq_model_free`. The stored hierarchy is used as it is (no
/// refitting): loading takes time linear in `len`, a small fraction of a build. The bytes
/// are checked: length, checksum, format version (bytes of format versions 1 and 2, from
/// older releases, are refused: rebuild those models), finite numbers, the tree's structure,
/// and every leaf's volumes against its triangle. Bytes that fail a check give an error and
/// no model; whatever the bytes, loading and querying the model cannot crash or read out of
/// bounds. What the checks do not prove is that the inner nodes' volumes hold all the
/// triangles below them: deliberately crafted bytes (with a recomputed checksum) can make
/// queries on the loaded model give wrong answers.
///
/// Errors: `RPQ_ERR_NULL_POINTER` (`buf` or `out_model` NULL), `RPQ_ERR_INVALID_ARGUMENT`
/// (the bytes are truncated, corrupted, of another format version or not a model).
///
/// # Safety
/// `buf` is NULL or points to `len` readable bytes; `out_model` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_deserialize(buf: *const u8, len: usize, out_model: *mut *mut RpqModel) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        if buf.is_null() || out_model.is_null() {
            return RPQ_ERR_NULL_POINTER;
        }
        // SAFETY: buf points to len readable bytes per the contract.
        let bytes = unsafe { std::slice::from_raw_parts(buf, len) };
        match model_from_bytes(bytes).map_err(|_| RPQ_ERR_INVALID_ARGUMENT).and_then(model_handle) {
            Ok(handle) => {
                // SAFETY: out_model is non-NULL and writable.
                unsafe { *out_model = handle };
                RPQ_OK
            }
            Err(status) => status,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::native::{rpq_model_build, rpq_model_free, rpq_model_num_triangles};

    #[test]
    fn serialize_and_load_through_the_c_functions() {
        let tris: Vec<f64> = vec![0., 0., 0., 1., 0., 0., 0., 1., 0., 0., 0., 1., 1., 0., 1., 0., 1., 1.];
        let mut model = std::ptr::null_mut();
        // SAFETY: valid arrays and out pointer.
        assert_eq!(unsafe { rpq_model_build(tris.as_ptr(), std::ptr::null(), 2, &mut model) }, RPQ_OK);
        // SAFETY: model is live; the buffers are sized as documented.
        unsafe {
            let size = rpq_model_serialized_size(model);
            assert!(size > 0);
            let mut buf = vec![0u8; size];
            let mut written = 0usize;
            assert_eq!(rpq_model_serialize(model, buf.as_mut_ptr(), size - 1, &mut written), RPQ_ERR_INVALID_ARGUMENT);
            assert_eq!(written, 0, "nothing written on error");
            assert_eq!(rpq_model_serialize(model, buf.as_mut_ptr(), size, &mut written), RPQ_OK);
            assert_eq!(written, size);
            let mut loaded = std::ptr::null_mut();
            assert_eq!(rpq_model_deserialize(buf.as_ptr(), size - 1, &mut loaded), RPQ_ERR_INVALID_ARGUMENT);
            assert!(loaded.is_null());
            assert_eq!(rpq_model_deserialize(buf.as_ptr(), size, &mut loaded), RPQ_OK);
            assert_eq!(rpq_model_num_triangles(loaded), 2);
            buf[40] ^= 1;
            let mut bad = std::ptr::null_mut();
            assert_eq!(rpq_model_deserialize(buf.as_ptr(), size, &mut bad), RPQ_ERR_INVALID_ARGUMENT);
            assert_eq!(rpq_model_deserialize(std::ptr::null(), 0, &mut bad), RPQ_ERR_NULL_POINTER);
            assert_eq!(rpq_model_serialized_size(std::ptr::null()), 0);
            assert_eq!(
                rpq_model_serialize(std::ptr::null(), buf.as_mut_ptr(), size, &mut written),
                RPQ_ERR_NULL_POINTER
            );
            rpq_model_free(loaded);
            rpq_model_free(model);
        }
    }
}
