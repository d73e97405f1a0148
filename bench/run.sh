#!/usr/bin/env bash
# Run every benchmark and print a summary with stepcheck/peer ratios.
#
#   bench/run.sh [--runs N] [--cycles K] [--out DIR] [--josm [--josm-cycles J]]
#                [--multi]
#
# Builds the benchmarks in build-bench/ (STEPCHECK_BENCH=ON), installs
# playwright-core into bench/peer/node_modules when missing (npm), then runs,
# one after the other on the same machine:
#   capture  bench_capture and peer/capture.js on bench/capture/canvas.html
#            (and on the fixture map app when it exists), N runs per case;
#   decode   bench_png on a generated map and on Chromium's own PNGs;
#   text     bench_text, when the text layer has one;
#   steps    bench_steps and peer/steps.js, K cycles of the fixture map app's
#            seven steps each, back to back;
#   josm     (only with --josm) bench/josm.sh: the same comparison on real
#            JOSM through noVNC, J cycles (default 20), output in DIR/josm/;
#   multi    (only with --multi) bench/multi.sh: many users from one
#            process against two playwright-core peers (its defaults, about
#            20 minutes), output in DIR/multi/.
# Raw output goes to DIR (default out/bench/), the summary to stdout and
# DIR/summary.txt. Every browser started is stopped, also on failure or ^C.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNS=30
CYCLES=10
OUT="$ROOT/out/bench"
JOSM=0
JOSM_CYCLES=20
MULTI=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --cycles) CYCLES=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --josm) JOSM=1; shift ;;
    --josm-cycles) JOSM_CYCLES=$2; shift 2 ;;
    --multi) MULTI=1; shift ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
BUILD="$ROOT/build-bench"
BIN="$BUILD/bench"
PEER="$ROOT/bench/peer"

# Every browser a benchmark starts is written to this file (pid = its own
# process group); whatever is still alive at exit is stopped by group.
export BENCH_PIDFILE="$OUT/pids"
: > "$BENCH_PIDFILE"
CUR=""
cleanup() {
  if [ -n "$CUR" ] && kill -0 "$CUR" 2>/dev/null; then
    kill -TERM "$CUR" 2>/dev/null || true
    # josm.sh needs a few seconds to stop its rig after TERM
    for _ in $(seq 60); do kill -0 "$CUR" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$CUR" 2>/dev/null || true
  fi
  stop_noted_browsers
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# run NAME CMD...: stdout to OUT/NAME.txt, stderr to OUT/NAME.err; a failure
# is reported and the next benchmark runs.
run() {
  local name=$1; shift
  echo "== $name: $*" >&2
  "$@" > "$OUT/$name.txt" 2> "$OUT/$name.err" &
  CUR=$!
  local rc=0
  wait "$CUR" || rc=$?
  CUR=""
  if [ "$rc" -ne 0 ]; then
    echo "   $name exited with $rc; see $OUT/$name.err" >&2
    tail -n 5 "$OUT/$name.err" >&2 || true
  fi
  return 0
}

echo "== build ($BUILD)" >&2
cmake -S "$ROOT" -B "$BUILD" -DSTEPCHECK_BENCH=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$OUT/build.log"
targets="bench_capture bench_steps bench_png"
[ -f "$ROOT/bench/text/bench_text.c" ] && targets="$targets bench_text"
# shellcheck disable=SC2086
cmake --build "$BUILD" -j"$(nproc)" --target $targets >> "$OUT/build.log" 2>&1 ||
  { tail -n 30 "$OUT/build.log" >&2; exit 1; }

if [ ! -f "$PEER/node_modules/playwright-core/package.json" ]; then
  echo "== npm install playwright-core ($PEER)" >&2
  (cd "$PEER" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund > "$OUT/npm.log" 2>&1) ||
    (cd "$PEER" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund >> "$OUT/npm.log" 2>&1)
fi

rm -f "$OUT"/*.txt "$OUT"/*.err
{
  machine_facts "$ROOT" "$PEER"
} > "$OUT/machine.txt"

# Playwright launches Chromium with --enable-features=CDPScreenshotNewSurface
# among its defaults; stepcheck's launcher dropped it in 0.2.0 (a renderer
# crash during a screenshot segfaulted the browser: docs/design.md), so
# small captures may cost stepcheck one frame more than the peer.

# Capture cost, same page: C, peer.
run capture-canvas "$BIN/bench_capture" -n "$RUNS"
run capture-canvas-peer node "$PEER/capture.js" --n "$RUNS" --save_png "$OUT/png"
MAPAPP="$ROOT/fixtures/mapapp/index.html"
if [ -f "$MAPAPP" ]; then
  run capture-mapapp "$BIN/bench_capture" -n "$RUNS" --url "file://$MAPAPP?delay=0" --label mapapp
  run capture-mapapp-peer node "$PEER/capture.js" --n "$RUNS" --url "file://$MAPAPP?delay=0" --label mapapp
fi

# PNG decode alone: a generated map, then the PNGs Chromium sent.
run decode-generated "$BIN/bench_png" 50
for f in "$OUT"/png/canvas-*.png; do
  [ -f "$f" ] && run "decode-$(basename "$f" .png)" "$BIN/bench_png" 50 "$f"
done
[ -x "$BIN/bench_text" ] && run text "$BIN/bench_text"

# Steps on the fixture map app, C then peer, back to back.
if [ -f "$ROOT/fixtures/mapapp/seven-steps.json" ] && [ -f "$MAPAPP" ]; then
  run steps "$BIN/bench_steps" --cycles "$CYCLES" -v
  run steps-peer node "$PEER/steps.js" --cycles "$CYCLES" --verbose 1
else
  echo "   steps: fixtures/mapapp/ not there yet; skipped" >&2
fi

# Summary tables with ratios stepcheck/peer.
node "$PEER/summary.js" "$OUT" > "$OUT/summary.txt"

# Real JOSM (starts its own rig on display 57 and stops it).
if [ "$JOSM" = 1 ]; then
  echo "== josm: bench/josm.sh --cycles $JOSM_CYCLES --out $OUT/josm" >&2
  rc=0
  "$ROOT/bench/josm.sh" --cycles "$JOSM_CYCLES" --out "$OUT/josm" > /dev/null &
  CUR=$!
  wait "$CUR" || rc=$?
  CUR=""
  [ "$rc" -eq 0 ] || echo "   josm.sh exited with $rc; see $OUT/josm/" >&2
  { echo; echo "Real JOSM (bench/josm.sh, $OUT/josm/)"; sed -n '/^Steps on/,$p' "$OUT/josm/summary.txt" 2>/dev/null; } >> "$OUT/summary.txt"
fi

# Many users (stops every process it starts itself, also on TERM).
if [ "$MULTI" = 1 ]; then
  echo "== multi: bench/multi.sh --out $OUT/multi" >&2
  rc=0
  "$ROOT/bench/multi.sh" --out "$OUT/multi" > /dev/null &
  CUR=$!
  wait "$CUR" || rc=$?
  CUR=""
  [ "$rc" -eq 0 ] || echo "   multi.sh exited with $rc; see $OUT/multi/" >&2
  { echo; echo "Many users (bench/multi.sh, $OUT/multi/)"; sed -n '/^Many users/,$p' "$OUT/multi/summary.txt" 2>/dev/null; } >> "$OUT/summary.txt"
fi
cat "$OUT/summary.txt"
