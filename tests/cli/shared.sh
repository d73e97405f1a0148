#!/usr/bin/env bash
# Shared-session detection (lib/run/shared.h) on the fixture map app served
# as one shared screen (fixtures/mapapp/shared.py: every page of a room
# acts on every page's inputs, like noVNC clients of one VNC server):
# 1. two users in one room: the load warns "user-N's screen changed while
#    it was idle: do users share one display?", in the table and in
#    report.json's warnings;
# 2. two users in two rooms (the same relay, separate screens): no such
#    warning, and the run passes;
# 3. two users on the plain map app (each page its own state): none either.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-shared-XXXXXX)
srv=""
cleanup() {
  [ -n "$srv" ] && kill "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../util/tally.sh"
scn="$fx/mapapp/seven-steps.json"
warning="screen changed while it was idle: do users share one display?"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 "$fx/mapapp/shared.py" "$port" >"$tmp/srv.log" 2>&1 &
srv=$!
for _ in $(seq 1 50); do grep -q ready "$tmp/srv.log" && break; sleep 0.1; done
base="http://127.0.0.1:$port/index.html"

# run NAME ARGS...: two users, two cycles, one warm-up cycle
run() {
  local name=$1; shift
  "$cli" run "$scn" --users 2 --cycles 2 --warmup 1 --report "$tmp/$name" "$@" \
    >"$tmp/$name.out" 2>"$tmp/$name.err"
  rc=$?
}
# warned NAME: how many of report.json's warnings are the shared-session one
warned() {
  python3 - "$tmp/$1/report.json" "$warning" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(sum(1 for w in r["warnings"] if sys.argv[2] in w))
PY
}

# 1. one room: one screen for both
run shared --url "$base?room=one"
if grep -F "$warning" "$tmp/shared.out" |
  grep -qE "^warning: user-[12]'s screen .* \([0-9]+ of the [0-9]+ times user-[12]'s own gesture"; then
  ok; else
  bad "one screen: no warning in the table (exit $rc)"; tail -8 "$tmp/shared.out"; fi
[ "$(warned shared)" = 1 ] && ok || bad "one screen: report.json warnings: $(warned shared)"
grep "^warning: user" "$tmp/shared.out"

# 2. two rooms: two screens through the same relay
run rooms --url "$base?room=a" --url "$base?room=b"
if [ "$rc" -eq 0 ] && grep -q "^RESULT: PASS" "$tmp/rooms.out" && ! grep -qF "$warning" "$tmp/rooms.out"; then
  ok; else bad "two screens: exit $rc or a warning"; tail -8 "$tmp/rooms.out"; fi
[ "$(warned rooms)" = 0 ] && ok || bad "two screens: report.json warnings: $(warned rooms)"

# 3. the plain map app: each page its own
run plain --url "file://$fx/mapapp/index.html" --allow-url-scheme file
if [ "$rc" -eq 0 ] && ! grep -qF "$warning" "$tmp/plain.out"; then ok; else
  bad "plain map app: exit $rc or a warning"; tail -8 "$tmp/plain.out"; fi
[ "$(warned plain)" = 0 ] && ok || bad "plain map app: report.json warnings: $(warned plain)"

tally cli-shared
