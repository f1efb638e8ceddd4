#!/usr/bin/env bash
# Runs every test of the project: the Rust, C and C++ suites (`cargo test --release
# --features capi`: the C tests need the C library's feature), then the Python package's tests
# in a private virtual environment under target/ (the package is installed with
# `pip install ./python`, which builds the library with cargo).
set -euo pipefail
cd "$(dirname "$0")"

cargo test --release --features capi

venv=target/py-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check ./python -r python/requirements-test.txt
"$venv/bin/python" -m pytest -q python/tests
