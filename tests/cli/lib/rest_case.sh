# Shared by tests/cli/blind.sh and tests/cli/hostile.sh: one run of a
# fixture scenario on a fixture page through the CLI, checked, one line
# printed, counted. Source it after setting cli (the CLI), fx (the folder
# of the pages and scenarios) and tmp (a scratch folder the caller removes);
# it counts in pass and fail, and rest_case_summary prints the count.
pass=0 fail=0

# case_ NAME SCENARIO PAGE?QUERY WANT_EXIT WANT_REST WANT_WHY WANT_REASON [VAR=VALUE...]
# Runs one cycle of $fx/SCENARIO.json on $fx/PAGE and checks the exit
# code; when WANT_EXIT is 1, that no click step passed (a failure
# elsewhere must not hide one); when WANT_REST is set, the click step's
# rest and rest_why in report.json ("-": rest_why null); when WANT_REASON
# is set, that the reason of the step that failed contains it (or one of
# its alternatives, split at "|"). Prints one line.
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
    if reason and not (failed and any(a in failed["reason"] for a in reason.split("|"))):
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


# rest_case_summary NAME START: "NAME: N passed, M failed (S s)" from the
# date +%s START; fails when a case failed.
rest_case_summary() {
  echo "$1: $pass passed, $fail failed ($(( $(date +%s) - $2 )) s)"
  [ "$fail" -eq 0 ]
}
