//! What a model's triangles make as the boundary of a solid: whether they close up, with a
//! consistent orientation, and the volume they enclose. Computed once per model on first
//! request ([`Model::solid_facts`](crate::Model::solid_facts)) and cached; building a model costs nothing extra.
//!
//! Vertices are welded by exact equality of all three coordinates (`-0.0` equals `0.0`):
//! nothing else (no tolerance) joins two corners. A triangle with two or three corners at the
//! same coordinates is *collapsed*: its edges have zero length or cancel (`a→b` and `b→a`),
//! it bounds nothing and is left out of every count below except `collapsed_triangles` (it
//! still counts for the closest-point and collision queries, as the segment or point it is).
//! A zero-area triangle with three distinct corners (on one line) is a face like any other:
//! its three edges can close a crack at a T-junction.

use std::collections::HashMap;

use crate::geometry::tri_distance::{two_prod, two_sum};
use crate::math::{Triangle, Vec3};

/// Facts about a model's triangles as a solid's boundary (see the module notes for how
/// vertices are welded and which triangles count). Edges are counted once each, undirected;
/// an edge's *uses* are the faces that have it as a side, each in one direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolidFacts {
    /// Triangles with two or three corners at the same coordinates (left out of the rest).
    pub collapsed_triangles: usize,
    /// Triangles counted: all but the collapsed ones.
    pub faces: usize,
    /// Distinct corner coordinates of the faces.
    pub vertices: usize,
    /// Distinct edges of the faces.
    pub edges: usize,
    /// Edges used by exactly one face.
    pub boundary_edges: usize,
    /// Edges used by more than two faces.
    pub non_manifold_edges: usize,
    /// Edges used by two or more faces that are not used as often in one direction as in the
    /// other (two faces using an edge the same way, one of them flipped).
    pub misoriented_edges: usize,
    /// Every edge is used by exactly two faces, in opposite directions: the faces bound a
    /// solid (no boundary, non-manifold or misoriented edge). A model of collapsed triangles
    /// only is closed (it bounds the empty solid).
    pub closed: bool,
    /// No misoriented edge: neighbouring faces agree on their orientation. (With no boundary
    /// edge either, every edge's uses cancel and the winding number about any point off the
    /// surface is a well-defined integer, even across non-manifold edges.)
    pub oriented: bool,
    /// Connected pieces of the faces (faces sharing a vertex are connected).
    pub components: usize,
    /// `vertices − edges + faces`: `2 (components − total genus)` for a closed manifold
    /// surface.
    pub euler_characteristic: i64,
    /// `Σ (a − o) · ((b − o) × (c − o)) / 6` over the faces `abc`, `o` the centre of the
    /// model's bounding box: the enclosed volume, positive when the faces are oriented
    /// counter-clockwise seen from outside (normals `(b − a) × (c − a)` outward), for a closed
    /// model (for an open one it depends on `o`). Each tetrahedron is formed exactly (error-free
    /// products) and summed in double-double arithmetic: accurate to a few rounding units of the
    /// result, plus about `n · 2^-104` of the sum of the `n` tetrahedra's magnitudes. Infinite beyond the
    /// doubles' range (volumes above about 1.8e308, models wider than about 1e102), and
    /// rounded to a subnormal or 0 below theirs: see `signed_volume_exp2`.
    pub signed_volume: f64,
    /// The same volume as `(m, e)` with `signed_volume = m · 2^e`, `|m| ≤ 8` for a closed
    /// model (the bounding box scaled into `[-1, 1]³`): never overflows or underflows,
    /// whatever the model's size.
    pub signed_volume_exp2: (f64, i32),
}

/// A query that needs a closed model ([`SolidFacts::closed`]) was given one that is not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolidError {
    /// Edges used by exactly one face ([`SolidFacts::boundary_edges`]).
    pub boundary_edges: usize,
    /// Edges used by more than two faces ([`SolidFacts::non_manifold_edges`]).
    pub non_manifold_edges: usize,
    /// Edges used unequally often in either direction ([`SolidFacts::misoriented_edges`]).
    pub misoriented_edges: usize,
}

impl std::fmt::Display for SolidError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the model is not closed: {} boundary edges, {} non-manifold, {} misoriented",
            self.boundary_edges, self.non_manifold_edges, self.misoriented_edges
        )
    }
}

impl std::error::Error for SolidError {}

