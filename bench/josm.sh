#!/usr/bin/env bash
# Per-step verified_ms on REAL JOSM (examples/josm/rig.sh: Xvfb, JOSM,
# x11vnc, noVNC, or Xpra's HTML5 client), three tools in one run: stepcheck
# proving rest with the page's paint log (its default), stepcheck with
# --rest pairs (two identical captures, the 0.2.0 rule), and the
# playwright-core peer. With --floor, two more runs after them: the peer's
# gestures with the same pacing and no verification (steps.js --verify
# none: no screenshot; --verify one: one per step), the browser CPU every
# driver pays per step on this page, so that the summary can say what each
# rule costs above it.
#
#   bench/josm.sh [--cycles K] [--out DIR] [--display N] [--transport novnc|xpra] [--floor]
#                 [--rounds R]
#
# Defaults: 20 cycles of examples/josm/josm-1600.json, DIR out/bench-josm/,
# display 57 (VNC port 5957, web port 6057), transport novnc. Builds bench_steps in
# build-bench/ and installs playwright-core when missing, as bench/run.sh does.
#
# Per tool: verified median per step id, screenshots per verified step
# (every Page.captureScreenshot sent: bench_steps counts the library's,
# steps.js its own page.screenshot calls), browser CPU per verified step (the
# program's reading of the browser tree over the steps, and
# bench/treestat.py's tree CPU less the driver's over the program's life,
# as bench/multi.sh measures), and with the paint log the median first_paint_ms
# (the application's first paint over the step's regions).
#
# Each tool gets a freshly started JOSM (rig.sh start, state dir under a
# mktemp dir; rig.sh stop before the next start): the C run leaves JOSM with
# a warmed-up JIT and 20 cycles of history behind it, so sharing one JOSM
# would favour whichever tool runs later. The tools run in the order above.
# All must start from the same screen: before each run the map, Tags and
# Selection areas are read from the X display itself (lossless, not through
# noVNC) and hashed; the hashes are compared and the result is printed (a
# mismatch is reported, the numbers are still printed). The same hash after each run shows whether the
# run left JOSM as it found it. (On xpra they are read from JOSM's own X
# window, which the rig names in its state: xpra's root window shows
# nothing.)
#
# Output: DIR/steps.txt, DIR/steps-pairs.txt, DIR/steps-peer.txt (raw,
# stderr in *.err: one line per step; *.stat.json from treestat),
# DIR/machine.txt, DIR/summary.txt (also on stdout: bench/peer/summary.js,
# then bench/peer/restsum.js with the three tools and the goals). JOSM has
# no app timing records, so there is no app time-to-pixel: the summary
# compares verified_ms. Exit 0 when every step of both stepcheck runs
# passed, 1 otherwise or on error. The rig and every browser are stopped on
# exit, error and ^C.
#
# --rounds R (R > 1) runs all of the above R times, round k into DIR/rk
# (each with its own summary.txt) with the tools' order rotated by k-1, and
# then bench/peer/rounds.js over the rounds into DIR/summary.txt: each
# round's browser CPU per step and ratios, and their medians. On Xpra's
# page one run per tool moves by a quarter from run to run
# (docs/benchmarks.md, 2026-12-03); the median of rounds is the reading to
# quote. Exit 0 when every round exited 0.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CYCLES=20
OUT="$ROOT/out/bench-josm"
DISPLAY_NUM=57
TRANSPORT=novnc
FLOOR=0
ROUNDS=1
ORDER=0
ARGS=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --cycles) CYCLES=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --display) DISPLAY_NUM=$2; shift 2 ;;
    --transport) TRANSPORT=$2; shift 2 ;;
    --floor) FLOOR=1; shift ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --order) ORDER=$2; shift 2 ;; # the round's rotation (set by --rounds)
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "josm.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ "$CYCLES" =~ ^[1-9][0-9]*$ ]] || { echo "josm.sh: --cycles must be a positive number" >&2; exit 2; }
case "$TRANSPORT" in novnc|xpra) ;; *) echo "josm.sh: --transport must be novnc or xpra (got '$TRANSPORT')" >&2; exit 2 ;; esac
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "josm.sh: --rounds must be a positive number" >&2; exit 2; }
[[ "$ORDER" =~ ^[0-9]+$ ]] || { echo "josm.sh: --order must be a number" >&2; exit 2; }
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if [ "$ROUNDS" -gt 1 ]; then
  # each round is this script once more, with its own --out and --order
  # (given last: they override the caller's)
  rc=0 dirs=()
  for k in $(seq "$ROUNDS"); do
    echo "== round $k of $ROUNDS" >&2
    bash "$0" "${ARGS[@]}" --rounds 1 --out "$OUT/r$k" --order $((k - 1)) > /dev/null || rc=1
    dirs+=("$OUT/r$k")
  done
  node "$ROOT/bench/peer/rounds.js" "${dirs[@]}" | tee "$OUT/summary.txt"
  exit "$rc"
