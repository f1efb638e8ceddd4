"""Deformable models: after vertex updates every query answers as on a model rebuilt from the
same positions, and as numpy brute force; bad updates raise and change nothing."""

from __future__ import annotations

import copy
import math
import pickle
import threading

import numpy as np
import pytest

import rapidpqp as rp
from helpers import sphere_mesh, triangle_distances, triangle_pair_gaps

MARGIN = 1e-9


def wobble(vertices: np.ndarray, t: float) -> np.ndarray:
    """A smooth displacement field (sum of sines)."""
    x, y, z = vertices.T
    d = np.stack(
        [
            0.15 * np.sin(3 * y + 2 * z + t),
            0.1 * np.sin(4 * x - 1.3 * t) + 0.05 * np.cos(2 * z + t),
            0.12 * np.sin(2 * x + 3 * y - 0.7 * t),
        ],
        axis=1,
    )
    return vertices + d


def sheet(n: int, height: float):
    """An n × n grid of squares over [-1.5, 1.5]², two triangles each: vertices, faces."""
    u = np.linspace(-1.5, 1.5, n + 1)
    xs, ys = np.meshgrid(u, u, indexing="ij")
    vertices = np.stack([xs.ravel(), ys.ravel(), np.full(xs.size, height)], axis=1)
    faces = []
    for i in range(n):
        for j in range(n):
            v = i * (n + 1) + j
            faces += [[v, v + n + 1, v + n + 2], [v, v + n + 2, v + 1]]
    return vertices, np.array(faces)


def drape(vertices: np.ndarray, t: float) -> np.ndarray:
    """The sheet falling onto the unit sphere: each vertex stops on the sphere's top, rippled."""
    x, y, _ = vertices.T
    top = np.sqrt(np.clip(1 - x * x - y * y, 0, None)) - 0.02
    top = np.where(x * x + y * y < 1, top, -1.0)
    fall = 1.5 - 1.2 * t
    z = np.maximum(fall, top) + 0.03 * np.sin(5 * x + 3 * t) * np.cos(4 * y)
    return np.stack([x, y, z], axis=1)


def pairs(result) -> set:
    return set(map(tuple, result.pairs.tolist()))


def check(model: rp.Model, vertices: np.ndarray, faces: np.ndarray, other: rp.Model, other_tris: np.ndarray, pose2):
    """Collide, distance and tolerance on `model` against a rebuilt model and brute force."""
    rebuilt = rp.Model(vertices, faces)
    got = pairs(rp.collide(model, None, other, pose2))
    assert got == pairs(rp.collide(rebuilt, None, other, pose2))
    tris = vertices[faces]
    w2 = other_tris @ pose2[:3, :3].T + pose2[:3, 3]
    gaps = triangle_pair_gaps(tris, w2)
    hit = set(map(tuple, np.argwhere(gaps < -MARGIN).tolist()))
    unsure = set(map(tuple, np.argwhere(np.abs(gaps) <= MARGIN).tolist()))
    assert hit <= got and got <= hit | unsure
    d = rp.distance(model, None, other, pose2).distance
    assert d == pytest.approx(rp.distance(rebuilt, None, other, pose2).distance, rel=1e-12, abs=1e-14)
    if not hit and not unsure:
        best = float(triangle_distances(tris, w2).min())
        assert d == pytest.approx(best, rel=1e-9, abs=1e-12)
        for t in (0.5 * best, 1.5 * best + 1e-9):
            assert rp.tolerance(model, None, other, pose2, t).closer == (best <= t)
    return got


