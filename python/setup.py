"""Builds the rapidpqp shared library with cargo and ships it inside the Python package.

`pip install ./python` (from the repository root) runs `build_py` below, which runs
`cargo rustc --release --lib --features capi --crate-type cdylib --crate-type staticlib` on
the crate in the parent directory and copies the cdylib
(librapidpqp.so / librapidpqp.dylib / rapidpqp.dll) next to the package's modules, where
`rapidpqp._native` loads it. The wheel is tagged for the platform but not for a Python
version or ABI: the package is pure Python over a C library (ctypes, no extension module).

Environment: `CARGO` names the cargo binary (default: `cargo` on PATH); `CARGO_TARGET_DIR`
and cargo's own configuration are honoured (the artifact path is read from cargo's output).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent
CRATE_MANIFEST = HERE.parent / "Cargo.toml"
CRATE_NAME = "rapidpqp"


def build_library() -> Path:
    """Runs cargo and returns the path of the built shared library."""
    if not CRATE_MANIFEST.is_file():
        sys.exit(
            f"rapidpqp: {CRATE_MANIFEST} not found. Build from a checkout of the repository "
            "(`pip install ./python` at its root); an sdist of python/ alone cannot build."
        )
    cargo = os.environ.get("CARGO", "cargo")
    if shutil.which(cargo) is None:
        sys.exit("rapidpqp: `cargo` was not found. Install a Rust toolchain (https://rustup.rs).")
    # The crate declares only an rlib: the C library is its `capi` feature with the C crate
    # types, the same command as install.sh and the tests (another set of crate types would
    # make cargo rebuild the library each time one or the other runs).
    command = [
        cargo, "rustc", "--release", "--lib", "--features", "capi",
        "--crate-type", "cdylib", "--crate-type", "staticlib",
        "--manifest-path", str(CRATE_MANIFEST),
        "--message-format=json-render-diagnostics",
    ]  # fmt: skip
    print("rapidpqp: " + " ".join(command), flush=True)
    proc = subprocess.run(command, stdout=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f"rapidpqp: cargo rustc failed (exit status {proc.returncode})")
    library = None
    for line in proc.stdout.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        target = message.get("target", {})
        if (
            message.get("reason") == "compiler-artifact"
            and target.get("name") == CRATE_NAME
            and "cdylib" in target.get("crate_types", [])
        ):
            for name in message.get("filenames", []):
                if name.endswith((".so", ".dylib", ".dll")):
                    library = Path(name)
    if library is None or not library.is_file():
        sys.exit("rapidpqp: cargo did not report the shared library it built")
    return library


class BuildPyWithCargo(build_py):
    """build_py, plus the native library copied into the package."""

    def run(self) -> None:
        super().run()
        library = build_library()
        if getattr(self, "editable_mode", False):
            target = HERE / "src" / "rapidpqp"  # editable installs load from the source tree
        else:
            target = Path(self.build_lib) / "rapidpqp"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy2(library, target / library.name)
        print(f"rapidpqp: copied {library} to {target}", flush=True)


class PlatformWheel(bdist_wheel):
    """A wheel for this platform that any Python 3 can use (no extension module)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self) -> tuple:
        _, _, platform = super().get_tag()
        return "py3", "none", platform


class BinaryDistribution(Distribution):
    def has_ext_modules(self) -> bool:
        return True


setup(
    cmdclass={"build_py": BuildPyWithCargo, "bdist_wheel": PlatformWheel},
    distclass=BinaryDistribution,
)
