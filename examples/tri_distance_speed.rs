//! Nanoseconds per `triangle_distance` call on random pairs of a few kinds (fixed seeds, so
//! runs compare): `cargo run --release --example tri_distance_speed -- [rounds] [kind,...]`.

use std::hint::black_box;
use std::time::Instant;

use rapidpqp::geometry::tri_distance::triangle_distance;
use rapidpqp::{Triangle, Vec3};

struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn vec(&mut self, r: f64) -> Vec3 {
        Vec3::new(self.unit() * 2.0 - 1.0, self.unit() * 2.0 - 1.0, self.unit() * 2.0 - 1.0) * r
    }
    fn tri(&mut self, r: f64) -> Triangle {
        [self.vec(r), self.vec(r), self.vec(r)]
    }
}

fn pairs(kind: &str, n: usize) -> Vec<(Triangle, Triangle)> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    (0..n)
        .map(|_| {
            let a = rng.tri(1.0);
            let b = rng.tri(1.0);
            let o = match kind {
                // Separated by 0 to 3 (about half intersect at the low end).
                "random" => rng.vec(1.5),
                // Clearly separated: the common case of a distance query's leaves.
                "apart" => {
                    let d = rng.vec(1.0);
                    d / d.norm() * (2.5 + rng.unit())
                }
                // Mesh-sized triangles close to each other (0.1 size gaps).
                _ => {
                    let d = rng.vec(1.0);
                    d / d.norm() * (2.0 + 0.1 * rng.unit())
                }
            };
            (a, b.map(|p| p + o))
        })
        .collect()
}

fn main() {
    let rounds: usize = std::env::args().nth(1).map_or(20, |s| s.parse().unwrap());
    let only = std::env::args().nth(2);
    for kind in ["random", "apart", "close"] {
        if only.as_ref().is_some_and(|o| !o.split(',').any(|w| w == kind)) {
            continue;
        }
        let ps = pairs(kind, 100_000);
        let mut best = f64::INFINITY;
        let mut sum = 0.0;
        for _ in 0..rounds {
            let start = Instant::now();
            for (a, b) in &ps {
                sum += triangle_distance(black_box(a), black_box(b)).distance;
            }
            best = best.min(start.elapsed().as_secs_f64() * 1e9 / ps.len() as f64);
        }
        println!("{kind:<8} {best:>7.2} ns/pair (best of {rounds})  checksum {:.6e}", sum / rounds as f64);
    }
}
