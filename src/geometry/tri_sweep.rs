//! First time of contact of a triangle translated along a direction against a static triangle.
//!
//! For closed triangles `A`, `B` and a direction `v`, the set of `s` at which `A + s·v` meets
//! `B` is a closed interval: the line `s·v` through the Minkowski difference `D = B − A`, a
//! convex polytope. Two steps find its least point in `[0, s_max]`:
//!
//! 1. Separating axes. Translation does not change the axes that decide whether two convex
//!    polytopes meet, so along each axis `L` the times at which the projections of `A + s·v`
//!    and `B` overlap form an interval (linear in `s`), and the contact times are the
//!    intersection of these intervals over a complete set of axes: the cross products of two
//!    edge directions (the facet normals of a full-dimensional `D`); when `D` is flat, its
//!    normal crossed with each edge; when it is a segment or a point, the directions across
//!    and along it. Each interval is widened by a bound on its rounding, so the intersection
//!    holds every exact contact time; its least point is a lower bound of the first contact,
//!    exact up to the rounding of the axes.
//! 2. Conservative advancement from there: at the current `s` the closest pair of the two
//!    triangles gives a direction `n`, along which the separation is linear in `s` and a lower
//!    bound of the distance; the search advances to its root (never past the exact one) until
//!    the triangles are within the tolerance ([`contact_tolerance`]). This polishes what the
//!    rounded axes left (grazing approaches, where a small error in an axis moves its time).
//!
//! Contract, for finite input (`A`, `B`, `v` as given, exact real numbers):
//! * never late: the returned `s` is at most the exact first contact `s0` (plus one ulp of `s`
//!   when the end-game's bisection decides it);
//! * contact up to the tolerance: at the returned `s`, the distance between `A + s·v` and `B`
//!   is at most [`contact_tolerance`] — a few hundred rounding units of the coordinates'
//!   magnitude (so pairs that stay that close without touching count as touching);
//! * `None` only when the exact triangles do not touch for any `s` in `[0, s_max]`.
//!
//! Grazing contacts (a vertex sliding on a face, parallel edges, coplanar faces) and zero-area
//! triangles need no special case beyond the axes of flat and thin differences.

use crate::geometry::tri_distance::triangle_distance;
use crate::math::{Triangle, Vec3};

/// A contact found by [`triangle_sweep`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TriSweep {
    /// The first time of contact (see the module's contract).
    pub s: f64,
    /// A point of the moved triangle `A + s·v` (as computed, rounded) …
    pub p: Vec3,
    /// … and a point of `B` within the tolerance of it.
    pub q: Vec3,
    /// Distance computations taken (advancement steps and end-game probes).
    pub steps: u32,
}

/// The most advancement steps [`triangle_sweep`] takes before its end-game (golden section and
/// bisection on the distance, see `refine`) takes over; the tests' cases need a few.
pub(crate) const MAX_STEPS: u32 = 100;

/// Absolute rounding floor: products of subnormal numbers lose up to 2^-1075 each.
const FLOOR: f64 = 1e-320;

/// The distance within which [`triangle_sweep`] counts two triangles as touching, for pairs
/// whose coordinates have magnitude `m = max|a|∞ + s·|v|∞ + max|b|∞`: `2^-44 · m` (about 500
/// rounding units), plus an absolute floor in the subnormal range.
pub fn contact_tolerance(m: f64) -> f64 {
    5.684341886080802e-14 * m + FLOOR
}

/// The rounding allowance of a separation along a unit direction, for magnitude `m`.
fn allowance(m: f64) -> f64 {
    32.0 * f64::EPSILON * m + FLOOR
}

