#!/usr/bin/env bash
# Runs the C and C++ test programs under sanitizers:
#
#   1. AddressSanitizer + UndefinedBehaviorSanitizer: every C/C++ program of the suite
#      (c_tests/, built by the Rust tests through tests/common/cbuild.rs with
#      RAPIDPQP_C_SANITIZE=address,undefined), linked with librapidpqp.a / .so.
#   2. ThreadSanitizer: c_tests/threads.c (native queries, batches, the handle registry,
#      serialization and V-COLLIDE engines on nine threads) built with -fsanitize=thread.
#   3. valgrind's helgrind and DRD on the same threaded program, built plainly.
#
# What each can and cannot see (stable Rust has no -Zsanitizer): the compiler sanitizers
# instrument the C programs only. ASan still catches the library writing out of bounds of a
# C program's buffers, freeing what it did not allocate and leaking (its malloc and free are
# intercepted for the Rust code too); UBSan checks the C side only; TSan sees the C threads'
# accesses and every pthread and malloc call, not the Rust code's own loads and stores.
# helgrind and DRD do see every instruction, Rust included, but they model only pthread
# synchronization: Rust's std::sync::Mutex (futex based) and atomics look like no
# synchronization to them, so they report "races" in code that is correctly synchronized (the
# handle registry's allocator and slots, the batch's work counter). This script prints their
# summaries and fails only on a report whose innermost frame is in the C program.
#
# Installs what it needs from Debian (gcc's sanitizer runtimes, valgrind) when missing and it
# can (root or sudo); otherwise it says what is missing and skips that part.
set -uo pipefail
cd "$(dirname "$0")/.."

failures=0
note() { printf '\n== %s\n' "$*"; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else return 1; fi
}

# A sanitizer runtime works when a tiny program builds and runs with it.
works() {
    local dir
    dir=$(mktemp -d)
    printf 'int main(void) { return 0; }\n' > "$dir/t.c"
    cc "-fsanitize=$1" "$dir/t.c" -o "$dir/t" >/dev/null 2>&1 && "$dir/t" >/dev/null 2>&1
    local ok=$?
    rm -rf "$dir"
    return $ok
}

need_packages=()
for s in address undefined thread; do
    works "$s" || need_packages+=("libasan8" "libubsan1" "libtsan2")
done
command -v valgrind >/dev/null || need_packages+=("valgrind")
if [ ${#need_packages[@]} -gt 0 ]; then
    note "installing ${need_packages[*]} (apt-get)"
    if ! (as_root apt-get update -qq && as_root apt-get install -y -qq "${need_packages[@]}" >/dev/null); then
        echo "sanitizers: cannot install ${need_packages[*]} (needs root or sudo and Debian's"
        echo "package lists); the parts that need them are skipped."
    fi
fi

# The C library (as install.sh builds it) and the test binaries, which need the `capi` feature.
cargo build --release -p rapidpqp-capi --quiet || exit 1
cargo test --release --features capi --no-run --quiet || exit 1

# The test binaries that build and run C or C++ programs.
c_tests=(--test c_misuse --test c_conformance --test c_pqp_conformance --test c_fixed_cost
         --test cxx_compat --test vcollide --test c_threads --test c_solid --test c_sweep --test c_header)

if works address && works undefined; then
    note "AddressSanitizer + UndefinedBehaviorSanitizer: every C and C++ test program"
    if RAPIDPQP_C_SANITIZE=address,undefined \
        ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        cargo test --release --features capi --quiet "${c_tests[@]}"; then
        echo "ASan + UBSan: clean"
    else
        echo "ASan + UBSan: FAILED"
        failures=$((failures + 1))
    fi
else
    echo "ASan/UBSan runtimes not available: skipped"
fi

out=target/tmp/sanitizers
mkdir -p "$out"
build_threads() { # output, extra flags...
    local exe=$1
    shift
    cc -std=c99 -O1 -g -fno-omit-frame-pointer "$@" -Iinclude -Ic_tests c_tests/threads.c \
        target/release/librapidpqp.a -lm -lpthread -ldl -o "$exe"
}

if works thread; then
    note "ThreadSanitizer: c_tests/threads.c (the C side instrumented)"
    build_threads "$out/threads_tsan" -fsanitize=thread || exit 1
    if TSAN_OPTIONS=halt_on_error=1:exitcode=66 "$out/threads_tsan" > "$out/tsan.log" 2>&1; then
        tail -n 1 "$out/tsan.log"
        echo "TSan: clean"
    else
        cat "$out/tsan.log"
        echo "TSan: FAILED"
        failures=$((failures + 1))
    fi
else
    echo "TSan runtime not available: skipped"
fi

if command -v valgrind >/dev/null; then
    build_threads "$out/threads_plain" || exit 1
    for tool in helgrind drd; do
        note "valgrind --tool=$tool: c_tests/threads.c (Rust code included, see the limits above)"
        valgrind --tool=$tool --error-exitcode=0 "$out/threads_plain" > "$out/$tool.log" 2>&1
        grep -E '^threads: ' "$out/$tool.log" || { echo "$tool: the program did not finish"; failures=$((failures + 1)); }
        grep -E 'ERROR SUMMARY' "$out/$tool.log" | sed 's/^==[0-9]*== /  /'
        # The innermost frame of each report: C-side ones are real findings.
        c_side=$(grep -A2 -E 'Possible data race|Conflicting (load|store)|lock order' "$out/$tool.log" \
            | grep -E '^==[0-9]+== +at ' | grep -c 'threads\.c' || true)
        echo "  reports whose innermost frame is in threads.c: $c_side (log: $out/$tool.log)"
        if [ "$c_side" != 0 ]; then
            failures=$((failures + 1))
        fi
    done
else
    echo "valgrind not available: helgrind and DRD skipped"
fi

note "sanitizers: $failures part(s) failed"
[ "$failures" = 0 ]
