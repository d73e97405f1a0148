#!/usr/bin/env bash
# Soak: 8 users on the fixture map app for 10 minutes from one stepcheck
# process (real Chromium). Passes when no step failed, the process's RSS
# grew by at most 1 MiB from minute 2 to the end of the run, its open fd
# count did not grow over the same span, and no browser process or profile
# dir of the run is left afterwards. RSS and fds are sampled every 5 s
# from /proc/PID; "at minute 2" and "at the end" are, for RSS, the highest
# sample of the minute after the mark and of the run's last minute (a
# point sample moves with every frame decoded and freed), and for fds the
# lowest (the library opens /proc files for a moment each second to sample
# itself; a leaked fd raises the lowest count too).
#   SOAK_SECONDS=60 (default 600): a shorter smoke run; the warm-up mark is
#   then 1/3 of the run instead of 120 s (times from the main run's start,
#   after the one-cycle warm-up user).
#   SOAK_USERS (default 8).
# Label `soak`, not part of the default test command:
#   scripts/soak.sh   or   (cd build && ctest -L soak --output-on-failure)
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
secs=${SOAK_SECONDS:-600}
users=${SOAK_USERS:-8}
mark=120
[ "$secs" -lt 600 ] && mark=$((secs / 3))
tmp=$(mktemp -d /tmp/sc-soak-XXXXXX)
runpid=""
cleanup() {
  [ -n "$runpid" ] && kill -KILL "$runpid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
bad() { echo "FAIL $1"; fail=1; }

"$cli" run "$fx/mapapp/seven-steps.json" --url "file://$fx/mapapp/index.html" --allow-url-scheme file --quiet \
  --users "$users" --duration "$secs" --warmup 1 --report "$tmp/r" >"$tmp/out" 2>"$tmp/err" &
runpid=$!
browsers=""
# unix time, RSS (KiB), open fds and CPU ticks (user + system) of the
# stepcheck process, every 5 s.
: >"$tmp/samples"
while kill -0 "$runpid" 2>/dev/null; do
  for p in $(pgrep -P "$runpid"); do
    case " $browsers " in *" $p "*) ;; *) browsers="$browsers $p" ;; esac
  done
  t=$(date +%s)
  rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$runpid/status" 2>/dev/null)
  fds=$(ls "/proc/$runpid/fd" 2>/dev/null | wc -l)
  cpu=$(awk '{print $14 + $15}' "/proc/$runpid/stat" 2>/dev/null)
  [ -n "$rss" ] && [ -n "$cpu" ] && echo "$t $rss $fds $cpu" >>"$tmp/samples"
  sleep 5
done
wait "$runpid"
rc=$?
pid=$runpid
runpid=""
echo "soak: $users users, ${secs} s, exit $rc"
tail -4 "$tmp/out"

python3 - "$tmp/r/report.json" "$tmp/samples" "$mark" "$secs" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
mark, secs = int(sys.argv[3]), int(sys.argv[4])
t0 = r["started_unix_ms"] / 1000.0  # the main run's start (after the warm-up)
rows = [(int(a) - t0, int(b), int(c), int(d)) for a, b, c, d in
        (l.split() for l in open(sys.argv[2]) if l.strip())]
users = r["users"]
steps = sum(len(u["results"]) for u in users)
failed = r["steps_failed"]
print(f"steps: {steps} results, {failed} failed, error {r['error']!r}, result {r['result']}")
ok = True
if failed or r["error"] or steps == 0:
    print("FAIL steps failed or the run stopped"); ok = False
    for u in users:
        for x in u["results"]:
            if not x["passed"]:
                print("  ", u["user_name"], x["cycle"], x["step_id"], x["reason"])
# Judge the samples from the mark to the last one while the users ran.
at_mark = [s for s in rows if mark <= s[0] <= secs]
if len(at_mark) < 2:
    print("FAIL too few samples after the mark", rows); sys.exit(1)
win = min(60, (secs - mark) / 3)
early = [s for s in at_mark if s[0] <= mark + win]
late = [s for s in at_mark if s[0] >= secs - win]
if not early or not late:
    print("FAIL no samples in the windows", rows); sys.exit(1)
rss0, rss1 = max(s[1] for s in early), max(s[1] for s in late)
fd0, fd1 = min(s[2] for s in early), min(s[2] for s in late)
print(f"RSS (KiB, max of {win:.0f} s windows): {rss0} at {mark}-{mark + win:.0f} s, "
      f"{rss1} at {secs - win:.0f}-{secs} s: growth {rss1 - rss0} KiB; "
      f"first sample after the mark {at_mark[0][1]}, last {at_mark[-1][1]}; "
      f"fds (lowest) {fd0} -> {fd1}, highest {max(s[2] for s in early)} -> "
      f"{max(s[2] for s in late)}")
# The process's own CPU per verified step over the whole run (ticks of
# 10 ms; the warm-up's steps included).
import os
hz = os.sysconf("SC_CLK_TCK")
verified = steps - failed + (len(r["warmup"]["results"]) if r.get("warmup") else 0)
print(f"stepcheck CPU: {rows[-1][3] / hz:.1f} s for {verified} verified steps: "
      f"{1000.0 * rows[-1][3] / hz / max(verified, 1):.1f} ms per step")
if rss1 - rss0 > 1024:
    print("FAIL RSS grew by more than 1 MiB after the mark"); ok = False
if fd1 > fd0:
    print("FAIL fd count grew"); ok = False
sys.exit(0 if ok else 1)
PY
cp "$tmp/samples" "${SOAK_SAMPLES_OUT:-/dev/null}" 2>/dev/null

# Nothing left: no live process in any browser's group, no profile.
sleep 2
for b in $browsers; do
  if ps -o stat= -g "$b" 2>/dev/null | grep -qv '^Z'; then
    bad "browser group $b still has processes"; ps -o pid,stat,comm -g "$b"
  fi
done
left=$(ls -d /dev/shm/stepcheck-"$pid"-* /tmp/stepcheck-"$pid"-* 2>/dev/null)
[ -z "$left" ] || bad "profiles left: $left"
[ "$rc" -eq 0 ] || bad "exit $rc"
[ "$fail" -eq 0 ] && echo "soak: passed" || echo "soak: FAILED"
[ "$fail" -eq 0 ]
