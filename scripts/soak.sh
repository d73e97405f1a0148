#!/usr/bin/env bash
# The soak test (tests/soak/soak.sh): 8 users on the fixture map app for
# 10 minutes; builds first.
#   scripts/soak.sh [BUILD_DIR]          default build-soak
#   SOAK_SECONDS=60 scripts/soak.sh      a one-minute smoke run
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-soak}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)" --target stepcheck_cli >/dev/null
cd "$build"
SC_FIXTURES=$root/fixtures SC_SOURCE_DIR=$root SC_BINARY_DIR=$build \
  SC_CLI=$(find "$build" -maxdepth 1 -name stepcheck -type f -perm -u+x | head -1) \
  exec bash "$root/tests/soak/soak.sh"
