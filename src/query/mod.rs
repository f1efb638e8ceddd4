//! Queries on pairs of placed models.

pub mod collide;
pub mod distance;

pub use collide::{CollideRequest, CollideResult, ContactPair, TriangleFrame, collide};

use crate::math::{Mat3, Placement, Vec3};

/// Model `b`'s placement in model `a`'s frame: a point `x` of `b` sits at `scale * rotation * x
/// + translation` in `a`'s coordinates.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Relative {
    pub rotation: Mat3,
    pub translation: Vec3,
    pub scale: f64,
}

impl Relative {
    /// From the world placements of `a` and `b`.
    pub fn between(a: &Placement, b: &Placement) -> Relative {
        let at = a.rotation.transpose();
        Relative {
            rotation: at * b.rotation,
            translation: at * (b.translation - a.translation) / a.scale,
            scale: b.scale / a.scale,
        }
    }

    #[inline]
    pub fn apply(&self, p: &Vec3) -> Vec3 {
        if self.scale == 1.0 {
            self.rotation * p + self.translation
        } else {
            (self.rotation * p) * self.scale + self.translation
        }
    }
}
