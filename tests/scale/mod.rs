//! The scale-invariance harness shared by `tests/scale_invariance.rs` (the Rust queries) and
//! `tests/c_scale_invariance.rs` (the native C API): seeded scenes on integer grids, the
//! answers of each query recorded as labelled values (discrete, lengths, times), and their
//! comparison across scales `2^k`.
#![allow(dead_code)]

use std::fmt;

use rapidpqp::{Mat3, Placement, Triangle, Vec3};

/// `2^k` exactly, for `k` in `[-1074, 1023]` (subnormal powers included).
pub fn pow2(k: i32) -> f64 {
    assert!((-1074..=1023).contains(&k), "2^{k}");
    if k >= -1022 { f64::from_bits(((k + 1023) as u64) << 52) } else { f64::from_bits(1u64 << (k + 1074)) }
}

/// The least subnormal, 2^-1074.
pub const TINY: f64 = 5e-324;

/// The scales of a run: every 10 from -1064 to 1000 and both sides of each threshold of the
/// code (quick), or every `k` (long).
pub fn scales(long: bool) -> Vec<i32> {
    let mut ks: Vec<i32> = if long { (-1064..=1000).collect() } else { (-1064..=1000).step_by(10).collect() };
    // Thresholds of the code, as exponents of the coordinates' magnitude (the scenes reach
    // 2^4 at k = 0): the subnormal boundary, the pair rescaling of the distance (2^±150),
    // the bounding balls (1e-140, 1e150), a model below 2^-490 of the query's coordinates,
    // the packed segment's 2^500, the sweep's frame reach and the world's 2^900, the range
    // 2^1000; and the edges of the whole range.
    for t in [
        -1074, -1060, -1022, -1000, -900, -540, -490, -466, -450, -300, -150, 0, 150, 465, 500, 520, 600, 900, 950,
        996, 1000,
    ] {
        for d in -6..=2 {
            ks.push(t + d);
        }
    }
    ks.retain(|k| (-1064..=1000).contains(k));
    ks.sort_unstable();
    ks.dedup();
    ks
}

/// One value of an answer.
#[derive(Clone, Debug)]
pub enum Val {
    /// Discrete (booleans, pair sets, hit sets, outcomes, counts): equal at every scale.
    Exact(String),
    /// A length or a coordinate: times 2^k.
    Len(f64),
    /// A time, a sweep parameter, a ray parameter: equal.
    Time(f64),
    /// A dimensionless number that is not a time (unit normals, barycentric coordinates):
    /// equal up to rounding.
    Unit(f64),
    /// A time the query may choose within a band of the given width (the time of impact of a
    /// rotating motion: any time at which the models are within the tolerance before they
    /// touch): equal to within the width.
    Band(f64, f64),
    /// Which of several equally right answers the query chose (the triangle pair of a
    /// distance, the triangle of a first hit among triangles hit at the same point): where it
    /// differs, the values up to the next key or discrete value, which describe the choice, are
    /// not compared.
    Key(String),
}

/// A query's answer: labelled values in a fixed order.
#[derive(Clone, Debug, Default)]
pub struct Answer(pub Vec<(String, Val)>);

