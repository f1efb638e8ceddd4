#!/usr/bin/env bash
# Runs every test of the project: the Rust, C and C++ suites and the doctests (`cargo test
# --release`), the API documentation's build (`cargo doc`, warnings as errors), then
# the Python package's tests in a private virtual environment under target/ (the package is
# installed with `pip install ./python`, which builds the library with cargo).
set -euo pipefail
cd "$(dirname "$0")"

cargo test --release
# The API documentation builds without a warning (broken links, undocumented public items
# under #![warn(missing_docs)]). After the release tests it only checks: about 15 s of CPU.
RUSTDOCFLAGS="-D warnings" cargo doc --release --no-deps

venv=target/py-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check ./python -r python/requirements-test.txt
"$venv/bin/python" -m pytest -q python/tests
