#!/usr/bin/env bash
# An input lost before it left the browser is a fault, not the
# application's failure (docs/reliability.md, "Where the clicks were
# lost"): real Chromium, the fixture map app behind a remote-display client
# that forwards its input over a real WebSocket to a sink this test starts
# (fixtures/inputlost; the sink is a 30-line stdlib server that logs what
# it gets). A click whose step fails:
# 1. plain: the client forwards the click, the app draws: PASS, exit 0 (the
#    rig works: the sink got the click);
# 2. ?drop: the page saw the mousedown and mouseup but its client sent
#    nothing after them (the sink got no click): a fault, exit 3, the
#    reason says "input lost before it left the browser";
# 3. ?ignore: the client sent the click on (the sink got it) but the app
#    ignored it: the application's failure, exit 1, "map unchanged";
# 4. ?drop with the connection gone (the sink closes it after the hello):
#    no open socket, so no evidence that the browser lost the input (a
#    server gone is the application's side): exit 1.
# 5. ?cover: a box over the canvas at the eye takes the click (as xpra
#    3.1.3's notification box did over JOSM's layer list), the client
#    forwards nothing: a fault, exit 3, and the reason names the box:
#    "(its mousedown went to div#cover.alert, not to a canvas)".
# Sabotage (run by hand, docs/reliability.md): with the check removed
# (step.c's timed_out calling finish(r, 0) instead of sc__step_failed),
# case 2 exits 1.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-inputlost-XXXXXX)
sink=""
cleanup() {
  [ -n "$sink" ] && kill "$sink" 2>/dev/null && wait "$sink" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../util/tally.sh"

cat >"$tmp/sink.py" <<'PY'
# A WebSocket sink: the handshake, then every text frame a client sends is
# a line of the log; with "close", each connection is closed after its
# first message.
import base64, hashlib, socket, sys, threading
log, close = open(sys.argv[1], "a", buffering=1), sys.argv[3] == "close"
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(8)
open(sys.argv[2], "w").write(str(srv.getsockname()[1]))
def read(c, n):
    b = b""
    while len(b) < n:
        d = c.recv(n - len(b))
        if not d: raise EOFError
        b += d
    return b
def http(c, h):
    # a plain HTTP request (the ?http modes): logged as "http METHOD PATH BODY"
    head, _, body = h.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    n = [int(l.split(b":", 1)[1]) for l in lines if l.lower().startswith(b"content-length:")]
    while n and len(body) < n[0]:
        d = c.recv(4096)
        if not d: break
        body += d
    method, path = lines[0].split(b" ")[:2]
    log.write("http %s %s %s\n" % (method.decode(), path.decode(), body.decode(errors="replace")))
    if path == b"/events":  # an event stream: the headers, then nothing
        c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                  b"Access-Control-Allow-Origin: *\r\nCache-Control: no-cache\r\n\r\n")
        try:
            while c.recv(4096): pass
        except OSError: pass
    else:
        c.sendall(b"HTTP/1.1 200 OK\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: 0\r\n"
                  b"Connection: close\r\n\r\n")
    c.close()
def serve(c):
    h = b""
    while b"\r\n\r\n" not in h: h += c.recv(4096)
    keys = [l.split(b":", 1)[1].strip() for l in h.split(b"\r\n") if l.lower().startswith(b"sec-websocket-key:")]
    if not keys: return http(c, h)
    key = keys[0]
    acc = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
    c.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              b"Sec-WebSocket-Accept: " + acc + b"\r\n\r\n")
    try:
        while True:
            b0, b1 = read(c, 2)
            n = b1 & 127
            if n == 126: n = int.from_bytes(read(c, 2), "big")
            elif n == 127: n = int.from_bytes(read(c, 8), "big")
            mask = read(c, 4)
            data = bytes(x ^ mask[i % 4] for i, x in enumerate(read(c, n)))
            if b0 & 15 == 8: break
            log.write(data.decode(errors="replace") + "\n")
            if close: break
    except (EOFError, OSError):
        pass
    c.close()
while True:
    c, _ = srv.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
