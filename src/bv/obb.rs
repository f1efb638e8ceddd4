//! Oriented bounding boxes (Gottschalk, Lin, Manocha 1996) and their separating-axis test.

use crate::math::{Mat3, Vec3};

/// A box in its model's frame: the points `center + axes * u` with `|u_k| <= half[k]`.
/// `axes` is orthonormal (columns are the box axes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obb {
    pub axes: Mat3,
    pub center: Vec3,
    pub half: Vec3,
}

/// Which separating axes a box-pair test tries. All variants are conservative, so all
/// give the same contacts; they differ in how much they prune and what a test costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(C)]
pub enum BoxTest {
    /// The full 15-axis separating-axis test (RAPID's): 6 face normals, 9 edge crosses.
    #[default]
    Sat15 = 0,
    /// Only the 6 face normals ("SAT-lite"): cheaper, prunes a little less.
    SatLite = 1,
}

impl Obb {
    /// The box with the given axes that contains every point, grown by `margin` on each side.
    pub fn fit(axes: &Mat3, points: impl Iterator<Item = Vec3>, margin: f64) -> Obb {
        let mut lo = Vec3::repeat(f64::INFINITY);
        let mut hi = Vec3::repeat(f64::NEG_INFINITY);
        let at = axes.transpose();
        for p in points {
            let u = at * p;
            lo = lo.inf(&u);
            hi = hi.sup(&u);
        }
        let mid = (lo + hi) * 0.5;
        let half = (hi - lo) * 0.5 + Vec3::repeat(margin);
        Obb { axes: *axes, center: axes * mid, half }
    }

    /// The largest half-extent: the size used to decide which box of a pair to split.
    #[inline]
    pub fn size(&self) -> f64 {
        self.half.x.max(self.half.y).max(self.half.z)
    }

    /// True when every point is inside the box (up to `tolerance`); for tests and validation.
    pub fn contains(&self, p: &Vec3, tolerance: f64) -> bool {
        let u = self.axes.transpose() * (p - self.center);
        (0..3).all(|k| u[k].abs() <= self.half[k] + tolerance)
    }
}

/// Separating-axis test of box `a` against box `b` given in a's frame: `b_axes` and `b_center`
/// are b's axes and centre expressed in a's *box* frame, `b_half` its half-extents (already
/// scaled). `slack` is added to every radius sum to absorb rounding of the transform.
/// Returns true when the boxes are disjoint. Touching boxes are not disjoint.
#[inline]
pub fn disjoint(
    a_half: &Vec3,
    b_axes: &Mat3,
    b_center: &Vec3,
    b_half: &Vec3,
    slack: f64,
    test: BoxTest,
) -> bool {
    // Rounding makes near-zero entries of |B| unreliable; a tiny guard keeps the test
    // conservative for nearly parallel edges (RAPID uses 1e-6; exact contacts need less).
    const GUARD: f64 = 1e-12;
    let b = b_axes;
    let t = b_center;
    let mut abs_b = [[0.0f64; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            abs_b[i][j] = b[(i, j)].abs() + GUARD;
        }
    }
    let a = a_half;
    let bh = b_half;
    // A's face normals.
    for i in 0..3 {
        let rb = bh.x * abs_b[i][0] + bh.y * abs_b[i][1] + bh.z * abs_b[i][2];
        if t[i].abs() > a[i] + rb + slack {
            return true;
        }
    }
    // B's face normals.
    for j in 0..3 {
        let ra = a.x * abs_b[0][j] + a.y * abs_b[1][j] + a.z * abs_b[2][j];
        let proj = t.x * b[(0, j)] + t.y * b[(1, j)] + t.z * b[(2, j)];
        if proj.abs() > ra + bh[j] + slack {
            return true;
        }
    }
    if test == BoxTest::SatLite {
        return false;
    }
    // The nine cross products A_i × B_j.
    for i in 0..3 {
        let i1 = (i + 1) % 3;
        let i2 = (i + 2) % 3;
        for j in 0..3 {
            let j1 = (j + 1) % 3;
            let j2 = (j + 2) % 3;
            let proj = t[i2] * b[(i1, j)] - t[i1] * b[(i2, j)];
            let ra = a[i1] * abs_b[i2][j] + a[i2] * abs_b[i1][j];
            let rb = bh[j1] * abs_b[i][j2] + bh[j2] * abs_b[i][j1];
            if proj.abs() > ra + rb + slack {
                return true;
            }
        }
    }
    false
}

/// Orthonormal right-handed axes whose first column is the principal direction of the
/// symmetric 3×3 `covariance` (eigenvalues sorted decreasing). Falls back to the identity
/// when the matrix is not finite.
pub fn principal_axes(covariance: &Mat3) -> Mat3 {
    if !covariance.iter().all(|v| v.is_finite()) {
        return Mat3::identity();
    }
    let eig = nalgebra::SymmetricEigen::new(*covariance);
    let mut order = [0usize, 1, 2];
    order.sort_by(|&i, &j| eig.eigenvalues[j].total_cmp(&eig.eigenvalues[i]));
    let c0 = eig.eigenvectors.column(order[0]).into_owned();
    let c1 = eig.eigenvectors.column(order[1]).into_owned();
    orthonormal_frame(&c0, &c1)
}