impl Answer {
    pub fn exact(&mut self, label: impl Into<String>, v: impl fmt::Debug) {
        self.0.push((label.into(), Val::Exact(format!("{v:?}"))));
    }
    pub fn len(&mut self, label: impl Into<String>, v: f64) {
        self.0.push((label.into(), Val::Len(v)));
    }
    pub fn len3(&mut self, label: &str, v: &Vec3) {
        for (i, c) in ["x", "y", "z"].iter().enumerate() {
            self.len(format!("{label}.{c}"), v[i]);
        }
    }
    pub fn key(&mut self, label: impl Into<String>, v: impl fmt::Debug) {
        self.0.push((label.into(), Val::Key(format!("{v:?}"))));
    }
    pub fn band(&mut self, label: impl Into<String>, v: f64, width: f64) {
        self.0.push((label.into(), Val::Band(v, width)));
    }
    pub fn time(&mut self, label: impl Into<String>, v: f64) {
        self.0.push((label.into(), Val::Time(v)));
    }
    pub fn unit(&mut self, label: impl Into<String>, v: f64) {
        self.0.push((label.into(), Val::Unit(v)));
    }
    pub fn unit3(&mut self, label: &str, v: &Vec3) {
        for (i, c) in ["x", "y", "z"].iter().enumerate() {
            self.unit(format!("{label}.{c}"), v[i]);
        }
    }
    /// Appends `other`'s values, their labels prefixed.
    pub fn nest(&mut self, prefix: &str, other: Answer) {
        for (l, v) in other.0 {
            self.0.push((format!("{prefix}{l}"), v));
        }
    }
}

/// What a query did at one scale: its answer, or the refusal (its error, printed).
pub type Outcome = Result<Answer, Refusal>;

/// A refused query: whether the refusal is the documented out-of-range error, and what it said.
#[derive(Clone, Debug)]
pub struct Refusal {
    pub out_of_range: bool,
    pub text: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Refusal {
    pub fn range(text: impl fmt::Debug) -> Refusal {
        Refusal { out_of_range: true, text: format!("{text:?}") }
    }
    pub fn other(text: impl fmt::Debug) -> Refusal {
        Refusal { out_of_range: false, text: format!("{text:?}") }
    }
}

/// A query of the harness: its name, the scenes it applies to, how it runs at scale `2^k`,
/// and from which magnitude it may refuse (the README's range table: the log2 of the largest
/// coordinate the query computes with, its reach, may not exceed `limit`).
pub struct Query {
    pub name: &'static str,
    pub applies: fn(&Scene) -> bool,
    pub run: fn(&Scene, i32) -> Outcome,
    /// The query's reach at `k = 0` (log2 of the largest coordinate it computes with).
    pub reach: fn(&Scene) -> f64,
    /// Refusals are allowed (and only then) when `reach + k >= limit`.
    pub limit: f64,
}

/// A scene on an integer grid: two models (triangles of small integers), their placements
/// (signed permutations and integer translations), query points, rays and motions. Every
/// coordinate times `2^k` is exact from `k = -1064` to `1000`.
#[derive(Clone, Debug)]
pub struct Scene {
    pub name: String,
    pub a: Vec<Triangle>,
    pub b: Vec<Triangle>,
    /// Whether both models are closed and outward oriented (the solid queries apply).
    pub closed: bool,
    pub rot_a: Mat3,
    pub t_a: Vec3,
    pub rot_b: Mat3,
    pub t_b: Vec3,
    /// Points in model a's frame (closest points, windings, containment).
    pub points: Vec<Vec3>,
    /// Rays (origin, direction) in model a's frame; segments are `origin → origin + direction`.
    pub rays: Vec<(Vec3, Vec3)>,
    /// Sweep directions (world, scaled with the scene: the sweep parameter stays equal) and
    /// the sweep's end.
    pub directions: Vec<Vec3>,
    pub s_max: f64,
    /// A motion of model a for the time of impact: end rotation and translation (the start
    /// is `rot_a`, `t_a`).
    pub toi_end: Option<(Mat3, Vec3)>,
    /// Tolerances for the tolerance query (lengths, scaled).
    pub tolerances: Vec<f64>,
}

impl Scene {
    /// Model a's and b's placements at scale 2^k (placement scale 1).
    pub fn placements(&self, k: i32) -> (Placement, Placement) {
        let f = pow2(k);
        (
            Placement { rotation: self.rot_a, translation: self.t_a * f, scale: 1.0 },
            Placement { rotation: self.rot_b, translation: self.t_b * f, scale: 1.0 },
        )
    }

    /// The triangles scaled.
    pub fn scaled(tris: &[Triangle], k: i32) -> Vec<Triangle> {
        let f = pow2(k);
        tris.iter().map(|t| t.map(|p| p * f)).collect()
    }

