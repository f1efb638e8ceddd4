//! rapidpqp: mesh–mesh proximity queries (collision, distance, tolerance) on bounding-volume
//! hierarchies, with drop-in C interfaces for the UNC RAPID, PQP and V-COLLIDE libraries.
//!
//! Modules follow the data: [`math`] → [`geometry`] (exact triangle tests) → [`bv`] (bounding
//! volumes) → [`model`] (triangle soup and its hierarchy) → [`query`] → `ffi` (the C boundary,
//! built with the `capi` feature only).
//!
//! # Using it from Rust
//!
//! Build a [`Model`] once from triangles ([`Model::new`], [`Model::from_indexed`] or a
//! [`ModelBuilder`]); it is immutable and may be queried from any number of threads. Place
//! two models with a [`Placement`] each (a model point `p` sits at
//! `scale * rotation * p + translation`) and ask a query of [`query`]:
//! [`query::collide()`] (intersecting triangle pairs), [`query::distance()`] (closest points),
//! [`query::tolerance`] (closer than a tolerance?), the solid queries of closed models
//! ([`query::solid_collide`], [`query::signed_distances`], [`query::separation`]) and the motion
//! queries ([`query::sweep()`], [`query::time_of_impact`], [`query::removal_directions`]).
//! `examples/quickstart.rs` is a complete program.
//!
//! ```
//! use rapidpqp::query::{CollideRequest, CollideResult, DistanceRequest, collide, distance, tolerance};
//! use rapidpqp::{Model, Placement, Vec3};
//!
//! // The unit cube [0, 1]³ as 8 corners and 12 outward-facing triangles.
//! let corners: Vec<Vec3> = (0..8).map(|k| Vec3::new((k >> 2 & 1) as f64, (k >> 1 & 1) as f64, (k & 1) as f64)).collect();
//! let faces = [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
//!              [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]];
//! let cube = Model::from_indexed(&corners, &faces)?;
//!
//! let here = Placement::IDENTITY;
//! let shifted = |x: f64| Placement { translation: Vec3::new(x, 0.0, 0.0), ..Placement::IDENTITY };
//!
//! // Overlapping by half a side: triangles intersect.
//! let mut contacts = CollideResult::new();
//! collide(&cube, &here, &cube, &shifted(0.5), &CollideRequest::default(), &mut contacts)?;
//! assert!(contacts.colliding());
//!
//! // 0.25 apart: no contact; the exact distance, with a closest point on each model.
//! collide(&cube, &here, &cube, &shifted(1.25), &CollideRequest::default(), &mut contacts)?;
//! assert!(!contacts.colliding());
//! let d = distance(&cube, &here, &cube, &shifted(1.25), &DistanceRequest::default(), None)?;
//! assert!((d.distance - 0.25).abs() < 1e-12);
//! assert!((d.p1.x - 1.0).abs() < 1e-12 && d.p2.x.abs() < 1e-12); // each in its own frame
//!
//! // Tolerance: closer than 0.3, not closer than 0.2.
//! assert!(tolerance(&cube, &here, &cube, &shifted(1.25), 0.3, 2, None)?.closer);
//! assert!(!tolerance(&cube, &here, &cube, &shifted(1.25), 0.2, 2, None)?.closer);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Linear algebra: nalgebra
//!
//! Points and matrices in the API are [nalgebra](https://nalgebra.org) types: [`Vec3`] is
//! `nalgebra::Vector3<f64>`, [`Mat3`] is `nalgebra::Matrix3<f64>` (a [`Placement`]'s
//! rotation) and a [`Triangle`] is `[Vec3; 3]`. The crate re-exports the nalgebra it is built
//! with as [`rapidpqp::nalgebra`](nalgebra), so a program can name the exact version it
//! needs (`rapidpqp::nalgebra::Rotation3`, …) without a dependency of its own that might
//! resolve to another, incompatible version:
//!
//! ```
//! use rapidpqp::nalgebra::{Rotation3, Vector3};
//! use rapidpqp::{Placement, Vec3};
//!
//! let quarter_turn = Rotation3::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_2);
//! let pose = Placement { rotation: *quarter_turn.matrix(), ..Placement::IDENTITY };
//! let moved = pose.apply(&Vec3::new(1.0, 0.0, 0.0));
//! assert!((moved - Vec3::new(0.0, 1.0, 0.0)).norm() < 1e-15);
//! ```
//!
//! # C and Python
//!
//! The C API (the native `rpq_*` functions and the legacy RAPID, PQP and V-COLLIDE entry
//! points) is declared in `include/rapidpqp.h`; the `ffi` module (feature `capi`) holds its Rust side. The Python
//! package (`python/`) calls the native C API.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod bv;
// The C boundary: only in the C library's build (feature `capi`), never in the rlib a Rust
// dependent gets, which then carries no exported C symbols. Its items are documented for C
// users in the generated headers (cbindgen copies their doc comments there); its mirrors of
// the originals' structs keep the originals' field names.
#[cfg(feature = "capi")]
#[allow(missing_docs)]
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
/// The nalgebra this crate is built with (its [`Vec3`] and [`Mat3`] are nalgebra types).
pub use nalgebra;

/// The Rust code blocks of the documentation, run as doctests (`tests/doc_blocks.rs` lists who
/// runs the other blocks). Each file's blocks stand alone.
#[cfg(doctest)]
mod documentation {
    #[doc = include_str!("../README.md")]
    struct Readme;
    #[doc = include_str!("../docs/queries.md")]
    struct Queries;
    #[doc = include_str!("../docs/rust.md")]
    struct Rust;
}