fi
BUILD="$ROOT/build-bench"
BIN="$BUILD/bench"
PEER="$ROOT/bench/peer"
RIG="$ROOT/examples/josm/rig.sh"
# the hand-measured file: the peer reads its points and regions as written
SCEN="$ROOT/examples/josm/josm-1600.json"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/stepcheck-bench-josm.XXXXXX")
STATE="$TMP/rig"
export BENCH_PIDFILE="$TMP/pids"
: > "$BENCH_PIDFILE"
CUR=""
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [ -n "$CUR" ] && kill -0 "$CUR" 2>/dev/null; then
    # treestat sends TERM on to the tool, KILLs what is left after 10 s
    kill -TERM "$CUR" 2>/dev/null || true
    for _ in $(seq 30); do kill -0 "$CUR" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$CUR" 2>/dev/null || true
  fi
  stop_noted_browsers
  [ -e "$STATE" ] && "$RIG" stop --state "$STATE" 2>/dev/null
  rm -rf -- "$TMP"
  exit "$rc"
}
trap cleanup EXIT
trap 'echo "josm.sh: interrupted" >&2; exit 130' INT
trap 'exit 143' TERM

echo "== build ($BUILD)" >&2
cmake -S "$ROOT" -B "$BUILD" -DSTEPCHECK_BENCH=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$OUT/build.log"
cmake --build "$BUILD" -j"$(nproc)" --target bench_steps >> "$OUT/build.log" 2>&1 ||
  { tail -n 30 "$OUT/build.log" >&2; exit 1; }
if [ ! -f "$PEER/node_modules/playwright-core/package.json" ]; then
  echo "== npm install playwright-core ($PEER)" >&2
  (cd "$PEER" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund > "$OUT/npm.log" 2>&1) ||
    (cd "$PEER" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund >> "$OUT/npm.log" 2>&1)
fi
rm -f "$OUT"/steps*.txt "$OUT"/steps*.err "$OUT"/steps*.stat.json "$OUT/runs.log"

{
  machine_facts "$ROOT" "$PEER"
  if [ "$TRANSPORT" = novnc ]; then how="stock noVNC: lossy Tight/JPEG"; else how="xpra $(dpkg-query -W -f '${Version}' xpra 2>/dev/null || echo '?') HTML5 client"; fi
  echo "josm=\"$(dpkg-query -W -f '${Version}' josm 2>/dev/null || echo '?')\" rig=\"rig.sh start --display $DISPLAY_NUM --transport $TRANSPORT ($how)\" cycles=$CYCLES"
} > "$OUT/machine.txt"

# Hash of the map, Tags and Selection areas (josm.json's drift regions) read
# from JOSM's X window (the root window on novnc, where JOSM sits at 0,0),
# once two reads 0.3 s apart agree (5 tries).
screen_hash() {
  local prev="" h r x y w h2 win
  win=$(sed -n 's/^capture_win=//p' "$STATE/u1/user.state" 2>/dev/null | head -n 1)
  for _ in 1 2 3 4 5; do
    h=""
    for r in 39,64,1225,813 1272,234,323,180 1272,450,323,180; do
      IFS=, read -r x y w h2 <<< "$r"
      h="$h$(DISPLAY=":$DISPLAY_NUM" import -silent -window "${win:-root}" -crop "${w}x${h2}+${x}+${y}" +repage \
        -depth 8 rgb:- | sha1sum | cut -c1-12)"
    done
    [ "$h" = "$prev" ] && break
    prev=$h
    sleep 0.3
  done
  printf '%s\n' "$h"
}