    /// log2 of the largest coordinate of the models, placed or not (translations included).
    pub fn magnitude(&self) -> f64 {
        let own = self.a.iter().chain(&self.b).flatten().map(|p| p.amax()).fold(0.0, f64::max);
        let placed = own + self.t_a.amax().max(self.t_b.amax());
        placed.log2()
    }

    /// log2 of the largest coordinate of the models' own triangles.
    pub fn own_magnitude(&self) -> f64 {
        self.a.iter().chain(&self.b).flatten().map(|p| p.amax()).fold(0.0, f64::max).log2()
    }

    /// log2 of the largest coordinate of model a, the query points and the segments of the
    /// rays (`origin → origin + 8 direction`).
    pub fn point_magnitude(&self) -> f64 {
        let own = self.a.iter().flatten().map(|p| p.amax()).fold(0.0, f64::max);
        let points = self.points.iter().map(|p| p.amax()).fold(0.0, f64::max);
        let rays = self.rays.iter().map(|(o, d)| (o + d * 8.0).amax().max(o.amax())).fold(0.0, f64::max);
        own.max(points).max(rays).log2()
    }

    /// [`Scene::magnitude`] with the sweeps' and the time of impact's motion.
    pub fn motion_magnitude(&self) -> f64 {
        let own = self.a.iter().chain(&self.b).flatten().map(|p| p.amax()).fold(0.0, f64::max);
        let mut placed = own + self.t_a.amax().max(self.t_b.amax());
        for d in &self.directions {
            placed = placed.max(own + self.t_a.amax().max(self.t_b.amax()) + d.amax() * self.s_max);
        }
        if let Some((_, t)) = &self.toi_end {
            placed = placed.max(own + t.amax().max(self.t_b.amax()));
        }
        placed.log2()
    }

