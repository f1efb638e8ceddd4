"""Contact geometry: each intersecting triangle pair's intersection (``collide(...,
geometry=True)``), the deduplicated contact set (:func:`contacts`) and the intersection
curves (:func:`intersection_curves`) (``rpq_collide_result_geometries``, ``rpq_contacts``,
``rpq_intersection_curves``).

Everything is in the world frame of the poses. The argument helpers are
:mod:`rapidpqp._api`'s.
"""

from __future__ import annotations

import ctypes
from typing import Any, List, NamedTuple

import numpy as np

from . import _native as N
from ._api import CollideResult, ModelLike, PoseLike, _fail, _pair
from ._native import LIB

__all__ = ["PairGeometry", "CollideGeometryResult", "ContactSet", "contacts", "intersection_curves"]

_TRI_CONTACT = np.dtype(N.RpqTriContact)
_CONTACT = np.dtype(N.RpqContact)
assert _TRI_CONTACT.itemsize == ctypes.sizeof(N.RpqTriContact)
assert _CONTACT.itemsize == ctypes.sizeof(N.RpqContact)

#: ``PairGeometry.flags``: model 1's triangle has zero area (its normal is zero).
NORMAL1_DEGENERATE = 1
#: Model 2's triangle has zero area (its normal is zero).
NORMAL2_DEGENERATE = 2
#: The triangles are coplanar: the points are a convex polygon (or a segment or a point).
COPLANAR = 4
#: The triangles cross (each strictly straddles the other's plane; they share a segment).
CROSSING = 8
#: ``ContactSet.flags``: no pair reaching the contact has a usable normal (it is zero).
NO_NORMAL = 1


class PairGeometry(NamedTuple):
    """The intersection of each intersecting triangle pair (row ``k`` for ``pairs[k]``)."""

    #: (K, 6, 3) float64: the first ``num_points[k]`` rows of ``points[k]`` are the pair's
    #: point (1), segment endpoints (2) or convex polygon corners in order (3 to 6, coplanar
    #: pairs); the rest are NaN.
    points: np.ndarray
    #: (K,) int: 1 a point, 2 a segment, 3..6 a polygon.
    num_points: np.ndarray
    #: (K, 3) unit normal of model 1's triangle (zero for a zero-area triangle, never NaN).
    normal1: np.ndarray
    #: (K, 3) unit normal of model 2's triangle.
    normal2: np.ndarray
    #: (K,) uint32: ``NORMAL1_DEGENERATE | NORMAL2_DEGENERATE | COPLANAR | CROSSING``.
    flags: np.ndarray
    #: (K,) float64: every point is within this distance of the exact intersection's corner.
    error_bound: np.ndarray

    def pair(self, k: int) -> np.ndarray:
        """Pair ``k``'s points, shape (n, 3): a point (n = 1), a segment (2), a polygon (3..6)."""
        return self.points[k, : int(self.num_points[k])]


class CollideGeometryResult(CollideResult):
    """A :class:`CollideResult` (same three fields: it unpacks as before) with ``.geometry``,
    a :class:`PairGeometry` row for each pair."""

    geometry: PairGeometry

    def __new__(cls, pairs: np.ndarray, bv_tests: int, tri_tests: int, geometry: PairGeometry) -> "CollideGeometryResult":
        self = super().__new__(cls, pairs, bv_tests, tri_tests)
        self.geometry = geometry
        return self


def _pair_geometry(result_handle: int) -> PairGeometry:
    """The geometry of the pairs of the last collide into ``result_handle`` (run with it on)."""
    count = ctypes.c_size_t(0)
    status = LIB.rpq_collide_result_geometries(result_handle, None, 0, ctypes.byref(count))
    if status:
        _fail(status, "collide")
    raw = np.zeros(count.value, dtype=_TRI_CONTACT)
    if count.value:
        status = LIB.rpq_collide_result_geometries(result_handle, raw.ctypes.data, count.value, ctypes.byref(count))
        if status:
            _fail(status, "collide")
    n = raw["num_points"].astype(np.int64)
    points = np.array(raw["points"], dtype=np.float64).reshape(-1, 6, 3)
    points[np.arange(6)[None, :] >= n[:, None]] = np.nan
    return PairGeometry(
        points,
        n,
        np.array(raw["normal1"], dtype=np.float64).reshape(-1, 3),
        np.array(raw["normal2"], dtype=np.float64).reshape(-1, 3),
        raw["flags"].copy(),
        raw["error_bound"].copy(),
    )


