#!/usr/bin/env bash
# End to end on real JOSM (Xvfb + x11vnc + websockify/noVNC) in headless
# Chromium: 3 cycles of examples/josm/josm.json must verify 21/21, then each
# sabotage must FAIL the step it targets with a reason that names it:
#   - the layer eye point moved 40 px off its row: hide/show-layer fail
#   - JOSM zoom.ratio=4: zoom steps fail with x0.0156 (x1/64, within the
#     reading's bound: JOSM shows e.g. "2.00 m" over 93 px, read as x0.0157)
#   - JOSM zoom.reverse-wheel=true: zoom steps fail
# and examples/josm/josm-found.json (locators, no guest size) must verify
# 7/7 unchanged at 1600x900 and 1280x800, and fail the zoom steps on the
# factor with zoom.ratio=4.
# Every rig it starts is stopped, and its temp dir removed, even on failure.
set -euo pipefail
root=${SC_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
cli=${SC_CLI:?SC_CLI must point at the stepcheck binary}
rig="$root/examples/josm/rig.sh"
scenario="$root/examples/josm/josm.json"
# the same steps with every point and region found by locators, and no guest size
found="$root/examples/josm/josm-found.json"
work=$(mktemp -d /tmp/sc-e2e-XXXXXX)
states=()
cleanup() {
  for s in "${states[@]}"; do bash "$rig" stop --state "$s" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# Displays/ports apart from the demo's defaults so both can run at once.
disp=${SC_E2E_DISPLAY:-47}

# Runs in the caller's shell (not in $(...)), so the cleanup list is kept:
# the URL comes back in $url.
start_rig() { # name [--pref k=v]...
  local name=$1; shift
  local st="$work/rig-$name"
  states+=("$st")
  url=$(bash "$rig" start --display "$disp" --state "$st" "$@")
}
stop_rig() { bash "$rig" stop --state "$work/rig-$1" >/dev/null; }

run() { # name url scenario cycles -> report json path
  local name=$1 url=$2 scn=$3 cycles=$4
  set +e
  "$cli" run "$scn" --url "$url" --cycles "$cycles" --report "$work/$name" \
    --report-json "$work/$name.json" --quiet > "$work/$name.txt" 2>&1
  local rc=$?
  set -e
  cat "$work/$name.txt"
  echo "$rc" > "$work/$name.rc"
}

check() { # name python-assertions
  python3 - "$work/$1.json" "$(cat "$work/$1.rc")" "$2" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1])); rc = int(sys.argv[2])
res = [r for r in rep["results"] if not r["setup"]]
def step(sid, cycle=1):
    for r in res:
        if r["step_id"] == sid and r["cycle"] == cycle: return r
    raise SystemExit(f"no result for {sid} cycle {cycle}")
exec(sys.argv[3])
PY
}

echo "== e2e: 3 cycles on real JOSM"
start_rig normal
run normal "$url" "$scenario" 3
check normal '
assert rc == 0, f"exit code {rc}"
assert sum(r["passed"] for r in res) == 21 and len(res) == 21, [(r["step_id"], r["reason"]) for r in res if not r["passed"]]
for c in (1, 2, 3):
    zi, zo = step("zoom-in", c), step("zoom-out", c)
    assert abs(zi["scale_factor"] - 0.125) < 0.125 * 0.03, zi
    assert abs(zo["scale_factor"] - 8.0) < 8.0 * 0.03, zo
print("normal: 21/21 verified")
'

echo "== e2e sabotage: layer eye point 40 px off its row"
python3 - "$scenario" "$work/eye-off.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["points"]["eye"][1] += 40
json.dump(s, open(sys.argv[2], "w"), indent=1)
PY
run eye-off "$url" "$work/eye-off.json" 1
check eye-off '
assert rc == 1, f"exit code {rc}"
for sid in ("hide-layer", "show-layer"):
    assert not step(sid)["passed"], step(sid)
print("eye-off: hide-layer/show-layer FAIL:", step("hide-layer")["reason"])
'

echo "== e2e: locators at 1600x900 (josm-found.json)"
run found-1600 "$url" "$found" 1
check found-1600 '
assert rc == 0, f"exit code {rc}"
assert sum(r["passed"] for r in res) == 7 and len(res) == 7, [(r["step_id"], r["reason"]) for r in res if not r["passed"]]
loc = {l["name"]: l for l in rep["located"]}
assert loc["eye"]["x"] == 1330 and loc["tags"]["x"] == 1272, loc
print("found-1600: 7/7 verified; building_a at", loc["building_a"]["x"], loc["building_a"]["y"])
'
stop_rig normal

echo "== e2e: locators at 1280x800, the same file"
start_rig small --size 1280x800
run found-1280 "$url" "$found" 1
check found-1280 '
assert rc == 0, f"exit code {rc}"
assert sum(r["passed"] for r in res) == 7 and len(res) == 7, [(r["step_id"], r["reason"]) for r in res if not r["passed"]]
assert abs(step("zoom-in")["scale_factor"] - 0.125) < 0.125 * 0.03
assert abs(step("zoom-out")["scale_factor"] - 8.0) < 8.0 * 0.03
loc = {l["name"]: l for l in rep["located"]}
assert loc["eye"]["x"] == 1010 and loc["map"]["w"] < 1000, loc
print("found-1280: 7/7 verified; building_a at", loc["building_a"]["x"], loc["building_a"]["y"])
'
stop_rig small

echo "== e2e sabotage: zoom.ratio=4"
start_rig ratio4 --pref zoom.ratio=4
run ratio4 "$url" "$scenario" 1
check ratio4 '
assert rc == 1, f"exit code {rc}"
zi = step("zoom-in")
# 4^3 = 64 instead of 8: x1/64 = x0.0156, read within the bound of the two bar readings
assert not zi["passed"] and "(want x0.1250)" in zi["reason"], zi
assert abs(zi["scale_factor"] / (1 / 64) - 1) < 0.03, zi
assert not step("zoom-out")["passed"]
print("ratio4: zoom-in FAIL:", zi["reason"])
'
run found-ratio4 "$url" "$found" 1
check found-ratio4 '
assert rc == 1, f"exit code {rc}"
zi = step("zoom-in")
assert not zi["passed"] and "(want x0.1250)" in zi["reason"], zi
assert not step("zoom-out")["passed"]
print("found-ratio4: zoom-in FAIL:", zi["reason"])
'
stop_rig ratio4

echo "== e2e sabotage: zoom.reverse-wheel=true"
start_rig reverse --pref zoom.reverse-wheel=true
run reverse "$url" "$scenario" 1
check reverse '
assert rc == 1, f"exit code {rc}"
zi = step("zoom-in")
assert not zi["passed"] and "want x0.1250" in zi["reason"], zi
assert not step("zoom-out")["passed"]
print("reverse: zoom-in FAIL:", zi["reason"])
'
stop_rig reverse
echo "e2e: 7 passed, 0 failed"