def test_wobbling_sphere_against_rebuilds_and_brute_force():
    v0, f = sphere_mesh(6)
    model = rp.Model(v0, f, deformable=True)
    assert model.deformable and model.num_vertices == len(v0) and model.degradation == 1.0
    model.set_rebuild_threshold(math.inf)
    ov, of = sphere_mesh(5)
    other = rp.Model(ov * 0.7, of)
    contacts = 0
    for k, t in enumerate(np.linspace(0, 6, 9)):
        v = wobble(v0, t)
        report = model.update_vertices(v)
        assert isinstance(report, rp.RefitReport) and not report.rebuilt and report.degradation >= 1.0
        np.testing.assert_array_equal(model.vertices, v)
        pose2 = np.eye(4)
        pose2[:3, 3] = [0.3 * math.cos(k), 0.9, 0.2]
        contacts += len(check(model, v, f, other, (ov * 0.7)[of], pose2))
        pose2[:3, 3] = [3.0, 0.5, 0.0]
        check(model, v, f, other, (ov * 0.7)[of], pose2)
    assert contacts > 0


def test_cloth_over_sphere_with_subset_updates():
    sv, sf = sphere_mesh(8)
    body = rp.Model(sv, sf)
    v0, f = sheet(12, 1.5)
    cloth = rp.Model(v0, f, deformable=True)
    full = rp.Model(v0, f, deformable=True)
    prev = v0
    contacts = 0
    for t in np.linspace(0, 1, 8):
        v = drape(v0, t)
        moved = np.flatnonzero((v != prev).any(axis=1))
        cloth.update_vertices(v[moved], indices=moved)
        full.update_vertices(v)
        np.testing.assert_array_equal(cloth.vertices, v)
        got = check(cloth, v, f, body, sv[sf], np.eye(4))
        assert got == pairs(rp.collide(full, None, body, None))
        contacts += len(got)
        prev = v
    assert contacts > 0
    # Solid facts follow the moved vertices: an open sheet stays open, a sphere stays closed.
    assert not cloth.solid_facts.closed


def test_rebuilds_and_thresholds():
    v0, f = sphere_mesh(6)
    model = rp.Model(v0, f, deformable=True)
    assert model.rebuild_threshold == 2.0
    rng = np.random.default_rng(3)
    scrambled = rng.random(v0.shape) * 2
    report = model.update_vertices(scrambled)
    assert report.rebuilt and report.degradation > 2.0
    assert model.degradation == 1.0
    model.set_rebuild_threshold(math.inf)
    report = model.update_vertices(wobble(v0, 1.0))
    assert not report.rebuilt
    model.rebuild()
    assert model.degradation == 1.0
    for bad in (0.5, -1.0, math.nan):
        with pytest.raises(ValueError):
            model.set_rebuild_threshold(bad)
    with pytest.raises(TypeError):
        model.set_rebuild_threshold("2")
    assert model.rebuild_threshold == math.inf


def test_bad_updates_change_nothing():
    v0, f = sphere_mesh(5)
    model = rp.Model(v0, f, deformable=True)
    v = wobble(v0, 0.5)
    model.update_vertices(v)
    other = rp.Model(v0 + [3.0, 0.0, 0.0], f)
    before = rp.distance(model, None, other, None).distance
    n = len(v0)
    bad = [
        (v[:-1], None, "shape"),
        (np.vstack([v, v[:1]]), None, "shape"),
        (v.reshape(-1), None, "shape"),
        (np.where(np.arange(n)[:, None] == 3, np.nan, v), None, "finite"),
        (np.where(np.arange(n)[:, None] == 3, np.inf, v), None, "finite"),
        (v[:2], [0, n], "out of range"),
        (v[:2], [-1, 0], "out of range"),
        (v[:2], [4, 4], "twice"),
        (v[:3], [0, 1], "shape"),
        (v[:2], [[0, 1]], "shape"),
    ]
    for vertices, indices, words in bad:
        with pytest.raises(ValueError, match=words):
            model.update_vertices(vertices, indices=indices)
    with pytest.raises(ValueError, match="2\\^1000"):
        model.update_vertices(np.full_like(v, 1e302))
    with pytest.raises(TypeError):
        model.update_vertices(v.astype(str))
    with pytest.raises(TypeError):
        model.update_vertices(v[:1], indices=[0.5])
    np.testing.assert_array_equal(model.vertices, v)
    assert rp.distance(model, None, other, None).distance == before
    # Not deformable: plain, soup and loaded models.
    for plain in (rp.Model(v0, f), rp.Model.from_triangles(v0[f]), rp.Model.from_bytes(model.to_bytes())):
        assert not plain.deformable and plain.num_vertices == 0
        with pytest.raises(ValueError, match="deformable"):
            plain.update_vertices(v)
        with pytest.raises(ValueError, match="deformable"):
            plain.rebuild()
        with pytest.raises(ValueError, match="deformable"):
            plain.degradation
    with pytest.raises(ValueError, match="read-only"):
        model.vertices[0, 0] = 1.0


