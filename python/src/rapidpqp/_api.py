"""Models, poses and the three queries (collide, distance, tolerance), single and batched."""

from __future__ import annotations

import ctypes
import math
import numbers
import struct
import threading
from typing import Any, Dict, Literal, NamedTuple, Optional, Sequence, Tuple, Union, overload

import numpy as np

from . import _native as N
from ._native import LIB

__all__ = [
    "Model",
    "Pose",
    "DistanceCache",
    "RapidPQPError",
    "CollideResult",
    "DistanceResult",
    "ToleranceResult",
    "CollideBatchResult",
    "DistanceBatchResult",
    "ToleranceBatchResult",
    "ModelNotClosedError",
    "SolidFacts",
    "ClosestPoints",
    "RayHits",
    "SolidCollideResult",
    "Separation",
    "separation",
    "collide",
    "distance",
    "tolerance",
    "collide_batch",
    "distance_batch",
    "tolerance_batch",
    "rotation_tolerance",
    "set_rotation_tolerance",
]

#: Anything accepted as one pose: a 4×4 homogeneous matrix (its 3×3 block a rotation times a
#: positive uniform scale, its last row ``[0, 0, 0, 1]``), an ``(R, t)`` or ``(R, t, scale)``
#: tuple, a :class:`Pose`, or ``None`` for the identity.
PoseLike = Union["Pose", np.ndarray, Sequence[Any], None]
# A Model, or a mesh object with .vertices and .faces (a trimesh.Trimesh), converted on use.
ModelLike = Any

#: How far from orthonormal (relative to its scale) a pose's rotation may be: the library's one
#: process-wide setting (``rpq_set_rotation_tolerance``), read and set through
#: ``rapidpqp.ROTATION_TOLERANCE`` (:func:`rotation_tolerance`, :func:`set_rotation_tolerance`).
#: Kept here as well so that checking a pose costs no foreign call.
_ROTATION_TOLERANCE = [float(LIB.rpq_rotation_tolerance())]
#: The range of scales (an explicit one, or one folded from a matrix).
_MIN_SCALE = 1e-100
_MAX_SCALE = 1e100


def rotation_tolerance() -> float:
    """How far from orthonormal, relative to its scale, a pose's rotation may be (1e-5 unless
    changed): its columns' squared lengths within ``tol * k**2`` of ``k**2`` and their dot
    products within ``tol * k**2`` of 0, ``k`` its uniform scale. Also ``rapidpqp.ROTATION_TOLERANCE``."""
    return _ROTATION_TOLERANCE[0]


def set_rotation_tolerance(tolerance: float) -> None:
    """Sets the rotation tolerance for every later query of this process (Python and the C
    library alike), between 0 and 0.01. Also ``rapidpqp.ROTATION_TOLERANCE = tolerance``."""
    t = _real(tolerance, "ROTATION_TOLERANCE")
    if LIB.rpq_set_rotation_tolerance(t) != N.RPQ_OK:
        raise ValueError(f"ROTATION_TOLERANCE: must be between 0 and 0.01, got {t}")
    _ROTATION_TOLERANCE[0] = float(LIB.rpq_rotation_tolerance())

