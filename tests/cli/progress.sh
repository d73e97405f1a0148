#!/usr/bin/env bash
# The progress lines of `stepcheck run` (stderr, not a terminal): one per
# step, PASS lines with the verified time, FAIL lines with the time until
# the failure verdict, the same column the reports give as the step's
# elapsed time (report.json elapsed_ms), never the gesture time. The fixture
# map app ignoring clicks: select-a fails at its 1500 ms timeout, the zooms
# pass.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-progress-XXXXXX)
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
"$cli" run "$tmp/fast.json" --url "file://$fx/mapapp/index.html?ignore-clicks" --allow-url-scheme file \
  --cycles 1 --report "$tmp/r" >"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
[ $rc = 1 ] && ok || bad "run: exit $rc, want 1 (select-a fails)"
python3 - "$tmp/run.err" "$tmp/r/report.json" <<'PY' > "$tmp/check.txt"
import json, re, sys
lines = [l for l in open(sys.argv[1]) if re.match(r"cycle [1-9]\d*/\d+ ", l)]
rep = json.load(open(sys.argv[2]))
def find(o):  # the list of step results, wherever the report keeps it
    if isinstance(o, list) and o and isinstance(o[0], dict) and "step_id" in o[0]:
        return o
    for v in (o.values() if isinstance(o, dict) else o if isinstance(o, list) else []):
        f = find(v)
        if f:
            return f
    return None
steps = [x for x in find(rep) or [] if not x.get("setup")]
if len(lines) != 3 or len(steps) != 3:
    print("BAD want 3 cycle progress lines and 3 steps, got %d, %d" % (len(lines), len(steps)))
for l in lines:
    m = re.match(r"cycle \d+/\d+ (\S+) (PASS|FAIL) ([0-9.]+) ms", l)
    if not m:
        print("BAD line %r" % l); continue
    sid, verdict, ms = m.group(1), m.group(2), float(m.group(3))
    st = [x for x in steps if x["step_id"] == sid]
    if not st:
        print("BAD no step %s in report.json" % sid); continue
    st = st[0]
    want = st["verified_ms"] if verdict == "PASS" else st["elapsed_ms"]
    ok = abs(ms - want) < 0.06 and (verdict == "PASS" or (ms >= 1500 and ms > st["gesture_ms"] + 1))
    print("%s %s %s %.1f ms, report %.1f (gesture %.1f)" % ("OK" if ok else "BAD", sid, verdict, ms, want, st["gesture_ms"]))
PY
cat "$tmp/check.txt"
n_ok=$(grep -c '^OK' "$tmp/check.txt")
if [ "$n_ok" = 3 ] && ! grep -q '^BAD' "$tmp/check.txt" && grep -q '^OK select-a FAIL' "$tmp/check.txt"; then ok; else
  bad "progress lines: $(grep BAD "$tmp/check.txt") / $(grep '^cycle' "$tmp/run.err")"
fi
tally progress
