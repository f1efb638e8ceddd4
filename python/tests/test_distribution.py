"""The distributable packages as users get them (``scripts/build_wheel.sh`` builds both;
``./run_tests.sh`` names them in ``RAPIDPQP_WHEEL`` and ``RAPIDPQP_SDIST``):

- the wheel is manylinux2014: every versioned glibc symbol its binaries need is at most
  GLIBC_2.17 (read from the ELF files with ``objdump -T``, independently of auditwheel, which
  build_wheel.sh runs);
- installed into a venv of every CPython from 3.9 to 3.13 this machine has, it passes a smoke
  test (load a mesh, collide, distance, tolerance, a batch, pickle) run from outside the
  checkout. The Pythons are pyenv's (``pyenv root``/versions/3.X.*) or ``python3.X`` on
  PATH; the venvs are kept under ``target/py-versions/`` (numpy installed once);
- ``pip install`` of the sdist, in a fresh venv outside the checkout, builds the package with
  cargo from the sdist's own copy of the Rust sources, and the result passes the same smoke
  test. Its cargo build goes to ``target/sdist-build`` (kept: a rebuild is incremental).

Without the variables these tests are skipped (reported as such).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

import pytest

from helpers import MESHES, REPO

WHEEL = os.environ.get("RAPIDPQP_WHEEL")
SDIST = os.environ.get("RAPIDPQP_SDIST")
VERSIONS = ["3.9", "3.10", "3.11", "3.12", "3.13"]
KEPT = REPO / "target" / "py-versions"

SMOKE = r"""
import pickle, sys
import numpy as np
import rapidpqp as rp

assert "site-packages" in rp.__file__, rp.__file__
mesh = rp.load(sys.argv[1])
near, far = np.eye(4), np.eye(4)
near[0, 3], far[0, 3] = 1.0, 8.0
c = rp.collide(mesh, None, mesh, near)
d = rp.distance(mesh, None, mesh, far)
t_in = rp.tolerance(mesh, None, mesh, far, d.distance * 1.01)
t_out = rp.tolerance(mesh, None, mesh, far, d.distance * 0.99)
poses = np.repeat(np.eye(4)[None], 3, axis=0)
poses[:, 0, 3] = [1.0, 8.0, 20.0]
batch = rp.collide_batch(mesh, None, mesh, poses)
distances = rp.distance_batch(mesh, None, mesh, poses)
copy = pickle.loads(pickle.dumps(mesh))
again = rp.collide(copy, None, copy, near)
assert c.colliding and len(c.pairs) > 0, c
assert d.distance > 0 and t_in.closer and not t_out.closer, (d, t_in, t_out)
assert batch.colliding.tolist() == [True, False, False], batch
assert distances.distance[0] == 0 and distances.distance[1] == d.distance, distances
assert sorted(map(tuple, again.pairs.tolist())) == sorted(map(tuple, c.pairs.tolist()))
print(f"python {sys.version.split()[0]}: {len(c.pairs)} pairs, distance {d.distance:.6g}, ok")
"""


def clean_env() -> Dict[str, str]:
    """The environment without anything that could point Python at the checkout."""
    env = dict(os.environ)
    for name in ("PYTHONPATH", "PYTHONHOME", "RAPIDPQP_LIBRARY", "VIRTUAL_ENV"):
        env.pop(name, None)
    return env


def run(args: List[str], cwd: Optional[Path] = None, env: Optional[Dict[str, str]] = None) -> str:
    r = subprocess.run(args, cwd=cwd, env=env or clean_env(), capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, f"{' '.join(map(str, args))} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}"
    return r.stdout


def find_python(version: str) -> Optional[Path]:
    """A CPython `version` of this machine: pyenv's, else `python3.X` on PATH."""
    roots = []
    pyenv = shutil.which("pyenv")
    if pyenv:
        r = subprocess.run([pyenv, "root"], capture_output=True, text=True)
        if r.returncode == 0:
            roots.append(Path(r.stdout.strip()))
    roots.append(Path.home() / ".pyenv")
    for root in roots:
        found = sorted((root / "versions").glob(f"{version}.*/bin/python{version}"))
        if found:
            return found[-1]
    on_path = shutil.which(f"python{version}")
    return Path(on_path) if on_path else None


def smoke(python: Path, work: Path) -> str:
    work.mkdir(parents=True, exist_ok=True)
    return run([str(python), "-c", SMOKE, str(MESHES / "teapot.obj")], cwd=work)


