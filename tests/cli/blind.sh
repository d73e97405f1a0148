#!/usr/bin/env bash
# The paint log's blind spots (fixtures/blind/README.md), through the CLI.
# On each page a click changes R in a way a 2D-canvas paint log cannot see
# (webgl, offscreen, iframe: the run falls back to screenshot pairs and
# says why) or sees only as "something changed" (overlay, transform,
# css-anim). Per page, one cycle each, one run at a time:
#   changed.json passes, and its click step says how rest was proven;
#   unchanged.json fails (R did change);
#   spin.json on PAGE?busy=2000 fails: R takes a new colour every 8 ms
#     for 2 s after ready, by the page's own blind way, then stays changed;
#     the click changes nothing, so "R changed" must not be believed;
# and the sabotage: SC_DEBUG=log-trust,no-witness (the log trusted where it
# knows it is blind, no self-check, no compositor witness) lets spin.json
# pass on webgl, offscreen and iframe, by the log: its "before" was taken
# mid-animation. (With log-trust alone the witness fails them: a second
# guard.) (A two-colour ?spin is
# not used: whether two samples differ then depends on the capture cadence,
# README.md "Spin".)
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}/blind
tmp=$(mktemp -d /tmp/sc-blind-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

declare -A why=(
  [webgl]="a WebGL canvas on or over the guest"
  [offscreen]="a canvas drawn by a worker (transferControlToOffscreen) on or over the guest"
  [iframe]="a frame over the guest (its document paints where the log cannot see)"
)

# case_ NAME SCENARIO PAGE?QUERY WANT_EXIT WANT_REST WANT_WHY WANT_REASON [VAR=VALUE...]
# Runs one cycle of fixtures/blind/SCENARIO.json on the page and checks the
# exit code; when WANT_EXIT is 1, that no click step passed (a failure
# elsewhere must not hide one); when WANT_REST is set, the click step's
# rest and rest_why in report.json ("-": rest_why null); when WANT_REASON
# is set, that the reason of the step that failed contains it. Prints one
# line.
case_() {
  local name=$1 scen=$2 page=$3 want=$4 rest=$5 rwhy=$6 reason=$7; shift 7
  local dir=$tmp/$name t0 t1 rc
  t0=$(date +%s%N)
  env "$@" "$cli" run "$fx/$scen.json" --url "file://$fx/$page" --allow-url-scheme file \
    --cycles 1 --report "$dir" >"$dir.out" 2>"$dir.err"
  rc=$?
  t1=$(date +%s%N)
  local tag=FAIL
  if python3 - "$dir/report.json" "$name" "$rc" "$want" "$rest" "$rwhy" "$reason" \
      "$(( (t1 - t0) / 1000000 ))" "$tag" <<'PY'
import json, sys
path, name, rc, want, rest, rwhy, reason, ms, tag = sys.argv[1:]
rwhy = None if rwhy == "-" else rwhy
bad = []
if rc != want:
    bad.append(f"exit {rc}, want {want}")
try:
    res = json.load(open(path))["results"]
except (OSError, ValueError, KeyError) as e:
    res = []
    bad.append(f"no report.json ({e})")
# the click step if it ran, else the step that stopped the cycle
st = next((s for s in res if s["step_id"] == "click"), res[-1] if res else None)
line = "no step"
if st is not None:
    line = (f'{st["step_id"]} {"pass" if st["passed"] else "fail"} rest={st["rest"]}'
            f' why={st["rest_why"]} | {st["reason"][:90]}')
    if rest and st["step_id"] != "click":
        bad.append(f'the cycle stopped at step "{st["step_id"]}"')
    elif rest and (st["rest"], st["rest_why"]) != (rest, rwhy):
        bad.append(f'click rest {st["rest"]!r} why {st["rest_why"]!r}, want {rest!r} why {rwhy!r}')
    if want == "1" and st["step_id"] == "click" and st["passed"]:
        bad.append("the click step passed")
    failed = next((s for s in res if not s["passed"]), None)
    if reason and not (failed and reason in failed["reason"]):
        bad.append(f"no failed step's reason says {reason!r}")
print(f'{tag if bad else "ok":<7} {name:<25} exit {rc} {int(ms) / 1000:5.1f} s  {line}')
for b in bad:
    print(f"        {name}: {b}")
sys.exit(1 if bad else 0)
PY
  then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    tail -3 "$dir.err" | sed 's/^/        | /'
  fi
}

start=$(date +%s)
for p in overlay webgl transform offscreen iframe css-anim; do
  if [ -n "${why[$p]:-}" ]; then
    rest=pairs rwhy=${why[$p]}
  else
    rest=paint-log rwhy=-
  fi
  case_ "$p-changed" changed "$p.html" 0 "$rest" "$rwhy" ""
  case_ "$p-unchanged" unchanged "$p.html" 1 "" "" ""
  case_ "$p-busy" spin "$p.html?busy=2000" 1 "$rest" "$rwhy" "r unchanged"
done
# The sabotage: trusted where it is blind, the log sees no paint, takes its
# "before" mid-animation, and the capture after the timeout shows R changed.
for p in webgl offscreen iframe; do
  case_ "$p-busy-log-trust" spin "$p.html?busy=2000" 0 paint-log - "" SC_DEBUG=log-trust,no-witness
done
echo "blind: $pass passed, $fail failed ($(( $(date +%s) - start )) s)"
[ "$fail" -eq 0 ]