class ContactSet(NamedTuple):
    """A deduplicated contact set (:func:`contacts`)."""

    #: (N, 3) contact points, pairwise farther apart than the merge tolerance.
    points: np.ndarray
    #: (N, 3) unit normals from model 1 into model 2 (zero where ``flags & NO_NORMAL``).
    normals: np.ndarray
    #: (N,) how many pair points were merged into each contact.
    counts: np.ndarray
    #: (N,) uint32: ``NO_NORMAL``.
    flags: np.ndarray


def _tolerance(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise TypeError(f"merge_tolerance must be a real number, not {type(value).__name__}") from None


def contacts(
    model1: ModelLike, pose1: PoseLike, model2: ModelLike, pose2: PoseLike, merge_tolerance: float = 0.0
) -> ContactSet:
    """The deduplicated contact set of ``model1`` at ``pose1`` and ``model2`` at ``pose2``:
    every intersecting pair's points (segment endpoints, single points, polygon corners)
    merged within ``merge_tolerance`` (each joins the first contact within the tolerance, so
    any two contacts are farther apart than it), with a unit normal from model 1 into model 2
    (the normalised sum of ``normal1 - normal2`` over the pairs reaching the contact; see the
    README, "Contact geometry").

    Raises ``ValueError`` for a negative, NaN or infinite tolerance and for the pose errors
    of :func:`collide`.
    """
    tol = _tolerance(merge_tolerance)
    model1, model2, h1, h2, b1, b2 = _pair(model1, pose1, model2, pose2)  # kept alive
    count = ctypes.c_size_t(0)
    raw = np.zeros(256, dtype=_CONTACT)
    for _ in range(2):
        status = LIB.rpq_contacts(h1, b1, h2, b2, tol, raw.ctypes.data, len(raw), ctypes.byref(count))
        if status:
            _fail(status, "contacts")
        if count.value <= len(raw):
            break
        raw = np.zeros(count.value, dtype=_CONTACT)
    raw = raw[: count.value]
    return ContactSet(
        np.array(raw["point"], dtype=np.float64).reshape(-1, 3),
        np.array(raw["normal"], dtype=np.float64).reshape(-1, 3),
        raw["count"].astype(np.int64),
        raw["flags"].copy(),
    )


def intersection_curves(model1: ModelLike, pose1: PoseLike, model2: ModelLike, pose2: PoseLike) -> List[np.ndarray]:
    """The curves where the two models' surfaces intersect: every pair's segment chained with
    the others at equal endpoints, as a list of (N, 3) float arrays. A closed loop repeats its
    first point at its end; open polylines come from open surfaces and degenerate touching.
    Each distinct segment is used once; single points and coplanar polygons are left out (see
    ``collide(..., geometry=True)``). Raises ``ValueError`` for the pose errors of
    :func:`collide`."""
    model1, model2, h1, h2, b1, b2 = _pair(model1, pose1, model2, pose2)  # kept alive
    num_points, num_curves = ctypes.c_size_t(0), ctypes.c_size_t(0)
    points = np.zeros((1024, 3), dtype=np.float64)
    offsets = np.zeros(65, dtype=np.uintp)
    for _ in range(2):
        status = LIB.rpq_intersection_curves(
            h1,
            b1,
            h2,
            b2,
            points.ctypes.data,
            len(points),
            offsets.ctypes.data,
            len(offsets),
            ctypes.byref(num_points),
            ctypes.byref(num_curves),
        )
        if status:
            _fail(status, "intersection_curves")
        if num_points.value <= len(points) and num_curves.value < len(offsets):
            break
        points = np.zeros((max(num_points.value, 1), 3), dtype=np.float64)
        offsets = np.zeros(num_curves.value + 1, dtype=np.uintp)
    o = offsets[: num_curves.value + 1].astype(np.int64)
    return [points[o[k] : o[k + 1]].copy() for k in range(num_curves.value)]
