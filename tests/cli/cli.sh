#!/usr/bin/env bash
# The CLI as a user meets it: exit codes (0 ok, 1 step failed, 2 usage or
# scenario error, 3 infrastructure), one-line errors naming what is wrong,
# and real captures.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
src=${SC_SOURCE_DIR:?}
tmp=$(mktemp -d /tmp/sc-cli-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
expect() { # name want_rc want_stderr_substring cmd...
  local name=$1 want=$2 msg=$3; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL $name: exit $rc, want $want"; cat "$tmp/err"; fail=$((fail + 1)); return
  fi
  if [ -n "$msg" ] && ! grep -qF -- "$msg" "$tmp/err" "$tmp/out"; then
    echo "FAIL $name: output lacks '$msg'"; cat "$tmp/out" "$tmp/err"; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}

expect version 0 "stepcheck 0." "$cli" --version
expect help 0 "exit codes" "$cli" --help
# Every subcommand has its own page: COMMAND --help, -h, help COMMAND.
expect help-run 0 "--users-per-browser" "$cli" run --help
expect help-run-h 0 "usage: stepcheck run SCENARIO" "$cli" run examples/x.json -h
expect help-validate 0 "usage: stepcheck validate SCENARIO" "$cli" help validate
expect help-capture 0 "--scale PERCENT" "$cli" capture --help
expect help-glyphs 0 "--ink RRGGBB" "$cli" glyphs --help
expect help-ocr 0 "usage: stepcheck ocr" "$cli" ocr --help
expect help-read-scale 0 "--profile" "$cli" read-scale --help
expect help-unknown 2 "no help for unknown command 'nope'" "$cli" help nope
# inspect: the colour under each point is read before drawing (a point moved
# onto empty map reads black: the sabotage), regions are listed, the picture
# is a PNG of the whole guest.
expect inspect 0 "point building_a 554,502 colour #281e1e" "$cli" inspect \
  "$fx/mapapp/seven-steps.json" --url "file://$fx/mapapp/index.html" --allow-url-scheme file \
  -o "$tmp/inspect.png"
grep -qF "region tags 323x180 at 1272,234" "$tmp/out" && grep -qF "point empty 523,502 colour #000000" "$tmp/out" &&
  python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); sys.exit(0 if d[:8]==b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", d[16:24])==(1600,900) else 1)' "$tmp/inspect.png" &&
  pass=$((pass + 1)) || { echo "FAIL inspect-output"; cat "$tmp/out"; fail=$((fail + 1)); }
expect inspect-file-refused 2 'scheme "file" is not allowed' "$cli" inspect \
  "$fx/mapapp/seven-steps.json" --url "file://$fx/mapapp/index.html" -o "$tmp/inspect.png"
expect run-file-refused 2 "--allow-url-scheme file" "$cli" run \
  "$fx/mapapp/seven-steps.json" --url "file://$fx/mapapp/index.html"
expect capture-chrome-refused 2 "--url:" "$cli" capture --url chrome://settings -o "$tmp/x.png"
expect capture-bad-scheme-flag 2 "not a scheme that can be allowed" "$cli" capture \
  --url http://127.0.0.1:9/ --allow-url-scheme chrome -o "$tmp/x.png"
expect inspect-no-output 2 "usage: stepcheck inspect" "$cli" inspect "$fx/mapapp/seven-steps.json"
expect inspect-bad-scenario 2 "bad-unknown-point.json" "$cli" inspect "$fx/scenario/bad-unknown-point.json" -o "$tmp/x.png"
# locators: found where the data moved, drawn there; found nowhere is a
# failure naming the locator (exit 1, not an infrastructure error), for
# inspect and for run
expect validate-locators 0 "6 points, 7 regions" "$cli" validate "$fx/mapapp/locators.json"
expect inspect-locators 0 "located point building_a at 618.5,535 score 1.000" "$cli" inspect \
  "$fx/mapapp/locators.json" --url "file://$fx/mapapp/index.html?pan=64,32" --allow-url-scheme file \
  -o "$tmp/inspect-loc.png"
expect inspect-locator-missing 1 'locator "building_a": template ' "$cli" inspect \
  "$fx/mapapp/locators.json" --url "file://$fx/mapapp/index.html?pan=3000,0" --allow-url-scheme file \
  -o "$tmp/inspect-loc.png"
# a template of the digits of building 94 alone (the rest transparent)
expect capture-keep 0 "pixels kept (the rest transparent)" "$cli" capture \
  --url "file://$fx/mapapp/index.html" --allow-url-scheme file --region 547,499,15,9 \
  --keep c0c0c0,40 -o "$tmp/digits.png"
expect capture-keep-bad 2 "not a whole number from 0 to 255" "$cli" capture \
  --url "file://$fx/mapapp/index.html" --allow-url-scheme file --keep c0c0c0,300 -o "$tmp/x.png"
expect run-locator-missing 1 'not found within region "map"' "$cli" run \
  "$fx/mapapp/locators.json" --url "file://$fx/mapapp/index.html?pan=3000,0" --allow-url-scheme file \
  --cycles 1
# the buildings and the Selection panel found by text (glyph sets)
expect run-text-locators 0 "PASS 8/8 steps verified" "$cli" run "$fx/mapapp/text-locators.json" \
  --url "file://$fx/mapapp/index.html?pan=64,32" --allow-url-scheme file --cycles 1
expect run-text-locator-missing 1 'locator "building_a": text "94" not found within region "map"' \
  "$cli" run "$fx/mapapp/text-locators.json" --url "file://$fx/mapapp/index.html?pan=3000,0" \
  --allow-url-scheme file --cycles 1
# The readiness gate: the Tags and Selection panels painted top down over
# 4 s (?late-panels=4000). With the gate (default) the run waits for them
# and says how long; without it (ready_quiet_ms 0, the sabotage) the start
# snapshot holds half-painted panels and deselect fails comparing with it.
slow="file://$fx/mapapp/index.html?late-panels=4000"
expect gate-waits 0 "ready: the whole guest was still for 1000 ms" "$cli" run \
  "$fx/mapapp/seven-steps.json" --url "$slow" --allow-url-scheme file --cycles 1
python3 - "$fx/mapapp/seven-steps.json" "$tmp/nogate.json" <<'PY'
import json, os, sys
s = json.load(open(sys.argv[1])); d = os.path.dirname(sys.argv[1])
s["ready_quiet_ms"] = 0
for st in s.get("setup", []) + s["cycle"]:
    for e in st.get("expect", []):
        if str(e.get("profile", "")).endswith(".glyphs"): e["profile"] = os.path.join(d, e["profile"])
json.dump(s, open(sys.argv[2], "w"))
PY
expect gate-off-fails 1 "tags differs from snapshot start" "$cli" run "$tmp/nogate.json" \
  --url "$slow" --allow-url-scheme file --cycles 1
# One server per user: user i opens the i-th --url (the warm-up the
# first); more users than URLs is refused.
murl="file://$fx/mapapp/index.html"
expect urls-per-user 0 "PASS 16/16 steps verified by 2 users" "$cli" run "$fx/mapapp/seven-steps.json" \
  --url "$murl?pan=0,0" --url "$murl?delay=5" --allow-url-scheme file --cycles 1 --warmup 1 \
  --report-json "$tmp/urls.json"
if python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
got = [(u["user"], u["url"].split("?")[1]) for u in r["users"]]
assert got == [(0, "pan=0,0"), (1, "delay=5")], got
assert r["warmup"]["url"].endswith("?pan=0,0"), r["warmup"]["url"]
' "$tmp/urls.json"; then pass=$((pass + 1)); else echo "FAIL urls-per-user-report"; fail=$((fail + 1)); fi
expect urls-fewer-than-users 2 "--users 3 but 2 --url: one server per user" "$cli" run \
  "$fx/mapapp/seven-steps.json" --url "$murl" --url "$murl" --users 3 --allow-url-scheme file
expect no-args 2 "usage" "$cli"
expect unknown-command 2 "unknown command 'frobnicate'" "$cli" frobnicate
expect validate-ok 0 "ok" "$cli" validate "$src/examples/josm/josm.json"
expect validate-bad 2 "bad-unknown-point.json:" "$cli" validate "$fx/scenario/bad-unknown-point.json"
expect validate-missing 2 "nope.json" "$cli" validate "$tmp/nope.json"
expect run-bad-scenario 2 "bad-syntax.json:" "$cli" run "$fx/scenario/bad-syntax.json"
expect run-bad-cycles 2 "--cycles: 'x' is not a whole number" "$cli" run "$src/examples/josm/josm.json" --cycles x
expect run-attach-nonloopback 2 "10.1.2.3" "$cli" run "$src/examples/josm/josm.json" --browser http://10.1.2.3:9222
expect capture-no-url 2 "--url is required" "$cli" capture -o "$tmp/x.png"
expect capture-bad-region 2 "--region: '1,2,3' is not x,y,w,h" "$cli" capture --url http://x/ -o y --region 1,2,3
expect capture-ok 0 "160x24 from canvas 1600x900" "$cli" capture \
  --url "file://$fx/pages/pattern.html" --allow-url-scheme file --guest 1600x900 \
  --region 100,200,160,24 -o "$tmp/cap.png"
# The captured clip is the page's formula, read back through the library's PNG decoder.
python3 - "$tmp/cap.png" <<'PY' && pass=$((pass + 1)) || { echo "FAIL capture-pixels"; fail=$((fail + 1)); }
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n"
w, h = struct.unpack(">II", d[16:24]); assert (w, h) == (160, 24), (w, h)
PY
# A canvas painted 1.5 s after the page loaded: --settle waits for it (the
# clip is the formula: pixel (100,200) is R=100 G=200 B=172), --settle 0
# takes the black canvas, and a canvas that stays black times out.
late="file://$fx/pages/pattern.html?late=1500"
expect capture-settle 0 "160x24 from canvas" "$cli" capture --url "$late" --allow-url-scheme file \
  --region 100,200,160,24 -o "$tmp/late.png"
expect capture-settle-0 0 "160x24 from canvas" "$cli" capture --url "$late" --allow-url-scheme file \
  --region 100,200,160,24 --settle 0 -o "$tmp/late0.png"
px() { convert "$1" -format '%[pixel:p{0,0}]' info: 2>&1; }
if [ "$(px "$tmp/late.png")" = "srgba(100,200,172,1)" ] || [ "$(px "$tmp/late.png")" = "srgb(100,200,172)" ]; then
  pass=$((pass + 1))
else
  echo "FAIL capture-settle-pixels: $(px "$tmp/late.png")"; fail=$((fail + 1))
fi
case "$(px "$tmp/late0.png")" in
  srgb*\(0,0,0*) pass=$((pass + 1)) ;;
  *) echo "FAIL capture-settle-0-pixels: $(px "$tmp/late0.png")"; fail=$((fail + 1)) ;;