    /// The scenes: fixed cases (touching and grazing boxes, the sweeps and time of
    /// impact) and `seeds` random soups.
    pub fn all(seeds: u64) -> Vec<Scene> {
        let mut out = fixed_scenes();
        for seed in 0..seeds {
            out.push(soup_scene(seed));
            out.push(solid_scene(seed));
        }
        out
    }
}

fn v(x: f64, y: f64, z: f64) -> Vec3 {
    Vec3::new(x, y, z)
}

/// The box [lo, hi] as 12 outward-facing triangles.
pub fn cuboid(lo: Vec3, hi: Vec3) -> Vec<Triangle> {
    let c = |i: usize| {
        v(
            if i & 4 != 0 { hi.x } else { lo.x },
            if i & 2 != 0 { hi.y } else { lo.y },
            if i & 1 != 0 { hi.z } else { lo.z },
        )
    };
    let faces = [
        [0, 1, 3],
        [0, 3, 2],
        [4, 6, 7],
        [4, 7, 5],
        [0, 4, 5],
        [0, 5, 1],
        [2, 3, 7],
        [2, 7, 6],
        [0, 2, 6],
        [0, 6, 4],
        [1, 5, 7],
        [1, 7, 3],
    ];
    faces.iter().map(|f| f.map(c)).collect()
}

/// The tetrahedron with outward faces (`d` on the positive side of `a, b, c`'s normal is
/// flipped as needed).
pub fn tetrahedron(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> Vec<Triangle> {
    let (a, b) = if (b - a).cross(&(c - a)).dot(&(d - a)) > 0.0 { (b, a) } else { (a, b) };
    vec![[a, b, c], [a, d, b], [b, d, c], [c, d, a]]
}

/// The signed permutation rotations (determinant +1): 24 of them.
pub fn rotations() -> Vec<Mat3> {
    let mut out = Vec::new();
    let perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    for p in perms {
        for signs in 0..8 {
            let mut m = Mat3::zeros();
            for (row, &col) in p.iter().enumerate() {
                m[(row, col)] = if signs >> row & 1 == 1 { -1.0 } else { 1.0 };
            }
            if m.determinant() > 0.0 {
                out.push(m);
            }
        }
    }
    out
}

/// A quarter turn about z.
pub fn quarter_turn_z() -> Mat3 {
    Mat3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0)
}

/// A deterministic generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// An integer in [lo, hi].
    pub fn int(&mut self, lo: i64, hi: i64) -> f64 {
        (lo + (self.next() % (hi - lo + 1) as u64) as i64) as f64
    }
    pub fn ivec(&mut self, lo: i64, hi: i64) -> Vec3 {
        v(self.int(lo, hi), self.int(lo, hi), self.int(lo, hi))
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn blank(name: &str, a: Vec<Triangle>, b: Vec<Triangle>, closed: bool) -> Scene {
    Scene {
        name: name.to_string(),
        a,
        b,
        closed,
        rot_a: Mat3::identity(),
        t_a: Vec3::zeros(),
        rot_b: Mat3::identity(),
        t_b: Vec3::zeros(),
        points: Vec::new(),
        rays: Vec::new(),
        directions: Vec::new(),
        s_max: 4.0,
        toi_end: None,
        tolerances: Vec::new(),
    }
}

/// The grid points of a box's corners, edge midpoints, face centres and centre, and a few
/// outside: on, inside and outside a closed model.
fn box_points(lo: Vec3, hi: Vec3) -> Vec<Vec3> {
    let mut out = Vec::new();
    for i in 0..3 {
        for j in 0..3 {
            for k in 0..3 {
                let f = |t: usize, l: f64, h: f64| [l, (l + h) / 2.0, h][t];
                out.push(v(f(i, lo.x, hi.x), f(j, lo.y, hi.y), f(k, lo.z, hi.z)));
            }
        }
    }
    out.push(hi + v(1.0, 2.0, 3.0));
    out.push(lo - v(3.0, 1.0, 0.0));
    out
}

fn fixed_scenes() -> Vec<Scene> {
    let mut out = Vec::new();
    let big = cuboid(v(0.0, 0.0, 0.0), v(4.0, 4.0, 4.0));
    let small = cuboid(v(0.0, 0.0, 0.0), v(2.0, 3.0, 2.0));
    let axes = vec![
        v(1.0, 0.0, 0.0),
        v(0.0, 0.0, 1.0),
        v(-1.0, 0.0, 0.0),
        v(0.0, -1.0, 0.0),
        v(1.0, 1.0, 0.0),
        v(-1.0, 2.0, 3.0),
    ];
    // Boxes overlapping, touching at a face, an edge, a vertex, nested, apart.
    for (name, t) in [
        ("boxes overlapping", v(3.0, 1.0, 3.0)),
        ("boxes touching at a face", v(4.0, 0.0, 1.0)),
        ("boxes touching at an edge", v(4.0, 4.0, 1.0)),
        ("boxes touching at a vertex", v(4.0, 4.0, 4.0)),
        ("box nested", v(1.0, 0.5, 1.0)),
        ("boxes apart", v(6.0, 1.0, 5.0)),
    ] {
        let mut s = blank(name, big.clone(), small.clone(), true);
        s.t_b = t;
        s.points = box_points(v(0.0, 0.0, 0.0), v(4.0, 4.0, 4.0));
        s.rays = vec![
            (v(-2.0, 2.0, 2.0), v(1.0, 0.0, 0.0)),
            (v(-2.0, -2.0, 2.0), v(1.0, 1.0, 0.0)),  // through the edge x = y = 0
            (v(-2.0, -2.0, -2.0), v(1.0, 1.0, 1.0)), // through the corner
            (v(2.0, 2.0, 2.0), v(0.0, 0.0, 1.0)),    // from inside
            (v(-1.0, 5.0, 2.0), v(1.0, 0.0, 0.0)),   // beside
            (v(-1.0, 4.0, 4.0), v(1.0, 0.0, 0.0)),   // along an edge
        ];
        s.directions = axes.clone();
        s.s_max = 8.0;
        s.tolerances = vec![0.0, 0.5, 1.0, 2.0];
        s.toi_end = Some((Mat3::identity(), v(-2.0, 3.0, -1.0)));
        out.push(s);
    }
    // The sweep: a small triangle falling onto a large one (contact at s = 1; the
    // time of impact's motion is 4 times longer: t = 1/4).
    let mut s = blank(
        "triangle falling onto a triangle",
        vec![[v(0.0, 0.0, 1.0), v(1.0, 0.0, 1.0), v(0.0, 1.0, 1.0)]],
        vec![[v(-8.0, -8.0, 0.0), v(8.0, -8.0, 0.0), v(0.0, 8.0, 0.0)]],
        false,
    );
    s.directions = vec![v(0.0, 0.0, -1.0), v(1.0, 1.0, -1.0), v(0.0, 0.0, 1.0)];
    s.s_max = 2.0;
    s.toi_end = Some((Mat3::identity(), v(0.0, 0.0, -4.0)));
    s.points = vec![v(0.0, 0.0, 1.0), v(1.0, 1.0, 1.0), v(0.0, 0.0, 0.0), v(-3.0, 2.0, 5.0)];
    s.rays = vec![(v(0.5, -1.0, 1.0), v(0.0, 1.0, 0.0)), (v(0.25, 0.25, 3.0), v(0.0, 0.0, -1.0))];
    s.tolerances = vec![0.5, 1.0, 2.0];
    out.push(s);
    // The time of impact: a bar turning a quarter turn about z into a cube.
    let mut s = blank(
        "bar turning into a cube",
        cuboid(v(0.0, -1.0, -1.0), v(8.0, 1.0, 1.0)),
        cuboid(v(4.0, 4.0, -1.0), v(6.0, 6.0, 1.0)),
        true,
    );
    s.toi_end = Some((quarter_turn_z(), Vec3::zeros()));
    s.directions = vec![v(0.0, 1.0, 0.0)];
    s.points = vec![v(5.0, 5.0, 0.0), v(8.0, 1.0, 1.0), v(4.0, 0.0, 0.0)];
    s.tolerances = vec![1.0, 3.0];
    out.push(s);
    // A tetrahedron: its own vertices, edge midpoints and face points.
    let tet = tetrahedron(v(0.0, 0.0, 0.0), v(8.0, 0.0, 0.0), v(0.0, 8.0, 0.0), v(0.0, 0.0, 8.0));
    let mut s = blank("tetrahedron", tet.clone(), cuboid(v(1.0, 1.0, 1.0), v(3.0, 3.0, 3.0)), true);
    s.points = vec![
        v(0.0, 0.0, 0.0),
        v(8.0, 0.0, 0.0),
        v(0.0, 8.0, 0.0),
        v(0.0, 0.0, 8.0),
        v(4.0, 0.0, 0.0),
        v(4.0, 4.0, 0.0),
        v(0.0, 4.0, 4.0),
        v(2.0, 2.0, 4.0),
        v(1.0, 1.0, 1.0),
        v(6.0, 6.0, 6.0),
        v(-1.0, 0.0, 0.0),
    ];
    // Through the edge x = 0, z = 0 (at (0, 4, 0)), through a vertex, across a face.
    s.rays = vec![
        (v(-22.0, 4.0, 22.0), v(1.0, 0.0, -1.0)),
        (v(-2.0, -2.0, 0.0), v(1.0, 1.0, 0.0)),
        (v(-8.0, 2.0, 2.0), v(1.0, 0.0, 0.0)),
        (v(8.0, 8.0, 8.0), v(-1.0, -1.0, -1.0)),
    ];
    s.directions = vec![v(0.0, 0.0, 1.0), v(-1.0, 0.0, 0.0), v(1.0, 1.0, 1.0)];
    s.s_max = 16.0;
    s.tolerances = vec![0.0, 1.0];
    out.push(s);
    // Grazing: coplanar overlapping triangles, an edge on a face, a vertex on an edge.
    let mut s = blank(
        "grazing triangles",
        vec![
            [v(0.0, 0.0, 0.0), v(4.0, 0.0, 0.0), v(0.0, 4.0, 0.0)],
            [v(8.0, 0.0, 0.0), v(12.0, 0.0, 0.0), v(8.0, 4.0, 0.0)],
            [v(0.0, 8.0, 0.0), v(4.0, 8.0, 0.0), v(0.0, 12.0, 0.0)],
        ],
        vec![
            [v(1.0, 1.0, 0.0), v(6.0, 1.0, 0.0), v(1.0, 6.0, 0.0)], // coplanar overlap
            [v(9.0, 1.0, 0.0), v(11.0, 1.0, 0.0), v(10.0, 1.0, 3.0)], // an edge on the face
            [v(2.0, 10.0, 0.0), v(2.0, 10.0, 4.0), v(4.0, 12.0, 2.0)], // a vertex on the edge
        ],
        false,
    );
    s.directions = vec![v(0.0, 0.0, 1.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)];
    s.s_max = 16.0;
    s.points = vec![v(2.0, 2.0, 0.0), v(2.0, 10.0, 0.0), v(10.0, 1.0, 1.0), v(5.0, 5.0, 5.0)];
    s.rays = vec![(v(2.0, 10.0, -3.0), v(0.0, 0.0, 1.0)), (v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0))];
    s.tolerances = vec![0.0, 1.0];
    out.push(s);
    out
}

/// Random triangles with integer corners in [-8, 8] (some segments, points and shared
/// corners) in two models, placed by random signed permutations and integer translations.
fn soup_scene(seed: u64) -> Scene {
    let mut rng = Rng(0x5ca1_e000 + seed);
    let soup = |n: usize, rng: &mut Rng| {
        let mut tris: Vec<Triangle> = Vec::new();
        for i in 0..n {
            let c = rng.ivec(-6, 6);
            let mut t = [c + rng.ivec(-3, 3), c + rng.ivec(-3, 3), c + rng.ivec(-3, 3)];
            match i % 9 {
                0 => t[2] = t[1],
                1 if i > 0 => t[0] = tris[i - 1][1],
                _ => {}
            }
            tris.push(t);
        }
        tris
    };
    let a = soup(24, &mut rng);
    let b = soup(20, &mut rng);
    let rots = rotations();
    let mut s = blank(&format!("soup {seed}"), a, b, false);
    s.rot_a = rots[rng.below(rots.len())];
    s.rot_b = rots[rng.below(rots.len())];
    s.t_a = rng.ivec(-2, 2);
    s.t_b = rng.ivec(-4, 4);
    s.points = (0..12).map(|_| rng.ivec(-9, 9)).collect();
    s.rays = (0..12).map(|_| (rng.ivec(-12, 12), rng.ivec(-3, 3))).filter(|(_, d)| *d != Vec3::zeros()).collect();
    // Through the midpoints of edges (exactly: a hit on the edge, at t = 6), and the midpoints
    // themselves as points.
    for t in s.a.clone().iter().take(6) {
        let mid = (t[0] + t[1]) * 0.5;
        let d = rng.ivec(-1, 1);
        if d != Vec3::zeros() {
            s.rays.push((mid - d * 6.0, d));
        }
        s.points.push(mid);
    }
    s.directions = (0..3).map(|_| rng.ivec(-2, 2)).filter(|d| *d != Vec3::zeros()).collect();
    s.s_max = 6.0;
    s.tolerances = vec![0.0, 1.0, 3.0];
    s.toi_end = Some((Mat3::identity(), rng.ivec(-6, 6)));
    s
}

/// Closed boxes and tetrahedra with integer corners in random signed-permutation placements.
fn solid_scene(seed: u64) -> Scene {
    let mut rng = Rng(0x50_11d0 + seed);
    let solid = |rng: &mut Rng| {
        if rng.below(2) == 0 {
            let lo = rng.ivec(-6, 2);
            cuboid(lo, lo + rng.ivec(1, 6))
        } else {
            let a = rng.ivec(-6, 6);
            let (b, c, d) = (a + rng.ivec(-6, 6), a + rng.ivec(-6, 6), a + rng.ivec(-6, 6));
            let t = tetrahedron(a, b, c, d);
            if (b - a).cross(&(c - a)).dot(&(d - a)) == 0.0 { cuboid(a, a + v(1.0, 2.0, 3.0)) } else { t }
        }
    };
    let a = solid(&mut rng);
    let b = solid(&mut rng);
    let rots = rotations();
    let mut s = blank(&format!("solids {seed}"), a, b, true);
    s.rot_a = rots[rng.below(rots.len())];
    s.rot_b = rots[rng.below(rots.len())];
    s.t_a = rng.ivec(-2, 2);
    s.t_b = rng.ivec(-3, 3);
    s.points = (0..12).map(|_| rng.ivec(-7, 7)).collect();
    // Points on the model: its corners.
    s.points.extend(s.a.iter().take(4).map(|t| t[0]));
    s.rays = (0..8).map(|_| (rng.ivec(-12, 12), rng.ivec(-3, 3))).filter(|(_, d)| *d != Vec3::zeros()).collect();
    s.directions = (0..3).map(|_| rng.ivec(-2, 2)).filter(|d| *d != Vec3::zeros()).collect();
    s.s_max = 8.0;
    s.tolerances = vec![0.0, 1.0, 2.0];
    s.toi_end = Some((quarter_turn_z(), rng.ivec(-3, 3)));
    s
}

/// A scaled answer that differs from the unscaled one, or a refusal where none is allowed.
pub struct Failure {
    pub query: &'static str,
    pub scene: String,
    pub k: i32,
    pub what: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} on {} at 2^{}: {}", self.query, self.scene, self.k, self.what)
    }
}

