#!/usr/bin/env bash
# report.html in a real browser: a run of the fixture map app that ignores
# clicks (select-a fails in both cycles after its 1.5 s timeout, zoom-in
# and zoom-out pass) with --report DIR; headless Chromium loads DIR/report.html
# (a copy beside it with a checking script added: the page itself has
# none) and the test reads back, for every failed step of report.json,
# that its before/after/diff images loaded (naturalWidth > 0, the PNG's
# own size) and are shown (laid out with a width). A control image with a
# wrong src must read as broken, so a checker that always says "loaded"
# fails the test.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
chromium=${SC_CHROMIUM:-/usr/bin/chromium}
tmp=$(mktemp -d /tmp/sc-html-XXXXXX)
browser=""
cleanup() {
  [ -n "$browser" ] && kill "$browser" 2>/dev/null && wait "$browser" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../util/tally.sh"

python3 - "$fx/mapapp/seven-steps.json" "$tmp/fast.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["cycle"] = [c for c in s["cycle"] if c["id"] in ("select-a", "zoom-in", "zoom-out")]
s["cycle"][0]["timeout_ms"] = 1500  # select-a fails fast; the zooms keep 8 s on a busy machine
json.dump(s, open(sys.argv[2], "w"))
PY
cp "$fx/mapapp/scalebar.glyphs" "$tmp/"
"$cli" run "$tmp/fast.json" --url "file://$fx/mapapp/index.html?ignore-clicks" --allow-url-scheme file \
  --cycles 2 --report "$tmp/r" --quiet >"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "^RESULT: VOID 2 of 7 steps failed$" "$tmp/run.out" && [ -s "$tmp/r/report.html" ] &&
   [ ! -e "$tmp/r/report.html.tmp" ]; then ok; else
  bad "run: exit $rc, want 1 and DIR/report.html"; cat "$tmp/run.err"; tail -3 "$tmp/run.out"
fi
# The page says what the table says.
grep -qF "RESULT: VOID 2 of 7 steps failed</p>" "$tmp/r/report.html" && ok || bad "verdict in report.html"

# The copy beside the page (same directory: the same relative srcs).
python3 - "$tmp/r/report.html" "$tmp/r/check.html" <<'PY'
import sys
page = open(sys.argv[1]).read()
assert page.count("</body>") == 1 and "<script" not in page
check = """<img id="sc-control" alt="control" src="no-such-image.png">
<script>
window.addEventListener("load", function () {
  var out = [];
  function state(i) {
    var shown = i.getBoundingClientRect().width > 0;
    return (i.complete && i.naturalWidth > 0 ? "loaded" : "broken") + " " +
      i.naturalWidth + "x" + i.naturalHeight + (shown ? " shown" : " hidden");
  }
  document.querySelectorAll("tr.fail").forEach(function (tr) {
    var next = tr.nextElementSibling;
    var shots = next && next.querySelector("div.shots");
    if (!shots) { out.push(tr.id + " none"); return; }
    shots.querySelectorAll("img").forEach(function (i) {
      out.push(tr.id + " " + i.alt + " " + decodeURIComponent(i.getAttribute("src")) + " " + state(i));
    });
  });
  out.push("control - - " + state(document.getElementById("sc-control")));
  var pre = document.createElement("pre");
  pre.textContent = "SC-CHECK\\n" + out.join("\\n") + "\\nSC-END";
  document.body.appendChild(pre);
});
</script>
"""
open(sys.argv[2], "w").write(page.replace("</body>", check + "</body>"))
PY

flags=(--headless --disable-gpu --hide-scrollbars --user-data-dir="$tmp/profile" --no-first-run
       --virtual-time-budget=5000 --window-size=1400,1800)
[ "$(id -u)" -eq 0 ] && flags+=(--no-sandbox)
"$chromium" "${flags[@]}" --dump-dom "file://$tmp/r/check.html" >"$tmp/dom.html" 2>"$tmp/chromium.err" &
browser=$!
for _ in $(seq 1 600); do kill -0 "$browser" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$browser" 2>/dev/null; then kill "$browser"; bad "chromium still running after 60 s"; fi
wait "$browser" 2>/dev/null
browser=""
# the DOM as serialised: "<pre>SC-CHECK", one line per image, "SC-END</pre>"
sed -n '/SC-CHECK$/,/^SC-END/p' "$tmp/dom.html" | sed '1d;$d' >"$tmp/check.txt"

# Every failed step of report.json: three rows (before, after, diff), each
# its own file, loaded at the PNG's size and shown; the control broken.
python3 - "$tmp/r" "$tmp/check.txt" <<'PY' && ok || { bad "images of the failed steps in Chromium"; cat "$tmp/check.txt"; tail -5 "$tmp/chromium.err"; }
import json, os, struct, sys
d, lines = sys.argv[1], open(sys.argv[2]).read().split("\n")
rows = [l.split(" ") for l in lines if l]
report = json.load(open(os.path.join(d, "report.json")))
failed = [i for i, x in enumerate(report["results"]) if not x["passed"]]
assert [report["results"][i]["step_id"] for i in failed] == ["select-a"] * 2, failed
got = {}
for r in rows:
    got.setdefault(r[0], []).append(r[1:])
assert got.pop("control")[0][2] == "broken", rows
assert sorted(got) == sorted("r-0-%d" % i for i in failed), (sorted(got), failed)
for i in failed:
    arts = report["results"][i]["artifacts"]
    assert len(arts) == 3, arts
    imgs = got["r-0-%d" % i]
    assert [x[0] for x in imgs] == ["before", "after", "diff"], imgs
    for (alt, src, state, size, shown), path in zip(imgs, arts):
        w, h = struct.unpack(">II", open(path, "rb").read()[16:24])
        assert (state, size, shown) == ("loaded", "%dx%d" % (w, h), "shown"), (alt, src, state, size, shown, w, h)
        assert src == os.path.basename(path), (src, path)
PY

tally cli-html
