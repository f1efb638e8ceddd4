"""Solid facts, closest points, signed distance, inside/outside, rays, solid collide and
separation, checked against numpy brute force (point–triangle distances, Möller–Trumbore
ray casts, parity counts) on a cube, a UV sphere and a closed bundled mesh."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import rapidpqp as rp
from helpers import MESHES, load_obj, point_triangle, sphere_mesh

CUBE_V = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=float)
CUBE_F = np.array(
    [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
     [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]]
)  # fmt: skip


def translation(x, y=0.0, z=0.0):
    m = np.eye(4)
    m[:3, 3] = (x, y, z)
    return m


def scaled(s, x=0.0, y=0.0, z=0.0):
    return (np.eye(3), np.array([x, y, z]), s)


class FakeMesh:
    """Duck-typed mesh (what trimesh.Trimesh offers: .vertices and .faces)."""

    def __init__(self, vertices, faces):
        self.vertices, self.faces = vertices, faces


@pytest.fixture(scope="module")
def cube():
    return rp.Model(CUBE_V, CUBE_F)


@pytest.fixture(scope="module")
def sphere():
    v, f = sphere_mesh(12)
    return rp.Model(v, f), v[f]


@pytest.fixture(scope="module")
def fandisk():
    v, f = load_obj(MESHES / "fandisk.obj")
    return rp.Model(v, f), v[f]


@pytest.fixture(scope="module")
def bunny():
    v, f = load_obj(MESHES / "bunny_15k.obj")
    return rp.Model(v, f)


# ---------------------------------------------------------------------------------------------
# Brute force


def brute_closest(points, tris):
    """Distance to the nearest triangle and its index, for each point."""
    d = np.array([point_triangle(np.broadcast_to(p, (len(tris), 3)), tris).min() for p in points])
    k = np.array([point_triangle(np.broadcast_to(p, (len(tris), 3)), tris).argmin() for p in points])
    return d, k


def moller_trumbore(origin, direction, tris):
    """The ray parameter of the hit with each triangle (inf for a miss; t >= 0), for generic
    rays (no edge or vertex hits)."""
    a, b, c = tris[:, 0], tris[:, 1], tris[:, 2]
    e1, e2 = b - a, c - a
    pvec = np.cross(direction, e2)
    det = np.einsum("ij,ij->i", e1, pvec)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / det
        tvec = origin - a
        u = np.einsum("ij,ij->i", tvec, pvec) * inv
        qvec = np.cross(tvec, e1)
        v = np.einsum("j,ij->i", direction, qvec) * inv
        t = np.einsum("ij,ij->i", e2, qvec) * inv
    ok = (det != 0) & (u >= 0) & (v >= 0) & (u + v <= 1) & (t >= 0)
    return np.where(ok, t, np.inf)


def parity_inside(points, tris, rng):
    """Inside by the parity of the crossings of a random ray (generic, so no edge hits)."""
    out = []
    for p in points:
        d = rng.normal(size=3)
        out.append(np.isfinite(moller_trumbore(p, d, tris)).sum() % 2 == 1)
    return np.array(out)


def random_points(rng, tris, n, grow=0.2):
    lo, hi = tris.reshape(-1, 3).min(axis=0), tris.reshape(-1, 3).max(axis=0)
    pad = grow * (hi - lo)
    return rng.uniform(lo - pad, hi + pad, size=(n, 3))


# ---------------------------------------------------------------------------------------------
# Solid facts


def test_solid_facts_of_cube_sphere_and_meshes(cube, sphere, fandisk, bunny):
    f = cube.solid_facts
    assert isinstance(f, rp.SolidFacts)
    assert f.closed and f.oriented and cube.is_closed
    assert (f.vertices, f.edges, f.faces, f.components, f.euler_characteristic) == (8, 18, 12, 1, 2)
    assert (f.boundary_edges, f.non_manifold_edges, f.misoriented_edges, f.collapsed_triangles) == (0, 0, 0, 0)
    assert f.signed_volume == 1.0
    model, tris = sphere
    f = model.solid_facts
    assert f.closed and f.euler_characteristic == 2
    brute = np.einsum("ij,ij->i", tris[:, 0], np.cross(tris[:, 1], tris[:, 2])).sum() / 6
    assert f.signed_volume == pytest.approx(brute, rel=1e-12)
    assert fandisk[0].is_closed
    assert not bunny.is_closed and bunny.solid_facts.boundary_edges > 0
    v, faces = load_obj(MESHES / "bunny.obj")
    assert rp.Model(v, faces).solid_facts.boundary_edges == 223
    # Flipped faces: still closed, negative volume; an open box (one face missing).
    flipped = rp.Model(CUBE_V, CUBE_F[:, ::-1])
    assert flipped.is_closed and flipped.solid_facts.signed_volume == -1.0
    open_box = rp.Model(CUBE_V, CUBE_F[2:]).solid_facts
    assert not open_box.closed and open_box.boundary_edges == 4
    # One face flipped: misoriented edges.
    faces = CUBE_F.copy()
    faces[0] = faces[0, ::-1]
    bad = rp.Model(CUBE_V, faces).solid_facts
    assert not bad.closed and not bad.oriented and bad.misoriented_edges == 3


# ---------------------------------------------------------------------------------------------
# Closest points


@pytest.mark.parametrize("which", ["cube", "sphere", "fandisk"])
def test_closest_points_match_brute_force(which, cube, sphere, fandisk):
    rng = np.random.default_rng(11)
    if which == "cube":
        model, tris = cube, CUBE_V[CUBE_F]
    else:
        model, tris = sphere if which == "sphere" else fandisk
    n = 40 if which == "fandisk" else 200
    points = random_points(rng, tris, n)
    got = model.closest_points(points)
    assert isinstance(got, rp.ClosestPoints)
    assert got.distance.shape == (n,) and got.points.shape == (n, 3) and got.ids.shape == (n,)
    assert got.ids.dtype == np.int32 and got.on_surface.dtype == np.bool_ and got.found.all()
    want, _ = brute_closest(points, tris)
    scale = np.abs(tris).max()
    np.testing.assert_allclose(got.distance, want, rtol=1e-12, atol=1e-13 * scale)
    # The point reported is that far away and lies on the triangle reported (ids are faces).
    apart = np.linalg.norm(got.points - points, axis=1)
    np.testing.assert_allclose(apart, got.distance, rtol=1e-9, atol=1e-12 * scale)
    on_own = point_triangle(got.points, tris[got.ids])
    assert on_own.max() <= 1e-12 * scale
    assert not got.on_surface.any()
    # Threads do not change the answers.
    again = model.closest_points(points, threads=1)
    np.testing.assert_array_equal(again.distance, got.distance)


def test_closest_points_on_surface_single_point_and_bound(cube):
    got = cube.closest_points([0.5, 0.25, 1.0])  # a single point: arrays of length 1
    assert got.distance.shape == (1,) and got.points.shape == (1, 3)
    assert got.on_surface[0] and got.distance[0] == 0.0
    assert got.points[0].tolist() == [0.5, 0.25, 1.0]
    # Just off the surface is never 0.
    off = cube.closest_points([[0.5, 0.25, 1.0 + 1e-15], [1.0, 1.0, 1.0], [0.5, 0.5, 0.5]])
    assert off.distance[0] > 0 and not off.on_surface[0]
    assert off.on_surface[1] and off.distance[1] == 0.0
    assert off.distance[2] == 0.5 and not off.on_surface[2]
    # max_distance: beyond it, not found.
    bounded = cube.closest_points([[0.5, 0.5, 1.2], [0.5, 0.5, 3.0]], max_distance=1.0)
    assert bounded.found.tolist() == [True, False]
    assert bounded.distance[0] == pytest.approx(0.2) and bounded.distance[1] == np.inf
    assert np.isnan(bounded.points[1]).all() and bounded.ids[1] == -1
    # Empty input.
    empty = cube.closest_points(np.zeros((0, 3)))
    assert empty.distance.shape == (0,) and empty.points.shape == (0, 3)
    assert cube.signed_distance(np.zeros((0, 3))).shape == (0,)
    assert cube.contains(np.zeros((0, 3))).shape == (0,)


def test_closest_points_report_ids(cube):
    ids = np.arange(12, dtype=np.int32) * 10 + 1000
    model = rp.Model(CUBE_V, CUBE_F, ids=ids)
    got = model.closest_points([[0.5, 0.5, 2.0], [-1.0, 0.5, 0.5]])
    assert set(got.ids.tolist()) <= set(ids.tolist())
    top, left = (CUBE_V[CUBE_F[(i - 1000) // 10]] for i in got.ids)
    assert (top[:, 2] == 1.0).all() and (left[:, 0] == 0.0).all()


# ---------------------------------------------------------------------------------------------
# Signed distance and inside/outside


@pytest.mark.parametrize("which", ["sphere", "fandisk"])
def test_signed_distance_sign_by_parity_and_magnitude_by_brute_force(which, sphere, fandisk):
    model, tris = sphere if which == "sphere" else fandisk
    rng = np.random.default_rng(5)
    n = 40 if which == "fandisk" else 150
    points = random_points(rng, tris, n, grow=0.05)
    signed = model.signed_distance(points)
    assert signed.shape == (n,) and signed.dtype == np.float64
    inside = parity_inside(points, tris, rng)
    assert 0 < inside.sum() < n  # both sides are tested
    np.testing.assert_array_equal(signed < 0, inside)
    np.testing.assert_array_equal(model.contains(points), inside)
    np.testing.assert_array_equal(model.winding_numbers(points), inside.astype(np.int32))
    np.testing.assert_array_equal(np.abs(signed), model.closest_points(points).distance)
    want, _ = brute_closest(points, tris)
    np.testing.assert_allclose(np.abs(signed), want, rtol=1e-12, atol=1e-13 * np.abs(tris).max())


def test_contains_on_cube_grid_is_exact(cube):
    """Grid points on the cube's faces, edges and corners are inside (a closed solid contains
    its boundary) and exactly on the surface; the rest are decided by the coordinates."""
    values = np.array([-0.5, 0.0, 0.25, 0.5, 1.0, 1.5])
    grid = np.stack(np.meshgrid(values, values, values, indexing="ij"), axis=-1).reshape(-1, 3)
    within = ((grid >= 0) & (grid <= 1)).all(axis=1)
    boundary = within & ((grid == 0) | (grid == 1)).any(axis=1)
    np.testing.assert_array_equal(cube.contains(grid), within)
    np.testing.assert_array_equal(cube.winding_numbers(grid), (within & ~boundary).astype(np.int32))
    signed = cube.signed_distance(grid)
    np.testing.assert_array_equal(signed == 0.0, boundary)
    np.testing.assert_array_equal(signed < 0, within & ~boundary)
    np.testing.assert_array_equal(cube.closest_points(grid).on_surface, boundary)
    # Brute force for the magnitude: distance to the box, inside and out.
    outside = np.linalg.norm(np.maximum(np.maximum(-grid, grid - 1), 0), axis=1)
    depth = np.minimum(grid, 1 - grid).min(axis=1)
    np.testing.assert_allclose(signed, np.where(within, -depth, outside), rtol=1e-15, atol=0)
    # Inward normals: winding -1 inside, same containment.
    flipped = rp.Model(CUBE_V, CUBE_F[:, ::-1])
    np.testing.assert_array_equal(flipped.contains(grid), within)
    np.testing.assert_array_equal(flipped.winding_numbers(grid), -(within & ~boundary).astype(np.int32))
    # A single point.
    assert cube.contains([0.5, 0.5, 0.5]).tolist() == [True]
    assert cube.signed_distance([2.0, 0.5, 0.5]).tolist() == [1.0]


def test_nested_shells_wind_twice(cube):
    """Two nested closed shells in one model: winding 2 in the inner one (nonzero rule)."""
    inner = CUBE_V * 0.5 + 0.25
    model = rp.Model(np.vstack([CUBE_V, inner]), np.vstack([CUBE_F, CUBE_F + 8]))
    pts = [[0.5, 0.5, 0.5], [0.1, 0.5, 0.5], [2.0, 0.5, 0.5]]
    assert model.winding_numbers(pts).tolist() == [2, 1, 0]
    assert model.contains(pts).tolist() == [True, True, False]


# ---------------------------------------------------------------------------------------------
# Rays


@pytest.mark.parametrize("which", ["sphere", "fandisk"])
def test_ray_cast_matches_moller_trumbore(which, sphere, fandisk):
    model, tris = sphere if which == "sphere" else fandisk
    rng = np.random.default_rng(8)
    n = 40 if which == "fandisk" else 150
    origins = random_points(rng, tris, n, grow=0.5)
    directions = rng.normal(size=(n, 3)) * rng.uniform(0.1, 10, size=(n, 1))  # not unit
    got = model.ray_cast(origins, directions)
    assert isinstance(got, rp.RayHits)
    assert got.hit.shape == (n,) and got.points.shape == (n, 3) and got.barycentric.shape == (n, 3)
    ts = np.array([moller_trumbore(o, d, tris) for o, d in zip(origins, directions)])
    first = ts.min(axis=1)
    hit = np.isfinite(first)
    assert 0 < hit.sum() < n
    np.testing.assert_array_equal(got.hit, hit)
    np.testing.assert_allclose(got.t[hit], first[hit], rtol=1e-9)
    assert np.all(got.t[~hit] == np.inf) and np.isnan(got.points[~hit]).all() and (got.ids[~hit] == -1).all()
    np.testing.assert_array_equal(got.ids[hit], ts[hit].argmin(axis=1))
    scale = np.abs(tris).max()
    np.testing.assert_allclose(got.points[hit], origins[hit] + got.t[hit, None] * directions[hit], atol=1e-9 * scale)
    corners = tris[got.ids[hit]]
    weighted = np.einsum("ij,ijk->ik", got.barycentric[hit], corners)
    np.testing.assert_allclose(weighted, got.points[hit], atol=1e-9 * scale)
    np.testing.assert_allclose(got.barycentric[hit].sum(axis=1), 1.0, rtol=1e-12)
    # any_hit agrees on hit or miss; max_t cuts hits beyond it.
    blocked = model.ray_cast(origins, directions, any_hit=True)
    np.testing.assert_array_equal(blocked.hit, hit)
    assert np.isnan(blocked.t[hit]).all() and np.all(blocked.t[~hit] == np.inf)
    max_t = float(np.median(first[hit]))
    short = model.ray_cast(origins, directions, max_t=max_t)
    np.testing.assert_array_equal(short.hit, first <= max_t)
    # Threads do not change the answers.
    np.testing.assert_array_equal(model.ray_cast(origins, directions, threads=1).t, got.t)


def test_ray_cast_broadcasts_one_origin_or_direction(sphere):
    model, tris = sphere
    rng = np.random.default_rng(9)
    directions = rng.normal(size=(50, 3))
    from_centre = model.ray_cast([0.0, 0.0, 0.0], directions)
    assert from_centre.hit.all() and from_centre.hit.shape == (50,)
    want = np.array([moller_trumbore(np.zeros(3), d, tris).min() for d in directions])
    np.testing.assert_allclose(from_centre.t, want, rtol=1e-9)
    origins = rng.uniform(-0.5, 0.5, size=(30, 3)) + [0.0, 0.0, 5.0]
    down = model.ray_cast(origins, [0.0, 0.0, -1.0])
    assert down.hit.shape == (30,) and down.hit.all()
    want = np.array([moller_trumbore(o, np.array([0.0, 0.0, -1.0]), tris).min() for o in origins])
    np.testing.assert_allclose(down.t, want, rtol=1e-9)
    one = model.ray_cast([0.0, 0.0, 5.0], [0.0, 0.0, -1.0])
    assert one.hit.shape == (1,) and one.hit[0]
    none = model.ray_cast(np.zeros((0, 3)), [0.0, 0.0, -1.0])
    assert none.hit.shape == (0,) and none.points.shape == (0, 3)


def test_rays_through_edges_and_vertices_hit(cube):
    # Straight down through the middle of the top and bottom faces' diagonals.
    got = cube.ray_cast([[0.5, 0.5, 2.0], [1.0, 1.0, 2.0], [0.5, 0.5, 0.5]], [0.0, 0.0, -1.0])
    assert got.hit.tolist() == [True, True, True]
    assert got.t.tolist() == [1.0, 1.0, 0.5]
    miss = cube.ray_cast([[0.5, 0.5, 2.0]], [[0.0, 0.0, 1.0]])
    assert not miss.hit[0]
    hits = cube.segment_hits([0.5, 0.5, 2.0], [0.5, 0.5, -1.0])
    # Each of the two faces is split along that diagonal: two triangles at each crossing.
    assert len(hits.t) == 4 and hits.hit.all()
    np.testing.assert_allclose(hits.t, [1 / 3, 1 / 3, 2 / 3, 2 / 3], rtol=1e-14)
    assert np.all(np.diff(hits.t) >= 0)
    assert len(set(hits.ids.tolist())) == 4


def test_segment_hits_match_moller_trumbore(fandisk):
    model, tris = fandisk
    rng = np.random.default_rng(3)
    lo, hi = tris.reshape(-1, 3).min(axis=0), tris.reshape(-1, 3).max(axis=0)
    total = 0
    for _ in range(10):
        a, b = rng.uniform(lo, hi, size=(2, 3))
        got = model.segment_hits(a, b)
        ts = moller_trumbore(a, b - a, tris)
        want = np.sort(ts[ts <= 1.0])
        np.testing.assert_allclose(got.t, want, rtol=1e-9, atol=1e-12)
        assert sorted(got.ids.tolist()) == sorted(np.flatnonzero(ts <= 1.0).tolist())
        total += len(want)
    assert total > 10  # more hits than the first capacity guess in some segment
    assert len(model.segment_hits(lo - 1, lo - 2).t) == 0


# ---------------------------------------------------------------------------------------------
# Solid collide and separation


def test_solid_collide_relations(cube, sphere):
    sphere_model = sphere[0]
    r = rp.collide(cube, None, cube, scaled(0.5, 0.25, 0.25, 0.25), solid=True)
    assert isinstance(r, rp.SolidCollideResult)
    assert r.relation == "second_inside_first" and r.colliding and r.intersecting and r.pair is None
    # The plain collide sees nothing: no triangles intersect.
    assert not rp.collide(cube, None, cube, scaled(0.5, 0.25, 0.25, 0.25)).colliding
    r = rp.collide(cube, scaled(0.5, 0.25, 0.25, 0.25), cube, None, solid=True)
    assert r.relation == "first_inside_second"
    r = rp.collide(sphere_model, scaled(0.1), sphere_model, None, solid=True)
    assert r.relation == "first_inside_second" and r.colliding
    r = rp.collide(sphere_model, None, sphere_model, translation(1.5), solid=True)
    assert r.relation == "surfaces_cross" and r.colliding
    plain = rp.collide(sphere_model, None, sphere_model, translation(1.5))
    assert r.pair in set(map(tuple, plain.pairs.tolist()))
    r = rp.collide(cube, None, sphere_model, translation(5.0), solid=True)
    assert r.relation == "apart" and not r.colliding and not r.intersecting and r.pair is None
    assert r.bv_tests >= 1
    # Touching faces count.
    assert rp.collide(cube, None, cube, translation(1.0), solid=True).relation == "surfaces_cross"
    # Default solid=False: the old result.
    assert isinstance(rp.collide(cube, None, cube, translation(0.5)), rp.CollideResult)


def test_separation_of_overlapping_boxes_is_exact(cube):
    pose = translation(0.8, 0.1, 0.3)  # overlap 0.2 along x, 0.9 along y, 0.7 along z
    s = rp.separation(cube, None, cube, pose)
    assert isinstance(s, rp.Separation)
    assert s.bound == "depth_upper_bound" and s.relation == "surfaces_cross"
    assert s.signed_distance == pytest.approx(-0.2, abs=1e-12)
    np.testing.assert_allclose(s.translation, [0.2, 0.0, 0.0], atol=1e-12)
    assert np.isnan(s.p1).all() and np.isnan(s.p2).all() and s.directions > 1
    # Along given directions (any length): model 2 moves along it.
    for direction, depth in (([0, 1, 0], 0.9), ([0, 0, 5], 0.7), ([-1, 0, 0], 1.8), ([0, -2, 0], 1.1)):
        s = rp.separation(cube, None, cube, pose, direction=direction)
        assert s.bound == "depth_along_direction" and s.directions == 1
        assert s.signed_distance == pytest.approx(-depth, abs=1e-12)
        u = np.array(direction, dtype=float) / np.linalg.norm(direction)
        np.testing.assert_allclose(s.translation, depth * u, atol=1e-12)
    # Nested: a half cube in the middle must move 0.75 along +x.
    s = rp.separation(cube, None, cube, scaled(0.5, 0.25, 0.25, 0.25), direction=[1, 0, 0])
    assert s.relation == "second_inside_first" and s.signed_distance == pytest.approx(-0.75, abs=1e-12)
    # Touching: 0.
    s = rp.separation(cube, None, cube, translation(1.0, 0.5))
    assert s.relation == "surfaces_cross" and s.signed_distance == pytest.approx(0.0, abs=1e-12)


def test_separation_apart_is_the_distance(cube, sphere):
    s = rp.separation(cube, None, cube, translation(3.0, 0.2))
    assert s.bound == "distance" and s.relation == "apart" and s.directions == 0
    assert s.signed_distance == pytest.approx(2.0, abs=1e-12)
    assert s.translation.tolist() == [0.0, 0.0, 0.0]
    assert s.p1[0] == pytest.approx(1.0) and s.p2[0] == pytest.approx(0.0)
    d = rp.distance(cube, None, sphere[0], translation(4.0))
    s = rp.separation(cube, None, sphere[0], translation(4.0))
    assert s.signed_distance == d.distance
    np.testing.assert_array_equal(s.p1, d.p1)


def test_solid_queries_take_mesh_objects(cube):
    mesh = FakeMesh(CUBE_V, CUBE_F)
    r = rp.collide(mesh, None, mesh, scaled(0.5, 0.25, 0.25, 0.25), solid=True)
    assert r.relation == "second_inside_first"
    s = rp.separation(mesh, None, cube, translation(0.8, 0.1, 0.3), direction=(1, 0, 0))
    assert s.signed_distance == pytest.approx(-0.2, abs=1e-12)


def test_real_trimesh():
    trimesh = pytest.importorskip("trimesh")
    mesh = trimesh.creation.icosphere(subdivisions=2)
    small = trimesh.creation.icosphere(subdivisions=1, radius=0.2)
    assert rp.collide(mesh, None, small, None, solid=True).relation == "second_inside_first"
    assert rp.separation(mesh, None, small, translation(3.0)).signed_distance == pytest.approx(1.8, rel=1e-3)
    model = rp.Model.from_trimesh(mesh)
    assert model.is_closed == mesh.is_watertight and model.is_closed
    assert model.solid_facts.signed_volume == pytest.approx(mesh.volume, rel=1e-12)
    rng = np.random.default_rng(1)
    points = rng.uniform(-1.2, 1.2, size=(100, 3))
    tris = np.asarray(mesh.triangles)
    np.testing.assert_array_equal(model.contains(points), parity_inside(points, tris, rng))
    np.testing.assert_allclose(model.closest_points(points).distance, brute_closest(points, tris)[0], rtol=1e-12)


# ---------------------------------------------------------------------------------------------
# Errors


def test_open_model_is_refused_naming_its_edges(bunny, cube):
    f = bunny.solid_facts
    counts = (
        f"{f.boundary_edges} boundary edges, {f.non_manifold_edges} non-manifold, "
        f"{f.misoriented_edges} misoriented"
    )
    points = np.zeros((3, 3))
    for call in (bunny.signed_distance, bunny.contains, bunny.winding_numbers):
        with pytest.raises(rp.RapidPQPError, match="the model is not closed: " + counts) as e:
            call(points)
        assert isinstance(e.value, rp.ModelNotClosedError) and isinstance(e.value, ValueError)
    with pytest.raises(rp.ModelNotClosedError, match="model2: the model is not closed: " + counts):
        rp.collide(cube, None, bunny, None, solid=True)
    with pytest.raises(rp.ModelNotClosedError, match="model1: .*boundary edges"):
        rp.separation(bunny, None, cube, None)
    # Open models are fine for the queries that do not need a solid.
    assert bunny.closest_points(points).found.all()
    bunny.ray_cast(points, [1.0, 0.0, 0.0])


def test_bad_input_raises_clear_errors(cube):
    nan_points = [[0.5, 0.5, 0.5], [0.0, np.nan, 0.0]]
    for call in (cube.closest_points, cube.signed_distance, cube.contains, cube.winding_numbers):
        with pytest.raises(ValueError, match=r"points: entry \[1, 1\] is nan"):
            call(nan_points)
        with pytest.raises(ValueError, match=r"shape \(N, 3\) or \(3,\)"):
            call(np.zeros((4, 2)))
        with pytest.raises(ValueError, match="shape"):
            call(np.zeros((2, 3, 3)))
        with pytest.raises(TypeError):
            call([["a", "b", "c"]])
        with pytest.raises(ValueError):
            call([[1e305, 0.0, 0.0]])  # beyond the library's range
        with pytest.raises(TypeError, match="threads"):
            call(np.zeros(3), threads=1.5)
        with pytest.raises(ValueError, match="threads"):
            call(np.zeros(3), threads=-1)
    for bad in (np.nan, -1.0):
        with pytest.raises(ValueError, match="max_distance"):
            cube.closest_points(np.zeros(3), max_distance=bad)
        with pytest.raises(ValueError, match="max_t"):
            cube.ray_cast(np.zeros(3), [1.0, 0.0, 0.0], max_t=bad)
    with pytest.raises(TypeError, match="max_distance"):
        cube.closest_points(np.zeros(3), max_distance="far")
    with pytest.raises(ValueError, match="directions: row 1 is zero"):
        cube.ray_cast(np.zeros(3), [[1.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match="origins has 2 rows and directions has 3"):
        cube.ray_cast(np.zeros((2, 3)), np.ones((3, 3)))
    with pytest.raises(ValueError, match="ray_cast: .*direction is so small"):
        cube.ray_cast([1e200, 0.0, 0.0], [1e-300, 0.0, 0.0])
    with pytest.raises(ValueError, match=r"origins: entry \[0, 2\] is inf"):
        cube.ray_cast([0.0, 0.0, np.inf], [1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match=r"b: expected a point of shape \(3,\)"):
        cube.segment_hits(np.zeros(3), np.zeros((1, 3)))
    with pytest.raises(ValueError, match="a: entry"):
        cube.segment_hits([np.nan, 0, 0], np.zeros(3))
    with pytest.raises(ValueError, match="direction: must be nonzero"):
        rp.separation(cube, None, cube, None, direction=[0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="direction: entry"):
        rp.separation(cube, None, cube, None, direction=[np.nan, 1.0, 0.0])
    with pytest.raises(ValueError, match="direction: expected a point of shape"):
        rp.separation(cube, None, cube, None, direction=[1.0, 0.0])
    with pytest.raises(ValueError, match="box_test or frame"):
        rp.collide(cube, None, cube, None, solid=True, frame="model2")
    with pytest.raises(TypeError, match="model2"):
        rp.separation(cube, None, "cube", None)
    with pytest.raises(ValueError, match="pose2"):
        rp.collide(cube, None, cube, np.zeros((4, 4)), solid=True)
    # Still working afterwards.
    assert cube.contains([0.5, 0.5, 0.5]).tolist() == [True]


# ---------------------------------------------------------------------------------------------
# Threads


def test_point_queries_release_the_gil(sphere):
    """A Python thread keeps running while a large batch runs in the library."""
    model, _ = sphere
    points = np.random.default_rng(2).uniform(-1.5, 1.5, size=(400_000, 3))
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        start = time.perf_counter()
        model.signed_distance(points, threads=1)
        end = time.perf_counter()
    finally:
        done.set()
        counter.join()
    during = [t for t in ticks if start < t < end]
    assert end - start > 0.02, "the batch was too quick to tell"
    assert len(during) >= 3, f"the other thread ran {len(during)} times in {end - start:.3f} s"


def test_results_do_not_depend_on_threads(fandisk):
    model, tris = fandisk
    points = random_points(np.random.default_rng(4), tris, 3000)
    base = model.signed_distance(points, threads=1)
    for threads in (2, 0):
        np.testing.assert_array_equal(model.signed_distance(points, threads=threads), base)
        np.testing.assert_array_equal(model.contains(points, threads=threads), base <= 0)
