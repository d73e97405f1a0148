#!/usr/bin/env bash
# The application killed mid-run (real Chromium, the fixture map app
# served over HTTP by a server this test starts and kills):
# 1. only the server dies: the app already lives in the page, so the run
#    goes on and passes (stepcheck judges the app, not its server);
# 2. the app dies the way a noVNC page shows it (the VNC server gone:
#    noVNC removes its canvas): every step that starts after that fails
#    with its own reason ("tags unchanged after 1535 ms", "scale bar
#    unreadable": stepcheck cannot tell a dead app from one that ignores
#    its input, and says what it saw) within its timeout; the run ends,
#    VOID, reports are written, exit 1.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-appkill-XXXXXX)
srv="" runpid=""
cleanup() {
  [ -n "$runpid" ] && kill -KILL "$runpid" 2>/dev/null
  [ -n "$srv" ] && kill "$srv" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../util/tally.sh"
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# The app's files, plus (for ?vnc) what noVNC does when its server goes:
# the page polls the server and, when it stops answering, removes the
# canvas's container from the page (rfb.js: _target.removeChild(_screen)).
mkdir -p "$tmp/www/mapapp"
cp "$fx/mapapp/index.html" "$fx/mapapp/app.js" "$tmp/www/mapapp/"
echo ok >"$tmp/www/alive.txt"
python3 - "$tmp/www/mapapp/index.html" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
poll = """<script>
if (location.search.includes("vnc")) {
  const t = setInterval(() => {
    fetch("/alive.txt", {cache: "no-store"}).catch(() => {
      clearInterval(t);
      const s = document.getElementById("screen");
      s.parentNode.removeChild(s);
      window.__gone = performance.now();
    });
  }, 100);
}
</script>
</body>"""
open(p, "w").write(s.replace("</body>", poll))
PY
# Short timeouts: a step that cannot pass fails in 1.5 s, not 8.
python3 - "$fx/mapapp/seven-steps.json" "$tmp/www/mapapp/scn.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["defaults"]["timeout_ms"] = 1500
json.dump(s, open(sys.argv[2], "w"))
PY
cp "$fx/mapapp/scalebar.glyphs" "$tmp/www/mapapp/"

serve() {
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  python3 -m http.server --bind 127.0.0.1 --directory "$tmp/www" "$port" >/dev/null 2>&1 &
  srv=$!
  for _ in $(seq 1 50); do
    curl -s -o /dev/null "http://127.0.0.1:$port/alive.txt" && return 0
    sleep 0.1
  done
  return 1
}

# run NAME QUERY CYCLES: kill the server once cycle 1's select-b passed.
run_and_kill() {
  local name=$1 query=$2 cycles=$3
  serve || { bad "$name: no server"; return; }
  "$cli" run "$tmp/www/mapapp/scn.json" --url "http://127.0.0.1:$port/mapapp/index.html$query" \
    --cycles "$cycles" --report "$tmp/$name" >"$tmp/$name.out" 2>"$tmp/$name.err" &
  runpid=$!
  for _ in $(seq 1 200); do
    grep -q "select-b PASS" "$tmp/$name.err" 2>/dev/null && break
    sleep 0.1
  done
  killed_at=$(now_ms)
  kill "$srv"
  wait "$srv" 2>/dev/null
  srv=""
  t0=$(now_ms)
  wait "$runpid"
  rc=$?
  runpid=""
  took=$(($(now_ms) - t0))
}

# 1. The server dies, the app in the page lives on.
run_and_kill server "" 2
if [ "$rc" -eq 0 ] && grep -q "^RESULT: PASS 15/15" "$tmp/server.out"; then ok; else
  bad "server killed: exit $rc"; tail -5 "$tmp/server.out" "$tmp/server.err"
fi

# 2. The app dies (noVNC-style: the canvas goes).
run_and_kill app "?vnc" 1
echo "app gone: exit $rc, the run ended $took ms after the kill"
grep -E "^1 |^RESULT" "$tmp/app.out"
# The page sees the server gone within 100 ms of the kill and removes the
# canvas at once; a step that started 300 ms after the kill cannot pass.
python3 - "$tmp/app/report.json" "$killed_at" <<'PY' && ok || bad "app killed: report"
import json, sys
r = json.load(open(sys.argv[1]))
gone = int(sys.argv[2]) + 300
after = [x for x in r["results"] if x["started_unix_ms"] > gone]
assert len(after) >= 3, f"only {len(after)} steps started after the app died"
passed = [x["step_id"] for x in after if x["passed"]]
assert not passed, f"steps passed after the app was gone: {passed}"
assert all(x["reason"] for x in after)
assert r["result"] == "VOID" and r["error"] is None, (r["result"], r["error"])
PY
# At most 5 steps wait their 1.5 s timeout each, then the run ends.
if [ "$rc" -eq 1 ] && [ "$took" -lt 20000 ] && grep -q "^RESULT: VOID [3-5] of 8 steps failed" "$tmp/app.out"; then ok; else
  bad "app killed: exit $rc after $took ms"; cat "$tmp/app.err"
fi

tally cli-appkill
