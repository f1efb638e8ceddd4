//! The fuzz targets' generator (xorshift64*, as `src/test_rng.rs`) and the numbers, triangles
//! and poses they draw: ordinary values most of the time, and the edges of every range.

use rapidpqp::{Triangle, Vec3};

/// SplitMix64's finalizer: spreads a seed over all bits.
pub fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }
    /// True with probability `1/n`.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.index(items.len())]
    }
    /// An `i32` that is often small, sometimes an edge.
    pub fn int(&mut self) -> i32 {
        match self.below(6) {
            0 => self.pick(&[i32::MIN, i32::MAX, -1, 0, 1, i32::MIN + 1, i32::MAX - 1]),
            1 => self.next() as i32,
            _ => self.below(20) as i32 - 5,
        }
    }
    /// A number that is not finite.
    pub fn non_finite(&mut self) -> f64 {
        self.pick(&[f64::NAN, -f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::from_bits(0x7ff0_0000_0000_0001)])
    }
    /// Any double: ordinary, huge, tiny, subnormal, signed zero, not finite, random bits.
    pub fn any_f64(&mut self) -> f64 {
        match self.below(10) {
            0 => self.non_finite(),
            1 => f64::from_bits(self.next()),
            2 => self.pick(&[0.0, -0.0, f64::MAX, f64::MIN, f64::MIN_POSITIVE, 5e-324, -5e-324, 1e300, -1e-300]),
            _ => self.range(-3.0, 3.0),
        }
    }
}

/// How the coordinates of a generated model are drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Style {
    /// Multiples of 1/4 in [-2, 2]: touching, coplanar and degenerate triangles are common,
    /// and placements by quarter turns and dyadic translations are exact.
    Grid,
    /// Uniform in [-1, 1].
    Random,
    /// Zero-area triangles: repeated and collinear corners.
    Degenerate,
    /// Coordinates times a huge or tiny power of two (or a huge offset).
    Extreme,
}

/// The multiplier of an `Extreme` model.
fn extreme_factor(rng: &mut Rng) -> f64 {
    rng.pick(&[2f64.powi(900), 2f64.powi(990), 1e-300, 2f64.powi(-1060), 1e150, 1e-150, 2f64.powi(1010)])
}

pub fn style(rng: &mut Rng) -> Style {
    match rng.below(10) {
        0..=3 => Style::Grid,
        4..=6 => Style::Random,
        7 => Style::Degenerate,
        _ => Style::Extreme,
    }
}

/// `n` triangles of one style (1 to 8 when `n` is 0).
pub fn triangles(rng: &mut Rng, style: Style) -> Vec<Triangle> {
    let n = 1 + rng.index(8);
    let factor = if style == Style::Extreme { extreme_factor(rng) } else { 1.0 };
    let offset = if style == Style::Extreme && rng.one_in(3) { 1e200 } else { 0.0 };
    let point = |rng: &mut Rng| match style {
        Style::Grid => Vec3::new(
            rng.below(17) as f64 / 4.0 - 2.0,
            rng.below(17) as f64 / 4.0 - 2.0,
            rng.below(17) as f64 / 4.0 - 2.0,
        ),
        Style::Random | Style::Degenerate => {
            Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0))
        }
        Style::Extreme => {
            Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)) * factor + Vec3::repeat(offset)
        }
    };
    (0..n)
        .map(|_| {
            let (a, b) = (point(rng), point(rng));
            let c = if style == Style::Degenerate {
                match rng.below(3) {
                    0 => a,
                    1 => a + (b - a) * 0.5,
                    _ => b,
                }
            } else {
                point(rng)
            };
            [a, b, c]
        })
        .collect()
}

/// What a generated rotation block is, for the checks each layer makes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RotKind {
    /// Orthonormal to rounding, determinant +1.
    Proper,
    /// Exactly orthonormal (entries 0 and ±1), determinant +1.
    Exact,
    /// An exact reflection (entries 0 and ±1, determinant −1).
    Reflection,
    /// Plainly not a rotation for any layer (scaled, sheared, zero, far off).
    Bad,
    /// Near a tolerance: any layer may accept or refuse it.
    Doubtful,
    /// Holds a NaN or an infinity.
    NonFinite,
}

/// A pose as every layer takes it: row-major rotation, translation, scale.
#[derive(Clone, Copy, Debug)]
pub struct GenPose {
    pub r: [f64; 9],
    pub t: [f64; 3],
    pub s: f64,
    pub kind: RotKind,
}

