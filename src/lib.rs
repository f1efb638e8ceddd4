//! rapidpqp: mesh–mesh proximity queries (collision, distance, tolerance) on bounding-volume
//! hierarchies, with drop-in C interfaces for the UNC RAPID, PQP and V-COLLIDE libraries.
//!
//! Modules follow the data: [`math`] → [`geometry`] (exact triangle tests) → [`bv`] (bounding
//! volumes) → [`model`] (triangle soup and its hierarchy) → [`query`] → `ffi` (the C boundary,
//! built with the `capi` feature only).
#![deny(unsafe_op_in_unsafe_fn)]

pub mod bv;
// The C boundary: only in the C library's build (feature `capi`), never in the rlib a Rust
// dependent gets, which then carries no exported C symbols.
#[cfg(feature = "capi")]
pub mod ffi;
pub mod geometry;
pub mod io;
pub(crate) mod lanes;
pub mod math;
pub mod model;
pub mod nbody;
pub mod pose;
pub mod query;
pub mod serialize;
#[cfg(test)]
mod test_rng;

pub use math::{Mat3, Placement, Triangle, Vec3};
pub use model::{BuildError, Model, ModelBuilder, SolidError, SolidFacts};
