"""Bad input raises a clear Python exception naming the argument; nothing crashes."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import rapidpqp as rp

V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
F = np.array([[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]])


@pytest.fixture(scope="module")
def tet():
    return rp.Model(V, F)


def nan_at(a, index):
    a = np.array(a, dtype=float)
    a[index] = np.nan
    return a


# ---------------------------------------------------------------------------------------------
# Models

MODEL_ERRORS = [
    # (vertices, faces, ids, exception, words in the message)
    (V[:, :2], F, None, ValueError, ["vertices", "shape"]),
    (V.ravel(), F, None, ValueError, ["vertices", "shape"]),
    (V, F[:, :2], None, ValueError, ["faces", "shape"]),
    (V, F.ravel(), None, ValueError, ["faces", "shape"]),
    (V, F.astype(float), None, TypeError, ["faces", "integer"]),
    (V.astype(str), F, None, TypeError, ["vertices", "dtype"]),
    (V.astype(complex), F, None, TypeError, ["vertices", "dtype"]),
    (V > 0, F, None, TypeError, ["vertices", "dtype"]),
    ([[0, 0, 0], [1, 0]], F, None, ValueError, ["vertices"]),
    (V, np.zeros((0, 3), dtype=int), None, ValueError, ["faces", "at least one triangle"]),
    (np.zeros((0, 3)), np.zeros((0, 3), dtype=int), None, ValueError, ["faces", "at least one triangle"]),
    (V, F + 1, None, ValueError, ["faces", "out of range", "row"]),
    (V, F - 1, None, ValueError, ["faces", "out of range", "-1"]),
    (nan_at(V, (2, 1)), F, None, ValueError, ["vertices", "[2, 1]", "finite"]),
    (np.where(V == 1, np.inf, V), F, None, ValueError, ["vertices", "finite"]),
    (V, F, np.arange(3), ValueError, ["ids", "shape"]),
    (V, F, np.arange(4.0), TypeError, ["ids", "integer"]),
    (V, F, np.array([0, 1, 2, 2**31]), ValueError, ["ids", "32-bit"]),
    (V, F, "abcd", TypeError, ["ids"]),
]


@pytest.mark.parametrize("vertices, faces, ids, exc, words", MODEL_ERRORS)
def test_model_errors(vertices, faces, ids, exc, words):
    with pytest.raises(exc) as info:
        rp.Model(vertices, faces, ids)
    for w in words:
        assert w in str(info.value)


@pytest.mark.parametrize(
    "triangles, exc, words",
    [
        (np.zeros((4, 3)), ValueError, ["triangles", "(M, 3, 3)"]),
        (np.zeros((0, 3, 3)), ValueError, ["triangles", "at least one"]),
        (nan_at(np.zeros((2, 3, 3)), (1, 2, 0)), ValueError, ["triangles", "[1, 2, 0]"]),
        (np.zeros((2, 3, 3), dtype=object), TypeError, ["triangles", "dtype"]),
    ],
)
def test_from_triangles_errors(triangles, exc, words):
    with pytest.raises(exc) as info:
        rp.Model.from_triangles(triangles)
    for w in words:
        assert w in str(info.value)


def test_from_trimesh_errors():
    with pytest.raises(TypeError, match="mesh"):
        rp.Model.from_trimesh(object())


def test_unbuilt_model_is_refused(tet):
    unbuilt = rp.Model.__new__(rp.Model)
    assert "not built" in repr(unbuilt)
    with pytest.raises(ValueError, match="model1.*not built"):
        rp.collide(unbuilt, None, tet, None)
    with pytest.raises(ValueError, match="model2.*not built"):
        rp.distance(tet, None, unbuilt, None)
    with pytest.raises(ValueError, match="model2.*not built"):
        rp.collide_batch(tet, None, unbuilt, np.zeros((0, 4, 4)))
    with pytest.raises(ValueError, match="not built"):
        unbuilt.to_bytes()
    with pytest.raises(ValueError, match="not built"):
        unbuilt.num_triangles
    with pytest.raises(ValueError, match="not built"):
        pickle.dumps(unbuilt)
    del unbuilt  # __del__ of an unbuilt model is harmless


def test_failed_construction_leaves_nothing_to_free():
    with pytest.raises(ValueError):
        rp.Model(V, F + 10)


def test_model_cannot_be_rebuilt_in_place(tet):
    with pytest.raises(RuntimeError, match="already built"):
        tet.__init__(V, F)
    assert tet.num_triangles == 4


def test_not_a_model(tet):
    with pytest.raises(TypeError, match="model1.*Model.*ndarray"):
        rp.collide(V, None, tet, None)
    with pytest.raises(TypeError, match="model2"):
        rp.tolerance(tet, None, None, None, 1.0)
    with pytest.raises(TypeError, match="model1"):
        rp.distance_batch("model", None, tet, None)


# ---------------------------------------------------------------------------------------------
# Poses

ROT90 = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])


def pose_with(**changes):
    m = np.eye(4)
    for (i, j), v in changes.get("at", {}).items():
        m[i, j] = v
    return m


POSE_ERRORS = [
    (np.eye(3), ValueError, ["shape (3, 3)"]),
    (np.eye(5), ValueError, ["shape (5, 5)"]),
    (np.zeros(16), ValueError, ["shape (16,)"]),
    (pose_with(at={(0, 3): np.nan}), ValueError, ["NaN or infinite"]),
    (pose_with(at={(1, 1): np.inf}), ValueError, ["NaN or infinite"]),
    (pose_with(at={(3, 0): 0.5}), ValueError, ["last row"]),
    (pose_with(at={(3, 3): 2.0}), ValueError, ["last row"]),
    (pose_with(at={(0, 1): 0.1}), ValueError, ["not a rotation"]),
    (pose_with(at={(0, 0): 2.0}), ValueError, ["not a rotation"]),
    (pose_with(at={(0, 0): -1.0}), ValueError, ["reflection"]),
    (np.zeros((4, 4)) + np.diag([0, 0, 0, 1]), ValueError, ["not a rotation"]),
    (np.eye(4).astype(str), TypeError, ["dtype"]),
    ((np.eye(3), np.zeros(2)), ValueError, ["translation"]),
    ((np.eye(2), np.zeros(3)), ValueError, ["rotation"]),
    ((np.eye(3), np.zeros(3), 0.0), ValueError, ["scale must be positive"]),
    ((np.eye(3), np.zeros(3), -1.0), ValueError, ["scale must be positive"]),
    ((np.eye(3), np.zeros(3), np.nan), ValueError, ["NaN"]),
    ((np.eye(3), np.zeros(3), "x"), TypeError, ["scale"]),
    ((ROT90 * 1.001, np.zeros(3)), None, []),  # a uniform scale folded into R is accepted
    ("pose", TypeError, ["dtype"]),
]


@pytest.mark.parametrize("pose, exc, words", POSE_ERRORS)
def test_pose_errors(tet, pose, exc, words):
    for name, call in (
        ("pose1", lambda: rp.collide(tet, pose, tet, None)),
        ("pose2", lambda: rp.distance(tet, None, tet, pose)),
        ("pose2", lambda: rp.tolerance(tet, None, tet, pose, 0.1)),
        ("pose", lambda: rp.Pose(pose)),
    ):
        if exc is None:
            call()
            continue
        with pytest.raises(exc) as info:
            call()
        assert name in str(info.value)
        for w in words:
            assert w in str(info.value)


def test_batch_pose_errors(tet):
    good = np.tile(np.eye(4), (5, 1, 1))
    bad = good.copy()
    bad[3, 0, 3] = np.nan
    with pytest.raises(ValueError, match=r"poses2\[3\].*NaN"):
        rp.collide_batch(tet, None, tet, bad)
    bad = good.copy()
    bad[2, 0, 1] = 0.3
    with pytest.raises(ValueError, match=r"poses1\[2\].*not a rotation"):
        rp.distance_batch(tet, bad, tet, None)
    bad = good.copy()
    bad[4, 3, 3] = 0.0
    with pytest.raises(ValueError, match=r"poses1\[4\].*last row"):
        rp.tolerance_batch(tet, bad, tet, None, 0.1)
    bad = good.copy()
    bad[1, :3, :3] = np.diag([1.0, 1.0, -1.0])
    with pytest.raises(ValueError, match=r"poses2\[1\].*reflection"):
        rp.collide_batch(tet, None, tet, bad)
    with pytest.raises(ValueError, match="poses1 has 5 poses and poses2 has 4"):
        rp.collide_batch(tet, good, tet, good[:4])
    with pytest.raises(ValueError, match="poses2.*shape"):
        rp.collide_batch(tet, None, tet, np.zeros((5, 3, 4)))
    with pytest.raises(ValueError, match="poses2.*different numbers"):
        rp.collide_batch(tet, None, tet, (np.tile(np.eye(3), (5, 1, 1)), np.zeros((4, 3))))
    with pytest.raises(ValueError, match=r"poses2\[2\].*scale must be positive"):
        rp.collide_batch(tet, None, tet, (np.eye(3), np.zeros(3), np.array([1.0, 1.0, 0.0])))
    with pytest.raises(TypeError, match="poses1.*dtype"):
        rp.collide_batch(tet, np.full((2, 4, 4), "a"), tet, None)


# ---------------------------------------------------------------------------------------------
# Query parameters


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"rel_err": -0.1}, ValueError, "rel_err"),
        ({"rel_err": np.nan}, ValueError, "rel_err"),
        ({"abs_err": np.inf}, ValueError, "abs_err"),
        ({"abs_err": "x"}, TypeError, "abs_err"),
        ({"qsize": -1}, ValueError, "qsize"),
        ({"qsize": 2.5}, TypeError, "qsize"),
        ({"qsize": 2**40}, ValueError, "qsize"),
        ({"cache": object()}, TypeError, "cache"),
    ],
)
def test_distance_parameter_errors(tet, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        rp.distance(tet, None, tet, None, **kwargs)
    if "cache" not in kwargs:
        with pytest.raises(exc, match=match):
            rp.distance_batch(tet, None, tet, np.tile(np.eye(4), (3, 1, 1)), **kwargs)


def test_tolerance_parameter_errors(tet):
    with pytest.raises(ValueError, match="tolerance.*NaN"):
        rp.tolerance(tet, None, tet, None, np.nan)
    with pytest.raises(TypeError, match="tolerance"):
        rp.tolerance(tet, None, tet, None, "0.1x")
    with pytest.raises(ValueError, match="tolerance.*NaN"):
        rp.tolerance_batch(tet, None, tet, None, float("nan"))
    with pytest.raises(ValueError, match="qsize"):
        rp.tolerance(tet, None, tet, None, 0.1, qsize=-5)


def test_threads_parameter(tet):
    poses = np.tile(np.eye(4), (3, 1, 1))
    with pytest.raises(ValueError, match="threads"):
        rp.collide_batch(tet, None, tet, poses, threads=-1)
    with pytest.raises(TypeError, match="threads"):
        rp.collide_batch(tet, None, tet, poses, threads=1.5)
    assert rp.collide_batch(tet, None, tet, poses, threads=None).colliding.all()
    assert rp.collide_batch(tet, None, tet, poses, threads=64).colliding.all()


# ---------------------------------------------------------------------------------------------
# Serialized bytes


def test_corrupted_bytes_are_refused(tet):
    data = tet.to_bytes()
    assert rp.Model.from_bytes(data).num_triangles == 4
    assert rp.Model.from_bytes(bytearray(data)).num_triangles == 4
    assert rp.Model.from_bytes(memoryview(data)).num_triangles == 4
    for bad in (b"", b"RPQMODEL", data[:-1], data + b"\0", b"x" * len(data)):
        with pytest.raises(ValueError, match="data"):
            rp.Model.from_bytes(bad)
    rng = np.random.default_rng(0)
    for pos in rng.integers(0, len(data), size=300):
        flipped = bytearray(data)
        flipped[pos] ^= 1 << int(rng.integers(0, 8))
        with pytest.raises(ValueError):
            rp.Model.from_bytes(bytes(flipped))
    with pytest.raises(TypeError, match="data"):
        rp.Model.from_bytes("not bytes")
    # A truncated pickle fails in pickle itself, a corrupted model payload in from_bytes.
    blob = pickle.dumps(tet)
    i = blob.find(data[:16])
    assert i > 0
    corrupted = bytearray(blob)
    corrupted[i + 100] ^= 0xFF
    with pytest.raises(ValueError):
        pickle.loads(bytes(corrupted))
