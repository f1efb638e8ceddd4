//! Small linear-algebra vocabulary shared by every module.

pub use nalgebra::{Matrix3, Vector3};

/// A point or direction in 3-space.
pub type Vec3 = Vector3<f64>;
/// A 3×3 matrix; rotations are stored with the box axes as columns.
pub type Mat3 = Matrix3<f64>;
/// A triangle as its three corners.
pub type Triangle = [Vec3; 3];

/// Where a model sits in the world: a model point `p` is placed at `scale * rotation * p + translation`.
///
/// `rotation` is used as given (like RAPID and PQP, nothing orthonormalises it): a rotation
/// accepted only within the rotation tolerance is inverted as the matrix it is (not by its
/// transpose, beyond `1e-12` from orthonormal), and every query's bounds allow for it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// Rotation part (applied after `scale`).
    pub rotation: Mat3,
    /// Translation part.
    pub translation: Vec3,
    /// Uniform scale, positive.
    pub scale: f64,
}

impl Placement {
    /// The identity: no rotation, no translation, scale 1.
    pub const IDENTITY: Placement = Placement {
        rotation: Matrix3::new(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0),
        translation: Vector3::new(0.0, 0.0, 0.0),
        scale: 1.0,
    };

    /// Placement from a row-major rotation `r[i][j]` (row i, column j) and a translation.
    pub fn from_rows(r: &[[f64; 3]; 3], t: &[f64; 3], scale: f64) -> Placement {
        Placement {
            rotation: Mat3::new(r[0][0], r[0][1], r[0][2], r[1][0], r[1][1], r[1][2], r[2][0], r[2][1], r[2][2]),
            translation: Vec3::new(t[0], t[1], t[2]),
            scale,
        }
    }

    /// True when every number is finite and the scale is positive.
    pub fn is_valid(&self) -> bool {
        self.rotation.iter().all(|v| v.is_finite())
            && self.translation.iter().all(|v| v.is_finite())
            && self.scale.is_finite()
            && self.scale > 0.0
    }

    /// Applies the placement to a point.
    #[inline]
    pub fn apply(&self, p: &Vec3) -> Vec3 {
        self.rotation * p * self.scale + self.translation
    }
}

/// `a` as an array, for the C boundary and for printing.
#[inline]
pub fn to_array(a: &Vec3) -> [f64; 3] {
    [a.x, a.y, a.z]
}

/// The supported range: a query runs only when every coordinate it computes with stays within
/// `2^1000` (about `1.07e301`) in magnitude — each model's own coordinates, and the other
/// model's coordinates placed in its frame (bounded as `scale · ‖R‖∞ · max|coordinate| +
/// |translation|`) — and the relative scale is within `[2^-1000, 2^1000]`. Tiny coordinates
/// have no lower limit (down to the least subnormal): the exact predicates cover the whole
/// finite range, and the only limit is that nothing computed may overflow. Models are built
/// only from coordinates within it.
///
/// cbindgen:ignore
pub const RANGE_LIMIT: f64 = 1.0715086071862673e301;

/// `|v|`, computed scaled so that tiny or huge components lose nothing to underflow or
/// overflow of their squares.
pub fn length(v: &Vec3) -> f64 {
    let m = v.amax();
    if m > 0.0 && m.is_finite() { m * (v / m).norm() } else { m }
}

/// Surface area of a box with edge lengths `e`.
#[inline]
pub(crate) fn box_surface(e: &Vec3) -> f64 {
    2.0 * (e.x * e.y + e.y * e.z + e.z * e.x)
}

/// True when all nine coordinates of a triangle are finite.
pub fn triangle_is_finite(t: &Triangle) -> bool {
    t.iter().all(|p| p.iter().all(|v| v.is_finite()))
}
