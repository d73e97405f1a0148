#!/usr/bin/env bash
# End to end through Xpra's HTML5 client: three JOSM users, each with its
# own X display, JOSM and Xpra server (examples/josm/rig.sh --users 3
# --transport xpra), driven from ONE stepcheck process with
# examples/josm/josm.json unchanged (one server per user: --url three times,
# a one-user warm-up first). User 3's JOSM zooms by 4 per wheel click
# (zoom.ratio=4 in that user's preferences only): users 1 and 2 must verify
# every step, user 3 must fail both zoom steps on the factor (x0.0156 for
# x0.1250), and nothing else. Every rig is stopped, even on failure.
set -euo pipefail
root=${SC_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
cli=${SC_CLI:?SC_CLI must point at the stepcheck binary}
rig="$root/examples/josm/rig.sh"
work=$(mktemp -d /tmp/sc-e2e-xpra-XXXXXX)
state="$work/rig"
cleanup() {
  bash "$rig" stop --state "$state" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
disp=${SC_E2E_XPRA_DISPLAY:-51}

echo "== e2e xpra: starting 3 JOSM users behind Xpra (user 3: zoom.ratio=4)"
mapfile -t urls < <(bash "$rig" start --users 3 --transport xpra --display "$disp" \
                      --state "$state" --user-pref 3:zoom.ratio=4)
[ "${#urls[@]}" -eq 3 ] || { echo "xpra: the rig printed ${#urls[@]} URLs, want 3"; exit 1; }

set +e
"$cli" run "$root/examples/josm/josm.json" --url "${urls[0]}" --url "${urls[1]}" \
  --url "${urls[2]}" --cycles 1 --warmup 1 --report "$work/report" \
  --report-json "$work/report.json" --quiet > "$work/run.txt" 2>&1
rc=$?
set -e
tail -25 "$work/run.txt"
python3 - "$work/report.json" "$rc" "${urls[@]}" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1])); rc = int(sys.argv[2]); urls = sys.argv[3:]
assert rc == 1, f"exit code {rc}, want 1 (user 3 fails its zooms)"
assert rep["warmup"]["passed"], [(r["step_id"], r["reason"]) for r in rep["warmup"]["results"] if not r["passed"]]
users = {u["user"]: u for u in rep["users"]}
assert sorted(users) == [0, 1, 2], sorted(users)
for i in (0, 1, 2):
    assert users[i]["url"] == urls[i], (i, users[i]["url"])
def steps(u):
    return {r["step_id"]: r for r in u["results"] if not r["setup"]}
for i in (0, 1):
    bad = [(r["step_id"], r["reason"]) for r in users[i]["results"] if not r["passed"]]
    assert not bad and users[i]["passed"], (i, bad)
    s = steps(users[i])
    assert abs(s["zoom-in"]["scale_factor"] - 0.125) < 0.125 * 0.03, s["zoom-in"]
    assert abs(s["zoom-out"]["scale_factor"] - 8.0) < 8.0 * 0.03, s["zoom-out"]
s = steps(users[2])
for sid in ("zoom-in", "zoom-out"):
    assert not s[sid]["passed"], s[sid]
assert "(want x0.1250)" in s["zoom-in"]["reason"], s["zoom-in"]["reason"]
assert abs(s["zoom-in"]["scale_factor"] / (1 / 64) - 1) < 0.03, s["zoom-in"]
others = [(k, r["reason"]) for k, r in s.items() if not r["passed"] and k not in ("zoom-in", "zoom-out")]
assert not others, others
print("xpra: users 1, 2 verified every step; user 3 failed the zooms:", s["zoom-in"]["reason"])
PY
bash "$rig" stop --state "$state" >/dev/null
echo "xpra: 1 passed, 0 failed"
