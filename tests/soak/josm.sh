#!/usr/bin/env bash
# Soak on real JOSM (issue 39): SOAK_USERS users (default 4), one JOSM
# each (examples/josm/rig.sh), through SOAK_TRANSPORT (xpra, the default,
# or novnc), running examples/josm/josm.json from one stepcheck process for
# SOAK_SECONDS (default 1800) after a one-cycle warm-up. Every 10 s it
# samples the generator's PSS: the stepcheck process and every process
# under it (the browsers it launched), each from /proc/PID/smaps_rollup.
# Passes when no step failed, the run exited 0, and the least-squares slope
# of the generator's PSS from SOAK_MARK seconds on (default 300; a third of
# a shorter run) is under 1 MiB per minute. Prints the slope, the PSS per
# minute (the highest sample of each), and the browser's and stepcheck's
# share of it.
#   SOAK_DISPLAY (default 91): the rig's first display (web port 6000 + it).
#   SOAK_SAMPLES_OUT=FILE: keep the samples ("t_s total_kib self_kib").
#   SOAK_PSS_LIMIT_MIB (default 6000): the run is stopped (SIGTERM) once the
#   generator's PSS passes it, so a leak cannot take the machine with it
#   (the soak then fails: "stopped at the PSS limit").
# Label `soak`, not part of the default test command; minutes of real JOSM:
#   SOAK_SECONDS=600 SOAK_USERS=1 bash tests/soak/josm.sh   (SC_CLI, SC_SOURCE_DIR set)
#   (cd build && SOAK_USERS=1 ctest -R soak_josm --output-on-failure)
set -uo pipefail
cli=${SC_CLI:?}
src=${SC_SOURCE_DIR:?}
secs=${SOAK_SECONDS:-1800}
users=${SOAK_USERS:-4}
transport=${SOAK_TRANSPORT:-xpra}
display=${SOAK_DISPLAY:-91}
mark=${SOAK_MARK:-300}
limit=${SOAK_PSS_LIMIT_MIB:-6000}
[ "$secs" -lt $((3 * mark)) ] && mark=$((secs / 3))
tmp=$(mktemp -d /tmp/sc-soak-josm-XXXXXX)
runpid=""
cleanup() {
  [ -n "$runpid" ] && kill -TERM "$runpid" 2>/dev/null && sleep 2
  bash "$src/examples/josm/rig.sh" stop --state "$tmp/rig" >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mapfile -t urls < <(bash "$src/examples/josm/rig.sh" start --state "$tmp/rig" --users "$users" \
  --transport "$transport" --display "$display" 2>"$tmp/rig.err")
if [ "${#urls[@]}" -ne "$users" ]; then
  echo "soak-josm: the rig did not start"; cat "$tmp/rig.err"; exit 1
fi
args=()
for u in "${urls[@]}"; do args+=(--url "$u"); done

# the PSS (KiB) of pid and of every process under it
tree_pss() {
  ps -e -o pid=,ppid= | awk -v root="$1" '
    { kids[$2] = kids[$2] " " $1 }
    END { q[1] = root; n = 1
          for (i = 1; i <= n; i++) { split(kids[q[i]], k, " "); for (j in k) q[++n] = k[j] }
          for (i = 1; i <= n; i++) print q[i] }' |
    while read -r p; do cat "/proc/$p/smaps_rollup" 2>/dev/null; done |
    awk '/^Pss:/ { s += $2 } END { print s + 0 }'
}

start=$(date +%s)
"$cli" run "$src/examples/josm/josm.json" "${args[@]}" --users "$users" --duration "$secs" \
  --warmup 1 --quiet --report "$tmp/r" >"$tmp/out" 2>"$tmp/err" &
runpid=$!
: >"$tmp/samples"
while kill -0 "$runpid" 2>/dev/null; do
  t=$(($(date +%s) - start))
  total=$(tree_pss "$runpid")
  self=$(awk '/^Pss:/ { print $2 }' "/proc/$runpid/smaps_rollup" 2>/dev/null)
  [ -n "$self" ] && echo "$t $total $self" >>"$tmp/samples"
  if [ "$total" -gt $((limit * 1024)) ] && [ ! -e "$tmp/limit" ]; then
    echo "soak-josm: stopped at the PSS limit: $((total / 1024)) MiB at $t s (SOAK_PSS_LIMIT_MIB=$limit)" | tee "$tmp/limit"
    kill -TERM "$runpid"
  fi
  sleep 10
done
wait "$runpid"
rc=$?
runpid=""
echo "soak-josm: $transport, $users user(s), ${secs} s, exit $rc ($(date -u -d @"$start" +%H:%M)-$(date -u +%H:%M) UTC)"
tail -4 "$tmp/out"
[ "$rc" -eq 0 ] || tail -5 "$tmp/err"
cp "$tmp/samples" "${SOAK_SAMPLES_OUT:-/dev/null}" 2>/dev/null
[ -e "$tmp/limit" ] && cat "$tmp/limit" && rc=99

python3 - "$tmp/r/report.json" "$tmp/samples" "$mark" "$rc" <<'PY'
import json, sys
mark, rc = int(sys.argv[3]), int(sys.argv[4])
rows = [tuple(int(x) for x in l.split()) for l in open(sys.argv[2]) if l.strip()]
rows = rows[:-1]  # the last sample may have been taken while the browsers were closing
ok = rc == 0
try:
    r = json.load(open(sys.argv[1]))
    steps = sum(len(u["results"]) for u in r["users"])
    print(f"steps: {steps} results, {r['steps_failed']} failed, result {r['result']}")
    if r["steps_failed"] or steps == 0: ok = False
except (OSError, ValueError, KeyError) as e:
    print(f"no report: {e}"); ok = False
mib = lambda k: k / 1024.0
per_min = {}
for t, tot, me in rows:
    m = t // 60
    if m not in per_min or tot > per_min[m][0]: per_min[m] = (tot, me)
print("PSS by minute (highest sample, MiB, generator = stepcheck + browsers):")
print("  " + "  ".join(f"{m}:{mib(v[0]):.0f}" for m, v in sorted(per_min.items())))
after = [(t / 60.0, mib(tot)) for t, tot, _ in rows if t >= mark]
if len(after) < 3:  # a run stopped early (the PSS limit): the slope after its first minute
    print(f"FAIL too few samples after the mark ({mark} s): the slope below is from 60 s")
    ok, mark = False, 60
    after = [(t / 60.0, mib(tot)) for t, tot, _ in rows if t >= mark]
if len(after) < 3:
    print("FAIL too few samples"); sys.exit(1)
n = len(after); mx = sum(a for a, _ in after) / n; my = sum(b for _, b in after) / n
sxx = sum((a - mx) ** 2 for a, _ in after)
slope = sum((a - mx) * (b - my) for a, b in after) / sxx
print(f"generator PSS from {mark} s: {after[0][1]:.0f} -> {after[-1][1]:.0f} MiB "
      f"({n} samples), slope {slope:.2f} MiB/min (bar: under 1); "
      f"peak {mib(max(r[1] for r in rows)):.0f} MiB; stepcheck alone "
      f"{mib(rows[0][2]):.0f} -> {mib(rows[-1][2]):.0f} MiB")
if slope >= 1.0:
    print("FAIL the generator's PSS grows"); ok = False
print("soak-josm: passed" if ok else "soak-josm: FAILED")
sys.exit(0 if ok else 1)
PY
