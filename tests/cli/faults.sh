#!/usr/bin/env bash
# Browser faults under --users follow the one-user rule (docs/reliability.md,
# "Round 2 (0.3.0): limits, faults, report writers"): the browser killed, its
# renderers killed, or a page without a canvas end the run with exit 3 and a
# line on stderr per user, never 1 (the application's failure) in silence; and
# the reports say what happened: the step the kill cut off is an error that
# ran until the kill (not its 8 s timeout) in report.json, results.jtl
# (success=false with the message) and junit.xml (an <error> for each error
# counted). Two users; every process this test starts is stopped by pid.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-faults-XXXXXX)
runpid=""
cleanup() {
  [ -n "$runpid" ] && kill -KILL "$runpid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../util/tally.sh"
url="file://$fx/mapapp/index.html"
scn="$fx/mapapp/seven-steps.json"

# start NAME URL: a 2-user run of many cycles in the background ($runpid),
# reports under $tmp/NAME; $group is its browser's process group once up.
start() {
  "$cli" run "$scn" --url "$2" --allow-url-scheme file --users 2 --warmup 0 --cycles 40 \
    --report "$tmp/$1" --junit "$tmp/$1.xml" --jtl "$tmp/$1.jtl" >"$tmp/$1.out" 2>"$tmp/$1.err" &
  runpid=$!
  group=""
  for _ in $(seq 1 150); do
    group=$(pgrep -P "$runpid" -f chrom | head -1)
    [ -n "$group" ] && break
    sleep 0.1
  done
}

# finish NAME: wait for the run; $rc, $took (s, from the call)
finish() {
  local t0
  t0=$(date +%s.%N)
  wait "$runpid"
  rc=$?
  runpid=""
  took=$(python3 -c "import sys; print('%.2f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$(date +%s.%N)")
}

# gone GROUP: no live process of the group within 3 s
gone() {
  for _ in $(seq 1 30); do
    pgrep -g "$1" >/dev/null 2>&1 || return 0
    ps -o stat= -p "$(pgrep -d, -g "$1")" 2>/dev/null | grep -qv '^Z' || return 0
    sleep 0.1
  done
  return 1
}

# Every report agrees: the cut-off steps are errors with the time they ran.
check_reports() { # NAME
  python3 - "$tmp/$1/report.json" "$tmp/$1.jtl" "$tmp/$1.xml" <<'PY'
import csv, json, sys
import xml.etree.ElementTree as ET
rep = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
root = ET.parse(sys.argv[3]).getroot()
users = rep["users"]
assert users and all(u["error"] for u in users), [u["error"] for u in users]
faults = [s for u in users for s in u["results"] if s["fault"]]
for s in faults:
    assert not s["passed"] and s["reason"], s
    assert s["elapsed_ms"] < 4000, ("a cut-off step gave its timeout", s["elapsed_ms"])
bad = [r for r in rows if r["success"] == "false"]
assert bad, "results.jtl reads 100% success"
assert all(r["failureMessage"] for r in bad), bad
assert all(int(r["elapsed"]) < 4000 for r in bad), [r["elapsed"] for r in bad]
assert len(bad) >= len(users), (len(bad), len(users))
errors = int(root.get("errors"))
shown = len(root.findall(".//error"))
assert errors == shown and errors >= len(users), (errors, shown)
assert int(root.get("failures")) == len(root.findall(".//failure")), root.attrib
PY
}

# 1. The browser killed mid-run.
start kill "$url"
sleep 5
if [ -n "$group" ]; then kill -KILL -- "-$group"; fi
finish
if [ -n "$group" ] && [ "$rc" -eq 3 ] && [ "$(grep -c '^stepcheck: run: user-[12]: .*connection closed' "$tmp/kill.err")" -eq 2 ] &&
   python3 -c "import sys; assert float(sys.argv[1]) < 5" "$took"; then ok; else
  bad "browser killed: exit $rc after ${took}s"; cat "$tmp/kill.err"; fi
check_reports kill && ok || bad "browser killed: reports"

# 2. Its renderers killed mid-run (every page's: both users).
start renderer "$url"
sleep 5
renderers=$(pgrep -g "$group" -f -- '--type=renderer' | tr '\n' ' ')
[ -n "$renderers" ] && kill -KILL $renderers
finish
if [ -n "$renderers" ] && [ "$rc" -eq 3 ] && grep -q '^stepcheck: run: user-[12]: .*crashed' "$tmp/renderer.err"; then ok; else
  bad "renderer killed: exit $rc, renderers '$renderers'"; cat "$tmp/renderer.err"; fi
check_reports renderer && ok || bad "renderer killed: reports"
gone "$group" && ok || bad "renderer killed: browser group $group left running"

# 3. A page without a canvas: each user's open fails, exit 3 with the reason.
printf '<!doctype html><title>no canvas</title><p>nothing to drive\n' >"$tmp/blank.html"
start blank "file://$tmp/blank.html"
finish
if [ "$rc" -eq 3 ] && [ "$(grep -c '^stepcheck: run: user-[12]: .*canvas' "$tmp/blank.err")" -eq 2 ]; then ok; else
  bad "no canvas: exit $rc"; cat "$tmp/blank.err"; fi
grep -q ',(run error),500,infrastructure error,' "$tmp/blank.jtl" && ok || { bad "no canvas: jtl"; cat "$tmp/blank.jtl"; }
gone "$group" && ok || bad "no canvas: browser group $group left running"

tally cli-faults