/// `a` translated by `t` rounded to the grid of multiples of `q = 2^(e − 52)`, `2^e` above the
/// moved coordinates' magnitude: coordinates on that grid (all those within a factor 2^k of the
/// magnitude that have k trailing zero bits, integers for instance) move exactly, so one
/// triangle keeps the same shape at every `s` of a sweep; the others round by at most `q / 2`,
/// as adding `t` would round them. Either way the translate is within an ulp of the moved
/// magnitude of `a + t`, and distances within that of the exact ones (they are 1-Lipschitz in
/// the vertices).
fn translated(a: &Triangle, t: &Vec3) -> Triangle {
    let m = a.iter().map(|p| p.amax()).fold(0.0, f64::max) + t.amax();
    if !(m > 0.0 && m.is_finite()) {
        return *a;
    }
    // q = 2^(e − 52) with 2^e > m: sums of multiples of q below 2^e are exact.
    let e = m.log2().floor() as i32 + 1;
    let q = 2f64.powi((e - 52).max(-1022));
    let t = t.map(|x| (x / q).round() * q);
    a.map(|p| p + t)
}

/// The largest `f64` below `x` (finite, positive), `x` otherwise.
fn below(x: f64) -> f64 {
    if x > 0.0 && x.is_finite() { f64::from_bits(x.to_bits() - 1) } else { x }
}

/// `x / x.amax()` (0 for 0): a direction that keeps its precision for any length.
fn direction(x: Vec3) -> Vec3 {
    let m = x.amax();
    if m > 0.0 && m.is_finite() { x / m } else { Vec3::zeros() }
}

/// The complete separating axes of `a` and `b` (see the module documentation), each scaled to
/// `|L|∞ = 1` (zero ones are harmless: they accept every time).
fn axes(a: &Triangle, b: &Triangle) -> ([Vec3; 27], usize) {
    let edges = [a[1] - a[0], a[2] - a[1], a[0] - a[2], b[1] - b[0], b[2] - b[1], b[0] - b[2]].map(direction);
    let mut out = [Vec3::zeros(); 27];
    let mut n = 0;
    let (mut normal, mut best) = (Vec3::zeros(), 0.0);
    for i in 0..6 {
        for j in i + 1..6 {
            // (Two edges of one triangle give its normal once: skip the repeats.)
            if (i < 3) == (j < 3) && (i, j) != (0, 1) && (i, j) != (3, 4) {
                continue;
            }
            let c = edges[i].cross(&edges[j]);
            let size = c.amax();
            if size > best {
                (normal, best) = (c, size);
            }
            out[n] = direction(c);
            n += 1;
        }
    }
    // A flat difference: its normal across every edge. (Also added when D is solid, then
    // they are merely redundant.)
    if best > 0.0 {
        let normal = direction(normal);
        for e in &edges {
            out[n] = direction(normal.cross(e));
            n += 1;
        }
    } else {
        // A segment or a point: the longest edge, and three directions across it.
        let e = edges.iter().copied().fold(Vec3::zeros(), |m, e| if e.amax() > m.amax() { e } else { m });
        out[n] = e;
        n += 1;
        for k in 0..3 {
            let c = if e == Vec3::zeros() { Vec3::ith(k, 1.0) } else { direction(e.cross(&Vec3::ith(k, 1.0))) };
            out[n] = c;
            n += 1;
        }
    }
    (out, n)
}

/// The times `s` in `[0, s_end]` at which the projections of `a + s·v` and `b` on `l` may
/// overlap (a superset of the exact set, given rounding), as `(lo, hi)`; `lo > hi` when none.
/// `m` bounds the coordinates' magnitude.
fn axis_window(l: &Vec3, a: &Triangle, b: &Triangle, v: &Vec3, m: f64, s_end: f64) -> (f64, f64) {
    let pa = a.map(|p| l.dot(&p));
    let pb = b.map(|p| l.dot(&p));
    let (a_lo, a_hi) = (pa[0].min(pa[1]).min(pa[2]), pa[0].max(pa[1]).max(pa[2]));
    let (b_lo, b_hi) = (pb[0].min(pb[1]).min(pb[2]), pb[0].max(pb[1]).max(pb[2]));
    // Overlap at s: b_lo − a_hi ≤ s·u ≤ b_hi − a_lo. A dot product with |l|∞ = 1 is off by at
    // most 3ε·3·|x|∞ (plus underflow); the gaps and u carry that, u times s up to s_end.
    let u = l.dot(v);
    let slack = 12.0 * f64::EPSILON * (m + s_end * v.amax()) + FLOOR;
    let (g0, g1) = (b_lo - a_hi - slack, b_hi - a_lo + slack);
    let widen = |x: f64, up: bool| {
        let d = x.abs() * 4.0 * f64::EPSILON + FLOOR;
        if up { x + d } else { x - d }
    };
    if u > 0.0 {
        (widen(g0 / u, false), widen(g1 / u, true))
    } else if u < 0.0 {
        (widen(g1 / u, false), widen(g0 / u, true))
    } else if g0 <= 0.0 && g1 >= 0.0 {
        (f64::NEG_INFINITY, f64::INFINITY)
    } else {
        (1.0, 0.0)
    }
}

