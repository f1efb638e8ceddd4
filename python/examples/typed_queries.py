"""rapidpqp with type annotations: the package's own types checked by ``mypy --strict``.

    pip install ./python mypy
    mypy --strict python/examples/typed_queries.py
    python python/examples/typed_queries.py

Two unit cubes: collision, distance and tolerance at a few poses, a batch, the solid
queries, a sweep, and the rotation tolerance setting.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import rapidpqp as rp

Array = npt.NDArray[np.float64]


def unit_cube() -> rp.Model:
    """The cube [0, 1]^3, 12 triangles with outward normals (a closed model)."""
    vertices: Array = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=np.float64)
    faces = np.array(
        [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
         [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]],
        dtype=np.int32,
    )  # fmt: skip
    return rp.Model(vertices, faces)


def shifted(x: float) -> rp.Pose:
    """The cube moved by x along the x axis, a quarter turn about it."""
    rotation: Array = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
    return rp.Pose.from_rt(rotation, np.array([x, 0.0, 1.0]))


def main() -> None:
    cube = unit_cube()
    assert cube.is_closed

    for x in (0.5, 1.0, 2.5):
        pose = shifted(x)
        hit: rp.CollideResult = rp.collide(cube, None, cube, pose)
        near: rp.DistanceResult = rp.distance(cube, None, cube, pose)
        within: rp.ToleranceResult = rp.tolerance(cube, None, cube, pose, 1.0)
        world: Array = pose.apply(near.p2)
        print(f"x = {x}: {hit.num_pairs} pairs, distance {near.distance:g}, within 1: {within.closer}, "
              f"closest point of cube 2 in the world {world.round(6).tolist()}")

    # Poses are values: equal poses hash alike, and repr rebuilds one.
    assert shifted(2.5) == eval(repr(shifted(2.5)), {"Pose": rp.Pose})
    assert len({shifted(1.0), shifted(1.0), shifted(2.0)}) == 2

    poses = np.tile(np.eye(4), (5, 1, 1))
    poses[:, 0, 3] = np.linspace(0.0, 2.0, 5)
    batch: rp.DistanceBatchResult = rp.distance_batch(cube, None, cube, poses, threads=2)
    print("distance batch:", batch.distance.tolist())

    solid: rp.SolidCollideResult = rp.collide(cube, None, cube, (np.eye(3), [0.25, 0.25, 0.25], 0.5), solid=True)
    print("a half-size cube inside:", solid.relation)
    inside: npt.NDArray[np.bool_] = cube.contains(np.array([[0.5, 0.5, 0.5], [2.0, 0.0, 0.0]]))
    print("contains:", inside.tolist())

    sweep: rp.SweepResult = rp.sweep(cube, shifted(3.0), cube, None, np.array([-1.0, 0.0, 0.0]), 5.0)
    print(f"sweeping back along -x: first contact after {sweep.s:g}")

    # The rotation tolerance is one process-wide setting of the library.
    before: float = rp.ROTATION_TOLERANCE
    rp.ROTATION_TOLERANCE = 1e-3
    assert rp.rotation_tolerance() == 1e-3
    rp.set_rotation_tolerance(before)


if __name__ == "__main__":
    main()
