"""The Python API: model construction, pose forms, result types, batches, pickling."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import rapidpqp as rp
from helpers import MESHES, load_obj, random_pose, random_rotation, sphere_mesh

CUBE_V = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=float)
CUBE_F = np.array(
    [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
     [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]]
)  # fmt: skip


def translation(x, y=0.0, z=0.0):
    m = np.eye(4)
    m[:3, 3] = (x, y, z)
    return m


@pytest.fixture(scope="module")
def cube():
    return rp.Model(CUBE_V, CUBE_F)


def test_library_is_inside_the_installed_package_or_checkout():
    assert rp.LIBRARY_PATH.is_file()
    assert rp.__version__


def test_model_from_indexed_and_triangles_agree(cube):
    assert cube.num_triangles == len(cube) == 12
    assert cube.memory_bytes > 0
    assert "12 triangles" in repr(cube)
    same = rp.Model.from_triangles(CUBE_V[CUBE_F])
    for x in (0.5, 0.99, 1.0, 1.01, 3.0):
        a = rp.collide(cube, None, cube, translation(x, 0.3, 0.2))
        b = rp.collide(same, None, same, translation(x, 0.3, 0.2))
        assert sorted(map(tuple, a.pairs.tolist())) == sorted(map(tuple, b.pairs.tolist()))


def test_input_dtypes_are_converted():
    m = rp.Model(CUBE_V.astype(np.float32), CUBE_F.astype(np.uint16), ids=np.arange(12, dtype=np.int8))
    assert m.num_triangles == 12
    m = rp.Model(CUBE_V.astype(int).tolist(), CUBE_F.tolist())
    assert m.num_triangles == 12
    # Non-contiguous views are fine.
    big = np.zeros((8, 6))
    big[:, ::2] = CUBE_V
    assert rp.Model(big[:, ::2], CUBE_F[::-1]).num_triangles == 12


def test_ids_are_reported(cube):
    ids = np.arange(12) * 100 - 5
    m = rp.Model(CUBE_V, CUBE_F, ids=ids)
    r = rp.collide(m, None, m, translation(0.5))
    assert r.colliding
    assert set(r.pairs.ravel().tolist()) <= set(ids.tolist())
    assert r.pairs.dtype == np.int32 and r.pairs.shape[1] == 2


def test_collide_results(cube):
    r = rp.collide(cube, None, cube, translation(3))
    assert not r.colliding and r.pairs.shape == (0, 2) and r.num_pairs == 0
    assert r.bv_tests >= 1 and r.tri_tests == 0
    r = rp.collide(cube, None, cube, translation(0.5, 0.5, 0.5))
    assert r.colliding and r.tri_tests >= r.num_pairs > 1
    first = rp.collide(cube, None, cube, translation(0.5, 0.5, 0.5), first_contact=True)
    assert first.num_pairs == 1
    pairs, bv, tri = r  # a named tuple
    assert pairs is r.pairs


def test_touching_counts(cube):
    assert rp.collide(cube, None, cube, translation(1.0)).colliding
    assert not rp.collide(cube, None, cube, translation(1.0 + 1e-9)).colliding


def test_distance_and_frames(cube):
    # Model 2 rotated 90 degrees about z and moved: its closest point is reported in its own
    # frame; placing both points gives two world points `distance` apart.
    rot = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    pose2 = np.eye(4)
    pose2[:3, :3] = rot
    pose2[:3, 3] = (4.0, 0.0, 0.0)  # the rotated cube spans x in [3, 4]
    r = rp.distance(cube, None, cube, pose2)
    assert r.distance == pytest.approx(2.0)
    assert r.p1[0] == pytest.approx(1.0)
    world2 = rp.Pose(pose2).apply(r.p2)
    assert world2[0] == pytest.approx(3.0)
    assert np.linalg.norm(world2 - r.p1) == pytest.approx(r.distance)
    assert r.p2[1] == pytest.approx(1.0)  # x = 3 in the world is y = 1 in the model
    assert r.bv_tests >= 0 and r.tri_tests >= 1
    assert rp.distance(cube, None, cube, translation(0.5)).distance == 0.0


def test_tolerance(cube):
    r = rp.tolerance(cube, None, cube, translation(3.0), 2.5)
    assert r.closer and 2.0 <= r.distance <= 2.5
    r = rp.tolerance(cube, None, cube, translation(3.0), 1.5)
    assert not r.closer and r.distance > 1.5 and np.isnan(r.p1).all()
    assert rp.tolerance(cube, None, cube, translation(3.0), 2.0).closer  # inclusive
    assert rp.tolerance(cube, None, cube, translation(0.5), -1.0).closer  # counts as 0
    assert rp.tolerance(cube, None, cube, translation(3.0), np.inf).closer


def test_distance_cache_warm_start(cube):
    cache = rp.DistanceCache()
    for x in np.linspace(2.0, 3.0, 5):
        cold = rp.distance(cube, None, cube, translation(x, 0.1))
        warm = rp.distance(cube, None, cube, translation(x, 0.1), cache=cache)
        assert warm.distance == pytest.approx(cold.distance, abs=1e-15)


def test_pose_forms_are_equivalent(cube):
    rng = np.random.default_rng(3)
    for _ in range(10):
        m = random_pose(rng, 0.8)
        r, t = m[:3, :3], m[:3, 3]
        expected = rp.collide(cube, None, cube, m).pairs.tolist()
        for form in (m, m.tolist(), (r, t), [r, t], (r, t, 1.0), rp.Pose(m), rp.Pose.from_rt(r, t)):
            assert rp.collide(cube, None, cube, form).pairs.tolist() == expected
        assert rp.collide(cube, np.eye(4), cube, m).pairs.tolist() == expected
        assert rp.collide(cube, (np.eye(3), np.zeros(3)), cube, m).pairs.tolist() == expected


def test_pose_object():
    rng = np.random.default_rng(5)
    m = random_pose(rng)
    p = rp.Pose(m)
    assert np.array_equal(p.matrix, m) and p.scale == 1.0
    assert np.array_equal(p.rotation, m[:3, :3]) and np.array_equal(p.translation, m[:3, 3])
    q = rp.Pose.from_rt(m[:3, :3], m[:3, 3], 2.0)
    assert q.scale == 2.0
    np.testing.assert_allclose(q.apply([1.0, 0.0, 0.0]), 2.0 * m[:3, 0] + m[:3, 3])
    scaled = m.copy()
    scaled[:3, :3] *= 3.0
    s = rp.Pose(scaled)
    assert s.scale == pytest.approx(3.0)
    np.testing.assert_allclose(s.rotation, m[:3, :3], atol=1e-15)
    assert pickle.loads(pickle.dumps(q)).matrix.tolist() == q.matrix.tolist()
    assert repr(q).startswith("Pose.from_rt(")
    assert rp.Pose().matrix.tolist() == np.eye(4).tolist()


def test_batches_equal_single_queries(cube):
    rng = np.random.default_rng(11)
    poses = np.array([random_pose(rng, 1.2) for _ in range(64)])
    pose1 = random_pose(rng, 0.1)
    for threads in (1, 2, 0):
        cb = rp.collide_batch(cube, pose1, cube, poses, threads=threads)
        db = rp.distance_batch(cube, pose1, cube, poses, threads=threads)
        tb = rp.tolerance_batch(cube, pose1, cube, poses, 0.2, threads=threads)
        fb = rp.collide_batch(cube, pose1, cube, poses, first_contact=True, threads=threads)
        assert cb.colliding.dtype == np.bool_ and cb.num_pairs.dtype == np.int64
        assert db.p1.shape == (64, 3) and tb.closer.shape == (64,)
        for i, p in enumerate(poses):
            c = rp.collide(cube, pose1, cube, p)
            assert (cb.colliding[i], cb.num_pairs[i]) == (c.colliding, c.num_pairs)
            assert fb.num_pairs[i] == min(1, c.num_pairs)
            d = rp.distance(cube, pose1, cube, p)
            assert db.distance[i] == d.distance
            assert db.p1[i].tolist() == d.p1.tolist() and db.p2[i].tolist() == d.p2.tolist()
            t = rp.tolerance(cube, pose1, cube, p, 0.2)
            assert tb.closer[i] == t.closer and tb.distance[i] == t.distance
            np.testing.assert_array_equal(tb.p1[i], t.p1)


def test_batch_broadcasting_and_forms(cube):
    rng = np.random.default_rng(12)
    poses = np.array([random_pose(rng, 1.2) for _ in range(10)])
    a = rp.distance_batch(cube, None, cube, poses).distance
    # Swap roles: model 1 moves, model 2 fixed.
    b = rp.distance_batch(cube, poses, cube, np.eye(4)).distance
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    # (R, t) arrays, and a single Pose broadcast.
    c = rp.distance_batch(cube, rp.Pose(), cube, (poses[:, :3, :3], poses[:, :3, 3])).distance
    assert c.tolist() == a.tolist()
    d = rp.distance_batch(cube, [np.eye(3), np.zeros(3)], cube, (poses[:, :3, :3], poses[:, :3, 3], np.ones(10))).distance
    assert d.tolist() == a.tolist()
    # Scales per pose.
    s = np.linspace(0.5, 2.0, 10)
    e = rp.distance_batch(cube, None, cube, (poses[:, :3, :3], poses[:, :3, 3], s)).distance
    for i in range(10):
        assert e[i] == rp.distance(cube, None, cube, (poses[i, :3, :3], poses[i, :3, 3], s[i])).distance
    # Empty batches.
    empty = rp.collide_batch(cube, None, cube, np.zeros((0, 4, 4)))
    assert empty.colliding.shape == (0,) and empty.num_pairs.shape == (0,)
    assert rp.distance_batch(cube, np.zeros((0, 4, 4)), cube, None).p1.shape == (0, 3)


def test_warm_start_batch_distances(cube):
    poses = np.array([translation(2.0 + 0.01 * k, 0.05 * np.sin(k)) for k in range(200)])
    cold = rp.distance_batch(cube, None, cube, poses)
    warm = rp.distance_batch(cube, None, cube, poses, warm_start=True, threads=2)
    np.testing.assert_allclose(warm.distance, cold.distance, rtol=0, atol=1e-14)


def test_pickle_round_trip(cube):
    m = rp.Model(CUBE_V, CUBE_F, ids=np.arange(12) + 40)
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        m2 = pickle.loads(pickle.dumps(m, protocol=protocol))
        assert isinstance(m2, rp.Model) and m2.num_triangles == 12
        assert m2.to_bytes() == m.to_bytes()
        for x in (0.5, 1.0, 2.5):
            a = rp.collide(m, None, m, translation(x, 0.2))
            b = rp.collide(m2, None, m2, translation(x, 0.2))
            assert a.pairs.tolist() == b.pairs.tolist() and a.bv_tests == b.bv_tests
            assert rp.distance(m, None, m, translation(x, 0.2)) .distance == rp.distance(m2, None, m2, translation(x, 0.2)).distance
    assert copy.copy(m) is m and copy.deepcopy(m) is m


def test_pickle_keeps_the_hierarchy_of_a_big_model():
    v, f = load_obj(MESHES / "bunny_15k.obj")
    m = rp.Model(v, f)
    data = m.to_bytes()
    m2 = rp.Model.from_bytes(data)
    assert m2.num_triangles == m.num_triangles == len(f)
    assert m2.to_bytes() == data
    rng = np.random.default_rng(1)
    size = np.abs(v).max()
    for _ in range(5):
        pose = random_pose(rng, 0.2 * size)
        a, b = rp.collide(m, None, m, pose), rp.collide(m2, None, m2, pose)
        assert a.pairs.tolist() == b.pairs.tolist() and (a.bv_tests, a.tri_tests) == (b.bv_tests, b.tri_tests)


def test_subclass_pickles_as_itself():
    class MyModel(rp.Model):
        __slots__ = ()

    globals()["MyModel"] = MyModel
    MyModel.__qualname__ = "MyModel"
    m = MyModel(CUBE_V, CUBE_F)
    assert type(pickle.loads(pickle.dumps(m))) is MyModel


class FakeMesh:
    def __init__(self, vertices, faces):
        self.vertices, self.faces = vertices, faces


def test_from_trimesh_duck_typed():
    v, f = sphere_mesh(5)
    m = rp.Model.from_trimesh(FakeMesh(v, f))
    assert m.num_triangles == len(f)


class HashedMesh(FakeMesh):
    """Like trimesh.Trimesh: a content hash that follows edits of the arrays."""

    def __hash__(self):
        return hash((self.vertices.tobytes(), self.faces.tobytes()))


def test_queries_take_mesh_objects(cube):
    v, f = sphere_mesh(5)
    model = rp.Model(v, f)
    pose = translation(3.0)
    want = rp.distance(model, None, model, pose)
    for mesh in (FakeMesh(v, f), HashedMesh(v.copy(), f)):
        got = rp.distance(mesh, None, model, pose)
        assert got.distance == want.distance
        assert rp.collide(model, None, mesh, translation(0.5)).pairs.tolist() == rp.collide(
            model, None, model, translation(0.5)
        ).pairs.tolist()
        batch = rp.distance_batch(mesh, None, mesh, np.stack([pose, np.eye(4)]))
        assert batch.distance[0] == want.distance and batch.distance[1] == 0.0
    # A hashed mesh keeps its model while unchanged and is rebuilt after an edit.
    mesh = HashedMesh(v.copy(), f)
    rp.distance(mesh, None, model, pose)
    kept = mesh._rapidpqp_model[1]
    rp.distance(mesh, None, model, pose)
    assert mesh._rapidpqp_model[1] is kept
    mesh.vertices = mesh.vertices + np.array([0.25, 0.0, 0.0])
    moved = rp.distance(mesh, None, model, pose)
    assert mesh._rapidpqp_model[1] is not kept
    assert moved.distance == rp.distance(rp.Model(mesh.vertices, f), None, model, pose).distance
    assert moved.distance < want.distance
    with pytest.raises(TypeError, match="trimesh"):
        rp.distance(object(), None, model, pose)


def test_from_trimesh_real():
    trimesh = pytest.importorskip("trimesh")
    mesh = trimesh.creation.icosphere(subdivisions=2)
    m = rp.Model.from_trimesh(mesh)
    assert m.num_triangles == len(mesh.faces)
    r = rp.distance(m, None, m, translation(3.0))
    assert r.distance == pytest.approx(1.0, abs=1e-12)


def test_rotations_from_quaternions_are_accepted(cube):
    rng = np.random.default_rng(9)
    for _ in range(100):
        rp.Pose((random_rotation(rng), np.zeros(3)))


def test_native_and_python_pose_checks_agree():
    """4x4 poses are converted natively; the Python twin (used to word refusals) and the
    vectorized batch path must give the same bits."""
    from rapidpqp import _api

    rng = np.random.default_rng(21)
    mats = []
    for k in range(200):
        m = random_pose(rng, 2.0)
        if k % 2:
            m[:3, :3] *= rng.uniform(0.1, 10.0)
        mats.append(m)
    mats = np.array(mats)
    batch = _api._poses_array(mats, "poses")
    for i, m in enumerate(mats):
        native = _api._pose_bytes(m, "pose")
        assert native == _api._matrix_pose_bytes(m, "pose")
        assert native == batch[i].tobytes()
