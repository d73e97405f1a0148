#!/usr/bin/env bash
# A run you can look at: `stepcheck run --frames` on the fixture map app
# that ignores clicks (select-a fails in both cycles after 1.5 s, zoom-in
# and zoom-out pass), then report.html in headless Chromium (a copy beside
# it with a checking script added: the page itself has none). Every step
# of report.json must have its timeline drawn (its class pass or fail, its
# end's time in its title) and its images: a failure its before/after/diff,
# a passed step the before/after of every region it judged, each loaded at
# its PNG's own size, shown, and a link to its file; no image on the page
# may be broken. Sabotage: with one passed step's frame removed the same
# check must fail. Then a budget too small for every step: the frames stop
# at the first step that does not fit, never past the budget, and the page
# says so.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
chromium=${SC_CHROMIUM:-/usr/bin/chromium}
tmp=$(mktemp -d /tmp/sc-frames-XXXXXX)
browser=""
cleanup() {
  [ -n "$browser" ] && kill "$browser" 2>/dev/null && wait "$browser" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../util/tally.sh"

python3 - "$fx/mapapp/seven-steps.json" "$tmp" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
cyc = s["cycle"]
s["cycle"] = [c for c in cyc if c["id"] in ("select-a", "zoom-in", "zoom-out")]
s["cycle"][0]["timeout_ms"] = 1500  # select-a fails fast; the zooms keep 8 s on a busy machine
json.dump(s, open(sys.argv[2] + "/fast.json", "w"))
s["cycle"] = [c for c in cyc if c["id"] in ("zoom-in", "zoom-out")]
json.dump(s, open(sys.argv[2] + "/zooms.json", "w"))
PY
cp "$fx/mapapp/scalebar.glyphs" "$tmp/"
url="file://$fx/mapapp/index.html"

"$cli" run "$tmp/fast.json" --url "$url?ignore-clicks" --allow-url-scheme file \
  --cycles 2 --report "$tmp/r" --frames 50M --quiet >"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "^RESULT: VOID 2 of 7 steps failed$" "$tmp/run.out" &&
   [ -s "$tmp/r/report.html" ]; then ok; else
  bad "run --frames 50M: exit $rc, want 1 and DIR/report.html"; cat "$tmp/run.err"; tail -3 "$tmp/run.out"
fi

# check_page DIR: DIR/report.html in Chromium; one line per step row and
# per image into DIR/check.txt.
check_page() {
  local d=$1
  python3 - "$d/report.html" "$d/check.html" <<'PY'
import sys
page = open(sys.argv[1]).read()
assert page.count("</body>") == 1 and "<script" not in page
check = """<img id="sc-control" alt="control" src="no-such-image.png">
<script>
window.addEventListener("load", function () {
  var out = [];
  function shown(e) { return e.getBoundingClientRect().width > 0 ? "shown" : "hidden"; }
  document.querySelectorAll("table.steps tr[id^='r-']").forEach(function (tr) {
    var svg = tr.querySelector("td.tl > svg");
    var t = svg && svg.querySelector(":scope > title");
    out.push("row " + tr.id + " " + tr.className + " " +
             (svg ? svg.getAttribute("class").replace(" ", ".") + " " + shown(svg) : "none none") +
             " " + (t ? t.textContent.replace(/ /g, "_") : "-"));
  });
  document.querySelectorAll("img").forEach(function (i) {
    var block = i.closest("div[id]"), a = i.closest("a");
    out.push("img " + (block ? block.id : "-") + " " + i.alt + " " +
             decodeURIComponent(i.getAttribute("src")) + " " +
             (i.complete && i.naturalWidth > 0 ? "loaded" : "broken") + " " +
             i.naturalWidth + "x" + i.naturalHeight + " " + shown(i) + " " +
             (a && a.getAttribute("href") === i.getAttribute("src") ? "linked" : "unlinked"));
  });
  var pre = document.createElement("pre");
  pre.textContent = "SC-CHECK\\n" + out.join("\\n") + "\\nSC-END";
  document.body.appendChild(pre);
});
</script>
"""
open(sys.argv[2], "w").write(page.replace("</body>", check + "</body>"))
PY
  local flags=(--headless --disable-gpu --hide-scrollbars --user-data-dir="$tmp/profile" --no-first-run
               --virtual-time-budget=5000 --window-size=1400,1800)
  [ "$(id -u)" -eq 0 ] && flags+=(--no-sandbox)
  "$chromium" "${flags[@]}" --dump-dom "file://$d/check.html" >"$d/dom.html" 2>"$tmp/chromium.err" &
  browser=$!
  for _ in $(seq 1 600); do kill -0 "$browser" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$browser" 2>/dev/null; then kill "$browser"; echo "chromium still running after 60 s" >&2; fi
  wait "$browser" 2>/dev/null
  browser=""
  sed -n '/SC-CHECK$/,/^SC-END/p' "$d/dom.html" | sed '1d;$d' >"$d/check.txt"
}

# verify DIR: every step of report.json has its timeline and its images,
# each loaded at its PNG's size, shown and linked; no image broken but the
# control.
verify() {
  python3 - "$1" <<'PY'
import json, os, struct, sys
d = sys.argv[1]
report = json.load(open(os.path.join(d, "report.json")))
rows, imgs = {}, {}
for line in open(os.path.join(d, "check.txt")).read().split("\n"):
    f = line.split(" ")
    if f[0] == "row":
        rows[f[1]] = f[2:]
    elif f[0] == "img":
        imgs.setdefault(f[1], []).append(f[2:])
control = imgs.pop("-")
assert [x[0] for x in control] == ["control"] and control[0][2] == "broken", control
res = report["results"]
assert sorted(rows) == sorted("r-0-%d" % i for i in range(len(res))), sorted(rows)
for i, x in enumerate(res):
    cls, svg, svg_shown, title = rows["r-0-%d" % i]
    want = "pass" if x["passed"] else "fail"
    assert (cls, svg, svg_shown) == (want, "tl." + want, "shown"), (i, rows["r-0-%d" % i])
    end = "verified_%.1f_ms" % x["verified_ms"] if x["passed"] else "failed_after_%.1f_ms" % x["elapsed_ms"]
    assert title.startswith("gesture_%.1f_ms," % x["gesture_ms"]) and title.endswith(end), (i, title, end)
    arts = x["artifacts"]
    if x["passed"]:
        assert not x.get("frames_skipped") and len(arts) >= 2 and len(arts) % 2 == 0, (i, x)
        kinds = ["before", "after"] * (len(arts) // 2)
        block = "frames-0-%d" % i
    else:
        assert len(arts) == 3, (i, arts)
        kinds = ["before", "after", "diff"]
        block = "fail-0-%d" % i
    got = imgs.pop(block, [])
    assert [g[0] for g in got] == kinds, (block, got, arts)
    for (alt, src, state, size, shown, linked), path in zip(got, arts):
        assert state == "loaded", (block, alt, src, state)  # broken: gone or not a PNG
        w, h = struct.unpack(">II", open(path, "rb").read()[16:24])
        assert (state, size, shown, linked) == ("loaded", "%dx%d" % (w, h), "shown", "linked"), \
            (block, alt, src, state, size, shown, linked, w, h)
        assert src == os.path.basename(path) and os.path.dirname(path) == d, (src, path)
assert not imgs, imgs  # no image the results do not list
PY
}

check_page "$tmp/r"
if verify "$tmp/r" 2>"$tmp/verify.err"; then ok; else
  bad "every step's timeline and images in Chromium"; cat "$tmp/verify.err"; head -20 "$tmp/r/check.txt"; tail -5 "$tmp/chromium.err"
fi
# what it costs: the frames kept, as report.json counts them and on disk
python3 - "$tmp/r" <<'PY' && ok || bad "pass_frames in report.json"
import json, os, sys
d = sys.argv[1]
r = json.load(open(os.path.join(d, "report.json")))
kept = [a for x in r["results"] if x["passed"] for a in x["artifacts"]]
disk = sum(os.path.getsize(a) for a in kept)
assert r["pass_frames"] == {"budget_bytes": 50 << 20, "written_bytes": disk}, (r["pass_frames"], disk)
print("frames: %d passed-step frames, %d bytes; report.html %d bytes" %
      (len(kept), disk, os.path.getsize(os.path.join(d, "report.html"))), file=sys.stderr)
PY

# Sabotage: a passed step's frame removed after the page was written.
victim=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print([a for x in r["results"] if x["passed"] for a in x["artifacts"]][-1])' "$tmp/r/report.json")
rm -f "$victim"
check_page "$tmp/r"
if verify "$tmp/r" 2>"$tmp/verify.err"; then
  bad "sabotage: a removed frame ($victim) still passed the check"
elif grep -q "broken" "$tmp/verify.err"; then ok; else
  bad "sabotage: the check failed, but not on the broken image"; cat "$tmp/verify.err"
fi

# A budget too small for every step (the ready step's two map frames fit,
# a zoom step's do not): never past it, nothing kept from the first step
# that did not fit on, and the page says from where.
"$cli" run "$tmp/zooms.json" --url "$url" --allow-url-scheme file \
  --report "$tmp/b" --frames 200K --quiet >"$tmp/run2.out" 2>"$tmp/run2.err"
rc=$?
[ "$rc" -eq 0 ] && ok || { bad "run --frames 200K: exit $rc"; cat "$tmp/run2.err"; }
python3 - "$tmp/b" <<'PY' && ok || bad "a spent budget"
import json, os, sys
d = sys.argv[1]
r = json.load(open(os.path.join(d, "report.json")))
pf = r["pass_frames"]
res = r["results"]
skipped = [bool(x.get("frames_skipped")) for x in res]
kept = [a for x in res for a in x["artifacts"]]
disk = sum(os.path.getsize(a) for a in kept)
assert pf["budget_bytes"] == 200 << 10 and pf["written_bytes"] == disk <= pf["budget_bytes"], (pf, disk)
assert kept and any(skipped), (kept, skipped)
first = skipped.index(True)
assert all(skipped[first:]) and not any(x["artifacts"] for x in res[first:]), skipped
page = open(os.path.join(d, "report.html")).read()
s = res[first]
where = "setup" if s["setup"] else "cycle %d" % s["cycle"]
want = '<b>budget spent</b>: %d passed step%s kept no frames, from <a href="#r-0-%d">%s step %s</a> on' % (
    len(res) - first, "" if len(res) - first == 1 else "s", first, where, s["step_id"])
assert want in page, want
assert page.count('<p class="skipped">frames not kept') == len(res) - first
PY

tally cli-frames
