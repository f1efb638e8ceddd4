//! Exact orientation predicates: Shewchuk's adaptive-precision `orient2d` and `orient3d` (the
//! `robust` crate) where they are exact, an exact big-integer evaluation elsewhere, plus small
//! helpers built only from them and from exact operations (copying, comparing and negating
//! doubles).
//!
//! Every *sign* returned here is exact for the given doubles, over the whole finite range.
//! A first floating-point stage (Shewchuk's, with a term for underflow) decides most signs.
//! Shewchuk's later stages are exact only while no intermediate product overflows or
//! underflows: with every nonzero input of magnitude in `[2^-270, 2^330)` (checked on the
//! exponent bits) no product of three differences or of their error terms leaves the normal
//! range (below), and his adaptive code runs. Otherwise the determinant is evaluated exactly in
//! integers (every double is an integer multiple of 2^-1074), which is slow but rare. The
//! magnitudes returned are approximations.
//!
//! Why that range: a nonzero difference of two doubles of magnitude at least `2^-k` is a
//! nonzero multiple of `2^(-k-52)`, and so is every error term Shewchuk's expansions split off;
//! a product of three of them is a multiple of `2^(-3k-156)`, which stays a normal double
//! (full relative precision, so his error bounds hold) while `3k + 156 <= 1022`: `k <= 288`.
//! With magnitudes at most `2^h`, products of three differences stay below `2^(3h+3)` and
//! the largest expansion sums below `2^(3h+12)`, finite while `h <= 337`.

use crate::math::Vec3;
use robust::{Coord, Coord3D};

#[inline(always)]
fn c3(p: &Vec3) -> Coord3D<f64> {
    Coord3D { x: p.x, y: p.y, z: p.z }
}

#[inline(always)]
fn c2(p: [f64; 2]) -> Coord<f64> {
    Coord { x: p[0], y: p[1] }
}

/// Shewchuk's `orient3d`: positive when `d` lies *below* the plane through `a`, `b`, `c` ("below"
/// being the side from which `a`, `b`, `c` appear clockwise), negative above, zero iff the four
/// points are coplanar. It is the sign of `(a−d)·((b−d)×(c−d))`. Sign exact.
#[inline]
pub fn orient3d(a: &Vec3, b: &Vec3, c: &Vec3, d: &Vec3) -> f64 {
    // Shewchuk's first stage (the same operations and bound as his), plus an absolute term for
    // underflow: every operation errs by at most ε/2 relative plus 2^-1075 absolute, and the
    // absolute parts add up to less than 2^-1073 (|adz| + |bdz| + |cdz| + 2). An overflow makes
    // `det` or the bound infinite or NaN, and strict comparisons then decide nothing. So a sign
    // decided here is exact for every finite input; the rest go to the exact stages.
    let (adx, bdx, cdx) = (a.x - d.x, b.x - d.x, c.x - d.x);
    let (ady, bdy, cdy) = (a.y - d.y, b.y - d.y, c.y - d.y);
    let (adz, bdz, cdz) = (a.z - d.z, b.z - d.z, c.z - d.z);
    let (bdxcdy, cdxbdy) = (bdx * cdy, cdx * bdy);
    let (cdxady, adxcdy) = (cdx * ady, adx * cdy);
    let (adxbdy, bdxady) = (adx * bdy, bdx * ady);
    let det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
    let permanent = (bdxcdy.abs() + cdxbdy.abs()) * adz.abs()
        + (cdxady.abs() + adxcdy.abs()) * bdz.abs()
        + (adxbdy.abs() + bdxady.abs()) * cdz.abs();
    let errbound = O3D_ERRBOUND_A * permanent + f64::MIN_POSITIVE * (adz.abs() + bdz.abs() + cdz.abs() + 2.0);
    if det > errbound || -det > errbound {
        return det;
    }
    orient3d_exact(a, b, c, d)
}

