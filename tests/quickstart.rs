//! The quickstart example (`examples/quickstart.rs`) finds what its comments say: cargo
//! compiles the example under `cargo test`, and this runs its queries and checks them.

#[path = "../examples/quickstart.rs"]
#[allow(dead_code)] // its `main` (the printing) is not called here
mod quickstart;

use rapidpqp::Vec3;

#[test]
fn quickstart_finds_the_contacts_distance_and_tolerance_it_describes() {
    let found = quickstart::run().expect("the example's models build and its queries run");
    let (corners, cube_faces) = quickstart::cube();
    let (_, octahedron_faces) = quickstart::octahedron();

    // Every contact: a triangle of the cube's +x face and one of the four octahedron
    // triangles around its −x tip (the octahedron's ids are its face indices).
    assert!(!found.contacts.is_empty());
    for pair in &found.contacts {
        let face = cube_faces[pair.id1 as usize];
        assert!(face.iter().all(|&v| corners[v as usize].x == 0.5), "{pair:?} is not on the +x face");
        let tip_minus_x = 1;
        assert!(octahedron_faces[pair.id2 as usize].contains(&tip_minus_x), "{pair:?} is not around the -x tip");
    }
    // Both of the +x face's triangles meet the tip's triangles.
    let mut cube_ids: Vec<i32> = found.contacts.iter().map(|p| p.id1).collect();
    cube_ids.sort();
    cube_ids.dedup();
    assert_eq!(cube_ids.len(), 2, "{:?}", found.contacts);

    assert!((found.distance - 0.5).abs() < 1e-12, "{}", found.distance);
    assert!((found.on_cube - Vec3::new(0.5, 0.0, 0.0)).norm() < 1e-12, "{:?}", found.on_cube);
    assert!((found.on_octahedron - Vec3::new(-0.5, 0.0, 0.0)).norm() < 1e-12, "{:?}", found.on_octahedron);
    assert!(found.closer_than_0_6);
    assert!(!found.closer_than_0_4);
}
