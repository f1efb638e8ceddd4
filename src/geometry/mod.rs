//! Exact and near-exact primitive tests on triangles.

pub mod predicates;
pub mod segment_triangle;
pub mod tri_contact;
pub mod tri_distance;
pub mod tri_intersect;
pub mod tri_sweep;
