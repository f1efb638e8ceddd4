#!/usr/bin/env bash
# Runs every test of the project:
#   1. the Rust, C and C++ suites, the installation tests and the doctests
#      (`cargo test --release --features capi`: the C tests need the C library's feature);
#   2. the API documentation's build (`cargo doc`, warnings as errors);
#   3. the Python package's: the distributable wheel is built from the same cargo build
#      (scripts/build_wheel.sh: pip wheel + auditwheel repair) and installed, with the test
#      requirements, into a private virtual environment under target/, where pytest runs the
#      tests (python/tests/test_wheel.py also installs the wheel into a fresh venv outside the
#      checkout) and mypy --strict checks the examples against the package's annotations.
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

wheel=$(scripts/build_wheel.sh | tail -n 1)
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r python/requirements-test.txt
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$wheel"
RAPIDPQP_WHEEL="$wheel" "$venv/bin/python" -m pytest -q python/tests
(cd python && "../$venv/bin/python" -m mypy)  # --strict, python/examples: python/pyproject.toml
