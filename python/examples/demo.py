"""rapidpqp from Python: load a mesh, run the three queries and a batch.

    pip install ./python          # at the repository root
    python python/examples/demo.py [MESH]

Uses meshes/bunny_15k.obj of the repository unless another mesh file (OBJ, STL or PLY: any
format `rapidpqp.load` reads) is given.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

import rapidpqp as rp

DEFAULT_MESH = Path(__file__).resolve().parents[2] / "meshes" / "bunny_15k.obj"


def rotation_z(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_MESH
    vertices, faces = rp.load_mesh(path)
    vertices -= vertices.mean(axis=0)  # centred, so that rotations turn it in place
    start = time.perf_counter()
    bunny = rp.Model(vertices, faces)
    built = time.perf_counter() - start
    extent = float(np.ptp(vertices, axis=0).max())
    print(f"{path.name}: {bunny.num_triangles} triangles, built in {1e3 * built:.1f} ms, "
          f"{bunny.memory_bytes / 1e6:.1f} MB (library: {rp.LIBRARY_PATH.name})")

    # Model 1 stays at the origin (pose None = identity); model 2 is moved by a 4x4 pose.
    pose2 = np.eye(4)
    pose2[:3, :3] = rotation_z(0.4)
    pose2[:3, 3] = (0.3 * extent, 0.0, 0.0)

    r = rp.collide(bunny, None, bunny, pose2)
    # A contact is a pair of intersecting triangles, one of each model.
    print(f"collide:   {r.num_pairs} intersecting triangle pairs "
          f"({r.bv_tests} box tests, {r.tri_tests} triangle tests); first pairs: {r.pairs[:3].tolist()}")

    far = pose2.copy()
    far[0, 3] = 1.2 * extent
    d = rp.distance(bunny, None, bunny, far)
    w1, w2 = d.p1, rp.Pose(far).apply(d.p2)  # p2 is in model 2's frame: place it in the world
    print(f"distance:  {d.distance:.6g} between {np.round(w1, 5).tolist()} (model 1) and "
          f"{np.round(w2, 5).tolist()} (model 2, world frame); |p1 - p2| = {np.linalg.norm(w1 - w2):.6g}")

    for t in (0.5 * d.distance, 1.5 * d.distance):
        tr = rp.tolerance(bunny, None, bunny, far, t)
        print(f"tolerance: within {t:.6g}? {tr.closer}")

    # A batch: model 2 sweeps past model 1 along x while turning, 500 poses, all cores.
    n = 500
    poses = np.tile(np.eye(4), (n, 1, 1))
    xs = np.linspace(-1.5 * extent, 1.5 * extent, n)
    for k in range(n):
        poses[k, :3, :3] = rotation_z(2 * np.pi * k / n)
        poses[k, :3, 3] = (xs[k], 0.1 * extent, 0.0)
    start = time.perf_counter()
    c = rp.collide_batch(bunny, None, bunny, poses)
    t_collide = time.perf_counter() - start
    start = time.perf_counter()
    db = rp.distance_batch(bunny, None, bunny, poses, warm_start=True)
    t_distance = time.perf_counter() - start
    hits = np.flatnonzero(c.colliding)
    print(f"batch of {n} poses: collide {1e3 * t_collide:.1f} ms, distance {1e3 * t_distance:.1f} ms")
    if len(hits):
        print(f"  colliding for x in [{xs[hits[0]]:.4g}, {xs[hits[-1]]:.4g}] ({len(hits)} poses, "
              f"up to {c.num_pairs.max()} pairs)")
    print(f"  distance: min {db.distance.min():.4g}, max {db.distance.max():.4g}")


if __name__ == "__main__":
    main()
