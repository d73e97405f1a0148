#!/usr/bin/env bash
# The test command: installs what it needs (Debian packages), builds with
# -Werror, runs every test (unit, integration on real Chromium, CLI, e2e on
# real JOSM), then the unit tests again under ASan+UBSan and valgrind, and
# builds the examples against the installed library.
#   scripts/test.sh            everything
#   SC_SKIP_E2E=1 scripts/test.sh   without the JOSM end-to-end label
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=$(nproc 2>/dev/null || echo 2)
log=$(mktemp /tmp/sc-testlog-XXXXXX)
trap 'rm -f "$log"' EXIT

bash scripts/deps.sh

echo "== build (Werror)"
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTEPCHECK_WERROR=ON >/dev/null
cmake --build build-test -j"$jobs" >/dev/null

echo "== tests: unit, integration, cli"
(cd build-test && ctest -j"$jobs" -L 'unit|integration|cli' --output-on-failure) | tee -a "$log"

if [ -z "${SC_SKIP_E2E:-}" ]; then
  echo "== tests: e2e (real JOSM)"
  (cd build-test && ctest -L e2e --output-on-failure) | tee -a "$log"
fi

echo "== unit tests under ASan+UBSan"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DSTEPCHECK_SANITIZE=ON -DSTEPCHECK_BENCH=OFF >/dev/null
cmake --build build-asan -j"$jobs" >/dev/null
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest -j"$jobs" -L unit --output-on-failure) | tee -a "$log"

echo "== threads under ThreadSanitizer"
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DSTEPCHECK_TSAN=ON -DSTEPCHECK_BENCH=OFF >/dev/null
cmake --build build-tsan -j"$jobs" --target integration_test_threads unit_text_test_threads unit_host_test_sampler_threads >/dev/null
(cd build-tsan && TSAN_OPTIONS=halt_on_error=1 ctest -R '_test_threads$' --output-on-failure) | tee -a "$log"

echo "== unit tests under valgrind"
bash scripts/valgrind-unit.sh build-test

echo "== install and build the examples against it"
bash scripts/check-install.sh build-test

# One closing line over every ctest run above (a failure stopped us earlier).
total=$(sed -n 's/.*tests passed, 0 tests failed out of \([0-9]*\).*/\1/p' "$log" |
        awk '{ s += $1 } END { print s + 0 }')
echo "test.sh: all passed"
echo "$total passed, 0 failed"