/// The first `s` in `[0, s_max]` at which `a + s·v` touches `b`, with the module's contract;
/// `None` when they do not touch in `[0, s_max]`. Touching at `s = 0` gives `s = 0`.
///
/// Any finite input with `s_max ≥ 0` (anything else gives `None`); `v` need not be unit, and
/// `v = 0` asks whether they touch at all.
pub fn triangle_sweep(a: &Triangle, b: &Triangle, v: &Vec3, s_max: f64) -> Option<TriSweep> {
    triangle_sweep_before(a, b, v, s_max, s_max)
}

/// [`triangle_sweep`] when only a contact at most `cut` matters: `None` also when the first
/// contact is later than `cut`, found sooner. A contact at most `cut` is the one
/// [`triangle_sweep`] finds on `[0, s_max]`, whatever `cut` is: a search that keeps the best
/// contact of many pairs finds the same one in any order.
pub fn triangle_sweep_before(a: &Triangle, b: &Triangle, v: &Vec3, s_max: f64, cut: f64) -> Option<TriSweep> {
    let m = a.iter().chain(b).map(|p| p.amax()).fold(0.0, f64::max);
    if !(m.is_finite() && v.amax().is_finite() && s_max >= 0.0) {
        return None;
    }
    // Computed at unit magnitude (times a power of two, exact but for subnormal underflow,
    // which is below every allowance): products of edges neither overflow nor underflow.
    let k = if m > 0.0 { -(m.log2().ceil() as i32) } else { 0 };
    let scale = |p: &Vec3| p * 2f64.powi(k / 2) * 2f64.powi(k - k / 2);
    let (sa, sb, sv) = (a.map(|p| scale(&p)), b.map(|p| scale(&p)), scale(v));
    let hit = sweep_unit(&sa, &sb, &sv, s_max, cut, true)?;
    let back = |p: Vec3| p * 2f64.powi(-k / 2) * 2f64.powi(-(k - k / 2));
    Some(TriSweep { p: back(hit.p), q: back(hit.q), ..hit })
}

