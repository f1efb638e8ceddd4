"""Motion queries: translational sweeps (first and last contact), the time of impact of a
rigid motion, and the removal directions of a part of an assembly (``rpq_sweep``,
``rpq_sweep_batch``, ``rpq_time_of_impact``, ``rpq_removal_directions``).

The argument helpers (models, poses, points, numbers) are :mod:`rapidpqp._api`'s.
"""

from __future__ import annotations

import ctypes
import math
from typing import Any, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from . import _native as N
from ._api import (
    ModelLike,
    PoseLike,
    _as_model,
    Model,
    _fail,
    _flag,
    _int_arg,
    _model_handle,
    _point_arg,
    _points_arg,
    _pair,
    _pose_bytes,
    _real,
    _threads_arg,
)
from ._native import LIB

__all__ = [
    "SweepResult",
    "SweepBatchResult",
    "TimeOfImpact",
    "RemovalResult",
    "sweep",
    "sweep_batch",
    "time_of_impact",
    "removal_directions",
]

_SWEEP_RESULT = np.dtype(N.RpqSweepResult)
_REMOVAL = np.dtype(N.RpqRemoval)
assert _SWEEP_RESULT.itemsize == ctypes.sizeof(N.RpqSweepResult)
assert _REMOVAL.itemsize == ctypes.sizeof(N.RpqRemoval)

_OUTCOMES = {N.RPQ_TOI_CONTACT: "contact", N.RPQ_TOI_FREE: "free", N.RPQ_TOI_STEP_LIMIT: "step_limit"}
_U32_MAX = 2**32 - 1


class SweepResult(NamedTuple):
    """Result of :func:`sweep`: where model 1, moved by ``s * direction``, first (or last)
    touches model 2."""

    #: Whether the models touch for some ``s`` in ``[0, distance]``.
    hit: bool
    #: The time of contact (``inf`` when no hit): model 1 moved by ``s * direction`` touches.
    s: float
    #: The ids ``(id in model 1, id in model 2)`` of the touching triangles; None when no hit.
    ids: Optional[Tuple[int, int]]
    #: Their leaf-order triangle indices; None when no hit.
    triangles: Optional[Tuple[int, int]]
    #: The contact point in the world, (3,); NaN when no hit.
    point: np.ndarray
    #: Model 1's touching point in its own frame (at its start pose), (3,); NaN when no hit.
    point1: np.ndarray
    #: The contact point in model 2's own frame, (3,); NaN when no hit.
    point2: np.ndarray
    bv_tests: int
    tri_tests: int


class SweepBatchResult(NamedTuple):
    """Result of :func:`sweep_batch`, one entry per direction (the fields of
    :class:`SweepResult` as arrays)."""

    #: (N,) bool.
    hit: np.ndarray
    #: (N,); ``inf`` where no hit.
    s: np.ndarray
    #: (N, 2) int32 triangle ids; -1 where no hit.
    ids: np.ndarray
    #: (N, 2) int64 leaf-order triangle indices; -1 where no hit.
    triangles: np.ndarray
    #: (N, 3) world contact points, (N, 3) in model 1's frame, (N, 3) in model 2's; NaN where
    #: no hit.
    point: np.ndarray
    point1: np.ndarray
    point2: np.ndarray
    #: (N,) uint64 work counts.
    bv_tests: np.ndarray
    tri_tests: np.ndarray


class TimeOfImpact(NamedTuple):
    """Result of :func:`time_of_impact`."""

    #: ``"contact"`` (within the tolerance at ``time``, no contact before), ``"free"`` (apart
    #: over the whole motion) or ``"step_limit"`` (the step budget ran out: no contact before
    #: ``time``, nothing known after).
    outcome: str
    #: Contact: the time found, in [0, 1]; free: 1; step limit: the time reached.
    time: float
    #: Model 1's pose at ``time``, a 4×4 matrix.
    pose: np.ndarray
    #: Contact: the distance measured at ``time`` (at most the tolerance); free and step
    #: limit: a lower bound of the distance at ``time``.
    distance: float
    #: Distance queries or sweeps run.
    steps: int
    bv_tests: int
    tri_tests: int