esac
# An Xpra-like page (fixtures/pages/windows.html): a pop-up canvas first,
# the application's 1600x900 canvas under a title bar at (11,96), the page
# larger than the 1600x940 viewport. The guest is the canvas of that size;
# the page is scrolled to it and the clip is the formula (pixel (100,200)
# is R=100 G=200 B=172). Its window dragged 2.5 s in (?move=2500, during
# the step: no readiness gate to wait for): the change that shows is not
# judged, the step fails naming the move.
win="file://$fx/pages/windows.html"
expect windows-capture 0 "160x24 from canvas 1600x900" "$cli" capture --url "$win" \
  --allow-url-scheme file --guest 1600x900 --region 100,200,160,24 -o "$tmp/win.png"
if [ "$(px "$tmp/win.png")" = "srgba(100,200,172,1)" ]; then
  pass=$((pass + 1))
else
  echo "FAIL windows-capture-pixels: $(px "$tmp/win.png")"; fail=$((fail + 1))
fi
expect windows-too-small 3 "does not fit the viewport 1200x940" "$cli" capture --url "$win" \
  --allow-url-scheme file --viewport 1200x940 --timeout 3000 -o "$tmp/x.png"
cat > "$tmp/moved.json" <<'EOF'
{"app": "windows fixture", "url": "http://127.0.0.1/", "viewport": {"width": 1600, "height": 940},
 "guest": {"width": 1600, "height": 900}, "regions": {"corner": [0, 0, 400, 300]},
 "ready_quiet_ms": 0,
 "cycle": [{"id": "wait", "none": true, "timeout_ms": 8000,
            "expect": [{"changed": "corner", "min_pixels": 100}]}]}
