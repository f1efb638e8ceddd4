#!/usr/bin/env bash
# Runs the benchmark program (benches/, its own cargo package) with its peers: installs FCL
# (Debian's libfcl-dev) first when it can, then builds and runs the benchmark. Arguments go to
# the benchmark: --quick (fewer repeats, the committed figures), --full (Scenario I at 15°/60°),
# --batch-only (just the batched-API scaling). Tables go to stdout, CSV to
# benches/results/<machine>/.
set -euo pipefail
cd "$(dirname "$0")"

if ! scripts/install_fcl.sh; then
    echo "run_bench.sh: FCL could not be installed; the benchmark runs without it" >&2
fi
cargo run --release --manifest-path benches/Cargo.toml -- "$@"
