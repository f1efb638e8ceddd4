"""Points and rays per second through the native C batch functions (``rpq_closest_points``,
``rpq_signed_distance``, ``rpq_contains``, ``rpq_ray_cast``), as a program calling the shared
library sees them, with 1 and 2 threads.

    pip install ./python && python python/benchmarks/solid_rates.py

50,000 points uniform in each mesh's bounding box grown by 10 % (seeded), and 50,000 rays from
a sphere around it towards random points of its box; best of 3 batch calls. Signed distance
and containment only on closed meshes (bunny and dragon_100k have holes). The per-call cost of
the Python layer is a few µs, nothing against a 50,000-point batch.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

import rapidpqp as rp

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python" / "tests"))
from helpers import load_obj  # noqa: E402

N = 50_000


def rate(call) -> float:
    """Thousands of queries per second: the best of 3 calls of a batch of N."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return N / best / 1e3


def main() -> None:
    rng = np.random.default_rng(7)
    print("| mesh | threads | closest /s | signed distance /s | contains /s | ray first hit /s |")
    print("|---|---|---|---|---|---|")
    for name in ["bunny", "dragon_100k", "armadillo_50k"]:
        v, f = load_obj(str(ROOT / "meshes" / f"{name}.obj"))
        m = rp.Model(v, f)
        lo, hi = v.min(0), v.max(0)
        grow = (hi - lo) * 0.1
        points = rng.uniform(lo - grow, hi + grow, (N, 3))
        centre, radius = (lo + hi) / 2, np.linalg.norm(hi - lo)
        d = rng.normal(size=(N, 3))
        origins = centre + d / np.linalg.norm(d, axis=1)[:, None] * radius
        directions = rng.uniform(lo, hi, (N, 3)) - origins
        for t in (1, 2):
            closest = rate(lambda: m.closest_points(points, threads=t))
            signed = f"{rate(lambda: m.signed_distance(points, threads=t)):.0f}k" if m.is_closed else "open"
            inside = f"{rate(lambda: m.contains(points, threads=t)):.0f}k" if m.is_closed else "open"
            rays = rate(lambda: m.ray_cast(origins, directions, threads=t))
            print(f"| {name} | {t} | {closest:.0f}k | {signed} | {inside} | {rays:.0f}k |")


if __name__ == "__main__":
    main()
