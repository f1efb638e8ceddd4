"""The recorded RAPID/PQP answers of tests/data/conformance, reproduced through Python (rules
of tests/data/conformance/FORMAT.md). `degenerate` is checked against brute force only."""

from __future__ import annotations

import numpy as np
import pytest

import rapidpqp as rp
from helpers import case, place, point_to_soup

# Every `stride`-th pose of each case (the Rust and C suites replay them all).
STRIDE = {"single": 1, "soup": 4, "tori": 8, "separated": 25}
CASES = list(STRIDE)

_MODELS = {}


def models(name):
    if name not in _MODELS:
        c = case(name)
        _MODELS[name] = (rp.Model(c.va, c.fa), rp.Model(c.vb, c.fb))
    return _MODELS[name]


def sampled(name):
    c = case(name)
    return range(0, len(c.poses), STRIDE[name])


def stacked(poses):
    """(R, t, s) batches for model 1 and model 2 from a list of conformance poses."""
    out = []
    for k in (0, 1):
        out.append(
            (
                np.array([p[k][0] for p in poses]),
                np.array([p[k][1] for p in poses]),
                np.array([p[k][2] for p in poses]),
            )
        )
    return out


@pytest.mark.parametrize("name", CASES)
def test_collide_all_contacts(name):
    c = case(name)
    a, b = models(name)
    recorded = c.contacts("pqp_collide_all.txt")
    rapid = c.contacts("rapid_all.txt")
    for i in sampled(name):
        p1, p2 = c.poses[i]
        r = rp.collide(a, p1, b, p2)
        got = set(map(tuple, r.pairs.tolist()))
        assert len(got) == len(r.pairs), f"{name} pose {i}: a pair reported twice"
        assert got == recorded[i], f"{name} pose {i}: {len(got)} pairs, PQP {len(recorded[i])}"
        assert got == rapid[i], f"{name} pose {i}: differs from RAPID"
        assert r.colliding == bool(recorded[i])
        # (Models of one triangle each need no box test: the triangle test is the query.)
        assert r.bv_tests >= 1 or (len(a) == 1 and len(b) == 1)
        assert r.tri_tests >= 1 or r.bv_tests >= 1


@pytest.mark.parametrize("name", CASES)
def test_collide_first_contact(name):
    c = case(name)
    a, b = models(name)
    recorded = c.contacts("pqp_collide_all.txt")
    for i in sampled(name):
        p1, p2 = c.poses[i]
        r = rp.collide(a, p1, b, p2, first_contact=True)
        assert r.num_pairs == min(1, len(recorded[i])), f"{name} pose {i}"
        for pair in r.pairs.tolist():
            assert tuple(pair) in recorded[i], f"{name} pose {i}: {pair} is not a contact"


@pytest.mark.parametrize("name", CASES)
def test_collide_batch_all_poses(name):
    c = case(name)
    a, b = models(name)
    recorded = c.contacts("pqp_collide_all.txt")
    poses1, poses2 = stacked(c.poses)
    r = rp.collide_batch(a, poses1, b, poses2)
    assert r.colliding.tolist() == [bool(s) for s in recorded]
    assert r.num_pairs.tolist() == [len(s) for s in recorded]


@pytest.mark.parametrize("name", CASES)
def test_distance(name):
    c = case(name)
    a, b = models(name)
    tol = 1e-12 * c.size()
    recorded = c.lines("pqp_distance.txt")
    for i in sampled(name):
        p1, p2 = c.poses[i]
        r = rp.distance(a, p1, b, p2)
        assert abs(r.distance - recorded[i][1]) <= tol, f"{name} pose {i}: {r.distance!r} vs PQP {recorded[i][1]!r}"
        w1, w2 = place(p1, r.p1), place(p2, r.p2)
        assert abs(np.linalg.norm(w1 - w2) - r.distance) <= tol, f"{name} pose {i}: points not that far apart"
        assert point_to_soup(r.p1, c.tris_a) <= tol, f"{name} pose {i}: p1 is not on model 1"
        assert point_to_soup(r.p2, c.tris_b) <= tol, f"{name} pose {i}: p2 is not on model 2"


