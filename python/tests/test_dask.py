"""rapidpqp.dask on a local cluster of two worker processes: the answers equal the
single-machine batch functions' entry by entry, in pose order, and each model reaches each
worker once however many chunks there are."""

from __future__ import annotations

import numpy as np
import pytest

import rapidpqp as rp
from dask_counting import CountingModel, loads
from helpers import MESHES, load_obj, random_pose, sphere_mesh

distributed = pytest.importorskip("distributed")
import rapidpqp.dask as rpd  # noqa: E402

N = 600
CHUNK = 50  # 12 tasks per call: many more than the 2 workers


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


@pytest.fixture(scope="module")
def models():
    v, f = load_obj(MESHES / "bunny_15k.obj")
    bunny = rp.Model(v * 10.0, f)  # about 1.5 across
    sphere = rp.Model(*sphere_mesh(12))
    return bunny, sphere


@pytest.fixture(scope="module")
def poses():
    rng = np.random.default_rng(17)
    return np.stack([random_pose(rng, spread=1.5) for _ in range(N)])


def test_collide_matches_the_batch_entry_by_entry(client, models, poses):
    bunny, sphere = models
    want = rp.collide_batch(bunny, None, sphere, poses)
    assert 0 < want.colliding.sum() < N  # both outcomes occur
    got = rpd.collide_poses(client, bunny, sphere, None, poses, chunk=CHUNK)
    np.testing.assert_array_equal(got.colliding, want.colliding)
    np.testing.assert_array_equal(got.num_pairs, want.num_pairs)
    first = rpd.collide_poses(client, bunny, sphere, None, poses, first_contact=True, chunk=CHUNK)
    want_first = rp.collide_batch(bunny, None, sphere, poses, True)
    np.testing.assert_array_equal(first.num_pairs, want_first.num_pairs)


def test_distance_and_tolerance_match_the_batch_entry_by_entry(client, models, poses):
    bunny, sphere = models
    # Both sides per pose (R, t) and the sphere's poses as an (N, 4, 4) array.
    rng = np.random.default_rng(5)
    rotations = np.stack([random_pose(rng)[:3, :3] for _ in range(N)])
    translations = rng.uniform(-0.1, 0.1, size=(N, 3))
    want = rp.distance_batch(bunny, (rotations, translations), sphere, poses)
    got = rpd.distance_poses(client, bunny, sphere, (rotations, translations), poses, chunk=CHUNK)
    for field in want._fields:
        np.testing.assert_array_equal(getattr(got, field), getattr(want, field), err_msg=field)
    assert (want.distance > 0).any() and (want.distance == 0).any()

    want = rp.tolerance_batch(bunny, None, sphere, poses, 0.2)
    got = rpd.tolerance_poses(client, bunny, sphere, None, poses, 0.2, chunk=CHUNK)
    assert 0 < want.closer.sum() < N
    for field in want._fields:  # NaN where not closer: assert_array_equal treats NaN as equal
        np.testing.assert_array_equal(getattr(got, field), getattr(want, field), err_msg=field)


def test_each_model_reaches_each_worker_once(client, models, poses):
    bunny, sphere = models
    a = CountingModel.from_bytes(bunny.to_bytes())
    b = CountingModel.from_bytes(sphere.to_bytes())
    before = client.run(loads)
    got = rpd.collide_poses(client, a, b, None, poses, chunk=CHUNK)
    np.testing.assert_array_equal(got.colliding, rp.collide_batch(bunny, None, sphere, poses).colliding)
    after = client.run(loads)
    assert len(after) == 2
    # Two models, 12 tasks: each worker loaded each model exactly once.
    assert {w: after[w] - before.get(w, 0) for w in after} == {w: 2 for w in after}, (before, after)
    # The same model on both sides is sent once.
    before = after
    rpd.distance_poses(client, a, a, None, poses[:100], chunk=CHUNK)
    after = client.run(loads)
    assert {w: after[w] - before[w] for w in after} == {w: 1 for w in after}, (before, after)


def test_bad_input_is_refused_on_the_client(client, models, poses):
    bunny, sphere = models
    bad = poses.copy()
    bad[7, :3, :3] *= np.array([1.0, 1.0, -1.0])  # a reflection
    with pytest.raises(ValueError, match=r"poses2\[7\]"):
        rpd.collide_poses(client, bunny, sphere, None, bad)
    with pytest.raises(ValueError, match="poses1 has 3 poses and poses2 has 600"):
        rpd.distance_poses(client, bunny, sphere, poses[:3], poses)
    with pytest.raises(ValueError, match="chunk"):
        rpd.collide_poses(client, bunny, sphere, None, poses, chunk=0)
    with pytest.raises(ValueError, match="tolerance"):
        rpd.tolerance_poses(client, bunny, sphere, None, poses, float("nan"))


def test_no_poses_give_empty_results(client, models):
    bunny, sphere = models
    got = rpd.collide_poses(client, bunny, sphere, None, np.zeros((0, 4, 4)))
    assert got.colliding.shape == (0,) and got.num_pairs.shape == (0,)


def test_import_rapidpqp_does_not_import_dask():
    import subprocess
    import sys

    code = "import sys, rapidpqp; print('dask' in sys.modules or 'distributed' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_calls_in_quick_succession_on_the_same_models(client, models, poses):
    # Each call scatters its models under a key of its own: under one content key, a call's
    # scatter raced the release of the previous call's, and the scheduler cancelled tasks.
    bunny, sphere = models
    want = rp.collide_batch(bunny, None, sphere, poses[:200])
    for _ in range(10):
        got = rpd.collide_poses(client, bunny, sphere, None, poses[:200], chunk=50)
        np.testing.assert_array_equal(got.num_pairs, want.num_pairs)
