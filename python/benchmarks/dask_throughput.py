"""Throughput of rapidpqp.dask on a local cluster: poses per second with 1 and 2 worker
processes (one thread each), beside the single-process batch function on one thread.

    pip install ./python "dask[distributed]" && python python/benchmarks/dask_throughput.py [--quick]

Workload: the bunny of meshes/ (15,536 triangles, scaled 10x to about 1.5 across) against a
UV sphere of radius 1 (264 triangles) at random poses within 1.5 of the bunny's centre, a
first-contact collide each (does it collide or not: the feasibility check of a grasp set or
a roadmap); about 70% of the poses collide. Each figure is the best of 3 timed calls after one warm-up
call, and includes everything a caller waits for: the pose check, sending each model to each
worker, the tasks and gathering. The load average of the machine is printed with the
figures, since other processes share the cores.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np
from distributed import Client, LocalCluster

import rapidpqp as rp
import rapidpqp.dask as rpd

REPO = Path(__file__).resolve().parents[2]


def load_obj(path: Path):
    vertices, faces = [], []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if parts and parts[0] == "v":
                vertices.append([float(x) for x in parts[1:4]])
            elif parts and parts[0] == "f":
                idx = [int(p.split("/")[0]) - 1 for p in parts[1:]]
                faces += [[idx[0], idx[k], idx[k + 1]] for k in range(1, len(idx) - 1)]
    return np.array(vertices), np.array(faces)


def sphere(n: int = 12):
    """UV sphere of radius 1 (closed)."""
    theta = np.pi * np.arange(1, n) / n
    phi = np.pi * np.arange(2 * n) / n
    ring = np.stack([np.outer(np.sin(theta), np.cos(phi)), np.outer(np.sin(theta), np.sin(phi)),
                     np.repeat(np.cos(theta)[:, None], 2 * n, axis=1)], axis=-1).reshape(-1, 3)  # fmt: skip
    vertices = np.vstack([[0.0, 0.0, 1.0], ring, [0.0, 0.0, -1.0]])
    at = lambda i, j: 1 + (i - 1) * 2 * n + j % (2 * n)  # noqa: E731
    faces = [[0, at(1, j), at(1, j + 1)] for j in range(2 * n)]
    faces += [[len(vertices) - 1, at(n - 1, j + 1), at(n - 1, j)] for j in range(2 * n)]
    for i in range(1, n - 1):
        for j in range(2 * n):
            a, b, c, d = at(i, j), at(i, j + 1), at(i + 1, j), at(i + 1, j + 1)
            faces += [[a, c, b], [b, c, d]]
    return vertices, np.array(faces)


def random_poses(rng: np.random.Generator, n: int, centre: np.ndarray, spread: float) -> np.ndarray:
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    w, x, y, z = q.T
    poses = np.zeros((n, 4, 4))
    poses[:, 0, :3] = np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], axis=1)
    poses[:, 1, :3] = np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], axis=1)
    poses[:, 2, :3] = np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], axis=1)
    poses[:, :3, 3] = centre + rng.uniform(-spread, spread, size=(n, 3))
    poses[:, 3, 3] = 1.0
    return poses


def best_of(repeats: int, run) -> float:
    run()  # warm-up: imports and first loads on the workers
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="20,000 poses instead of 200,000")
    parser.add_argument("--chunk", type=int, help="poses per task (default: an eighth of them, at most 20,000)")
    args = parser.parse_args()
    n = 20_000 if args.quick else 200_000
    chunk = args.chunk or min(rpd.DEFAULT_CHUNK, n // 8)

    v, f = load_obj(REPO / "meshes" / "bunny_15k.obj")
    bunny = rp.Model(v * 10.0, f)
    ball = rp.Model(*sphere())
    centre = (v.min(axis=0) + v.max(axis=0)) * 5.0
    poses = random_poses(np.random.default_rng(1), n, centre, 1.5)
    want = rp.collide_batch(bunny, None, ball, poses, True, threads=1)

    print(f"{n} poses, chunk {chunk}; {want.colliding.mean():.0%} collide; {os.cpu_count()} cores")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows = []
    single = best_of(3, lambda: rp.collide_batch(bunny, None, ball, poses, True, threads=1))
    rows.append(("collide_batch, 1 thread, no cluster", single))
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                          silence_logs=40) as cluster, Client(cluster) as client:  # fmt: skip
            got = rpd.collide_poses(client, bunny, ball, None, poses, True, chunk=chunk)
            assert np.array_equal(got.colliding, want.colliding) and np.array_equal(got.num_pairs, want.num_pairs)
            t = best_of(3, lambda: rpd.collide_poses(client, bunny, ball, None, poses, True, chunk=chunk))
            rows.append((f"collide_poses, {workers} worker{'s' if workers > 1 else ''} x 1 thread", t))
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"\n| {'run':<40} | {'time (s)':>8} | {'poses/s':>9} | {'vs batch':>8} |")
    print(f"|{'-' * 42}|{'-' * 9}:|{'-' * 10}:|{'-' * 9}:|")
    for name, t in rows:
        print(f"| {name:<40} | {t:>8.3f} | {n / t:>9,.0f} | {single / t:>7.2f}x |")


if __name__ == "__main__":
    main()
