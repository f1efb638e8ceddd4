#!/usr/bin/env bash
# Runs the benchmark program (benches/, its own cargo package): installs FCL (Debian's
# libfcl-dev) when it can, builds the C library as install.sh does
# (`cargo build --release -p rapidpqp-capi`:
# target/release/librapidpqp.so, which the benchmark's C harnesses link; the legacy one is
# linked a second time with the originals' library, ../shared/reference/originals, when it is
# there), then builds and runs the benchmark. Arguments go to the benchmark; `--help` lists
# them (--quick, --full, --case NAME, --legacy-only, --originals, --batch-only, --list).
# Tables go to stdout and benches/results/<machine>/ (report.md and CSVs). For the solid scene
# it also makes the Python venv of its trimesh peer (scripts/bench_venv.sh) when PyPI is
# reachable.
set -euo pipefail
cd "$(dirname "$0")"

case " $* " in
*" --help "* | *" -h "* | *" --list "*) ;; # nothing to measure: no install, no library build
*)
    if ! scripts/install_fcl.sh; then
        echo "run_bench.sh: FCL could not be installed; the benchmark runs without it" >&2
    fi
    # trimesh, the solid scene's Python peer: only when that scene may run.
    if [[ (" $* " != *" --case "* && " $* " != *" --legacy-only "* && " $* " != *" --originals "*) ||
        " $* " == *solid* ]] && ! scripts/bench_venv.sh; then
        echo "run_bench.sh: no trimesh venv (PyPI unreachable?); the solid scene runs without trimesh" >&2
    fi
    cargo build --release -p rapidpqp-capi
    ;;
esac
cargo run --release --manifest-path benches/Cargo.toml -- "$@"
