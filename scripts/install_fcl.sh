#!/usr/bin/env bash
# Installs FCL (Debian's libfcl-dev) for the benchmark's FCL peer (benches/build.rs finds it
# through pkg-config). Idempotent: does nothing when FCL is already installed. The library
# itself never depends on FCL.
set -euo pipefail

if dpkg -s libfcl-dev >/dev/null 2>&1 || pkg-config --exists fcl 2>/dev/null; then
    echo "FCL already installed ($(pkg-config --modversion fcl 2>/dev/null || echo 'libfcl-dev'))"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    echo "install_fcl.sh: need root or sudo to install libfcl-dev" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends libfcl-dev pkg-config

pkg-config --exists fcl && echo "FCL $(pkg-config --modversion fcl) installed" \
    || { echo "install_fcl.sh: libfcl-dev installed but pkg-config cannot find fcl" >&2; exit 1; }
