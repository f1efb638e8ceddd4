"""rapidpqp.World: deforming and rigid objects frame by frame against pairwise collide."""

from __future__ import annotations

import numpy as np
import pytest

import rapidpqp as rp
from helpers import sphere_mesh


def pose(angle, t):
    c, s = np.cos(angle), np.sin(angle)
    m = np.eye(4)
    m[:2, :2] = [[c, -s], [s, c]]
    m[:3, 3] = t
    return m


def expected(models, poses, tested):
    """Pairwise rp.collide (lower id as model 1, the triangle test in model 2's frame)."""
    out = []
    for a in range(len(models)):
        for b in range(a + 1, len(models)):
            if not tested(a, b):
                continue
            r = rp.collide(models[a], poses[a], models[b], poses[b], frame="model2")
            if r.num_pairs:
                out.append((a, b, sorted(map(tuple, r.pairs.tolist()))))
    return out


def test_deforming_scene_matches_pairwise_collide():
    v, f = sphere_mesh(6)
    box_v = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)])
    box_f = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
                      [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]])
    models = [rp.Model(v, f, deformable=True) for _ in range(4)] + [rp.Model(box_v, box_f)]
    world = rp.World()
    assert [world.add(m) for m in models] == list(range(5))
    active, disabled = [True] * 5, set()
    seen = 0
    for frame in range(30):
        poses = []
        for i, m in enumerate(models):
            t = 0.2 * frame + 1.3 * i
            p = pose(0.1 * frame * (i + 1), [2.0 * np.cos(t + i), 1.4 * np.sin(0.7 * t), 0.3 * np.sin(t * i)])
            world.set_pose(i, p)
            poses.append(p)
            if m.deformable:
                s = 0.7 + 0.35 * np.sin(0.5 * t)
                moved = v * s * (1 + 0.4 * np.cos(0.3 * t) * v[:, :1] ** 2)
                report = world.update_vertices(i, moved)
                assert report.degradation >= 1 or report.rebuilt
                m.update_vertices(moved)
        if frame == 8:
            world.set_active(1, False)
            active[1] = False
        if frame == 16:
            world.set_active(1, True)
            world.set_pair_active(3, 0, False)
            active[1] = True
            disabled.add((0, 3))
        got = [(c.id1, c.id2, sorted(map(tuple, c.pairs.tolist()))) for c in world.collide()]
        want = expected(models, poses, lambda a, b: active[a] and active[b] and (a, b) not in disabled)
        assert got == want, f"frame {frame}"
        first = world.collide(first_contact=True)
        assert [(c.id1, c.id2) for c in first] == [(a, b) for a, b, _ in want]
        assert all(c.pairs.shape == (0, 2) for c in first)
        seen += len(want)
    assert seen > 15


def test_growth_alone_and_subset_updates():
    v, f = sphere_mesh(6)
    m = rp.Model(v, f, deformable=True)
    world = rp.World()
    a, b = world.add(m), world.add(m)
    del m  # the world keeps copies
    world.set_pose(b, pose(0, [3, 0, 0]))
    assert world.collide() == []
    world.update_vertices(a, v * 2.2)
    assert [(c.id1, c.id2) for c in world.collide()] == [(a, b)]
    # Only the vertices that reach out move back: still touching? Check the answer is the
    # same as the full update of those positions.
    far = np.flatnonzero(v[:, 0] > 0.5)
    world.update_vertices(a, v[far], indices=far)
    full = v * 2.2
    full[far] = v[far]
    mm = rp.Model(full, f)
    want = rp.collide(mm, None, rp.Model(v, f), pose(0, [3, 0, 0]), frame="model2").num_pairs > 0
    assert bool(world.collide()) == want


def test_errors_change_nothing():
    v, f = sphere_mesh(4)
    world = rp.World()
    s = world.add(rp.Model(v, f, deformable=True))
    r = world.add(rp.Model(v, f))
    world.set_pose(r, pose(0, [0.5, 0, 0]))
    before = world.collide()
    with pytest.raises(ValueError):
        world.update_vertices(r, v)  # rigid
    with pytest.raises(ValueError):
        world.update_vertices(s, v[1:])  # wrong count
    bad = v.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError):
        world.update_vertices(s, bad)
    with pytest.raises(ValueError):
        world.update_vertices(s, v[:2], indices=[1, 1])
    with pytest.raises(ValueError):
        world.update_vertices(77, v)
    with pytest.raises(ValueError):
        world.set_pose(s, (np.eye(3), [0, 0, 0], 2.0))
    with pytest.raises(ValueError):
        world.set_pose(s, pose(0, [np.nan, 0, 0]))
    with pytest.raises(TypeError):
        world.set_pose("x", None)
    with pytest.raises(TypeError):
        world.add("not a model")
    after = world.collide()
    assert [(c.id1, c.id2, c.pairs.tolist()) for c in after] == [(c.id1, c.id2, c.pairs.tolist()) for c in before]
    world.remove(r)
    with pytest.raises(ValueError):
        world.remove(r)
    assert world.add(rp.Model(v, f)) == 2
