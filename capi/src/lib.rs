//! The rapidpqp C library: every `#[no_mangle]` function of the `rapidpqp` crate's C boundary
//! (`rapidpqp::ffi`, the `capi` feature), exported from `librapidpqp.so` and `librapidpqp.a`.
//! No code of its own: the re-export links the crate, whose C symbols rustc exports from a
//! cdylib and bundles into a staticlib (tests/header.rs and the C tests check the set).

pub use rapidpqp_core::*;
