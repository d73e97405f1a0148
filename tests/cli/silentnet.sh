#!/usr/bin/env bash
# A signal while stepcheck waits on a network peer that accepts the
# connection and never answers (issue 39 item 5): a grid's POST /session, a
# DevTools endpoint's /json/version, a websocket handshake, for one user and
# for many. Each run must end within 2 s of SIGINT or SIGTERM, as a browser
# launch does, with exit 3 and "interrupted" on stderr (before: the grid's
# 60 s timeout, the attach's 20 s).
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-silentnet-XXXXXX)
srv=
cleanup() {
  [ -n "$srv" ] && kill "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../util/tally.sh"

# The silent peer: accepts every connection, reads what comes, answers nothing.
python3 - "$tmp/port" <<'EOF' &
import socket, sys, threading
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0))
s.listen(64)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
held = []
def drain(c):
    try:
        while c.recv(65536):
            pass
    except OSError:
        pass
while True:
    c, _ = s.accept()
    held.append(c)
    threading.Thread(target=drain, args=(c,), daemon=True).start()
EOF
srv=$!
for _ in $(seq 1 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
port=$(cat "$tmp/port" 2>/dev/null)
[ -n "$port" ] || { bad "silent server did not start"; tally cli-silentnet; exit 1; }

url="file://$fx/mapapp/index.html"
scn="$fx/mapapp/seven-steps.json"

# case NAME SIGNAL ARGS...: run, signal after 1.5 s, want exit 3 within 2 s
# of the signal and "interrupted" on stderr.
case_() {
  local name=$1 sig=$2
  shift 2
  "$cli" run "$scn" --url "$url" --allow-url-scheme file --cycles 1 "$@" \
    >"$tmp/$name.out" 2>"$tmp/$name.err" &
  local pid=$!
  sleep 1.5
  if ! kill -0 "$pid" 2>/dev/null; then
    bad "$name: ended before the signal"; cat "$tmp/$name.err"; wait "$pid"; return
  fi
  local t0 t1
  t0=$(date +%s.%N)
  kill "-$sig" "$pid"
  # wait at most 10 s, then kill it (a hang is a failure, not a stuck test)
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  wait "$pid"
  local rc=$?
  t1=$(date +%s.%N)
  local took
  took=$(echo "$t1 - $t0" | bc)
  if [ "$rc" -eq 3 ] && [ "$(echo "$took < 2.0" | bc)" -eq 1 ] &&
     grep -q "interrupted" "$tmp/$name.err"; then
    ok
    echo "$name: exit 3, $took s after SIG$sig: $(grep -m1 interrupted "$tmp/$name.err")"
  else
    bad "$name: exit $rc, $took s after SIG$sig (want 3 within 2 s, \"interrupted\")"
    tail -3 "$tmp/$name.err"
  fi
}

case_ grid-int INT --grid "http://127.0.0.1:$port" --users 2 --warmup 0
case_ grid-term TERM --grid "http://127.0.0.1:$port" --users 2 --warmup 0
case_ json-version-int INT --browser "http://127.0.0.1:$port"
case_ handshake-term TERM --browser "ws://127.0.0.1:$port/devtools/browser/silent"
case_ load-json-version-int INT --browser "http://127.0.0.1:$port" --users 2 --warmup 0
case_ load-handshake-int INT --browser "ws://127.0.0.1:$port/devtools/browser/silent" --users 2 --warmup 0

tally cli-silentnet
