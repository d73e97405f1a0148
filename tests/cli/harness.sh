#!/usr/bin/env bash
# The harness example (examples/harness: a step built in C with the
# builder, run by the library) on the fixture map app served over HTTP:
# a click on a building changes the Tags panel (PASS, exit 0); a click on
# empty map does not (FAIL, exit 1: the sabotage); a URL with a quote in
# it works (the builder escapes it).
set -uo pipefail
harness=${SC_HARNESS:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-harness-XXXXXX)
srv=""
cleanup() {
  [ -n "$srv" ] && kill "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$fx/mapapp" >"$tmp/srv.log" 2>&1 &
srv=$!
port=""
for _ in $(seq 1 100); do
  port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$tmp/srv.log" | head -1)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "harness: the HTTP server did not start"; cat "$tmp/srv.log"; exit 1; }
base="http://127.0.0.1:$port/index.html"
pass=0 fail=0
expect() { # name want_rc want_substring args...
  local name=$1 want=$2 msg=$3; shift 3
  "$harness" "$@" >"$tmp/out" 2>&1
  local rc=$?
  if [ "$rc" -ne "$want" ] || ! grep -qF -- "$msg" "$tmp/out"; then
    echo "FAIL $name: exit $rc (want $want), output:"; cat "$tmp/out"; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}
expect click-building 0 "click PASS" "$base" 554 502 1272,234,323,180 1600x900
expect click-empty-fails 1 "click FAIL" "$base" 523 502 1272,234,323,180 1600x900
expect url-with-quote 0 "click PASS" "$base?x=\"q\"" 554 502 1272,234,323,180 1600x900
expect region-outside 2 "outside" "$base" 554 502 1500,234,323,180 1600x900
echo "cli-harness: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
