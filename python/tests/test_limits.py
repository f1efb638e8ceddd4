"""Limits at the boundary: the one rotation tolerance setting, scale range, queue sizes capped by
the work, numbers that must be numbers (issue 13 items 5, 7 and 9)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import rapidpqp as rp

V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
F = np.array([[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]])


@pytest.fixture(scope="module")
def tet():
    return rp.Model(V, F)


@pytest.fixture
def restore_tolerance():
    before = rp.ROTATION_TOLERANCE
    yield
    rp.ROTATION_TOLERANCE = before


def skewed(eps):
    """A pose whose rotation is off orthonormal by about eps."""
    m = np.eye(4)
    m[0, 1] = eps
    m[0, 3] = 2.5
    return m


def test_rotation_tolerance_is_one_setting_that_works(tet, restore_tolerance):
    assert rp.ROTATION_TOLERANCE == rp.rotation_tolerance() == 1e-5
    assert rp._native.LIB.rpq_rotation_tolerance() == 1e-5
    with pytest.raises(ValueError, match="not a rotation"):
        rp.distance(tet, None, tet, skewed(1e-4))
    rp.ROTATION_TOLERANCE = 1e-3
    assert rp._native.LIB.rpq_rotation_tolerance() == 1e-3, "the library's setting changed"
    d = rp.distance(tet, None, tet, skewed(1e-4)).distance
    assert d == pytest.approx(1.5, abs=1e-3)
    # Batches go through rpq_poses_from_matrices and the queries' own check: same setting.
    b = rp.distance_batch(tet, None, tet, np.stack([skewed(1e-4)] * 3)).distance
    assert np.all(b == d)
    rp.set_rotation_tolerance(1e-5)
    with pytest.raises(ValueError, match="not a rotation"):
        rp.distance_batch(tet, None, tet, np.stack([skewed(1e-4)] * 3))
    for bad in (-1e-6, 0.5, np.nan):
        with pytest.raises(ValueError, match="ROTATION_TOLERANCE"):
            rp.ROTATION_TOLERANCE = bad
    with pytest.raises(TypeError, match="ROTATION_TOLERANCE"):
        rp.ROTATION_TOLERANCE = "1e-3"
    assert rp.ROTATION_TOLERANCE == 1e-5


def test_six_decimal_rotations_pass_by_default(tet):
    rng = np.random.default_rng(5)
    for _ in range(200):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        w, x, y, z = q
        r = np.array(
            [
                [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
            ]
        )
        rp.collide(tet, (np.round(r, 6), np.zeros(3)), tet, None)


def test_scaled_block_equals_explicit_scale(tet):
    three_i = np.diag([3.0, 3.0, 3.0, 1.0])
    three_i[0, 3] = 1.0
    by_block = rp.distance(tet, None, tet, three_i)
    by_scale = rp.distance(tet, None, tet, (np.eye(3), [1.0, 0, 0], 3.0))
    assert by_block.distance == by_scale.distance
    assert rp.Pose(three_i).scale == 3.0


@pytest.mark.parametrize("factor", [1e200, 1e-200, 1e101, 1e-101])
def test_scales_out_of_range_are_refused_by_the_rule(tet, factor):
    m = np.eye(4)
    m[:3, :3] *= factor
    with pytest.raises(ValueError, match="scale must be between 1e-100 and 1e"):
        rp.collide(tet, m, tet, None)
    with pytest.raises(ValueError, match=r"poses2\[1\].*scale must be between"):
        rp.collide_batch(tet, None, tet, np.stack([np.eye(4), m]))
    with pytest.raises(ValueError, match="scale must be between"):
        rp.collide(tet, (np.eye(3), np.zeros(3), factor), tet, None)


def test_scales_at_the_ends_of_the_range_are_accepted(tet):
    for factor in (1e100, 1e-100, 1e99):
        m = np.eye(4)
        m[:3, :3] *= factor
        assert rp.Pose(m).scale == pytest.approx(factor, rel=1e-15)


@pytest.mark.parametrize("bad", ["0.1", b"0.1", True, None, [0.1], object()])
def test_strings_and_other_objects_are_not_numbers(tet, bad):
    with pytest.raises(TypeError):
        rp.distance(tet, None, tet, None, rel_err=bad)
    with pytest.raises(TypeError):
        rp.distance(tet, None, tet, None, abs_err=bad)
    with pytest.raises(TypeError):
        rp.tolerance(tet, None, tet, None, bad)
    with pytest.raises(TypeError):
        rp.tolerance_batch(tet, None, tet, None, bad)
    with pytest.raises(TypeError):
        rp.Pose((np.eye(3), np.zeros(3), bad))


def test_numpy_numbers_are_numbers(tet):
    r = rp.distance(tet, None, tet, None, rel_err=np.float32(0.1), abs_err=np.int64(0))
    assert r.distance == 0.0
    assert rp.tolerance(tet, None, tet, None, np.array(0.5)).closer
    assert rp.Pose((np.eye(3), np.zeros(3), np.float64(2.0))).scale == 2.0


# The queue size used to decide an allocation alone (34 GB for 2**31 - 1, killing the
# interpreter): run in a child so that a failure is reported, not fatal.
HUGE_QSIZE = textwrap.dedent(
    """
    import numpy as np
    import rapidpqp as rp
    V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
    F = np.array([[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]])
    m = rp.Model(V, F)
    poses = np.tile(np.eye(4), (4, 1, 1))
    poses[:, 0, 3] = [2, 3, 4, 5]
    q = 2**31 - 1
    a = rp.distance_batch(m, None, m, poses, qsize=q).distance
    b = rp.tolerance_batch(m, None, m, poses, 0.5, qsize=q).distance
    c = [rp.distance(m, None, m, p, qsize=q).distance for p in poses]
    assert np.all(a == rp.distance_batch(m, None, m, poses).distance), a
    assert list(a) == c
    print("ok")
    """
)


def test_huge_queue_sizes_are_capped():
    done = subprocess.run([sys.executable, "-c", HUGE_QSIZE], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", f"{done.returncode}\n{done.stdout}\n{done.stderr}"


def test_python_and_the_library_check_poses_identically(restore_tolerance):
    """Single poses are checked in Python, batches by rpq_poses_from_matrices: the same
    decisions and bit-identical poses, at every scale and near the tolerance."""
    rng = np.random.default_rng(11)
    lib = rp._native.LIB
    for tolerance in (1e-5, 1e-3):
        rp.ROTATION_TOLERANCE = tolerance
        for trial in range(400):
            q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
            if np.linalg.det(q) < 0:
                q[:, 0] = -q[:, 0]
            q = q + rng.normal(size=(3, 3)) * tolerance * rng.choice([0.1, 0.4, 0.6, 1.0, 3.0])
            m = np.eye(4)
            m[:3, :3] = q * 10.0 ** rng.choice([0, 0, -3, 5, -150, 150, -250, 250, -320, 307])
            m[:3, 3] = rng.normal(size=3)
            out = np.zeros(13)
            status = lib.rpq_poses_from_matrices(m.ctypes.data, 1, tolerance, out.ctypes.data)
            try:
                ours = np.frombuffer(rp.Pose(m)._bytes, dtype=np.float64)
            except ValueError:
                assert status != rp._native.RPQ_OK, (trial, m)
                continue
            assert status == rp._native.RPQ_OK, (trial, status, m)
            assert ours.tobytes() == out.tobytes(), (trial, m)
