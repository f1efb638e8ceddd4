//! Unit tests of the n-body engine: the broad phase against brute force over random motion,
//! and `World::collide` against `collide` on all pairs.

use super::*;
use nalgebra::{Quaternion, UnitQuaternion};

/// SplitMix64: a small seeded generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn symmetric(&mut self) -> f64 {
        2.0 * self.unit() - 1.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn rotation(&mut self) -> Mat3 {
        let q = Quaternion::new(self.symmetric(), self.symmetric(), self.symmetric(), self.symmetric());
        *UnitQuaternion::from_quaternion(q).to_rotation_matrix().matrix()
    }
}

fn pose(r: &Mat3, t: [f64; 3]) -> Pose {
    [
        [r[(0, 0)], r[(0, 1)], r[(0, 2)], t[0]],
        [r[(1, 0)], r[(1, 1)], r[(1, 2)], t[1]],
        [r[(2, 0)], r[(2, 1)], r[(2, 2)], t[2]],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

fn translation(t: [f64; 3]) -> Pose {
    pose(&Mat3::identity(), t)
}

/// A closed box `[lo, hi]`, 12 triangles.
fn box_mesh(lo: [f64; 3], hi: [f64; 3]) -> Vec<Triangle> {
    let c = |i: usize| {
        Vec3::new(
            if i & 1 == 0 { lo[0] } else { hi[0] },
            if i & 2 == 0 { lo[1] } else { hi[1] },
            if i & 4 == 0 { lo[2] } else { hi[2] },
        )
    };
    let quads = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
    quads.iter().flat_map(|q| [[c(q[0]), c(q[1]), c(q[2])], [c(q[0]), c(q[2]), c(q[3])]]).collect()
}

/// A UV sphere of radius `r` around `centre`.
fn sphere_mesh(centre: [f64; 3], r: f64, n: usize) -> Vec<Triangle> {
    let o = Vec3::from(centre);
    let p = |i: usize, j: usize| {
        let th = std::f64::consts::PI * i as f64 / n as f64;
        let ph = 2.0 * std::f64::consts::PI * j as f64 / n as f64;
        o + r * Vec3::new(th.sin() * ph.cos(), th.sin() * ph.sin(), th.cos())
    };
    let mut out = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let (a, b, c, d) = (p(i, j), p(i + 1, j), p(i + 1, j + 1), p(i, j + 1));
            if i > 0 {
                out.push([a, b, d]);
            }
            if i + 1 < n {
                out.push([b, c, d]);
            }
        }
    }
    out
}

fn ids(n: usize) -> Vec<i32> {
    (0..n as i32).collect()
}

fn add(world: &mut World, tris: Vec<Triangle>) -> ObjectId {
    let n = tris.len();
    world.add_object(tris, ids(n)).unwrap()
}

/// A random small mesh: box, sphere, or a thin plate, off-centre from its model origin.
fn random_mesh(rng: &mut Rng) -> Vec<Triangle> {
    let off = [rng.symmetric(), rng.symmetric(), rng.symmetric()];
    match rng.below(3) {
        0 => {
            let h = [0.2 + rng.unit(), 0.2 + rng.unit(), 0.2 + rng.unit()];
            box_mesh([off[0] - h[0], off[1] - h[1], off[2] - h[2]], [off[0] + h[0], off[1] + h[1], off[2] + h[2]])
        }
        1 => sphere_mesh(off, 0.3 + rng.unit(), 6 + rng.below(6) as usize),
        _ => box_mesh([off[0] - 1.5, off[1] - 1.0, off[2] - 0.02], [off[0] + 1.5, off[1] + 1.0, off[2] + 0.02]),
    }
}

fn pairs_of(contacts: &[ObjectContact]) -> Vec<(ObjectId, ObjectId)> {
    contacts.iter().map(|c| (c.id1, c.id2)).collect()
}