EOF
expect windows-moved 1 "the application's window moved: its 1600x900 canvas is now at" "$cli" run \
  "$tmp/moved.json" --url "$win?move=2500" --allow-url-scheme file --cycles 1
expect capture-never-painted 3 "one colour only (nothing painted) until --timeout" "$cli" capture \
  --url "file://$fx/pages/pattern.html?late=600000" --allow-url-scheme file --timeout 3000 \
  -o "$tmp/x.png"
expect capture-wrong-guest 3 "want 1280x720" env "$cli" capture \
  --url "file://$fx/pages/pattern.html" --allow-url-scheme file --guest 1280x720 --timeout 1500 \
  -o "$tmp/x.png"
expect read-scale-missing 2 "nope.png" "$cli" read-scale "$tmp/nope.png"
expect ocr-needs-glyphs 2 "usage" "$cli" ocr "$tmp/cap.png"

# No live (non-zombie) process left in process group $1 within 3 s; killed
# helpers are reaped by init in their own time.
group_gone() {
  for _ in $(seq 1 30); do
    ps -o stat= -g "$1" 2>/dev/null | grep -qv '^Z' || return 0
    sleep 0.1
  done
  ps -o pid,stat,comm -g "$1"
  return 1
}

# The browser dies mid-run: exit 3, the table and report.json still written,
# with the error, and no Chromium process of that run left behind.
"$cli" run "$fx/mapapp/seven-steps.json" --url "file://$fx/mapapp/index.html" --allow-url-scheme file --cycles 50 \
  --report "$tmp/crash" >"$tmp/crash.out" 2>"$tmp/crash.err" &
