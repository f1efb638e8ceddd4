//! Scene geometry made in code: tori, UV spheres, placements.

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
    let mut lo = Vec3::repeat(f64::INFINITY);
    let mut hi = Vec3::repeat(f64::NEG_INFINITY);
    for p in tris.iter().flatten() {
        lo = lo.inf(p);
        hi = hi.sup(p);
    }
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
