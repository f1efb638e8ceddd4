"""Scale invariance through the Python package (a sample of tests/scale_invariance.rs):
scenes of small integers multiplied by 2**k (exact, math.ldexp) answer alike at every scale
from 2**-1064 to 2**990 — sets, booleans and outcomes equal, lengths times 2**k, times and
sweep parameters equal — for collide, distance, tolerance, sweeps, time of impact,
separation, containment, closest points, ray casts and segment hits."""

from __future__ import annotations

import math

import numpy as np
import pytest

import rapidpqp as rp

SCALES = [-1064, -1060, -1040, -1022, -1000, -700, -540, -300, 0, 300, 520, 600, 900, 990]


def box(lo, hi, k):
    """The box [lo, hi] * 2**k: vertices and 12 outward faces."""
    s = math.ldexp(1.0, k)
    v = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])], float) * s
    f = np.array(
        [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
         [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]]
    )  # fmt: skip
    return rp.Model(v, f)


def triangles(tris, k):
    return rp.Model.from_triangles(np.array(tris, float) * math.ldexp(1.0, k))


def at(x, y, z, k):
    m = np.eye(4)
    m[:3, 3] = np.array([x, y, z], float) * math.ldexp(1.0, k)
    return m


TETRAHEDRON = [
    [[0, 0, 0], [0, 8, 0], [8, 0, 0]],
    [[0, 0, 0], [8, 0, 0], [0, 0, 8]],
    [[8, 0, 0], [0, 8, 0], [0, 0, 8]],
    [[0, 8, 0], [0, 0, 0], [0, 0, 8]],
]


@pytest.mark.parametrize("k", SCALES)
def test_boxes_scale(k):
    s = math.ldexp(1.0, k)
    big, small = box((0, 0, 0), (4, 4, 4), k), box((0, 0, 0), (2, 2, 2), k)
    here = np.eye(4)
    assert rp.collide(big, here, small, at(4, 1, 1, k)).colliding  # touching
    assert not rp.collide(big, here, small, at(6, 1, 1, k)).colliding
    d = rp.distance(big, here, small, at(6, 1, 1, k))
    assert d.distance / s == pytest.approx(2.0, abs=1e-12)
    assert rp.tolerance(big, here, small, at(6, 1, 1, k), 2.5 * s).closer
    assert not rp.tolerance(big, here, small, at(6, 1, 1, k), 1.5 * s).closer
    # Overlapping boxes along +z: depth 3; touching: 0.
    sep = rp.separation(big, here, small, at(3, 1, 1, k), direction=[0, 0, 1])
    assert -sep.signed_distance / s == pytest.approx(3.0, abs=1e-9)
    assert rp.separation(big, here, small, at(4, 1, 1, k)).signed_distance == 0.0
    # Sweeping the small box into the big one along -x from 6: first contact after 2.
    r = rp.sweep(small, at(6, 1, 1, k), big, here, [-s, 0, 0], 4.0)
    assert r.hit and 2.0 - 1e-12 < r.s <= 2.0
    r = rp.sweep(small, at(3, 1, 1, k), big, here, [s, 0, 0], 4.0, last_contact=True)
    assert r.hit and 1.0 <= r.s < 1.0 + 1e-12


@pytest.mark.parametrize("k", SCALES)
def test_falling_triangle_scales(k):
    s = math.ldexp(1.0, k)
    small = triangles([[[0, 0, 1], [1, 0, 1], [0, 1, 1]]], k)
    large = triangles([[[-8, -8, 0], [8, -8, 0], [0, 8, 0]]], k)
    here = np.eye(4)
    r = rp.sweep(small, here, large, here, [0, 0, -s], 2.0)
    assert r.hit and 1.0 - 1e-12 < r.s <= 1.0
    toi = rp.time_of_impact(small, here, at(0, 0, -4, k), large, here)
    assert toi.outcome == "contact" and 0.25 - 1e-12 < toi.time <= 0.25


@pytest.mark.parametrize("k", SCALES)
def test_tetrahedron_scales(k):
    s = math.ldexp(1.0, k)
    tet = triangles(TETRAHEDRON, k)
    on = np.array([[0, 0, 0], [8, 0, 0], [0, 8, 0], [0, 0, 8], [4, 4, 0], [0, 4, 4], [2, 2, 4]], float) * s
    assert tet.contains(on).all()
    c = tet.closest_points(on)
    assert c.on_surface.all() and (c.distance == 0).all()
    assert tet.contains(np.array([1.0, 1.0, 1.0]) * s).all()
    assert not tet.contains(np.array([6.0, 6.0, 6.0]) * s).any()
    assert tet.signed_distance(np.array([1.0, 1.0, 1.0]) * s)[0] / s == pytest.approx(-1.0, abs=1e-12)
    # Through the edge x = z = 0 at (0, 4, 0), from 22 steps away.
    origin, direction = np.array([-22.0, 4.0, 22.0]) * s, np.array([1.0, 0.0, -1.0]) * s
    hits = tet.ray_cast(origin, direction)
    assert hits.hit.all() and hits.t[0] == pytest.approx(22.0, abs=1e-12)
    seg = tet.segment_hits(origin, origin + 32 * direction)
    assert len(seg.t) >= 1 and seg.t[0] == pytest.approx(22.0 / 32.0, abs=1e-12)