#[test]
fn random_scene_matches_brute_force_in_both_phases() {
    let mut rng = Rng(20240611);
    let mut world = World::new();
    // (id, rotation, angular step, position, velocity, motion kind)
    struct Body {
        id: ObjectId,
        r: Mat3,
        spin: Mat3,
        x: [f64; 3],
        v: [f64; 3],
        kind: u64,
    }
    let mut bodies = Vec::new();
    let new_body = |rng: &mut Rng, world: &mut World| {
        let id = add(world, random_mesh(rng));
        let axis = nalgebra::Unit::new_normalize(Vec3::new(rng.symmetric(), rng.symmetric(), rng.symmetric()));
        let spin = *nalgebra::Rotation3::from_axis_angle(&axis, 0.02 + 0.1 * rng.unit()).matrix();
        Body {
            id,
            r: rng.rotation(),
            spin,
            x: [4.0 * rng.symmetric(), 4.0 * rng.symmetric(), 4.0 * rng.symmetric()],
            v: [0.15 * rng.symmetric(), 0.15 * rng.symmetric(), 0.15 * rng.symmetric()],
            kind: rng.below(6),
        }
    };
    for _ in 0..16 {
        bodies.push(new_body(&mut rng, &mut world));
        // Objects enter at the identity pose, against the others at their current poses.
        world.validate().unwrap();
    }
    let mut contacts_seen = 0;
    for frame in 0..150 {
        for b in &mut bodies {
            match b.kind {
                0 => {}                                         // static
                1 if frame % 40 == 20 => b.x = b.x.map(|v| -v), // teleport
                _ => {
                    b.r = b.spin * b.r;
                    for k in 0..3 {
                        b.x[k] += b.v[k];
                        if b.x[k].abs() > 5.0 {
                            b.v[k] = -b.v[k];
                        }
                    }
                }
            }
            world.set_pose(b.id, &pose(&b.r, b.x)).unwrap();
        }
        // Activation commands now and then, on both layers.
        if frame % 10 == 3 {
            let (a, c) = (
                bodies[rng.below(bodies.len() as u64) as usize].id,
                bodies[rng.below(bodies.len() as u64) as usize].id,
            );
            match rng.below(4) {
                0 => world.deactivate(a).unwrap(),
                1 => world.activate(a).unwrap(),
                2 => world.deactivate_pair(a, c).unwrap(),
                _ => world.activate_pair(c, a).unwrap(),
            }
        }
        if frame % 37 == 36 {
            let k = rng.below(bodies.len() as u64) as usize;
            let gone = bodies.swap_remove(k);
            world.delete(gone.id).unwrap();
            bodies.push(new_body(&mut rng, &mut world));
        }
        world.validate().unwrap_or_else(|e| panic!("frame {frame}: {e}"));
        let first = world.collide(true).to_vec();
        assert_eq!(first, world.collide_brute_force(true), "frame {frame}, first contact");
        assert!(first.windows(2).all(|w| (w[0].id1, w[0].id2) < (w[1].id1, w[1].id2)));
        assert!(first.iter().all(|c| c.id1 < c.id2 && c.tri_pairs.is_empty()));
        let all = world.collide(false).to_vec();
        assert_eq!(all, world.collide_brute_force(false), "frame {frame}, all contacts");
        assert_eq!(pairs_of(&all), pairs_of(&first), "frame {frame}");
        assert!(all.iter().all(|c| !c.tri_pairs.is_empty()));
        contacts_seen += first.len();
    }
    assert!(world.broad_phase_swaps() > 0);
    // Meaningful only once the exact triangle test is in.
    eprintln!("object-pair contacts over the run: {contacts_seen}");
}

#[test]
fn cube_holds_the_posed_object() {
    let mut rng = Rng(3);
    let mut world = World::new();
    let tris = sphere_mesh([7.7, -3.0, 0.5], 0.01, 5);
    let id = add(&mut world, tris.clone());
    for _ in 0..200 {
        let r = rng.rotation();
        let t = [1e3 * rng.symmetric(), 1e3 * rng.symmetric(), 1e3 * rng.symmetric()];
        world.set_pose(id, &pose(&r, t)).unwrap();
        let cube = *world.broad.bounds(id).unwrap();
        for p in tris.iter().flatten() {
            let q = r * p + Vec3::from(t);
            for k in 0..3 {
                assert!(cube.lo[k] <= q[k] && q[k] <= cube.hi[k]);
            }
        }
    }
}

