#!/usr/bin/env bash
# Runs the benchmark program (benches/, its own cargo package): installs FCL (Debian's
# libfcl-dev) when it can, builds the library as a relinking C user would
# (`cargo build --release`: target/release/librapidpqp.a, which the benchmark's C harness
# links), then builds and runs the benchmark. Arguments go to the benchmark; `--help` lists
# them (--quick, --full, --case NAME, --legacy-only, --batch-only, --list). Tables go to stdout
# and benches/results/<machine>/ (report.md and CSVs).
set -euo pipefail
cd "$(dirname "$0")"

case " $* " in
*" --help "* | *" -h "* | *" --list "*) ;; # nothing to measure: no install, no library build
*)
    if ! scripts/install_fcl.sh; then
        echo "run_bench.sh: FCL could not be installed; the benchmark runs without it" >&2
    fi
    cargo build --release
    ;;
esac
cargo run --release --manifest-path benches/Cargo.toml -- "$@"
