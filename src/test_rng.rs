//! The seeded generator of the unit tests (xorshift64*: deterministic, no dependencies), with
//! the random vectors, triangles and rotations the geometry and query tests draw.

use crate::math::{Mat3, Triangle, Vec3};

pub(crate) struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn vec(&mut self, lo: f64, hi: f64) -> Vec3 {
        Vec3::new(self.range(lo, hi), self.range(lo, hi), self.range(lo, hi))
    }
    /// A random unit vector.
    pub fn dir(&mut self) -> Vec3 {
        loop {
            let v = self.vec(-1.0, 1.0);
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }
    pub fn tri(&mut self, lo: f64, hi: f64) -> Triangle {
        [self.vec(lo, hi), self.vec(lo, hi), self.vec(lo, hi)]
    }
    /// A soup of `n` triangles of one of several kinds: 0 ordinary, 1 slivers and zero-area
    /// triangles (segments, points), 2 tiny triangles; centred at `offset`, of size about
    /// `size`.
    pub fn soup(&mut self, n: usize, kind: usize, offset: Vec3, size: f64) -> Vec<Triangle> {
        (0..n)
            .map(|_| {
                let c = self.vec(-1.0, 1.0) * size;
                let t = match kind {
                    0 => {
                        [c + self.vec(-0.2, 0.2) * size, c + self.vec(-0.2, 0.2) * size, c + self.vec(-0.2, 0.2) * size]
                    }
                    1 => {
                        let (p, q) = (c + self.vec(-0.2, 0.2) * size, c + self.vec(-0.2, 0.2) * size);
                        match self.below(3) {
                            0 => [p, q, p + (q - p) * self.unit()],
                            1 => [p, p, q],
                            _ => [p, q, p + (q - p) * 0.5 + self.vec(-1e-9, 1e-9) * size],
                        }
                    }
                    _ => [c, c + self.vec(-1e-6, 1e-6) * size, c + self.vec(-1e-6, 1e-6) * size],
                };
                t.map(|p| p + offset)
            })
            .collect()
    }
    /// A random rotation (from a random unit quaternion).
    pub fn rotation(&mut self) -> Mat3 {
        let q = loop {
            let v = nalgebra::Vector4::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                break v / n;
            }
        };
        nalgebra::UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(q[0], q[1], q[2], q[3]))
            .to_rotation_matrix()
            .into_inner()
    }
    /// A random rotation, sometimes axis-aligned (exact entries) or a quarter turn.
    pub fn rotation_mixed(&mut self) -> Mat3 {
        match self.below(4) {
            0 => Mat3::identity(),
            1 => Mat3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0),
            _ => self.rotation(),
        }
    }
}

/// How many cases a randomized test runs: `normal` in the ordinary suite, `long` when the
/// environment variable `RAPIDPQP_LONG` is set (a long run: `RAPIDPQP_LONG=1 cargo test
/// --release`).
pub(crate) fn budget(normal: usize, long: usize) -> usize {
    if std::env::var_os("RAPIDPQP_LONG").is_some() { long } else { normal }
}