impl SolidFacts {
    /// `Ok` for a closed model; otherwise the counts of the edges that keep it open.
    pub fn require_closed(&self) -> Result<(), SolidError> {
        if self.closed {
            Ok(())
        } else {
            Err(SolidError {
                boundary_edges: self.boundary_edges,
                non_manifold_edges: self.non_manifold_edges,
                misoriented_edges: self.misoriented_edges,
            })
        }
    }

    /// The facts of `triangles` (time and memory linear in their number, plus a hash map of
    /// the distinct vertices).
    pub(crate) fn of(triangles: &[Triangle]) -> SolidFacts {
        let (corners, vertex_count) = weld(triangles);
        let mut facts = SolidFacts {
            collapsed_triangles: 0,
            faces: 0,
            vertices: 0,
            edges: 0,
            boundary_edges: 0,
            non_manifold_edges: 0,
            misoriented_edges: 0,
            closed: false,
            oriented: false,
            components: 0,
            euler_characteristic: 0,
            signed_volume: 0.0,
            signed_volume_exp2: (0.0, 0),
        };
        let is_face = |c: &[usize; 3]| c[0] != c[1] && c[1] != c[2] && c[2] != c[0];
        facts.faces = corners.iter().filter(|c| is_face(c)).count();
        facts.collapsed_triangles = triangles.len() - facts.faces;

        // The faces' directed edges, bucketed by their smaller endpoint (counting sort):
        // entry `other << 1 | reversed`, `reversed` when the edge runs from the larger end.
        let mut start = vec![0usize; vertex_count + 1];
        for c in corners.iter().filter(|c| is_face(c)) {
            for k in 0..3 {
                start[c[k].min(c[(k + 1) % 3]) + 1] += 1;
            }
        }
        for v in 0..vertex_count {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut entries = vec![0u64; start[vertex_count]];
        for c in corners.iter().filter(|c| is_face(c)) {
            for k in 0..3 {
                let (u, v) = (c[k], c[(k + 1) % 3]);
                let (lo, hi) = (u.min(v), u.max(v));
                entries[fill[lo]] = (hi as u64) << 1 | u64::from(u > v);
                fill[lo] += 1;
            }
        }
        drop(fill);

        // Each edge's uses; the faces' vertices and components (union-find over the edges).
        let mut parent: Vec<usize> = (0..vertex_count).collect();
        let mut used = vec![false; vertex_count];
        for lo in 0..vertex_count {
            let bucket = &mut entries[start[lo]..start[lo + 1]];
            bucket.sort_unstable();
            for run in bucket.chunk_by(|x, y| x >> 1 == y >> 1) {
                let hi = (run[0] >> 1) as usize;
                let reversed = run.iter().filter(|&&e| e & 1 == 1).count();
                let forward = run.len() - reversed;
                facts.edges += 1;
                facts.boundary_edges += usize::from(run.len() == 1);
                facts.non_manifold_edges += usize::from(run.len() > 2);
                facts.misoriented_edges += usize::from(run.len() >= 2 && forward != reversed);
                used[lo] = true;
                used[hi] = true;
                let (a, b) = (root(&mut parent, lo), root(&mut parent, hi));
                parent[a.max(b)] = a.min(b);
            }
        }
        facts.vertices = used.iter().filter(|&&u| u).count();
        facts.components = (0..vertex_count).filter(|&v| used[v] && parent[v] == v).count();
        facts.euler_characteristic = facts.vertices as i64 - facts.edges as i64 + facts.faces as i64;
        facts.oriented = facts.misoriented_edges == 0;
        facts.closed = facts.oriented && facts.boundary_edges == 0 && facts.non_manifold_edges == 0;
        let (m, e) = signed_volume(triangles, &corners);
        facts.signed_volume_exp2 = (m, e);
        facts.signed_volume = times_pow2(m, e);
        facts
    }
}

/// `triangles` with each hole closed: the input triangles, then for every boundary loop a fan
/// of triangles from each of its edges to the centroid of the loop's vertices, oriented to
/// agree with the neighbouring faces. Meant for scanned meshes with a few small, roughly
/// planar holes (the bundled bunny's): the fan of a strongly curved or non-convex loop can
/// fold over or cross the surface, and then the result is closed but does not bound the
/// solid one would expect.
///
/// Vertices are welded as [`SolidFacts`] welds them (exact coordinates); a boundary edge is
/// an edge used by one face only. The loops are the chains of boundary edges taken head to
/// tail, in the faces' direction; at a vertex where two loops meet they are walked in the
/// order found, which closes both. Non-manifold and misoriented edges are left as they are
/// (the result is then not closed either), and so is a chain of boundary edges that does not
/// come back to its start. Collapsed triangles are kept and add no boundary edge.
pub fn fill_holes(triangles: &[Triangle]) -> Vec<Triangle> {
    let (corners, _) = weld(triangles);
    let is_face = |c: &[usize; 3]| c[0] != c[1] && c[1] != c[2] && c[2] != c[0];
    // Uses of each undirected edge, and the directed edges (with a coordinate of their tail).
    let mut uses: HashMap<(usize, usize), usize> = HashMap::new();
    let mut directed = Vec::new();
    for (t, c) in triangles.iter().zip(&corners).filter(|(_, c)| is_face(c)) {
        for k in 0..3 {
            let (u, v) = (c[k], c[(k + 1) % 3]);
            *uses.entry((u.min(v), u.max(v))).or_insert(0) += 1;
            directed.push((u, v, t[k]));
        }
    }
    // The boundary edges leaving each vertex (several where loops meet).
    let mut leaving: HashMap<usize, Vec<(usize, Vec3)>> = HashMap::new();
    for &(u, v, p) in &directed {
        if uses[&(u.min(v), u.max(v))] == 1 {
            leaving.entry(u).or_default().push((v, p));
        }
    }
    let mut out = triangles.to_vec();
    let mut starts: Vec<usize> = leaving.keys().copied().collect();
    starts.sort_unstable();
    for start in starts {
        // Walk from `start` along unused boundary edges until back at `start`.
        while leaving.get(&start).is_some_and(|e| !e.is_empty()) {
            let mut chain: Vec<(usize, Vec3)> = Vec::new();
            let mut at = start;
            while let Some((next, p)) = leaving.get_mut(&at).and_then(Vec::pop) {
                chain.push((at, p));
                at = next;
                if at == start {
                    break;
                }
            }
            if at != start || chain.len() < 3 {
                continue;
            }
            let centroid = chain.iter().fold(Vec3::zeros(), |s, (_, p)| s + p) / chain.len() as f64;
            // The face has the edge a→b; the fill uses it b→a.
            for k in 0..chain.len() {
                let (a, b) = (chain[k].1, chain[(k + 1) % chain.len()].1);
                out.push([b, a, centroid]);
            }
        }
    }
    out
}

/// The welded vertex of every corner (`corners[t][k]` for corner `k` of triangle `t`) and
/// the number of distinct vertices.
fn weld(triangles: &[Triangle]) -> (Vec<[usize; 3]>, usize) {
    let mut index: HashMap<[u64; 3], usize> = HashMap::new();
    let corners = triangles
        .iter()
        .map(|t| {
            t.map(|p| {
                // (+ 0.0 turns -0.0 into 0.0 and leaves every other value alone.)
                let key = [(p.x + 0.0).to_bits(), (p.y + 0.0).to_bits(), (p.z + 0.0).to_bits()];
                let next = index.len();
                *index.entry(key).or_insert(next)
            })
        })
        .collect();
    (corners, index.len())
}

/// The representative of `v`'s set, halving the path on the way.
fn root(parent: &mut [usize], mut v: usize) -> usize {
    while parent[v] != v {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    v
}

/// The signed volume of the faces as `(m, e)`, volume `m · 2^e` (see
/// [`SolidFacts::signed_volume`]). The corners are taken relative to the bounding box's
/// centre and scaled by a power of two to at most 1 (exact, but for digits below 2^-1074 of
/// the extent); each determinant is the exact sum of its twelve error-free product terms,
/// all added into one double-double.
fn signed_volume(triangles: &[Triangle], corners: &[[usize; 3]]) -> (f64, i32) {
    let lo = triangles.iter().flatten().fold(Vec3::repeat(f64::INFINITY), |a, p| a.inf(p));
    let hi = triangles.iter().flatten().fold(Vec3::repeat(f64::NEG_INFINITY), |a, p| a.sup(p));
    let o = lo * 0.5 + hi * 0.5;
    let reach = triangles.iter().flatten().fold(0.0f64, |m, p| m.max((p - o).amax()));
    if reach == 0.0 {
        return (0.0, 0);
    }
    // 2^-k with 2^k at or above the reach (k within ±1075: two factors keep each normal).
    let k = reach.log2().ceil() as i32;
    let (s1, s2) = (2f64.powi(-k / 2), 2f64.powi(-k + k / 2));
    let (mut hi_sum, mut lo_sum) = (0.0f64, 0.0f64);
    let mut add = |x: f64| {
        let (s, e) = two_sum(hi_sum, x);
        hi_sum = s;
        lo_sum += e;
    };
    for (t, c) in triangles.iter().zip(corners) {
        if c[0] == c[1] || c[1] == c[2] || c[2] == c[0] {
            continue;
        }
        let [a, b, c] = t.map(|p| (p - o) * s1 * s2);
        // a · (b × c) = Σ over the six permutations of ±a_i b_j c_k.
        for (i, j, l, sign) in
            [(0, 1, 2, 1.0), (1, 2, 0, 1.0), (2, 0, 1, 1.0), (0, 2, 1, -1.0), (1, 0, 2, -1.0), (2, 1, 0, -1.0)]
        {
            let (p, e) = two_prod(b[j], c[l]);
            let (q, f) = two_prod(a[i], p);
            add(sign * q);
            add(sign * f);
            // (a_i · e is below 2^-104 of the term: its rounding is far below the bound.)
            add(sign * a[i] * e);
        }
    }
    let total = hi_sum + lo_sum;
    (total / 6.0, 3 * k)
}

/// `m · 2^e` for any `e`, saturating to infinity or 0 (rounded once, but for results in
/// the subnormal range).
fn times_pow2(m: f64, e: i32) -> f64 {
    let (mut x, mut e) = (m, e);
    // (2^±1000 are normal doubles: each step is exact while the value stays normal.)
    while e > 1000 && x.is_finite() {
        x *= 2f64.powi(1000);
        e -= 1000;
    }
    while e < -1000 && x != 0.0 {
        x *= 2f64.powi(-1000);
        e += 1000;
    }
    if e.abs() > 1000 { x } else { x * 2f64.powi(e) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Model;

    fn model(tris: &[Triangle]) -> Model {
        Model::new(tris.to_vec(), (0..tris.len() as i32).collect()).unwrap()
    }

    fn facts(tris: &[Triangle]) -> SolidFacts {
        *model(tris).solid_facts()
    }

    fn v(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3::new(x, y, z)
    }

    /// The cube `[0, s]³` moved by `o`: 12 triangles, normals outward.
    fn cube(s: f64, o: Vec3) -> Vec<Triangle> {
        let p = |i: usize| o + v((i & 1) as f64, ((i >> 1) & 1) as f64, (i >> 2) as f64) * s;
        // Each face as a quad in counter-clockwise order seen from outside.
        let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
        quads.iter().flat_map(|q| [[p(q[0]), p(q[1]), p(q[2])], [p(q[0]), p(q[2]), p(q[3])]]).collect()
    }

    /// The tetrahedron with corners `o`, `o + a x`, `o + a y`, `o + a z`, faces outward.
    fn tetrahedron(a: f64, o: Vec3) -> Vec<Triangle> {
        let (p0, p1, p2, p3) = (o, o + v(a, 0.0, 0.0), o + v(0.0, a, 0.0), o + v(0.0, 0.0, a));
        vec![[p0, p2, p1], [p0, p1, p3], [p0, p3, p2], [p1, p2, p3]]
    }

    fn assert_closed(f: &SolidFacts) {
        assert!(f.closed && f.oriented, "{f:?}");
        assert_eq!((f.boundary_edges, f.non_manifold_edges, f.misoriented_edges), (0, 0, 0));
        assert_eq!(f.require_closed(), Ok(()));
    }

    #[test]
    fn closed_solids() {
        let f = facts(&tetrahedron(6.0, Vec3::zeros()));
        assert_closed(&f);
        assert_eq!((f.vertices, f.edges, f.faces, f.components, f.euler_characteristic), (4, 6, 4, 1, 2));
        assert_eq!(f.signed_volume, 36.0);
        let f = facts(&cube(2.0, Vec3::zeros()));
        assert_closed(&f);
        assert_eq!((f.vertices, f.edges, f.faces, f.components, f.euler_characteristic), (8, 18, 12, 1, 2));
        assert_eq!(f.signed_volume, 8.0);
        // Turned inside out: the same facts, negative volume.
        let inverted: Vec<Triangle> = cube(2.0, Vec3::zeros()).iter().map(|t| [t[0], t[2], t[1]]).collect();
        let f = facts(&inverted);
        assert_closed(&f);
        assert_eq!(f.signed_volume, -8.0);
        // Two separate cubes: two components.
        let mut two = cube(1.0, Vec3::zeros());
        two.extend(cube(1.0, v(5.0, 0.0, 0.0)));
        let f = facts(&two);
        assert_closed(&f);
        assert_eq!((f.components, f.euler_characteristic, f.signed_volume), (2, 4, 2.0));
    }

    #[test]
    fn open_and_misoriented_models() {
        let mut tris = cube(1.0, Vec3::zeros());
        tris.pop();
        let f = facts(&tris);
        assert!(!f.closed && f.oriented);
        assert_eq!((f.boundary_edges, f.non_manifold_edges, f.misoriented_edges), (3, 0, 0));
        let e = f.require_closed().unwrap_err();
        assert_eq!(e.to_string(), "the model is not closed: 3 boundary edges, 0 non-manifold, 0 misoriented");

        let mut tris = cube(1.0, Vec3::zeros());
        tris[4] = [tris[4][0], tris[4][2], tris[4][1]];
        let f = facts(&tris);
        assert!(!f.closed && !f.oriented);
        assert_eq!((f.boundary_edges, f.non_manifold_edges, f.misoriented_edges), (0, 0, 3));

        // Two cubes sharing an edge: that edge has four uses, two each way.
        let mut tris = cube(1.0, Vec3::zeros());
        tris.extend(cube(1.0, v(1.0, 1.0, 0.0)));
        let f = facts(&tris);
        assert!(!f.closed && f.oriented);
        assert_eq!((f.boundary_edges, f.non_manifold_edges, f.misoriented_edges), (0, 1, 0));
        assert_eq!((f.components, f.vertices, f.signed_volume), (1, 14, 2.0));

        // A duplicated triangle: three edges used three times.
        let mut tris = cube(1.0, Vec3::zeros());
        tris.push(tris[0]);
        let f = facts(&tris);
        assert_eq!((f.boundary_edges, f.non_manifold_edges, f.misoriented_edges), (0, 3, 3));
        assert!(!f.closed && !f.oriented);

        // A triangle and its reverse: closed, bounding nothing.
        let t = [Vec3::zeros(), Vec3::x(), Vec3::y()];
        let f = facts(&[t, [t[0], t[2], t[1]]]);
        assert_closed(&f);
        assert_eq!(f.signed_volume, 0.0);

        // One triangle, and a soup of disjoint triangles.
        let f = facts(&[t]);
        assert_eq!((f.boundary_edges, f.edges, f.vertices, f.components), (3, 3, 3, 1));
        let soup: Vec<Triangle> = (0..5).map(|i| t.map(|p| p + Vec3::z() * i as f64)).collect();
        let f = facts(&soup);
        assert_eq!((f.boundary_edges, f.components, f.euler_characteristic), (15, 5, 5));
    }

    /// Collapsed triangles (two corners alike) count for nothing; a zero-area triangle with
    /// three distinct corners closes a T-junction; -0.0 welds with 0.0.
    #[test]
    fn degenerate_triangles_and_signed_zeros() {
        let mut tris = cube(2.0, Vec3::zeros());
        let (a, b) = (tris[0][0], tris[0][1]);
        tris.push([a, a, b]);
        tris.push([b, b, b]);
        tris.push([a, b, a]);
        let f = facts(&tris);
        assert_closed(&f);
        assert_eq!((f.collapsed_triangles, f.faces, f.edges, f.signed_volume), (3, 12, 18, 8.0));

        // Split the edge a→b of the first triangle at its midpoint m on the other side only:
        // the cube is open along a-m-b until the collinear triangle [a, m, b] closes it.
        let mut tris = cube(2.0, Vec3::zeros());
        let (a, b) = (tris[0][0], tris[0][1]);
        let m = (a + b) * 0.5;
        let other = tris
            .iter()
            .position(|t| (0..3).any(|k| t[k] == b && t[(k + 1) % 3] == a))
            .expect("the neighbour across a→b");
        let t = tris.remove(other);
        let k = (0..3).find(|&k| t[k] == b).unwrap();
        let c = t[(k + 2) % 3];
        tris.extend([[b, m, c], [m, a, c]]);
        let f = facts(&tris);
        assert_eq!((f.boundary_edges, f.closed), (3, false));
        tris.push([a, m, b]);
        let f = facts(&tris);
        assert_closed(&f);
        assert_eq!(f.signed_volume, 8.0);

        // Negative zeros in some triangles only.
        let tris: Vec<Triangle> = cube(2.0, Vec3::zeros())
            .iter()
            .enumerate()
            .map(|(i, t)| if i % 2 == 0 { t.map(|p| p.map(|x| if x == 0.0 { -0.0 } else { x })) } else { *t })
            .collect();
        assert_closed(&facts(&tris));
        // A vertex off by one ulp is another vertex: two triangles open.
        let mut tris = cube(2.0, Vec3::zeros());
        tris[0][0].x = 5e-324;
        let f = facts(&tris);
        assert!(!f.closed && f.boundary_edges > 0);
    }

    /// Volumes at scales 2^±330 (and 1e±100), far from the origin, exactly or to rounding;
    /// beyond the doubles' range the scaled form keeps it.
    #[test]
    fn volumes_at_every_scale() {
        for s in [-330, -200, -60, -1, 0, 1, 60, 200, 330] {
            let side = 2f64.powi(s);
            for shift in [0.0, 1.0, 3.0 * 2f64.powi(40), -(2f64.powi(50))] {
                let o = v(shift, -shift, 0.5 * shift) * side;
                let f = facts(&cube(side, o));
                assert_closed(&f);
                assert_eq!(f.signed_volume, side * side * side, "cube 2^{s} at {shift}");
                let f = facts(&tetrahedron(6.0 * side, o));
                assert_eq!(f.signed_volume, 36.0 * side * side * side, "tetrahedron 2^{s} at {shift}");
            }
        }
        for s in [1e-100, 1e100] {
            let a = 6.0 * s;
            for o in [Vec3::zeros(), v(1e10, 3e9, -7e9) * s, v(1.0, -0.75, 3.0) * s] {
                let t = tetrahedron(a, o);
                // The edges as the rounded coordinates make them (the differences are exact).
                let exact = (t[0][2].x - o.x) * (t[0][1].y - o.y) * (t[1][2].z - o.z) / 6.0;
                let f = facts(&t);
                assert!((f.signed_volume - exact).abs() <= 4.0 * f64::EPSILON * exact, "{s:e}: {}", f.signed_volume);
            }
        }
        // Beyond the range of doubles: infinite, or 0; the scaled form is exact.
        for (s, inf) in [(900, true), (-900, false)] {
            let f = facts(&cube(2f64.powi(s), Vec3::zeros()));
            assert_eq!(f.signed_volume, if inf { f64::INFINITY } else { 0.0 });
            let (m, e) = f.signed_volume_exp2;
            assert_eq!(times_pow2(m, e - 3 * s), 1.0);
        }
        // Coordinates 2^1000 apart: within range, volume overflowing.
        let f = facts(&tetrahedron(2f64.powi(1000), v(-(2f64.powi(999)), 0.0, 0.0)));
        assert_eq!(f.signed_volume, f64::INFINITY);
    }

    /// A unit cube whose faces are grids of `k × k` squares with vertices at multiples of
    /// `1/k` (rounded): its faces still lie in the planes of the cube (the rounded
    /// coordinates keep 0 and 1 exact), so its volume is exactly 1 however the many
    /// rounded tetrahedra add up. A plain sum of them errs by about 1e-14.
    #[test]
    fn volume_of_many_rounded_tetrahedra_is_exact() {
        let k = 60;
        for o in [Vec3::zeros(), v(1000.0, -3.0, 0.5)] {
            let mut tris = Vec::new();
            for axis in 0..3 {
                for (side, flip) in [(0.0, true), (1.0, false)] {
                    let p = |i: usize, j: usize| {
                        let mut x = Vec3::zeros();
                        x[axis] = side;
                        x[(axis + 1) % 3] = i as f64 / k as f64;
                        x[(axis + 2) % 3] = j as f64 / k as f64;
                        x + o
                    };
                    for i in 0..k {
                        for j in 0..k {
                            let (a, b, c, d) = (p(i, j), p(i + 1, j), p(i + 1, j + 1), p(i, j + 1));
                            if flip {
                                tris.extend([[a, c, b], [a, d, c]]);
                            } else {
                                tris.extend([[a, b, c], [a, c, d]]);
                            }
                        }
                    }
                }
            }
            let f = facts(&tris);
            assert_closed(&f);
            assert_eq!((f.faces, f.euler_characteristic), (12 * k * k, 2));
            // (The shifted cube's faces are at 1000 and 1001, -3 and -2, 0.5 and 1.5: exact.)
            assert!((f.signed_volume - 1.0).abs() <= 2.0 * f64::EPSILON, "{}", f.signed_volume - 1.0);
        }
    }

    /// Unreferenced vertices (far away) do not enter the model; facts are computed once and
    /// shared by clones and threads; a deserialized model computes the same.
    #[test]
    fn cached_and_recomputed_alike() {
        let tris = cube(1.0, v(1e6, 0.0, 0.0));
        let mut vertices: Vec<Vec3> = tris.iter().flatten().copied().collect();
        vertices.push(v(1e300, -1e300, 0.0));
        let faces: Vec<[u32; 3]> = (0..tris.len() as u32).map(|i| [3 * i, 3 * i + 1, 3 * i + 2]).collect();
        let m = Model::from_indexed(&vertices, &faces).unwrap();
        let f = *m.solid_facts();
        assert_closed(&f);
        assert_eq!(f.signed_volume, 1.0);
        let clone = m.clone();
        assert!(std::ptr::eq(m.solid_facts(), m.solid_facts()));
        assert_eq!(*clone.solid_facts(), f);
        let fresh = model(&tris);
        let all: Vec<SolidFacts> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4).map(|_| s.spawn(|| *fresh.solid_facts())).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(all.iter().all(|x| *x == f));
        let loaded = crate::serialize::model_from_bytes(&crate::serialize::model_to_bytes(&m)).unwrap();
        assert_eq!(*loaded.solid_facts(), f);
    }

    /// The bundled meshes: the counts are consistent, and the ones that are closed have a
    /// positive volume (outward normals).
    #[test]
    fn bundled_meshes() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("meshes");
        let mut closed = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "obj") {
                continue;
            }
            let tris = crate::io::load_obj(&path).unwrap().triangles();
            let f = facts(&tris);
            assert_eq!(f.faces + f.collapsed_triangles, tris.len());
            assert_eq!(f.euler_characteristic, f.vertices as i64 - f.edges as i64 + f.faces as i64);
            assert!(f.boundary_edges + f.non_manifold_edges <= f.edges && f.components >= 1);
            // Every face has three edge uses, each edge at least one.
            assert!(f.edges <= 3 * f.faces);
            if f.closed {
                assert!(f.signed_volume > 0.0, "{path:?}: {f:?}");
                closed.push(path.file_name().unwrap().to_string_lossy().into_owned());
            }
        }
        assert!(!closed.is_empty());
    }

    /// Filling holes: a cube without its top closes with the top's volume (the fan is flat),
    /// two holes meeting at a corner both close, a closed model comes back as it was, and
    /// the bundled bunny (223 boundary edges) closes with outward normals.
    #[test]
    fn fill_holes_closes_open_models() {
        let whole = cube(2.0, Vec3::zeros());
        assert_eq!(fill_holes(&whole), whole);
        // The quads are bottom, top, ...: leave out the top's two triangles.
        let open: Vec<Triangle> = [&whole[..2], &whole[4..]].concat();
        assert_eq!(facts(&open).boundary_edges, 4);
        let filled = fill_holes(&open);
        assert_eq!(filled.len(), open.len() + 4);
        assert_eq!(&filled[..open.len()], &open[..]);
        let f = facts(&filled);
        assert_closed(&f);
        assert_eq!(f.signed_volume, 8.0);
        // Two tetrahedra sharing the origin, each missing a face through it: the two loops
        // meet there.
        let (t1, t2) = (tetrahedron(6.0, Vec3::zeros()), tetrahedron(6.0, v(-6.0, 0.0, 0.0)));
        let pinched: Vec<Triangle> = [&t1[1..], &t2[1..]].concat();
        let f = facts(&fill_holes(&pinched));
        assert_closed(&f);
        assert_eq!((f.components, f.signed_volume), (1, 72.0));

        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("meshes/bunny.obj");
        let bunny = crate::io::load_obj(path).unwrap().triangles();
        assert!(facts(&bunny).boundary_edges > 0);
        let f = facts(&fill_holes(&bunny));
        assert_closed(&f);
        assert!(f.signed_volume > 0.0);
    }
}
