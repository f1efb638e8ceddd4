"""rapidpqp: mesh–mesh collision, distance and tolerance queries (RAPID/PQP) for numpy.

A thin ``ctypes`` layer over the native library built from the Rust crate. Build a
:class:`Model` once from vertices and faces, then query pairs of models at poses::

    import numpy as np, rapidpqp
    m = rapidpqp.Model(vertices, faces)            # (N, 3) float, (M, 3) int
    r = rapidpqp.collide(m, np.eye(4), m, pose)    # r.pairs: (K, 2) triangle ids
    d = rapidpqp.distance(m, np.eye(4), m, pose)   # d.distance, d.p1, d.p2
    t = rapidpqp.tolerance(m, np.eye(4), m, pose, 0.01)
    b = rapidpqp.collide_batch(m, np.eye(4), m, poses)  # poses: (N, 4, 4), all cores

A pose is a 4×4 homogeneous matrix, an ``(R, t)`` pair, an ``(R, t, scale)`` triple, a
:class:`Pose`, or ``None`` (identity): a model point ``p`` sits at ``scale * R @ p + t``.
Closest points are reported in their own model's frame.
"""

from ._api import (
    ROTATION_TOLERANCE,
    CollideBatchResult,
    CollideResult,
    DistanceBatchResult,
    DistanceCache,
    DistanceResult,
    Model,
    Pose,
    RapidPQPError,
    ToleranceBatchResult,
    ToleranceResult,
    collide,
    collide_batch,
    distance,
    distance_batch,
    tolerance,
    tolerance_batch,
)
from ._native import LIBRARY_PATH

__version__ = "0.1.0"

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
    "collide",
    "distance",
    "tolerance",
    "collide_batch",
    "distance_batch",
    "tolerance_batch",
    "ROTATION_TOLERANCE",
    "LIBRARY_PATH",
    "__version__",
]