/// Shewchuk's first-stage bounds (his ε is half an ulp of 1).
const HALF_ULP: f64 = f64::EPSILON / 2.0;
const O3D_ERRBOUND_A: f64 = (7.0 + 56.0 * HALF_ULP) * HALF_ULP;
const CCW_ERRBOUND_A: f64 = (3.0 + 16.0 * HALF_ULP) * HALF_ULP;

/// `orient3d` where the first stage could not decide: Shewchuk's adaptive stages inside his
/// exact range, after scaling every input by the same power of two (exact: nothing leaves the
/// normal range) when that brings them all into it, integers otherwise (inputs spanning more
/// than 2^599 in magnitude).
#[cold]
#[inline(never)]
fn orient3d_exact(a: &Vec3, b: &Vec3, c: &Vec3, d: &Vec3) -> f64 {
    let values = [a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z, d.x, d.y, d.z];
    if exact_in_doubles(&values, 3) {
        // Every operation of the first stage is exact (see `exact_in_doubles`): its value is
        // the determinant itself (touching and coplanar inputs with few significant bits, the
        // usual reason the first stage could not decide, are answered here).
        let (adx, bdx, cdx) = (a.x - d.x, b.x - d.x, c.x - d.x);
        let (ady, bdy, cdy) = (a.y - d.y, b.y - d.y, c.y - d.y);
        let (adz, bdz, cdz) = (a.z - d.z, b.z - d.z, c.z - d.z);
        return adz * (bdx * cdy - cdx * bdy) + bdz * (cdx * ady - adx * cdy) + cdz * (adx * bdy - bdx * ady);
    }
    match shift_into_range(&values) {
        Some(0) => robust::orient3d(c3(a), c3(b), c3(c), c3(d)),
        Some(k) => {
            let p = |v: &Vec3| c3(&v.map(|x| times_pow2(x, k)));
            robust::orient3d(p(a), p(b), p(c), p(d))
        }
        None => exact::orient3d(a, b, c, d),
    }
}

/// True when the first-stage formula of a determinant of degree `degree` (3 for `orient3d`, 2
/// for `orient2d`) computes every difference, product and sum of `values` exactly, so that its
/// value is the exact determinant (and its sign the exact sign, zero included).
///
/// Why: let every nonzero input be an integer multiple of `2^e` and below `2^t` in magnitude,
/// with `t - e = s`. A difference is a multiple of `2^e` below `2^(t+1)`; a product of `k`
/// differences (and the 2×2 minors, one more bit) a multiple of `2^(k·e)` below
/// `2^(k·t + k + 1)`; `orient3d`'s sum of three products below `2^(3t + 6)`. A multiple of `2^g`
/// below `2^(g + 53)` is a double (also below the normal range, when `g >= -1074`), and an
/// operation whose exact result is a double returns it. So `3s + 6 <= 53` (`s <= 15`) for
/// `orient3d` and `2s + 3 <= 53` (`s <= 25`) for `orient2d`, with `degree · e >= -1074` and the
/// largest value below `2^1024`. Coordinates with few significant bits (grids, touching
/// placements written with short decimals in binary) pass; general doubles do not.
#[inline]
fn exact_in_doubles(values: &[f64], degree: i32) -> bool {
    let (mut low, mut top) = (i32::MAX, i32::MIN);
    for &x in values {
        let bits = x.to_bits() & !(1 << 63);
        let biased = (bits >> 52) as i32;
        let mantissa = if biased == 0 { bits } else { bits & ((1 << 52) - 1) | 1 << 52 };
        // x = mantissa · 2^(scale), with a subnormal's scale that of the smallest exponent.
        // (A zero counts for neither end: selects, not a branch, as zeros come and go.)
        let scale = biased.max(1) - 1075;
        low = low.min(if bits == 0 { i32::MAX } else { scale + mantissa.trailing_zeros() as i32 });
        top = top.max(scale + 64 - mantissa.leading_zeros() as i32);
    }
    if low == i32::MAX {
        return true; // all zero
    }
    let span = top - low;
    let (max_span, headroom) = if degree == 3 { (15, 6) } else { (25, 3) };
    span <= max_span && degree * low >= -1074 && degree * top + headroom <= 1023
}

