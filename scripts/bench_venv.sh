#!/usr/bin/env bash
# Creates target/bench-venv with trimesh, rtree and scipy: the trimesh peer of the benchmark's
# `solid` scene (benches/src/solid.rs runs scripts/trimesh_closest_point.py in it). Idempotent:
# does nothing when the venv already imports them. Needs PyPI; without it the scene runs
# without the trimesh columns. The library itself never depends on Python.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=target/bench-venv
check() { "$VENV/bin/python" -c 'import trimesh, rtree, scipy, numpy' 2>/dev/null; }

if [ -x "$VENV/bin/python" ] && check; then
    echo "bench venv ready (trimesh $("$VENV/bin/python" -c 'import trimesh; print(trimesh.__version__)'))"
    exit 0
fi
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check 'trimesh>=4' rtree scipy numpy
check && echo "bench venv ready" || { echo "bench_venv.sh: the venv does not import trimesh, rtree and scipy" >&2; exit 1; }