/// Compares `got` (at 2^k) with `base` (at 1); `None` when it scales exactly, up to the
/// rounding of the result to a double (in the subnormal range, half a unit of 2^-1074) and a
/// few rounding units of the scene's magnitude for lengths that are not exact.
pub fn compare(base: &Answer, got: &Answer, k: i32, magnitude: f64) -> Option<String> {
    if base.0.len() != got.0.len() {
        let labels = |a: &Answer| a.0.iter().map(|(l, v)| format!("{l}={v:?}")).collect::<Vec<_>>().join(", ");
        return Some(format!(
            "{} values, not {}:\n  got  {}\n  want {}",
            got.0.len(),
            base.0.len(),
            labels(got),
            labels(base)
        ));
    }
    let f = pow2(k);
    let eq = |a: f64, b: f64, tol: f64| a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= tol;
    let mut skipping = false;
    for ((lb, vb), (lg, vg)) in base.0.iter().zip(&got.0) {
        if lb != lg {
            return Some(format!("value {lg}, not {lb}"));
        }
        match vb {
            Val::Key(b) => {
                skipping = !matches!(vg, Val::Key(g) if g == b);
                continue;
            }
            Val::Exact(_) => skipping = false,
            _ if skipping => continue,
            _ => {}
        }
        let bad = match (vb, vg) {
            (Val::Exact(b), Val::Exact(g)) => b != g,
            (Val::Len(b), Val::Len(g)) => {
                let want = b * f;
                !eq(*g, want, LEN_REL * magnitude * f + LEN_ABS)
            }
            (Val::Time(b), Val::Time(g)) => !eq(*g, *b, TIME_REL * b.abs().max(1.0)),
            (Val::Unit(b), Val::Unit(g)) => !eq(*g, *b, UNIT_ABS),
            (Val::Band(b, w), Val::Band(g, _)) => !eq(*g, *b, *w),
            _ => true,
        };
        if bad {
            return Some(format!("{lb}: {vg:?}, want {vb:?} (times 2^{k} for lengths)"));
        }
    }
    None
}