#[test]
fn new_object_meets_moved_objects_without_an_update() {
    let mut world = World::new();
    let a = add(&mut world, box_mesh([-0.5; 3], [0.5; 3]));
    world.set_pose(a, &translation([10.0, 0.0, 0.0])).unwrap();
    let b = add(&mut world, box_mesh([9.2, -0.5, -0.5], [10.2, 0.5, 0.5]));
    assert_eq!(world.candidates().collect::<Vec<_>>(), vec![(a, b)]);
    world.validate().unwrap();
}

#[test]
fn ids_count_up_and_are_never_reused() {
    let mut world = World::new();
    let a = add(&mut world, box_mesh([0.0; 3], [1.0; 3]));
    let b = add(&mut world, box_mesh([0.0; 3], [1.0; 3]));
    assert_eq!((a, b), (0, 1));
    world.delete(b).unwrap();
    assert_eq!(world.delete(b), Err(NBodyError::InvalidId));
    assert_eq!(add(&mut world, box_mesh([0.0; 3], [1.0; 3])), 2);
    assert_eq!(world.set_pose(1, &IDENTITY_POSE), Err(NBodyError::InvalidId));
    assert_eq!(world.activate_pair(0, 1), Err(NBodyError::InvalidId));
    assert_eq!(world.set_pose(1000, &IDENTITY_POSE), Err(NBodyError::InvalidId));
    assert_eq!(world.len(), 2);
    assert_eq!(world.add_object(Vec::new(), Vec::new()), Err(NBodyError::EmptyObject));
    assert_eq!(world.next_id(), Some(3));
    world.validate().unwrap();
}

#[test]
fn bad_poses_are_refused_and_change_nothing() {
    let mut world = World::new();
    let a = add(&mut world, box_mesh([0.0; 3], [1.0; 3]));
    let good = translation([1.0, 2.0, 3.0]);
    world.set_pose(a, &good).unwrap();
    let mut nan = good;
    nan[1][3] = f64::NAN;
    assert_eq!(world.set_pose(a, &nan), Err(NBodyError::NonFinite));
    let mut inf = good;
    inf[2][0] = f64::INFINITY;
    assert_eq!(world.set_pose(a, &inf), Err(NBodyError::NonFinite));
    let mut scaled = good;
    scaled[0][0] = 2.0;
    assert_eq!(world.set_pose(a, &scaled), Err(NBodyError::NotRigid));
    let mut sheared = good;
    sheared[0][1] = 1e-3;
    assert_eq!(world.set_pose(a, &sheared), Err(NBodyError::NotRigid));
    assert_eq!(world.pose(a), Some(&good));
    // Row 3 is not read; a reflection is an isometry.
    let mut junk = good;
    junk[3] = [f64::NAN, 5.0, 6.0, 7.0];
    world.set_pose(a, &junk).unwrap();
    let mut mirror = good;
    mirror[0][0] = -1.0;
    world.set_pose(a, &mirror).unwrap();
    world.validate().unwrap();
}

#[test]
fn activation_layers_are_independent() {
    let mut world = World::new();
    for _ in 0..3 {
        add(&mut world, box_mesh([-0.5; 3], [0.5; 3]));
    }
    world.set_pose(1, &translation([0.5, 0.0, 0.0])).unwrap();
    world.set_pose(2, &translation([0.0, 0.5, 0.0])).unwrap();
    let all = world.collide_brute_force(true);
    // (VCOLLIDE.md §4.5) deactivate object 2, deactivate pair (0,2), activate object 2.
    world.deactivate(2).unwrap();
    world.deactivate_pair(2, 0).unwrap();
    world.deactivate_pair(1, 1).unwrap();
    world.activate(2).unwrap();
    assert_eq!(world.is_pair_enabled(0, 2), Some(false));
    assert_eq!(world.is_pair_enabled(1, 1), Some(true));
    let now = pairs_of(world.collide(true));
    let expected: Vec<_> = pairs_of(&all).into_iter().filter(|&p| p != (0, 2)).collect();
    assert_eq!(now, expected);
    world.activate_pair(0, 2).unwrap();
    world.activate_pair(0, 1).unwrap();
    assert_eq!(pairs_of(world.collide(true)), pairs_of(&all));
    // Deleting an object forgets its disabled pairs.
    world.deactivate_pair(0, 1).unwrap();
    world.delete(1).unwrap();
    assert!(world.disabled.is_empty());
}

