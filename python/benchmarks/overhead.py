"""Python-vs-C cost per query, and the speed-up of batches on all cores.

    pip install ./python && python python/benchmarks/overhead.py [--quick]

The same model (the bunny of meshes/, loaded in C from the bytes of `Model.to_bytes`, so the
hierarchy is identical) and the same poses are queried from a small C program linked against
the package's shared library (compiled here with `cc`) and from Python. Two pose sets: `far`
(models far apart: the queries stop at the root, so the time is almost all call overhead) and
`near` (a sweep through contact: typical queries).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import rapidpqp as rp

REPO = Path(__file__).resolve().parents[2]

C_SOURCE = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct { double rotation[9], translation[3], scale; } RpqPose;
typedef struct { double distance, p1[3], p2[3]; int closer; uint64_t bv_tests, tri_tests; } RpqDistanceResult;
typedef struct { double tolerance; int qsize; } RpqToleranceRequest;
typedef struct RpqModel RpqModel;
typedef struct RpqCollideResult RpqCollideResult;
int rpq_model_deserialize(const uint8_t *buf, size_t len, RpqModel **out);
RpqCollideResult *rpq_collide_result_new(void);
int rpq_collide(const RpqModel *, const RpqPose *, const RpqModel *, const RpqPose *, const void *, RpqCollideResult *);
size_t rpq_collide_result_num_pairs(const RpqCollideResult *);
int rpq_distance(const RpqModel *, const RpqPose *, const RpqModel *, const RpqPose *, const void *, void *, RpqDistanceResult *);
int rpq_tolerance(const RpqModel *, const RpqPose *, const RpqModel *, const RpqPose *, const RpqToleranceRequest *, RpqDistanceResult *);

static void *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(1); }
    fseek(f, 0, SEEK_END); *len = (size_t)ftell(f); fseek(f, 0, SEEK_SET);
    void *buf = malloc(*len);
    if (fread(buf, 1, *len, f) != *len) { perror(path); exit(1); }
    fclose(f);
    return buf;
}

static double now(void) {
    struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
    size_t len, plen;
    uint8_t *bytes = slurp(argv[1], &len);
    RpqPose *poses = slurp(argv[2], &plen);
    size_t n = plen / sizeof(RpqPose);
    int reps = atoi(argv[3]);
    RpqToleranceRequest tol = {atof(argv[4]), 2};
    RpqModel *m;
    if (rpq_model_deserialize(bytes, len, &m)) { fprintf(stderr, "bad model\n"); return 1; }
    RpqPose id = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}, 1};
    RpqCollideResult *cr = rpq_collide_result_new();
    RpqDistanceResult dr;
    volatile double sink = 0;
    for (int q = 0; q < 3; q++) {
        double start = now();
        for (int r = 0; r < reps; r++)
            for (size_t i = 0; i < n; i++) {
                if (q == 0) { rpq_collide(m, &id, m, &poses[i], NULL, cr); sink += rpq_collide_result_num_pairs(cr); }
                if (q == 1) { rpq_distance(m, &id, m, &poses[i], NULL, NULL, &dr); sink += dr.distance; }
                if (q == 2) { rpq_tolerance(m, &id, m, &poses[i], &tol, &dr); sink += dr.closer; }
            }
        printf("%.6e\n", (now() - start) / ((double)reps * n));
    }
    return 0;
}
"""


def load_obj(path):
    v, f = [], []
    for line in open(path):
        if line.startswith("v "):
            v.append([float(x) for x in line.split()[1:4]])
        elif line.startswith("f "):
            idx = [int(p.split("/")[0]) - 1 for p in line.split()[1:]]
            f += [[idx[0], idx[k], idx[k + 1]] for k in range(1, len(idx) - 1)]
    return np.array(v), np.array(f)


def sweep(n, x0, x1, y, rng):
    poses = np.tile(np.eye(4), (n, 1, 1))
    for k in range(n):
        a = rng.uniform(0, 2 * np.pi)
        c, s = np.cos(a), np.sin(a)
        poses[k, :3, :3] = [[c, -s, 0], [s, c, 0], [0, 0, 1]]
        poses[k, :3, 3] = (x0 + (x1 - x0) * k / max(n - 1, 1), y, 0.0)
    return poses


