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

    /// The inverse of `rotation` as every query uses it (to place one model in the other's
    /// frame): its transpose when it is orthonormal within 1e-12 (as RAPID and PQP), else the
    /// inverse of the matrix as given, so that a rotation accepted within the rotation
    /// tolerance places the model where it is in the world. (The transpose for a singular
    /// matrix, which no placement check accepts.)
    pub fn rotation_inverse(&self) -> Mat3 {
        inverse_rotation(&self.rotation, TRANSPOSE_INVERTS).unwrap_or_else(|| self.rotation.transpose())
    }
}

/// Beyond this deviation from orthonormal (`‖RᵀR − I‖_F`) a placement's rotation is inverted
/// as the matrix it is given as; within it, by its transpose, as RAPID and PQP do (an error of
/// at most this fraction of the coordinates; rotations computed in `f64` deviate by about
/// 1e-15). So a rotation accepted within the rotation tolerance is used as given: every query
/// places the models where their placements put them in the world, in either model's frame.
pub(crate) const TRANSPOSE_INVERTS: f64 = 1e-12;

/// `‖MᵀM − I‖_F`: how far `m` is from orthonormal. (Written out: nalgebra's matrix norm costs
/// several hundred instructions, and every query asks this.)
#[inline]
pub(crate) fn gram_deviation(m: &Mat3) -> f64 {
    let dot = |i: usize, j: usize| m[(0, i)] * m[(0, j)] + m[(1, i)] * m[(1, j)] + m[(2, i)] * m[(2, j)];
    let (d0, d1, d2) = (dot(0, 0) - 1.0, dot(1, 1) - 1.0, dot(2, 2) - 1.0);
    let (o01, o02, o12) = (dot(0, 1), dot(0, 2), dot(1, 2));
    (d0 * d0 + d1 * d1 + d2 * d2 + 2.0 * (o01 * o01 + o02 * o02 + o12 * o12)).sqrt()
}

/// The inverse of a near-rotation `m`: its transpose when `m` is orthonormal within
/// `transpose_within` (see [`TRANSPOSE_INVERTS`]), else the inverse refined by one Newton step
/// (to a few rounding units); `None` for a singular matrix (which no placement check accepts).
#[inline]
pub(crate) fn inverse_rotation(m: &Mat3, transpose_within: f64) -> Option<Mat3> {
    if gram_deviation(m) <= transpose_within {
        return Some(m.transpose());
    }
    refined_inverse(m)
}

/// `m⁻¹`, refined by one Newton step (to a few rounding units for a near-rotation); `None` for
/// a singular matrix.
#[inline]
pub(crate) fn refined_inverse(m: &Mat3) -> Option<Mat3> {
    let x = m.try_inverse()?;
    Some(x + x * (Mat3::identity() - m * x))
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