_POSE = struct.Struct("=13d")
_IDENTITY = _POSE.pack(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
_DIST_REQUEST = struct.Struct("=ddi4x")
assert _DIST_REQUEST.size == ctypes.sizeof(N.RpqDistanceRequest)
_TOL_REQUEST = struct.Struct("=di4x")
assert _TOL_REQUEST.size == ctypes.sizeof(N.RpqToleranceRequest)
_BOX_TESTS = {
    "default": N.RPQ_BOX_TEST_DEFAULT,
    "sat15": N.RPQ_BOX_TEST_SAT15,
    "sat_lite": N.RPQ_BOX_TEST_SAT_LITE,
    "dual": N.RPQ_BOX_TEST_DUAL,
    "sphere_sat15": N.RPQ_BOX_TEST_SPHERE_SAT15,
}
_FRAMES = {"model1": N.RPQ_FRAME_MODEL1, "model2": N.RPQ_FRAME_MODEL2}
_REQUESTS: dict[tuple[bool, str, str], bytes] = {}


def _collide_request(first_contact: Any, box_test: Any, frame: Any) -> Optional[bytes]:
    """The packed request (None for all contacts with the defaults: the C side's NULL)."""
    if first_contact is False and box_test == "default" and frame == "model1":
        return None
    key = (_flag(first_contact, "first_contact"), box_test, frame)
    if key == (False, "default", "model1"):
        return None
    req = _REQUESTS.get(key)
    if req is None:
        if box_test not in _BOX_TESTS:
            raise ValueError(f"box_test must be one of {sorted(_BOX_TESTS)}, not {box_test!r}")
        if frame not in _FRAMES:
            raise ValueError(f"frame must be one of {sorted(_FRAMES)}, not {frame!r}")
        req = bytes(N.RpqCollideRequest(int(key[0]), _BOX_TESTS[box_test], _FRAMES[frame]))
        _REQUESTS[key] = req
    return req
_INT_MAX = 2**31 - 1
_PLAIN = (int, float)
_set_slot = object.__setattr__


class RapidPQPError(RuntimeError):
    """A failure inside the native library that is not the caller's input (a bug, or out of
    memory), or a model refused by a query that needs a closed one
    (:class:`ModelNotClosedError`). ``status`` is the native status code."""

    def __init__(self, message: str, status: int = N.RPQ_ERR_INTERNAL):
        super().__init__(message)
        self.status = status


class ModelNotClosedError(RapidPQPError, ValueError):
    """A query that needs a closed model (a solid's boundary: every edge shared by two faces
    in opposite directions) was given one that is not, so nothing was computed. The message
    names the model and its open edges (``Model.solid_facts`` has the full facts).

    A :class:`RapidPQPError` and also a ``ValueError`` (the model is the caller's input)."""

    def __init__(self, message: str):
        super().__init__(message, N.RPQ_ERR_NOT_CLOSED)


def _fail(status: int, what: str) -> None:
    message = f"{what}: {N.status_message(status)}"
    if status in (
        N.RPQ_ERR_NON_FINITE,
        N.RPQ_ERR_EMPTY_MODEL,
        N.RPQ_ERR_INVALID_SCALE,
        N.RPQ_ERR_INVALID_ARGUMENT,
        N.RPQ_ERR_INVALID_HANDLE,
        N.RPQ_ERR_NOT_ROTATION,
        N.RPQ_ERR_OUT_OF_RANGE,
        N.RPQ_ERR_NOT_DEFORMABLE,
    ):
        raise ValueError(message)
    if status == N.RPQ_ERR_OUT_OF_MEMORY:
        raise MemoryError(message)
    if status == N.RPQ_ERR_NOT_CLOSED:
        raise ModelNotClosedError(message)
    raise RapidPQPError(message, status)


def _fail_solid(status: int, what: str, models: Sequence[Tuple[str, "Model"]]) -> None:
    """:func:`_fail` for a query on closed models: an open model is named, with the counts of
    the edges that keep it open (the library's status does not say which model it was)."""
    if status == N.RPQ_ERR_NOT_CLOSED:
        for name, model in models:
            f = model.solid_facts
            if not f.closed:
                raise ModelNotClosedError(
                    f"{what}: {name}: the model is not closed: {f.boundary_edges} boundary edges, "
                    f"{f.non_manifold_edges} non-manifold, {f.misoriented_edges} misoriented"
                )
    _fail(status, what)


# ---------------------------------------------------------------------------------------------
# Argument checking


def _array(x: Any, name: str, kinds: str, what: str) -> np.ndarray:
    try:
        a = np.asarray(x)
    except (ValueError, TypeError) as e:
        raise ValueError(f"{name}: not a rectangular numeric array ({e})") from None
    if a.dtype.kind not in kinds:
        raise TypeError(f"{name}: expected {what}, got an array of dtype {a.dtype}")
    return a


def _float_array(x: Any, name: str) -> np.ndarray:
    a = _array(x, name, "fiu", "a real numeric array")
    return np.ascontiguousarray(a, dtype=np.float64)


def _require_shape(a: np.ndarray, name: str, tail: Tuple[int, ...], what: str) -> None:
    if a.ndim != len(tail) + 1 or a.shape[1:] != tail:
        want = "(N, " + ", ".join(map(str, tail)) + ")"
        raise ValueError(f"{name}: expected {what} of shape {want}, got shape {a.shape}")


def _require_finite(a: np.ndarray, name: str) -> None:
    if not np.isfinite(a).all():
        bad = np.argwhere(~np.isfinite(a))[0]
        where = ", ".join(map(str, bad))
        raise ValueError(f"{name}: entry [{where}] is {a[tuple(bad)]}; coordinates must be finite")


def _points_arg(x: Any, name: str) -> np.ndarray:
    """Points as a C-contiguous (N, 3) float64 array: an (N, 3) array, or one point (3,) as
    N = 1. Every coordinate must be finite."""
    a = _float_array(x, name)
    if a.shape == (3,):
        a = a.reshape(1, 3)
    elif a.ndim != 2 or a.shape[1] != 3:
        raise ValueError(f"{name}: expected an array of shape (N, 3) or (3,), got shape {a.shape}")
    _require_finite(a, name)
    return a


def _point_arg(x: Any, name: str) -> np.ndarray:
    """One point or vector, shape (3,), finite."""
    a = _float_array(x, name)
    if a.shape != (3,):
        raise ValueError(f"{name}: expected a point of shape (3,), got shape {a.shape}")
    _require_finite(a, name)
    return a


def _threads_arg(threads: Any) -> int:
    return 0 if threads is None else _int_arg(threads, "threads")


def _ids_array(ids: Any, count: int) -> Optional[np.ndarray]:
    if ids is None:
        return None
    a = _array(ids, "ids", "iu", "an integer array")
    if a.shape != (count,):
        raise ValueError(f"ids: expected shape ({count},), one id per triangle, got shape {a.shape}")
    if count and (a.min() < -(2**31) or a.max() > _INT_MAX):
        raise ValueError("ids: every id must fit in a 32-bit signed integer")
    return np.ascontiguousarray(a, dtype=np.int32)


def _model_handle(m: Any, name: str) -> int:
    if isinstance(m, Model):
        h: Optional[int] = getattr(m, "_handle", None)
        if h is not None:
            return h
        raise ValueError(f"{name}: the model is not built (its constructor did not run or failed)")
    raise TypeError(f"{name}: expected a rapidpqp.Model, got {type(m).__name__}")


# Where a converted model is kept on a mesh object (a trimesh.Trimesh takes new attributes).
_CACHE_ATTRIBUTE = "_rapidpqp_model"


def _as_model(m: Any, name: str) -> "Model":
    """``m`` itself when it is a :class:`Model`; for a mesh object (a ``trimesh.Trimesh``, or
    anything with ``vertices`` and ``faces`` arrays) the model built from it.

    A mesh whose class defines its own ``__hash__`` over its data, as ``trimesh.Trimesh`` does
    (a content hash that trimesh keeps up to date as the arrays change), keeps its model on
    itself under that hash, so repeated queries build it once and an edited mesh is rebuilt.
    Other mesh objects are converted on every call. trimesh itself is never imported."""
    if isinstance(m, Model):
        return m
    if getattr(m, "vertices", None) is None or getattr(m, "faces", None) is None:
        raise TypeError(
            f"{name}: expected a rapidpqp.Model or a mesh with .vertices and .faces "
            f"(a trimesh.Trimesh), got {type(m).__name__}"
        )
    hash_method = getattr(type(m), "__hash__", None)
    cacheable = hash_method is not None and hash_method is not object.__hash__
    key = hash(m) if cacheable else None
    if cacheable:
        cached = getattr(m, _CACHE_ATTRIBUTE, None)
        if isinstance(cached, tuple) and len(cached) == 2 and cached[0] == key and isinstance(cached[1], Model):
            return cached[1]
    model = Model.from_trimesh(m)
    if cacheable:
        try:
            setattr(m, _CACHE_ATTRIBUTE, (key, model))
        except (AttributeError, TypeError):
            pass  # an object with __slots__: convert again next time
    return model


def _real(x: Any, name: str) -> float:
    """A real number (Python or numpy int or float, or a 0-d numeric array) as a float;
    strings, booleans and other objects are refused, even those ``float()`` would convert."""
    if isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "fiu":
        return float(x)
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise TypeError(f"{name}: expected a number, got {type(x).__name__}")
    return float(x)


def _flag(x: Any, name: str) -> bool:
    """A yes/no argument: True or False (Python's or numpy's). Anything else is refused, as
    its truth value would be taken silently (the string "False" is true)."""
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    raise TypeError(f"{name}: expected True or False, got {type(x).__name__}")


def _nonneg_float(x: Any, name: str) -> float:
    v = _real(x, name)
    if not (math.isfinite(v) and v >= 0.0):
        raise ValueError(f"{name}: must be finite and >= 0, got {v}")
    return v


def _int_arg(x: Any, name: str, low: int = 0) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise TypeError(f"{name}: expected an integer, got {type(x).__name__}")
    v = int(x)
    if not low <= v <= _INT_MAX:
        raise ValueError(f"{name}: must be between {low} and {_INT_MAX}, got {v}")
    return v


# ---------------------------------------------------------------------------------------------
# Poses


def _pack_pose(name: str, r: Sequence[float], t: Sequence[float], s: float) -> bytes:
    """Checks a rotation times a uniform scale ``r`` (9, row-major), a translation and a
    scale, and packs them as an ``RpqPose``. The arithmetic is the library's
    (``block_scale`` in ``src/ffi/pose.rs``, used by ``rpq_poses_from_matrices`` and every
    query), and :func:`_pack_poses` repeats it on arrays, so single and batched queries see
    identical poses and the library accepts every pose packed here."""
    a0, a1, a2, a3, a4, a5, a6, a7, a8 = r
    t0, t1, t2 = t
    if not math.isfinite(a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + t0 + t1 + t2 + s):
        if not all(map(math.isfinite, (a0, a1, a2, a3, a4, a5, a6, a7, a8, t0, t1, t2, s))):
            raise ValueError(f"{name}: an entry is NaN or infinite")
    if not s > 0.0:
        raise ValueError(f"{name}: the scale must be positive, got {s}")
    tolerance = _ROTATION_TOLERANCE[0]
    top = max(abs(a0), abs(a1), abs(a2), abs(a3), abs(a4), abs(a5), abs(a6), abs(a7), abs(a8))
    if not top > 0.0:
        raise ValueError(f"{name}: the 3x3 part is zero, not a rotation")
    # A block far from unit size is first multiplied by a power of two (exact): no finite
    # input overflows or underflows in the check.
    exponent = max(math.frexp(top)[1] - 1, -1022)
    if -300 <= exponent <= 300:
        unit = 1.0
        b0, b1, b2, b3, b4, b5, b6, b7, b8 = a0, a1, a2, a3, a4, a5, a6, a7, a8
    else:
        down, unit = math.ldexp(1.0, -exponent), math.ldexp(1.0, exponent)
        b0, b1, b2, b3, b4, b5, b6, b7, b8 = (a * down for a in (a0, a1, a2, a3, a4, a5, a6, a7, a8))
    c0 = b0 * b0 + b3 * b3 + b6 * b6
    c1 = b1 * b1 + b4 * b4 + b7 * b7
    c2 = b2 * b2 + b5 * b5 + b8 * b8
    s2 = (c0 + c1 + c2) / 3.0
    tol = tolerance * s2
    if not (
        abs(c0 - s2) <= tol
        and abs(c1 - s2) <= tol
        and abs(c2 - s2) <= tol
        and abs(b0 * b1 + b3 * b4 + b6 * b7) <= tol
        and abs(b0 * b2 + b3 * b5 + b6 * b8) <= tol
        and abs(b1 * b2 + b4 * b5 + b7 * b8) <= tol
    ):
        raise ValueError(
            f"{name}: the 3x3 part is not a rotation (times a uniform scale): its columns are "
            f"not orthonormal within {tolerance} (rapidpqp.ROTATION_TOLERANCE)"
        )
    det = b0 * (b4 * b8 - b5 * b7) - b1 * (b3 * b8 - b5 * b6) + b2 * (b3 * b7 - b4 * b6)
    if not det > 0.0:
        raise ValueError(f"{name}: the 3x3 part is a reflection (negative determinant), not a rotation")
    k = unit * math.sqrt(s2)
    if abs(k - 1.0) > tolerance:
        a0, a1, a2, a3, a4, a5, a6, a7, a8 = (a / k for a in (a0, a1, a2, a3, a4, a5, a6, a7, a8))
        s = s * k
    if not _MIN_SCALE <= s <= _MAX_SCALE:
        raise ValueError(f"{name}: the scale must be between {_MIN_SCALE} and {_MAX_SCALE}, got {s}")
    return _POSE.pack(a0, a1, a2, a3, a4, a5, a6, a7, a8, t0, t1, t2, s)


def _pose_bytes(pose: Any, name: str) -> bytes:
    """One pose, checked and packed as an ``RpqPose``."""
    if type(pose) is Pose:
        return pose._bytes
    if pose is None:
        return _IDENTITY
    if isinstance(pose, Pose):
        return pose._bytes
    if isinstance(pose, (tuple, list)) and len(pose) in (2, 3):
        rot = _float_array(pose[0], f"{name} rotation")
        tr = _float_array(pose[1], f"{name} translation")
        if rot.shape != (3, 3):
            raise ValueError(f"{name}: the rotation of an (R, t) pose must be 3x3, got shape {rot.shape}")
        if tr.shape != (3,):
            raise ValueError(f"{name}: the translation of an (R, t) pose must have shape (3,), got {tr.shape}")
        s = _scale(pose[2], name) if len(pose) == 3 else 1.0
        return _pack_pose(name, rot.ravel().tolist(), tr.tolist(), s)
    m = pose if type(pose) is np.ndarray and pose.dtype == np.float64 else _float_array(pose, name)
    if m.shape != (4, 4):
        raise ValueError(
            f"{name}: a pose is a 4x4 matrix, an (R, t) pair or a rapidpqp.Pose; got an array of shape {m.shape}"
        )
    return _matrix_pose_bytes(m, name)


def _pair(
    model1: Any,
    pose1: Any,
    model2: Any,
    pose2: Any,
    names: Tuple[str, str, str, str] = ("model1", "pose1", "model2", "pose2"),
) -> Tuple["Model", "Model", int, int, bytes, bytes]:
    """The two models (mesh objects converted; kept alive by the caller), their handles and
    packed poses."""
    m1 = _as_model(model1, names[0])
    h1 = _model_handle(m1, names[0])
    m2 = _as_model(model2, names[2])
    h2 = _model_handle(m2, names[2])
    return m1, m2, h1, h2, _pose_bytes(pose1, names[1]), _pose_bytes(pose2, names[3])


def _matrix_pose_bytes(m: np.ndarray, name: str) -> bytes:
    """One 4×4 matrix checked and packed: the Python twin of ``rpq_poses_from_matrices``
    (which batches use), operation for operation. For a single pose this is cheaper than a
    foreign call."""
    (a0, a1, a2, t0), (a3, a4, a5, t1), (a6, a7, a8, t2), last = m.tolist()
    if last != [0.0, 0.0, 0.0, 1.0]:
        raise ValueError(f"{name}: the last row of a 4x4 pose must be [0, 0, 0, 1], got {last}")
    return _pack_pose(name, (a0, a1, a2, a3, a4, a5, a6, a7, a8), (t0, t1, t2), 1.0)


def _scale(x: Any, name: str) -> float:
    return _real(x, f"{name} scale")


def _pack_poses(name: str, a: np.ndarray, t: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Vectorized :func:`_pack_pose`: ``a`` (n, 3, 3), ``t`` (n, 3), ``s`` (n,) → (n, 13)."""
    n = a.shape[0]
    tolerance = _ROTATION_TOLERANCE[0]

    def first_bad(ok: np.ndarray, what: str) -> None:
        if not ok.all():
            i = int(np.argmin(ok))
            raise ValueError(f"{name}[{i}]: {what}")

    first_bad(
        np.isfinite(a).all(axis=(1, 2)) & np.isfinite(t).all(axis=1) & np.isfinite(s),
        "an entry is NaN or infinite",
    )
    first_bad(s > 0.0, "the scale must be positive")
    top = np.abs(a).max(axis=(1, 2)) if n else np.zeros(0)
    first_bad(top > 0.0, "the 3x3 part is zero, not a rotation")
    exponent = np.maximum(np.frexp(top)[1] - 1, -1022)
    far = (exponent < -300) | (exponent > 300)
    unit = np.where(far, np.ldexp(1.0, exponent), 1.0)
    b = np.where(far[:, None, None], a * np.ldexp(1.0, -exponent)[:, None, None], a)
    col = [b[:, :, j] for j in range(3)]
    c0 = col[0][:, 0] * col[0][:, 0] + col[0][:, 1] * col[0][:, 1] + col[0][:, 2] * col[0][:, 2]
    c1 = col[1][:, 0] * col[1][:, 0] + col[1][:, 1] * col[1][:, 1] + col[1][:, 2] * col[1][:, 2]
    c2 = col[2][:, 0] * col[2][:, 0] + col[2][:, 1] * col[2][:, 1] + col[2][:, 2] * col[2][:, 2]
    s2 = (c0 + c1 + c2) / 3.0
    tol = tolerance * s2

    def dot(i: int, j: int) -> np.ndarray:
        u, v = col[i], col[j]
        products: np.ndarray = u[:, 0] * v[:, 0] + u[:, 1] * v[:, 1] + u[:, 2] * v[:, 2]
        return products

    ok = (
        (np.abs(c0 - s2) <= tol)
        & (np.abs(c1 - s2) <= tol)
        & (np.abs(c2 - s2) <= tol)
        & (np.abs(dot(0, 1)) <= tol)
        & (np.abs(dot(0, 2)) <= tol)
        & (np.abs(dot(1, 2)) <= tol)
    )
    first_bad(
        ok,
        f"the 3x3 part is not a rotation (times a uniform scale): its columns are not "
        f"orthonormal within {tolerance} (rapidpqp.ROTATION_TOLERANCE)",
    )
    e = [[b[:, i, j] for j in range(3)] for i in range(3)]
    det = (
        e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1])
        - e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0])
        + e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0])
    )
    first_bad(det > 0.0, "the 3x3 part is a reflection (negative determinant), not a rotation")
    k = unit * np.sqrt(s2)
    scaled = np.abs(k - 1.0) > tolerance
    out = np.empty((n, 13), dtype=np.float64)
    out[:, :9] = a.reshape(n, 9)
    out[:, 9:12] = t
    out[:, 12] = s
    if scaled.any():
        out[scaled, :9] /= k[scaled, None]
        out[scaled, 12] *= k[scaled]
    first_bad(
        (out[:, 12] >= _MIN_SCALE) & (out[:, 12] <= _MAX_SCALE),
        f"the scale must be between {_MIN_SCALE} and {_MAX_SCALE}",
    )
    return out


def _poses_array(poses: Any, name: str) -> np.ndarray:
    """Poses for a batch, as an (n, 13) array of ``RpqPose``: an (N, 4, 4) array, an
    ``(R, t)`` or ``(R, t, s)`` tuple of arrays (R (N, 3, 3) or (3, 3), t (N, 3) or (3,)), or
    any single pose (n = 1, used for every query)."""
    if poses is None or isinstance(poses, Pose):
        return np.frombuffer(_pose_bytes(poses, name), dtype=np.float64).reshape(1, 13)
    if isinstance(poses, (tuple, list)) and len(poses) in (2, 3) and np.shape(poses[0])[-2:] == (3, 3):
        rot = _float_array(poses[0], f"{name} rotation")
        tr = _float_array(poses[1], f"{name} translation")
        sc = _float_array(poses[2], f"{name} scale") if len(poses) == 3 else np.ones(())
        if rot.ndim not in (2, 3) or tr.ndim not in (1, 2) or tr.shape[-1] != 3 or sc.ndim > 1:
            raise ValueError(
                f"{name}: (R, t[, s]) poses need R of shape (N, 3, 3) or (3, 3), t (N, 3) or (3,), "
                f"s (N,) or a number; got {rot.shape}, {tr.shape}, {sc.shape}"
            )
        # Each of R, t, s holds either one value or one per pose.
        counts = {x.shape[0] for x, single in ((rot, 2), (tr, 1), (sc, 0)) if x.ndim > single}
        if len(counts) > 1:
            raise ValueError(f"{name}: R, t and s give different numbers of poses: {sorted(counts)}")
        n = counts.pop() if counts else 1
        rot = np.broadcast_to(rot, (n, 3, 3))
        tr = np.broadcast_to(tr, (n, 3))
        sc = np.broadcast_to(sc, (n,))
        return _pack_poses(name, rot, tr, sc)
    m = _float_array(poses, name)
    if m.shape == (4, 4):
        return np.frombuffer(_pose_bytes(m, name), dtype=np.float64).reshape(1, 13)
    if m.ndim != 3 or m.shape[1:] != (4, 4):
        raise ValueError(
            f"{name}: expected an (N, 4, 4) array of poses, a single pose or an (R, t) tuple; "
            f"got an array of shape {m.shape}"
        )
    out = np.empty((m.shape[0], 13), dtype=np.float64)
    if LIB.rpq_poses_from_matrices(m.ctypes.data, m.shape[0], _ROTATION_TOLERANCE[0], out.ctypes.data) == N.RPQ_OK:
        return out
    # Refused: find the first bad pose and say why.
    last_ok = (m[:, 3, 0] == 0.0) & (m[:, 3, 1] == 0.0) & (m[:, 3, 2] == 0.0) & (m[:, 3, 3] == 1.0)
    if not last_ok.all():
        i = int(np.argmin(last_ok))
        raise ValueError(f"{name}[{i}]: the last row of a 4x4 pose must be [0, 0, 0, 1], got {m[i, 3].tolist()}")
    _pack_poses(name, m[:, :3, :3], m[:, :3, 3], np.ones(m.shape[0]))
    raise ValueError(f"{name}: not valid poses (rotations, translations and uniform scales)")


class Pose:
    """A checked pose, converted once to the library's form.

    A model point ``p`` is placed in the world at ``scale * R @ p + t``. Build one from
    anything a query accepts (a 4×4 matrix, an ``(R, t)`` or ``(R, t, scale)`` tuple, ``None``
    for the identity) and pass it to queries in place of the array to skip the per-call check.

    Immutable; two poses are equal (and hash alike) when their rotation, translation and
    scale are equal, and ``repr`` gives an expression that rebuilds an equal pose.
    """

    __slots__ = ("_bytes",)
    _bytes: bytes

    def __init__(self, pose: PoseLike = None):
        _set_slot(self, "_bytes", _pose_bytes(pose, "pose"))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"rapidpqp.Pose is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"rapidpqp.Pose is immutable: cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pose):
            return NotImplemented
        # By value, not by bytes: 0.0 and -0.0 are equal (and hash alike).
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    @classmethod
    def from_rt(cls, rotation: Any, translation: Any, scale: float = 1.0) -> "Pose":
        """A pose from a 3×3 rotation, a translation and a positive uniform scale."""
        return cls((rotation, translation, scale))

    def _values(self) -> Tuple[float, ...]:
        return _POSE.unpack(self._bytes)

    @property
    def rotation(self) -> np.ndarray:
        """The 3×3 rotation R."""
        return np.array(self._values()[:9]).reshape(3, 3)

    @property
    def translation(self) -> np.ndarray:
        """The translation t, shape (3,)."""
        return np.array(self._values()[9:12])

    @property
    def scale(self) -> float:
        """The uniform scale (1 unless given)."""
        return self._values()[12]

    @property
    def matrix(self) -> np.ndarray:
        """The 4×4 homogeneous matrix (scale folded into the 3×3 block)."""
        m = np.eye(4)
        m[:3, :3] = self.rotation * self.scale
        m[:3, 3] = self.translation
        return m

    def apply(self, points: Any) -> np.ndarray:
        """Places model points (shape (..., 3)) in the world: ``scale * R @ p + t``."""
        p = _float_array(points, "points")
        if p.shape[-1:] != (3,):
            raise ValueError(f"points: expected shape (..., 3), got {p.shape}")
        placed: np.ndarray = (p @ self.rotation.T) * self.scale + self.translation
        return placed

    def __reduce__(self) -> Any:
        return (Pose, ((self.rotation, self.translation, self.scale),))

    def __repr__(self) -> str:
        # Python's float repr is exact, and an already checked rotation is packed unchanged.
        r, t, s = self.rotation.tolist(), self.translation.tolist(), self.scale
        return f"Pose.from_rt({r}, {t}" + (f", {s!r})" if s != 1.0 else ")")


# ---------------------------------------------------------------------------------------------
# Models


def _load_deformable(
    cls: "type[Model]", vertices: Any, faces: Any, ids: Any, threshold: float, kdop: bool = False
) -> "Model":
    """Unpickling and copying helper: a deformable model rebuilt from its positions."""
    m = cls(vertices, faces, ids, deformable=True, kdop=kdop)
    if threshold != 2.0:
        m.set_rebuild_threshold(threshold)
    return m


def _load_model(data: bytes, cls: "Optional[type[Model]]" = None) -> "Model":
    """Unpickling helper: a model from :meth:`Model.to_bytes` output."""
    return (cls or Model).from_bytes(data)


class Model:
    """A triangle mesh and its bounding-volume hierarchy (OBB and RSS trees), built once.

    Immutable and safe to share between threads; it pickles as its built hierarchy (loading
    does not rebuild), so it crosses ``multiprocessing`` boundaries. Contact pairs report each
    triangle's id: ``ids[k]`` for triangle (face) ``k``, or ``k`` itself by default.

    A model built with ``deformable=True`` is the exception: its vertices can be moved
    (:meth:`update_vertices`), which refits its hierarchy in linear time; every query stays
    exact. It must not be queried while an update runs (a query that overlaps an update raises
    :class:`RapidPQPError` with status ``RPQ_ERR_BUSY``); updates from several threads take
    turns. It costs 12 bytes a triangle more in the library, and the package keeps a copy of
    its vertices, faces and ids (to copy and pickle it: a copy or an unpickled model is rebuilt
    from them), which always holds the library's state, whatever the threads.

    Parameters
    ----------
    vertices : array_like, shape (N, 3)
        Vertex coordinates (any real dtype, converted to float64); must be finite.
    faces : array_like of int, shape (M, 3)
        Zero-based vertex indices of the M >= 1 triangles.
    ids : array_like of int, shape (M,), optional
        32-bit ids reported for the triangles in contact results.
    deformable : bool, optional
        Keep the connectivity so that :meth:`update_vertices` can move the vertices.
    kdop : bool, optional
        With ``deformable=True``: also keep a k-DOP-18 tree (see :meth:`set_kdop`), for
        vertices that move every frame and models collided a translation apart.
    """

    __slots__ = ("_handle", "_num_triangles", "_deform", "__weakref__")
    _handle: Optional[int]
    _num_triangles: int
    _deform: Optional[Dict[str, Any]]

    # The native handle is never exposed: a model is immutable, so no attribute can be set or
    # deleted. Even a handle forced in with object.__setattr__ cannot crash the interpreter:
    # the library checks every handle against its registry (a freed, foreign or made-up value
    # raises ValueError).
    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"rapidpqp.Model is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"rapidpqp.Model is immutable: cannot delete {name!r}")

    def __init__(
        self, vertices: Any, faces: Any, ids: Any = None, *, deformable: bool = False, kdop: bool = False
    ):
        if getattr(self, "_handle", None) is not None:
            raise RuntimeError("this Model is already built; models are immutable")
        deformable = _flag(deformable, "deformable")
        kdop = _flag(kdop, "kdop")
        if kdop and not deformable:
            raise ValueError("kdop: the k-DOP option is for deformable models (Model(..., deformable=True, kdop=True))")
        _set_slot(self, "_handle", None)
        _set_slot(self, "_deform", None)
        v = _float_array(vertices, "vertices")
        if v.ndim != 2 or v.shape[1] != 3:
            raise ValueError(f"vertices: expected an array of shape (N, 3), got shape {v.shape}")
        if v.shape[0] > 2**32 - 1:
            raise ValueError(f"vertices: at most 2**32 - 1 vertices (indices are 32-bit), got {v.shape[0]}")
        f = _array(faces, "faces", "iu", "an integer array of vertex indices")
        if f.ndim != 2 or f.shape[1] != 3:
            raise ValueError(f"faces: expected an array of shape (M, 3), got shape {f.shape}")
        m = f.shape[0]
        if m == 0:
            raise ValueError("faces: a model needs at least one triangle, got none")
        lo, hi = int(f.min()), int(f.max())
        if lo < 0 or hi >= v.shape[0]:
            bad = lo if lo < 0 else hi
            row = int(np.argwhere(f == bad)[0][0])
            raise ValueError(f"faces: row {row} has vertex index {bad}, out of range for {v.shape[0]} vertices")
        _require_finite(v, "vertices")
        faces32 = np.ascontiguousarray(f, dtype=np.uint32)
        id_array = _ids_array(ids, m)
        out = ctypes.c_void_p()
        build = LIB.rpq_model_build_deformable if deformable else LIB.rpq_model_build_indexed
        status = build(
            v.ctypes.data,
            v.shape[0],
            faces32.ctypes.data,
            m,
            None if id_array is None else id_array.ctypes.data,
            ctypes.byref(out),
        )
        if status != N.RPQ_OK:
            _fail(status, "Model")
        _set_slot(self, "_handle", out.value)
        _set_slot(self, "_num_triangles", m)
        if deformable:
            # What a copy or an unpickled model is rebuilt from (kept current by updates). The
            # lock makes each change to the library's model and to this copy one step, so that
            # threads updating at once leave the copy equal to the library's state; a published
            # vertex array is never written again (a snapshot stays one).
            d = {
                "vertices": v.copy(),
                "faces": faces32,
                "ids": id_array,
                "threshold": 2.0,
                "kdop": False,
                "lock": threading.Lock(),
            }
            _set_slot(self, "_deform", d)
            if kdop:
                self.set_kdop(True)

    @classmethod
    def from_triangles(
        cls, triangles: Any, ids: Any = None, *, deformable: bool = False, kdop: bool = False
    ) -> "Model":
        """A model from an (M, 3, 3) array: ``triangles[k, j]`` is corner j of triangle k.
        Deformable, its vertices are the 3M corners in that order (vertex ``3k + j`` is
        ``triangles[k, j]``)."""
        t = _float_array(triangles, "triangles")
        if t.ndim != 3 or t.shape[1:] != (3, 3):
            raise ValueError(f"triangles: expected an array of shape (M, 3, 3), got shape {t.shape}")
        if t.shape[0] == 0:
            raise ValueError("triangles: a model needs at least one triangle, got none")
        if deformable or kdop:
            faces = np.arange(3 * t.shape[0], dtype=np.int64).reshape(-1, 3)
            return cls(t.reshape(-1, 3), faces, ids, deformable=deformable, kdop=kdop)
        _require_finite(t, "triangles")
        id_array = _ids_array(ids, t.shape[0])
        self = cls.__new__(cls)
        _set_slot(self, "_handle", None)
        _set_slot(self, "_deform", None)
        out = ctypes.c_void_p()
        status = LIB.rpq_model_build(
            t.ctypes.data,
            None if id_array is None else id_array.ctypes.data,
            t.shape[0],
            ctypes.byref(out),
        )
        if status != N.RPQ_OK:
            _fail(status, "Model.from_triangles")
        _set_slot(self, "_handle", out.value)
        _set_slot(self, "_num_triangles", t.shape[0])
        return self

    @classmethod
    def from_trimesh(cls, mesh: Any, ids: Any = None) -> "Model":
        """A model from a ``trimesh.Trimesh`` (or any object with ``vertices`` and ``faces``
        arrays). trimesh itself is not needed by rapidpqp."""
        vertices = getattr(mesh, "vertices", None)
        faces = getattr(mesh, "faces", None)
        if vertices is None or faces is None:
            raise TypeError(
                f"mesh: expected a trimesh.Trimesh (an object with .vertices and .faces), got "
                f"{type(mesh).__name__}; for a trimesh.Scene use scene.dump(concatenate=True)"
            )
        return cls(np.asarray(vertices), np.asarray(faces), ids)

    @classmethod
    def from_bytes(cls, data: Union[bytes, bytearray, memoryview]) -> "Model":
        """Loads a model saved by :meth:`to_bytes` (the hierarchy is read, not rebuilt). The
        bytes are checked; corrupted or truncated data, or data saved by a release older than
        format version 3, raises ``ValueError``. (The checks cannot prove that bytes crafted
        to pass them hold a hierarchy true to its triangles: such a model gives wrong answers,
        nothing worse.)"""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"data: expected bytes, got {type(data).__name__}")
        buf = bytes(data)
        self = cls.__new__(cls)
        _set_slot(self, "_handle", None)
        _set_slot(self, "_deform", None)
        out = ctypes.c_void_p()
        status = LIB.rpq_model_deserialize(buf, len(buf), ctypes.byref(out))
        if status == N.RPQ_ERR_INVALID_ARGUMENT:
            raise ValueError("data: not a serialized rapidpqp model, or corrupted or truncated")
        if status != N.RPQ_OK:
            _fail(status, "Model.from_bytes")
        _set_slot(self, "_handle", out.value)
        _set_slot(self, "_num_triangles", int(LIB.rpq_model_num_triangles(self._handle)))
        return self

    def to_bytes(self) -> bytes:
        """The built model (triangles, ids and hierarchy) as portable bytes."""
        h = _model_handle(self, "model")
        size = LIB.rpq_model_serialized_size(h)
        buf = ctypes.create_string_buffer(size)
        written = ctypes.c_size_t()
        status = LIB.rpq_model_serialize(h, buf, size, ctypes.byref(written))
        if status != N.RPQ_OK:
            _fail(status, "Model.to_bytes")
        return buf.raw[: written.value]

    def __reduce__(self) -> Any:
        d = getattr(self, "_deform", None)
        if d is not None:
            with d["lock"]:
                return (_load_deformable, (type(self), d["vertices"], d["faces"], d["ids"], d["threshold"], d["kdop"]))
        return (_load_model, (self.to_bytes(), type(self)))

    def __copy__(self) -> "Model":
        # An immutable model is its own copy; a deformable one is rebuilt (an independent one).
        d = getattr(self, "_deform", None)
        if d is not None:
            with d["lock"]:
                state = (d["vertices"], d["faces"], d["ids"], d["threshold"], d["kdop"])
            return _load_deformable(type(self), *state)
        return self

    def __deepcopy__(self, memo: Any) -> "Model":
        return self.__copy__()

    # -- Deformable models --------------------------------------------------------------------

    @property
    def deformable(self) -> bool:
        """Whether the vertices can be moved (:meth:`update_vertices`)."""
        _model_handle(self, "model")
        return self._deform is not None

    @property
    def num_vertices(self) -> int:
        """Number of vertices of a deformable model (what :meth:`update_vertices` takes); 0 for
        another."""
        return int(LIB.rpq_model_num_vertices(_model_handle(self, "model")))

    @property
    def vertices(self) -> np.ndarray:
        """A deformable model's current vertex positions (a read-only view)."""
        d = self._require_deformable("vertices")
        view = d["vertices"].view()
        view.flags.writeable = False
        return view

    def _require_deformable(self, what: str) -> dict:
        _model_handle(self, "model")
        if self._deform is None:
            raise ValueError(f"{what}: the model was not built deformable (Model(..., deformable=True))")
        return self._deform

    def update_vertices(self, vertices: Any, indices: Any = None) -> "RefitReport":
        """Moves the vertices and refits the hierarchy (linear time), rebuilding it when its
        :attr:`degradation` passes :attr:`rebuild_threshold`. Every query after the update is
        exact for the new positions.

        ``vertices``: shape (num_vertices, 3), every vertex's new position; or, with
        ``indices`` (K distinct vertex indices), shape (K, 3): the new positions of those
        vertices, the others staying. Coordinates must be finite. On error nothing changes.
        The model must not be queried while this runs (see the class documentation)."""
        d = self._require_deformable("update_vertices")
        v = _float_array(vertices, "vertices")
        n = d["vertices"].shape[0]
        if indices is None:
            if v.shape != (n, 3):
                raise ValueError(f"vertices: expected shape ({n}, 3), one position per vertex, got shape {v.shape}")
            idx = None
        else:
            idx = _array(indices, "indices", "iu", "an integer array of vertex indices")
            if idx.ndim != 1:
                raise ValueError(f"indices: expected shape (K,), got shape {idx.shape}")
            if v.shape != (idx.shape[0], 3):
                raise ValueError(f"vertices: expected shape ({idx.shape[0]}, 3), one per index, got shape {v.shape}")
            if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= n):
                bad = int(idx.min()) if int(idx.min()) < 0 else int(idx.max())
                raise ValueError(f"indices: vertex index {bad} out of range for {n} vertices")
            if np.unique(idx).size != idx.size:
                raise ValueError("indices: a vertex index appears twice")
            idx = np.ascontiguousarray(idx, dtype=np.uint32)
        _require_finite(v, "vertices")
        report = N.RpqRefitReport()
        h = _model_handle(self, "model")
        # The library's update and the copy's, as one step (see __init__).
        with d["lock"]:
            if idx is None:
                status = LIB.rpq_model_update_vertices(h, v.ctypes.data, n, ctypes.byref(report))
            else:
                status = LIB.rpq_model_update_vertex_subset(
                    h, idx.ctypes.data, v.ctypes.data, idx.shape[0], ctypes.byref(report)
                )
            if status != N.RPQ_OK:
                _fail(status, "update_vertices")
            if idx is None:
                d["vertices"] = v.copy()
            else:
                moved = d["vertices"].copy()
                moved[idx] = v
                d["vertices"] = moved
        return RefitReport(float(report.degradation), bool(report.rebuilt))

    def rebuild(self) -> None:
        """Rebuilds a deformable model's hierarchy from its current positions (the degradation
        goes back to 1)."""
        self._require_deformable("rebuild")
        status = LIB.rpq_model_rebuild(_model_handle(self, "model"))
        if status != N.RPQ_OK:
            _fail(status, "rebuild")

    @property
    def degradation(self) -> float:
        """A deformable model's tree quality: the summed surface area of its inner boxes over
        the surface area of its vertices' bounding box, divided by the same at the last build.
        1 just after a build; refitting unmoved vertices gives a little more."""
        self._require_deformable("degradation")
        out = ctypes.c_double()
        status = LIB.rpq_model_degradation(_model_handle(self, "model"), ctypes.byref(out))
        if status != N.RPQ_OK:
            _fail(status, "degradation")
        return out.value

    @property
    def kdop(self) -> bool:
        """Whether the k-DOP option is on (:meth:`set_kdop`)."""
        _model_handle(self, "model")
        return self._deform is not None and bool(self._deform["kdop"])

    def set_kdop(self, on: bool) -> None:
        """Turns the k-DOP option of a deformable model on or off.

        On, the model also keeps a k-DOP-18 tree (18 fixed directions; 296 bytes a triangle
        more in the library) that :meth:`update_vertices` refits exactly and about 15 times
        faster than the oriented boxes. :func:`collide` of a k-DOP model with any model whose
        pose differs from its own by a translation only (the same rotation matrix, typically
        the identity, and the same scale; a model without the option then builds k-DOPs of its
        own, once) and :func:`self_collide` then prune with it: the same pairs, found
        faster. Every other query (distance, tolerance, collide at other poses) uses the
        oriented boxes, refitted by the first such query after an update. Off, the boxes are
        brought up to date and the k-DOPs freed. :attr:`degradation` measures the tree that
        updates refit."""
        d = self._require_deformable("set_kdop")
        on = _flag(on, "on")
        with d["lock"]:
            status = LIB.rpq_model_set_kdop(_model_handle(self, "model"), 1 if on else 0)
            if status != N.RPQ_OK:
                _fail(status, "set_kdop")
            d["kdop"] = bool(on)

    @property
    def rebuild_threshold(self) -> float:
        """The degradation past which an update rebuilds the tree (default 2)."""
        return float(self._require_deformable("rebuild_threshold")["threshold"])

    def set_rebuild_threshold(self, threshold: float) -> None:
        """Sets :attr:`rebuild_threshold`: at least 1, or ``math.inf`` to rebuild only on
        request (:meth:`rebuild`)."""
        d = self._require_deformable("set_rebuild_threshold")
        t = _real(threshold, "threshold")
        with d["lock"]:
            status = LIB.rpq_model_set_rebuild_threshold(_model_handle(self, "model"), t)
            if status != N.RPQ_OK:
                _fail(status, "set_rebuild_threshold")
            d["threshold"] = t

    @property
    def num_triangles(self) -> int:
        """Number of triangles."""
        _model_handle(self, "model")
        return self._num_triangles

    @property
    def memory_bytes(self) -> int:
        """Bytes of memory the built model holds."""
        return int(LIB.rpq_model_memory_bytes(_model_handle(self, "model")))

    def __len__(self) -> int:
        return self.num_triangles

    # -- The model as a solid: facts, points and rays (all in the model's own frame) --------

    @property
    def solid_facts(self) -> "SolidFacts":
        """Whether the triangles bound a solid, and the counts behind the answer (computed
        on first request, in linear time, and kept by the model).

        Vertices are welded by exact equality of their coordinates (no tolerance); a
        triangle with two corners alike is *collapsed* and left out of every count but
        ``collapsed_triangles``. See :class:`SolidFacts`.
        """
        out = N.RpqSolidFacts()
        status = LIB.rpq_model_solid_facts(_model_handle(self, "model"), ctypes.byref(out))
        if status:
            _fail(status, "Model.solid_facts")
        return SolidFacts(
            bool(out.closed), bool(out.oriented), int(out.boundary_edges), int(out.non_manifold_edges),
            int(out.misoriented_edges), int(out.vertices), int(out.edges), int(out.faces),
            int(out.collapsed_triangles), int(out.components), int(out.euler_characteristic),
            float(out.signed_volume),
        )  # fmt: skip

    @property
    def is_closed(self) -> bool:
        """Whether the triangles bound a solid (``solid_facts.closed``): every edge is shared
        by exactly two faces, in opposite directions. :meth:`signed_distance`,
        :meth:`contains`, :meth:`winding_numbers`, ``collide(..., solid=True)`` and
        :func:`separation` need a closed model."""
        return self.solid_facts.closed

    def closest_points(
        self, points: Any, max_distance: float = math.inf, threads: Optional[int] = 0
    ) -> "ClosestPoints":
        """The point of the surface nearest to each of ``points`` (unsigned distance). Any
        model, closed or not.

        Parameters
        ----------
        points : array_like, shape (N, 3) or (3,)
            Query points in the model's own frame, finite. A single point (3,) is answered
            as N = 1 (arrays of length 1).
        max_distance : float
            Search no farther: a point whose surface is farther than this is not ``found``
            (cheap narrow bands). ``inf`` (the default) for no bound; must be ≥ 0.
        threads : int
            Threads sharing the points (0: one per core); the GIL is released.

        Returns
        -------
        ClosestPoints
            ``distance`` (N,), ``points`` (N, 3), ``ids`` (N,) int32, ``on_surface`` (N,)
            bool (exact: the point lies on a triangle, distance exactly 0), ``found`` (N,)
            bool. Where not found: distance ``inf``, points NaN, id -1.
        """
        h = _model_handle(self, "model")
        p = _points_arg(points, "points")
        limit = _real(max_distance, "max_distance")
        if not limit >= 0.0:
            raise ValueError(f"max_distance: must be >= 0 (inf for no bound), got {limit}")
        t = _threads_arg(threads)
        n = p.shape[0]
        out = np.zeros(n, dtype=_CLOSEST_POINT)
        status = LIB.rpq_closest_points(h, p.ctypes.data, n, limit, t, out.ctypes.data)
        if status:
            _fail(status, "closest_points")
        found = out["found"] != 0
        return ClosestPoints(
            np.where(found, out["distance"], np.inf),
            np.where(found[:, None], out["point"], np.nan),
            np.where(found, out["id"], np.int32(-1)).astype(np.int32),
            found & (out["on_surface"] != 0),
            found,
        )

    def signed_distance(self, points: Any, threads: Optional[int] = 0) -> np.ndarray:
        """The signed distance of each of ``points`` to the surface of this **closed** model:
        negative inside the solid, positive outside, exactly 0 on the surface.

        Inside is a nonzero winding number (exact), so nested shells and inward-facing
        normals work; the magnitude is :meth:`closest_points`' distance.

        Parameters
        ----------
        points : array_like, shape (N, 3) or (3,)
            Query points in the model's own frame, finite (a single point gives shape (1,)).
        threads : int
            Threads sharing the points (0: one per core); the GIL is released.

        Returns
        -------
        numpy.ndarray
            Shape (N,), float64.

        Raises
        ------
        ModelNotClosedError
            (a :class:`RapidPQPError`) The model is not closed; the message gives its
            boundary, non-manifold and misoriented edge counts.
        """
        h = _model_handle(self, "model")
        p = _points_arg(points, "points")
        t = _threads_arg(threads)
        n = p.shape[0]
        out = np.zeros(n)
        status = LIB.rpq_signed_distance(h, p.ctypes.data, n, t, out.ctypes.data, None)
        if status:
            _fail_solid(status, "signed_distance", [("model", self)])
        return out

    def _where(
        self, points: Any, threads: Any, what: str, winding: bool
    ) -> Tuple[np.ndarray, Optional[np.ndarray]]:
        """Where each point is (``RPQ_OUTSIDE``, ``RPQ_INSIDE``, ``RPQ_ON_SURFACE``) and, when
        asked, its winding number."""
        h = _model_handle(self, "model")
        p = _points_arg(points, "points")
        t = _threads_arg(threads)
        n = p.shape[0]
        where = np.zeros(n, dtype=np.uint8)
        numbers = np.zeros(n, dtype=np.int32) if winding else None
        status = LIB.rpq_contains(
            h, p.ctypes.data, n, t, where.ctypes.data, None if numbers is None else numbers.ctypes.data
        )
        if status:
            _fail_solid(status, what, [("model", self)])
        return where, numbers

    def contains(self, points: Any, threads: Optional[int] = 0) -> np.ndarray:
        """Whether each of ``points`` lies in the solid this **closed** model bounds: True
        inside (nonzero winding number) **or on the surface** (a closed solid contains its
        boundary). Exact: a point on a triangle, edge or vertex is decided without tolerance.

        Parameters
        ----------
        points : array_like, shape (N, 3) or (3,)
            Query points in the model's own frame, finite (a single point gives shape (1,)).
        threads : int
            Threads sharing the points (0: one per core); the GIL is released.

        Returns
        -------
        numpy.ndarray
            Shape (N,), bool.

        Raises
        ------
        ModelNotClosedError
            (a :class:`RapidPQPError`) The model is not closed.
        """
        where, _ = self._where(points, threads, "contains", False)
        inside: np.ndarray = where != N.RPQ_OUTSIDE
        return inside

    def winding_numbers(self, points: Any, threads: Optional[int] = 0) -> np.ndarray:
        """The winding number of this **closed** model's surface about each of ``points``
        (exact): +1 inside a mesh with outward normals, -1 with inward ones, 0 outside;
        nested or overlapping closed shells add up. A point on the surface has none and
        gets 0 (use :meth:`contains` or ``closest_points(...).on_surface`` to tell it apart).

        Returns
        -------
        numpy.ndarray
            Shape (N,), int32 (a single point (3,) gives shape (1,)).

        Raises
        ------
        ModelNotClosedError
            (a :class:`RapidPQPError`) The model is not closed.
        """
        _, numbers = self._where(points, threads, "winding_numbers", True)
        assert numbers is not None
        return numbers

    def ray_cast(
        self,
        origins: Any,
        directions: Any,
        max_t: float = math.inf,
        any_hit: bool = False,
        threads: Optional[int] = 0,
    ) -> "RayHits":
        """The first hit of each ray ``origin + t * direction``, ``0 <= t <= max_t``, with
        this model's triangles (any model, closed or not; no culling of back faces).

        Which triangles a ray meets is exact (a ray through a shared edge or vertex hits;
        none slips between triangles); ``t``, the point and the barycentric coordinates are
        floating point.

        Parameters
        ----------
        origins : array_like, shape (N, 3) or (3,)
            Ray origins in the model's own frame, finite. One origin is used for every ray.
        directions : array_like, shape (N, 3) or (3,)
            Nonzero directions, finite, not necessarily unit: ``t`` counts their lengths (it is
            the distance for unit directions). One direction is used for every ray.
        max_t : float
            The largest ``t`` searched, ≥ 0; ``inf`` (the default) for no bound.
        any_hit : bool
            Only ask whether each ray hits something (stops at the first hit found, faster):
            only ``hit`` is answered; for a hit, ``t``, ``points`` and ``barycentric`` are NaN
            and ``ids`` -1.
        threads : int
            Threads sharing the rays (0: one per core); the GIL is released.

        Returns
        -------
        RayHits
            ``hit`` (N,) bool, ``t`` (N,), ``points`` (N, 3), ``ids`` (N,) int32,
            ``barycentric`` (N, 3) (weights of the triangle's corners in face order). Misses:
            ``t`` inf, points and barycentric NaN, id -1.
        """
        h = _model_handle(self, "model")
        o = _points_arg(origins, "origins")
        d = _points_arg(directions, "directions")
        zero = ~d.any(axis=1)
        if zero.any():
            raise ValueError(f"directions: row {int(np.argmax(zero))} is zero; a ray needs a nonzero direction")
        no, nd = o.shape[0], d.shape[0]
        if no != nd and no != 1 and nd != 1:
            raise ValueError(
                f"origins has {no} rows and directions has {nd}: give the same number, or one of either"
            )
        n = no if nd == 1 else nd
        limit = _real(max_t, "max_t")
        if not limit >= 0.0:
            raise ValueError(f"max_t: must be >= 0 (inf for no bound), got {limit}")
        t = _threads_arg(threads)
        out = np.zeros(n, dtype=_RAY_HIT)
        status = LIB.rpq_ray_cast(
            h, o.ctypes.data, no, d.ctypes.data, nd, limit, 1 if _flag(any_hit, "any_hit") else 0, t, out.ctypes.data
        )
        if status == N.RPQ_ERR_OUT_OF_RANGE:
            raise ValueError(
                "ray_cast: a coordinate exceeds 2^1000, or a direction is so small against the "
                "distance to the model that the ray parameter there would overflow"
            )
        if status:
            _fail(status, "ray_cast")
        return _ray_hits(out)

    def segment_hits(self, a: Any, b: Any) -> "RayHits":
        """Every hit of the closed segment ``a → b`` with this model's triangles, sorted by
        ``t`` in ``[0, 1]`` (``a + t * (b - a)``; ties by an internal triangle order). Exact
        as to which triangles: a segment through an edge or vertex reports every triangle
        sharing it. ``a == b`` lists the triangles holding that point.

        Parameters
        ----------
        a, b : array_like, shape (3,)
            The segment's ends in the model's own frame, finite.

        Returns
        -------
        RayHits
            One entry per hit (``hit`` all True), fields as in :meth:`ray_cast`.
        """
        h = _model_handle(self, "model")
        pa = _point_arg(a, "a")
        pb = _point_arg(b, "b")
        count = ctypes.c_size_t()
        capacity = 16
        while True:
            out = np.zeros(capacity, dtype=_RAY_HIT)
            status = LIB.rpq_segment_hits(
                h, pa.ctypes.data, pb.ctypes.data, out.ctypes.data, capacity, ctypes.byref(count)
            )
            if status:
                _fail(status, "segment_hits")
            if count.value <= capacity:
                return _ray_hits(out[: count.value])
            capacity = count.value

    def __repr__(self) -> str:
        if getattr(self, "_handle", None) is None:
            return "<rapidpqp.Model (not built)>"
        return f"<rapidpqp.Model: {self._num_triangles} triangles>"

    def __del__(self, _free: Any = LIB.rpq_model_free) -> None:
        # Freed only here: while any query runs, its caller holds a reference, so a model can
        # never be freed under a running query.
        h = getattr(self, "_handle", None)
        if h is not None:
            _set_slot(self, "_handle", None)
            try:
                _free(h)
            except Exception:  # interpreter shutdown
                pass


# ---------------------------------------------------------------------------------------------
# Results


class RefitReport(NamedTuple):
    """What :meth:`Model.update_vertices` did."""

    #: The refitted tree's :attr:`Model.degradation`, before any rebuild this update made.
    degradation: float
    #: Whether the update rebuilt the tree (degradation above the threshold).
    rebuilt: bool


class CollideResult(NamedTuple):
    """Result of :func:`collide`."""

    #: Intersecting triangle pairs, shape (K, 2), int32: ``[id in model 1, id in model 2]``.
    pairs: np.ndarray
    #: Bounding-box pair tests performed.
    bv_tests: int
    #: Triangle pair tests performed.
    tri_tests: int

    @property
    def colliding(self) -> bool:
        """True when at least one pair of triangles intersects (touching counts)."""
        return len(self.pairs) > 0

    @property
    def num_pairs(self) -> int:
        return len(self.pairs)


class DistanceResult(NamedTuple):
    """Result of :func:`distance`. ``p1`` is in model 1's own frame and ``p2`` in model 2's:
    ``Pose(pose1).apply(p1)`` and ``Pose(pose2).apply(p2)`` are the world points, ``distance``
    apart (the same point when the models intersect)."""

    #: The distance, within the requested error (world units).
    distance: float
    #: Closest point on model 1, in model 1's frame, shape (3,).
    p1: np.ndarray
    #: Closest point on model 2, in model 2's frame, shape (3,).
    p2: np.ndarray
    bv_tests: int
    tri_tests: int


class ToleranceResult(NamedTuple):
    """Result of :func:`tolerance`."""

    #: True when the models are at most the tolerance apart.
    closer: bool
    #: When ``closer``: the distance of the first triangle pair found within the tolerance
    #: (not necessarily the minimum). Otherwise a lower bound of the true distance.
    distance: float
    #: That pair's points, each in its own model's frame (NaN when not ``closer``).
    p1: np.ndarray
    p2: np.ndarray
    bv_tests: int
    tri_tests: int


class CollideBatchResult(NamedTuple):
    """Result of :func:`collide_batch`, one entry per query."""

    #: Whether the models intersect, shape (N,), bool.
    colliding: np.ndarray
    #: Number of intersecting triangle pairs (at most 1 with ``first_contact``), (N,), int64.
    num_pairs: np.ndarray


class DistanceBatchResult(NamedTuple):
    """Result of :func:`distance_batch`, one entry per query (frames as in
    :class:`DistanceResult`)."""

    distance: np.ndarray  #: (N,)
    p1: np.ndarray  #: (N, 3), model 1's frame
    p2: np.ndarray  #: (N, 3), model 2's frame


class ToleranceBatchResult(NamedTuple):
    """Result of :func:`tolerance_batch`, one entry per query (fields as in
    :class:`ToleranceResult`)."""

    closer: np.ndarray  #: (N,), bool
    distance: np.ndarray  #: (N,)
    p1: np.ndarray  #: (N, 3), NaN where not closer
    p2: np.ndarray  #: (N, 3)


class SolidFacts(NamedTuple):
    """What a model's triangles make as a solid's boundary (:attr:`Model.solid_facts`).
    Edges are counted once each, undirected; collapsed triangles (two corners alike) are left
    out of every count but ``collapsed_triangles``."""

    #: Every edge is used by exactly two faces, in opposite directions: the faces bound a solid.
    closed: bool
    #: No misoriented edge: neighbouring faces agree on their orientation.
    oriented: bool
    #: Edges used by exactly one face (holes).
    boundary_edges: int
    #: Edges used by more than two faces.
    non_manifold_edges: int
    #: Edges used by two or more faces, not as often in one direction as in the other.
    misoriented_edges: int
    #: Distinct corner coordinates of the faces (welded by exact equality).
    vertices: int
    #: Distinct edges of the faces.
    edges: int
    #: Triangles counted: all but the collapsed ones.
    faces: int
    #: Triangles with two or three corners at the same coordinates.
    collapsed_triangles: int
    #: Connected pieces (faces sharing a vertex are connected).
    components: int
    #: ``vertices - edges + faces`` (2 for a closed surface of genus 0).
    euler_characteristic: int
    #: The enclosed volume, positive when the normals ``(b - a) x (c - a)`` point outward
    #: (meaningful for a closed model; ``inf`` for models wider than about 1e102).
    signed_volume: float


class ClosestPoints(NamedTuple):
    """Result of :meth:`Model.closest_points`, one entry per query point (model's frame)."""

    #: Distance to the surface, (N,); ``inf`` where not found (beyond ``max_distance``).
    distance: np.ndarray
    #: The closest point of the surface, (N, 3); NaN where not found.
    points: np.ndarray
    #: The id of the triangle it lies on, (N,) int32; -1 where not found.
    ids: np.ndarray
    #: The query point lies on the surface (exact; the distance is then exactly 0), (N,) bool.
    on_surface: np.ndarray
    #: Whether the surface is within ``max_distance``, (N,) bool.
    found: np.ndarray


class RayHits(NamedTuple):
    """Result of :meth:`Model.ray_cast` (one entry per ray) and :meth:`Model.segment_hits`
    (one entry per hit), in the model's frame."""

    #: Whether the ray hits, (N,) bool.
    hit: np.ndarray
    #: The ray (or segment) parameter of the hit, (N,); ``inf`` for a miss.
    t: np.ndarray
    #: The hit point, (N, 3); NaN for a miss.
    points: np.ndarray
    #: The id of the triangle hit, (N,) int32; -1 for a miss.
    ids: np.ndarray
    #: The hit point's weights of the triangle's three corners (face order), (N, 3); NaN for a miss.
    barycentric: np.ndarray


_RELATIONS = {
    N.RPQ_SOLID_APART: "apart",
    N.RPQ_SOLID_SURFACES_CROSS: "surfaces_cross",
    N.RPQ_SOLID_FIRST_INSIDE_SECOND: "first_inside_second",
    N.RPQ_SOLID_SECOND_INSIDE_FIRST: "second_inside_first",
}
_BOUNDS = {
    N.RPQ_SEPARATION_DISTANCE: "distance",
    N.RPQ_SEPARATION_DEPTH_ALONG_DIRECTION: "depth_along_direction",
    N.RPQ_SEPARATION_DEPTH_UPPER_BOUND: "depth_upper_bound",
}


class SolidCollideResult(NamedTuple):
    """Result of ``collide(..., solid=True)``: how two closed models' solids meet."""

    #: ``"apart"`` (no point in common), ``"surfaces_cross"`` (the surfaces intersect or
    #: touch), ``"first_inside_second"`` or ``"second_inside_first"`` (one surface wholly
    #: inside the other solid, not touching).
    relation: str
    #: The ids ``(id in model 1, id in model 2)`` of an intersecting triangle pair when the
    #: surfaces cross, else None.
    pair: Optional[Tuple[int, int]]
    bv_tests: int
    tri_tests: int

    @property
    def intersecting(self) -> bool:
        """True when the solids have a point in common (every relation but ``"apart"``)."""
        return self.relation != "apart"

    @property
    def colliding(self) -> bool:
        """Same as :attr:`intersecting` (the name :class:`CollideResult` uses)."""
        return self.relation != "apart"


class Separation(NamedTuple):
    """Result of :func:`separation`."""

    #: The distance when the solids are apart; minus the penetration depth when they
    #: overlap (0 when they only touch).
    signed_distance: float
    #: Overlapping: the world translation of model 2 that separates the solids (to
    #: touching), its length the depth; shape (3,). Apart: zero.
    translation: np.ndarray
    #: What ``signed_distance`` is: ``"distance"`` (apart), ``"depth_along_direction"``
    #: (the exact penetration depth along the given direction) or ``"depth_upper_bound"``
    #: (the least depth over the directions searched: an upper bound on the translational
    #: penetration depth, exact when the best direction is among them).
    bound: str
    #: How the solids meet, as :attr:`SolidCollideResult.relation`.
    relation: str
    #: Apart: the closest points, ``p1`` in model 1's frame and ``p2`` in model 2's, (3,)
    #: each. Overlapping: NaN.
    p1: np.ndarray
    p2: np.ndarray
    #: Directions swept (0 when apart).
    directions: int
    bv_tests: int
    tri_tests: int


class DistanceCache:
    """Warm start for repeated :func:`distance` queries on one model pair (say, along a
    trajectory): the previous closest triangle pair seeds the search. Safe to share between
    threads (each call works on a copy), though a cache per thread warms better."""

    __slots__ = ("_raw",)

    def __init__(self) -> None:
        self._raw = bytes(ctypes.sizeof(N.RpqDistanceCache))


# ---------------------------------------------------------------------------------------------
# Per-thread native result objects


class _CollideResultHandle:
    __slots__ = ("handle",)

    def __init__(self) -> None:
        self.handle = LIB.rpq_collide_result_new()
        if not self.handle:
            raise MemoryError("rpq_collide_result_new")

    def __del__(self, _free: Any = LIB.rpq_collide_result_free) -> None:
        try:
            _free(self.handle)
        except Exception:
            pass


class _ThreadState(threading.local):
    def __init__(self) -> None:
        self.collide = _CollideResultHandle()
        self.counts = np.zeros(2, dtype=np.uint64)
        base = self.counts.ctypes.data
        self.counts_ptrs = (base, base + 8)
        # An RpqDistanceResult, read through typed views.
        self.dist = np.zeros(ctypes.sizeof(N.RpqDistanceResult), dtype=np.uint8)
        self.dist_addr = self.dist.ctypes.data
        self.dist_f64 = self.dist.view(np.float64)
        self.dist_i32 = self.dist.view(np.int32)
        self.dist_u64 = self.dist.view(np.uint64)
        self.cache = N.RpqDistanceCache()


_STATE = _ThreadState()
# Arrays of the library's result structs, read field by field.
_CLOSEST_POINT = np.dtype(N.RpqClosestPoint)
_RAY_HIT = np.dtype(N.RpqRayHit)
assert _CLOSEST_POINT.itemsize == ctypes.sizeof(N.RpqClosestPoint)
assert _RAY_HIT.itemsize == ctypes.sizeof(N.RpqRayHit)


def _ray_hits(out: np.ndarray) -> RayHits:
    """The RpqRayHit array as a :class:`RayHits`, misses normalized (t inf, NaN, id -1); a
    hit with no place (``any_hit``) keeps the library's NaN and -1."""
    hit = out["hit"] != 0
    t = np.where(hit, out["t"], np.inf)
    points = np.where(hit[:, None], out["point"], np.nan)
    ids = np.where(hit, out["id"], np.int32(-1)).astype(np.int32)
    barycentric = np.where(hit[:, None], out["barycentric"], np.nan)
    return RayHits(hit, t, points, ids, barycentric)
_OFF_CLOSER = N.RpqDistanceResult.closer.offset // 4
_OFF_BV = N.RpqDistanceResult.bv_tests.offset // 8
_OFF_TRI = N.RpqDistanceResult.tri_tests.offset // 8


# ---------------------------------------------------------------------------------------------
# Single queries


@overload
def collide(
    model1: ModelLike,
    pose1: PoseLike,
    model2: ModelLike,
    pose2: PoseLike,
    first_contact: bool = False,
    *,
    box_test: str = "default",
    frame: str = "model1",
    solid: Literal[False] = False,
    geometry: bool = False,
) -> CollideResult: ...


@overload
def collide(
    model1: ModelLike,
    pose1: PoseLike,
    model2: ModelLike,
    pose2: PoseLike,
    first_contact: bool = False,
    *,
    box_test: str = "default",
    frame: str = "model1",
    solid: Literal[True],
    geometry: Literal[False] = False,
) -> SolidCollideResult: ...


def collide(
    model1: ModelLike,
    pose1: PoseLike,
    model2: ModelLike,
    pose2: PoseLike,
    first_contact: bool = False,
    *,
    box_test: str = "default",
    frame: str = "model1",
    solid: bool = False,
    geometry: bool = False,
) -> Union[CollideResult, SolidCollideResult]:
    """The intersecting triangle pairs of ``model1`` at ``pose1`` and ``model2`` at ``pose2``
    (touching triangles intersect); with ``solid=True``, how the solids two closed models
    bound meet (surfaces crossing, one inside the other, or apart).

    Parameters
    ----------
    model1, model2 : Model or trimesh.Trimesh
        A mesh object is converted once and its model kept on it (see ``Model.from_trimesh``).
    pose1, pose2 : pose
        A 4×4 matrix, an ``(R, t)`` or ``(R, t, scale)`` tuple, a :class:`Pose` or ``None``.
    first_contact : bool
        Stop at the first intersecting pair (``pairs`` then has at most one row).
    box_test : str
        How node pairs are pruned: ``"default"`` (the measured fastest, today ``"dual"``),
        ``"sat15"`` (RAPID's 15 axes), ``"sat_lite"`` (6 face axes), ``"dual"`` (bounding
        spheres, then 5 axes), ``"sphere_sat15"``. All give the same pairs.
    frame : str
        Where exactly touching triangles are decided: ``"model1"`` (model 2's triangles moved
        into model 1's frame, as PQP) or ``"model2"`` (as RAPID).
    solid : bool
        Treat both models as solids (both must be closed): a model wholly inside the other
        collides too. Always stops at the first contact (``first_contact`` is implied) and
        takes no ``box_test`` or ``frame``.
    geometry : bool
        Also compute each pair's intersection, in the world frame: the result is then a
        ``CollideGeometryResult`` (the same three fields, plus ``.geometry``, a
        ``PairGeometry``: per pair its point, segment or coplanar polygon, both triangles'
        unit normals, flags and an error bound; README, "Contact geometry").

    Returns
    -------
    CollideResult
        (``solid=False``) ``pairs`` (K, 2) int32 ids, ``bv_tests`` and ``tri_tests`` counts;
        ``.colliding``.
    SolidCollideResult
        (``solid=True``) ``relation``: ``"apart"``, ``"surfaces_cross"``,
        ``"first_inside_second"`` or ``"second_inside_first"``; ``pair``: the ids of an
        intersecting triangle pair when the surfaces cross, else None; work counts;
        ``.colliding`` (or ``.intersecting``) unless apart.

    Raises
    ------
    ModelNotClosedError
        (``solid=True``; a :class:`RapidPQPError`) A model is not closed; the message names
        it and its open edges.
    """
    if _flag(solid, "solid"):
        if box_test != "default" or frame != "model1":
            raise ValueError("collide(solid=True) takes no box_test or frame (it uses the defaults)")
        if geometry:
            raise ValueError("collide(solid=True) takes no geometry (ask collide without solid=True for it)")
        return _solid_collide(model1, pose1, model2, pose2)
    model1, model2, h1, h2, b1, b2 = _pair(model1, pose1, model2, pose2)  # kept alive
    st = _STATE
    res = st.collide.handle
    req = _collide_request(first_contact, box_test, frame)
    if geometry:
        LIB.rpq_collide_result_set_geometry(res, 1)
        try:
            status = LIB.rpq_collide(h1, b1, h2, b2, req, res)
        finally:
            LIB.rpq_collide_result_set_geometry(res, 0)
    else:
        status = LIB.rpq_collide(h1, b1, h2, b2, req, res)
    if status:
        _fail(status, "collide")
    pairs, bv, tri = _read_collide_result(res)
    if geometry:
        from ._contact import CollideGeometryResult, _pair_geometry

        return CollideGeometryResult(pairs, bv, tri, _pair_geometry(res))
    return CollideResult(pairs, bv, tri)


def self_collide(model: ModelLike, first_contact: bool = False, *, box_test: str = "default") -> CollideResult:
    """The intersecting pairs of non-adjacent triangles of one model (self-collision: a cloth
    folded onto itself, a surface passing through itself); touching counts.

    Triangles that share a vertex are adjacent and never reported: on a deformable model
    (which keeps its faces) when their faces name a common vertex; on any other model (a
    triangle soup) when a corner of one triangle has exactly the coordinates of a corner of
    the other, so coincident distinct vertices count as shared. Adjacent triangles that also
    cross elsewhere are not reported.

    Parameters
    ----------
    model : Model or trimesh.Trimesh
    first_contact : bool
        Stop at the first intersecting pair (``pairs`` then has at most one row).
    box_test : str
        As in :func:`collide`; all give the same pairs.

    Returns
    -------
    CollideResult
        ``pairs`` (K, 2) int32 ids, each unordered pair once with the smaller id first;
        ``bv_tests`` (box-pair tests) and ``tri_tests`` (leaf pairs reached).
    """
    model = _as_model(model, "model")  # kept alive for the call
    h = _model_handle(model, "model")
    st = _STATE
    res = st.collide.handle
    status = LIB.rpq_self_collide(h, _collide_request(first_contact, box_test, "model1"), res)
    if status:
        _fail(status, "self_collide")
    return CollideResult(*_read_collide_result(res))


def _read_collide_result(res: int) -> Tuple[np.ndarray, int, int]:
    """The pairs (K, 2) and the counts (box tests, triangle tests) a collide or self-collide
    call left in the result handle `res`."""
    k = LIB.rpq_collide_result_num_pairs(res)
    pairs = np.empty((k, 2), dtype=np.int32)
    if k:
        ctypes.memmove(pairs.ctypes.data, LIB.rpq_collide_result_pairs(res), 8 * k)
    st = _STATE
    LIB.rpq_collide_result_counts(res, *st.counts_ptrs)
    bv, tri = st.counts.tolist()
    return pairs, int(bv), int(tri)


def _solid_collide(model1: ModelLike, pose1: PoseLike, model2: ModelLike, pose2: PoseLike) -> SolidCollideResult:
    model1, model2, h1, h2, b1, b2 = _pair(model1, pose1, model2, pose2)  # kept alive
    out = N.RpqSolidCollideResult()
    status = LIB.rpq_solid_collide(h1, b1, h2, b2, ctypes.byref(out))
    if status:
        _fail_solid(status, "collide", [("model1", model1), ("model2", model2)])
    relation = _RELATIONS[out.relation]
    pair = (int(out.id1), int(out.id2)) if relation == "surfaces_cross" else None
    return SolidCollideResult(relation, pair, int(out.bv_tests), int(out.tri_tests))


def separation(
    model1: ModelLike,
    pose1: PoseLike,
    model2: ModelLike,
    pose2: PoseLike,
    direction: Any = None,
) -> Separation:
    """The signed separation of two **closed** models as solids: their distance when apart;
    when they overlap, minus the depth of a translation of ``model2`` that separates them.

    Parameters
    ----------
    model1, model2 : Model or trimesh.Trimesh
        Closed models (see :attr:`Model.is_closed`).
    pose1, pose2 : pose
        As in :func:`collide`.
    direction : array_like, shape (3,), optional
        A nonzero world direction (any length): the depth is then the exact translational
        penetration depth along it (the shortest move of ``model2`` along ``direction`` that
        separates the solids). Without one (None), the least depth over a fixed set of
        directions (world axes and diagonals, both models' axes, the line between their
        centres), refined around the best: an upper bound on the translational penetration
        depth, exact when the best direction is among them (boxes overlapping along an axis,
        nested boxes).

    Returns
    -------
    Separation
        ``signed_distance``; ``translation`` (3,) moving model 2 out (zero when apart);
        ``bound`` (``"distance"``, ``"depth_along_direction"`` or ``"depth_upper_bound"``);
        ``relation`` as ``collide(..., solid=True)``; ``p1``, ``p2`` the closest points when
        apart (each in its own model's frame, NaN when overlapping); ``directions`` swept;
        work counts.

    Raises
    ------
    ModelNotClosedError
        (a :class:`RapidPQPError`) A model is not closed; the message names it and its open
        edges.
    """
    model1, model2, h1, h2, b1, b2 = _pair(model1, pose1, model2, pose2)  # kept alive
    d = None
    if direction is not None:
        d = _point_arg(direction, "direction")
        if not d.any():
            raise ValueError("direction: must be nonzero (or None to search)")
    out = N.RpqSeparation()
    status = LIB.rpq_separation(h1, b1, h2, b2, None if d is None else d.ctypes.data, ctypes.byref(out))
    if status:
        _fail_solid(status, "separation", [("model1", model1), ("model2", model2)])
    return Separation(
        float(out.signed_distance),
        np.array(out.translation[:]),
        _BOUNDS[out.bound],
        _RELATIONS[out.relation],
        np.array(out.p1[:]),
        np.array(out.p2[:]),
        int(out.directions),
        int(out.bv_tests),
        int(out.tri_tests),
    )


def _distance_request(rel_err: Any, abs_err: Any, qsize: Any) -> Optional[bytes]:
    if type(rel_err) in _PLAIN and type(abs_err) in _PLAIN and type(qsize) is int:
        if rel_err == 0 and abs_err == 0 and qsize == 2:
            return None  # NULL: the exact, depth-first default
    return _DIST_REQUEST.pack(
        _nonneg_float(rel_err, "rel_err"), _nonneg_float(abs_err, "abs_err"), _int_arg(qsize, "qsize")
    )


def distance(
    model1: ModelLike,
    pose1: PoseLike,
    model2: ModelLike,
    pose2: PoseLike,
    rel_err: float = 0.0,
    abs_err: float = 0.0,
    qsize: int = 2,
    cache: Optional[DistanceCache] = None,
) -> DistanceResult:
    """The distance between ``model1`` at ``pose1`` and ``model2`` at ``pose2`` (0 when they
    intersect), with a closest point on each.

    Parameters
    ----------
    rel_err, abs_err : float
        Accept a distance within this fraction / absolute amount of the true one (≥ 0).
    qsize : int
        2 or less: depth-first search (PQP's default); more: best-first with this queue size.
    cache : DistanceCache, optional
        Warm start from the previous query's closest pair; updated.

    Returns
    -------
    DistanceResult
        ``distance``; ``p1`` on model 1 **in model 1's own frame**, ``p2`` on model 2 **in model
        2's own frame** (``Pose(pose1).apply(p1)`` is the world point); work counts.
    """
    model1, model2, h1, h2, b1, b2 = _pair(model1, pose1, model2, pose2)  # kept alive
    request = _distance_request(rel_err, abs_err, qsize)
    st = _STATE
    if cache is None:
        status = LIB.rpq_distance(h1, b1, h2, b2, request, None, st.dist_addr)
    else:
        if not isinstance(cache, DistanceCache):
            raise TypeError(f"cache: expected a rapidpqp.DistanceCache, got {type(cache).__name__}")
        c = st.cache
        raw = cache._raw
        if type(raw) is not bytes or len(raw) != ctypes.sizeof(c):
            raw = bytes(ctypes.sizeof(c))  # tampered with: start cold
        ctypes.memmove(ctypes.addressof(c), raw, len(raw))
        status = LIB.rpq_distance(h1, b1, h2, b2, request, ctypes.byref(c), st.dist_addr)
        if status == N.RPQ_OK:
            cache._raw = bytes(c)
    if status:
        _fail(status, "distance")
    f = st.dist_f64[:7].copy()
    u = st.dist_u64
    return DistanceResult(float(f[0]), f[1:4], f[4:7], int(u[_OFF_BV]), int(u[_OFF_TRI]))


def tolerance(
    model1: ModelLike, pose1: PoseLike, model2: ModelLike, pose2: PoseLike, tolerance: float, qsize: int = 2
) -> ToleranceResult:
    """Whether ``model1`` at ``pose1`` and ``model2`` at ``pose2`` are at most ``tolerance``
    apart (inclusive; a negative tolerance counts as 0). Stops at the first triangle pair
    within the tolerance.

    Returns
    -------
    ToleranceResult
        ``closer``; when closer, ``distance`` and the points (each in its own model's frame)
        of the pair found, else a lower bound of the distance and NaN points.
    """
    model1, model2, h1, h2, b1, b2 = _pair(model1, pose1, model2, pose2)  # kept alive
    request = _tolerance_request(tolerance, qsize)
    st = _STATE
    status = LIB.rpq_tolerance(h1, b1, h2, b2, request, st.dist_addr)
    if status:
        _fail(status, "tolerance")
    f = st.dist_f64[:7].copy()
    u = st.dist_u64
    closer = bool(st.dist_i32[_OFF_CLOSER])
    return ToleranceResult(closer, float(f[0]), f[1:4], f[4:7], int(u[_OFF_BV]), int(u[_OFF_TRI]))


def _tolerance_arg(x: Any) -> float:
    t = _real(x, "tolerance")
    if math.isnan(t):
        raise ValueError("tolerance: must not be NaN")
    return t


def _tolerance_request(tolerance: Any, qsize: Any) -> bytes:
    """The ``RpqToleranceRequest`` of ``tolerance`` and ``qsize``, checked."""
    t = _tolerance_arg(tolerance)
    q = qsize if type(qsize) is int and 0 <= qsize <= _INT_MAX else _int_arg(qsize, "qsize")
    return _TOL_REQUEST.pack(t, q)


# ---------------------------------------------------------------------------------------------
# Batches


def _batch_args(
    model1: Any, poses1: Any, model2: Any, poses2: Any, threads: Any
) -> Tuple["Model", "Model", int, int, np.ndarray, np.ndarray, int, int]:
    """The batch's models (mesh objects converted; the caller keeps them alive for the call),
    their handles, pose arrays, query count and thread count."""
    model1 = _as_model(model1, "model1")
    h1 = _model_handle(model1, "model1")
    model2 = _as_model(model2, "model2")
    h2 = _model_handle(model2, "model2")
    a1 = _poses_array(poses1, "poses1")
    a2 = _poses_array(poses2, "poses2")
    n1, n2 = len(a1), len(a2)
    if n1 == n2 or n2 == 1:
        n = n1
    elif n1 == 1:
        n = n2
    else:
        raise ValueError(
            f"poses1 has {n1} poses and poses2 has {n2}: give the same number, or one pose for either"
        )
    t = 0 if threads is None else _int_arg(threads, "threads")
    return model1, model2, h1, h2, a1, a2, n, t


def collide_batch(
    model1: ModelLike,
    poses1: Any,
    model2: ModelLike,
    poses2: Any,
    first_contact: bool = False,
    threads: Optional[int] = 0,
    *,
    box_test: str = "default",
    frame: str = "model1",
) -> CollideBatchResult:
    """:func:`collide` for many poses of one model pair, run in Rust on ``threads`` threads
    (0: all cores) with the GIL released. ``box_test`` and ``frame`` as in :func:`collide`.

    ``poses1``, ``poses2``: (N, 4, 4) arrays, ``(R, t)`` tuples of (N, 3, 3) and (N, 3)
    arrays, or a single pose used for every query.

    Returns
    -------
    CollideBatchResult
        ``colliding`` (N,) bool and ``num_pairs`` (N,) int64.
    """
    req = _collide_request(first_contact, box_test, frame)
    model1, model2, h1, h2, a1, a2, n, t = _batch_args(model1, poses1, model2, poses2, threads)
    colliding = np.zeros(n, dtype=np.uint8)
    pairs = np.zeros(n, dtype=np.uint64)
    status = LIB.rpq_collide_batch(
        h1, a1.ctypes.data, len(a1), h2, a2.ctypes.data, len(a2),
        req, t, colliding.ctypes.data, pairs.ctypes.data,
    )  # fmt: skip
    if status:
        _fail(status, "collide_batch")
    return CollideBatchResult(colliding.view(np.bool_), pairs.astype(np.int64))


def distance_batch(
    model1: ModelLike,
    poses1: Any,
    model2: ModelLike,
    poses2: Any,
    rel_err: float = 0.0,
    abs_err: float = 0.0,
    qsize: int = 2,
    threads: Optional[int] = 0,
    warm_start: bool = False,
) -> DistanceBatchResult:
    """:func:`distance` for many poses of one model pair, run in Rust on ``threads`` threads
    (0: all cores) with the GIL released. Poses as in :func:`collide_batch`.

    ``warm_start=True`` lets each thread reuse the previous closest pair as a warm start
    (faster along trajectories); the distances stay within the requested error, but when
    several pairs are equally close the points reported may depend on the threading. With
    the default ``False`` every entry equals the single :func:`distance` query's.

    Returns
    -------
    DistanceBatchResult
        ``distance`` (N,); ``p1`` (N, 3) in model 1's frame; ``p2`` (N, 3) in model 2's frame.
    """
    model1, model2, h1, h2, a1, a2, n, t = _batch_args(model1, poses1, model2, poses2, threads)
    request = _distance_request(rel_err, abs_err, qsize)
    warm_start = _flag(warm_start, "warm_start")
    d = np.zeros(n)
    p1 = np.zeros((n, 3))
    p2 = np.zeros((n, 3))
    status = LIB.rpq_distance_batch(
        h1, a1.ctypes.data, len(a1), h2, a2.ctypes.data, len(a2), request,
        1 if warm_start else 0, t, d.ctypes.data, p1.ctypes.data, p2.ctypes.data,
    )  # fmt: skip
    if status:
        _fail(status, "distance_batch")
    return DistanceBatchResult(d, p1, p2)


def tolerance_batch(
    model1: ModelLike,
    poses1: Any,
    model2: ModelLike,
    poses2: Any,
    tolerance: float,
    qsize: int = 2,
    threads: Optional[int] = 0,
) -> ToleranceBatchResult:
    """:func:`tolerance` for many poses of one model pair, run in Rust on ``threads`` threads
    (0: all cores) with the GIL released. Poses as in :func:`collide_batch`.

    Returns
    -------
    ToleranceBatchResult
        ``closer`` (N,) bool, ``distance`` (N,), ``p1``/``p2`` (N, 3) (NaN where not closer).
    """
    model1, model2, h1, h2, a1, a2, n, t = _batch_args(model1, poses1, model2, poses2, threads)
    request = _tolerance_request(tolerance, qsize)
    closer = np.zeros(n, dtype=np.uint8)
    d = np.zeros(n)
    p1 = np.zeros((n, 3))
    p2 = np.zeros((n, 3))
    status = LIB.rpq_tolerance_batch(
        h1, a1.ctypes.data, len(a1), h2, a2.ctypes.data, len(a2), request, t,
        closer.ctypes.data, d.ctypes.data, p1.ctypes.data, p2.ctypes.data,
    )  # fmt: skip
    if status:
        _fail(status, "tolerance_batch")
    return ToleranceBatchResult(closer.view(np.bool_), d, p1, p2)
