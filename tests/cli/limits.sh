#!/usr/bin/env bash
# The limits of one generator (docs/scaling.md, "Limits of one generator"):
# --users 100000 and a file-descriptor limit too low are refused with exit 2
# and one line naming the limit and the measured figure, before any browser
# starts; SIGTERM while the browsers launch ends the run within 2 s with
# none of them left. Every process this test starts is stopped by pid.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-limits-XXXXXX)
runpid=""
cleanup() {
  [ -n "$runpid" ] && kill -KILL "$runpid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../util/tally.sh"
url="file://$fx/mapapp/index.html"
scn="$fx/mapapp/seven-steps.json"

# refused NAME STDERR-SUBSTRING [ulimit -n] -- args...: exit 2 at once, one
# error line (the "note:" about a shared URL aside), no browser profile made
refused() {
  local name=$1 msg=$2 nofile=$3; shift 4
  ( [ "$nofile" != - ] && ulimit -n "$nofile"
    exec "$cli" run "$scn" --url "$url" --allow-url-scheme file "$@" ) >"$tmp/out" 2>"$tmp/err" &
  local pid=$! n
  wait "$pid"
  local rc=$?
  n=$(grep -v '^note: ' "$tmp/err" | grep -c .)
  if [ "$rc" -eq 2 ] && [ "$n" -eq 1 ] && grep -qF -- "$msg" "$tmp/err" &&
     ! ls -d /dev/shm/stepcheck-"$pid"-* /tmp/stepcheck-"$pid"-* >/dev/null 2>&1; then ok; else
    bad "$name: exit $rc, $n lines"; cat "$tmp/err"; fi
}
refused users-100000 "preflight: 100000 users, but one generator drives at most 1000" - -- --users 100000
refused browsers-125 "need 125 browsers, but one generator launches at most 64" - -- --users 1000
refused ulimit-n "file descriptors with" 20 -- --users 3
grep -q "but the limit is 20 (ulimit -n)" "$tmp/err" && ok || bad "ulimit-n: the figure"

# SIGTERM while 3 browsers launch one after another (one user each).
"$cli" run "$scn" --url "$url" --allow-url-scheme file --users 3 --users-per-browser 1 --warmup 0 \
  >"$tmp/term.out" 2>"$tmp/term.err" &
runpid=$!
first=""
for _ in $(seq 1 100); do
  first=$(pgrep -P "$runpid" -f chrom | head -1)
  [ -n "$first" ] && break
  sleep 0.02
done
kill -TERM "$runpid"
t0=$(date +%s.%N)
wait "$runpid"
rc=$?
took=$(python3 -c "import sys; print('%.2f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$(date +%s.%N)")
pid=$runpid
runpid=""
left=""
for _ in $(seq 1 20); do
  left=$( (ls -d /dev/shm/stepcheck-"$pid"-* 2>/dev/null; [ -n "$first" ] && pgrep -g "$first") | tr '\n' ' ')
  [ -z "$left" ] && break
  sleep 0.1
done
echo "SIGTERM during launch: exit $rc after ${took}s"
if [ -n "$first" ] && [ "$rc" -eq 3 ] && python3 -c "import sys; assert float(sys.argv[1]) <= 2" "$took" &&
   [ -z "$left" ]; then ok; else
  bad "SIGTERM during launch: exit $rc after ${took}s, left: '$left', first browser '$first'"; cat "$tmp/term.err"; fi

tally cli-limits
