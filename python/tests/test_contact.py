"""Contact geometry: ``collide(..., geometry=True)``, ``contacts`` and ``intersection_curves``
against numpy brute force (every triangle pair, in floating point, on general-position
inputs) and their documented properties."""

from __future__ import annotations

import numpy as np
import pytest

import rapidpqp as rp
from helpers import place, random_pose, random_soup, sphere_mesh


def pose_tuple(m):
    return m[:3, :3], m[:3, 3], 1.0


def brute_segment(a, b):
    """The intersection segment of two triangles in general position (no vertex on the other's
    plane), or None: each triangle's crossing of the other's plane, overlapped along the
    planes' common line. Also the margin (how far from a decision change the pair is)."""
    na = np.cross(a[1] - a[0], a[2] - a[0])
    nb = np.cross(b[1] - b[0], b[2] - b[0])

    def crossing(t, n, o):
        d = (t - o) @ n
        pts = []
        for i in range(3):
            j = (i + 1) % 3
            if d[i] * d[j] < 0:
                pts.append(t[i] + d[i] / (d[i] - d[j]) * (t[j] - t[i]))
        margin = np.min(np.abs(d)) / (np.linalg.norm(n) * np.abs(t - o).max() + 1e-300)
        return pts, margin

    pa, ma = crossing(a, nb, b[0])
    pb, mb = crossing(b, na, a[0])
    if len(pa) != 2 or len(pb) != 2:
        return None, min(ma, mb)
    d = np.cross(na, nb)
    sa = sorted(pa, key=lambda p: p @ d)
    sb = sorted(pb, key=lambda p: p @ d)
    lo = sa[0] if sa[0] @ d > sb[0] @ d else sb[0]
    hi = sa[1] if sa[1] @ d < sb[1] @ d else sb[1]
    gap = (hi - lo) @ d / np.linalg.norm(d)
    margin = min(ma, mb, abs(gap))
    if gap < 0:
        return None, margin
    return (lo, hi), margin


def soup_model(tris):
    n = len(tris)
    return rp.Model(tris.reshape(-1, 3), np.arange(3 * n).reshape(n, 3))


def test_geometry_matches_numpy_brute_force():
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(12):
        ta, tb = random_soup(rng, 40), random_soup(rng, 40)
        ma, mb = soup_model(ta), soup_model(tb)
        p1, p2 = random_pose(rng, 0.2), random_pose(rng, 0.2)
        plain = rp.collide(ma, p1, mb, p2)
        r = rp.collide(ma, p1, mb, p2, geometry=True)
        assert isinstance(r, rp.CollideResult) and isinstance(r, rp.CollideGeometryResult)
        np.testing.assert_array_equal(r.pairs, plain.pairs)
        g = r.geometry
        assert len(g.points) == len(r.pairs)
        wa, wb = place(pose_tuple(p1), ta), place(pose_tuple(p2), tb)
        found = {tuple(p): k for k, p in enumerate(r.pairs.tolist())}
        for i in range(len(ta)):
            for j in range(len(tb)):
                seg, margin = brute_segment(wa[i], wb[j])
                if margin < 1e-9:
                    continue  # too close to a decision change for floating point
                assert ((i, j) in found) == (seg is not None), (i, j)
                if seg is None:
                    continue
                k = found[(i, j)]
                assert g.num_points[k] == 2
                got = g.pair(k)
                ok = np.allclose(got, seg, atol=1e-9) or np.allclose(got[::-1], seg, atol=1e-9)
                assert ok, (got, seg)
                for tri, n in ((wa[i], g.normal1[k]), (wb[j], g.normal2[k])):
                    want = np.cross(tri[1] - tri[0], tri[2] - tri[0])
                    np.testing.assert_allclose(n, want / np.linalg.norm(want), atol=1e-12)
                assert 0 <= g.error_bound[k] < 1e-9
                checked += 1
    assert checked > 100


def test_result_unpacks_as_before_and_padding_is_nan():
    v, f = sphere_mesh(8)
    m = rp.Model(v, f)
    pose = np.eye(4)
    pose[0, 3] = 1.0
    r = rp.collide(m, None, m, pose, geometry=True)
    pairs, bv, tri = r  # the three fields of CollideResult
    assert len(pairs) > 0 and bv > 0 and tri > 0
    assert r.colliding and r.num_pairs == len(pairs)
    g = r.geometry
    for k in range(len(pairs)):
        n = g.num_points[k]
        assert 1 <= n <= 6
        assert np.isfinite(g.points[k, :n]).all() and np.isnan(g.points[k, n:]).all()
    assert not hasattr(rp.collide(m, None, m, pose), "geometry")
    with pytest.raises(ValueError):
        rp.collide(m, None, m, pose, solid=True, geometry=True)


