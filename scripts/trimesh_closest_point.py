"""trimesh's proximity queries, timed on one thread.

Standalone: closest-point throughput on the bundled meshes, for comparison with
`cargo run --release --example point_queries` (same kinds of points):
`python scripts/trimesh_closest_point.py [points]`.

As the benchmark's peer (`benches/src/solid.rs`, the `solid` scene):
`python scripts/trimesh_closest_point.py --batch QUERY TRIANGLES POINTS OUT`, QUERY one of
`closest`, `signed`, `contains`; TRIANGLES and POINTS raw little-endian doubles (9 per
triangle, 3 per point). Writes one double per point to OUT (the distance; the signed
distance, positive inside as trimesh has it; 1.0 or 0.0 for contains) and prints
`seconds <s> version <trimesh version>`: the query alone, after the mesh's search structures
were built and warmed up on a few points. The points go to trimesh in chunks of 500: its
closest-point search gathers every candidate triangle of every point at once, which took
23 GB for 10,000 points around the bunny. The triangles' corners are welded by exact
equality so that trimesh sees the same closed surface as the benchmark.

Run in a virtual environment with trimesh, numpy, rtree and scipy (`scripts/bench_venv.sh`
makes `target/bench-venv`).
"""

import sys
import time
from pathlib import Path

import numpy as np
import trimesh


def standalone(count: int) -> None:
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


CHUNK = 500


def batch(query: str, triangles: str, points: str, out: str) -> None:
    corners = np.fromfile(triangles, dtype="<f8").reshape(-1, 3)
    vertices, faces = np.unique(corners, axis=0, return_inverse=True)
    mesh = trimesh.Trimesh(vertices=vertices, faces=faces.reshape(-1, 3), process=False)
    pts = np.fromfile(points, dtype="<f8").reshape(-1, 3)
    run = {
        "closest": lambda p: trimesh.proximity.closest_point(mesh, p)[1],
        "signed": lambda p: trimesh.proximity.signed_distance(mesh, p),
        "contains": lambda p: mesh.contains(p).astype(np.float64),
    }[query]
    run(pts[:16])  # builds the r-tree and the ray intersector outside the timing
    start = time.perf_counter()
    answers = np.concatenate([run(pts[i : i + CHUNK]) for i in range(0, len(pts), CHUNK)])
    secs = time.perf_counter() - start
    np.asarray(answers, dtype="<f8").tofile(out)
    print(f"seconds {secs!r} version {trimesh.__version__}")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--batch":
        batch(*sys.argv[2:6])
    else:
        standalone(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000)


if __name__ == "__main__":
    main()
