//! Quickstart: build two models, place them, and ask the three classic queries (collide,
//! distance, tolerance). Run with `cargo run --release --example quickstart`.
//!
//! A unit cube centred at the origin and an octahedron of radius 0.5 (its tips on the axes)
//! turned 30° about the x axis, first pushed 0.1 into the cube's +x face, then 0.5 clear of
//! it. `tests/quickstart.rs` runs [`run`] and checks what it finds.

use std::error::Error;

use rapidpqp::nalgebra::Rotation3;
use rapidpqp::query::{CollideRequest, CollideResult, ContactPair, DistanceRequest, collide, distance, tolerance};
use rapidpqp::{Model, Placement, Vec3};

/// The cube's corners and its 12 triangles (triangle k gets id k).
pub fn cube() -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let corners =
        (0..8).map(|k| Vec3::new((k >> 2 & 1) as f64, (k >> 1 & 1) as f64, (k & 1) as f64).add_scalar(-0.5)).collect();
    #[rustfmt::skip]
    let faces = vec![
        [0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
        [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3],
    ];
    (corners, faces)
}

/// The octahedron's tips (±x, ±y, ±z at distance 0.5) and its 8 outward-facing triangles.
pub fn octahedron() -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let tips = vec![
        Vec3::new(0.5, 0.0, 0.0),
        Vec3::new(-0.5, 0.0, 0.0),
        Vec3::new(0.0, 0.5, 0.0),
        Vec3::new(0.0, -0.5, 0.0),
        Vec3::new(0.0, 0.0, 0.5),
        Vec3::new(0.0, 0.0, -0.5),
    ];
    let mut faces = Vec::new();
    for octant in 0..8u32 {
        let (x, y, z) = (octant & 1, 2 + (octant >> 1 & 1), 4 + (octant >> 2 & 1));
        // An odd number of negative axes mirrors the octant: swap two corners to face outward.
        faces.push(if octant.count_ones() % 2 == 0 { [x, y, z] } else { [x, z, y] });
    }
    (tips, faces)
}

/// What the quickstart finds.
#[derive(Debug)]
pub struct Findings {
    /// The triangle pairs (cube's id, octahedron's id) intersecting when the tip is 0.1 deep.
    pub contacts: Vec<ContactPair>,
    /// The distance when the octahedron is 0.5 clear, and the closest points, each in its own
    /// model's frame.
    pub distance: f64,
    /// Closest point on the cube.
    pub on_cube: Vec3,
    /// Closest point on the octahedron, in the octahedron's frame.
    pub on_octahedron: Vec3,
    /// Tolerance queries at 0.5 clear: closer than 0.6? closer than 0.4?
    pub closer_than_0_6: bool,
    /// See `closer_than_0_6`.
    pub closer_than_0_4: bool,
}

/// Builds the models and runs the queries.
pub fn run() -> Result<Findings, Box<dyn Error>> {
    let (corners, cube_faces) = cube();
    let cube = Model::from_indexed(&corners, &cube_faces)?;
    let (tips, octahedron_faces) = octahedron();
    let octahedron = Model::from_indexed(&tips, &octahedron_faces)?;

    // The octahedron turned 30° about x (its ±x tips stay on the axis) and moved along +x.
    let turned = *Rotation3::from_axis_angle(&Vec3::x_axis(), 30f64.to_radians()).matrix();
    let at = |x: f64| Placement { rotation: turned, translation: Vec3::new(x, 0.0, 0.0), scale: 1.0 };
    let cube_pose = Placement::IDENTITY;

    // Tip 0.1 inside the cube's +x face (x = 0.5): every contact pairs a triangle of that face
    // with one of the four triangles around the tip.
    let mut result = CollideResult::new();
    collide(&cube, &cube_pose, &octahedron, &at(0.9), &CollideRequest::default(), &mut result)?;
    let contacts = result.pairs.clone();

    // 0.5 clear: the exact distance and closest points (cube's face, octahedron's −x tip).
    let d = distance(&cube, &cube_pose, &octahedron, &at(1.5), &DistanceRequest::default(), None)?;
    let closer_than_0_6 = tolerance(&cube, &cube_pose, &octahedron, &at(1.5), 0.6, 2, None)?.closer;
    let closer_than_0_4 = tolerance(&cube, &cube_pose, &octahedron, &at(1.5), 0.4, 2, None)?.closer;
    Ok(Findings {
        contacts,
        distance: d.distance,
        on_cube: d.p1,
        on_octahedron: d.p2,
        closer_than_0_6,
        closer_than_0_4,
    })
}

fn main() -> Result<(), Box<dyn Error>> {
    let found = run()?;
    println!("tip 0.1 deep: {} intersecting triangle pairs (cube id, octahedron id):", found.contacts.len());
    for pair in &found.contacts {
        println!("  ({}, {})", pair.id1, pair.id2);
    }
    let (p, q) = (found.on_cube, found.on_octahedron);
    println!("0.5 clear: distance {:.6}", found.distance);
    println!("  closest on the cube       ({:.3}, {:.3}, {:.3})", p.x, p.y, p.z);
    println!("  closest on the octahedron ({:.3}, {:.3}, {:.3}) in its own frame", q.x, q.y, q.z);
    println!("  closer than 0.6: {}; closer than 0.4: {}", found.closer_than_0_6, found.closer_than_0_4);
    Ok(())
}
