#!/usr/bin/env bash
# Hostile servers on loopback (docs/reliability.md, "Round 2"): a DevTools
# endpoint or a grid that redirects off loopback is not followed (the
# second host, a listener on this machine's non-loopback address, must see
# no request), and a grid whose error message carries ESC, C1 controls and
# a newline is printed on one line with those escaped. The servers are
# python3 http.server instances started here and stopped by pid.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-servers-XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../util/tally.sh"

# The second host: this machine's first non-loopback IPv4 address, else a
# name that never resolves (then only the refusal is checked).
far=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -E '^[0-9]+\.' | grep -v '^127\.' | head -1)

cat >"$tmp/server.py" <<'PY'
import http.server, sys
mode, port, target, log = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def answer(self):
        with open(log, "a") as f: f.write("%s %s\n" % (self.command, self.path))
        n = int(self.headers.get("Content-Length") or 0)
        if n: self.rfile.read(n)
        if mode == "redirect":
            self.send_response(302); self.send_header("Location", target + self.path)
            self.send_header("Content-Length", "0"); self.end_headers(); return
        if mode == "hostile":  # a grid refusing with escapes in its message
            body = ('{"value":{"error":"session not created","message":"no\\u001b[31m red'
                    '\\u009b31m csi\\u0085nel\\nstepcheck: forged line"}}').encode()
        else:                  # the far side: anything at all
            body = b'{"webSocketDebuggerUrl":"ws://127.0.0.1:9/x","value":{}}'
        self.send_response(500 if mode == "hostile" else 200)
        self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", str(len(body)))
        self.end_headers(); self.wfile.write(body)
    do_GET = do_POST = do_DELETE = answer
http.server.HTTPServer(("0.0.0.0" if mode == "far" else "127.0.0.1", port), H).serve_forever()
PY
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("0.0.0.0",0)); print(s.getsockname()[1])'; }
start() { # mode port target log
  python3 "$tmp/server.py" "$@" & pids+=($!)
  for _ in $(seq 1 50); do
    python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1",int(sys.argv[1])),1)' "$2" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "server $1 did not start"; return 1
}
pfar=$(free_port) pnear=$(free_port) phost=$(free_port)
: >"$tmp/far.log" >"$tmp/near.log" >"$tmp/hostile.log"
if [ -n "$far" ]; then
  start far "$pfar" - "$tmp/far.log" || exit 1
  target="http://$far:$pfar"
else
  target="http://stepcheck-far.invalid:$pfar"
fi
start redirect "$pnear" "$target" "$tmp/near.log" || exit 1
start hostile "$phost" - "$tmp/hostile.log" || exit 1
scn="$fx/mapapp/seven-steps.json"
url="file://$fx/mapapp/index.html"

# 1. --browser http://127.0.0.1:P redirected off loopback: exit 2 before
#    anything reaches the far host.
timeout 30 "$cli" run "$scn" --url "$url" --allow-url-scheme file --browser "http://127.0.0.1:$pnear" \
  >"$tmp/b.out" 2>"$tmp/b.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "redirected, not followed" "$tmp/b.err" && grep -q "not a loopback address" "$tmp/b.err"; then
  ok; else bad "--browser redirect: exit $rc"; cat "$tmp/b.err"; fi
[ -s "$tmp/near.log" ] && ok || bad "--browser redirect: the loopback server was not asked"

# 2. --grid http://127.0.0.1:P: the session POST is not sent on.
timeout 30 "$cli" run "$scn" --url "$url" --allow-url-scheme file --grid "http://127.0.0.1:$pnear" \
  --users 1 --warmup 0 >"$tmp/g.out" 2>"$tmp/g.err"
rc=$?
if [ "$rc" -ne 0 ] && grep -q "redirects are not followed for POST" "$tmp/g.err"; then
  ok; else bad "--grid redirect: exit $rc"; cat "$tmp/g.err"; fi
if [ -s "$tmp/far.log" ]; then bad "the far host was contacted: $(cat "$tmp/far.log")"; else ok; fi

# 3. A grid's error message with ESC, C1 controls (U+009B, U+0085) and a
#    newline: one line on stderr, every control escaped.
timeout 30 "$cli" run "$scn" --url "$url" --allow-url-scheme file --grid "http://127.0.0.1:$phost" \
  --users 1 --warmup 0 >"$tmp/h.out" 2>"$tmp/h.err"
rc=$?
if [ "$rc" -ne 0 ] && grep -q 'forged line' "$tmp/h.err"; then ok; else bad "hostile grid: exit $rc"; cat "$tmp/h.err"; fi
if LC_ALL=C grep -qP '\x1b|\xc2[\x80-\x9f]' "$tmp/h.err" "$tmp/h.out"; then
  bad "hostile grid: a raw control reached the terminal"; cat -v "$tmp/h.err"; else ok; fi
if grep -q '^stepcheck: forged line' "$tmp/h.err"; then bad "hostile grid: the newline cut the line"; cat -v "$tmp/h.err"; else ok; fi
grep -qF '\x1b[31m' "$tmp/h.err" && grep -qF '\u009b' "$tmp/h.err" && grep -qF '\u0085' "$tmp/h.err" && ok ||
  { bad "hostile grid: escapes not shown"; cat -v "$tmp/h.err"; }
tally cli-servers