/// [`triangle_sweep`] for coordinates of magnitude at most about 1; `use_axes: false` (for
/// the tests) leaves the whole work to the advancement.
fn sweep_unit(a: &Triangle, b: &Triangle, v: &Vec3, s_max: f64, cut: f64, use_axes: bool) -> Option<TriSweep> {
    let ma = a.iter().map(|p| p.amax()).fold(0.0, f64::max);
    let mb = b.iter().map(|p| p.amax()).fold(0.0, f64::max);
    let vm = v.amax();
    // A contact at s needs |s·v|∞ ≤ |a|∞ + |b|∞: later times need not be looked at (which
    // also keeps s·v finite however long the sweep is).
    let s_end = s_max.min((ma + mb) * (1.0 + 1e-12) / vm);
    let (axes, count) = axes(a, b);
    let (mut lo, mut hi) = (0.0f64, s_end);
    for l in axes[..count].iter().filter(|_| use_axes) {
        let (l0, l1) = axis_window(l, a, b, v, ma + mb, s_end);
        lo = lo.max(l0);
        hi = hi.min(l1);
        if lo > hi || lo > cut {
            return None;
        }
    }
    let mut s = lo;
    // (Exact about touching: 0, with p = q, exactly when the moved triangles meet.)
    let distance = |s: f64| {
        let d = triangle_distance(&translated(a, &(v * s)), b);
        (d.p, d.q, (d.p - d.q).norm(), contact_tolerance(ma + s * vm + mb))
    };
    for step in 1..=MAX_STEPS {
        let (p, q, len, tolerance) = distance(s);
        let m = ma + s * vm + mb;
        let hit = TriSweep { s, p, q, steps: step };
        if len <= tolerance {
            return Some(hit);
        }
        let n = (p - q) / len;
        // Separation along n at s (the moved vertices as n·a_i + s·(n·v), unrounded), and how
        // fast it can shrink at most.
        let rate = n.dot(v);
        let rate_err = 12.0 * f64::EPSILON * vm + FLOOR;
        let lo_a = a.iter().map(|p| n.dot(p)).fold(f64::INFINITY, f64::min);
        let hi_b = b.iter().map(|p| n.dot(p)).fold(f64::NEG_INFINITY, f64::max);
        let sep = lo_a + s * rate - hi_b - allowance(m);
        let closing = -rate + rate_err;
        if sep > 0.0 && closing <= FLOOR {
            return None; // the separation along n never shrinks
        }
        let next = if sep > 0.0 { below(s + sep / closing * (1.0 - 4.0 * f64::EPSILON)) } else { s };
        // (The first contact is at least `next`: past `cut`, nothing here matters.)
        if next > hi || next > cut {
            return None;
        }
        if next <= s || step == MAX_STEPS {
            // The direction is not precise enough to certify a gap (nearly parallel needles:
            // an axis off by ε/sin θ misses by that times their length).
            return refine(s, hi, step, &distance);
        }
        s = next;
    }
    None
}

/// The end-game when advancement stalls at `s` (the triangles more than the tolerance apart,
/// no direction certifying it): the distance is convex in `s`, so a golden-section search on
/// `[s, hi]` finds a time within the tolerance if there is one (`None` otherwise: the minimum
/// distance is beyond the tolerance, so they never touch), and bisection between `s` and it
/// the first such time, up to one ulp of `s`.
fn refine(s: f64, hi: f64, steps: u32, distance: &dyn Fn(f64) -> (Vec3, Vec3, f64, f64)) -> Option<TriSweep> {
    let mut steps = steps;
    let mut probe = |t: f64| {
        steps += 1;
        let (p, q, len, tolerance) = distance(t);
        (len - tolerance, (p, q))
    };
    let (mut lo, mut up) = (s, hi);
    let mut inside = None;
    for _ in 0..200 {
        let (x1, x2) = (lo + 0.381966 * (up - lo), lo + 0.618034 * (up - lo));
        let (g1, _) = probe(x1);
        let (g2, _) = probe(x2);
        if g1 <= 0.0 {
            inside = Some(x1);
            break;
        }
        if g2 <= 0.0 {
            inside = Some(x2);
            break;
        }
        if g1 < g2 {
            up = x2
        } else {
            lo = x1
        }
        if !(x1 > lo || x2 < up) || up - lo <= f64::EPSILON * up.abs() {
            break;
        }
    }
    let inside = match inside {
        Some(x) => x,
        None if probe(hi).0 <= 0.0 => hi,
        None => return None,
    };
    // Bisection: the distance is above the tolerance at `lo`, within it at `up`.
    let (mut lo, mut up) = (s, inside);
    loop {
        let mid = lo + 0.5 * (up - lo);
        if mid <= lo || mid >= up {
            break;
        }
        if probe(mid).0 <= 0.0 { up = mid } else { lo = mid }
    }
    let (_, (p, q)) = probe(up);
    Some(TriSweep { s: up, p, q, steps })
}

#[cfg(test)]
pub(crate) mod tests;
