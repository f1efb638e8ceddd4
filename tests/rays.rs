//! Ray casts and inside/outside on the bundled meshes, against brute force: exact contact sets
//! for rays aimed exactly at vertices, rays from inside closed meshes that must hit, and
//! winding numbers against solid angles for points off the surface.

use rapidpqp::geometry::segment_triangle::{SegmentContact, segment_triangle};
use rapidpqp::geometry::tri_distance::triangle_distance;
use rapidpqp::io::load_obj;
use rapidpqp::query::{Ray, Winding, ray_any_hit, ray_first_hit, segment_hits, winding};
use rapidpqp::{Model, Triangle, Vec3};

// The unit tests' closed meshes and references (nalgebra only), shared rather than copied.
#[allow(dead_code)]
#[path = "../src/query/closed_meshes.rs"]
mod closed_meshes;
use closed_meshes::{is_closed, solid_angle_winding};

fn load(name: &str) -> Model {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("meshes").join(name);
    let mesh = load_obj(&path).unwrap();
    Model::from_indexed(&mesh.vertices, &mesh.faces).unwrap()
}

/// Deterministic pseudo-random numbers in [0, 1).
struct Lcg(u64);
impl Lcg {
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn bounds(tris: &[Triangle]) -> (Vec3, Vec3) {
    let mut lo = Vec3::repeat(f64::INFINITY);
    let mut hi = Vec3::repeat(f64::NEG_INFINITY);
    for v in tris.iter().flatten() {
        lo = lo.inf(v);
        hi = hi.sup(v);
    }
    (lo, hi)
}

/// Rays from outside ending exactly at a vertex touch every triangle having it (exactly, as
/// the brute force finds them), on open and closed meshes; on closed meshes a ray from an
/// inside point towards any vertex hits.
#[test]
fn rays_at_vertices_of_bundled_meshes() {
    let mut rng = Lcg(7);
    // (The dragon has zero-area triangles; the bunny and the dragon have holes.)
    for (name, closed) in [
        ("bunny_15k.obj", false),
        ("dragon_100k.obj", false),
        ("fandisk.obj", true),
        ("rocker_arm.obj", true),
        ("adis16480.obj", true),
    ] {
        let m = load(name);
        let tris = m.triangles();
        assert_eq!(is_closed(tris), closed, "{name}");
        let (lo, hi) = bounds(tris);
        let size = (hi - lo).amax();
        // Inside points of closed meshes, found by the winding number.
        let mut inside = Vec::new();
        while closed && inside.len() < 5 {
            let p = lo + (hi - lo).component_mul(&Vec3::new(rng.unit(), rng.unit(), rng.unit()));
            if winding(&m, &p).unwrap().is_inside() {
                inside.push(p);
            }
        }
        for k in 0..if closed { 60 } else { 25 } {
            let v = tris[(rng.unit() * tris.len() as f64) as usize][k % 3];
            // From outside the box, along a direction with a power-of-two length per axis so
            // that `o + 1·d` is exactly `v`.
            let w = Vec3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5).map(|x| (x * 64.0).round() / 16.0)
                * size;
            let o = v - w;
            if o + w != v || w == Vec3::zeros() || o - v != -w {
                continue;
            }
            let mut hits = Vec::new();
            segment_hits(&m, &o, &v, &mut hits).unwrap();
            let mut got: Vec<u32> = hits.iter().map(|h| h.triangle).collect();
            got.sort();
            let want: Vec<u32> = (0..tris.len() as u32)
                .filter(|&i| segment_triangle(&o, &v, &tris[i as usize]) != SegmentContact::Miss)
                .collect();
            assert_eq!(got, want, "{name}");
            for (i, t) in tris.iter().enumerate() {
                if t.contains(&v) {
                    assert!(got.contains(&(i as u32)), "{name}: triangle {i} at the vertex");
                }
            }
            let ray = Ray { origin: o, direction: w };
            assert!(ray_any_hit(&m, &ray, 1.0).unwrap());
            let first = ray_first_hit(&m, &ray, 1.0).unwrap().unwrap();
            assert_eq!((first.t, first.triangle), (hits[0].t, hits[0].triangle));
            for p in &inside {
                let ray = Ray { origin: *p, direction: v - p };
                // (The ray's far end is rounded, so it may pass the vertex by a hair and hit
                // beyond it where the solid continues; it can never escape.)
                assert!(ray_first_hit(&m, &ray, f64::INFINITY).unwrap().is_some(), "{name}: a ray from inside hits");
                // The segment ending exactly at the vertex touches it.
                segment_hits(&m, p, &v, &mut hits).unwrap();
                assert!(hits.iter().any(|h| tris[h.triangle as usize].contains(&v)), "{name}");
            }
        }
    }
}

/// Winding numbers on the closed bundled meshes: vertices are on the surface, and points
/// clearly off it match the solid-angle winding number.
#[test]
fn winding_numbers_of_bundled_meshes() {
    let mut rng = Lcg(11);
    for name in ["fandisk.obj", "rocker_arm.obj", "adis16480.obj"] {
        let m = load(name);
        let tris = m.triangles();
        assert!(is_closed(tris), "{name}");
        let (lo, hi) = bounds(tris);
        let size = (hi - lo).amax();
        for k in 0..200 {
            assert_eq!(winding(&m, &tris[k * 7 % tris.len()][k % 3]).unwrap(), Winding::OnSurface);
        }
        let (mut inside, mut compared) = (0, 0);
        for _ in 0..60 {
            let p = lo
                + (hi - lo).component_mul(&(Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 1.2 - Vec3::repeat(0.1)));
            let near = tris.iter().map(|t| triangle_distance(t, &[p, p, p]).distance).fold(f64::INFINITY, f64::min);
            if near < 1e-6 * size {
                continue;
            }
            let want = solid_angle_winding(tris, &p);
            assert!((want - want.round()).abs() < 1e-3, "{name}: {want}");
            assert_eq!(winding(&m, &p).unwrap(), Winding::Number(want.round() as i32), "{name} {p:?}");
            inside += (want.round() != 0.0) as usize;
            compared += 1;
        }
        assert!(compared > 50 && inside > 3, "{name}: {compared} {inside}");
    }
}
