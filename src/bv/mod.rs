//! Bounding volumes: oriented boxes for overlap tests, rectangle swept spheres for distances.

pub mod kdop;
pub mod obb;
pub mod rss;
pub mod sphere;

pub use obb::Obb;
pub use rss::Rss;
