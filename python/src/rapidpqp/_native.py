"""ctypes declarations of the native C API (``include/rapidpqp_native.h``) and the library loader.

Every C function the package calls is declared here, with its ``argtypes`` and ``restype``;
no other module touches ``ctypes`` declarations. Handles (``RpqModel *``,
``RpqCollideResult *``) and array pointers are passed as ``c_void_p`` (Python ints, ``bytes``
objects or ``None``) so that a call costs as little as ctypes allows.

ctypes releases the GIL for the duration of every foreign call, so queries from several
Python threads run in parallel.
"""

from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path

__all__ = [
    "LIB",
    "LIBRARY_PATH",
    "RpqPose",
    "RpqCollideRequest",
    "RpqDistanceRequest",
    "RpqToleranceRequest",
    "RpqDistanceCache",
    "RpqDistanceResult",
    "RpqSolidFacts",
    "RpqClosestPoint",
    "RpqRayHit",
    "RpqSolidCollideResult",
    "RpqSeparation",
    "RpqTriContact",
    "RpqContact",
    "RpqSweepResult",
    "RpqToi",
    "RpqRemoval",
    "status_message",
]

# Status codes (RpqStatus).
RPQ_OK = 0
RPQ_ERR_NULL_POINTER = 1
RPQ_ERR_NON_FINITE = 2
RPQ_ERR_EMPTY_MODEL = 3
RPQ_ERR_INVALID_SCALE = 4
RPQ_ERR_INVALID_ARGUMENT = 5
RPQ_ERR_INVALID_HANDLE = 6
RPQ_ERR_OUT_OF_MEMORY = 7
RPQ_ERR_INTERNAL = 8
RPQ_ERR_NOT_ROTATION = 9
RPQ_ERR_OUT_OF_RANGE = 10
RPQ_ERR_NOT_CLOSED = 11
RPQ_ERR_FILE_NOT_FOUND = 12
RPQ_ERR_IO = 13
RPQ_ERR_BAD_FORMAT = 14
RPQ_ERR_NOT_DEFORMABLE = 15
RPQ_ERR_BUSY = 16

RPQ_BOX_TEST_DEFAULT = 0
RPQ_BOX_TEST_SAT15 = 1
RPQ_BOX_TEST_SAT_LITE = 2
RPQ_BOX_TEST_DUAL = 3
RPQ_BOX_TEST_SPHERE_SAT15 = 4
RPQ_FRAME_MODEL1 = 0
RPQ_FRAME_MODEL2 = 1

# rpq_contains: where a point is.
RPQ_OUTSIDE = 0
RPQ_INSIDE = 1
RPQ_ON_SURFACE = 2
# RpqSolidCollideResult.relation, RpqSeparation.relation.
RPQ_SOLID_APART = 0
RPQ_SOLID_SURFACES_CROSS = 1
RPQ_SOLID_FIRST_INSIDE_SECOND = 2
RPQ_SOLID_SECOND_INSIDE_FIRST = 3
# RpqSeparation.bound.
RPQ_SEPARATION_DISTANCE = 0
RPQ_SEPARATION_DEPTH_ALONG_DIRECTION = 1
RPQ_SEPARATION_DEPTH_UPPER_BOUND = 2
# RpqToi.outcome.
RPQ_TOI_CONTACT = 0
RPQ_TOI_FREE = 1
RPQ_TOI_STEP_LIMIT = 2


class RpqPose(ctypes.Structure):
    """``RpqPose``: a model point p goes to ``scale * R p + translation``; R row-major."""

    _fields_ = [
        ("rotation", ctypes.c_double * 9),
        ("translation", ctypes.c_double * 3),
        ("scale", ctypes.c_double),
    ]


class RpqCollideRequest(ctypes.Structure):
    _fields_ = [
        ("first_contact", ctypes.c_int),
        ("box_test", ctypes.c_int),
        ("frame", ctypes.c_int),
    ]


class RpqContactPair(ctypes.Structure):
    _fields_ = [("id1", ctypes.c_int32), ("id2", ctypes.c_int32)]


class RpqDistanceRequest(ctypes.Structure):
    _fields_ = [
        ("rel_err", ctypes.c_double),
        ("abs_err", ctypes.c_double),
        ("qsize", ctypes.c_int),
    ]


