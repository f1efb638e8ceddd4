//! The C boundary. Every exported symbol lives below this module; the geometry core above
//! it is safe Rust.
//!
//! Each exported body runs inside [`guard`], which turns a Rust panic into an error status,
//! so no panic ever unwinds into the host program.

pub mod batch;
pub mod cxx;
pub mod native;
pub mod pqp;
pub mod rapid;
pub mod serialize;
pub mod vcollide;

use std::any::TypeId;
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

/// Runs `body`, returning `on_panic` instead if it panics.
pub(crate) fn guard<T>(on_panic: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(on_panic)
}

/// Addresses of the live handles, each with the Rust type it was made as (`None` for raw
/// buffers registered by address only), so that freeing a pointer twice, passing a pointer
/// the library never returned, or passing a handle of another kind (a `RAPID_model *` cast to
/// `PQP_Model *`) is detected instead of corrupting the heap. A freed address may be handed
/// out again by a later `_new`; then it is live again.
static LIVE_HANDLES: Mutex<Option<HashMap<usize, Option<TypeId>>>> = Mutex::new(None);

fn with_registry<R>(f: impl FnOnce(&mut HashMap<usize, Option<TypeId>>) -> R) -> R {
    let mut live = LIVE_HANDLES.lock().unwrap_or_else(|e| e.into_inner());
    f(live.get_or_insert_with(HashMap::new))
}

/// Registers a raw buffer by address (no type).
pub(crate) fn register_handle(address: usize) {
    with_registry(|live| live.insert(address, None));
}

/// Forgets an address; false if it was not live (never registered, or already freed).
pub(crate) fn unregister_handle(address: usize) -> bool {
    with_registry(|live| live.remove(&address).is_some())
}

/// True when the address is live, whatever its kind.
pub(crate) fn is_live_handle(address: usize) -> bool {
    with_registry(|live| live.contains_key(&address))
}

/// True when `ptr` is a live handle made by [`new_handle`] as a `T`.
pub(crate) fn is_live<T: 'static>(ptr: *const T) -> bool {
    with_registry(|live| live.get(&(ptr as usize)) == Some(&Some(TypeId::of::<T>())))
}

/// Boxes `value`, registers it as a live handle of type `T` and returns the raw pointer.
pub(crate) fn new_handle<T: 'static>(value: T) -> *mut T {
    let ptr = Box::into_raw(Box::new(value));
    with_registry(|live| live.insert(ptr as usize, Some(TypeId::of::<T>())));
    ptr
}

/// Frees a handle made by [`new_handle`]; NULL, pointers that are not live and handles of
/// another type are ignored.
///
/// # Safety
/// `ptr` is NULL or was returned by some `new_handle`.
pub(crate) unsafe fn free_handle<T: 'static>(ptr: *mut T) {
    let owned = !ptr.is_null()
        && with_registry(|live| match live.get(&(ptr as usize)) {
            Some(Some(tag)) if *tag == TypeId::of::<T>() => live.remove(&(ptr as usize)).is_some(),
            _ => false,
        });
    if owned {
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