#[test]
fn result_persists_until_the_next_collide() {
    let mut world = World::new();
    add(&mut world, box_mesh([-0.5; 3], [0.5; 3]));
    add(&mut world, box_mesh([-0.5; 3], [0.5; 3]));
    let before = world.collide(true).to_vec();
    world.delete(1).unwrap();
    assert_eq!(world.contacts(), &before[..]);
    assert!(world.collide(true).is_empty());
}

#[test]
fn touching_boxes_collide_and_barely_separated_ones_do_not() {
    // VCOLLIDE.md §4.6: offset exactly 1.0 is reported, 1.0000001 is not.
    let mut world = World::new();
    let a = add(&mut world, box_mesh([-0.5; 3], [0.5; 3]));
    let b = add(&mut world, box_mesh([-0.5; 3], [0.5; 3]));
    world.set_pose(b, &translation([1.0, 0.0, 0.0])).unwrap();
    assert_eq!(pairs_of(world.collide(true)), vec![(a, b)]);
    world.set_pose(b, &translation([1.0000001, 0.0, 0.0])).unwrap();
    assert!(world.collide(true).is_empty());
    assert_eq!(world.candidates().count(), 1);
}

#[test]
fn containment_is_not_contact() {
    let mut world = World::new();
    let shell = add(&mut world, sphere_mesh([0.0; 3], 3.0, 16));
    let inner = add(&mut world, sphere_mesh([0.0; 3], 1.0, 8));
    assert_eq!(world.candidates().collect::<Vec<_>>(), vec![(shell, inner)]);
    assert!(world.collide(true).is_empty());
    world.set_pose(inner, &translation([2.5, 0.0, 0.0])).unwrap();
    assert_eq!(pairs_of(world.collide(true)), vec![(shell, inner)]);
}

#[test]
fn all_contacts_list_the_lower_ids_triangles_first() {
    let mut world = World::new();
    let a = world.add_object(box_mesh([-0.5; 3], [0.5; 3]), (100..112).collect()).unwrap();
    let b = world.add_object(sphere_mesh([0.0; 3], 0.3, 6), (0..60).collect()).unwrap();
    world.set_pose(b, &translation([0.5, 0.0, 0.0])).unwrap();
    let all = world.collide(false).to_vec();
    assert_eq!(pairs_of(&all), vec![(a, b)]);
    assert!(all[0].tri_pairs.iter().all(|p| (100..112).contains(&p.id1) && (0..60).contains(&p.id2)));
}

#[test]
fn a_one_ulp_move_does_not_hang() {
    // VCOLLIDE.md §5.6: x-translation 0.34, then the next double below it.
    let mut world = World::new();
    let a = add(&mut world, box_mesh([-0.5; 3], [0.5; 3]));
    let b = add(&mut world, box_mesh([-0.5; 3], [0.5; 3]));
    world.set_pose(b, &translation([0.34, 0.0, 0.0])).unwrap();
    world.set_pose(b, &translation([f64::from_bits(0.34f64.to_bits() - 1), 0.0, 0.0])).unwrap();
    world.set_pose(a, &translation([0.0, 0.0, 0.0])).unwrap();
    world.set_pose(b, &translation([f64::from_bits(0.34f64.to_bits() - 1), 0.0, 0.0])).unwrap();
    world.validate().unwrap();
    world.collide(true);
}

#[test]
fn worlds_can_move_between_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<World>();
    let handles: Vec<_> = (0..2)
        .map(|k| {
            std::thread::spawn(move || {
                let mut world = World::new();
                add(&mut world, box_mesh([-0.5; 3], [0.5; 3]));
                add(&mut world, box_mesh([-0.5; 3], [0.5; 3]));
                world.set_pose(1, &translation([k as f64 * 5.0, 0.0, 0.0])).unwrap();
                world.collide(true).len()
            })
        })
        .collect();
    let counts: Vec<usize> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(counts, vec![1, 0]);
}

// ---------------------------------------------------------------------------------------------
// Deforming objects