class RemovalResult(NamedTuple):
    """Result of :func:`removal_directions`, one entry per direction."""

    #: (N,) bool: the part moves the whole distance (or to infinity) without touching.
    free: np.ndarray
    #: (N,): blocked, the travel before the first contact; free, the distance asked (``inf``
    #: for removal to infinity).
    free_distance: np.ndarray
    #: (N,) int64: the index of the blocking part; -1 where free.
    blocker: np.ndarray
    #: (N, 3): the world contact point; NaN where free.
    point: np.ndarray
    #: (N, 2) int32: the ids of the touching triangles (moving part's, blocker's); -1 where free.
    ids: np.ndarray
    #: (N, 3): the directions, scaled to unit length.
    direction: np.ndarray
    #: (N,) int64: parts culled by the directional cylinder, and parts swept exactly.
    culled: np.ndarray
    swept: np.ndarray
    #: (N,) uint64 work counts.
    bv_tests: np.ndarray
    tri_tests: np.ndarray


def _require_nonzero(dirs: np.ndarray, name: str, when: str) -> None:
    zero = ~dirs.any(axis=1)
    if zero.any():
        raise ValueError(f"{name}[{int(np.argmax(zero))}]: must be nonzero{when}")


def _s_max(distance: Any) -> float:
    d = _real(distance, "distance")
    if not (math.isfinite(d) and d >= 0.0):
        raise ValueError(f"distance: must be finite and >= 0, got {d}")
    return d


def sweep(
    model1: ModelLike,
    pose1: PoseLike,
    model2: ModelLike,
    pose2: PoseLike,
    direction: Any,
    distance: float,
    last_contact: bool = False,
) -> SweepResult:
    """The first contact of ``model1`` (at ``pose1``) moving by the world translation
    ``s * direction``, ``s`` in ``[0, distance]``, against ``model2`` (at ``pose2``); with
    ``last_contact=True`` the last: the largest ``s`` at which they still touch (how far model 1
    must move along ``direction`` to come clear of model 2 when they overlap). Touching
    counts, also at ``s = 0``; any models (closed or not).

    Parameters
    ----------
    model1, model2 : Model or trimesh.Trimesh
    pose1, pose2 : pose
        As in :func:`collide`. Model 1's rotation stays fixed during the sweep.
    direction : array_like, shape (3,)
        A finite world vector, not normalized: ``s`` counts its lengths. Zero only with
        ``distance`` 0 (then: do the models touch where they are).
    distance : float
        The end of the sweep, ``s_max``: finite and >= 0.
    last_contact : bool
        Report the last contact instead of the first.

    Returns
    -------
    SweepResult
        ``hit``, ``s`` (``inf`` when no hit), ``ids``, ``triangles`` (None when no hit),
        ``point`` (world), ``point1``, ``point2`` (each model's own frame), work counts. The
        first contact is never later than the exact one (the last never earlier), and the
        pair is within ``2**-44`` of the coordinates' magnitude of touching at ``s``.
    """
    m1, m2, h1, h2, b1, b2 = _pair(model1, pose1, model2, pose2)
    d = _point_arg(direction, "direction")
    s_max = _s_max(distance)
    if s_max > 0 and not d.any():
        raise ValueError("direction: must be nonzero when distance > 0")
    out = N.RpqSweepResult()
    status = LIB.rpq_sweep(h1, b1, h2, b2, d.ctypes.data, s_max, 1 if _flag(last_contact, "last_contact") else 0, ctypes.byref(out))
    if status:
        _fail(status, "sweep")
    hit = bool(out.hit)
    return SweepResult(
        hit,
        float(out.s),
        (int(out.id1), int(out.id2)) if hit else None,
        (int(out.tri1), int(out.tri2)) if hit else None,
        np.array(out.point[:]),
        np.array(out.point1[:]),
        np.array(out.point2[:]),
        int(out.bv_tests),
        int(out.tri_tests),
    )