/// `floor(log2 |x|)` of a nonzero finite `x` (subnormals included).
pub(crate) fn log2_floor(x: f64) -> i32 {
    let bits = x.to_bits() & !(1 << 63);
    let e = (bits >> 52) as i32;
    if e > 0 { e - 1023 } else { 63 - bits.leading_zeros() as i32 - 1074 }
}

/// The power of two `k` such that every nonzero `x · 2^k` is in Shewchuk's exact range
/// `[2^-270, 2^330)` (0 when they already are), or `None` when the magnitudes span too much.
fn shift_into_range(values: &[f64]) -> Option<i32> {
    if values.iter().fold(true, |ok, &x| ok & in_adaptive_range(x)) {
        return Some(0);
    }
    let (lo, hi) = values
        .iter()
        .filter(|x| **x != 0.0)
        .map(|&x| log2_floor(x))
        .fold((i32::MAX, i32::MIN), |(lo, hi), l| (lo.min(l), hi.max(l)));
    let k = 329 - hi;
    (lo + k >= -270).then_some(k)
}

/// `x · 2^k` for any `k`, exactly when the result is normal (else rounded once, or infinite):
/// in steps of at most `2^±1000` (`2^k` alone may not be a double), each exact while the value
/// stays normal.
pub(crate) fn times_pow2(x: f64, k: i32) -> f64 {
    let step = |k: i32| f64::from_bits(((k + 1023) as u64) << 52);
    let (mut x, mut k) = (x, k);
    while k > 1000 {
        (x, k) = (x * step(1000), k - 1000);
    }
    while k < -1000 {
        (x, k) = (x * step(-1000), k + 1000);
    }
    x * step(k)
}

/// The least nonzero magnitude for which Shewchuk's arithmetic is exact here, and the bound
/// all magnitudes stay below (see the module notes): `2^-270` and `2^330`.
#[cfg(test)]
const ADAPTIVE_MIN: f64 = 5.271098971615262e-82;
#[cfg(test)]
const ADAPTIVE_MAX: f64 = 2.187250724783012e99;

/// True when `x` is zero or of a magnitude Shewchuk's code handles exactly: a biased exponent
/// in `[1023 − 270, 1023 + 329]`, so `2^-270 <= |x| < 2^330` (one subtraction and compare on
/// the bits, no branch).
#[inline(always)]
fn in_adaptive_range(x: f64) -> bool {
    let bits = x.to_bits() << 1; // without the sign
    let exponent = (bits >> 53) as u32;
    (exponent.wrapping_sub(1023 - 270) < 600) | (bits == 0)
}

/// Shewchuk's `orient2d`: positive when `a`, `b`, `c` turn counter-clockwise (`c` left of the
/// directed line `a→b`), negative clockwise, zero iff collinear. Sign exact.
#[inline]
pub fn orient2d(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    // Shewchuk's first stage with an absolute underflow term (as in `orient3d`: the absolute
    // parts add up to less than 2^-1072).
    let detleft = (a[0] - c[0]) * (b[1] - c[1]);
    let detright = (a[1] - c[1]) * (b[0] - c[0]);
    let det = detleft - detright;
    let errbound = CCW_ERRBOUND_A * (detleft.abs() + detright.abs()) + f64::MIN_POSITIVE;
    if det > errbound || -det > errbound {
        return det;
    }
    orient2d_exact(a, b, c)
}

/// `orient2d` where the first stage could not decide (see [`orient3d_exact`]).
#[cold]
#[inline(never)]
fn orient2d_exact(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    let values = [a[0], a[1], b[0], b[1], c[0], c[1]];
    if exact_in_doubles(&values, 2) {
        // Exact first stage (see `exact_in_doubles`).
        return (a[0] - c[0]) * (b[1] - c[1]) - (a[1] - c[1]) * (b[0] - c[0]);
    }
    match shift_into_range(&values) {
        Some(k) => {
            let p = |v: [f64; 2]| c2(v.map(|x| times_pow2(x, k)));
            robust::orient2d(p(a), p(b), p(c))
        }
        None => exact::orient2d(a, b, c),
    }
}