def test_coplanar_faces_give_polygons_and_touching_a_point():
    square_v = np.array([[0, 0, 0], [2, 0, 0], [2, 2, 0], [0, 2, 0]], dtype=float)
    square_f = np.array([[0, 1, 2], [0, 2, 3]])
    m = rp.Model(square_v, square_f)
    shift = np.eye(4)
    shift[:3, 3] = [0.5, 0.25, 0.0]
    g = rp.collide(m, None, m, shift, geometry=True).geometry
    assert (g.flags & rp._contact.COPLANAR).all()
    assert (g.num_points >= 3).any()
    corner = np.eye(4)
    corner[:3, 3] = [2.0, 2.0, 0.0]  # touching at one corner
    r = rp.collide(m, None, m, corner, geometry=True)
    for k in range(r.num_pairs):
        np.testing.assert_array_equal(r.geometry.pair(k), [[2.0, 2.0, 0.0]])


def test_contact_set_properties():
    v, f = sphere_mesh(12)
    m = rp.Model(v, f)
    rng = np.random.default_rng(3)
    for _ in range(5):
        pose = random_pose(rng, 0.0)
        pose[:3, 3] = [1.0 + 0.3 * rng.random(), 0.2 * rng.random(), 0.1]
        r = rp.collide(m, None, m, pose, geometry=True)
        for tol in (0.0, 1e-9, 0.05):
            c = rp.contacts(m, None, m, pose, tol)
            assert len(c.points) > 0
            d = np.linalg.norm(c.points[:, None] - c.points[None], axis=-1)
            np.fill_diagonal(d, np.inf)
            assert (d > tol).all()
            pts = np.concatenate([r.geometry.pair(k) for k in range(r.num_pairs)])
            near = np.linalg.norm(pts[:, None] - c.points[None], axis=-1).min(axis=1)
            assert (near <= tol).all()
            assert c.counts.sum() == len(pts)
            np.testing.assert_allclose(np.linalg.norm(c.normals, axis=1), 1.0, atol=1e-12)
            # From sphere 1 into sphere 2: along the line of centres.
            assert (c.normals @ (pose[:3, 3] / np.linalg.norm(pose[:3, 3])) > 0.5).all()
    for bad in (-1e-3, float("nan"), float("inf")):
        with pytest.raises(ValueError):
            rp.contacts(m, None, m, pose, bad)
    with pytest.raises(TypeError):
        rp.contacts(m, None, m, pose, "x")


def test_intersection_curves_are_closed_loops_on_closed_meshes():
    v, f = sphere_mesh(16)
    m = rp.Model(v, f)
    rng = np.random.default_rng(11)
    for _ in range(5):
        pose = random_pose(rng, 0.0)
        pose[:3, 3] = rng.uniform(-1.2, 1.2, size=3)
        r = rp.collide(m, None, m, pose, geometry=True)
        curves = rp.intersection_curves(m, None, m, pose)
        if not r.colliding:
            assert curves == []
            continue
        segs = {}
        for k in range(r.num_pairs):
            if r.geometry.num_points[k] == 2:
                a, b = r.geometry.pair(k)
                if (a != b).any():
                    key = tuple(sorted([tuple(a), tuple(b)]))
                    segs[key] = np.linalg.norm(b - a)
        used = set()
        length = 0.0
        for c in curves:
            assert c.shape[1] == 3 and len(c) >= 4
            np.testing.assert_array_equal(c[0], c[-1])  # closed: first point repeated
            for a, b in zip(c[:-1], c[1:]):
                key = tuple(sorted([tuple(a), tuple(b)]))
                assert key in segs and key not in used
                used.add(key)
                length += np.linalg.norm(b - a)
        assert used == set(segs)
        assert abs(length - sum(segs.values())) <= 1e-12 * max(1.0, length)


def test_bad_poses_are_refused():
    v, f = sphere_mesh(6)
    m = rp.Model(v, f)
    bad = np.eye(4)
    bad[0, 3] = np.nan
    for call in (
        lambda: rp.contacts(m, None, m, bad, 0.0),
        lambda: rp.intersection_curves(m, None, m, bad),
        lambda: rp.collide(m, None, m, bad, geometry=True),
    ):
        with pytest.raises(ValueError):
            call()