def best_of(runs, fn):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def timed(fn):
    """Wall time and cores used (process CPU time / wall time) of the fastest of 3 runs."""
    best = (float("inf"), 0.0)
    for _ in range(3):
        cpu, wall = time.process_time(), time.perf_counter()
        fn()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        best = min(best, (wall, cpu / wall))
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    reps = 1 if args.quick else 3

    v, f = load_obj(REPO / "meshes" / "bunny_15k.obj")
    v -= v.mean(axis=0)
    model = rp.Model(v, f)
    extent = float(np.ptp(v, axis=0).max())
    rng = np.random.default_rng(7)
    sets = {
        "far": sweep(2000, 5 * extent, 6 * extent, 0.0, rng),
        "near": sweep(400, -1.3 * extent, 1.3 * extent, 0.05 * extent, rng),
    }
    tol = 0.05 * extent

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "model.bin").write_bytes(model.to_bytes())
        (tmp / "bench.c").write_text(C_SOURCE)
        lib = rp.LIBRARY_PATH
        exe = tmp / "bench"
        subprocess.run(
            [os.environ.get("CC", "cc"), "-O2", str(tmp / "bench.c"), str(lib), f"-Wl,-rpath,{lib.parent}", "-o", str(exe)],
            check=True,
        )
        print(f"bunny_15k: {model.num_triangles} triangles; library {lib}")
        print(f"{'poses':<6} {'query':<10} {'C us/query':>11} {'Python us':>10} {'Py+Pose us':>11} {'overhead us':>12}")
        for name, poses in sets.items():
            pose_file = tmp / f"{name}.bin"
            packed = np.concatenate(
                [poses[:, :3, :3].reshape(-1, 9), poses[:, :3, 3], np.ones((len(poses), 1))], axis=1
            )
            pose_file.write_bytes(np.ascontiguousarray(packed).tobytes())
            c_reps = max(reps, 20 if name == "far" else reps)
            out = subprocess.run([str(exe), str(tmp / "model.bin"), str(pose_file), str(c_reps), repr(tol)],
                                 check=True, capture_output=True, text=True).stdout.split()
            c_times = [float(x) for x in out]
            pose_objs = [rp.Pose(p) for p in poses]
            calls = {
                "collide": lambda p: rp.collide(model, None, model, p),
                "distance": lambda p: rp.distance(model, None, model, p),
                "tolerance": lambda p: rp.tolerance(model, None, model, p, tol),
            }
            for (query, call), c_time in zip(calls.items(), c_times):
                py = best_of(reps, lambda: [call(p) for p in poses]) / len(poses)
                py_pose = best_of(reps, lambda: [call(p) for p in pose_objs]) / len(poses)
                print(f"{name:<6} {query:<10} {1e6 * c_time:>11.2f} {1e6 * py:>10.2f} {1e6 * py_pose:>11.2f} "
                      f"{1e6 * (py - c_time):>12.2f}")

    print()
    cores = os.cpu_count()
    print(f"batches on the `near` poses x{4}: threads=1 vs threads=0 (all {cores} cores) vs a Python loop")
    poses = np.concatenate([sets["near"]] * 4)
    for query, batch, single in (
        ("collide", lambda t: rp.collide_batch(model, None, model, poses, threads=t),
         lambda p: rp.collide(model, None, model, p)),
        ("distance", lambda t: rp.distance_batch(model, None, model, poses, threads=t),
         lambda p: rp.distance(model, None, model, p)),
        ("tolerance", lambda t: rp.tolerance_batch(model, None, model, poses, tol, threads=t),
         lambda p: rp.tolerance(model, None, model, p, tol)),
    ):  # fmt: skip
        one, _ = timed(lambda: batch(1))
        all_cores, used = timed(lambda: batch(0))
        loop = best_of(1, lambda: [single(p) for p in poses])
        print(f"{query:<10} {len(poses)} poses: 1 thread {1e3 * one:8.1f} ms, all cores {1e3 * all_cores:8.1f} ms "
              f"(x{one / all_cores:.2f}, {used:.2f} cores busy), Python loop {1e3 * loop:8.1f} ms "
              f"(batch x{loop / all_cores:.2f} faster)")
    print("(a speed-up below the core count with fewer cores busy means other processes held the CPU)")


if __name__ == "__main__":
    sys.exit(main())
