//! The C boundary. Every exported symbol lives below this module; the geometry core above
//! it is safe Rust.
//!
//! Each exported body runs inside [`guard`], which turns a Rust panic into an error status,
//! so no panic ever unwinds into the host program.

pub mod native;
pub mod pqp;
pub mod rapid;
pub mod vcollide;
pub mod batch;
pub mod serialize;

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

/// Runs `body`, returning `on_panic` instead if it panics.
pub(crate) fn guard<T>(on_panic: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(on_panic)
}

/// Addresses of the live handles of every kind, so that freeing a pointer twice (or a
/// pointer the library never returned) is detected and ignored instead of corrupting the
/// heap. A freed address may be handed out again by a later `_new`; then it is live again.
static LIVE_HANDLES: Mutex<Option<HashSet<usize>>> = Mutex::new(None);

pub(crate) fn register_handle(address: usize) {
    let mut live = LIVE_HANDLES.lock().unwrap_or_else(|e| e.into_inner());
    live.get_or_insert_with(HashSet::new).insert(address);
}

/// Forgets the handle; false if it was not live (never returned, or already freed).
pub(crate) fn unregister_handle(address: usize) -> bool {
    let mut live = LIVE_HANDLES.lock().unwrap_or_else(|e| e.into_inner());
    live.get_or_insert_with(HashSet::new).remove(&address)
}

pub(crate) fn is_live_handle(address: usize) -> bool {
    let live = LIVE_HANDLES.lock().unwrap_or_else(|e| e.into_inner());
    live.as_ref().is_some_and(|set| set.contains(&address))
}

/// Boxes `value`, registers it as a live handle and returns the raw pointer.
pub(crate) fn new_handle<T>(value: T) -> *mut T {
    let ptr = Box::into_raw(Box::new(value));
    register_handle(ptr as usize);
    ptr
}

/// Frees a handle made by [`new_handle`]; NULL and pointers that are not live are ignored.
///
/// # Safety
/// `ptr` is NULL or was returned by `new_handle::<T>` (with the same `T`).
pub(crate) unsafe fn free_handle<T>(ptr: *mut T) {
    if !ptr.is_null() && unregister_handle(ptr as usize) {
        // SAFETY: the registry says this address came from `Box::into_raw` of a `T` and has
        // not been freed since.
        drop(unsafe { Box::from_raw(ptr) });
    }
}

/// Reads `n` doubles from a C array into a fixed array.
///
/// # Safety
/// `ptr` points to at least `N` readable doubles.
pub(crate) unsafe fn read_array<const N: usize>(ptr: *const f64) -> [f64; N] {
    let mut out = [0.0; N];
    // SAFETY: the caller guarantees N readable doubles.
    out.copy_from_slice(unsafe { std::slice::from_raw_parts(ptr, N) });
    out
}
