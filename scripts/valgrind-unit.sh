#!/usr/bin/env bash
# Run every unit-test program of a build under valgrind: any memory error or
# definite leak fails. Usage: scripts/valgrind-unit.sh BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: valgrind-unit.sh BUILD_DIR}
export SC_FIXTURES="$root/fixtures" SC_SOURCE_DIR="$root" SC_BINARY_DIR="$root/$build" SC_CLI="$root/$build/stepcheck"
fail=0 n=0
for t in "$build"/tests/unit_*; do
  [ -x "$t" ] && [ -f "$t" ] || continue
  case "$t" in *.log) continue ;; esac
  n=$((n + 1))
  if ! valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 \
      "$t" >"$t.valgrind.log" 2>&1; then
    echo "valgrind: FAIL $t (log: $t.valgrind.log)"; tail -30 "$t.valgrind.log"; fail=1
  fi
done
[ "$n" -gt 0 ] || { echo "valgrind: no unit tests found in $build"; exit 1; }
[ "$fail" -eq 0 ] && echo "valgrind: $n unit programs clean"
exit "$fail"
