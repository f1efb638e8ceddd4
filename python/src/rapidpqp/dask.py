"""Pose batches over a ``dask.distributed`` cluster: millions of poses of one model pair
(grasp sets, roadmaps, tolerance studies) cut into chunks, each chunk answered by the batch
function (:func:`rapidpqp.collide_batch`, :func:`~rapidpqp.distance_batch`,
:func:`~rapidpqp.tolerance_batch`) on a worker, the answers gathered back in pose order::

    from dask.distributed import Client
    import rapidpqp.dask

    client = Client("scheduler:8786")          # or Client(LocalCluster(...))
    r = rapidpqp.dask.collide_poses(client, gripper, part, grasps, None, chunk=20_000)
    r.colliding                                  # (N,) bool, as collide_batch gives it

This module needs ``dask[distributed]``; ``import rapidpqp`` does not import it. Nothing
here imports dask either: it only calls the ``client`` it is given.

Each call sends each model to each worker once (``client.scatter(..., broadcast=True)``: a
model pickles as its built hierarchy, so workers load it without rebuilding), not once per
chunk; only the chunks' poses travel with the tasks. Poses are checked on the client, with
the same rules and messages as the batch functions, before anything is sent.

Each chunk runs the batch function on ``threads`` threads of its worker: 1 by default, since
the cluster's own worker threads are the parallelism (``threads=0`` takes every core of the
worker's machine, for clusters with one single-threaded worker per machine). The rotation
tolerance (:func:`rapidpqp.set_rotation_tolerance`) is a per-process setting: a changed one
must be set on the workers too (``client.run(rapidpqp.set_rotation_tolerance, value)``).
"""

from __future__ import annotations

from typing import Any, Callable, List, NamedTuple, Optional, Tuple

import numpy as np

from . import _api
from ._api import (
    CollideBatchResult,
    DistanceBatchResult,
    ModelLike,
    ToleranceBatchResult,
    collide_batch,
    distance_batch,
    tolerance_batch,
)

__all__ = ["DEFAULT_CHUNK", "collide_poses", "distance_poses", "tolerance_poses"]

#: Poses per task by default: large enough that a task's cost dwarfs the scheduler's per-task
#: overhead (about a millisecond) for typical models, small enough to balance the workers.
DEFAULT_CHUNK = 20_000