/// Right-handed orthonormal frame with first axis along `x` and second as close to `y` as
/// possible. Degenerate inputs fall back to any perpendicular, then to the identity.
pub fn orthonormal_frame(x: &Vec3, y: &Vec3) -> Mat3 {
    let Some(x) = x.try_normalize(0.0).filter(|v| v.iter().all(|c| c.is_finite())) else {
        return Mat3::identity();
    };
    let y = y - x * x.dot(y);
    let y = match y.try_normalize(1e-300).filter(|v| v.iter().all(|c| c.is_finite())) {
        Some(y) => y,
        None => any_perpendicular(&x),
    };
    let z = x.cross(&y).normalize();
    // Re-orthogonalise y against rounding.
    let y = z.cross(&x);
    Mat3::from_columns(&[x, y, z])
}

fn any_perpendicular(x: &Vec3) -> Vec3 {
    let helper = if x.x.abs() <= x.y.abs() && x.x.abs() <= x.z.abs() {
        Vec3::x()
    } else if x.y.abs() <= x.z.abs() {
        Vec3::y()
    } else {
        Vec3::z()
    };
    x.cross(&helper).normalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rot(axis: Vec3, angle: f64) -> Mat3 {
        *nalgebra::Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle).matrix()
    }

    /// Brute force: two boxes overlap iff some point of one is in the other or they
    /// overlap along all 15 axes; here we sample to check the test never prunes a pair of
    /// boxes that share a sampled point.
    #[test]
    fn never_disjoint_when_a_shared_point_exists() {
        let mut seed = 12345u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..20000 {
            let ha = Vec3::new(rnd(), rnd(), rnd());
            let hb = Vec3::new(rnd(), rnd(), rnd());
            let r = rot(Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5), 6.0 * rnd());
            // A point inside a; put b's centre so that this point is inside b too.
            let p = Vec3::new(
                (2.0 * rnd() - 1.0) * ha.x,
                (2.0 * rnd() - 1.0) * ha.y,
                (2.0 * rnd() - 1.0) * ha.z,
            );
            let u = Vec3::new(
                (2.0 * rnd() - 1.0) * hb.x,
                (2.0 * rnd() - 1.0) * hb.y,
                (2.0 * rnd() - 1.0) * hb.z,
            );
            let center = p - r * u;
            assert!(!disjoint(&ha, &r, &center, &hb, 0.0, BoxTest::Sat15));
            assert!(!disjoint(&ha, &r, &center, &hb, 0.0, BoxTest::SatLite));
        }
    }

    #[test]
    fn separated_boxes_are_disjoint() {
        let h = Vec3::new(1.0, 1.0, 1.0);
        let r = rot(Vec3::new(1.0, 1.0, 0.0), 0.3);
        assert!(disjoint(&h, &r, &Vec3::new(5.0, 0.0, 0.0), &h, 0.0, BoxTest::Sat15));
        // Touching faces are not disjoint.
        assert!(!disjoint(&h, &Mat3::identity(), &Vec3::new(2.0, 0.0, 0.0), &h, 0.0, BoxTest::Sat15));
        // Edge-edge separation needs a cross axis: two boxes rotated 45° about different axes.
        let ra = rot(Vec3::z(), std::f64::consts::FRAC_PI_4);
        let rb = rot(Vec3::x(), std::f64::consts::FRAC_PI_4);
        // b in a's frame.
        let rel = ra.transpose() * rb;
        let c = ra.transpose() * Vec3::new(0.0, 1.0 + 1.0 / 2f64.sqrt() + 0.3, 1.0 + 0.3);
        let lite = disjoint(&h, &rel, &c, &h, 0.0, BoxTest::SatLite);
        let full = disjoint(&h, &rel, &c, &h, 0.0, BoxTest::Sat15);
        assert!(full || !lite, "the full test prunes at least what SAT-lite prunes");
    }

    #[test]
    fn fit_contains_points_and_frame_is_orthonormal() {
        let pts: Vec<Vec3> = (0..50)
            .map(|i| {
                let t = i as f64;
                Vec3::new(t.sin() * 3.0, (t * 0.7).cos(), t * 0.01)
            })
            .collect();
        let mut cov = Mat3::zeros();
        for p in &pts {
            cov += p * p.transpose();
        }
        let axes = principal_axes(&cov);
        assert!((axes.transpose() * axes - Mat3::identity()).norm() < 1e-12);
        assert!(axes.determinant() > 0.0);
        let b = Obb::fit(&axes, pts.iter().copied(), 1e-12);
        assert!(pts.iter().all(|p| b.contains(p, 1e-12)));
    }
}
