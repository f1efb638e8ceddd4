"""Closest-point throughput of trimesh on the bundled meshes, for comparison with
`cargo run --release --example point_queries` (same kinds of points, one thread).

Run in a virtual environment with `pip install trimesh numpy rtree scipy`:
`python scripts/trimesh_closest_point.py [points]`.
"""

import sys
import time
from pathlib import Path

import numpy as np
import trimesh


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    meshes = Path(__file__).resolve().parent.parent / "meshes"
    rng = np.random.default_rng(17)
    for name in ["bunny.obj", "dragon_100k.obj"]:
        mesh = trimesh.load(meshes / name, process=False, force="mesh")
        lo, hi = mesh.bounds
        diag = np.linalg.norm(hi - lo)
        print(f"{name}: {len(mesh.faces)} triangles, {count} points (trimesh {trimesh.__version__})")
        mesh.triangles_tree  # build the r-tree outside the timing
        in_box = lo - (hi - lo) * 0.05 + (hi - lo) * rng.random((count, 3)) * 1.1
        tri = mesh.triangles[rng.integers(0, len(mesh.faces), count)]
        u, v = rng.random(count), rng.random(count)
        flip = u + v > 1
        u[flip], v[flip] = 1 - u[flip], 1 - v[flip]
        on = tri[:, 0] + (tri[:, 1] - tri[:, 0]) * u[:, None] + (tri[:, 2] - tri[:, 0]) * v[:, None]
        near = on + (rng.random((count, 3)) * 2 - 1) * 0.01 * diag
        for label, points in [("bounding box + 10 %", in_box), ("near the surface (1 % diag)", near)]:
            start = time.perf_counter()
            trimesh.proximity.closest_point(mesh, points)
            secs = time.perf_counter() - start
            print(f"  {label:<28} {count / secs:>10.0f} points/s")


if __name__ == "__main__":
    main()
