"""Translational sweeps, time of impact and removal directions: known answers on cubes, a bar
turning into a post and a peg in a hole; sweeps of boxes against the exact slab intervals;
contacts bracketed by ``rapidpqp.collide``; batches against single calls; argument errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

import rapidpqp as rp
from helpers import MESHES, load_obj


def box(lo, hi):
    """The box [lo, hi]: vertices and 12 faces, counter-clockwise seen from outside."""
    v = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])], float)
    f = np.array(
        [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
         [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]]
    )  # fmt: skip
    return v, f


def box_model(lo, hi):
    return rp.Model(*box(lo, hi))


def at(x, y=0.0, z=0.0):
    m = np.eye(4)
    m[:3, 3] = (x, y, z)
    return m


def turned(angle):
    m = np.eye(4)
    c, s = math.cos(angle), math.sin(angle)
    m[:2, :2] = [[c, -s], [s, c]]
    return m


class FakeMesh:
    """Duck-typed mesh (what trimesh.Trimesh offers: .vertices and .faces)."""

    def __init__(self, vertices, faces):
        self.vertices, self.faces = vertices, faces


@pytest.fixture(scope="module")
def cube():
    return box_model((-1, -1, -1), (1, 1, 1))


def touching(a, pa, b, pb):
    return rp.collide(a, pa, b, pb, first_contact=True).colliding


# ---------------------------------------------------------------------------------------------
# Sweeps


def test_cube_along_an_axis(cube):
    r = rp.sweep(cube, at(-5), cube, None, [1, 0, 0], 10)
    assert r.hit and 3 - 1e-12 <= r.s <= 3
    assert r.point[0] == pytest.approx(-1, abs=1e-12) and r.point2[0] == pytest.approx(-1, abs=1e-12)
    assert r.point1[0] == pytest.approx(1, abs=1e-12)
    assert 0 <= r.ids[0] < 12 and 0 <= r.ids[1] < 12 and r.triangles is not None
    assert r.bv_tests > 0 and r.tri_tests > 0
    # s counts lengths of the direction.
    assert rp.sweep(cube, at(-5), cube, None, [2, 0, 0], 10).s == pytest.approx(1.5, abs=1e-12)
    # Cut short before the contact: none.
    short = rp.sweep(cube, at(-5), cube, None, [1, 0, 0], 2.9)
    assert not short.hit and short.s == math.inf and short.ids is None and short.triangles is None
    assert np.isnan(short.point).all() and np.isnan(short.point1).all() and np.isnan(short.point2).all()


def test_cube_along_a_diagonal_and_a_miss(cube):
    r = rp.sweep(cube, at(-5, -5), cube, None, [1, 1, 0], 10)
    assert r.hit and 3 - 1e-12 <= r.s <= 3
    np.testing.assert_allclose(r.point[:2], [-1, -1], atol=1e-12)
    unit = rp.sweep(cube, at(-5, -5), cube, None, np.array([1, 1, 0]) / math.sqrt(2), 10)
    assert unit.s == pytest.approx(3 * math.sqrt(2), abs=1e-11)
    assert not rp.sweep(cube, at(-5, 3), cube, None, [1, 0, 0], 100).hit


def test_touching_at_the_start_and_last_contacts(cube):
    for d in ([1, 0, 0], [-1, 0, 0]):
        r = rp.sweep(cube, at(2), cube, None, d, 5)
        assert r.hit and r.s == 0.0
    assert rp.sweep(cube, at(2), cube, None, [0, 0, 0], 0).hit
    assert not rp.sweep(cube, at(5), cube, None, [0, 0, 0], 0).hit
    # Overlapping by 0.5: the last contact is where they part.
    assert rp.sweep(cube, at(1.5), cube, None, [1, 0, 0], 10).s == 0.0
    last = rp.sweep(cube, at(1.5), cube, None, [1, 0, 0], 10, last_contact=True)
    assert last.hit and 0.5 <= last.s <= 0.5 + 1e-12
    assert 3.5 <= rp.sweep(cube, at(1.5), cube, None, [-1, 0, 0], 10, last_contact=True).s <= 3.5 + 1e-12
    assert rp.sweep(cube, at(1.5), cube, None, [1, 0, 0], 0.3, last_contact=True).s == 0.3
    assert not rp.sweep(cube, at(-5, 3), cube, None, [1, 0, 0], 100, last_contact=True).hit


def slab_interval(c1, c2, half, d):
    """The exact times s at which the box of half sizes ``half`` about ``c1 + s d`` meets the one
    about ``c2``: the intersection of the per-axis slabs, or None."""
    lo, hi = -math.inf, math.inf
    for k in range(3):
        gap = c2[k] - c1[k]
        if d[k] == 0:
            if abs(gap) > half[k]:
                return None
            continue
        a, b = (gap - half[k]) / d[k], (gap + half[k]) / d[k]
        lo, hi = max(lo, min(a, b)), min(hi, max(a, b))
    return (lo, hi) if lo <= hi else None


def test_box_sweeps_against_the_exact_slab_intervals():
    rng = np.random.default_rng(15)
    # Neither box fits inside the other, so the solids overlap exactly when the surfaces meet
    # (the sweep is of the surfaces).
    a, b = box_model((-2, -0.3, -0.2), (2, 0.3, 0.2)), box_model((-0.5, -1, -1), (0.5, 1, 1))
    half = np.array([2.5, 1.3, 1.2])  # the sums of the half sizes
    hits = misses = 0
    for _ in range(150):
        c1 = rng.uniform(-4, 4, 3)
        d = (rng.normal(size=3) * 2 - c1) * rng.uniform(0.1, 1)  # towards the origin, roughly
        s_max = rng.uniform(0.5, 6)
        span = slab_interval(c1, np.zeros(3), half, d)
        first = rp.sweep(a, at(*c1), b, None, d, s_max)
        last = rp.sweep(a, at(*c1), b, None, d, s_max, last_contact=True)
        if span is None or span[1] < 0 or span[0] > s_max:
            misses += 1
            # (A contact within rounding of an end of the sweep may be reported either way.)
            near_end = span is not None and (span[1] > -1e-9 and span[0] < s_max + 1e-9)
            assert near_end or not (first.hit or last.hit), (c1, d, s_max, span)
            continue
        lo, hi = max(span[0], 0.0), min(span[1], s_max)
        hits += 1
        assert first.hit and last.hit
        assert lo - 1e-9 <= first.s <= lo + 1e-12, (first.s, lo)
        assert hi - 1e-12 <= last.s <= hi + 1e-9, (last.s, hi)
        # Bracketed by the exact collide: touching a little after the first contact.
        assert touching(a, at(*(c1 + (first.s + 1e-7) * d)), b, None)
        if first.s > 1e-6:
            assert not touching(a, at(*(c1 + (first.s - 1e-6) * d)), b, None)
    assert hits >= 40 and misses >= 40, (hits, misses)


def test_batches_equal_single_calls():
    v, f = load_obj(MESHES / "fandisk.obj")
    m = rp.Model(v, f)
    mesh = FakeMesh(v, f)
    pose = turned(0.5)
    pose[:3, 3] = (16, -6, 2)
    rng = np.random.default_rng(7)
    dirs = np.array([-8.4, 6.7, -2.0]) + rng.uniform(-10, 10, (24, 3)) * [1, 1, 0.5]
    for last in (False, True):
        one = rp.sweep_batch(m, pose, m, None, dirs, 3.0, last_contact=last, threads=1)
        two = rp.sweep_batch(mesh, pose, m, None, dirs, 3.0, last_contact=last, threads=2)
        for k, d in enumerate(dirs):
            r = rp.sweep(m, pose, m, None, d, 3.0, last_contact=last)
            for b in (one, two):
                assert b.hit[k] == r.hit and b.s[k] == r.s or (np.isinf(b.s[k]) and np.isinf(r.s))
                assert b.bv_tests[k] == r.bv_tests and b.tri_tests[k] == r.tri_tests
                if r.hit:
                    assert tuple(b.ids[k]) == r.ids and tuple(b.triangles[k]) == r.triangles
                    np.testing.assert_array_equal(b.point[k], r.point)
                    np.testing.assert_array_equal(b.point1[k], r.point1)
                    np.testing.assert_array_equal(b.point2[k], r.point2)
                else:
                    assert tuple(b.ids[k]) == (-1, -1) and tuple(b.triangles[k]) == (-1, -1)
                    assert np.isnan(b.point[k]).all()
        assert 4 <= one.hit.sum() <= 20
    empty = rp.sweep_batch(m, pose, m, None, np.zeros((0, 3)), 3.0)
    assert empty.hit.shape == (0,) and empty.point.shape == (0, 3)
    single = rp.sweep_batch(m, pose, m, None, dirs[0], 3.0)
    assert single.hit.shape == (1,)


# ---------------------------------------------------------------------------------------------
# Time of impact


@pytest.fixture(scope="module")
def bar_and_post():
    return box_model((0, -0.05, -0.05), (2, 0.05, 0.05)), box_model((-0.1, 1, -1), (0.1, 1.2, 1))


def test_a_turning_bar_hits_a_post(bar_and_post):
    # As query::toi::tests::a_turning_bar_hits_a_post: the bar's long edge meets the post's
    # corner (0.1, 1.0) at angle atan2(1, 0.1) - asin(0.05 / |(0.1, 1)|).
    bar, post = bar_and_post
    exact = (math.atan2(1.0, 0.1) - math.asin(0.05 / math.hypot(0.1, 1.0))) / (math.pi / 2)
    t = rp.time_of_impact(bar, None, turned(math.pi / 2), post, None, tolerance=1e-4)
    assert t.outcome == "contact" and t.time <= exact and exact - t.time < 1e-3
    assert 0 <= t.distance <= 1e-4 and 1 < t.steps < 10000 and t.bv_tests > 0
    np.testing.assert_allclose(t.pose, turned(t.time * math.pi / 2), atol=1e-12)
    # Bracketed by the exact collide: apart at every sampled time before, touching after.
    for k in range(100):
        assert not touching(bar, turned(t.time * k / 100 * math.pi / 2), post, None)
    assert touching(bar, turned((exact + 1e-3) * math.pi / 2), post, None)
    # The default tolerance: also never late.
    d = rp.time_of_impact(bar, None, turned(math.pi / 2), post, None)
    assert d.outcome == "contact" and d.time <= exact and exact - d.time < 1e-2
    # One step: the budget runs out at the start.
    s = rp.time_of_impact(bar, None, turned(math.pi / 2), post, None, tolerance=1e-4, max_steps=1)
    assert s.outcome == "step_limit" and s.steps == 1 and s.time < exact


def test_free_motions_and_translations(bar_and_post, cube):
    bar, post = bar_and_post
    t = rp.time_of_impact(bar, None, turned(-math.pi / 2), post, None, tolerance=1e-4)
    assert t.outcome == "free" and t.time == 1.0 and t.distance > 0
    np.testing.assert_allclose(t.pose, turned(-math.pi / 2), atol=1e-12)
    # A pure translation is swept exactly.
    t = rp.time_of_impact(cube, at(-5), at(5), cube, None)
    assert t.outcome == "contact" and 0.3 - 1e-12 < t.time <= 0.3
    assert t.pose[0, 3] == pytest.approx(-2, abs=1e-11)
    assert rp.time_of_impact(cube, at(-5, 3), at(5, 3), cube, None).outcome == "free"


# ---------------------------------------------------------------------------------------------
# Removal directions


def test_a_peg_in_a_hole_comes_out_along_its_axis_only():
    # As query::disassembly::tests::a_peg_in_a_hole_comes_out_along_its_axis_only.
    parts = [
        box_model((-0.5, -0.5, 0.01), (0.5, 0.5, 3.0)),
        box_model((-1.5, -1.5, 0.0), (-0.51, 1.5, 2.0)),
        box_model((0.51, -1.5, 0.0), (1.5, 1.5, 2.0)),
        box_model((-0.51, -1.5, 0.0), (0.51, -0.51, 2.0)),
        FakeMesh(*box((-0.51, 0.51, 0.0), (0.51, 1.5, 2.0))),
        box_model((-1.5, -1.5, -1.0), (1.5, 1.5, 0.0)),
        box_model((10.0, 10.0, 0.0), (11.0, 11.0, 1.0)),
    ]
    axes = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], float)
    r = rp.removal_directions(parts, None, 0, axes)
    np.testing.assert_array_equal(r.blocker, [2, 1, 4, 3, -1, 5])
    np.testing.assert_array_equal(r.free, [False, False, False, False, True, False])
    assert r.free_distance[4] == math.inf and np.isnan(r.point[4]).all() and tuple(r.ids[4]) == (-1, -1)
    blocked = ~r.free
    np.testing.assert_allclose(r.free_distance[blocked], 0.01, atol=1e-12)
    assert (r.culled >= 1).all() and (r.swept[blocked] >= 1).all() and (r.ids[blocked] >= 0).all()
    np.testing.assert_array_equal(r.direction, axes)
    # Pulled only 0.005 sideways it is free; the diagonal up and out is blocked by a wall.
    short = rp.removal_directions(parts, [None] * 7, 0, [1, 0, 0], distance=0.005)
    assert short.free[0] and short.free_distance[0] == 0.005
    diag = rp.removal_directions(parts, None, 0, [2, 0, 2])
    assert not diag.free[0] and diag.blocker[0] == 2
    assert diag.free_distance[0] == pytest.approx(0.01 * math.sqrt(2), abs=1e-12)
    np.testing.assert_allclose(diag.direction[0], [1 / math.sqrt(2), 0, 1 / math.sqrt(2)])
    # The blocked travel agrees with the pair's own sweep.
    s = rp.sweep(parts[0], None, parts[2], None, [1, 0, 0], 1.0)
    assert s.s == r.free_distance[0]


# ---------------------------------------------------------------------------------------------
# Errors


def test_argument_errors(cube):
    with pytest.raises(ValueError, match="direction: must be nonzero"):
        rp.sweep(cube, None, cube, None, [0, 0, 0], 1)  # zero direction, distance > 0
    for bad in (-1, math.nan, math.inf):
        with pytest.raises(ValueError):
            rp.sweep(cube, None, cube, None, [1, 0, 0], bad)
        with pytest.raises(ValueError):
            rp.sweep_batch(cube, None, cube, None, [[1, 0, 0]], bad)
    for bad in ([math.nan, 0, 0], [0, math.inf, 0], [1, 0], [[1, 0, 0]]):
        with pytest.raises(ValueError):
            rp.sweep(cube, None, cube, None, bad, 1)
    with pytest.raises(ValueError, match=r"directions\[1\]: must be nonzero"):
        rp.sweep_batch(cube, None, cube, None, [[1, 0, 0], [0, 0, 0]], 1)
    assert rp.sweep_batch(cube, at(2), cube, None, [[1, 0, 0], [0, 0, 0]], 0).hit.all()
    with pytest.raises(ValueError):
        rp.sweep_batch(cube, None, cube, None, [[1, 0, 0], [0, math.nan, 0]], 1, threads=2)
    with pytest.raises(TypeError):
        rp.sweep("cube", None, cube, None, [1, 0, 0], 1)
    with pytest.raises(TypeError):
        rp.sweep(cube, None, cube, None, [1, 0, 0], "1")
    with pytest.raises(ValueError):
        rp.sweep(cube, at(math.nan), cube, None, [1, 0, 0], 1)

    scaled = (np.eye(3), np.zeros(3), 2.0)
    with pytest.raises(ValueError):
        rp.time_of_impact(cube, None, scaled, cube, at(5))  # different scales
    for bad in (math.nan, -1.0):
        with pytest.raises(ValueError):
            rp.time_of_impact(cube, None, at(1), cube, at(5), tolerance=bad)
    with pytest.raises(ValueError):
        rp.time_of_impact(cube, None, at(1), cube, at(5), max_steps=0)
    with pytest.raises(TypeError):
        rp.time_of_impact(cube, None, at(1), cube, at(5), max_steps=1.5)

    with pytest.raises(ValueError):
        rp.removal_directions([cube, cube], None, 2, [1, 0, 0])  # moving out of range
    with pytest.raises(ValueError):
        rp.removal_directions([], None, 0, [1, 0, 0])  # no parts
    with pytest.raises(ValueError):
        rp.removal_directions([cube, cube], [None], 0, [1, 0, 0])
    with pytest.raises(ValueError, match=r"directions\[0\]: must be nonzero"):
        rp.removal_directions([cube, cube], [at(-5), None], 0, [0, 0, 0])
    with pytest.raises(ValueError):
        rp.removal_directions([cube, cube], [at(-5), None], 0, [1, 0, 0], distance=-1)
    with pytest.raises(ValueError):
        rp.removal_directions([cube, cube], [at(-5), None], 0, [1, 0, 0], distance=math.nan)
    with pytest.raises(TypeError):
        rp.removal_directions(cube, None, 0, [1, 0, 0])
    with pytest.raises(TypeError):
        rp.removal_directions([cube, "cube"], None, 0, [1, 0, 0])
    # No directions: fine.
    assert rp.removal_directions([cube, cube], [at(-5), None], 0, np.zeros((0, 3))).free.shape == (0,)