/// An indexed sheet of `n` x `n` cells on `[-1, 1]^2` (z = 0): vertices, faces.
fn indexed_sheet(n: usize) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let at = |i: usize, j: usize| (i * (n + 1) + j) as u32;
    let mut vertices = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            vertices.push(Vec3::new(2.0 * i as f64 / n as f64 - 1.0, 2.0 * j as f64 / n as f64 - 1.0, 0.0));
        }
    }
    let mut faces = Vec::new();
    for i in 0..n {
        for j in 0..n {
            faces.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            faces.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    (vertices, faces)
}

/// An indexed closed UV sphere of radius 1 about the origin: vertices (poles first and last),
/// faces.
fn indexed_sphere(n: usize) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let m = 2 * n;
    let ring = |i: usize, j: usize| (1 + (i - 1) * m + j % m) as u32;
    let mut vertices = vec![Vec3::new(0.0, 0.0, 1.0)];
    for i in 1..n {
        let th = std::f64::consts::PI * i as f64 / n as f64;
        for j in 0..m {
            let ph = std::f64::consts::PI * j as f64 / n as f64;
            vertices.push(Vec3::new(th.sin() * ph.cos(), th.sin() * ph.sin(), th.cos()));
        }
    }
    vertices.push(Vec3::new(0.0, 0.0, -1.0));
    let south = (vertices.len() - 1) as u32;
    let mut faces = Vec::new();
    for j in 0..m {
        faces.push([0, ring(1, j), ring(1, j + 1)]);
        faces.push([south, ring(n - 1, j + 1), ring(n - 1, j)]);
        for i in 1..n - 1 {
            faces.push([ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)]);
            faces.push([ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)]);
        }
    }
    (vertices, faces)
}

/// A deforming body of the scene: its rest shape, how it deforms and moves.
struct Deforming {
    id: ObjectId,
    rest: Vec<Vec3>,
    cloth: bool,
    phase: f64,
    /// Size of the deformation (a cloth's waves; a sphere's breathing).
    amplitude: f64,
    r: Mat3,
    spin: Mat3,
    x: [f64; 3],
    v: [f64; 3],
}

impl Deforming {
    /// The vertices at frame `t`: a cloth ripples and billows, a sphere breathes (its radius
    /// swings by `amplitude`) and bulges along x.
    fn vertices(&self, t: f64) -> Vec<Vec3> {
        let w = t * 0.15 + self.phase;
        self.rest
            .iter()
            .map(|p| {
                if self.cloth {
                    let z = self.amplitude * ((2.0 * p.x + w).sin() * (1.5 * p.y - w).cos() + 0.5 * w.sin());
                    Vec3::new(p.x * (1.0 + 0.2 * w.cos()), p.y, z)
                } else {
                    let s = 1.0 + self.amplitude * w.sin() + 0.3 * self.amplitude * (3.0 * p.x + w).cos();
                    p * s
                }
            })
            .collect()
    }
}

/// Every object's model rebuilt afresh from its current triangles gives the same colliding
/// object pairs (an independent check of the refitted trees the world queries).
fn check_against_fresh_builds(world: &World, bodies: &[ObjectId], frame: usize) {
    let request = CollideRequest { first_contact: false, frame: TriangleFrame::Model2, ..Default::default() };
    let fresh: Vec<Model> = bodies
        .iter()
        .map(|&id| {
            let m = world.model(id).unwrap();
            Model::new(m.triangles().to_vec(), m.ids().to_vec()).unwrap()
        })
        .collect();
    let mut want = Vec::new();
    let mut scratch = CollideResult::new();
    for a in 0..bodies.len() {
        for b in a + 1..bodies.len() {
            let (ia, ib) = (bodies[a].min(bodies[b]), bodies[a].max(bodies[b]));
            if !world.tested(ia, ib) {
                continue;
            }
            let (ka, kb) = if bodies[a] < bodies[b] { (a, b) } else { (b, a) };
            let (pa, pb) = (placement_of(world.pose(ia).unwrap()), placement_of(world.pose(ib).unwrap()));
            collide_placed(&fresh[ka], &pa, &fresh[kb], &pb, &request, &mut scratch).unwrap();
            let mut tri: Vec<_> = scratch.pairs.clone();
            tri.sort_unstable();
            if !tri.is_empty() {
                want.push((ia, ib, tri));
            }
        }
    }
    want.sort_unstable_by_key(|w| (w.0, w.1));
    let got: Vec<_> = world
        .contacts()
        .iter()
        .map(|c| {
            let mut t = c.tri_pairs.clone();
            t.sort_unstable();
            (c.id1, c.id2, t)
        })
        .collect();
    assert_eq!(got, want, "frame {frame}: against fresh builds");
}

