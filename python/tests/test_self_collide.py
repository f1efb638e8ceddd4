"""Self-collision against numpy brute force over all triangle pairs of small meshes."""

from __future__ import annotations

import numpy as np
import pytest

import rapidpqp as rp
from helpers import random_soup, triangle_pair_gaps

# Pairs closer to touching than this (relative) are left to the exact tests of the Rust suite.
MARGIN = 1e-9


def adjacent(tris):
    """(M, M) bool: some corner of triangle i has exactly the coordinates of a corner of j."""
    eq = (tris[:, None, :, None, :] == tris[None, :, None, :, :]).all(-1)
    return eq.any((-1, -2))


def brute_force(tris):
    """(certain pairs, uncertain pairs) as sets of (i, j), i < j, non-adjacent."""
    gaps = triangle_pair_gaps(tris, tris)
    keep = np.triu(np.ones(gaps.shape, dtype=bool), 1) & ~adjacent(tris)
    hit = {tuple(p) for p in np.argwhere(keep & (gaps < -MARGIN)).tolist()}
    unsure = {tuple(p) for p in np.argwhere(keep & (np.abs(gaps) <= MARGIN)).tolist()}
    return hit, unsure


def check(tris, vertices=None, faces=None):
    m = rp.Model.from_triangles(tris) if faces is None else rp.Model(vertices, faces)
    hit, unsure = brute_force(tris)
    for box_test in ("default", "sat15", "sat_lite", "dual", "sphere_sat15"):
        r = rp.self_collide(m, box_test=box_test)
        assert r.pairs.dtype == np.int32 and r.pairs.shape[1] == 2
        got = set(map(tuple, r.pairs.tolist()))
        assert len(got) == len(r.pairs), "a pair reported twice"
        assert all(i < j for i, j in got)
        assert hit <= got, f"missed {sorted(hit - got)}"
        assert got <= hit | unsure, f"false pairs {sorted(got - hit - unsure)}"
        assert r.colliding == bool(got)
        first = rp.self_collide(m, first_contact=True, box_test=box_test)
        assert first.num_pairs == (1 if got else 0)
        assert set(map(tuple, first.pairs.tolist())) <= got
    return hit


def sheet(n, f):
    """An n x n grid of cells on [0, 1]^2 through f(u, v) -> (..., 3): vertices, faces."""
    u, v = np.meshgrid(np.linspace(0, 1, n + 1), np.linspace(0, 1, n + 1), indexing="ij")
    verts = f(u, v).reshape(-1, 3)
    idx = np.arange((n + 1) ** 2).reshape(n + 1, n + 1)
    a, b, c, d = idx[:-1, :-1].ravel(), idx[1:, :-1].ravel(), idx[1:, 1:].ravel(), idx[:-1, 1:].ravel()
    faces = np.concatenate([np.stack([a, b, c], 1), np.stack([a, c, d], 1)])
    return verts, faces


def test_flat_sheet_has_no_pairs():
    verts, faces = sheet(12, lambda u, v: np.stack([u, v, 0 * u], -1))
    r = rp.self_collide(rp.Model(verts, faces))
    assert r.num_pairs == 0 and r.bv_tests > 0 and r.tri_tests > 0


@pytest.mark.parametrize("seed", range(4))
def test_crumpled_folded_sheets(seed):
    # A strip folded back over itself, its upper half sinking through the lower one, crumpled
    # by random bumps.
    rng = np.random.default_rng(seed)
    bumps = rng.uniform(-1, 1, size=(10, 5))

    def crumple(u, v):
        x = np.where(u <= 0.5, u, 1.03 - u)
        z = np.where(u <= 0.5, 0.0, 0.05 - 0.2 * (u - 0.5))
        p = np.stack([x, v, z], -1)
        for bu, bv, dx, dy, dz in bumps:
            w = np.exp(-((u - bu) ** 2 + (v - bv) ** 2) / 0.03)[..., None]
            p = p + 0.1 * w * np.array([dx, dy, dz])
        return p

    verts, faces = sheet(12, crumple)
    assert len(check(verts[faces], verts, faces)) > 20


def test_tilted_fold_crosses_itself():
    # The upper half of a strip folded back over the lower one, tilted through it.
    def fold(u, v):
        x = np.where(u <= 0.5, u, 1.03 - u)
        z = np.where(u <= 0.5, 0.0, 0.3 * (u - 0.5) - 0.05)
        return np.stack([x, v, z], -1)

    verts, faces = sheet(10, fold)
    assert check(verts[faces], verts, faces)


@pytest.mark.parametrize("seed", range(4))
def test_random_soups(seed):
    rng = np.random.default_rng(100 + seed)
    tris = random_soup(rng, 40 + 10 * seed)
    # Some shared corners, so that adjacency matters.
    for k in range(10):
        i, j = rng.integers(len(tris), size=2)
        tris[i, k % 3] = tris[j, (k + 1) % 3]
    assert check(tris)


def test_ids_and_errors():
    t = np.array([[[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0.2, 0.2, -1], [0.2, 0.2, 1], [2, 2, 0]]], dtype=float)
    r = rp.self_collide(rp.Model.from_triangles(t, ids=[7, 3]))
    assert r.pairs.tolist() == [[3, 7]]
    with pytest.raises(ValueError, match="box_test"):
        rp.self_collide(rp.Model.from_triangles(t), box_test="nope")
    with pytest.raises(TypeError):
        rp.self_collide("not a model")
