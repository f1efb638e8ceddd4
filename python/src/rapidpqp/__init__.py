"""rapidpqp: mesh–mesh collision, distance and tolerance queries (RAPID/PQP) for numpy.

A thin ``ctypes`` layer over the native library built from the Rust crate. Build a
:class:`Model` once from vertices and faces, then query pairs of models at poses::

    import numpy as np, rapidpqp
    m = rapidpqp.Model(vertices, faces)            # (N, 3) float, (M, 3) int
    m = rapidpqp.load("part.stl")                  # or .obj, .ply; load_mesh: the arrays
    r = rapidpqp.collide(m, np.eye(4), m, pose)    # r.pairs: (K, 2) triangle ids
    d = rapidpqp.distance(m, np.eye(4), m, pose)   # d.distance, d.p1, d.p2
    t = rapidpqp.tolerance(m, np.eye(4), m, pose, 0.01)
    b = rapidpqp.collide_batch(m, np.eye(4), m, poses)  # poses: (N, 4, 4), all cores

On one model, in its own frame (signed distance, contains and the solid queries need a
closed model, ``m.is_closed``)::

    c = m.closest_points(points)                   # c.distance, c.points, c.ids
    s = m.signed_distance(points)                  # negative inside
    inside = m.contains(points)                    # bool, True on the surface too
    h = m.ray_cast(origins, directions)            # h.hit, h.t, h.points, h.ids
    r = rapidpqp.collide(m, None, m, pose, solid=True)   # r.relation: nesting counts
    p = rapidpqp.separation(m, None, m, pose)      # distance, or minus a penetration depth
    s = rapidpqp.self_collide(m)                   # s.pairs: non-adjacent triangles meeting

Contact geometry (world frame)::

    g = rapidpqp.collide(m, None, m, pose, geometry=True).geometry   # g.pair(k), g.normal1
    c = rapidpqp.contacts(m, None, m, pose, 1e-6)  # c.points, c.normals (from 1 into 2)
    loops = rapidpqp.intersection_curves(m, None, m, pose)   # [(N, 3) arrays]

Motion of model 1 against a static model 2::

    s = rapidpqp.sweep(m, pose, m, None, direction, 10.0)   # s.hit, s.s: first contact
    t = rapidpqp.time_of_impact(m, pose0, pose1, m, None)   # t.outcome, t.time, t.pose
    r = rapidpqp.removal_directions([a, b, c], poses, 0, directions)   # r.free, r.blocker

A pose is a 4×4 homogeneous matrix, an ``(R, t)`` pair, an ``(R, t, scale)`` triple, a
:class:`Pose`, or ``None`` (identity): a model point ``p`` sits at ``scale * R @ p + t``.
Closest points are reported in their own model's frame.
"""

import sys as _sys
import types as _types

from ._api import (
    ClosestPoints,
    CollideBatchResult,
    CollideResult,
    DistanceBatchResult,
    DistanceCache,
    DistanceResult,
    Model,
    ModelNotClosedError,
    Pose,
    RapidPQPError,
    RayHits,
    RefitReport,
    Separation,
    SolidCollideResult,
    SolidFacts,
    ToleranceBatchResult,
    ToleranceResult,
    collide,
    collide_batch,
    distance,
    distance_batch,
    rotation_tolerance,
    self_collide,
    separation,
    set_rotation_tolerance,
    tolerance,
    tolerance_batch,
)
from ._contact import (
    CollideGeometryResult,
    ContactSet,
    PairGeometry,
    contacts,
    intersection_curves,
)
from ._io import load, load_mesh
from ._motion import (
    RemovalResult,
    SweepBatchResult,
    SweepResult,
    TimeOfImpact,
    removal_directions,
    sweep,
    sweep_batch,
    time_of_impact,
)
from ._world import World, WorldContact
from ._native import LIBRARY_PATH

__version__ = "0.1.0"

__all__ = [
    "Model",
    "load",
    "load_mesh",
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
    "RefitReport",
    "SolidFacts",
    "ClosestPoints",
    "RayHits",
    "SolidCollideResult",
    "Separation",
    "collide",
    "distance",
    "tolerance",
    "collide_batch",
    "distance_batch",
    "tolerance_batch",
    "separation",
    "self_collide",
    "World",
    "WorldContact",
    "CollideGeometryResult",
    "PairGeometry",
    "ContactSet",
    "contacts",
    "intersection_curves",
    "SweepResult",
    "SweepBatchResult",
    "TimeOfImpact",
    "RemovalResult",
    "sweep",
    "sweep_batch",
    "time_of_impact",
    "removal_directions",
    # Not ROTATION_TOLERANCE: a star import would copy its value, and assigning that copy
    # would change nothing. It is set on the module: rapidpqp.ROTATION_TOLERANCE = 1e-4.
    "rotation_tolerance",
    "set_rotation_tolerance",
    "LIBRARY_PATH",
    "__version__",
]


#: The library's rotation tolerance (see :func:`rotation_tolerance`); a live setting, provided
#: by ``_Package`` below (declared here for type checkers).
ROTATION_TOLERANCE: float


class _Package(_types.ModuleType):
    """The package module, with ``ROTATION_TOLERANCE`` a live view of the library's one
    rotation tolerance setting: reading it asks the setting, assigning it changes the setting
    for every later query (Python and C alike), and a bad value raises."""

    @property
    def ROTATION_TOLERANCE(self) -> float:  # noqa: N802 (a module constant's name)
        return rotation_tolerance()

    @ROTATION_TOLERANCE.setter
    def ROTATION_TOLERANCE(self, value: float) -> None:  # noqa: N802
        set_rotation_tolerance(value)


_sys.modules[__name__].__class__ = _Package
