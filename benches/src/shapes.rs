//! Scene geometry made in code: tori, UV spheres, boxes, placements, and seeded samples of
//! query points and rays around a mesh.

use std::f64::consts::PI;

use rapidpqp::{Mat3, Placement, Triangle, Vec3};

pub fn placement(rotation: Mat3, translation: Vec3) -> Placement {
    Placement { rotation, translation, scale: 1.0 }
}

pub fn rot_x(a: f64) -> Mat3 {
    *nalgebra::Rotation3::from_axis_angle(&Vec3::x_axis(), a).matrix()
}

/// Torus of major radius `big`, minor `small`, `n` × `m` grid (2·n·m triangles).
pub fn torus(big: f64, small: f64, n: usize, m: usize) -> Vec<Triangle> {
    let v = |i: usize, j: usize| {
        let (u, w) = (2.0 * PI * (i % n) as f64 / n as f64, 2.0 * PI * (j % m) as f64 / m as f64);
        Vec3::new((big + small * w.cos()) * u.cos(), (big + small * w.cos()) * u.sin(), small * w.sin())
    };
    let mut tris = Vec::with_capacity(2 * n * m);
    for i in 0..n {
        for j in 0..m {
            tris.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
            tris.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]);
        }
    }
    tris
}

/// UV sphere with `stacks` × `slices` (2·slices·(stacks−1) triangles), as the fixtures'.
pub fn uv_sphere(r: f64, stacks: usize, slices: usize) -> Vec<Triangle> {
    let ring = |i: usize, j: usize| {
        let (t, p) = (PI * i as f64 / stacks as f64, 2.0 * PI * (j % slices) as f64 / slices as f64);
        Vec3::new(r * (t.sin() * p.cos()), r * (t.sin() * p.sin()), r * t.cos())
    };
    let (north, south) = (Vec3::new(0.0, 0.0, r), Vec3::new(0.0, 0.0, -r));
    let mut tris = Vec::new();
    for j in 0..slices {
        tris.push([north, ring(1, j), ring(1, j + 1)]);
    }
    for i in 1..stacks - 1 {
        for j in 0..slices {
            tris.push([ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)]);
            tris.push([ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)]);
        }
    }
    for j in 0..slices {
        tris.push([ring(stacks - 1, j), south, ring(stacks - 1, j + 1)]);
    }
    tris
}

/// Bounding sphere as the fixtures define it: centre of the bounding box, largest distance.
pub fn bounding_sphere(tris: &[Triangle]) -> (Vec3, f64) {
    let (lo, hi) = bounds(tris);
    let c = (lo + hi) / 2.0;
    (c, tris.iter().flatten().map(|p| (p - c).norm()).fold(0.0, f64::max))
}

/// A bumpy torus of about `n` triangles (rounded to the grid): the large-model scene's input.
pub fn bumpy_torus(n: usize) -> Vec<Triangle> {
    let rows = ((n / 2) as f64 / 4.0).sqrt().round().max(2.0) as usize;
    let cols = (n / 2).div_ceil(rows).max(2);
    let p = |i: usize, j: usize| {
        let (u, v) = (2.0 * PI * (i % cols) as f64 / cols as f64, 2.0 * PI * (j % rows) as f64 / rows as f64);
        let bump = 1.0 + 0.05 * (7.0 * u).sin() * (5.0 * v).cos();
        let r = 4.0 + bump * v.cos();
        Vec3::new(r * u.cos(), r * u.sin(), bump * v.sin())
    };
    let mut tris = Vec::with_capacity(2 * rows * cols);
    for i in 0..cols {
        for j in 0..rows {
            tris.push([p(i, j), p(i + 1, j), p(i + 1, j + 1)]);
            tris.push([p(i, j), p(i + 1, j + 1), p(i, j + 1)]);
        }
    }
    tris.truncate(n);
    tris
}

/// The box `[lo, hi]` as 12 triangles, normals outward.
pub fn cuboid(lo: Vec3, hi: Vec3) -> Vec<Triangle> {
    let p = |i: usize| {
        Vec3::new(
            if i & 1 == 0 { lo.x } else { hi.x },
            if i & 2 == 0 { lo.y } else { hi.y },
            if i & 4 == 0 { lo.z } else { hi.z },
        )
    };
    // Each face as a quad, counter-clockwise seen from outside.
    let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    quads.iter().flat_map(|q| [[p(q[0]), p(q[1]), p(q[2])], [p(q[0]), p(q[2]), p(q[3])]]).collect()
}

/// The bounding box of the triangles' corners.
pub fn bounds(tris: &[Triangle]) -> (Vec3, Vec3) {
    let lo = tris.iter().flatten().fold(Vec3::repeat(f64::INFINITY), |a, p| a.inf(p));
    let hi = tris.iter().flatten().fold(Vec3::repeat(f64::NEG_INFINITY), |a, p| a.sup(p));
    (lo, hi)
}

/// xorshift64*: deterministic samples.
pub struct Rng(pub u64);

impl Rng {
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in the unit cube [0, 1)³.
    pub fn vec(&mut self) -> Vec3 {
        Vec3::new(self.unit(), self.unit(), self.unit())
    }

    /// `n` points uniform in the bounding box of `tris` grown by 10 % (5 % each side), as
    /// `examples/point_queries.rs` and `scripts/trimesh_closest_point.py` sample them.
    pub fn box_points(&mut self, tris: &[Triangle], n: usize) -> Vec<Vec3> {
        let (lo, hi) = bounds(tris);
        (0..n).map(|_| lo - (hi - lo) * 0.05 + (hi - lo).component_mul(&self.vec()) * 1.1).collect()
    }

    /// `n` points near the surface: a uniform point of a random triangle moved by up to 1 % of
    /// the bounding box's diagonal along each axis.
    pub fn near_points(&mut self, tris: &[Triangle], n: usize) -> Vec<Vec3> {
        let (lo, hi) = bounds(tris);
        let diag = (hi - lo).norm();
        (0..n)
            .map(|_| {
                let t = tris[(self.unit() * tris.len() as f64) as usize];
                let (u, v) = (self.unit(), self.unit());
                let (u, v) = if u + v > 1.0 { (1.0 - u, 1.0 - v) } else { (u, v) };
                let on = t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v;
                on + (self.vec() * 2.0 - Vec3::repeat(1.0)) * (0.01 * diag)
            })
            .collect()
    }

    /// `n` rays (origin, direction) from random points of a sphere around `tris` (radius the
    /// bounding box's diagonal, about the box's centre) towards random points of the box, as
    /// `examples/ray_queries.rs` casts them; the direction's length is the distance to the
    /// target.
    pub fn rays(&mut self, tris: &[Triangle], n: usize) -> Vec<(Vec3, Vec3)> {
        let (lo, hi) = bounds(tris);
        let (centre, size) = ((lo + hi) * 0.5, (hi - lo).norm());
        (0..n)
            .map(|_| {
                let dir = loop {
                    let v = self.vec() * 2.0 - Vec3::repeat(1.0);
                    if v.norm() > 0.1 && v.norm() <= 1.0 {
                        break v.normalize();
                    }
                };
                let origin = centre + dir * size;
                (origin, lo + (hi - lo).component_mul(&self.vec()) - origin)
            })
            .collect()
    }
}

/// The triangles moved so that their bounding box's centre is the origin (rotations of the
/// model then turn it about its middle).
pub fn centred(tris: &[Triangle]) -> Vec<Triangle> {
    let (lo, hi) = bounds(tris);
    let c = (lo + hi) * 0.5;
    tris.iter().map(|t| t.map(|p| p - c)).collect()
}