class RpqToleranceRequest(ctypes.Structure):
    _fields_ = [
        ("tolerance", ctypes.c_double),
        ("qsize", ctypes.c_int),
    ]


class RpqDistanceCache(ctypes.Structure):
    _fields_ = [
        ("valid", ctypes.c_int),
        ("tri1", ctypes.c_uint32),
        ("tri2", ctypes.c_uint32),
    ]


class RpqDistanceResult(ctypes.Structure):
    _fields_ = [
        ("distance", ctypes.c_double),
        ("p1", ctypes.c_double * 3),
        ("p2", ctypes.c_double * 3),
        ("closer", ctypes.c_int),
        ("bv_tests", ctypes.c_uint64),
        ("tri_tests", ctypes.c_uint64),
    ]


class RpqRefitReport(ctypes.Structure):
    _fields_ = [("degradation", ctypes.c_double), ("rebuilt", ctypes.c_int)]


class RpqObjectContact(ctypes.Structure):
    _fields_ = [
        ("id1", ctypes.c_uint32),
        ("id2", ctypes.c_uint32),
        ("num_tri_pairs", ctypes.c_size_t),
        ("tri_pairs", ctypes.c_void_p),
    ]


class RpqSolidFacts(ctypes.Structure):
    _fields_ = [
        ("closed", ctypes.c_int),
        ("oriented", ctypes.c_int),
        ("boundary_edges", ctypes.c_uint64),
        ("non_manifold_edges", ctypes.c_uint64),
        ("misoriented_edges", ctypes.c_uint64),
        ("vertices", ctypes.c_uint64),
        ("edges", ctypes.c_uint64),
        ("faces", ctypes.c_uint64),
        ("collapsed_triangles", ctypes.c_uint64),
        ("components", ctypes.c_uint64),
        ("euler_characteristic", ctypes.c_int64),
        ("signed_volume", ctypes.c_double),
    ]


class RpqClosestPoint(ctypes.Structure):
    _fields_ = [
        ("distance", ctypes.c_double),
        ("point", ctypes.c_double * 3),
        ("id", ctypes.c_int32),
        ("triangle", ctypes.c_uint32),
        ("on_surface", ctypes.c_int),
        ("found", ctypes.c_int),
    ]


class RpqRayHit(ctypes.Structure):
    _fields_ = [
        ("hit", ctypes.c_int),
        ("t", ctypes.c_double),
        ("point", ctypes.c_double * 3),
        ("id", ctypes.c_int32),
        ("triangle", ctypes.c_uint32),
        ("barycentric", ctypes.c_double * 3),
    ]


class RpqSolidCollideResult(ctypes.Structure):
    _fields_ = [
        ("relation", ctypes.c_int),
        ("intersecting", ctypes.c_int),
        ("id1", ctypes.c_int32),
        ("id2", ctypes.c_int32),
        ("bv_tests", ctypes.c_uint64),
        ("tri_tests", ctypes.c_uint64),
    ]


class RpqSeparation(ctypes.Structure):
    _fields_ = [
        ("signed_distance", ctypes.c_double),
        ("translation", ctypes.c_double * 3),
        ("bound", ctypes.c_int),
        ("relation", ctypes.c_int),
        ("p1", ctypes.c_double * 3),
        ("p2", ctypes.c_double * 3),
        ("directions", ctypes.c_uint32),
        ("bv_tests", ctypes.c_uint64),
        ("tri_tests", ctypes.c_uint64),
    ]


class RpqTriContact(ctypes.Structure):
    _fields_ = [
        ("points", (ctypes.c_double * 3) * 6),
        ("normal1", ctypes.c_double * 3),
        ("normal2", ctypes.c_double * 3),
        ("error_bound", ctypes.c_double),
        ("num_points", ctypes.c_uint32),
        ("flags", ctypes.c_uint32),
    ]


class RpqContact(ctypes.Structure):
    _fields_ = [
        ("point", ctypes.c_double * 3),
        ("normal", ctypes.c_double * 3),
        ("count", ctypes.c_uint32),
        ("flags", ctypes.c_uint32),
    ]


