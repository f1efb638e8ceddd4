"""Mesh files: :func:`load` and :func:`load_mesh` read OBJ, STL (binary and ASCII) and PLY
(ASCII and binary) through the native reader (``rpq_mesh_load``), with no other package."""

from __future__ import annotations

import ctypes
import os
from typing import Any, Tuple

import numpy as np

from . import _native as N
from ._api import Model, RapidPQPError, _set_slot
from ._api import _fail as _fail_model
from ._native import LIB

__all__ = ["load", "load_mesh"]

_MESSAGE_CAPACITY = 2048


def _path_bytes(path: Any) -> bytes:
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path: expected a str or an os.PathLike (pathlib.Path), got {type(path).__name__}")
    p = os.fspath(path)
    b = os.fsencode(p) if isinstance(p, str) else p
    if b"\0" in b:
        raise ValueError(f"path: contains a NUL character: {p!r}")
    return b


def _fail(status: int, message: str, path: bytes) -> None:
    if not message:
        message = f"{os.fsdecode(path)}: {N.status_message(status)}"
    # (The message names the file already: no `filename`, which would print it twice.)
    if status == N.RPQ_ERR_FILE_NOT_FOUND:
        raise FileNotFoundError(message)
    if status == N.RPQ_ERR_IO:
        raise OSError(message)
    if status in (N.RPQ_ERR_BAD_FORMAT, N.RPQ_ERR_NON_FINITE, N.RPQ_ERR_EMPTY_MODEL, N.RPQ_ERR_INVALID_ARGUMENT):
        raise ValueError(message)
    if status == N.RPQ_ERR_OUT_OF_MEMORY:
        raise MemoryError(message)
    raise RapidPQPError(message, status)


class _Mesh:
    """A native mesh handle, freed on exit."""

    def __init__(self, path: Any):
        self.path = _path_bytes(path)
        self.handle = None

    def __enter__(self) -> int:
        out = ctypes.c_void_p()
        message = ctypes.create_string_buffer(_MESSAGE_CAPACITY)
        status = LIB.rpq_mesh_load(self.path, ctypes.byref(out), message, _MESSAGE_CAPACITY)
        if status != N.RPQ_OK:
            _fail(status, message.value.decode("utf-8", "replace"), self.path)
        self.handle = out.value
        return self.handle

    def __exit__(self, *exc: Any) -> None:
        if self.handle is not None:
            LIB.rpq_mesh_free(self.handle)
            self.handle = None


def load_mesh(path: Any) -> Tuple[np.ndarray, np.ndarray]:
    """Reads a mesh file: ``(vertices, faces)``, an ``(N, 3)`` float64 array and an ``(M, 3)``
    int64 array of zero-based vertex indices (M >= 1).

    OBJ, STL (binary or ASCII) and PLY (ASCII, binary little or big endian) are read, the format
    chosen by the extension (``.obj``, ``.stl``, ``.ply``, any case) or else by the content.
    OBJ polygons and PLY polygons become fans of triangles from their first corner; OBJ ``vt``,
    ``vn`` and other statements and PLY properties and elements other than the vertices'
    ``x y z`` and the faces' ``vertex_indices`` are skipped; STL corners are merged into one
    vertex where their coordinates are bitwise identical (numbered by first appearance).

    Raises ``TypeError`` for a path that is not a ``str`` or ``os.PathLike``,
    ``FileNotFoundError`` for a missing file, ``OSError`` for one that cannot be read and
    ``ValueError`` for anything wrong inside it (unknown format, malformed or truncated content,
    an index out of range, a NaN or infinite coordinate, no triangles), the message naming the
    file and the line or byte."""
    with _Mesh(path) as h:
        nv, nf = int(LIB.rpq_mesh_num_vertices(h)), int(LIB.rpq_mesh_num_faces(h))
        vertices = np.empty((nv, 3), dtype=np.float64)
        faces = np.empty((nf, 3), dtype=np.uint32)
        status = LIB.rpq_mesh_copy(h, vertices.ctypes.data, faces.ctypes.data)
        if status != N.RPQ_OK:
            _fail(status, "", _path_bytes(path))
    return vertices, faces.astype(np.int64)


def load(path: Any) -> Model:
    """Reads a mesh file (as :func:`load_mesh`) into a :class:`Model`; triangle ``k`` in file
    order (after polygons are split into fans) has id ``k``."""
    with _Mesh(path) as h:
        model = Model.__new__(Model)
        _set_slot(model, "_handle", None)
        out = ctypes.c_void_p()
        status = LIB.rpq_mesh_build_model(h, ctypes.byref(out))
        if status != N.RPQ_OK:
            # The file read; the model does not build (a coordinate beyond 2^1000, say).
            _fail_model(status, f"load({os.fsdecode(_path_bytes(path))!r})")
        _set_slot(model, "_handle", out.value)
        _set_slot(model, "_num_triangles", int(LIB.rpq_model_num_triangles(out.value)))
    return model