@pytest.fixture(scope="module")
def wheel() -> Path:
    if not WHEEL:
        pytest.skip("RAPIDPQP_WHEEL is not set (./run_tests.sh builds the wheel with scripts/build_wheel.sh)")
    path = Path(WHEEL).resolve()
    assert path.is_file(), f"RAPIDPQP_WHEEL={WHEEL}: no such file"
    return path


def glibc_versions(elf: Path) -> List[Tuple[int, ...]]:
    """The GLIBC_x.y versions of the symbols an ELF file needs (`objdump -T`)."""
    text = run(["objdump", "-T", str(elf)])
    return sorted({tuple(int(p) for p in v.split(".")) for v in re.findall(r"\bGLIBC_(\d+(?:\.\d+)+)\b", text)})


def test_wheel_needs_nothing_newer_than_glibc_2_17(wheel: Path, tmp_path: Path) -> None:
    assert re.fullmatch(
        r"rapidpqp-[^-]+-py3-none-manylinux2014_x86_64\.manylinux_2_17_x86_64\.whl", wheel.name
    ), wheel.name
    with zipfile.ZipFile(wheel) as z:
        binaries = [n for n in z.namelist() if n.endswith(".so") or ("/_bin/" in n and not n.endswith("/"))]
        assert sorted(Path(n).name for n in binaries) == ["librapidpqp.so", "rapidpqp"], binaries
        z.extractall(tmp_path, binaries)
    for name in binaries:
        versions = glibc_versions(tmp_path / name)
        assert versions, f"{name}: no GLIBC symbol versions found"
        assert max(versions) <= (2, 17), f"{name} needs GLIBC_{'.'.join(map(str, max(versions)))}"


@pytest.mark.parametrize("version", VERSIONS)
def test_wheel_works_under_every_python(wheel: Path, version: str) -> None:
    python = find_python(version)
    if python is None:
        pytest.skip(f"no CPython {version} on this machine (pyenv versions, python{version} on PATH)")
    venv = KEPT / version
    vpython = venv / "bin" / "python"
    if not vpython.is_file() or not (venv / "numpy-installed").is_file():
        shutil.rmtree(venv, ignore_errors=True)
        run([str(python), "-m", "venv", str(venv)])
        run([str(vpython), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "numpy"])
        (venv / "numpy-installed").write_text("")
    run(
        [str(vpython), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--force-reinstall",
         "--no-deps", str(wheel)]
    )  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="rapidpqp-py") as work:
        out = smoke(vpython, Path(work))
    assert out.startswith(f"python {version}.") and out.rstrip().endswith("ok"), out
    print(out)


@pytest.fixture(scope="module")
def sdist() -> Path:
    if not SDIST:
        pytest.skip("RAPIDPQP_SDIST is not set (./run_tests.sh builds the sdist with scripts/build_wheel.sh)")
    path = Path(SDIST).resolve()
    assert path.is_file(), f"RAPIDPQP_SDIST={SDIST}: no such file"
    return path


def test_sdist_carries_the_rust_sources_and_builds(sdist: Path) -> None:
    import tarfile

    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for needed in ("setup.py", "pyproject.toml", "rust/Cargo.toml", "rust/Cargo.lock", "rust/capi/Cargo.toml",
                   "rust/src/lib.rs", "rust/src/ffi/mod.rs", "src/rapidpqp/__init__.py"):  # fmt: skip
        assert needed in names, f"{sdist.name} lacks {needed}"
    assert not [n for n in names if n.startswith(("rust/tests/data", "rust/meshes", "rust/target"))]

    root = Path(tempfile.mkdtemp(prefix="rapidpqp-sdist-")).resolve()
    try:
        venv = root / "venv"
        run([sys.executable, "-m", "venv", str(venv)])
        env = clean_env()
        # The build's cargo output folder is kept under target/: a later run rebuilds only what
        # changed. pip builds in a folder of its own, outside the checkout, from the sdist alone.
        env["CARGO_TARGET_DIR"] = str(REPO / "target" / "sdist-build")
        run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             str(sdist)], cwd=root, env=env)  # fmt: skip
        out = smoke(venv / "bin" / "python", root / "work")
        assert out.rstrip().endswith("ok"), out
        # The command comes along.
        info = run([str(venv / "bin" / "rapidpqp"), "info", str(MESHES / "teapot.obj")], cwd=root)
        assert "triangles" in info, info
    finally:
        shutil.rmtree(root, ignore_errors=True)