class RpqSweepResult(ctypes.Structure):
    _fields_ = [
        ("hit", ctypes.c_int),
        ("s", ctypes.c_double),
        ("id1", ctypes.c_int32),
        ("id2", ctypes.c_int32),
        ("tri1", ctypes.c_uint32),
        ("tri2", ctypes.c_uint32),
        ("point", ctypes.c_double * 3),
        ("point1", ctypes.c_double * 3),
        ("point2", ctypes.c_double * 3),
        ("bv_tests", ctypes.c_uint64),
        ("tri_tests", ctypes.c_uint64),
    ]


class RpqToi(ctypes.Structure):
    _fields_ = [
        ("outcome", ctypes.c_int),
        ("time", ctypes.c_double),
        ("placement", RpqPose),
        ("distance", ctypes.c_double),
        ("steps", ctypes.c_uint32),
        ("bv_tests", ctypes.c_uint64),
        ("tri_tests", ctypes.c_uint64),
    ]


class RpqRemoval(ctypes.Structure):
    _fields_ = [
        ("free", ctypes.c_int),
        ("free_distance", ctypes.c_double),
        ("blocker", ctypes.c_int64),
        ("contact", RpqSweepResult),
        ("culled", ctypes.c_uint64),
        ("swept", ctypes.c_uint64),
        ("bv_tests", ctypes.c_uint64),
        ("tri_tests", ctypes.c_uint64),
        ("direction", ctypes.c_double * 3),
    ]


assert ctypes.sizeof(RpqPose) == 13 * 8
assert ctypes.sizeof(RpqSweepResult) == 120
assert ctypes.sizeof(RpqRemoval) == 24 + 120 + 32 + 24
assert ctypes.sizeof(RpqContactPair) == 8


def _library_names() -> list[str]:
    if sys.platform == "win32":
        return ["rapidpqp.dll"]
    if sys.platform == "darwin":
        return ["librapidpqp.dylib"]
    return ["librapidpqp.so"]


def _candidates() -> list[Path]:
    """Where the shared library may be, in order of preference."""
    here = Path(__file__).resolve().parent
    names = _library_names()
    found: list[Path] = []
    # An explicit override, for developers testing another build (never needed otherwise).
    override = os.environ.get("RAPIDPQP_LIBRARY")
    if override:
        found.append(Path(override))
    # The installed package: pip puts the library beside this file.
    found += [here / n for n in names]
    # A source checkout (python/src/rapidpqp inside the repository) after `cargo build`.
    repo = here.parents[2] if len(here.parents) > 2 else None
    if repo is not None and (repo / "Cargo.toml").is_file():
        for profile in ("release", "debug"):
            found += [repo / "target" / profile / n for n in names]
    return found


def _load() -> tuple[ctypes.CDLL, Path]:
    tried = _candidates()
    for path in tried:
        if path.is_file():
            try:
                return ctypes.CDLL(str(path)), path
            except OSError as e:
                raise ImportError(f"rapidpqp: cannot load the native library {path}: {e}") from e
    raise ImportError(
        "rapidpqp: the native library was not found (looked in: "
        + ", ".join(str(p) for p in tried)
        + "). Install the package with `pip install ./python` from the repository root, "
        "which builds it with cargo."
    )


LIB, LIBRARY_PATH = _load()

_VP = ctypes.c_void_p
_SIZE = ctypes.c_size_t
_INT = ctypes.c_int
_DBL = ctypes.c_double
_STATUS = ctypes.c_int