def _pose_tuple(packed: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Checked poses, (n, 13) as the library packs them, as the ``(R, t, s)`` form the batch
    functions take (an exact round trip: R row-major, then t, then s)."""
    return packed[:, :9].reshape(-1, 3, 3), packed[:, 9:12], packed[:, 12]


def _chunk(packed: np.ndarray, lo: int, hi: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Poses ``lo:hi`` of one side; a single pose (used for every query) goes whole."""
    return _pose_tuple(packed if len(packed) == 1 else packed[lo:hi])


def _run_chunk(
    batch: Callable[..., NamedTuple], model1: Any, poses1: Any, model2: Any, poses2: Any, options: dict
) -> NamedTuple:
    """One task: the batch function on one chunk (runs on a worker)."""
    return batch(model1, poses1, model2, poses2, **options)


def _map_poses(
    client: Any,
    batch: Callable[..., NamedTuple],
    model1: ModelLike,
    model2: ModelLike,
    poses1: Any,
    poses2: Any,
    chunk: int,
    options: dict,
) -> Any:
    # The batch functions' own argument checks, on the client: a bad pose fails here, with
    # its index, before any model is sent.
    model1, model2, _, _, packed1, packed2, n, _ = _api._batch_args(model1, poses1, model2, poses2, 0)
    chunk = _api._int_arg(chunk, "chunk", low=1)
    _api._threads_arg(options["threads"])
    if n == 0:
        return batch(model1, _pose_tuple(packed1), model2, _pose_tuple(packed2), **options)
    # Once to every worker; tasks then find the loaded model in their worker's memory. A key
    # of its own per call (hash=False): with the content's key, a new call's scatter races
    # the release of the previous call's futures, and the scheduler may drop the model under
    # the new tasks ("lost dependencies").
    shipped1 = client.scatter(model1, broadcast=True, hash=False)
    shipped2 = shipped1 if model2 is model1 else client.scatter(model2, broadcast=True, hash=False)
    futures = [
        client.submit(
            _run_chunk, batch, shipped1, _chunk(packed1, lo, lo + chunk), shipped2, _chunk(packed2, lo, lo + chunk),
            options, pure=False,
        )
        for lo in range(0, n, chunk)
    ]  # fmt: skip
    parts: List[NamedTuple] = client.gather(futures)
    result_type = type(parts[0])
    fields = (np.concatenate([getattr(part, field) for part in parts]) for field in result_type._fields)
    return result_type(*fields)


def collide_poses(
    client: Any,
    model1: ModelLike,
    model2: ModelLike,
    poses1: Any,
    poses2: Any,
    first_contact: bool = False,
    *,
    chunk: int = DEFAULT_CHUNK,
    threads: Optional[int] = 1,
    box_test: str = "default",
    frame: str = "model1",
) -> CollideBatchResult:
    """:func:`rapidpqp.collide_batch` over the cluster of ``client``, ``chunk`` poses a task.

    ``poses1``, ``poses2``: as for :func:`~rapidpqp.collide_batch` ((N, 4, 4) arrays, ``(R, t)``
    or ``(R, t, s)`` tuples of arrays, or a single pose for every query). ``first_contact``,
    ``box_test`` and ``frame`` as there; ``threads`` per task (see the module notes).

    Returns the :class:`~rapidpqp.CollideBatchResult` of all N poses, in order: entry by entry
    what :func:`~rapidpqp.collide_batch` gives on one machine.
    """
    _api._collide_request(first_contact, box_test, frame)  # refuses bad options on the client
    options = dict(first_contact=first_contact, threads=threads, box_test=box_test, frame=frame)
    return _map_poses(client, collide_batch, model1, model2, poses1, poses2, chunk, options)


def distance_poses(
    client: Any,
    model1: ModelLike,
    model2: ModelLike,
    poses1: Any,
    poses2: Any,
    rel_err: float = 0.0,
    abs_err: float = 0.0,
    qsize: int = 2,
    *,
    chunk: int = DEFAULT_CHUNK,
    threads: Optional[int] = 1,
) -> DistanceBatchResult:
    """:func:`rapidpqp.distance_batch` over the cluster of ``client``, ``chunk`` poses a task
    (poses as in :func:`collide_poses`; error bounds and ``qsize`` as for
    :func:`~rapidpqp.distance`).

    Returns the :class:`~rapidpqp.DistanceBatchResult` of all N poses, in order: entry by
    entry what :func:`~rapidpqp.distance_batch` gives on one machine (no warm start across
    poses, so the chunking changes nothing).
    """
    _api._distance_request(rel_err, abs_err, qsize)  # refuses bad options on the client
    options = dict(rel_err=rel_err, abs_err=abs_err, qsize=qsize, threads=threads)
    return _map_poses(client, distance_batch, model1, model2, poses1, poses2, chunk, options)


def tolerance_poses(
    client: Any,
    model1: ModelLike,
    model2: ModelLike,
    poses1: Any,
    poses2: Any,
    tolerance: float,
    qsize: int = 2,
    *,
    chunk: int = DEFAULT_CHUNK,
    threads: Optional[int] = 1,
) -> ToleranceBatchResult:
    """:func:`rapidpqp.tolerance_batch` over the cluster of ``client``, ``chunk`` poses a task
    (poses as in :func:`collide_poses`).

    Returns the :class:`~rapidpqp.ToleranceBatchResult` of all N poses, in order: entry by
    entry what :func:`~rapidpqp.tolerance_batch` gives on one machine.
    """
    _api._tolerance_arg(tolerance)  # refuses bad options on the client
    _api._int_arg(qsize, "qsize")
    options = dict(tolerance=tolerance, qsize=qsize, threads=threads)
    return _map_poses(client, tolerance_batch, model1, model2, poses1, poses2, chunk, options)