runpid=$!
for _ in $(seq 1 100); do
  grep -q "select-b" "$tmp/crash.err" 2>/dev/null && break
  sleep 0.1
done
browser=$(pgrep -P "$runpid" | head -1)
[ -n "$browser" ] && kill -9 "$browser"
wait "$runpid"
rc=$?
if [ "$rc" -eq 3 ] && grep -q "RESULT: VOID" "$tmp/crash.out" &&
   grep -q "connection closed" "$tmp/crash.err" &&
   python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['error'] and not r['passed']" \
     "$tmp/crash/report.json" && group_gone "$browser"; then
  pass=$((pass + 1))
else
  echo "FAIL browser-dies: exit $rc"; tail -3 "$tmp/crash.err"; fail=$((fail + 1))
fi

# Ctrl-C on a one-user run: exit 3, the table and report.json written with
# the error, the browser stopped and its profile removed.
"$cli" run "$fx/mapapp/seven-steps.json" --url "file://$fx/mapapp/index.html" --allow-url-scheme file --cycles 50 \
  --report "$tmp/int" >"$tmp/int.out" 2>"$tmp/int.err" &
runpid=$!
for _ in $(seq 1 100); do
  grep -q "select-b" "$tmp/int.err" 2>/dev/null && break
  sleep 0.1
done
browser=$(pgrep -P "$runpid" | head -1)
profile=$(tr '\0' '\n' <"/proc/$browser/cmdline" 2>/dev/null | sed -n 's/^--user-data-dir=//p')
kill -INT "$runpid"
wait "$runpid"
rc=$?
if [ "$rc" -eq 3 ] && grep -q "interrupted" "$tmp/int.err" && grep -q "RESULT: VOID" "$tmp/int.out" &&
   python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert 'interrupted' in r['error']" \
     "$tmp/int/report.json" && [ -n "$browser" ] && group_gone "$browser" &&
   [ -n "$profile" ] && [ ! -e "$profile" ]; then
  pass=$((pass + 1))
else
  echo "FAIL interrupt: exit $rc, profile '$profile'"; tail -3 "$tmp/int.err"; fail=$((fail + 1))
fi

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
