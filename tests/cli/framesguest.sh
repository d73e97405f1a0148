#!/usr/bin/env bash
# `stepcheck run --frames guest`: beside the judged regions' frames, every
# step (passed or failed, the setup step too) keeps the whole guest before
# it and after its verdict, USER@cC-STEP@guest-{before,after}.png at the
# guest's size (1600x900), listed in its artifacts and shown by report.html;
# zoom-in's pair differs (the map zoomed) while its region frames are still
# there. The fixture map app ignoring clicks (select-a fails at 1500 ms).
# Sabotage: the same run with --frames all keeps no guest frame, and the
# same check must fail. --frames guest with several users is refused.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-framesguest-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../util/tally.sh"

python3 - "$fx/mapapp/seven-steps.json" "$tmp/fast.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["cycle"] = [c for c in s["cycle"] if c["id"] in ("select-a", "zoom-in", "zoom-out")]
s["cycle"][0]["timeout_ms"] = 1500
json.dump(s, open(sys.argv[2], "w"))
PY
cp "$fx"/mapapp/*.glyphs "$tmp/"
url="file://$fx/mapapp/index.html?ignore-clicks"

# check DIR: one line per step, OK or BAD
check() {
  python3 - "$1" <<'PY'
import json, os, struct, sys
d = sys.argv[1]
rep = json.load(open(os.path.join(d, "report.json")))
html = open(os.path.join(d, "report.html")).read()
def find(o):
    if isinstance(o, list) and o and isinstance(o[0], dict) and "step_id" in o[0]:
        return o
    for v in (o.values() if isinstance(o, dict) else o if isinstance(o, list) else []):
        f = find(v)
        if f:
            return f
def size(p):
    with open(p, "rb") as f:
        h = f.read(24)
    return struct.unpack(">II", h[16:24])
for st in find(rep):
    arts = st["artifacts"]
    g = [a for a in arts if a.endswith(("@guest-before.png", "@guest-after.png"))]
    regions = [a for a in arts if a not in g]
    why = []
    if len(g) != 2:
        why.append("%d guest frames" % len(g))
    for a in g:
        if not os.path.isfile(a) or size(a) != (1600, 900):
            why.append("%s not a 1600x900 PNG" % os.path.basename(a))
        if os.path.basename(a) not in html:
            why.append("%s not in report.html" % os.path.basename(a))
    if not regions:
        why.append("no region frames beside them")
    if st["step_id"] == "zoom-in" and len(g) == 2 and open(g[0], "rb").read() == open(g[1], "rb").read():
        why.append("zoom-in's guest before and after are the same")
    print("%s %s %s" % ("BAD" if why else "OK", st["step_id"], "; ".join(why)))
PY
}

"$cli" run "$tmp/fast.json" --url "$url" --allow-url-scheme file --cycles 1 --report "$tmp/g" \
  --frames guest --quiet >"$tmp/g.out" 2>"$tmp/g.err"
rc=$?
[ $rc = 1 ] && grep -q "^RESULT: VOID 1 of 4 steps failed$" "$tmp/g.out" && ok ||
  bad "run --frames guest: exit $rc: $(tail -n 2 "$tmp/g.out") $(cat "$tmp/g.err")"
check "$tmp/g" > "$tmp/g.check"
cat "$tmp/g.check"
[ "$(grep -c '^OK' "$tmp/g.check")" = 4 ] && ! grep -q '^BAD' "$tmp/g.check" && ok ||
  bad "guest frames: $(grep BAD "$tmp/g.check")"

# sabotage: --frames all keeps no guest frame; the check must see it
"$cli" run "$tmp/fast.json" --url "$url" --allow-url-scheme file --cycles 1 --report "$tmp/a" \
  --frames all --quiet >/dev/null 2>&1
check "$tmp/a" > "$tmp/a.check"
[ "$(grep -c '^BAD' "$tmp/a.check")" = 4 ] && ok || bad "sabotage: --frames all passed the check: $(cat "$tmp/a.check")"

"$cli" run "$tmp/fast.json" --url "$url" --allow-url-scheme file --users 2 --report "$tmp/u" \
  --frames guest >/dev/null 2>"$tmp/u.err"
rc=$?
[ $rc = 2 ] && grep -q "run: --frames guest is for one user" "$tmp/u.err" && ok ||
  bad "--frames guest --users 2: exit $rc: $(cat "$tmp/u.err")"
tally framesguest
