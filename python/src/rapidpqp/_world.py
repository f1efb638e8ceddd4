"""The n-body engine (``rpq_world_*``): many objects, rigid or deforming, moved frame by frame,
with the colliding object pairs found by a sweep-and-prune broad phase and the exact narrow
phase.

The argument helpers (models, poses) are :mod:`rapidpqp._api`'s.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Any, List, NamedTuple

import numpy as np

from . import _native as N
from ._api import ModelLike, PoseLike, RefitReport, _array, _as_model, _fail, _float_array, _model_handle, _pose_bytes
from ._native import LIB

__all__ = ["World", "WorldContact"]


class WorldContact(NamedTuple):
    """One colliding object pair of :meth:`World.collide`."""

    #: The lower object id.
    id1: int
    #: The higher object id.
    id2: int
    #: (K, 2) int32: ``[triangle id in id1, triangle id in id2]`` of every intersecting
    #: triangle pair; empty after a first-contact collide.
    pairs: np.ndarray


def _object_id(x: Any, name: str = "id") -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise TypeError(f"{name}: expected an object id (int), got {type(x).__name__}")
    v = int(x)
    if not 0 <= v < 2**32:
        raise ValueError(f"{name}: object id {v} out of range")
    return v


class World:
    """A set of objects and their poses; :meth:`collide` finds the colliding pairs.

    Objects are copies of models (:meth:`add`): a model built with ``deformable=True`` makes
    a deforming object whose vertices :meth:`update_vertices` moves (its box in the broad
    phase follows at once); any other model a rigid one. The world keeps its own copies, so
    the models may be changed or dropped afterwards. Poses are rigid (scale 1). One thread
    at a time: calls on one world are serialized by a lock.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._vertices: dict = {}
        out = ctypes.c_void_p()
        status = LIB.rpq_world_new(ctypes.byref(out))
        if status:
            _fail(status, "World")
        self._handle = out.value

    def __del__(self, _free: Any = LIB.rpq_world_free) -> None:
        try:
            _free(getattr(self, "_handle", None))
        except Exception:
            pass

    def _call(self, what: str, fn: Any, *args: Any) -> None:
        with self._lock:
            status = fn(self._handle, *args)
        if status:
            _fail(status, what)

    def add(self, model: ModelLike) -> int:
        """Adds a copy of ``model`` at the identity pose, active; returns its id (ids count up
        from 0 and are never reused)."""
        m = _as_model(model, "model")
        out = ctypes.c_uint32()
        self._call("World.add", LIB.rpq_world_add_model, _model_handle(m, "model"), ctypes.byref(out))
        if m.deformable:
            self._vertices[out.value] = m.num_vertices
        return out.value

    def remove(self, id: int) -> None:
        """Deletes an object; its id stays invalid."""
        i = _object_id(id)
        self._call("World.remove", LIB.rpq_world_remove, i)
        self._vertices.pop(i, None)

    def set_pose(self, id: int, pose: PoseLike) -> None:
        """Sets an object's pose (a rigid motion: a scale other than 1 is refused)."""
        self._call("World.set_pose", LIB.rpq_world_set_pose, _object_id(id), _pose_bytes(pose, "pose"))

    def update_vertices(self, id: int, vertices: Any, indices: Any = None) -> RefitReport:
        """Moves a deforming object's vertices (model frame): all of them (shape
        (num_vertices, 3)), or with ``indices`` (K distinct vertex indices) those K (shape
        (K, 3)). The object is refitted and its box moved in the broad phase. On error
        nothing changes."""
        i = _object_id(id)
        v = _float_array(vertices, "vertices")
        if v.ndim != 2 or v.shape[1:] != (3,):
            raise ValueError(f"vertices: expected shape (N, 3), got shape {v.shape}")
        report = N.RpqRefitReport()
        if indices is None:
            args = (i, v.ctypes.data, v.shape[0], ctypes.byref(report))
            self._call("World.update_vertices", LIB.rpq_world_update_vertices, *args)
        else:
            idx = _array(indices, "indices", "iu", "an integer array of vertex indices")
            if idx.ndim != 1 or idx.shape[0] != v.shape[0]:
                raise ValueError(f"indices: expected shape ({v.shape[0]},), one per position, got shape {idx.shape}")
            if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= 2**32):
                raise ValueError("indices: a vertex index is out of range")
            idx = np.ascontiguousarray(idx, dtype=np.uint32)
            self._call(
                "World.update_vertices",
                LIB.rpq_world_update_vertex_subset,
                i,
                idx.ctypes.data,
                v.ctypes.data,
                idx.shape[0],
                ctypes.byref(report),
            )
        return RefitReport(float(report.degradation), bool(report.rebuilt))

    def set_active(self, id: int, active: bool = True) -> None:
        """Lets :meth:`collide` test the object's pairs (or skip them)."""
        self._call("World.set_active", LIB.rpq_world_set_active, _object_id(id), int(bool(active)))

    def set_pair_active(self, a: int, b: int, enabled: bool = True) -> None:
        """Enables (or disables) the unordered pair {a, b}; independent of :meth:`set_active`."""
        self._call(
            "World.set_pair_active", LIB.rpq_world_set_pair_active, _object_id(a, "a"), _object_id(b, "b"),
            int(bool(enabled)),
        )

    def collide(self, first_contact: bool = False) -> List[WorldContact]:
        """The colliding object pairs (touching counts), sorted by ``id1`` then ``id2``; with
        ``first_contact`` each pair's search stops at its first triangle pair (``pairs``
        empty)."""
        out: List[WorldContact] = []
        with self._lock:
            n = ctypes.c_size_t()
            status = LIB.rpq_world_collide(self._handle, int(bool(first_contact)), ctypes.byref(n))
            if status:
                _fail(status, "World.collide")
            c = N.RpqObjectContact()
            for k in range(n.value):
                status = LIB.rpq_world_contact(self._handle, k, ctypes.byref(c))
                if status:
                    _fail(status, "World.collide")
                pairs = np.empty((c.num_tri_pairs, 2), dtype=np.int32)
                if c.num_tri_pairs:
                    ctypes.memmove(pairs.ctypes.data, c.tri_pairs, 8 * c.num_tri_pairs)
                out.append(WorldContact(int(c.id1), int(c.id2), pairs))
        return out
