#!/usr/bin/env bash
# examples/josm/josm.json, unchanged, through Xpra's HTML5 client (one JOSM
# user: examples/josm/rig.sh --transport xpra): the seven steps verified,
# both zoom factors exact. The page has a canvas per X window under a title
# bar the client draws; the guest is found by size (lib/page/choose.c), the
# points and regions by locators, and the rig's copy of the client sends one
# wheel click per notch (stock xpra 3.1.3 sends two: the zooms read x0.0157).
# The three-user run with a sabotaged user is tests/e2e/xpra.sh.
# Label heavy (ctest -L heavy): on this shared machine it passed 7/7 three
# times and failed twice at load 7-14 (clicks without effect within 8 s, a
# scale bar captured without its ink), 2026-12-01; not yet stable enough to
# gate a submission.
set -euo pipefail
root=${SC_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
cli=${SC_CLI:?SC_CLI must point at the stepcheck binary}
rig="$root/examples/josm/rig.sh"
work=$(mktemp -d /tmp/sc-e2e-xpra1-XXXXXX)
state="$work/rig"
cleanup() {
  bash "$rig" stop --state "$state" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
disp=${SC_E2E_XPRA1_DISPLAY:-49}

echo "== e2e: josm.json through xpra"
url=$(bash "$rig" start --transport xpra --display "$disp" --state "$state")
set +e
"$cli" run "$root/examples/josm/josm.json" --url "$url" --cycles 1 \
  --report-json "$work/one.json" --quiet > "$work/one.txt" 2>&1
rc=$?
set -e
grep -v '^located' "$work/one.txt" | tail -15
python3 - "$work/one.json" "$rc" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1])); rc = int(sys.argv[2])
res = [r for r in rep["results"] if not r["setup"]]
assert rc == 0 and len(res) == 7 and all(r["passed"] for r in res), \
    (rc, rep.get("error"), [(r["step_id"], r["reason"]) for r in res if not r["passed"]])
z = {r["step_id"]: r["scale_factor"] for r in res}
assert abs(z["zoom-in"] - 0.125) < 0.125 * 0.03 and abs(z["zoom-out"] - 8.0) < 8.0 * 0.03, z
loc = {l["name"]: l for l in rep["located"]}
print("xpra-one: 7/7 verified, zoom x%.4f / x%.4f; eye at %s,%s" % (
    z["zoom-in"], z["zoom-out"], loc["eye"]["x"], loc["eye"]["y"]))
PY
bash "$rig" stop --state "$state" >/dev/null
echo "xpra-one: 1 passed, 0 failed"
