//! Deforming scenes for the refit tests and benchmarks (shared by `tests/refit.rs` and
//! `benches/src/refit.rs` through `#[path]`, so that both run the very same frames): a cloth
//! sheet draped over a mesh, and a mesh deformed by a smooth displacement field. Seeded and
//! deterministic; only `rapidpqp`'s public types are used.
#![allow(dead_code)]

use rapidpqp::Vec3;
use rapidpqp::io::Mesh;

/// A small deterministic generator (xorshift), for the phases of the fields.
pub struct SceneRng(pub u64);

impl SceneRng {
    pub fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The axis-aligned bounds of `points`.
pub fn bounds(points: &[Vec3]) -> (Vec3, Vec3) {
    let mut lo = Vec3::repeat(f64::INFINITY);
    let mut hi = Vec3::repeat(f64::NEG_INFINITY);
    for p in points {
        lo = lo.inf(p);
        hi = hi.sup(p);
    }
    (lo, hi)
}

/// A cloth sheet of `cells × cells` squares (two triangles each) falling onto `body` (y up)
/// and draping over it: vertex positions per frame from [`Cloth::frame`].
pub struct Cloth {
    pub cells: usize,
    /// Vertex `i * (cells + 1) + j` sits over `(x0 + i * step, z0 + j * step)`.
    x0: f64,
    z0: f64,
    step: f64,
    /// The body's height under each vertex (its highest vertex near it), or -inf.
    height: Vec<f64>,
    /// Where the sheet starts (above the body) and the body's size.
    top: f64,
    size: f64,
    phase: [f64; 4],
}

impl Cloth {
    /// A sheet 1.4 times the body's width in x and z, over its top.
    pub fn new(body: &Mesh, cells: usize, seed: u64) -> Cloth {
        let (lo, hi) = bounds(&body.vertices);
        let size = (hi - lo).amax();
        let (cx, cz) = (0.5 * (lo.x + hi.x), 0.5 * (lo.z + hi.z));
        let width = 1.4 * (hi.x - lo.x).max(hi.z - lo.z);
        let step = width / cells as f64;
        let (x0, z0) = (cx - 0.5 * width, cz - 0.5 * width);
        let n = cells + 1;
        // Height field of the body on the vertex grid, dilated by one cell.
        let mut cellmax = vec![f64::NEG_INFINITY; n * n];
        for p in &body.vertices {
            let i = ((p.x - x0) / step).round();
            let j = ((p.z - z0) / step).round();
            if i >= 0.0 && j >= 0.0 && (i as usize) < n && (j as usize) < n {
                let k = i as usize * n + j as usize;
                cellmax[k] = cellmax[k].max(p.y);
            }
        }
        let mut height = vec![f64::NEG_INFINITY; n * n];
        for i in 0..n {
            for j in 0..n {
                let mut h = f64::NEG_INFINITY;
                for a in i.saturating_sub(1)..(i + 2).min(n) {
                    for b in j.saturating_sub(1)..(j + 2).min(n) {
                        h = h.max(cellmax[a * n + b]);
                    }
                }
                height[i * n + j] = h;
            }
        }
        let mut rng = SceneRng(seed | 1);
        let phase = std::array::from_fn(|_| std::f64::consts::TAU * rng.next());
        Cloth { cells, x0, z0, step, height, top: hi.y + 0.1 * size, size, phase }
    }

    pub fn num_vertices(&self) -> usize {
        (self.cells + 1) * (self.cells + 1)
    }

    /// The sheet's triangles as vertex indices (2 cells² triangles).
    pub fn faces(&self) -> Vec<[u32; 3]> {
        let n = (self.cells + 1) as u32;
        let mut faces = Vec::with_capacity(2 * self.cells * self.cells);
        for i in 0..self.cells as u32 {
            for j in 0..self.cells as u32 {
                let v = i * n + j;
                faces.push([v, v + n, v + n + 1]);
                faces.push([v, v + n + 1, v + 1]);
            }
        }
        faces
    }

