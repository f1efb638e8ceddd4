#!/usr/bin/env bash
# Runs the fuzz targets of tests/fuzz (C entry points, serialized models, OBJ reader) for a set
# time with a fresh seed, and prints the seed and the number of cases of each target.
#
#   scripts/fuzz_long.sh [minutes]      # default 15; the three targets run side by side
#   RAPIDPQP_FUZZ_SEED=0x... scripts/fuzz_long.sh 5     # a chosen seed instead of a fresh one
#
# A failure prints the failing case, shrunk, and the command that replays it
# (RAPIDPQP_FUZZ_SEED=... RAPIDPQP_FUZZ_CASE=... cargo test --release --features capi --test fuzz <target>).
set -euo pipefail
cd "$(dirname "$0")/.."

minutes="${1:-15}"
seed="${RAPIDPQP_FUZZ_SEED:-$(od -An -N8 -tx8 /dev/urandom | tr -d ' \n' | sed 's/^/0x/')}"
seconds=$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 }')

echo "fuzz_long: seed $seed, $minutes min per target (all three at once)"
cargo test --release --features capi --test fuzz --no-run --quiet
start=$(date +%s)
status=0
RAPIDPQP_FUZZ_SEED="$seed" RAPIDPQP_FUZZ_SECONDS="$seconds" \
    cargo test --release --features capi --quiet --test fuzz -- --nocapture --test-threads=3 || status=$?
echo "fuzz_long: seed $seed, $(( $(date +%s) - start )) s, exit status $status"
exit "$status"