/// Exact determinants in integer arithmetic, for inputs outside Shewchuk's exact range.
mod exact {
    use crate::math::Vec3;

    /// A signed integer, little-endian 32-bit limbs in `u64` cells (products and sums stay in
    /// range before normalising).
    #[derive(Clone, Debug)]
    struct Int {
        neg: bool,
        mag: Vec<u32>,
    }

    impl Int {
        /// `x · 2^1074`, exactly (every finite double is a multiple of `2^-1074`).
        fn of(x: f64) -> Int {
            let bits = x.to_bits();
            let neg = bits >> 63 == 1;
            let exp = ((bits >> 52) & 0x7ff) as u32;
            let frac = bits & ((1 << 52) - 1);
            // x = mant · 2^(shift - 1074).
            let (mant, shift) = if exp == 0 { (frac, 0) } else { (frac | 1 << 52, exp - 1) };
            let mut mag = vec![0u32; (shift as usize + 53) / 32 + 2];
            let (word, bit) = ((shift / 32) as usize, shift % 32);
            let wide = (mant as u128) << bit;
            for k in 0..3 {
                mag[word + k] = (wide >> (32 * k)) as u32;
            }
            Int { neg, mag }.trimmed()
        }
        fn trimmed(mut self) -> Int {
            while self.mag.last() == Some(&0) {
                self.mag.pop();
            }
            if self.mag.is_empty() {
                self.neg = false;
            }
            self
        }
        fn sign(&self) -> f64 {
            if self.mag.is_empty() {
                0.0
            } else if self.neg {
                -1.0
            } else {
                1.0
            }
        }
        fn cmp_mag(a: &[u32], b: &[u32]) -> std::cmp::Ordering {
            a.len().cmp(&b.len()).then_with(|| a.iter().rev().cmp(b.iter().rev()))
        }
        fn add_mag(a: &[u32], b: &[u32]) -> Vec<u32> {
            let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
            let mut carry = 0u64;
            for k in 0..a.len().max(b.len()) {
                let s = carry + *a.get(k).unwrap_or(&0) as u64 + *b.get(k).unwrap_or(&0) as u64;
                out.push(s as u32);
                carry = s >> 32;
            }
            out.push(carry as u32);
            out
        }
        /// `a - b` for `|a| >= |b|`.
        fn sub_mag(a: &[u32], b: &[u32]) -> Vec<u32> {
            let mut out = Vec::with_capacity(a.len());
            let mut borrow = 0i64;
            for (k, &x) in a.iter().enumerate() {
                let mut s = x as i64 - *b.get(k).unwrap_or(&0) as i64 - borrow;
                borrow = i64::from(s < 0);
                s += borrow << 32;
                out.push(s as u32);
            }
            out
        }
        fn add(&self, o: &Int) -> Int {
            if self.neg == o.neg {
                return Int { neg: self.neg, mag: Int::add_mag(&self.mag, &o.mag) }.trimmed();
            }
            match Int::cmp_mag(&self.mag, &o.mag) {
                std::cmp::Ordering::Less => Int { neg: o.neg, mag: Int::sub_mag(&o.mag, &self.mag) }.trimmed(),
                _ => Int { neg: self.neg, mag: Int::sub_mag(&self.mag, &o.mag) }.trimmed(),
            }
        }
        fn neg(&self) -> Int {
            Int { neg: !self.neg, mag: self.mag.clone() }.trimmed()
        }
        fn sub(&self, o: &Int) -> Int {
            self.add(&o.neg())
        }
        fn mul(&self, o: &Int) -> Int {
            let mut acc = vec![0u64; self.mag.len() + o.mag.len() + 1];
            for (i, &x) in self.mag.iter().enumerate() {
                let mut carry = 0u64;
                for (j, &y) in o.mag.iter().enumerate() {
                    let t = acc[i + j] + x as u64 * y as u64 + carry;
                    acc[i + j] = t & 0xffff_ffff;
                    carry = t >> 32;
                }
                let mut k = i + o.mag.len();
                while carry != 0 {
                    let t = acc[k] + carry;
                    acc[k] = t & 0xffff_ffff;
                    carry = t >> 32;
                    k += 1;
                }
            }
            Int { neg: self.neg != o.neg, mag: acc.into_iter().map(|v| v as u32).collect() }.trimmed()
        }
    }

