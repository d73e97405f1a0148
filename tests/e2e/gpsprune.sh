#!/usr/bin/env bash
# End to end on real GpsPrune (Debian's gpsprune 22.2, a Swing map viewer)
# through the generic rig, examples/rig/rig.sh --transport novnc (lossless):
# GpsPrune offline with examples/gpsprune/track.gpx, then
# examples/gpsprune/gpsprune.json for 2 cycles must verify 12/12: select a
# track point, zoom in 3 wheel notches checked by the scale bar (x0.125,
# GpsPrune's "gpsprune" profile), zoom out back to the snapshot (x8), the
# sidebars off with F11 and on again (equal to before), deselect. Sabotages,
# on the same rig: the zoom-in's expected factor 0.25 must fail that step
# on the factor alone ("want x0.2500", read x0.125); 2 notches each way
# instead of 3 must fail both zooms on the factor (read x0.25 and x4) while
# every other step passes. Every run's browser and the rig are stopped even
# on failure; at the end no recorded process (nor a descendant), state dir,
# X lock or socket, listening port, browser profile or JVM perf file is left.
# Display SC_E2E_GPSPRUNE_DISPLAY (default 143), web port 6000 + display.
set -uo pipefail
root=${SC_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
cli=${SC_CLI:?SC_CLI must point at the stepcheck binary}
rig="$root/examples/rig/rig.sh"
ex="$root/examples/gpsprune"
disp=${SC_E2E_GPSPRUNE_DISPLAY:-143}
work=$(mktemp -d /tmp/sc-e2e-gpsprune-XXXXXX)
state="$work/rig"
uptime_s() { cut -d. -f1 /proc/uptime; }   # monotonic: the wall clock here jumps
t0=$(uptime_s)
runpid=
cleanup() {
  # a run still going (the test interrupted): SIGTERM makes stepcheck stop
  # its browser and exit
  if [ -n "$runpid" ]; then kill -TERM "$runpid" 2>/dev/null; wait "$runpid" 2>/dev/null; fi
  [ -d "$state" ] && bash "$rig" stop --state "$state" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
. "$(dirname "$0")/../util/tally.sh"
export TMPDIR=$work   # the rig's failure screenshot and logs

for t in gpsprune java Xvfb x11vnc websockify import python3; do
  command -v "$t" >/dev/null || { echo "gpsprune: '$t' missing (scripts/deps.sh installs it)"; exit 1; }
done
[ ! -e "/tmp/.X$disp-lock" ] || { echo "gpsprune: display :$disp in use; set SC_E2E_GPSPRUNE_DISPLAY"; exit 1; }

# GpsPrune reads its settings from this copy (it never writes it:
# prune.autosavesettings=0), the track from the repository.
cp "$ex/gpsprune.config" "$work/gpsprune.config"
app="gpsprune --configfile=$(printf %q "$work/gpsprune.config") $(printf %q "$ex/track.gpx")"

echo "== e2e gpsprune: start GpsPrune on the generic rig (novnc, display :$disp)"
if ! url=$(bash "$rig" start --app "$app" --transport novnc --display "$disp" --state "$state" \
             --size 1280x800 --ready 'title:^GpsPrune$' --ready still:2000 --timeout 120 \
             2>"$work/start.err"); then
  cat "$work/start.err"
  tail -n 20 "$work"/stepcheck-rig-fail.*.log 2>/dev/null
  echo "gpsprune: rig start failed"
  exit 1
fi
cat "$work/start.err"
[ "$(printf '%s\n' "$url" | wc -l)" = 1 ] && [[ "$url" == "http://127.0.0.1:$((6000 + disp))/"* ]] && ok ||
  bad "start printed '$url', want one URL on port $((6000 + disp))"

# every recorded process and its descendants, "pid:starttime", for the
# leftover check after stop
snapshot() {
  python3 - "$state/u1/pids" <<'PY'
import os, sys
want = [l.split() for l in open(sys.argv[1]) if l.strip()]
info, kids = {}, {}
for d in os.listdir("/proc"):
    if d.isdigit():
        try:
            s = open("/proc/%s/stat" % d).read()
        except OSError:
            continue
        f = s[s.rindex(")") + 2:].split()
        info[int(d)] = f[19]
        kids.setdefault(int(f[1]), []).append(int(d))
todo = [int(p) for _, p, st in want if info.get(int(p)) == st]
seen = []
while todo:
    p = todo.pop()
    if p not in seen:
        seen.append(p)
        todo += kids.get(p, [])
print(" ".join("%d:%s" % (p, info[p]) for p in seen))
PY
}
snap=$(snapshot)
[ -n "$snap" ] && ok || bad "the rig recorded no process"

# run NAME SCENARIO CYCLES: stepcheck in the background, so that its pid is
# known: its browser profile is /dev/shm/stepcheck-PID-* (or in $TMPDIR), and
# that profile and every process using it must be gone once it exits
run() {
  local name=$1 scn=$2 cycles=$3 pid rc left
  "$cli" run "$scn" --url "$url" --cycles "$cycles" --report "$work/$name" \
    --report-json "$work/$name.json" --quiet > "$work/$name.txt" 2>&1 &
  pid=$! runpid=$!
  wait $pid
  rc=$? runpid=
  echo "$rc" > "$work/$name.rc"
  sed -n '/^cycle step/,/^first:/p; /^RESULT/p' "$work/$name.txt"
  [ "$rc" -le 1 ] || sed -n '1,20p' "$work/$name.txt"
  left=$(ls -d /dev/shm/stepcheck-"$pid"-* "$work"/stepcheck-"$pid"-* 2>/dev/null
         ps -eo pid=,args= | grep -F -e "/dev/shm/stepcheck-$pid-" -e "$work/stepcheck-$pid-" | grep -v grep)
  [ -z "$left" ] && ok || bad "$name: stepcheck (pid $pid) left its browser: $left"
}

# check NAME PYTHON: assertions on the report (res: the step results,
# step(id, cycle), rc: the exit code); prints what it checked
check() {
  if python3 - "$work/$1.json" "$(cat "$work/$1.rc")" "$2" <<'PY'
import json, sys
rc = int(sys.argv[2])
try:
    rep = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    raise SystemExit(f"no report ({e}); exit code {rc}")
res = [r for r in rep["results"] if not r["setup"]]
def step(sid, cycle=1):
    for r in res:
        if r["step_id"] == sid and r["cycle"] == cycle: return r
    raise SystemExit(f"no result for {sid} cycle {cycle}")
exec(sys.argv[3])
PY
  then ok; else bad "$1: the report does not hold (above)"; fi
}

echo "== e2e gpsprune: examples/gpsprune/gpsprune.json, 2 cycles"
run pass "$ex/gpsprune.json" 2
check pass '
assert rc == 0, f"exit code {rc}"
bad = [(r["step_id"], r["cycle"], r["reason"]) for r in res if not r["passed"]]
assert len(res) == 12 and not bad, (len(res), bad)
for c in (1, 2):
    zi, zo = step("zoom-in", c), step("zoom-out", c)
    assert abs(zi["scale_factor"] / 0.125 - 1) < 0.005, zi
    assert abs(zo["scale_factor"] / 8 - 1) < 0.005, zo
    assert "map equals snapshot zoom-in (0 px differ" in zo["reason"], zo
    assert "map equals snapshot toggle (0 px differ" in step("restore", c)["reason"]
print("pass: 12/12 verified; zoom-in", ", ".join("x%.4f (%s)" % (step("zoom-in", c)["scale_factor"], step("zoom-in", c)["scale_text"]) for c in (1, 2)),
      "; zoom-out", ", ".join("x%.4f" % step("zoom-out", c)["scale_factor"] for c in (1, 2)))
'

# sabotage NAME PYTHON-EDIT: a copy of the scenario edited by the code (s is
# the scenario, zoom(id) its zoom step); its template paths made absolute
sabotage() {
  python3 - "$ex/gpsprune.json" "$work/$1-scenario.json" "$ex" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for table in (s["points"], s["regions"]):
    for v in table.values():
        if isinstance(v, dict) and "template" in v:
            v["template"] = sys.argv[3] + "/" + v["template"]
def zoom(sid):
    return next(x for x in s["cycle"] if x["id"] == sid)
exec(sys.argv[4])
json.dump(s, open(sys.argv[2], "w"), indent=1)
PY
}

echo "== e2e gpsprune sabotage: zoom-in expects x0.25 (it is x0.125)"
sabotage factor 'zoom("zoom-in")["expect"][1]["factor"] = 0.25'
run factor "$work/factor-scenario.json" 1
check factor '
assert rc == 1, f"exit code {rc}"
zi = step("zoom-in")
assert not zi["passed"] and "(want x0.2500)" in zi["reason"], zi
assert abs(zi["scale_factor"] / 0.125 - 1) < 0.005, zi
others = [(r["step_id"], r["reason"]) for r in res if r["step_id"] != "zoom-in" and not r["passed"]]
assert not others, others
print("factor: zoom-in FAIL on the factor alone:", zi["reason"].split("; the page")[0])
'

echo "== e2e gpsprune sabotage: 2 notches in and out (the factors say 3)"
sabotage notches 'zoom("zoom-in")["wheel"]["notches"] = -2; zoom("zoom-out")["wheel"]["notches"] = 2'
run notches "$work/notches-scenario.json" 1
check notches '
assert rc == 1, f"exit code {rc}"
zi, zo = step("zoom-in"), step("zoom-out")
assert not zi["passed"] and "(want x0.1250)" in zi["reason"] and abs(zi["scale_factor"] / 0.25 - 1) < 0.005, zi
assert not zo["passed"] and "(want x8.0000)" in zo["reason"] and abs(zo["scale_factor"] / 4 - 1) < 0.005, zo
others = [(r["step_id"], r["reason"]) for r in res if r["step_id"] not in ("zoom-in", "zoom-out") and not r["passed"]]
assert not others, others
print("notches: zoom-in FAIL:", zi["reason"].split("; the page")[0], "| zoom-out FAIL:", zo["reason"].split("; the page")[0])
'

echo "== e2e gpsprune: stop leaves nothing"
java_pids=$(for m in $snap; do p=${m%:*}; [ "$(cat "/proc/$p/comm" 2>/dev/null)" = java ] && echo "$p"; done)
if bash "$rig" stop --state "$state" 2>"$work/stop.err"; then ok; else bad "stop failed: $(cat "$work/stop.err")"; fi
rest=""
for m in $snap; do
  p=${m%:*}
  st=$(awk '{ sub(/.*\) /, ""); if ($1 != "Z") print $20 }' "/proc/$p/stat" 2>/dev/null)
  [ "$st" = "${m#*:}" ] && rest+=" pid $p ($(cat "/proc/$p/comm" 2>/dev/null)) still running;"
done
[ ! -e "$state" ] || rest+=" state dir $state still there;"
[ ! -e "/tmp/.X$disp-lock" ] || rest+=" /tmp/.X$disp-lock still there;"
[ ! -e "/tmp/.X11-unix/X$disp" ] || rest+=" X socket of :$disp still there;"
for p in $((6000 + disp)) $((5900 + disp)); do
  [ -z "$(ss -Hltn "sport = :$p" 2>/dev/null)" ] || rest+=" port $p still listening;"
done
for p in $java_pids; do
  [ ! -e "/tmp/hsperfdata_$(id -un)/$p" ] || rest+=" /tmp/hsperfdata_$(id -un)/$p still there;"
done
left=$(ps -eo pid=,stat=,args= | awk '$2 !~ /^Z/' | grep -E -- "(:$disp( |$)|$work)" | grep -v grep || true)
[ -z "$left" ] || rest+=" process: $left;"
[ -z "$rest" ] && ok || bad "after stop:$rest"
echo "gpsprune: stopped; took $(( $(uptime_s) - t0 )) s"
tally "e2e gpsprune"