/// The 24 proper rotations with entries 0 and ±1 and the 24 reflections.
fn signed_permutation(rng: &mut Rng, proper: bool) -> [f64; 9] {
    loop {
        let perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
        let p = rng.pick(&perms);
        let mut r = [0.0; 9];
        for i in 0..3 {
            r[3 * i + p[i]] = if rng.one_in(2) { 1.0 } else { -1.0 };
        }
        let det = r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6])
            + r[2] * (r[3] * r[7] - r[4] * r[6]);
        if (det > 0.0) == proper {
            return r;
        }
    }
}

/// A random rotation from a random unit quaternion.
pub fn random_rotation(rng: &mut Rng) -> [f64; 9] {
    let q = loop {
        let v = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)];
        let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if n > 0.1 && n <= 1.0 {
            break v.map(|x| x / n);
        }
    };
    let [w, x, y, z] = q;
    [
        1.0 - 2.0 * (y * y + z * z),
        2.0 * (x * y - w * z),
        2.0 * (x * z + w * y),
        2.0 * (x * y + w * z),
        1.0 - 2.0 * (x * x + z * z),
        2.0 * (y * z - w * x),
        2.0 * (x * z - w * y),
        2.0 * (y * z + w * x),
        1.0 - 2.0 * (x * x + y * y),
    ]
}

pub fn rotation(rng: &mut Rng) -> ([f64; 9], RotKind) {
    match rng.below(20) {
        0..=5 => (signed_permutation(rng, true), RotKind::Exact),
        6..=12 => (random_rotation(rng), RotKind::Proper),
        13 => (signed_permutation(rng, false), RotKind::Reflection),
        14 => {
            // Scaled, sheared or zero.
            let mut r = signed_permutation(rng, true);
            match rng.below(3) {
                0 => r = r.map(|x| x * 3.0),
                1 => r[rng.index(9)] += 0.5,
                _ => r = [0.0; 9],
            }
            (r, RotKind::Bad)
        }
        15 => {
            // Off by about the tolerances (1e-6 .. 1e-2): any answer is right.
            let mut r = random_rotation(rng);
            let e = rng.pick(&[1e-6, 3e-6, 1e-5, 3e-5, 1e-4, 1e-3, 3e-3, 1e-2]);
            r[rng.index(9)] += e * rng.range(-2.0, 2.0);
            (r, RotKind::Doubtful)
        }
        16 => {
            let mut r = random_rotation(rng);
            r[rng.index(9)] = rng.non_finite();
            (r, RotKind::NonFinite)
        }
        17 => {
            // Six decimals, as written by programs: accepted by every layer.
            (random_rotation(rng).map(|x| (x * 1e6).round() / 1e6), RotKind::Proper)
        }
        _ => (signed_permutation(rng, true), RotKind::Exact),
    }
}

/// A translation: mostly small (dyadic or not), sometimes huge, tiny or not finite.
pub fn translation(rng: &mut Rng) -> [f64; 3] {
    let mut t = match rng.below(10) {
        0..=4 => [0; 3].map(|_| rng.below(17) as f64 / 4.0 - 2.0),
        5..=7 => [0; 3].map(|_| rng.range(-2.0, 2.0)),
        8 => [0; 3].map(|_| rng.pick(&[1e300, -1e300, 2f64.powi(899), 1e-300, 5e-324, 1e200])),
        _ => [0.0; 3],
    };
    if rng.one_in(25) {
        t[rng.index(3)] = rng.non_finite();
    }
    t
}

/// A scale: mostly 1, sometimes another value in range, an edge of the range, or outside it.
pub fn scale(rng: &mut Rng) -> f64 {
    match rng.below(12) {
        0 => rng.pick(&[0.5, 2.0, 0.25, 4.0]),
        1 => rng.range(0.1, 10.0),
        2 => rng.pick(&[1e-100, 1e100, 9.99e-101, 1.0001e100, 0.0, -1.0, -0.0, 1e300, 1e-300]),
        3 if rng.one_in(3) => rng.non_finite(),
        _ => 1.0,
    }
}

pub fn pose(rng: &mut Rng) -> GenPose {
    let (r, kind) = rotation(rng);
    GenPose { r, t: translation(rng), s: scale(rng), kind }
}
