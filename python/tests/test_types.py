"""Python's types at the API's edge: every number, array, count and flag refuses a string
(and other look-alikes) with a TypeError naming the argument, before anything is computed;
poses compare and hash by value and print as an expression that rebuilds them."""

from __future__ import annotations

import pickle
from typing import Any, Callable, Dict

import numpy as np
import pytest

import rapidpqp as rp

V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
F = np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])
M = rp.Model(V, F)
FAR = np.eye(4)
FAR[0, 3] = 3.0
S = "1.5"
EYE3 = np.eye(3)

# name: (call, the argument the error must name)
CASES: Dict[str, "tuple[Callable[[], Any], str]"] = {
    # Arrays of coordinates, indices and ids.
    "vertices of strings": (lambda: rp.Model(V.astype(str), F), "vertices"),
    "vertices, one string": (lambda: rp.Model([["0", 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], F), "vertices"),
    "vertices of objects": (lambda: rp.Model(V.astype(object), F), "vertices"),
    "faces of strings": (lambda: rp.Model(V, F.astype(str)), "faces"),
    "faces of floats": (lambda: rp.Model(V, F.astype(float)), "faces"),
    "ids of strings": (lambda: rp.Model(V, F, ids=["1", "2", "3", "4"]), "ids"),
    "ids of floats": (lambda: rp.Model(V, F, ids=[1.0, 2.0, 3.0, 4.0]), "ids"),
    "triangles of strings": (lambda: rp.Model.from_triangles(V[F].astype(str)), "triangles"),
    "model bytes as str": (lambda: rp.Model.from_bytes("abc"), "data"),
    # Poses, single and batched.
    "4x4 pose of strings": (lambda: rp.collide(M, FAR.astype(str), M, None), "pose1"),
    "4x4 pose with a string": (
        lambda: rp.distance(M, None, M, np.array([[1, 0, 0, "3"], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=object)),
        "pose2",
    ),
    "4x4 pose of booleans": (lambda: rp.collide(M, np.eye(4, dtype=bool), M, None), "pose1"),
    "(R, t) translation of strings": (lambda: rp.collide(M, (EYE3, ["1", "0", "0"]), M, None), "pose1"),
    "(R, t) rotation of strings": (lambda: rp.collide(M, (EYE3.astype(str), [1, 0, 0]), M, None), "pose1"),
    "(R, t, s) scale string": (lambda: rp.collide(M, (EYE3, [1, 0, 0], "2"), M, None), "pose1"),
    "(R, t, s) scale boolean": (lambda: rp.collide(M, (EYE3, [1, 0, 0], True), M, None), "pose1"),
    "Pose of strings": (lambda: rp.Pose(FAR.astype(str)), "pose"),
    "Pose.from_rt scale string": (lambda: rp.Pose.from_rt(EYE3, [0, 0, 0], "1"), "pose"),
    "Pose.apply strings": (lambda: rp.Pose(FAR).apply(["1", "2", "3"]), "points"),
    "batch poses of strings": (lambda: rp.collide_batch(M, None, M, np.stack([FAR] * 2).astype(str)), "poses2"),
    "batch (R, t) of strings": (
        lambda: rp.distance_batch(M, None, M, (np.stack([EYE3] * 2), [["1", "0", "0"]] * 2)),
        "poses2",
    ),
    "batch scales of strings": (
        lambda: rp.tolerance_batch(M, (np.stack([EYE3] * 2), np.zeros((2, 3)), ["1", "1"]), M, None, 1.0),
        "poses1",
    ),
    # Numbers.
    "rel_err": (lambda: rp.distance(M, None, M, FAR, rel_err=S), "rel_err"),
    "abs_err": (lambda: rp.distance(M, None, M, FAR, abs_err=S), "abs_err"),
    "tolerance": (lambda: rp.tolerance(M, None, M, FAR, S), "tolerance"),
    "tolerance, numpy string": (lambda: rp.tolerance(M, None, M, FAR, np.str_(S)), "tolerance"),
    "tolerance, 0-d string array": (lambda: rp.tolerance(M, None, M, FAR, np.array(S)), "tolerance"),
    "batch rel_err": (lambda: rp.distance_batch(M, None, M, FAR, rel_err=S), "rel_err"),
    "batch tolerance": (lambda: rp.tolerance_batch(M, None, M, FAR, S), "tolerance"),
    "max_distance": (lambda: M.closest_points([1, 2, 3], max_distance=S), "max_distance"),
    "max_t": (lambda: M.ray_cast([1, 2, 3], [1, 0, 0], max_t=S), "max_t"),
    "sweep distance": (lambda: rp.sweep(M, None, M, FAR, [1, 0, 0], S), "distance"),
    "time_of_impact tolerance": (lambda: rp.time_of_impact(M, None, FAR, M, FAR, tolerance=S), "tolerance"),
    "removal distance": (lambda: rp.removal_directions([M, M], [None, FAR], 0, [[1, 0, 0]], distance=S), "distance"),
    "rotation tolerance": (lambda: rp.set_rotation_tolerance(S), "ROTATION_TOLERANCE"),
    "rotation tolerance attribute": (lambda: setattr(rp, "ROTATION_TOLERANCE", S), "ROTATION_TOLERANCE"),
    # Counts.
    "qsize string": (lambda: rp.distance(M, None, M, FAR, qsize="2"), "qsize"),
    "qsize float": (lambda: rp.tolerance(M, None, M, FAR, 1.0, 2.0), "qsize"),
    "threads string": (lambda: rp.collide_batch(M, None, M, FAR, threads="2"), "threads"),
    "threads float": (lambda: rp.distance_batch(M, None, M, FAR, threads=2.0), "threads"),
    "threads of points": (lambda: M.closest_points([1, 2, 3], threads="1"), "threads"),
    "threads of winding numbers": (lambda: M.winding_numbers([1, 2, 3], threads="0"), "threads"),
    "threads of sweeps": (lambda: rp.sweep_batch(M, None, M, FAR, [[1, 0, 0]], 5.0, threads="1"), "threads"),
    "max_steps": (lambda: rp.time_of_impact(M, None, FAR, M, FAR, max_steps="10"), "max_steps"),
    "moving": (lambda: rp.removal_directions([M, M], [None, FAR], "0", [[1, 0, 0]]), "moving"),
    # Points and directions.
    "points of strings": (lambda: M.closest_points(["1", "2", "3"]), "points"),
    "points of objects": (lambda: M.contains(np.array([["1", "2", "3"]], dtype=object)), "points"),
    "signed_distance points": (lambda: M.signed_distance([["1", "2", "3"]]), "points"),
    "ray origins": (lambda: M.ray_cast(["1", "2", "3"], [1, 0, 0]), "origins"),
    "ray directions": (lambda: M.ray_cast([1, 2, 3], ["1", "0", "0"]), "directions"),
    "segment end": (lambda: M.segment_hits(["0", "0", "0"], [1, 1, 1]), "a"),
    "separation direction": (lambda: rp.separation(M, None, M, FAR, direction=["1", "0", "0"]), "direction"),
    "sweep direction": (lambda: rp.sweep(M, None, M, FAR, ["1", "0", "0"], 5.0), "direction"),
    "sweep directions": (lambda: rp.sweep_batch(M, None, M, FAR, [["1", "0", "0"]], 5.0), "directions"),
    "removal directions": (lambda: rp.removal_directions([M, M], [None, FAR], 0, [["1", "0", "0"]]), "directions"),
    # Flags: a string's truth value ("False" is true) is never taken.
    "first_contact string": (lambda: rp.collide(M, None, M, None, "False"), "first_contact"),
    "first_contact int": (lambda: rp.collide(M, None, M, None, 1), "first_contact"),
    "batch first_contact": (lambda: rp.collide_batch(M, None, M, FAR, "yes"), "first_contact"),
    "solid": (lambda: rp.collide(M, None, M, None, solid="yes"), "solid"),  # type: ignore[call-overload]
    "warm_start": (lambda: rp.distance_batch(M, None, M, FAR, warm_start="no"), "warm_start"),
    "any_hit": (lambda: M.ray_cast([1, 2, 3], [1, 0, 0], any_hit="no"), "any_hit"),
    "last_contact": (lambda: rp.sweep(M, None, M, FAR, [1, 0, 0], 5.0, last_contact="no"), "last_contact"),
    "batch last_contact": (lambda: rp.sweep_batch(M, None, M, FAR, [[1, 0, 0]], 5.0, last_contact=0), "last_contact"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_look_alikes_are_refused_with_a_type_error(case: str) -> None:
    call, name = CASES[case]
    before = rp.rotation_tolerance()
    with pytest.raises(TypeError) as info:
        call()
    assert name in str(info.value), str(info.value)
    assert rp.rotation_tolerance() == before


def test_numpy_flags_and_numbers_are_accepted() -> None:
    a = rp.collide(M, None, M, None, np.bool_(True))
    assert len(a.pairs) == 1
    t = rp.tolerance(M, None, M, FAR, np.float32(2.5), np.int64(2))
    assert t.closer
    b = rp.distance_batch(M, None, M, FAR, threads=np.int32(1), warm_start=np.bool_(False))
    assert b.distance.tolist() == [2.0]


def pose_cases() -> "list[rp.Pose]":
    rng = np.random.default_rng(3)
    out = [rp.Pose(), rp.Pose(FAR), rp.Pose((EYE3 * 2.5, [1e-300, -0.0, 7.0]))]
    for _ in range(20):
        q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
        if np.linalg.det(q) < 0:
            q[:, 0] = -q[:, 0]
        out.append(rp.Pose((q, rng.normal(size=3), float(rng.uniform(0.1, 10.0)))))
    return out


def test_poses_compare_and_hash_by_value() -> None:
    poses = pose_cases()
    for p in poses:
        q = rp.Pose(p.matrix) if p.scale == 1.0 else rp.Pose((p.rotation, p.translation, p.scale))
        assert q is not p and q == p and hash(q) == hash(p)
        assert pickle.loads(pickle.dumps(p)) == p
    assert len(set(poses)) == len(poses)
    assert rp.Pose(np.eye(4)) == rp.Pose(None)
    # -0.0 and 0.0 are the same translation.
    assert rp.Pose((EYE3, [0.0, 0.0, 0.0])) == rp.Pose((EYE3, [-0.0, 0.0, -0.0]))
    assert hash(rp.Pose((EYE3, [0.0, 0.0, 0.0]))) == hash(rp.Pose((EYE3, [-0.0, 0.0, -0.0])))
    moved = np.eye(4)
    moved[2, 3] = 1e-12
    assert rp.Pose(moved) != rp.Pose()
    assert rp.Pose((EYE3, [0, 0, 0], 2.0)) != rp.Pose()
    assert rp.Pose() != np.eye(4).tolist()  # not equal to what it was made from
    assert (rp.Pose() == "Pose()") is False


def test_pose_repr_rebuilds_an_equal_pose() -> None:
    for p in pose_cases():
        text = repr(p)
        assert text.startswith("Pose.from_rt(")
        q = eval(text, {"Pose": rp.Pose})
        assert q == p and q._bytes == p._bytes


def test_poses_are_immutable() -> None:
    p = rp.Pose(FAR)
    with pytest.raises(AttributeError, match="immutable"):
        p._bytes = rp.Pose()._bytes  # type: ignore[misc]
    with pytest.raises(AttributeError, match="immutable"):
        del p._bytes
    assert p == rp.Pose(FAR)


def test_rotation_tolerance_is_not_star_exported() -> None:
    """``from rapidpqp import *`` would copy the value; assigning the copy would do nothing."""
    namespace: Dict[str, Any] = {}
    exec("from rapidpqp import *", namespace)
    assert "ROTATION_TOLERANCE" not in namespace
    assert "set_rotation_tolerance" in namespace and "rotation_tolerance" in namespace