def test_soups_copies_and_pickles():
    rng = np.random.default_rng(9)
    tris = rng.random((40, 3, 3))
    ids = np.arange(40) * 3 + 7
    soup = rp.Model.from_triangles(tris, ids, deformable=True)
    assert soup.num_vertices == 120
    moved = tris + 0.1 * np.sin(tris * 5)
    soup.update_vertices(moved.reshape(-1, 3))
    other = rp.Model.from_triangles(tris + [0.2, 0.0, 0.0])
    want = pairs(rp.collide(rp.Model.from_triangles(moved, ids), None, other, None))
    assert pairs(rp.collide(soup, None, other, None)) == want
    assert {p[0] for p in want} <= set(ids.tolist())
    soup.set_rebuild_threshold(5.0)
    for clone in (copy.copy(soup), copy.deepcopy(soup), pickle.loads(pickle.dumps(soup))):
        assert clone is not soup and clone.deformable and clone.rebuild_threshold == 5.0
        assert pairs(rp.collide(clone, None, other, None)) == want
        clone.update_vertices(tris.reshape(-1, 3))  # independent of the original
    assert pairs(rp.collide(soup, None, other, None)) == want


def test_update_racing_queries_is_refused_not_undefined():
    """ctypes releases the GIL in native calls, so threads can race an update against queries:
    the loser raises RapidPQPError with status RPQ_ERR_BUSY; every answer given is valid."""
    import threading

    from rapidpqp import _native as N

    v0, f = sphere_mesh(8)
    model = rp.Model(v0, f, deformable=True)
    other = rp.Model(v0 + [4.0, 0.0, 0.0], f)
    errors, answers = [], []
    done = threading.Event()

    def query():
        # At least 400 queries, and on until some ran (the GIL tends to hand this thread the
        # interpreter exactly while the other is inside an update).
        k = 0
        while k < 400 or (not answers and k < 200000):
            try:
                answers.append(rp.distance(model, None, other, None).distance)
            except rp.RapidPQPError as e:
                errors.append(e.status)
            k += 1
        done.set()

    t = threading.Thread(target=query)
    t.start()
    updates = k = 0
    while k < 200 or not done.is_set():
        try:
            model.update_vertices(wobble(v0, 0.01 * (k % 200)) * 0.9)
            updates += 1
        except rp.RapidPQPError as e:
            errors.append(e.status)
        k += 1
    t.join()
    assert set(errors) <= {N.RPQ_ERR_BUSY}
    assert updates > 0 and answers
    assert all(1.0 < d < 4.0 for d in answers)