# bench NAME CMD...: fresh rig, start screen, CMD with URL under treestat
# (NAME.stat.json), end screen, stop. The load before and after to runs.log.
declare -A START END RC
bench() {
  local name=$1; shift
  echo "== rig start (display :$DISPLAY_NUM, $TRANSPORT)" >&2
  local url
  url=$("$RIG" start --display "$DISPLAY_NUM" --transport "$TRANSPORT" --state "$STATE" 2> "$OUT/$name.rig.log") ||
    { cat "$OUT/$name.rig.log" >&2; exit 1; }
  START[$name]=$(screen_hash)
  echo "== $name: $* --url $url" >&2
  echo "$name start $(date -u +%H:%M:%S) load=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/runs.log"
  python3 "$ROOT/bench/treestat.py" --out "$OUT/$name.stat.json" -- "$@" --url "$url" \
    > "$OUT/$name.txt" 2> "$OUT/$name.err" &
  CUR=$!
  local rc=0
  wait "$CUR" || rc=$?
  CUR=""
  RC[$name]=$rc
  echo "$name end $(date -u +%H:%M:%S) exit $rc load=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/runs.log"
  [ "$rc" -eq 0 ] || { echo "   $name exited with $rc; see $OUT/$name.err" >&2; tail -n 3 "$OUT/$name.err" >&2 || true; }
  END[$name]=$(screen_hash)
  "$RIG" stop --state "$STATE" 2>> "$OUT/$name.rig.log"
}

tool() {
  case $1 in
    steps) bench steps "$BIN/bench_steps" --scenario "$SCEN" --cycles "$CYCLES" -v ;;
    steps-pairs) bench steps-pairs "$BIN/bench_steps" --scenario "$SCEN" --cycles "$CYCLES" --rest pairs \
      --label stepcheck-pairs -v ;;
    steps-peer) bench steps-peer node "$PEER/steps.js" --scenario "$SCEN" --cycles "$CYCLES" --verbose 1 ;;
    steps-floor-none) bench steps-floor-none node "$PEER/steps.js" --scenario "$SCEN" --cycles "$CYCLES" --verify none ;;
    steps-floor-one) bench steps-floor-one node "$PEER/steps.js" --scenario "$SCEN" --cycles "$CYCLES" --verify one ;;
  esac
}
TOOLS=(steps steps-pairs steps-peer)
[ "$FLOOR" = 1 ] && TOOLS+=(steps-floor-none steps-floor-one)
for i in "${!TOOLS[@]}"; do
  tool "${TOOLS[$(((i + ORDER) % ${#TOOLS[@]}))]}"
done

{
  node "$PEER/summary.js" "$OUT"
  node "$PEER/restsum.js" "$OUT"
  echo
  same=no
  [ "${START[steps]}" = "${START[steps-peer]}" ] && [ "${START[steps]}" = "${START[steps-pairs]}" ] && same=yes
  echo "Start screen (map+tags+selection, read natively): paint log ${START[steps]}, pairs ${START[steps-pairs]}, playwright ${START[steps-peer]}: same=$same"
  for n in steps steps-pairs steps-peer; do
    case $n in steps) t="stepcheck (paint log)" ;; steps-pairs) t="stepcheck (pairs)" ;; *) t=playwright ;; esac
    left=changed
    [ "${START[$n]}" = "${END[$n]}" ] && left=unchanged
    echo "  $t: exit ${RC[$n]}; screen after $CYCLES cycles $left"
  done
  echo
  echo "Runs (UTC, load before/after):"
  cat "$OUT/runs.log"
} > "$OUT/summary.txt"
cat "$OUT/summary.txt"
ok=1
[ "${RC[steps]}" = 0 ] && [ "${RC[steps-pairs]}" = 0 ] || ok=0
nsteps=$(node -p "require('$SCEN').cycle.length")
grep -q "^tool=stepcheck case=all n=$((CYCLES * nsteps)) pass=$((CYCLES * nsteps)) " "$OUT/steps.txt" || ok=0
grep -q "^tool=stepcheck-pairs case=all n=$((CYCLES * nsteps)) pass=$((CYCLES * nsteps)) " "$OUT/steps-pairs.txt" || ok=0
[ "$ok" = 1 ]
