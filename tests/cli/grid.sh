#!/usr/bin/env bash
# Users through a real Selenium Grid 4 (hub + node on loopback, started
# here): `stepcheck run --grid` creates one WebDriver session per browser,
# drives its users over se:cdp, deletes every session at the end, and also
# when the run is interrupted. The grid's own /status is the witness.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
src=${SC_SOURCE_DIR:?}
tmp=$(mktemp -d /tmp/sc-grid-XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
  sleep 1
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../util/tally.sh"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
hub_port=$(free_port) node_port=$(free_port) pub=$(free_port) sub=$(free_port)
hub="http://127.0.0.1:$hub_port"
bash "$src/scripts/grid.sh" fetch >/dev/null || { echo "grid: cannot fetch the jar"; exit 1; }
export TMPDIR="$tmp"
bash "$src/scripts/grid.sh" start --mode hub --port "$hub_port" --bus "$pub:$sub" \
  >"$tmp/hub.log" 2>&1 &
pids+=($!)
bash "$src/scripts/grid.sh" start --mode node --port "$node_port" --hub "$hub" \
  --bus "$pub:$sub" --max-sessions 2 >"$tmp/node.log" 2>&1 &
pids+=($!)
unset TMPDIR

# "slots busy/total" from the hub's /status.
slots() {
  curl -s --max-time 5 "$hub/status" | python3 -c '
import json, sys
v = json.load(sys.stdin)["value"]
busy = total = 0
for n in v.get("nodes", []):
    for s in n.get("slots", []):
        total += 1
        busy += s.get("session") is not None
print(busy, total, "ready" if v.get("ready") else "wait")' 2>/dev/null
}
ready=0
for _ in $(seq 1 120); do
  set -- $(slots)
  [ "${2:-0}" -ge 2 ] && [ "${3:-}" = ready ] && { ready=1; break; }
  sleep 1
done
[ "$ready" -eq 1 ] || { bad "grid not ready in 120 s"; tail -5 "$tmp/hub.log" "$tmp/node.log"; tally cli-grid; exit 1; }
idle() { # wait until the grid shows no session (the hub hears of a delete a moment later)
  for _ in $(seq 1 30); do set -- $(slots); [ "${1:-1}" -eq 0 ] && return 0; sleep 1; done
  return 1
}

url="file://$fx/mapapp/index.html"
scn="$fx/mapapp/seven-steps.json"
# 4 users, 2 per browser: two grid sessions.
"$cli" run "$scn" --url "$url" --allow-url-scheme file --grid "$hub" --users 4 --users-per-browser 2 --cycles 1 \
  --warmup 0 --report "$tmp/r" >"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q "RESULT: PASS 32/32 steps verified by 4 users" "$tmp/run.out"; then ok; else
  bad "grid run: exit $rc"; tail -20 "$tmp/run.out" "$tmp/run.err"; fi
idle && ok || bad "sessions left on the grid after the run: $(slots)"

# Interrupted mid-run: sessions deleted all the same.
"$cli" run "$scn" --url "$url" --allow-url-scheme file --grid "$hub" --users 2 --users-per-browser 1 --duration 120 \
  --warmup 0 >"$tmp/int.out" 2>"$tmp/int.err" &
runpid=$!
for _ in $(seq 1 60); do
  grep -q "select-a\|level 1" "$tmp/int.err" 2>/dev/null && break
  set -- $(slots); [ "${1:-0}" -ge 2 ] && break
  sleep 1
done
set -- $(slots)
busy_during=${1:-0}
sleep 3
kill -INT "$runpid"
wait "$runpid"
rc=$?
if [ "$rc" -eq 3 ] && [ "$busy_during" -eq 2 ] && grep -q "interrupted" "$tmp/int.err"; then ok; else
  bad "interrupt: exit $rc, sessions busy during the run $busy_during"; tail -5 "$tmp/int.err"; fi
idle && ok || bad "sessions left on the grid after the interrupt: $(slots)"

tally cli-grid