    /// The sign of Shewchuk's `orient3d` determinant, `(a−d)·((b−d)×(c−d))`, as ±1 or 0.
    pub fn orient3d(a: &Vec3, b: &Vec3, c: &Vec3, d: &Vec3) -> f64 {
        let diff = |p: &Vec3| [0, 1, 2].map(|k| Int::of(p[k]).sub(&Int::of(d[k])));
        let (u, v, w) = (diff(a), diff(b), diff(c));
        let minor = |i: usize, j: usize| v[i].mul(&w[j]).sub(&v[j].mul(&w[i]));
        u[0].mul(&minor(1, 2)).add(&u[1].mul(&minor(2, 0))).add(&u[2].mul(&minor(0, 1))).sign()
    }

    /// The sign of `orient2d`'s determinant, `(a−c)×(b−c)`, as ±1 or 0.
    pub fn orient2d(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
        let diff = |p: [f64; 2]| [0, 1].map(|k| Int::of(p[k]).sub(&Int::of(c[k])));
        let (u, v) = (diff(a), diff(b));
        u[0].mul(&v[1]).sub(&u[1].mul(&v[0])).sign()
    }
}

/// `orient3d` with the sign convention of the normal: the exact sign of
/// `((b−a)×(c−a))·(d−a)` (six times the signed volume of the tetrahedron `abcd`), i.e. positive
/// when `d` is on the side the normal `(b−a)×(c−a)` points to. Returns −1, 0 or 1.
#[inline]
pub fn volume_sign(a: &Vec3, b: &Vec3, c: &Vec3, d: &Vec3) -> i8 {
    // Shewchuk's determinant is the negated triple product (row reduction of its 3×3 form).
    sign(-orient3d(a, b, c, d))
}