/// Lengths: a few rounding units of the scene's magnitude, and the subnormal grid.
pub const LEN_REL: f64 = 64.0 * f64::EPSILON;
pub const LEN_ABS: f64 = 8.0 * TINY;
/// Times: equal but for a few rounding units.
pub const TIME_REL: f64 = 64.0 * f64::EPSILON;
/// Unit vectors and barycentric coordinates.
pub const UNIT_ABS: f64 = 64.0 * f64::EPSILON;

/// Runs `query` on `scene` at every scale of `ks`, comparing with `base`; failures are added
/// to `failures`. Returns the number of scales checked.
pub fn check_all(scene: &Scene, query: &Query, base: &Answer, ks: &[i32], failures: &mut Vec<Failure>) -> usize {
    let reach = (query.reach)(scene);
    let magnitude = pow2(0) * 2f64.powf(scene.magnitude());
    for &k in ks {
        let fail = |what: String| Failure { query: query.name, scene: scene.name.clone(), k, what };
        match (query.run)(scene, k) {
            Ok(got) => {
                if let Some(what) = compare(base, &got, k, magnitude) {
                    failures.push(fail(what));
                }
            }
            Err(r) => {
                let allowed = r.out_of_range && reach + k as f64 >= query.limit;
                if !allowed {
                    failures.push(fail(format!("refused ({r}) with reach 2^{:.1}", reach + k as f64)));
                }
            }
        }
    }
    ks.len()
}

