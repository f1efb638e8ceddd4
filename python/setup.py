"""Builds the rapidpqp shared library (and the `rapidpqp` command) with cargo and ships them
inside the Python package.

`pip install ./python` (from the repository root) runs `build_py` below, which
  1. runs `cargo build --release --lib` on the crate in the parent directory and copies the
     cdylib (librapidpqp.so / librapidpqp.dylib / rapidpqp.dll) next to the package's modules,
     where `rapidpqp._native` loads it;
  2. runs `cargo build --release --bin rapidpqp` and copies the command-line program to
     `rapidpqp/_bin/`, where the `rapidpqp` console script (`rapidpqp._cli`) runs it.
The wheel is tagged for the platform but not for a Python version or ABI (`py3-none-<plat>`):
the package is pure Python over a C library (ctypes, no extension module).
`scripts/build_wheel.sh` turns that wheel into a manylinux one with auditwheel.

Progress: each step is announced on stderr, and cargo's own progress ("Compiling ...") goes
to stderr as cargo writes it. pip shows a build backend's output only with `pip install -v`.

Environment: `CARGO` names the cargo binary (default: `cargo` on PATH); `CARGO_TARGET_DIR`
and cargo's own configuration are honoured (artifact paths are read from cargo's output).
`RAPIDPQP_STRIP=0` keeps the debug information in the copied binaries (stripped by default
on Linux when `strip` is found: the release profile keeps line tables, which are most of
the library's size).
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
REPOSITORY = HERE.parent
CRATE_MANIFEST = REPOSITORY / "Cargo.toml"
CRATE_NAME = "rapidpqp"
COMMAND_NAME = "rapidpqp"  # the Rust binary of Cargo.toml ([[bin]], src/bin/rapidpqp/)
# Licence texts live at the repository root; pyproject's `license-files` can only name files
# under python/, so they are copied here (git-ignored) before setuptools reads the metadata.
LICENSE_GLOB = "LICENSE*"


def say(message: str) -> None:
    """A progress line of the build, on stderr (where pip -v and cargo's own lines go)."""
    print(f"rapidpqp build: {message}", file=sys.stderr, flush=True)


def find_cargo() -> str:
    if not CRATE_MANIFEST.is_file():
        sys.exit(
            f"rapidpqp: {CRATE_MANIFEST} not found. Build from a checkout of the repository "
            "(`pip install ./python` at its root); an sdist of python/ alone cannot build."
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


def build_library() -> Path:
    """Runs cargo and returns the path of the built shared library."""
    cargo = find_cargo()
    # The crate declares only an rlib: the C library is its `capi` feature with the C crate
    # types, the same command as install.sh and the tests (another set of crate types would
    # make cargo rebuild the library each time one or the other runs).
    command = [
        cargo, "rustc", "--release", "--lib", "--features", "capi",
        "--crate-type", "cdylib", "--crate-type", "staticlib",
        "--manifest-path", str(CRATE_MANIFEST),
        "--message-format=json-render-diagnostics",
    ]  # fmt: skip
    library = None
    for message in run_cargo(command):
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


def build_command_line_tool() -> Path:
    """Runs cargo and returns the path of the built `rapidpqp` program."""
    cargo = find_cargo()
    command = [
        # The same features as the library's build, so that cargo reuses that build.
        cargo, "build", "--release", "--bin", COMMAND_NAME, "--features", "capi",
        "--manifest-path", str(CRATE_MANIFEST),
        "--message-format=json-render-diagnostics",
    ]  # fmt: skip
    program = None
    for message in run_cargo(command):
        target = message.get("target", {})
        if (
            message.get("reason") == "compiler-artifact"
            and target.get("name") == COMMAND_NAME
            and "bin" in target.get("kind", [])
        ):
            program = message.get("executable") and Path(message["executable"])
    if program is None or not program.is_file():
        sys.exit(f"rapidpqp: cargo did not report the `{COMMAND_NAME}` program it built")
    return program


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

        say("step 1/2: the shared library (a first build compiles for about a minute)")
        library = build_library()
        shutil.copy2(library, package / library.name)
        if not editable:
            strip_debug_info(package / library.name)
        say(f"copied {library} to {package}")

        say(f"step 2/2: the `{COMMAND_NAME}` command")
        program = build_command_line_tool()
        (package / "_bin").mkdir(exist_ok=True)
        shutil.copy2(program, package / "_bin" / program.name)
        if not editable:
            strip_debug_info(package / "_bin" / program.name)
        say(f"copied {program} to {package / '_bin'}")


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
    cmdclass={"build_py": BuildPyWithCargo, "bdist_wheel": PlatformWheel},
    distclass=BinaryDistribution,
)
