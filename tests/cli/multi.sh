#!/usr/bin/env bash
# Many users from the CLI on the fixture map app: a ramp of 2 levels, the
# reports carry every user (JSON users, one JUnit testsuite per user, JTL
# thread counts that follow the ramp); usage errors; Ctrl-C stops every
# user, still writes the reports, exits 3 and leaves no browser behind.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-multi-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../util/tally.sh"
url="file://$fx/mapapp/index.html"
scn="$fx/mapapp/seven-steps.json"

expect_usage() { # name stderr-substring args...
  local name=$1 msg=$2; shift 2
  "$cli" run "$scn" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -eq 2 ] && grep -qF -- "$msg" "$tmp/err"; then ok; else
    bad "$name: exit $rc"; cat "$tmp/err"; fi
}
expect_usage users-zero "--users: '0'" --users 0
expect_usage ramp-no-every "--ramp 2 needs --every" --users 4 --ramp 2
expect_usage cycles-and-duration "exclude each other" --users 2 --cycles 2 --duration 10
expect_usage every-not-number "--every: 'soon'" --users 2 --ramp 1 --every soon

# 4 users, 2 per level 4 s apart, 2 cycles each, one warm-up cycle.
"$cli" run "$scn" --url "$url" --allow-url-scheme file --users 4 --ramp 2 --every 4 --cycles 2 --warmup 1 \
  --report "$tmp/r" --junit "$tmp/j.xml" --jtl "$tmp/r.jtl" >"$tmp/load.out" 2>"$tmp/load.err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q "RESULT: PASS 60/60 steps verified by 4 users" "$tmp/load.out"; then ok; else
  bad "load run: exit $rc"; tail -20 "$tmp/load.out" "$tmp/load.err"; fi
grep -q "^level 2: 4 users" "$tmp/load.err" && ok || { bad "progress line per level"; cat "$tmp/load.err"; }
# the same URL for every user: said up front (a shared display would mix them)
head -1 "$tmp/load.err" | grep -q "^note: 4 users open the same URL (file://" && ok ||
  { bad "shared-URL note"; head -3 "$tmp/load.err"; }
python3 - "$tmp/r/report.json" <<'PY' && ok || bad "report.json"
import json, sys
r = json.load(open(sys.argv[1]))
users = r["users"]
assert len(users) == 4, len(users)
assert [u["user_name"] for u in users] == ["user-1", "user-2", "user-3", "user-4"], users
assert all(len(u["results"]) == 15 and u["passed"] for u in users)
assert len(r["levels"]) == 2 and [l["users"] for l in r["levels"]] == [2, 4], r["levels"]
assert r["warmup"] is not None and r["samples"], "warm-up and samples"
PY
n=$(grep -c "<testsuite " "$tmp/j.xml")
[ "$n" -eq 4 ] && ok || bad "junit: $n testsuites, want 4"
python3 - "$tmp/r.jtl" "$tmp/r/report.json" <<'PY' && ok || bad "jtl"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
rep = json.load(open(sys.argv[2]))
assert len(rows) == 60, len(rows)
threads = {r["threadName"] for r in rows}
assert threads == {"stepcheck 1-%d" % i for i in range(1, 5)}, threads
# the ramp shows: rows stamped before the second level was added count at
# most 2 running users; later rows reach 4
level2 = rep["started_unix_ms"] + rep["levels"][1]["start_ms"]
early = [int(r["allThreads"]) for r in rows if int(r["timeStamp"]) < level2 - 5]
late = [int(r["allThreads"]) for r in rows if int(r["timeStamp"]) > level2 + 5]
assert early and max(early) <= 2, early
assert late and max(late) == 4, late
assert all(1 <= int(r["allThreads"]) <= 4 for r in rows)
PY

# Ctrl-C: every user stops, the reports are written, exit 3, no browser left.
"$cli" run "$scn" --url "$url" --allow-url-scheme file --users 2 --duration 120 --warmup 0 --report "$tmp/int" \
  >"$tmp/int.out" 2>"$tmp/int.err" &
runpid=$!
for _ in $(seq 1 150); do
  [ -n "$(pgrep -P "$runpid")" ] && break
  sleep 0.1
done
browser=$(pgrep -P "$runpid" | head -1)
sleep 6
kill -INT "$runpid"
t0=$(date +%s)
wait "$runpid"
rc=$?
took=$(($(date +%s) - t0))
gone=1
for _ in $(seq 1 30); do
  ps -o stat= -g "$browser" 2>/dev/null | grep -qv '^Z' || { gone=0; break; }
  sleep 0.1
done
if [ "$rc" -eq 3 ] && [ "$took" -le 15 ] && [ "$gone" -eq 0 ] && grep -q "interrupted" "$tmp/int.err" &&
   grep -q "RESULT: VOID" "$tmp/int.out" && [ -s "$tmp/int/report.json" ]; then ok; else
  bad "interrupt: exit $rc after ${took}s, browser gone=$gone"; tail -5 "$tmp/int.err"; fi

# The generator killed outright (SIGKILL: no handler runs): the browsers it
# launched die with it (PR_SET_PDEATHSIG). Its profile dir cannot be removed
# by a killed process; this test removes it.
"$cli" run "$scn" --url "$url" --allow-url-scheme file --users 2 --duration 120 --warmup 0 >/dev/null 2>&1 &
runpid=$!
browser=""
for _ in $(seq 1 150); do
  browser=$(pgrep -P "$runpid" | head -1)
  [ -n "$browser" ] && break
  sleep 0.1
done
profile=$(tr '\0' '\n' <"/proc/$browser/cmdline" 2>/dev/null | sed -n 's/^--user-data-dir=//p')
sleep 3
kill -KILL "$runpid"
wait "$runpid" 2>/dev/null
gone=1
for _ in $(seq 1 50); do
  kill -0 "$browser" 2>/dev/null || { gone=0; break; }
  sleep 0.1
done
[ -n "$browser" ] && [ "$gone" -eq 0 ] && ok || bad "browser $browser outlived its killed generator"
[ -n "$browser" ] && kill -KILL -- "-$browser" 2>/dev/null
case $profile in /dev/shm/stepcheck-*|/tmp/stepcheck-*) rm -rf "$profile" ;; esac

tally cli-multi