    /// Vertex positions at `frame` (of `frames`): the sheet falls from above the body and
    /// settles on it (resting a little below its top vertices, so that it touches and crosses
    /// the surface), rippling as it goes.
    pub fn frame(&self, frame: usize, frames: usize) -> Vec<Vec3> {
        let t = frame as f64 / frames.max(1) as f64;
        let n = self.cells + 1;
        let fall = self.top - 1.2 * self.size * t.min(1.0);
        let floor = self.top - 1.2 * self.size;
        let ripple = 0.01 * self.size;
        let mut out = Vec::with_capacity(n * n);
        for i in 0..n {
            for j in 0..n {
                let (x, z) = (self.x0 + i as f64 * self.step, self.z0 + j as f64 * self.step);
                let u = (x - self.x0) / self.size;
                let w = (z - self.z0) / self.size;
                let wave = ripple
                    * ((9.0 * u + 7.0 * t + self.phase[0]).sin() * (8.0 * w + self.phase[1]).cos()
                        + 0.5 * (17.0 * (u + w) + 11.0 * t + self.phase[2]).sin());
                let rest = self.height[i * n + j].max(floor) - 0.005 * self.size;
                out.push(Vec3::new(x, fall.max(rest) + wave, z));
            }
        }
        out
    }
}

/// A smooth displacement field (a sum of sines) applied to a mesh's vertices: frame `t`
/// moves each vertex by up to `amplitude` times the mesh's size.
pub struct Wobble {
    pub rest: Vec<Vec3>,
    size: f64,
    amplitude: f64,
    waves: Vec<(Vec3, Vec3, f64, f64)>,
}

impl Wobble {
    pub fn new(rest: Vec<Vec3>, amplitude: f64, seed: u64) -> Wobble {
        let (lo, hi) = bounds(&rest);
        let size = (hi - lo).amax();
        let mut rng = SceneRng(seed | 1);
        let unit = |rng: &mut SceneRng| {
            Vec3::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5).try_normalize(1e-9).unwrap_or(Vec3::x())
        };
        let waves = (0..4)
            .map(|_| {
                let k = unit(&mut rng) * (2.0 + 6.0 * rng.next()) / size;
                let d = unit(&mut rng);
                (k, d, std::f64::consts::TAU * rng.next(), 0.5 + rng.next())
            })
            .collect();
        Wobble { rest, size, amplitude, waves }
    }

    /// Positions at time `t` (in frames).
    pub fn frame(&self, t: f64) -> Vec<Vec3> {
        let a = self.amplitude * self.size / self.waves.len() as f64;
        self.rest
            .iter()
            .map(|p| {
                let mut q = *p;
                for (k, d, phase, speed) in &self.waves {
                    q += d * (a * (k.dot(p) + phase + 0.2 * speed * t).sin());
                }
                q
            })
            .collect()
    }
}

/// A closed UV sphere (`rings × segments` quads, poles fanned) as vertices and faces.
pub fn uv_sphere(rings: usize, segments: usize, centre: Vec3, radius: f64) -> Mesh {
    let mut vertices = vec![centre + Vec3::new(0.0, radius, 0.0)];
    for r in 1..rings {
        let theta = std::f64::consts::PI * r as f64 / rings as f64;
        for s in 0..segments {
            let phi = 2.0 * std::f64::consts::PI * s as f64 / segments as f64;
            vertices.push(centre + Vec3::new(theta.sin() * phi.cos(), theta.cos(), theta.sin() * phi.sin()) * radius);
        }
    }
    vertices.push(centre - Vec3::new(0.0, radius, 0.0));
    let ring = |r: usize, s: usize| (1 + (r - 1) * segments + s % segments) as u32;
    let last = (vertices.len() - 1) as u32;
    let mut faces = Vec::new();
    for s in 0..segments {
        faces.push([0, ring(1, s + 1), ring(1, s)]);
        faces.push([last, ring(rings - 1, s), ring(rings - 1, s + 1)]);
    }
    for r in 1..rings - 1 {
        for s in 0..segments {
            let (a, b, c, d) = (ring(r, s), ring(r, s + 1), ring(r + 1, s + 1), ring(r + 1, s));
            faces.push([a, b, c]);
            faces.push([a, c, d]);
        }
    }
    Mesh { vertices, faces }
}