def sweep_batch(
    model1: ModelLike,
    pose1: PoseLike,
    model2: ModelLike,
    pose2: PoseLike,
    directions: Any,
    distance: float,
    last_contact: bool = False,
    threads: Optional[int] = 0,
) -> SweepBatchResult:
    """:func:`sweep` along each of ``directions`` ((N, 3), or one (3,)) for the one pair of
    placed models, run in Rust on ``threads`` threads (0: all cores) with the GIL released.
    Each entry equals the single :func:`sweep`'s, whatever the threads.

    Returns
    -------
    SweepBatchResult
        Arrays: ``hit`` (N,) bool, ``s`` (N,), ``ids`` (N, 2), ``triangles`` (N, 2), ``point``,
        ``point1``, ``point2`` (N, 3), ``bv_tests``, ``tri_tests`` (N,).
    """
    m1, m2, h1, h2, b1, b2 = _pair(model1, pose1, model2, pose2)
    dirs = _points_arg(directions, "directions")
    s_max = _s_max(distance)
    if s_max > 0:
        _require_nonzero(dirs, "directions", " when distance > 0")
    t = _threads_arg(threads)
    n = len(dirs)
    out = np.zeros(n, dtype=_SWEEP_RESULT)
    status = LIB.rpq_sweep_batch(
        h1, b1, h2, b2, dirs.ctypes.data, n, s_max, 1 if _flag(last_contact, "last_contact") else 0, t, out.ctypes.data
    )
    if status:
        _fail(status, "sweep_batch")
    hit = out["hit"] != 0
    triangles = np.stack([out["tri1"], out["tri2"]], axis=1).astype(np.int64)
    triangles[~hit] = -1
    return SweepBatchResult(
        hit,
        out["s"].copy(),
        np.stack([out["id1"], out["id2"]], axis=1).astype(np.int32),
        triangles,
        out["point"].copy(),
        out["point1"].copy(),
        out["point2"].copy(),
        out["bv_tests"].copy(),
        out["tri_tests"].copy(),
    )


def _matrix_of(p: N.RpqPose) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = np.array(p.rotation[:]).reshape(3, 3) * p.scale
    m[:3, 3] = p.translation[:]
    return m


def time_of_impact(
    model1: ModelLike,
    pose0: PoseLike,
    pose1: PoseLike,
    model2: ModelLike,
    pose2: PoseLike,
    tolerance: Optional[float] = None,
    max_steps: Optional[int] = None,
) -> TimeOfImpact:
    """The time of impact of ``model1`` moving rigidly from ``pose0`` (time 0) to ``pose1``
    (time 1), its translation linear in time and its rotation turning at a constant rate about
    a fixed axis through its own origin, against ``model2`` static at ``pose2``. The time
    returned is never later than the first contact: the models do not touch before it. Pure
    translations are swept exactly; with rotation, conservative advancement.

    Parameters
    ----------
    model1, model2 : Model or trimesh.Trimesh
    pose0, pose1 : pose
        Model 1's start and end poses (the same scale).
    pose2 : pose
        Model 2's pose.
    tolerance : float, optional
        Contact is reported when the models are at most this far apart (>= 0). None: 1e-3 of
        the larger model's size.
    max_steps : int, optional
        At most this many distance queries (>= 1). None: 10000.

    Returns
    -------
    TimeOfImpact
        ``outcome`` (``"contact"``, ``"free"`` or ``"step_limit"``), ``time``, ``pose`` (model
        1's 4×4 pose at ``time``), ``distance``, ``steps``, work counts.
    """
    m1, m2, h1, h2, b0, b2 = _pair(model1, pose0, model2, pose2, ("model1", "pose0", "model2", "pose2"))
    b1 = _pose_bytes(pose1, "pose1")
    if tolerance is None:
        tol = -1.0
    else:
        tol = _real(tolerance, "tolerance")
        if not tol >= 0.0:
            raise ValueError(f"tolerance: must be >= 0 (or None for the default), got {tol}")
    steps = 0 if max_steps is None else _int_arg(max_steps, "max_steps", 1)
    out = N.RpqToi()
    status = LIB.rpq_time_of_impact(h1, b0, b1, h2, b2, tol, steps, ctypes.byref(out))
    if status:
        _fail(status, "time_of_impact")
    return TimeOfImpact(
        _OUTCOMES[out.outcome],
        float(out.time),
        _matrix_of(out.placement),
        float(out.distance),
        int(out.steps),
        int(out.bv_tests),
        int(out.tri_tests),
    )