#[test]
fn deforming_scene_matches_brute_force_every_frame() {
    let mut rng = Rng(0xde_f0_4e);
    let mut world = World::new();
    let mut bodies: Vec<Deforming> = Vec::new();
    for k in 0..10 {
        let cloth = k % 2 == 0;
        let (rest, faces) = if cloth { indexed_sheet(6 + k) } else { indexed_sheet_free_sphere(k) };
        let id = world.add_deformable(&rest, &faces, None).unwrap();
        let axis = nalgebra::Unit::new_normalize(Vec3::new(rng.symmetric(), rng.symmetric(), rng.symmetric()));
        bodies.push(Deforming {
            id,
            rest,
            cloth,
            phase: 6.3 * rng.unit(),
            amplitude: if cloth { 0.3 } else { 0.35 },
            r: rng.rotation(),
            spin: *nalgebra::Rotation3::from_axis_angle(&axis, 0.03 + 0.05 * rng.unit()).matrix(),
            x: [2.5 * rng.symmetric(), 2.5 * rng.symmetric(), 2.5 * rng.symmetric()],
            v: [0.06 * rng.symmetric(), 0.06 * rng.symmetric(), 0.06 * rng.symmetric()],
        });
    }
    // Two rigid boxes among them.
    let rigid = [
        add(&mut world, box_mesh([-0.5; 3], [0.5; 3])),
        add(&mut world, box_mesh([-1.0, -0.2, -0.2], [1.0, 0.2, 0.2])),
    ];
    world.set_pose(rigid[1], &translation([0.5, -0.5, 0.0])).unwrap();
    let ids: Vec<ObjectId> = bodies.iter().map(|b| b.id).chain(rigid).collect();
    let (mut contacts, mut rebuilt, mut subset_updates) = (0, 0, 0);
    for frame in 0..80 {
        for b in &mut bodies {
            let moved = b.vertices(frame as f64);
            if frame % 7 == 3 {
                // Only every third vertex this frame.
                let idx: Vec<u32> = (0..moved.len() as u32).step_by(3).collect();
                let pos: Vec<Vec3> = idx.iter().map(|&i| moved[i as usize]).collect();
                world.update_vertex_subset(b.id, &idx, &pos).unwrap();
                subset_updates += 1;
            } else {
                rebuilt += usize::from(world.update_vertices(b.id, &moved).unwrap().rebuilt);
            }
            if frame % 3 != 0 {
                b.r = b.spin * b.r;
                for k in 0..3 {
                    b.x[k] += b.v[k];
                    if b.x[k].abs() > 2.5 {
                        b.v[k] = -b.v[k];
                    }
                }
                world.set_pose(b.id, &pose(&b.r, b.x)).unwrap();
            }
        }
        if frame % 16 == 5 {
            let (a, c) = (ids[rng.below(ids.len() as u64) as usize], ids[rng.below(ids.len() as u64) as usize]);
            match rng.below(4) {
                0 => world.deactivate(a).unwrap(),
                1 => world.activate(a).unwrap(),
                2 => world.deactivate_pair(a, c).unwrap(),
                _ => world.activate_pair(c, a).unwrap(),
            }
        }
        world.validate().unwrap_or_else(|e| panic!("frame {frame}: {e}"));
        let first = world.collide(true).to_vec();
        assert_eq!(first, world.collide_brute_force(true), "frame {frame}, first contact");
        let all = world.collide(false).to_vec();
        assert_eq!(all, world.collide_brute_force(false), "frame {frame}, all contacts");
        assert_eq!(pairs_of(&all), pairs_of(&first), "frame {frame}");
        if frame % 8 == 0 {
            check_against_fresh_builds(&world, &ids, frame);
        }
        contacts += all.len();
    }
    assert!(contacts > 40, "the bodies should meet often ({contacts} object-pair contacts)");
    assert!(subset_updates > 0);
    eprintln!("deforming scene: {contacts} object-pair contacts, {rebuilt} rebuilds");
}

