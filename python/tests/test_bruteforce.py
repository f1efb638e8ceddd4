"""Small random meshes at random poses against numpy brute force over all triangle pairs."""

from __future__ import annotations

import numpy as np
import pytest

import rapidpqp as rp
from helpers import place, random_pose, random_soup, sphere_mesh, triangle_distances, triangle_pair_gaps

# Pairs closer to touching than this (relative) are left to the exact tests of the Rust suite.
MARGIN = 1e-9


def world(tris, pose):
    return tris @ pose[:3, :3].T + pose[:3, 3]


def brute_force(t1, pose1, t2, pose2):
    """(certainly intersecting pairs, uncertain pairs, minimum distance or None if unsure)."""
    w1, w2 = world(t1, pose1), world(t2, pose2)
    gaps = triangle_pair_gaps(w1, w2)
    hit = {tuple(p) for p in np.argwhere(gaps < -MARGIN).tolist()}
    unsure = {tuple(p) for p in np.argwhere(np.abs(gaps) <= MARGIN).tolist()}
    if hit:
        return hit, unsure, 0.0
    if unsure:
        return hit, unsure, None
    return hit, unsure, float(triangle_distances(w1, w2).min())


@pytest.mark.parametrize("seed", range(6))
def test_random_soups(seed):
    rng = np.random.default_rng(seed)
    t1 = random_soup(rng, 30 + 5 * seed)
    t2 = random_soup(rng, 25)
    m1, m2 = rp.Model.from_triangles(t1), rp.Model.from_triangles(t2)
    colliding_seen = separate_seen = 0
    for _ in range(25):
        pose1, pose2 = random_pose(rng, 0.3), random_pose(rng, 0.8)
        hit, unsure, best = brute_force(t1, pose1, t2, pose2)
        r = rp.collide(m1, pose1, m2, pose2)
        got = set(map(tuple, r.pairs.tolist()))
        assert hit <= got, f"missed contacts {sorted(hit - got)}"
        assert got <= hit | unsure, f"false contacts {sorted(got - hit - unsure)}"
        first = rp.collide(m1, pose1, m2, pose2, first_contact=True)
        assert first.num_pairs == (1 if got else 0)
        assert set(map(tuple, first.pairs.tolist())) <= got
        d = rp.distance(m1, pose1, m2, pose2)
        if best is not None:
            assert d.distance == pytest.approx(best, rel=1e-9, abs=1e-12)
            w1, w2 = place((pose1[:3, :3], pose1[:3, 3], 1.0), d.p1), place((pose2[:3, :3], pose2[:3, 3], 1.0), d.p2)
            assert np.linalg.norm(w1 - w2) == pytest.approx(d.distance, rel=1e-9, abs=1e-12)
            for t in (0.5 * best, 1.5 * best + 1e-9):
                assert rp.tolerance(m1, pose1, m2, pose2, t).closer == (best <= t)
            # Approximate queries stay within their error bounds.
            approx = rp.distance(m1, pose1, m2, pose2, rel_err=0.1, abs_err=0.0).distance
            assert best - 1e-12 <= approx <= best * 1.1 + 1e-12
            approx = rp.distance(m1, pose1, m2, pose2, abs_err=0.05, qsize=8).distance
            assert best - 1e-12 <= approx <= best + 0.05 + 1e-12
        if hit:
            colliding_seen += 1
        elif best is not None:
            separate_seen += 1
    assert colliding_seen > 0 and separate_seen > 0, "the poses should cover both outcomes"


@pytest.mark.parametrize("seed", range(3))
def test_spheres_with_scale(seed):
    """Closed meshes, indexed input, ids, a uniform scale given through a 4x4 matrix."""
    rng = np.random.default_rng(100 + seed)
    v, f = sphere_mesh(4)
    ids = np.arange(len(f)) * 10 + 3
    m = rp.Model(v, f, ids=ids)
    tris = v[f]
    for _ in range(10):
        pose1 = random_pose(rng, 0.2)
        pose2 = random_pose(rng, 1.5)
        scale = rng.uniform(0.5, 1.5)
        scaled = pose2.copy()
        scaled[:3, :3] *= scale
        hit, unsure, best = brute_force(tris, pose1, tris, scaled)
        got = {(a // 10, b // 10) for a, b in rp.collide(m, pose1, m, scaled).pairs.tolist()}
        assert hit <= got <= hit | unsure
        # The same pose given as (R, t, scale).
        got2 = {(a // 10, b // 10) for a, b in rp.collide(m, pose1, m, (pose2[:3, :3], pose2[:3, 3], scale)).pairs.tolist()}
        assert got2 == got
        if best is not None:
            assert rp.distance(m, pose1, m, scaled).distance == pytest.approx(best, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_box_tests_and_frames_agree(seed):
    """Every box test prunes differently but must report the same pairs, in either frame."""
    rng = np.random.default_rng(100 + seed)
    t1, t2 = random_soup(rng, 40), random_soup(rng, 35)
    m1, m2 = rp.Model.from_triangles(t1), rp.Model.from_triangles(t2)
    poses = [(random_pose(rng, 0.3), random_pose(rng, 0.3)) for _ in range(20)]
    seen = 0
    for pose1, pose2 in poses:
        hit, unsure, _ = brute_force(t1, pose1, t2, pose2)
        want = rp.collide(m1, pose1, m2, pose2).pairs.tolist()
        seen += bool(want)
        for box_test in ("sat15", "sat_lite", "dual", "sphere_sat15"):
            for frame in ("model1", "model2"):
                got = rp.collide(m1, pose1, m2, pose2, box_test=box_test, frame=frame).pairs.tolist()
                assert hit <= set(map(tuple, got)) <= hit | unsure, (box_test, frame)
                if frame == "model1":
                    assert got == want, box_test
    assert seen > 0, "some poses must collide"
    p1 = np.stack([p for p, _ in poses])
    p2 = np.stack([p for _, p in poses])
    default = rp.collide_batch(m1, p1, m2, p2)
    for box_test in ("sat15", "sat_lite", "dual", "sphere_sat15"):
        b = rp.collide_batch(m1, p1, m2, p2, box_test=box_test)
        assert b.num_pairs.tolist() == default.num_pairs.tolist(), box_test


def test_bad_collide_options():
    m = rp.Model.from_triangles(np.eye(3)[None, :, :])
    with pytest.raises(ValueError, match="box_test"):
        rp.collide(m, None, m, None, box_test="obb")
    with pytest.raises(ValueError, match="frame"):
        rp.collide_batch(m, np.eye(4), m, np.eye(4), frame="world")
