"""Shared models queried from many Python threads, batches on many Rust threads, and models
sent to other processes by pickling."""

from __future__ import annotations

import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest

import rapidpqp as rp
from helpers import MESHES, load_obj, random_pose


@pytest.fixture(scope="module")
def bunny():
    v, f = load_obj(MESHES / "bunny_15k.obj")
    return rp.Model(v, f), float(np.abs(v).max())


def poses_for(size, n, seed):
    rng = np.random.default_rng(seed)
    return [random_pose(rng, 0.5 * size) for _ in range(n)]


def answers(model, poses, first_contact=False):
    """Every query's full answer, as plain Python values."""
    out = []
    for p in poses:
        c = rp.collide(model, None, model, p, first_contact=first_contact)
        d = rp.distance(model, None, model, p)
        t = rp.tolerance(model, None, model, p, 0.01)
        out.append(
            (
                sorted(map(tuple, c.pairs.tolist())) if not first_contact else c.num_pairs,
                c.bv_tests if not first_contact else None,
                d.distance,
                d.p1.tolist(),
                d.p2.tolist(),
                t.closer,
            )
        )
    return out


def test_thread_pool_gives_the_serial_answers(bunny):
    model, size = bunny
    poses = poses_for(size, 48, seed=1)
    serial = answers(model, poses)
    chunks = [poses[k::6] for k in range(6)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        parallel = list(pool.map(lambda ps: answers(model, ps), chunks))
    for k, chunk in enumerate(parallel):
        assert chunk == serial[k::6]


def test_thread_pool_mixing_queries_and_batches(bunny):
    model, size = bunny
    poses = np.array(poses_for(size, 40, seed=2))
    expected = rp.distance_batch(model, None, model, poses, threads=1).distance
    expected_c = rp.collide_batch(model, None, model, poses, threads=1).num_pairs

    def job(k):
        if k % 2:
            return ("d", rp.distance_batch(model, None, model, poses, threads=2).distance)
        return ("c", rp.collide_batch(model, None, model, poses).num_pairs)

    with ThreadPoolExecutor(max_workers=4) as pool:
        for kind, result in pool.map(job, range(8)):
            np.testing.assert_array_equal(result, expected if kind == "d" else expected_c)


def test_thread_pool_builds_and_drops_models():
    """Models built, queried, pickled and freed concurrently."""
    rng = np.random.default_rng(4)
    tris = rng.normal(size=(200, 3, 3))

    def job(k):
        m = rp.Model.from_triangles(tris + k)
        m2 = pickle.loads(pickle.dumps(m))
        r = rp.collide(m, None, m2, None)
        del m
        return r.num_pairs

    with ThreadPoolExecutor(max_workers=4) as pool:
        counts = list(pool.map(job, range(32)))
    assert len(set(counts)) == 1 and counts[0] >= 200


def test_batch_threads_do_not_change_answers(bunny):
    model, size = bunny
    poses = np.array(poses_for(size, 100, seed=3))
    base_c = rp.collide_batch(model, None, model, poses, threads=1)
    base_d = rp.distance_batch(model, None, model, poses, threads=1)
    base_t = rp.tolerance_batch(model, None, model, poses, 0.01, threads=1)
    for threads in (2, 3, 0):
        c = rp.collide_batch(model, None, model, poses, threads=threads)
        np.testing.assert_array_equal(c.num_pairs, base_c.num_pairs)
        d = rp.distance_batch(model, None, model, poses, threads=threads)
        np.testing.assert_array_equal(d.distance, base_d.distance)
        np.testing.assert_array_equal(d.p1, base_d.p1)
        t = rp.tolerance_batch(model, None, model, poses, 0.01, threads=threads)
        np.testing.assert_array_equal(t.closer, base_t.closer)
        np.testing.assert_array_equal(t.distance, base_t.distance)


def _worker(model_and_poses):
    model, poses = model_and_poses
    return [rp.collide(model, None, model, p).num_pairs for p in poses], rp.distance_batch(
        model, None, model, np.array(poses), threads=1
    ).distance.tolist()


@pytest.mark.parametrize("method", ["spawn", "fork"])
def test_models_cross_process_boundaries(bunny, method):
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} start method here")
    model, size = bunny
    poses = poses_for(size, 8, seed=5)
    expected = _worker((model, poses))
    ctx = multiprocessing.get_context(method)
    with ProcessPoolExecutor(max_workers=2, mp_context=ctx) as pool:
        results = list(pool.map(_worker, [(model, poses[:4]), (model, poses[4:])]))
    assert results[0][0] + results[1][0] == expected[0]
    assert results[0][1] + results[1][1] == expected[1]