def removal_directions(
    models: Sequence[ModelLike],
    poses: Optional[Sequence[PoseLike]],
    moving: int,
    directions: Any,
    distance: Optional[float] = None,
) -> RemovalResult:
    """Which of ``directions`` let part ``moving`` of an assembly translate by ``distance``
    (None: to infinity, past every other part) without touching any other part. The
    assembly is ``models[k]`` placed at ``poses[k]`` (``poses`` None: all at the identity).
    Touching counts as blocking, also at the start: give parts that rest on each other a
    clearance. Per direction, the parts outside the directional cylinder around the moving
    part's sweep are culled, the others swept exactly, nearest first.

    Parameters
    ----------
    models : sequence of Model or trimesh.Trimesh
    poses : sequence of poses, or None
        One per model.
    moving : int
        The index of the part to remove.
    directions : array_like, (N, 3) or (3,)
        Nonzero world vectors of any length (taken as unit vectors).
    distance : float, optional
        How far to move (>= 0); None: to infinity.

    Returns
    -------
    RemovalResult
        Arrays, one entry per direction: ``free``, ``free_distance``, ``blocker`` (-1 where
        free), the contact ``point`` (world) and triangle ``ids``, the unit ``direction``,
        ``culled``, ``swept``, work counts.
    """
    if isinstance(models, (str, bytes)) or not isinstance(models, Sequence):
        raise TypeError(f"models: expected a sequence of models, got {type(models).__name__}")
    n = len(models)
    if poses is None:
        poses = [None] * n
    elif len(poses) != n:
        raise ValueError(f"poses: {len(poses)} poses for {n} models: give one per model (or None)")
    kept = [_as_model(m, f"models[{k}]") for k, m in enumerate(models)]  # alive for the call
    handles = np.array([_model_handle(m, f"models[{k}]") for k, m in enumerate(kept)], dtype=np.uintp)
    packed = b"".join(_pose_bytes(p, f"poses[{k}]") for k, p in enumerate(poses))
    index = _int_arg(moving, "moving")
    if index >= n:
        raise ValueError(f"moving: {index} is not the index of one of the {n} parts")
    dirs = _points_arg(directions, "directions")
    _require_nonzero(dirs, "directions", "")
    if distance is None:
        dist = math.inf
    else:
        dist = _real(distance, "distance")
        if not dist >= 0.0:
            raise ValueError(f"distance: must be >= 0 (or None for infinity), got {dist}")
    out = np.zeros(len(dirs), dtype=_REMOVAL)
    status = LIB.rpq_removal_directions(
        handles.ctypes.data, packed, n, index, dirs.ctypes.data, len(dirs), dist, out.ctypes.data
    )
    if status:
        _fail(status, "removal_directions")
    contact = out["contact"]
    return RemovalResult(
        out["free"] != 0,
        out["free_distance"].copy(),
        out["blocker"].astype(np.int64),
        contact["point"].copy(),
        np.stack([contact["id1"], contact["id2"]], axis=1).astype(np.int32),
        out["direction"].copy(),
        out["culled"].astype(np.int64),
        out["swept"].astype(np.int64),
        out["bv_tests"].copy(),
        out["tri_tests"].copy(),
    )