/// Exact sign of `orient2d` as −1, 0 or 1.
#[inline]
pub fn orient2d_sign(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> i8 {
    sign(orient2d(a, b, c))
}

/// −1, 0 or 1 by the sign of `x` (`x` is never NaN here).
#[inline(always)]
pub fn sign(x: f64) -> i8 {
    (x > 0.0) as i8 - (x < 0.0) as i8
}

/// The point seen along coordinate axis `axis` (0, 1, 2): the other two coordinates, in cyclic
/// order (`x` dropped → `(y, z)`, `y` → `(z, x)`, `z` → `(x, y)`). Exact. With that order
/// `orient2d` of three projected points is the `axis` component of `(b−a)×(c−a)`.
#[inline]
pub fn project(p: &Vec3, axis: usize) -> [f64; 2] {
    match axis {
        0 => [p.y, p.z],
        1 => [p.z, p.x],
        _ => [p.x, p.y],
    }
}

/// Exact sign of component `axis` of the normal `(b−a)×(c−a)`.
#[inline]
pub fn normal_component_sign(a: &Vec3, b: &Vec3, c: &Vec3, axis: usize) -> i8 {
    orient2d_sign(project(a, axis), project(b, axis), project(c, axis))
}

/// True iff `a`, `b`, `c` lie on one line (including coincident points): every component of
/// `(b−a)×(c−a)` is exactly zero.
pub fn collinear(a: &Vec3, b: &Vec3, c: &Vec3) -> bool {
    (0..3).all(|k| normal_component_sign(a, b, c, k) == 0)
}

/// An axis along which the projection of triangle `abc` is non-degenerate (the normal's
/// component on it is exactly non-zero), preferring the normal's largest component for
/// conditioning; `None` iff the three points are collinear. Projecting along such an axis is
/// injective on the triangle's plane, so it preserves every incidence inside that plane.
pub fn projection_axis(a: &Vec3, b: &Vec3, c: &Vec3) -> Option<usize> {
    // A floating-point normal only orders the candidates; the exact test decides.
    let n = (b - a).cross(&(c - a)).abs();
    let first = if n.x >= n.y && n.x >= n.z {
        0
    } else if n.y >= n.z {
        1
    } else {
        2
    };
    [first, (first + 1) % 3, (first + 2) % 3].into_iter().find(|&k| normal_component_sign(a, b, c, k) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_conventions() {
        let o = Vec3::zeros();
        let (x, y, z) = (Vec3::x(), Vec3::y(), Vec3::z());
        // z is on the side of the normal x × y = z: Shewchuk calls that "above" (negative).
        assert!(orient3d(&o, &x, &y, &z) < 0.0);
        assert_eq!(volume_sign(&o, &x, &y, &z), 1);
        assert_eq!(volume_sign(&o, &x, &y, &(-z)), -1);
        assert_eq!(volume_sign(&o, &x, &y, &(x + y)), 0);
        assert!(orient2d([0.0, 0.0], [1.0, 0.0], [0.0, 1.0]) > 0.0);
        assert_eq!(orient2d_sign([0.0, 0.0], [1.0, 1.0], [3.0, 3.0]), 0);
    }

    #[test]
    fn projections_give_normal_components() {
        let a = Vec3::new(0.5, -1.0, 2.0);
        let b = Vec3::new(3.0, 0.25, -1.0);
        let c = Vec3::new(-2.0, 4.0, 1.5);
        let n = (b - a).cross(&(c - a));
        for k in 0..3 {
            assert_eq!(normal_component_sign(&a, &b, &c, k), sign(n[k]));
        }
        assert!(!collinear(&a, &b, &c));
        assert_eq!(projection_axis(&a, &b, &c), Some(2)); // n = (-13.75, -8.75, 16.5625)
    }

    #[test]
    fn shifts_into_the_adaptive_range() {
        assert_eq!(log2_floor(1.0), 0);
        assert_eq!(log2_floor(-0.75), -1);
        assert_eq!(log2_floor(5e-324), -1074);
        assert_eq!(log2_floor(f64::MAX), 1023);
        assert_eq!(shift_into_range(&[0.0, 1.0, -3.0]), Some(0));
        assert_eq!(shift_into_range(&[1e300, 0.0, 1e250]), Some(329 - 996));
        assert_eq!(shift_into_range(&[5e-324, 1e-300]), Some(329 + 997));
        assert_eq!(shift_into_range(&[1e-300, 1.0]), None);
        for k in [-1300, -700, 0, 700, 1300] {
            assert_eq!(times_pow2(1.5, k), 1.5 * 2f64.powi(k / 2) * 2f64.powi(k - k / 2));
        }
        assert_eq!(times_pow2(5e-324, 1074 + 329), 2f64.powi(329));
    }

    #[test]
    fn adaptive_range_bounds_are_the_powers_of_two() {
        assert_eq!(ADAPTIVE_MIN, 2f64.powi(-270));
        assert_eq!(ADAPTIVE_MAX, 2f64.powi(330));
        let below = |x: f64| f64::from_bits(x.to_bits() - 1);
        for s in [1.0, -1.0] {
            assert!(in_adaptive_range(s * ADAPTIVE_MIN) && !in_adaptive_range(s * below(ADAPTIVE_MIN)));
            assert!(in_adaptive_range(s * below(ADAPTIVE_MAX)) && !in_adaptive_range(s * ADAPTIVE_MAX));
            assert!(in_adaptive_range(s * 0.0) && in_adaptive_range(s));
            assert!(!in_adaptive_range(s * 5e-324) && !in_adaptive_range(s * f64::INFINITY));
        }
    }

    /// The integer evaluation agrees with Shewchuk's where his is exact, and the signs stay
    /// exact when every input is scaled by a power of two (which is exact) far outside his
    /// range, from 2^-1074 to near the largest double: near-degenerate inputs (on a plane or
    /// line up to a few ulps) with every scale.
    #[test]
    fn exact_signs_across_the_whole_range() {
        let mut rng = crate::test_rng::Rng(0x00b5_e55e_d0f5_ca1e);
        let mut decided = 0;
        for round in 0..5_000 {
            let mut v = || Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
            let (a, b, c) = (v(), v(), v());
            let (al, be) = (v().x, v().y);
            let nudge = (v().z * 4.0) as i64;
            let d = (a + (b - a) * al + (c - a) * be).map(|x| f64::from_bits((x.to_bits() as i64 + nudge) as u64));
            let d = if round % 5 == 0 { b } else { d };
            let want = sign(robust::orient3d(c3(&a), c3(&b), c3(&c), c3(&d)));
            assert_eq!(sign(exact::orient3d(&a, &b, &c, &d)), want);
            let p = |q: &Vec3| [q.x, q.y];
            let want2 = sign(robust::orient2d(c2(p(&a)), c2(p(&b)), c2(p(&d))));
            assert_eq!(sign(exact::orient2d(p(&a), p(&b), p(&d))), want2);
            decided += usize::from(want != 0);
            // Scaled by 2^e: the sign does not change (no input underflows: |x| >= 2^-60
            // before scaling by at least 2^-1010 keeps them at or above 2^-1070... except
            // those that do, which are skipped).
            for e in [-1010, -700, -400, -300, 300, 400, 700, 960] {
                let s = 2f64.powi(e);
                let sc = |q: &Vec3| q * s;
                if [a, b, c, d].iter().flat_map(|q| q.iter()).any(|x| (x * s) / s != *x) {
                    continue;
                }
                assert_eq!(sign(orient3d(&sc(&a), &sc(&b), &sc(&c), &sc(&d))), want, "2^{e}");
                assert_eq!(sign(orient2d(p(&sc(&a)), p(&sc(&b)), p(&sc(&d)))), want2, "2^{e}");
            }
        }
        assert!(decided > 2_500);
        // A point 2^-1074 above a plane through huge coordinates, and below it.
        let (a, b, c) = (Vec3::new(1e300, 0.0, 0.0), Vec3::new(0.0, 1e300, 0.0), Vec3::new(-1e300, -1e300, 0.0));
        assert_eq!(volume_sign(&a, &b, &c, &Vec3::new(0.0, 0.0, 5e-324)), 1);
        assert_eq!(volume_sign(&a, &b, &c, &Vec3::new(0.0, 0.0, -5e-324)), -1);
        assert_eq!(volume_sign(&a, &b, &c, &Vec3::new(1e-300, 2e-300, 0.0)), 0);
    }

    #[test]
    fn exactness_bounds() {
        // Spans: 1 and 2^-15 is 16 bits (t = 1, e = -15); 2^-14 makes it 15.
        assert!(exact_in_doubles(&[1.0, 0.75, -0.5, 0.0], 3));
        assert!(exact_in_doubles(&[0.0; 12], 3));
        assert!(exact_in_doubles(&[1.5, 2f64.powi(-14)], 3));
        assert!(!exact_in_doubles(&[1.5, 2f64.powi(-15)], 3));
        assert!(exact_in_doubles(&[1.5, 2f64.powi(-24)], 2));
        assert!(!exact_in_doubles(&[1.5, 2f64.powi(-25)], 2));
        assert!(!exact_in_doubles(&[0.1, 0.25], 3), "0.1 has 53 significant bits");
        assert!(!exact_in_doubles(&[1.0000000000009095], 2));
        // Range: products of three must stay multiples of 2^-1074 and below 2^1024.
        assert!(exact_in_doubles(&[2f64.powi(-358)], 3) && !exact_in_doubles(&[2f64.powi(-359)], 3));
        assert!(exact_in_doubles(&[2f64.powi(-537)], 2) && !exact_in_doubles(&[2f64.powi(-538)], 2));
        assert!(exact_in_doubles(&[2f64.powi(338)], 3) && !exact_in_doubles(&[2f64.powi(339)], 3));
        assert!(!exact_in_doubles(&[5e-324], 2) && !exact_in_doubles(&[f64::MAX], 2));
        // A subnormal input that is a multiple of a larger power of two.
        assert!(exact_in_doubles(&[2f64.powi(-1000) * 2f64.powi(-60), 2f64.powi(-1050)], 1));
    }

    /// Inputs with few significant bits, on and beside planes and lines, at many scales: the
    /// signs of the exact-in-doubles shortcut agree with the integer evaluation, and the
    /// shortcut is taken for most of them.
    #[test]
    fn short_inputs_get_exact_signs() {
        let mut rng = crate::test_rng::Rng(0x5407_7b17_5eed_0001);
        let (mut taken, mut zeros) = (0, 0);
        for round in 0..20_000 {
            let bits = 1 + round % 6;
            let shift = [-358, -200, -30, -3, 0, 7, 100, 300][round % 8];
            let scale = 2f64.powi(shift);
            let mut q = || (rng.range(-1.0, 1.0) * (1 << bits) as f64).round() * scale;
            let (a, b, c) = (Vec3::new(q(), q(), q()), Vec3::new(q(), q(), q()), Vec3::new(q(), q(), q()));
            // On the plane abc (integer combinations stay exact), or one step off it.
            let (i, j, off) = ((q() / scale) as i32 % 3, (q() / scale) as i32 % 3, q());
            let mut d = a + (b - a) * i as f64 + (c - a) * j as f64;
            if round % 3 == 0 {
                d.z += off;
            }
            let values = [a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z, d.x, d.y, d.z];
            let want = sign(exact::orient3d(&a, &b, &c, &d));
            assert_eq!(sign(orient3d(&a, &b, &c, &d)), want, "{a:?} {b:?} {c:?} {d:?}");
            taken += usize::from(exact_in_doubles(&values, 3));
            zeros += usize::from(want == 0);
            let p = |v: &Vec3| [v.x, v.y];
            let want2 = sign(exact::orient2d(p(&a), p(&b), p(&d)));
            assert_eq!(sign(orient2d(p(&a), p(&b), p(&d))), want2, "{a:?} {b:?} {d:?}");
        }
        assert!(taken > 10_000 && zeros > 5_000, "taken {taken}, zeros {zeros}");
    }

    #[test]
    fn degenerate_triangles() {
        let a = Vec3::new(1.0, 2.0, 3.0);
        let d = Vec3::new(0.1, 0.7, -0.3);
        // 0.1, 0.7 and -0.3 are not exact, but a + 2(b − a) with b = a + d is computed exactly
        // only for dyadic d; use dyadic steps so the points really are collinear.
        let d = d.map(|v| (v * 1024.0).round() / 1024.0);
        let b = a + d;
        let c = a + d * 4.0;
        assert!(collinear(&a, &b, &c));
        assert!(collinear(&a, &a, &c));
        assert!(collinear(&a, &a, &a));
        assert_eq!(projection_axis(&a, &b, &c), None);
        // A triangle in the plane x = 1 projects non-degenerately only along x.
        let p = Vec3::new(1.0, 0.0, 0.0);
        let q = Vec3::new(1.0, 1.0, 0.0);
        let r = Vec3::new(1.0, 0.0, 1.0);
        assert_eq!(projection_axis(&p, &q, &r), Some(0));
        // One ulp off the line is not collinear.
        let c2 = Vec3::new(c.x, c.y, f64::from_bits(c.z.to_bits() + 1));
        assert!(!collinear(&a, &b, &c2));
    }
}