PY

# run NAME QUERY [close]: a sink, then one cycle; $rc, the sink's log in $tmp/NAME.sink
run() {
  local name=$1 query=$2 mode=${3:-keep}
  rm -f "$tmp/port"
  python3 "$tmp/sink.py" "$tmp/$name.sink" "$tmp/port" "$mode" &
  sink=$!
  for _ in $(seq 1 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
  "$cli" run "$fx/inputlost/hide-layer.json" --allow-url-scheme file \
    --url "file://$fx/inputlost/index.html?ws=$(cat "$tmp/port")$query" \
    --report "$tmp/$name" >"$tmp/$name.out" 2>"$tmp/$name.err"
  rc=$?
  kill "$sink" 2>/dev/null
  wait "$sink" 2>/dev/null
  sink=""
  reason=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(next((s["reason"] for s in r["results"] if not s["passed"]), "-"), "| fault", any(s["fault"] for s in r["results"]))' "$tmp/$name/report.json" 2>/dev/null)
  touch "$tmp/$name.sink"
  echo "$name: exit $rc; $reason; the sink got $(grep -c '^mouse' "$tmp/$name.sink") click events of $(wc -l <"$tmp/$name.sink") messages"
}

run plain ""
if [ "$rc" -eq 0 ] && grep -q "^mouseup" "$tmp/plain.sink"; then ok; else
  bad "plain: exit $rc"; tail -3 "$tmp/plain.out" "$tmp/plain.err"
fi

run drop "&drop"
if [ "$rc" -eq 3 ] && [[ $reason == "input lost before it left the browser: the page sent nothing in the "*" ms after its mouseup (map unchanged after "*"| fault True" ]] &&
  grep -q "^move" "$tmp/drop.sink" && ! grep -q "^mouse" "$tmp/drop.sink"; then ok; else
  bad "drop: exit $rc"; tail -3 "$tmp/drop.out" "$tmp/drop.err"
fi

run ignore "&ignore"
if [ "$rc" -eq 1 ] && [[ $reason == "map unchanged after "*"| fault False" ]] &&
  grep -q "^mouseup" "$tmp/ignore.sink"; then ok; else
  bad "ignore: exit $rc"; tail -3 "$tmp/ignore.out" "$tmp/ignore.err"
fi

run closed "&drop" close
if [ "$rc" -eq 1 ] && [[ $reason == "map unchanged after "*"| fault False" ]]; then ok; else
  bad "closed: exit $rc"; tail -3 "$tmp/closed.out" "$tmp/closed.err"
fi

run cover "&cover"
if [ "$rc" -eq 3 ] && [[ $reason == "input lost before it left the browser: the page sent nothing in the "*" ms after its mouseup (its mousedown went to div#cover.alert, not to a canvas) (map unchanged after "*"| fault True" ]] &&
  ! grep -q "^mouse" "$tmp/cover.sink"; then ok; else
  bad "cover: exit $rc; $reason"; tail -3 "$tmp/cover.out" "$tmp/cover.err"
fi

# 6. ?http=...: the client sends its clicks by HTTP (fetch, XHR,
#    sendBeacon, fetch beside an EventSource) and the app ignores them: the
#    application's failure, exit 1, and the reason says the request left
#    (issue 39 item 6; before: exit 3, "input lost before it left the
#    browser", as the sockets were silent).
for m in fetch xhr beacon es; do
  run "http-$m" "&http=$m"
  kind=$m
  case $m in xhr) kind=XHR ;; beacon) kind=sendBeacon ;; es) kind=fetch ;; esac
  if [ "$rc" -eq 1 ] && [[ $reason == "map unchanged after "*"; the page saw its mousedown and mouseup at "*" and sent a request by $kind "*" ms after its mouseup | fault False" ]] &&
    grep -q "^http POST /input mouseup" "$tmp/http-$m.sink"; then ok; else
    bad "http-$m: exit $rc; $reason"; tail -3 "$tmp/http-$m.out" "$tmp/http-$m.err"
  fi
done

tally cli-inputlost
