#!/usr/bin/env bash
# Runs every test of the project: the Rust, C and C++ suites, the installation tests and the
# doctests (`cargo test --release --features capi`: the C tests need the C library's feature),
# the API documentation's build (`cargo doc`, warnings as errors), then the Python package's
# tests in a private virtual environment under target/ (the package is
# installed with `pip install ./python`, which builds the library with cargo).
set -euo pipefail
cd "$(dirname "$0")"

venv=target/py-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi

# tests/install.rs builds a CMake project against the installed library: the system's CMake,
# else PyPI's `cmake` in the venv.
if [ -z "${RAPIDPQP_CMAKE:-}" ]; then
    if command -v cmake >/dev/null 2>&1; then
        RAPIDPQP_CMAKE=$(command -v cmake)
    else
        if [ ! -x "$venv/bin/cmake" ]; then
            "$venv/bin/python" -m pip install --quiet --disable-pip-version-check cmake
        fi
        RAPIDPQP_CMAKE="$PWD/$venv/bin/cmake"
    fi
    export RAPIDPQP_CMAKE
fi

cargo test --release --features capi
# The API documentation builds without a warning (broken links, undocumented public items
# under #![warn(missing_docs)]). After the release tests it only checks: about 15 s of CPU.
RUSTDOCFLAGS="-D warnings" cargo doc --release --no-deps

"$venv/bin/python" -m pip install --quiet --disable-pip-version-check ./python -r python/requirements-test.txt
"$venv/bin/python" -m pytest -q python/tests
