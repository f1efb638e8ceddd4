"""The native handles behind models stay out of reach, and a handle forced in anyway cannot
crash the interpreter: the library checks every handle against its registry."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import rapidpqp as rp

V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
F = np.array([[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]])


def test_models_are_immutable():
    m = rp.Model(V, F)
    for name in ("_handle", "_num_triangles", "anything"):
        with pytest.raises(AttributeError, match="immutable"):
            setattr(m, name, 12345)
        with pytest.raises(AttributeError):
            delattr(m, name)
    assert rp.collide(m, None, m, None).colliding
    assert m.num_triangles == 4


# Run in a child interpreter: a crash there fails this test instead of killing pytest.
FORCED = textwrap.dedent(
    """
    import gc
    import numpy as np
    import rapidpqp as rp

    V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
    F = np.array([[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]])
    good = rp.Model(V, F)
    freed = rp.Model(V, F)
    freed_handle = freed._handle
    del freed
    gc.collect()
    ok = 0
    for bad in (12345, 0xDEADBEEF0, 2**63 - 8, freed_handle, id(good), 16):
        m = rp.Model(V, F)
        object.__setattr__(m, "_handle", bad)
        calls = [
            lambda: rp.collide(m, None, good, None),
            lambda: rp.distance(good, None, m, None),
            lambda: rp.tolerance(m, None, good, None, 0.1),
            lambda: rp.collide_batch(m, np.eye(4)[None], good, None),
            lambda: rp.distance_batch(good, None, m, np.eye(4)[None]),
            lambda: rp.tolerance_batch(m, None, good, None, 0.1),
            lambda: m.to_bytes(),
        ]
        for call in calls:
            try:
                call()
            except ValueError as e:
                assert "handle" in str(e), e
                ok += 1
        assert m.memory_bytes == 0
        del m  # frees the made-up handle: ignored
        gc.collect()
    assert rp.collide(good, None, good, None).colliding
    print("ok", ok)
    """
)


def test_forced_handles_raise_instead_of_crashing():
    done = subprocess.run([sys.executable, "-c", FORCED], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"child failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    assert done.stdout.split() == ["ok", str(6 * 7)]
    assert done.stderr == ""


def test_tampered_distance_cache_is_harmless():
    m = rp.Model(V, F)
    cache = rp.DistanceCache()
    pose = np.eye(4)
    pose[0, 3] = 3.0
    want = rp.distance(m, None, m, pose).distance
    for raw in (b"\xff" * 12, b"x" * 100000, b"", 5):
        object.__setattr__(cache, "_raw", raw)
        assert rp.distance(m, None, m, pose, cache=cache).distance == want
