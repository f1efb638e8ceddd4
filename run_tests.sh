#!/usr/bin/env bash
# Runs every test of the project, saying what it does and how long each part took:
#   1. the Rust, C and C++ suites, the installation tests, the documentation's C and Rust
#      blocks and the doctests (`cargo test --release --features capi`);
#   2. the API documentation's build (`cargo doc`, warnings as errors);
#   3. the Python packages: the manylinux2014 wheel and the sdist (scripts/build_wheel.sh:
#      zig links the wheel for glibc 2.17; auditwheel checks it);
#   4. the Python suite under this machine's python3, in a private venv under target/ with the
#      wheel and the test requirements (PyPI) installed: the package's tests, the
#      documentation's Python and shell blocks, the wheel under every CPython 3.9-3.13 found
#      (pyenv), `pip install` of the sdist; then mypy --strict on python/examples.
# Everything that can be reused is kept under target/ (cargo's builds, the venvs, pip's
# downloads stay in pip's cache): a second run rebuilds only what changed.
# On an idle 2-core machine: about 10 minutes the first time, about 5 after (the Rust tests
# are most of it); more when other builds share the cores.
set -euo pipefail
cd "$(dirname "$0")"

start_all=$SECONDS
timings=()
part_start=0
part_name=""
begin() {
    part_name=$1
    part_start=$SECONDS
    echo
    echo "== run_tests.sh: $part_name"
}
end() {
    local took=$((SECONDS - part_start))
    timings+=("$(printf '%4d s  %s' "$took" "$part_name")")
    echo "== run_tests.sh: $part_name: done in ${took} s"
}
summary() {
    local status=$?
    echo
    echo "== run_tests.sh: time per part"
    for line in "${timings[@]}"; do echo "$line"; done
    if [ "$status" -ne 0 ] && [ -n "$part_name" ]; then
        echo "== run_tests.sh: FAILED in: $part_name (after $((SECONDS - part_start)) s)"
    fi
    echo "== run_tests.sh: total $((SECONDS - start_all)) s"
}
trap summary EXIT

venv=target/py-venv
begin "Python venv for the tests ($venv) and CMake"
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
end

begin "Rust, C, C++, installation and documentation tests (cargo test --release --features capi)"
cargo test --release --features capi
end

# The API documentation builds without a warning (broken links, undocumented public items
# under #![warn(missing_docs)]). After the release tests it only checks: about 15 s of CPU.
begin "API documentation (cargo doc, warnings as errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --release --no-deps
end

begin "the manylinux2014 wheel and the sdist (scripts/build_wheel.sh)"
built=$(scripts/build_wheel.sh)
wheel=$(printf '%s\n' "$built" | sed -n 1p)
sdist=$(printf '%s\n' "$built" | sed -n 2p)
end

begin "Python suite under $(python3 --version), the wheel under CPython 3.9-3.13, the sdist (pytest)"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r python/requirements-test.txt
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$wheel"
RAPIDPQP_WHEEL="$wheel" RAPIDPQP_SDIST="$sdist" "$venv/bin/python" -m pytest -q -rs python/tests
end

begin "mypy --strict on python/examples"
(cd python && "../$venv/bin/python" -m mypy) # configured in python/pyproject.toml
end
part_name=""
