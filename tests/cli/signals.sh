#!/usr/bin/env bash
# The CLI stopped by a signal (real Chromium, the fixture map app):
# SIGINT, SIGTERM and SIGHUP each end the step in progress, write the table
# and report.json (VOID, naming the interruption and the URL driven), exit
# 3, and leave no process of the run's browser and no profile dir within
# 2 s of the signal; the same for a many-users run. SIGKILL (no handler
# runs): the browser dies with the CLI (PR_SET_PDEATHSIG) and its profile
# is removed by the reaper, both within 2 s; a stale profile of a dead
# owner is removed by the next launch.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-signals-XXXXXX)
runpid=""
cleanup() {
  [ -n "$runpid" ] && kill -KILL "$runpid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../util/tally.sh"
url="file://$fx/mapapp/index.html"
scn="$fx/mapapp/seven-steps.json"
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# No live (non-zombie) process in group $1 by $2 (ms since the epoch).
group_gone_by() {
  while :; do
    ps -o stat= -g "$1" 2>/dev/null | grep -qv '^Z' || return 0
    [ "$(now_ms)" -ge "$2" ] && { ps -o pid,stat,comm -g "$1"; return 1; }
    sleep 0.05
  done
}

# Start the CLI in the background ($runpid), wait until $want_line is on
# its stderr (or, when empty, until its browser runs), and read its
# browser's pid ($browser) and profile dir ($profile).
start_run() { # name args...
  local name=$1; shift
  "$cli" run "$scn" --url "$url" --allow-url-scheme file "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
  runpid=$!
  browser="" profile=""
  for _ in $(seq 1 200); do
    [ -z "$browser" ] && browser=$(pgrep -P "$runpid" | head -1)
    if [ -z "$want_line" ]; then [ -n "$browser" ] && break
    else grep -q "$want_line" "$tmp/$name.err" 2>/dev/null && break; fi
    sleep 0.1
  done
  [ -n "$browser" ] &&
    profile=$(tr '\0' '\n' <"/proc/$browser/cmdline" 2>/dev/null | sed -n 's/^--user-data-dir=//p')
}

check_report() { # report.json url
  python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["result"] == "VOID" and r["passed"] is False, r["result"]
assert "interrupted" in (r["error"] or ""), r["error"]
assert r["url"] == sys.argv[2], r["url"]
PY
}

# One user: each signal in turn.
want_line="select-b PASS"
for sig in INT TERM HUP; do
  start_run "$sig" --cycles 50 --report "$tmp/$sig"
  t0=$(now_ms)
  kill -"$sig" "$runpid"
  wait "$runpid"
  rc=$?
  runpid=""
  took=$(($(now_ms) - t0))
  if [ "$rc" -eq 3 ] && grep -q "interrupted" "$tmp/$sig.err" &&
     grep -q "RESULT: VOID" "$tmp/$sig.out" && check_report "$tmp/$sig/report.json" "$url" &&
     [ -n "$browser" ] && group_gone_by "$browser" $((t0 + 2000)) &&
     [ -n "$profile" ] && [ ! -e "$profile" ]; then
    ok
  else
    bad "SIG$sig: exit $rc after $took ms, browser '$browser', profile '$profile'"
    tail -3 "$tmp/$sig.err"
  fi
  echo "SIG$sig: exit $rc, CLI gone after $took ms"
done

# Many users (the load path): SIGHUP stops every user.
want_line=""
start_run load --users 2 --duration 120 --warmup 0 --report "$tmp/load"
sleep 5 # both users in their steps
t0=$(now_ms)
kill -HUP "$runpid"
wait "$runpid"
rc=$?
runpid=""
took=$(($(now_ms) - t0))
if [ "$rc" -eq 3 ] && grep -q "interrupted" "$tmp/load.err" && grep -q "RESULT: VOID" "$tmp/load.out" &&
   python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['result']=='VOID' and r['url']==sys.argv[2], r" \
     "$tmp/load/report.json" "$url" &&
   [ -n "$browser" ] && group_gone_by "$browser" $((t0 + 2000)) &&
   [ -n "$profile" ] && [ ! -e "$profile" ]; then
  ok
else
  bad "load SIGHUP: exit $rc after $took ms, browser '$browser', profile '$profile'"
  tail -3 "$tmp/load.err"
fi
echo "load SIGHUP: exit $rc, CLI gone after $took ms"

# SIGKILL: nothing of ours runs; the browser dies with its parent.
want_line="select-b PASS"
start_run kill --cycles 50
t0=$(now_ms)
kill -KILL "$runpid"
wait "$runpid" 2>/dev/null
killed=$runpid
runpid=""
if [ -n "$browser" ] && group_gone_by "$browser" $((t0 + 2000)); then ok; else
  bad "SIGKILL: browser $browser outlived the CLI by 2 s"
  [ -n "$browser" ] && kill -KILL -- "-$browser" 2>/dev/null
fi
case $profile in
  */stepcheck-"$killed"-??????) ;;
  *) bad "SIGKILL: profile '$profile' does not name its owner $killed" ;;
esac
# ... and its profile goes too, within 2 s: the reaper (a shell in its own
# session waiting on a pipe only the CLI held) removed it.
gone=""
for _ in $(seq 1 40); do [ -e "$profile" ] || { gone=1; break; }; sleep 0.05; done
if [ -n "$gone" ]; then ok; else
  bad "SIGKILL: profile '$profile' still there 2 s after the CLI died"
  case $profile in /dev/shm/stepcheck-*|/tmp/stepcheck-*) rm -rf "$profile" ;; esac
fi
# A profile whose owner died with no reaper either (older version, the
# reaper killed too) is removed by the next launch; a live owner's is kept.
sh -c 'exit 0' & deadpid=$!
wait "$deadpid"
stale=$(dirname "$profile")/stepcheck-$deadpid-abcdef
live=$(dirname "$profile")/stepcheck-$$-keepme
mkdir -m 700 "$stale" "$live"
"$cli" capture --url "file://$fx/pages/pattern.html" --allow-url-scheme file --guest 1600x900 --region 0,0,8,8 \
  -o "$tmp/cap.png" >/dev/null 2>"$tmp/cap.err" || { bad "capture after SIGKILL"; cat "$tmp/cap.err"; }
if [ ! -e "$stale" ] && [ -d "$live" ]; then ok; else
  bad "next launch: stale profile '$stale' still there or live '$live' removed"
  rm -rf "$stale"
fi
rmdir "$live" 2>/dev/null

tally cli-signals
