//! Closed test meshes with exactly shared vertices (outward normals), an edge check that they
//! are closed, and the solid-angle winding number, for the ray and winding tests.

//!
//! Written against nalgebra alone, so that the integration tests include the same file
//! (`#[path]`) rather than a copy.

use std::collections::HashMap;

type Vec3 = nalgebra::Vector3<f64>;
type Triangle = [Vec3; 3];

/// The axis-aligned box `[lo, hi]`, two triangles a face, outward normals.
pub fn cuboid(lo: Vec3, hi: Vec3) -> Vec<Triangle> {
    let c = |i: usize| {
        Vec3::new(
            if i & 1 == 0 { lo.x } else { hi.x },
            if i & 2 == 0 { lo.y } else { hi.y },
            if i & 4 == 0 { lo.z } else { hi.z },
        )
    };
    // Faces as corner quads, counter-clockwise seen from outside.
    let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    quads.iter().flat_map(|q| [[c(q[0]), c(q[1]), c(q[2])], [c(q[0]), c(q[2]), c(q[3])]]).collect()
}

/// A closed grid surface: `(n, m)` quads of the parametric `f(i, j)` (indices taken modulo
/// `n`, `m`, so shared vertices are the same doubles), two triangles a quad.
fn grid(n: usize, m: usize, f: impl Fn(usize, usize) -> Vec3) -> Vec<Triangle> {
    let mut out = Vec::new();
    for i in 0..n {
        for j in 0..m {
            let (a, b, c, d) = (f(i, j), f(i + 1, j), f(i + 1, j + 1), f(i, j + 1));
            out.push([a, b, c]);
            out.push([a, c, d]);
        }
    }
    out
}

/// A torus around z (radii `r1 > r2`), outward normals.
pub fn torus(n: usize, m: usize, r1: f64, r2: f64) -> Vec<Triangle> {
    grid(n, m, |i, j| {
        let (u, v) =
            (std::f64::consts::TAU * (i % n) as f64 / n as f64, std::f64::consts::TAU * (j % m) as f64 / m as f64);
        Vec3::new((r1 + r2 * v.cos()) * u.cos(), (r1 + r2 * v.cos()) * u.sin(), r2 * v.sin())
    })
}

/// A UV sphere of radius `r` about `c`: rings between the poles, the poles shared exactly
/// (their fans' degenerate triangles dropped), outward normals.
pub fn sphere(n: usize, m: usize, c: Vec3, r: f64) -> Vec<Triangle> {
    let f = |i: usize, j: usize| {
        if j == 0 {
            return c + Vec3::new(0.0, 0.0, -r);
        }
        if j == m {
            return c + Vec3::new(0.0, 0.0, r);
        }
        let (u, v) = (std::f64::consts::TAU * (i % n) as f64 / n as f64, std::f64::consts::PI * j as f64 / m as f64);
        c + Vec3::new(r * v.sin() * u.cos(), r * v.sin() * u.sin(), -r * v.cos())
    };
    let mut out = Vec::new();
    for i in 0..n {
        for j in 0..m {
            let (a, b, cc, d) = (f(i, j), f(i + 1, j), f(i + 1, j + 1), f(i, j + 1));
            if j != 0 {
                out.push([a, b, cc]);
            }
            if j + 1 != m {
                out.push([a, cc, d]);
            }
        }
    }
    out
}

/// A regular-ish tetrahedron with integer corners, outward normals.
pub fn tetrahedron() -> Vec<Triangle> {
    let v = [Vec3::new(0.0, 0.0, 0.0), Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0), Vec3::new(0.0, 0.0, 4.0)];
    vec![[v[0], v[2], v[1]], [v[0], v[1], v[3]], [v[0], v[3], v[2]], [v[1], v[2], v[3]]]
}

/// Each triangle with its corners reversed (normals flipped).
pub fn flipped(t: &[Triangle]) -> Vec<Triangle> {
    t.iter().map(|t| [t[0], t[2], t[1]]).collect()
}

/// True when every directed edge (by exact coordinates) is matched by the reverse edge as
/// often: a closed, consistently oriented mesh.
pub fn is_closed(tris: &[Triangle]) -> bool {
    let key = |v: &Vec3| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()];
    let mut count: HashMap<([u64; 3], [u64; 3]), i64> = HashMap::new();
    for t in tris {
        for i in 0..3 {
            let (a, b) = (key(&t[i]), key(&t[(i + 1) % 3]));
            *count.entry((a, b)).or_default() += 1;
            *count.entry((b, a)).or_default() -= 1;
        }
    }
    count.values().all(|&c| c == 0)
}

/// `v · s + o` for every vertex.
pub fn moved(t: &[Triangle], s: f64, o: Vec3) -> Vec<Triangle> {
    t.iter().map(|t| t.map(|v| v * s + o)).collect()
}

/// The generalized winding number (sum of signed solid angles over 4π; van Oosterom and
/// Strackee), in plain floating point: an independent reference for points clearly off the
/// surface.
pub fn solid_angle_winding(tris: &[Triangle], p: &Vec3) -> f64 {
    let mut sum = 0.0;
    for t in tris {
        let (a, b, c) = (t[0] - p, t[1] - p, t[2] - p);
        let (la, lb, lc) = (a.norm(), b.norm(), c.norm());
        let det = a.dot(&b.cross(&c));
        let den = la * lb * lc + a.dot(&b) * lc + a.dot(&c) * lb + b.dot(&c) * la;
        sum += 2.0 * det.atan2(den);
    }
    sum / (4.0 * std::f64::consts::PI)
}