# name: (restype, argtypes)
_SIGNATURES = {
    # Models.
    "rpq_model_build": (_STATUS, [_VP, _VP, _SIZE, _VP]),
    "rpq_model_build_indexed": (_STATUS, [_VP, _SIZE, _VP, _SIZE, _VP, _VP]),
    "rpq_model_free": (None, [_VP]),
    "rpq_model_num_triangles": (_SIZE, [_VP]),
    "rpq_model_memory_bytes": (_SIZE, [_VP]),
    "rpq_model_serialized_size": (_SIZE, [_VP]),
    "rpq_model_serialize": (_STATUS, [_VP, _VP, _SIZE, _VP]),
    "rpq_model_deserialize": (_STATUS, [_VP, _SIZE, _VP]),
    # Deformable models: vertices, nv, faces, nf, ids, out; model, vertices, nv, report;
    # model, indices, positions, count, report.
    "rpq_model_build_deformable": (_STATUS, [_VP, _SIZE, _VP, _SIZE, _VP, _VP]),
    "rpq_model_update_vertices": (_STATUS, [_VP, _VP, _SIZE, _VP]),
    "rpq_model_update_vertex_subset": (_STATUS, [_VP, _VP, _VP, _SIZE, _VP]),
    "rpq_model_rebuild": (_STATUS, [_VP]),
    "rpq_model_degradation": (_STATUS, [_VP, _VP]),
    "rpq_model_set_kdop": (_STATUS, [_VP, ctypes.c_int]),
    "rpq_model_is_kdop": (ctypes.c_int, [_VP]),
    "rpq_model_set_rebuild_threshold": (_STATUS, [_VP, _DBL]),
    "rpq_model_num_vertices": (_SIZE, [_VP]),
    # Collide.
    "rpq_collide_result_new": (_VP, []),
    "rpq_collide_result_free": (None, [_VP]),
    "rpq_collide": (_STATUS, [_VP, _VP, _VP, _VP, _VP, _VP]),
    "rpq_collide_result_num_pairs": (_SIZE, [_VP]),
    "rpq_collide_result_pairs": (_VP, [_VP]),
    "rpq_collide_result_counts": (_STATUS, [_VP, _VP, _VP]),
    "rpq_self_collide": (_STATUS, [_VP, _VP, _VP]),
    # n-body worlds.
    "rpq_world_new": (_STATUS, [_VP]),
    "rpq_world_free": (None, [_VP]),
    "rpq_world_add_model": (_STATUS, [_VP, _VP, _VP]),
    "rpq_world_remove": (_STATUS, [_VP, ctypes.c_uint32]),
    "rpq_world_set_pose": (_STATUS, [_VP, ctypes.c_uint32, _VP]),
    "rpq_world_update_vertices": (_STATUS, [_VP, ctypes.c_uint32, _VP, _SIZE, _VP]),
    "rpq_world_update_vertex_subset": (_STATUS, [_VP, ctypes.c_uint32, _VP, _VP, _SIZE, _VP]),
    "rpq_world_set_active": (_STATUS, [_VP, ctypes.c_uint32, _INT]),
    "rpq_world_set_pair_active": (_STATUS, [_VP, ctypes.c_uint32, ctypes.c_uint32, _INT]),
    "rpq_world_collide": (_STATUS, [_VP, _INT, _VP]),
    "rpq_world_contact": (_STATUS, [_VP, _SIZE, _VP]),
    # Contact geometry: result, enable; result, out, capacity, out_count.
    "rpq_collide_result_set_geometry": (_STATUS, [_VP, _INT]),
    "rpq_collide_result_geometries": (_STATUS, [_VP, _VP, _SIZE, _VP]),
    # model1, pose1, model2, pose2, merge_tolerance, out, capacity, out_count
    "rpq_contacts": (_STATUS, [_VP, _VP, _VP, _VP, _DBL, _VP, _SIZE, _VP]),
    # model1, pose1, model2, pose2, points, point_capacity, offsets, offset_capacity,
    # out_num_points, out_num_curves
    "rpq_intersection_curves": (_STATUS, [_VP, _VP, _VP, _VP, _VP, _SIZE, _VP, _SIZE, _VP, _VP]),
    # Distance and tolerance.
    "rpq_distance": (_STATUS, [_VP, _VP, _VP, _VP, _VP, _VP, _VP]),
    "rpq_tolerance": (_STATUS, [_VP, _VP, _VP, _VP, _VP, _VP]),
    # Batches: model1, poses1, n1, model2, poses2, n2, request, ...
    "rpq_collide_batch": (_STATUS, [_VP, _VP, _SIZE, _VP, _VP, _SIZE, _VP, _INT, _VP, _VP]),
    "rpq_distance_batch": (
        _STATUS,
        [_VP, _VP, _SIZE, _VP, _VP, _SIZE, _VP, _INT, _INT, _VP, _VP, _VP],
    ),
    "rpq_tolerance_batch": (
        _STATUS,
        [_VP, _VP, _SIZE, _VP, _VP, _SIZE, _VP, _INT, _VP, _VP, _VP, _VP],
    ),
    # Solid facts and point, ray and solid queries (points in the model's own frame).
    "rpq_model_solid_facts": (_STATUS, [_VP, _VP]),
    # model, points, n, max_distance, threads, out
    "rpq_closest_points": (_STATUS, [_VP, _VP, _SIZE, _DBL, _INT, _VP]),
    # model, points, n, threads, out_distance, out_closest
    "rpq_signed_distance": (_STATUS, [_VP, _VP, _SIZE, _INT, _VP, _VP]),
    # model, points, n, threads, out_where, out_winding
    "rpq_contains": (_STATUS, [_VP, _VP, _SIZE, _INT, _VP, _VP]),
    # model, origins, num_origins, directions, num_directions, max_t, any_hit, threads, out
    "rpq_ray_cast": (_STATUS, [_VP, _VP, _SIZE, _VP, _SIZE, _DBL, _INT, _INT, _VP]),
    # model, a, b, out, capacity, out_count
    "rpq_segment_hits": (_STATUS, [_VP, _VP, _VP, _VP, _SIZE, _VP]),
    # model1, pose1, model2, pose2, out
    "rpq_solid_collide": (_STATUS, [_VP, _VP, _VP, _VP, _VP]),
    # model1, pose1, model2, pose2, direction (NULL: search), out
    "rpq_separation": (_STATUS, [_VP, _VP, _VP, _VP, _VP, _VP]),
    # Motion: model1, pose1, model2, pose2, direction, s_max, last_contact, out
    "rpq_sweep": (_STATUS, [_VP, _VP, _VP, _VP, _VP, _DBL, _INT, _VP]),
    # model1, pose1, model2, pose2, directions, n, s_max, last_contact, threads, out
    "rpq_sweep_batch": (_STATUS, [_VP, _VP, _VP, _VP, _VP, _SIZE, _DBL, _INT, _INT, _VP]),
    # model1, start, end, model2, pose2, tolerance (< 0: default), max_steps (0: default), out
    "rpq_time_of_impact": (_STATUS, [_VP, _VP, _VP, _VP, _VP, _DBL, ctypes.c_uint32, _VP]),
    # models, poses, num_parts, moving, directions, num_directions, distance, out
    "rpq_removal_directions": (_STATUS, [_VP, _VP, _SIZE, _SIZE, _VP, _SIZE, _DBL, _VP]),
    # Poses: matrices, n, tolerance, out_poses; the rotation tolerance setting.
    "rpq_poses_from_matrices": (_STATUS, [_VP, _SIZE, _DBL, _VP]),
    "rpq_set_rotation_tolerance": (_STATUS, [_DBL]),
    "rpq_rotation_tolerance": (_DBL, []),
    # Mesh files: path, out_mesh, message, capacity; counts; copy (vertices, faces); model.
    "rpq_mesh_load": (_STATUS, [ctypes.c_char_p, _VP, _VP, _SIZE]),
    "rpq_mesh_free": (None, [_VP]),
    "rpq_mesh_num_vertices": (_SIZE, [_VP]),
    "rpq_mesh_num_faces": (_SIZE, [_VP]),
    "rpq_mesh_copy": (_STATUS, [_VP, _VP, _VP]),
    "rpq_mesh_build_model": (_STATUS, [_VP, _VP]),
    # Errors.
    "rpq_status_message": (ctypes.c_char_p, [_STATUS]),
}

for _name, (_restype, _argtypes) in _SIGNATURES.items():
    try:
        _fn = getattr(LIB, _name)
    except AttributeError as e:
        raise ImportError(
            f"rapidpqp: the native library {LIBRARY_PATH} has no `{_name}`: it is older than "
            "this Python package; reinstall with `pip install ./python`."
        ) from e
    _fn.restype = _restype
    _fn.argtypes = _argtypes


def status_message(status: int) -> str:
    """The library's English message for a status code."""
    text = LIB.rpq_status_message(status)
    return text.decode("utf-8", "replace") if text else f"status {status}"
