#!/usr/bin/env bash
# Exit codes for data errors from a browser (docs: 0 ok, 1 a step failed,
# 2 usage or configuration, 3 browser or infrastructure): a reply over the
# size cap, a screenshot that is not base64, a PNG larger than the clip and
# a malformed message all exit 3, never 2 ("usage"). The browser is a small
# scripted stand-in speaking CDP over the DevTools pipe (fds 3 and 4, NUL
# after each message), started by `capture` through SC_CHROMIUM; it answers
# the page open with a 300x200 canvas and the screenshot as FAKE_MODE says.
set -uo pipefail
cli=${SC_CLI:?}
tmp=$(mktemp -d /tmp/sc-exit-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

cat >"$tmp/fake-chromium" <<'PY'
#!/usr/bin/env python3
import base64, json, os, struct, sys, zlib
mode = os.environ.get("FAKE_MODE", "ok")
for a in sys.argv:
    if a.startswith("--user-data-dir="):
        with open(os.path.join(a.split("=", 1)[1], "DevToolsActivePort"), "w") as f:
            f.write("9\n/devtools/browser/fake\n")

def png(w, h):
    def chunk(kind, data):
        c = kind + data
        return struct.pack(">I", len(data)) + c + struct.pack(">I", zlib.crc32(c))
    raw = b"".join(b"\0" + b"\x40\x80\xc0\xff" * w for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))

def send(obj=None, text=None):
    data = text if text is not None else json.dumps(obj, separators=(",", ":"))
    if isinstance(data, str): data = data.encode()
    os.write(4, data + b"\0")

buf = b""
canvas = {"cs": [{"x": 0, "y": 0, "w": 300, "h": 200, "cw": 300, "ch": 200}], "vw": 300,
          "vh": 200, "sx": 0, "sy": 0, "ready": "complete"}
while True:
    d = os.read(3, 65536)
    if not d: break
    buf += d
    while b"\0" in buf:
        line, buf = buf.split(b"\0", 1)
        m = json.loads(line)
        i, meth = m["id"], m["method"]
        res = {}
        if meth == "Browser.getVersion": res = {"product": "Fake/1.0", "protocolVersion": "1.3"}
        elif meth == "Target.createBrowserContext": res = {"browserContextId": "C1"}
        elif meth == "Target.createTarget": res = {"targetId": "T1"}
        elif meth == "Target.attachToTarget": res = {"sessionId": "S1"}
        elif meth == "Runtime.evaluate": res = {"result": {"type": "object", "value": canvas}}
        elif meth == "Page.captureScreenshot":
            if mode == "big":   # over the 64 MiB message cap
                pad = "A" * (65 << 20)
                send(text='{"id":%d,"result":{"data":"%s"},"sessionId":"S1"}' % (i, pad)); continue
            if mode == "notbase64":
                send(text='{"id":%d,"result":{"data":"not*base64!"},"sessionId":"S1"}' % i); continue
            if mode == "malformed":
                send(text=b'{"id":%d,"result":{"data":"\xff' % i); continue
            w, h = (4000, 3000) if mode == "hugepng" else (300, 200)
            res = {"data": base64.b64encode(png(w, h)).decode()}
        elif meth == "Browser.close":
            send({"id": i, "result": {}}); sys.exit(0)
        send({"id": i, "result": res, **({"sessionId": m["sessionId"]} if "sessionId" in m else {})})
PY
chmod +x "$tmp/fake-chromium"

expect() { # name mode want_rc want_stderr_substring [capture options...]
  local name=$1 mode=$2 want=$3 msg=$4; shift 4
  # --settle 0: the fake sends one plain frame; what is tested is the exit code
  FAKE_MODE=$mode SC_CHROMIUM="$tmp/fake-chromium" timeout 60 "$cli" capture \
    --url http://127.0.0.1:9/ --timeout 5000 --settle 0 -o "$tmp/out.png" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL $name: exit $rc, want $want"; cat "$tmp/err"; fail=$((fail + 1)); return
  fi
  if ! grep -qF -- "$msg" "$tmp/err" "$tmp/out"; then
    echo "FAIL $name: output lacks '$msg'"; cat "$tmp/out" "$tmp/err"; fail=$((fail + 1)); return
  fi
  if [ "$want" -ne 0 ] && [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
    echo "FAIL $name: not one line"; cat "$tmp/err"; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}

expect capture-ok ok 0 "out.png: 300x200 from canvas 300x200"
expect reply-over-cap big 3 "exceeds the 67108864 byte limit"
expect not-base64 notbase64 3 "capture: "
expect png-larger-than-clip hugepng 3 "declares 4000x3000 for a 300x200 clip"
expect malformed-message malformed 3 "protocol error: malformed message"
expect bad-region ok 2 "outside the 300x200 canvas" --region 0,0,400,10 # the user's: 2
# x + w and y + h past INT_MAX (issue 25): refused as outside, never a wrapped sum (UBSan)
expect region-overflow-w ok 2 "region 1,1 2147483647x5 outside the 300x200 canvas" --region 1,1,2147483647,5
expect region-overflow-h ok 2 "outside the 300x200 canvas" --region 1,1,5,2147483647
expect region-overflow-xy ok 2 "outside the 300x200 canvas" --region 2147483647,2147483647,1,1
echo "exitcodes: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