@pytest.mark.parametrize("name", CASES)
def test_distance_batch_all_poses(name):
    c = case(name)
    a, b = models(name)
    tol = 1e-12 * c.size()
    recorded = np.array([line[1] for line in c.lines("pqp_distance.txt")])
    poses1, poses2 = stacked(c.poses)
    r = rp.distance_batch(a, poses1, b, poses2, warm_start=True)
    assert np.abs(r.distance - recorded).max() <= tol
    w1 = np.einsum("nij,nj->ni", poses1[0], r.p1) * poses1[2][:, None] + poses1[1]
    w2 = np.einsum("nij,nj->ni", poses2[0], r.p2) * poses2[2][:, None] + poses2[1]
    assert np.abs(np.linalg.norm(w1 - w2, axis=1) - r.distance).max() <= tol


@pytest.mark.parametrize("name", CASES)
def test_tolerance(name):
    c = case(name)
    a, b = models(name)
    size_tol = 1e-12 * c.size()
    minimum = [line[1] for line in c.lines("pqp_distance.txt")]
    lines = c.lines("pqp_tolerance.txt")
    step = max(1, len(lines) // (len(c.poses) // STRIDE[name] * 3))
    checked = 0
    for line in lines[::step]:
        i, t, closer = int(line[0]), line[1], bool(line[3])
        p1, p2 = c.poses[i]
        r = rp.tolerance(a, p1, b, p2, t)
        ambiguous = abs(max(t, 0.0) - minimum[i]) <= size_tol
        if not ambiguous:
            assert r.closer == closer, f"{name} pose {i} tolerance {t!r}"
        if r.closer:
            assert minimum[i] - size_tol <= r.distance <= max(t, 0.0) + size_tol
            w1, w2 = place(p1, r.p1), place(p2, r.p2)
            assert abs(np.linalg.norm(w1 - w2) - r.distance) <= size_tol
        else:
            assert np.isnan(r.p1).all() and np.isnan(r.p2).all()
            assert r.distance > max(t, 0.0) - size_tol
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", CASES)
def test_tolerance_batch_matches_single(name):
    c = case(name)
    a, b = models(name)
    poses1, poses2 = stacked(c.poses)
    t = float(np.median([line[1] for line in c.lines("pqp_distance.txt")]))
    r = rp.tolerance_batch(a, poses1, b, poses2, t)
    for i in sampled(name):
        p1, p2 = c.poses[i]
        s = rp.tolerance(a, p1, b, p2, t)
        assert r.closer[i] == s.closer and r.distance[i] == s.distance, f"{name} pose {i}"


def test_degenerate_case_against_brute_force():
    """`degenerate`: zero-area triangles and mixed scales. The hierarchy's answers must equal
    the all-pairs answers of one-triangle models (no pruning), pose by pose."""
    c = case("degenerate")
    a, b = rp.Model(c.va, c.fa), rp.Model(c.vb, c.fb)
    ones_a = [rp.Model.from_triangles(c.tris_a[k : k + 1], ids=[k]) for k in range(len(c.tris_a))]
    ones_b = [rp.Model.from_triangles(c.tris_b[k : k + 1], ids=[k]) for k in range(len(c.tris_b))]
    size_tol = 1e-12 * c.size()
    for i, (p1, p2) in enumerate(c.poses):
        brute = set()
        best = np.inf
        for ta in ones_a:
            for tb in ones_b:
                brute.update(map(tuple, rp.collide(ta, p1, tb, p2).pairs.tolist()))
                best = min(best, rp.distance(ta, p1, tb, p2).distance)
        got = set(map(tuple, rp.collide(a, p1, b, p2).pairs.tolist()))
        assert got == brute, f"pose {i}: tree {sorted(got ^ brute)} differ from brute force"
        d = rp.distance(a, p1, b, p2)
        assert abs(d.distance - best) <= size_tol, f"pose {i}: {d.distance!r} vs brute {best!r}"
        for t in (0.0, best * 0.5, best * 2.0):
            r = rp.tolerance(a, p1, b, p2, t)
            if abs(t - best) > size_tol:
                assert r.closer == (best <= t), f"pose {i} tolerance {t}"
