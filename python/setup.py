"""Builds the rapidpqp shared library (and the `rapidpqp` command) with cargo and ships them
inside the Python package.

`pip install ./python` (from the repository root) runs `build_py` below, which runs one
`cargo build --release` on the Rust workspace (in the parent directory of a checkout, or in
`rust/` of an sdist), then copies
  1. the C library (the workspace's `rapidpqp-capi` package: librapidpqp.so / .dylib /
     rapidpqp.dll) next to the package's modules, where `rapidpqp._native` loads it;
  2. the command-line program to `rapidpqp/_bin/`, where the `rapidpqp` console script
     (`rapidpqp._cli`) runs it.
The wheel is tagged for the platform but not for a Python version or ABI (`py3-none-<plat>`):
the package is pure Python over a C library (ctypes, no extension module).
`scripts/build_wheel.sh` builds the manylinux2014 wheel (glibc 2.17, linked by zig) and the
sdist; `python setup.py sdist` (or `python -m build --sdist`) copies the Rust workspace's
sources into the sdist's `rust/`, so that `pip install rapidpqp-*.tar.gz` builds from it alone.

Progress: each step is announced on stderr, and cargo's own progress ("Compiling ...") goes
to stderr as cargo writes it. pip shows a build backend's output only with `pip install -v`.

Environment: `CARGO` names the cargo binary (default: `cargo` on PATH); `CARGO_TARGET_DIR`
and cargo's own configuration are honoured (artifact paths are read from cargo's output).
`RAPIDPQP_CARGO_BUILD` replaces the cargo subcommand `build` with other words, e.g.
`zigbuild --target x86_64-unknown-linux-gnu.2.17` (what build_wheel.sh uses).
`RAPIDPQP_STRIP=0` keeps the debug information in the copied binaries (stripped by default
on Linux when `strip` is found).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist
from setuptools.dist import Distribution

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent
# The Rust workspace: rust/ in an sdist (copied there by SdistWithCrate), else the checkout.
SDIST_CRATE = HERE / "rust"
REPOSITORY = SDIST_CRATE if (SDIST_CRATE / "Cargo.toml").is_file() else HERE.parent
CRATE_MANIFEST = REPOSITORY / "Cargo.toml"
LIBRARY_NAME = "rapidpqp"  # the C library's lib target (capi/Cargo.toml: librapidpqp.so)
COMMAND_NAME = "rapidpqp"  # the Rust binary of Cargo.toml ([[bin]], src/bin/rapidpqp/)
# Licence texts live at the repository root; pyproject's `license-files` can only name files
# under python/, so they are copied here (git-ignored) before setuptools reads the metadata.
LICENSE_GLOB = "LICENSE*"
# What an sdist carries of the workspace (paths from its root; directories whole): what cargo
# needs to build the library and the program. Not the tests' data, meshes or benchmarks.
CRATE_FILES = ["Cargo.toml", "Cargo.lock", "build.rs", "cbindgen.toml", "src", "capi", "include"]
# Targets Cargo.toml declares by name must exist for cargo to read it: their source files only.
CRATE_DECLARED_TARGETS = ["tests/*.rs", "tests/*/main.rs", "examples/*.rs"]


def say(message: str) -> None:
    """A progress line of the build, on stderr (where pip -v and cargo's own lines go)."""
    print(f"rapidpqp build: {message}", file=sys.stderr, flush=True)


def find_cargo() -> str:
    if not CRATE_MANIFEST.is_file():
        sys.exit(
            f"rapidpqp: {CRATE_MANIFEST} not found. Build from a checkout of the repository "
            "(`pip install ./python` at its root) or from the sdist (which carries it in rust/)."
        )
    cargo = os.environ.get("CARGO", "cargo")
    if shutil.which(cargo) is None:
        sys.exit("rapidpqp: `cargo` was not found. Install a Rust toolchain (https://rustup.rs).")
    return cargo


def run_cargo(command: list[str]) -> list[dict]:
    """Runs a cargo build whose stdout is JSON messages (returned, parsed) while its stderr,
    the human progress and diagnostics, streams through unchanged."""
    say("running " + " ".join(command))
    proc = subprocess.run(command, stdout=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f"rapidpqp: cargo build failed (exit status {proc.returncode})")
    messages = []
    for line in proc.stdout.splitlines():
        try:
            messages.append(json.loads(line))
        except ValueError:
            continue
    return messages


def build_library_and_program() -> tuple[Path, Path]:
    """Runs `cargo build --release` on the workspace (the library, the C library and the
    program: the same build as a plain `cargo build --release` at its root, so that one reuses
    the other) and returns the paths of the shared library and the program."""
    cargo = find_cargo()
    build = shlex.split(os.environ.get("RAPIDPQP_CARGO_BUILD", "build"))
    command = [
        cargo, *build, "--release", "--locked",
        "--manifest-path", str(CRATE_MANIFEST),
        "--message-format=json-render-diagnostics",
    ]  # fmt: skip
    library = program = None
    for message in run_cargo(command):
        if message.get("reason") != "compiler-artifact":
            continue
        target = message.get("target", {})
        if target.get("name") == LIBRARY_NAME and "cdylib" in target.get("crate_types", []):
            for name in message.get("filenames", []):
                if name.endswith((".so", ".dylib", ".dll")):
                    library = Path(name)
        if target.get("name") == COMMAND_NAME and "bin" in target.get("kind", []) and message.get("executable"):
            program = Path(message["executable"])
    if library is None or not library.is_file():
        sys.exit("rapidpqp: cargo did not report the shared library it built")
    if program is None or not program.is_file():
        sys.exit(f"rapidpqp: cargo did not report the `{COMMAND_NAME}` program it built")
    return library, program


def strip_debug_info(path: Path) -> None:
    """Strips a copied ELF binary's symbol table and debug information (the dynamic symbols,
    the C API, stay). Linux only; skipped with RAPIDPQP_STRIP=0 or without `strip`."""
    if not sys.platform.startswith("linux") or os.environ.get("RAPIDPQP_STRIP", "1") == "0":
        return
    strip = shutil.which("strip")
    if strip is None:
        say(f"`strip` not found: {path.name} keeps its debug information")
        return
    before = path.stat().st_size
    subprocess.run([strip, "--strip-all", str(path)], check=True)
    say(f"stripped {path.name}: {before / 1e6:.1f} MB -> {path.stat().st_size / 1e6:.1f} MB")


def copy_licenses() -> None:
    for source in sorted(REPOSITORY.glob(LICENSE_GLOB)):
        if source.is_file():
            copy = HERE / source.name
            if not copy.is_file() or copy.read_bytes() != source.read_bytes():
                shutil.copyfile(source, copy)


class BuildPyWithCargo(build_py):
    """build_py, plus the native library and the command-line program copied into the package."""

    def run(self) -> None:
        super().run()
        editable = getattr(self, "editable_mode", False)
        if editable:
            package = HERE / "src" / "rapidpqp"  # editable installs load from the source tree
        else:
            package = Path(self.build_lib) / "rapidpqp"
        package.mkdir(parents=True, exist_ok=True)

        say("building the shared library and the command (a first build compiles for a few minutes)")
        library, program = build_library_and_program()
        shutil.copy2(library, package / library.name)
        if not editable:
            strip_debug_info(package / library.name)
        say(f"copied {library} to {package}")
        (package / "_bin").mkdir(exist_ok=True)
        shutil.copy2(program, package / "_bin" / program.name)
        if not editable:
            strip_debug_info(package / "_bin" / program.name)
        say(f"copied {program} to {package / '_bin'}")


class SdistWithCrate(sdist):
    """sdist, plus the Rust workspace's sources in rust/ (CRATE_FILES), so that the sdist
    builds on its own."""

    def make_release_tree(self, base_dir: str, files: list) -> None:
        super().make_release_tree(base_dir, files)
        if REPOSITORY == SDIST_CRATE:
            source = SDIST_CRATE  # an sdist made from an sdist: rust/ is among the files already
            if (Path(base_dir) / "rust" / "Cargo.toml").is_file():
                return
        else:
            source = REPOSITORY
        dest = Path(base_dir) / "rust"
        for name in CRATE_FILES:
            path = source / name
            if path.is_dir():
                shutil.copytree(path, dest / name, ignore=shutil.ignore_patterns("target", "__pycache__"))
            elif path.is_file():
                dest.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, dest / name)
            else:
                sys.exit(f"rapidpqp sdist: {path} not found")
        for pattern in CRATE_DECLARED_TARGETS:
            for path in sorted(source.glob(pattern)):
                (dest / path.relative_to(source)).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, dest / path.relative_to(source))
        say(f"copied the Rust workspace's sources into {dest}")


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


copy_licenses()
setup(
    cmdclass={"build_py": BuildPyWithCargo, "bdist_wheel": PlatformWheel, "sdist": SdistWithCrate},
    distclass=BinaryDistribution,
)