/// Whether the long run was asked for (`RAPIDPQP_SCALE_LONG=1`).
pub fn long_run() -> bool {
    std::env::var_os("RAPIDPQP_SCALE_LONG").is_some_and(|v| v != "0" && !v.is_empty())
}

/// Runs every query on every scene it applies to at every scale of the run; panics listing
/// the failures. `RAPIDPQP_SCALE_ONLY=name` restricts the run to the queries whose name
/// contains `name`.
pub fn run_harness(queries: &[Query]) {
    let long = long_run();
    let only = std::env::var("RAPIDPQP_SCALE_ONLY").unwrap_or_default();
    let scenes = Scene::all(if long { 6 } else { 2 });
    let ks = scales(long);
    let mut failures: Vec<Failure> = Vec::new();
    let mut checked = 0usize;
    for query in queries.iter().filter(|q| q.name.contains(only.as_str())) {
        for scene in scenes.iter().filter(|s| (query.applies)(s)) {
            let base = (query.run)(scene, 0)
                .unwrap_or_else(|e| panic!("{} on {}: refused unscaled: {e}", query.name, scene.name));
            checked += check_all(scene, query, &base, &ks, &mut failures);
        }
    }
    if !failures.is_empty() {
        panic!("{} of {checked} scaled answers differ or were refused:\n{}", failures.len(), summary(&failures));
    }
    assert!(checked > 100, "{checked}");
}

/// The failures grouped by query and scene: the scales at which each failed (as ranges) and
/// the first failure's text.
pub fn summary(failures: &[Failure]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < failures.len() {
        let (q, s) = (failures[i].query, &failures[i].scene);
        let mut j = i;
        while j < failures.len() && failures[j].query == q && &failures[j].scene == s {
            j += 1;
        }
        let ks: Vec<i32> = failures[i..j].iter().map(|f| f.k).collect();
        let mut ranges = Vec::new();
        let mut a = 0;
        while a < ks.len() {
            let mut b = a;
            while b + 1 < ks.len() && ks[b + 1] - ks[b] <= 10 {
                b += 1;
            }
            ranges.push(if a == b { format!("{}", ks[a]) } else { format!("{}..{}", ks[a], ks[b]) });
            a = b + 1;
        }
        out += &format!("{q} on {s} at 2^[{}]: {}\n", ranges.join(", "), failures[i].what);
        i = j;
    }
    out
}
