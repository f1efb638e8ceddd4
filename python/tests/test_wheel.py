"""The distributable wheel, as a user gets it: installed into a fresh venv outside the
checkout with ``pip install --no-index --find-links`` (numpy from the index or pip's cache),
and used from a directory outside the checkout.

``./run_tests.sh`` builds the wheel with ``scripts/build_wheel.sh`` and names it in
``RAPIDPQP_WHEEL``; without that variable these tests are skipped (reported as such).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Dict, Iterator, List

import numpy as np
import pytest

from helpers import MESHES, REPO

WHEEL = os.environ.get("RAPIDPQP_WHEEL")

pytestmark = [
    pytest.mark.wheel,
    pytest.mark.skipif(
        not WHEEL, reason="RAPIDPQP_WHEEL is not set (./run_tests.sh builds the wheel with scripts/build_wheel.sh)"
    ),
]


def clean_env() -> Dict[str, str]:
    """The environment without anything that could point Python at the checkout."""
    env = dict(os.environ)
    for name in ("PYTHONPATH", "PYTHONHOME", "RAPIDPQP_LIBRARY", "VIRTUAL_ENV"):
        env.pop(name, None)
    return env


class Venv:
    def __init__(self, root: Path):
        self.root = root
        self.dir = root / "venv"
        self.python = self.dir / "bin" / "python"
        self.work = root / "work"  # the directory queries run from

    def run(self, args: List[str], **kw: object) -> "subprocess.CompletedProcess[str]":
        return subprocess.run(
            args, cwd=self.work, env=clean_env(), capture_output=True, text=True, timeout=600, **kw
        )


@pytest.fixture(scope="module")
def wheel() -> Path:
    assert WHEEL is not None
    path = Path(WHEEL).resolve()
    assert path.is_file(), f"RAPIDPQP_WHEEL={WHEEL}: no such file"
    return path


@pytest.fixture(scope="module")
def venv(wheel: Path) -> Iterator[Venv]:
    root = Path(tempfile.mkdtemp(prefix="rapidpqp-wheel-")).resolve()
    try:
        assert REPO.resolve() not in root.parents, f"the temporary directory {root} is inside the checkout"
        v = Venv(root)
        v.work.mkdir()
        # Without a pip of its own (ensurepip takes longer than the rest): this suite's pip
        # installs into it.
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(v.dir)], check=True, env=clean_env())
        pip = [sys.executable, "-m", "pip", "--python", str(v.python), "install", "--quiet", "--disable-pip-version-check"]
        # numpy first, the version this suite runs with (pip's cache has it), so that the
        # wheel itself can then come from its directory alone.
        subprocess.run(pip + [f"numpy=={np.__version__}"], check=True, env=clean_env(), cwd=v.work)
        version = wheel.name.split("-")[1]
        subprocess.run(
            pip + ["--no-index", "--find-links", str(wheel.parent), f"rapidpqp=={version}"],
            check=True,
            env=clean_env(),
            cwd=v.work,
        )
        yield v
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_wheel_is_manylinux_for_every_python3(wheel: Path) -> None:
    assert re.fullmatch(r"rapidpqp-[^-]+-py3-none-manylinux[\w.]+_x86_64\.whl", wheel.name), wheel.name
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        info = next(n for n in names if n.endswith(".dist-info/WHEEL"))
        tags = [line.split(": ", 1)[1] for line in z.read(info).decode().splitlines() if line.startswith("Tag: ")]
        # One Tag line per platform of the file name's compressed set (manylinux2014.manylinux_2_17).
        platforms = wheel.name[: -len(".whl")].split("-")[-1].split(".")
        assert sorted(tags) == sorted(f"py3-none-{p}" for p in platforms)
        assert "rapidpqp/librapidpqp.so" in names
        # No extension module: the library is loaded with ctypes.
        assert not [n for n in names if re.search(r"\.cpython-|\.abi3\.", n)]


def test_wheel_metadata(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = z.read(meta_name).decode()
        dist_info = meta_name.rsplit("/", 1)[0]
        assert "\nLicense-Expression: MIT OR Apache-2.0\n" in meta
        assert "\nRequires-Python: >=3.9\n" in meta
        # Every licence text at the repository's root is in the wheel, and named in METADATA.
        for text in sorted(REPO.glob("LICENSE*")):
            assert f"\nLicense-File: {text.name}\n" in meta
            assert z.read(f"{dist_info}/licenses/{text.name}") == text.read_bytes()


QUERY = """
import json, sys, sysconfig
import numpy as np
import rapidpqp as rp
v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
f = np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])
m = rp.Model(v, f)
far = np.eye(4); far[0, 3] = 3.0
print(json.dumps({
    "package": rp.__file__,
    "library": str(rp.LIBRARY_PATH),
    "site_packages": sysconfig.get_paths()["platlib"],
    "colliding": rp.collide(m, None, m, None).colliding,
    "distance": rp.distance(m, None, m, far).distance,
    "closer": rp.tolerance(m, None, m, far, 2.5).closer,
}))
"""


def test_query_loads_the_library_from_site_packages(venv: Venv) -> None:
    r = venv.run([str(venv.python), "-c", QUERY])
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    site = Path(out["site_packages"]).resolve()
    assert site.is_relative_to(venv.dir)
    for key in ("package", "library"):
        path = Path(out[key]).resolve()
        assert path.is_relative_to(site / "rapidpqp"), f"{key}: {path} is not in {site}"
        assert not path.is_relative_to(REPO.resolve()), f"{key}: {path} is in the checkout"
    assert Path(out["library"]).name == "librapidpqp.so"
    assert out["colliding"] is True
    assert out["distance"] == 2.0  # the tetrahedra's nearest faces: x = 1 and x = 3
    assert out["closer"] is True


def test_wheel_ships_the_command(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as z:
        info = z.getinfo("rapidpqp/_bin/rapidpqp")
        assert (info.external_attr >> 16) & 0o111, "the program is not executable"
        entry_points = next(n for n in z.namelist() if n.endswith(".dist-info/entry_points.txt"))
        assert "rapidpqp = rapidpqp._cli:main" in z.read(entry_points).decode()


def test_command_runs_the_shipped_program(venv: Venv) -> None:
    command = str(venv.dir / "bin" / "rapidpqp")
    help_text = venv.run([command, "--help"])
    assert help_text.returncode == 0, help_text.stderr
    assert "info" in help_text.stdout + help_text.stderr

    info = venv.run([command, "info", str(MESHES / "bunny_15k.obj"), "--json"])
    assert info.returncode == 0, info.stderr
    facts = json.loads(info.stdout)["info"]
    assert (facts["triangles"], facts["vertices"]) == (15536, 7805)  # its f and v lines

    # A failure's exit status and message are the program's own.
    where = venv.run([str(venv.python), "-c", "import rapidpqp._cli as c; print(c.program_path())"])
    program = Path(where.stdout.strip())
    assert program.is_relative_to(venv.dir) and program.is_file(), where.stdout + where.stderr
    missing = str(venv.work / "no-such-mesh.obj")
    via_script = venv.run([command, "info", missing])
    direct = venv.run([str(program), "info", missing])
    assert via_script.returncode == direct.returncode != 0
    assert via_script.stderr == direct.stderr