def test_kdop_models_answer_as_box_models_and_brute_force():
    """The k-DOP option: a cloth and a body, both k-DOP models, collided at the identity and
    translated (k-DOP trees), rotated and measured (box trees, refitted lazily), and the
    cloth's self-collision: the same answers as without the option and as brute force."""
    sv, sf = sphere_mesh(8)
    v0, f = sheet(12, 1.5)
    cloth_k = rp.Model(v0, f, deformable=True, kdop=True)
    cloth_b = rp.Model(v0, f, deformable=True)
    body_k = rp.Model(sv, sf, deformable=True, kdop=True)
    body_b = rp.Model(sv, sf, deformable=True)
    assert cloth_k.kdop and body_k.kdop and not cloth_b.kdop
    for m in (cloth_k, cloth_b, body_k, body_b):
        m.set_rebuild_threshold(math.inf)
    contacts = 0
    for k, t in enumerate(np.linspace(0, 1, 6)):
        v = drape(v0, t)
        bv = wobble(sv, t)
        for m in (cloth_k, cloth_b):
            m.update_vertices(v)
        for m in (body_k, body_b):
            m.update_vertices(bv)
        rotated = np.eye(4)
        rotated[:3, :3] = [[1, 0, 0], [0, math.cos(0.2), -math.sin(0.2)], [0, math.sin(0.2), math.cos(0.2)]]
        for pose in (np.eye(4), rp.Pose.from_rt(np.eye(3), [0.05 * k, -0.1, 0.02]).matrix, rotated):
            got = check(cloth_k, v, f, body_b, bv[sf], pose)
            assert got == pairs(rp.collide(cloth_b, None, body_b, pose))
            assert pairs(rp.collide(cloth_k, None, body_k, pose)) == pairs(rp.collide(cloth_b, None, body_b, pose))
            contacts += len(got)
        assert pairs(rp.self_collide(cloth_k)) == pairs(rp.self_collide(cloth_b))
        d = rp.distance(cloth_k, None, body_k, rotated).distance
        assert d == rp.distance(cloth_b, None, body_b, rotated).distance
    assert contacts > 0
    # Copies and pickles keep the option; switching it off brings the boxes up to date.
    for m in (copy.copy(cloth_k), pickle.loads(pickle.dumps(cloth_k))):
        assert m.kdop
        assert pairs(rp.collide(m, None, body_k, None)) == pairs(rp.collide(cloth_b, None, body_b, None))
    cloth_k.set_kdop(False)
    assert not cloth_k.kdop
    assert cloth_k.to_bytes() == cloth_b.to_bytes()
    # Refusals: not deformable, not a flag.
    with pytest.raises(ValueError, match="deformable"):
        rp.Model(v0, f, kdop=True)
    with pytest.raises(TypeError):
        rp.Model(v0, f, deformable=True, kdop=1)
    with pytest.raises(ValueError, match="deformable"):
        rp.Model(v0, f).set_kdop(True)


def test_the_copy_follows_the_library_under_concurrent_updates() -> None:
    # Issue 25 item 6: two threads updating one deformable model at once could leave the
    # package's copy of the vertices (what pickle and copy rebuild from) in the other thread's
    # state than the library's model (about 1 trial in 100). Each trial: both threads move the
    # one triangle, one to x = 0 and one to x = 10 (by a full or a subset update); the library's
    # state (found by distance 0 to a probe at each place) must be the copy's, and a copy of
    # the model must be there too.
    faces = np.array([[0, 1, 2]])
    base = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    places = [base, base + [10.0, 0.0, 0.0]]
    probes = [rp.Model(p, faces) for p in places]
    model = rp.Model(base, faces, deformable=True)
    trials = 600
    start, done = threading.Barrier(3), threading.Barrier(3)
    errors: list = []

    def mover(k: int) -> None:
        for trial in range(trials):
            start.wait()
            try:
                if (trial + k) % 3 == 0:
                    model.update_vertices(places[k][[2, 0, 1]], indices=[2, 0, 1])
                else:
                    model.update_vertices(places[k])
            except Exception as e:  # noqa: BLE001 (reported below)
                errors.append(e)
            done.wait()

    threads = [threading.Thread(target=mover, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    mismatches = 0
    for trial in range(trials):
        start.wait()
        done.wait()
        kept = model.vertices.copy()
        k = 0 if kept[0, 0] == 0.0 else 1
        assert np.array_equal(kept, places[k]), kept
        native = [rp.distance(model, None, probe, None).distance for probe in probes]
        if native[k] != 0.0 or native[1 - k] == 0.0:
            mismatches += 1
        elif trial % 50 == 0:
            clone = copy.copy(model)
            assert rp.distance(clone, None, probes[k], None).distance == 0.0
            again = pickle.loads(pickle.dumps(model))
            np.testing.assert_array_equal(again.vertices, places[k])
    for t in threads:
        t.join()
    assert not errors, errors[:3]
    assert mismatches == 0, f"{mismatches} of {trials} trials: the copy is not the library's state"
