#!/usr/bin/env bash
# Runs every test of the project: the Rust, C and C++ suites (`cargo test --release`), then
# the Python package's: the distributable wheel is built from the same cargo build
# (scripts/build_wheel.sh: pip wheel + auditwheel repair) and installed, with the test
# requirements, into a private virtual environment under target/, where pytest runs the
# tests (python/tests/test_wheel.py also installs the wheel into a fresh venv outside the
# checkout) and mypy --strict checks the examples against the package's annotations.
set -euo pipefail
cd "$(dirname "$0")"

cargo test --release

wheel=$(scripts/build_wheel.sh | tail -n 1)

venv=target/py-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r python/requirements-test.txt
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$wheel"
RAPIDPQP_WHEEL="$wheel" "$venv/bin/python" -m pytest -q python/tests
(cd python && "../$venv/bin/python" -m mypy)  # --strict, python/examples: python/pyproject.toml
