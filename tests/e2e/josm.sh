#!/usr/bin/env bash
# End to end on real JOSM (Xvfb + x11vnc + websockify/noVNC) in headless
# Chromium. examples/josm/josm.json (every size-dependent point and region
# found by a locator, no guest size written in) must verify 21/21 in 3
# cycles at 1600x900 and 7/7 unchanged at 1280x800 and 1920x1080; the
# hand-measured examples/josm/josm-1600.json 7/7 at 1600x900. Then each
# sabotage must FAIL what it targets with a reason that names it:
#   - the layer eye point found 40 px below the eye: hide/show-layer fail
#   - JOSM zoom.ratio=4: zoom steps fail with x0.0156 (x1/64, within the
#     reading's bound: JOSM shows e.g. "2.00 m" over 93 px, read as x0.0157)
#   - JOSM zoom.reverse-wheel=true: zoom steps fail
#   - a map without the cafe that building_a is found by (gen-osm.py --tag
#     none): the run stops on the locator, names it, and verifies nothing.
# Every rig it starts is stopped, and its temp dir removed, even on failure.
set -euo pipefail
root=${SC_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
cli=${SC_CLI:?SC_CLI must point at the stepcheck binary}
rig="$root/examples/josm/rig.sh"
scenario="$root/examples/josm/josm.json"
# the same steps with every point and region measured by hand at 1600x900
measured="$root/examples/josm/josm-1600.json"
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

# Every step of `cycles` cycles verified, both zoom factors exact; $3: more
# assertions with `loc` (located name -> entry of the report's "located").
pass_all() { # name cycles [python]
  check "$1" "
n = 7 * $2
assert rc == 0, f'exit code {rc}'
assert sum(r['passed'] for r in res) == n and len(res) == n, [(r['step_id'], r['reason']) for r in res if not r['passed']]
for c in range(1, $2 + 1):
    zi, zo = step('zoom-in', c), step('zoom-out', c)
    assert abs(zi['scale_factor'] - 0.125) < 0.125 * 0.03, zi
    assert abs(zo['scale_factor'] - 8.0) < 8.0 * 0.03, zo
loc = {l['name']: l for l in rep.get('located', [])}
${3:-}
print('$1: all', n, 'verified;', ', '.join(f'{k} at {loc[k][\"x\"]},{loc[k][\"y\"]}' for k in ('eye', 'building_a', 'building_b') if k in loc))
"
}

echo "== e2e: 3 cycles on real JOSM at 1600x900"
start_rig normal
run normal "$url" "$scenario" 3
pass_all normal 3 "assert loc['eye']['x'] == 1330 and loc['tags']['x'] == 1272, loc"

echo "== e2e: the hand-measured josm-1600.json at 1600x900"
run measured "$url" "$measured" 1
pass_all measured 1

echo "== e2e sabotage: the eye point found 40 px below the eye"
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
s["points"]["eye"]["at"] = [9, 7 + 40]   # the template is 18x15: its centre is (9, 7.5)
json.dump(s, open(sys.argv[2], "w"), indent=1)
' "$scenario" "$work/eye-off.json"
# the copy lives elsewhere: its templates are found through absolute paths
sed -i "s|\"templates/|\"$root/examples/josm/templates/|" "$work/eye-off.json"
run eye-off "$url" "$work/eye-off.json" 1
check eye-off '
assert rc == 1, f"exit code {rc}"
for sid in ("hide-layer", "show-layer"):
    assert not step(sid)["passed"], step(sid)
print("eye-off: hide-layer/show-layer FAIL:", step("hide-layer")["reason"])
'
stop_rig normal

echo "== e2e: the same file at 1280x800"
start_rig small --size 1280x800
run small "$url" "$scenario" 1
pass_all small 1 "assert loc['eye']['x'] == 1010 and loc['map']['w'] < 1000, loc"
stop_rig small

echo "== e2e: the same file at 1920x1080"
start_rig large --size 1920x1080
run large "$url" "$scenario" 1
pass_all large 1 "assert loc['eye']['x'] == 1650 and loc['map']['w'] > 1500, loc"
stop_rig large

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

echo "== e2e sabotage: no cafe on the map (gen-osm.py --tag none)"
python3 "$root/examples/josm/gen-osm.py" --tag none -o "$work/plain.osm"
start_rig plain --osm "$work/plain.osm"
set +e
"$cli" run "$scenario" --url "$url" --cycles 1 --report-json "$work/plain.json" --quiet \
  > "$work/plain.txt" 2>&1
rc=$?
set -e
cat "$work/plain.txt"
[ "$rc" = 1 ] || { echo "plain: exit code $rc, want 1"; exit 1; }
grep -q 'locator "building_a": template .*cafe-corner.png not found' "$work/plain.txt" ||
  { echo "plain: no locator error naming building_a"; exit 1; }
echo "plain: stopped on the locator building_a, exit 1"
stop_rig plain
echo "e2e: 9 passed, 0 failed"
