#!/usr/bin/env bash
# Builds and runs the demo (examples/demo.rs).
set -euo pipefail
cd "$(dirname "$0")"
cargo run --release --example demo -- "$@"