/// Sphere `k` of the scene: finer with k.
fn indexed_sheet_free_sphere(k: usize) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let (v, f) = indexed_sphere(4 + k / 2);
    (v.into_iter().map(|p| p * 0.8).collect(), f)
}

/// The broad phase is told when an object grows: two spheres whose cubes are apart come to
/// collide through a deformation alone, with no pose set in between.
#[test]
fn growth_alone_makes_a_candidate_and_a_contact() {
    let mut world = World::new();
    let (unit, faces) = indexed_sphere(8);
    let a = world.add_deformable(&unit, &faces, None).unwrap();
    let b = world.add_deformable(&unit, &faces, None).unwrap();
    world.set_pose(b, &translation([3.0, 0.0, 0.0])).unwrap();
    assert_eq!(world.candidates().count(), 0);
    assert!(world.collide(false).is_empty());
    let before = *world.broad.bounds(a).unwrap();
    // Sphere a swells to radius 2.2: it now reaches into b (surface at x = 2).
    let grown: Vec<Vec3> = unit.iter().map(|p| p * 2.2).collect();
    world.update_vertices(a, &grown).unwrap();
    let after = *world.broad.bounds(a).unwrap();
    assert!(!before.overlaps(world.broad.bounds(b).unwrap()) && after.overlaps(world.broad.bounds(b).unwrap()));
    assert_eq!(world.candidates().collect::<Vec<_>>(), vec![(a, b)]);
    let contacts = world.collide(false).to_vec();
    assert_eq!(pairs_of(&contacts), vec![(a, b)]);
    assert_eq!(contacts, world.collide_brute_force(false));
    world.validate().unwrap();
    // And shrinking back ends the candidate.
    world.update_vertices(a, &unit).unwrap();
    assert_eq!(world.candidates().count(), 0);
    assert!(world.collide(true).is_empty());
    world.validate().unwrap();
}

#[test]
fn bad_vertex_updates_are_refused_and_change_nothing() {
    let mut world = World::new();
    let (v, f) = indexed_sheet(4);
    let d = world.add_deformable(&v, &f, None).unwrap();
    let r = add(&mut world, box_mesh([0.0; 3], [1.0; 3]));
    let snapshot = |w: &World| (w.model(d).unwrap().triangles().to_vec(), *w.broad.bounds(d).unwrap());
    let before = snapshot(&world);
    let mut nan = v.clone();
    nan[3].y = f64::NAN;
    let mut far = v.clone();
    far[0].x = 2f64.powi(950);
    assert_eq!(world.update_vertices(d, &nan), Err(NBodyError::NonFinite));
    assert_eq!(world.update_vertices(d, &far), Err(NBodyError::OutOfRange));
    assert_eq!(
        world.update_vertices(d, &v[1..]),
        Err(NBodyError::Deform(RefitError::WrongLength { expected: v.len(), got: v.len() - 1 }))
    );
    assert_eq!(
        world.update_vertex_subset(d, &[0, 0], &[v[0], v[0]]),
        Err(NBodyError::Deform(RefitError::DuplicateIndex))
    );
    assert_eq!(world.update_vertex_subset(d, &[999], &[v[0]]), Err(NBodyError::Deform(RefitError::IndexOutOfRange)));
    assert_eq!(world.update_vertex_subset(d, &[0], &[nan[3]]), Err(NBodyError::NonFinite));
    assert_eq!(world.update_vertices(r, &v), Err(NBodyError::Deform(RefitError::NotDeformable)));
    assert_eq!(world.update_vertices(77, &v), Err(NBodyError::InvalidId));
    assert_eq!(snapshot(&world), before);
    world.validate().unwrap();
    // Bad deformable objects are refused and take no id.
    let next = world.next_id();
    assert_eq!(world.add_deformable(&v, &[[0, 1, 999]], None), Err(NBodyError::Deform(RefitError::IndexOutOfRange)));
    assert_eq!(world.add_deformable(&nan, &f, None), Err(NBodyError::NonFinite));
    assert_eq!(world.add_deformable(&v, &[], None), Err(NBodyError::EmptyObject));
    assert_eq!(world.next_id(), next);
    assert_eq!(world.len(), 2);
}
