#!/usr/bin/env bash
# Many users from one machine: stepcheck's load run against two playwright-core
# peers, side by side in one run, on the fixture map app.
#
#   bench/multi.sh [--cycles C] [--users "1 4 8 16"] [--search "2 3 6 12"]
#                  [--max-users M] [--timeout S] [--out DIR] [--floor]
#
# For every N of --users, one after the other on the same machine:
#   stepcheck    stepcheck run seven-steps.json --users N --cycles C --warmup 1
#                (it launches its browsers: 8 users per browser, the headless
#                shell when installed);
#   pw-contexts  peer (b): bench/peer/multi.js --mode contexts, one browser,
#                N contexts;
#   pw-browsers  peer (a): bench/peer/multi.js --mode browsers, one browser
#                per user (the reference work's way);
# both peers on the binary stepcheck picks. With --floor, for every N of
# --users also peer (b) with --verify none and --verify one (pw-floor-none,
# pw-floor-one): the same gestures and pacing unverified, with no
# screenshot or one per step: the CPU per step every driver pays. stepcheck alone also runs the
# counts of --search, and past the largest count 24 32 48 64 96 128 while
# the previous count was healthy, up to --max-users: the largest count this
# machine holds with the quality bar.
# Every run goes through bench/treestat.py (PSS of the driver and its
# browser trees each second, CPU over the run, the same way for every tool).
# Defaults: --cycles 3, --max-users 64, --timeout 900 s per run, --out
# out/bench-multi. Raw files in DIR/runs/, the summary (bench/peer/
# multisum.js) on stdout and in DIR/summary.txt. Every process started is
# stopped, also on failure or ^C; temp dirs are removed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CYCLES=3
USERS="1 4 8 16"
SEARCH="2 3 6 12"
MAX_USERS=64
TIMEOUT=900
FLOOR=0
OUT="$ROOT/out/bench-multi"
while [ $# -gt 0 ]; do
  case "$1" in
    --cycles) CYCLES=$2; shift 2 ;;
    --users) USERS=$2; shift 2 ;;
    --search) SEARCH=$2; shift 2 ;;
    --max-users) MAX_USERS=$2; shift 2 ;;
    --timeout) TIMEOUT=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --floor) FLOOR=1; shift ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    *) echo "multi.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$OUT/runs"
OUT=$(cd "$OUT" && pwd)
BUILD="$ROOT/build-bench"
PEER="$ROOT/bench/peer"
SCENARIO="${SC_BENCH_SCENARIO:-$ROOT/fixtures/mapapp/seven-steps.json}" # SC_BENCH_SCENARIO: another scenario for the same app
URL="file://$ROOT/fixtures/mapapp/index.html?delay=0"
# The binary stepcheck's load run launches when given none (lib/run/load.c).
EXE=/usr/bin/chromium-headless-shell
[ -x "$EXE" ] || EXE=/usr/bin/chromium

# The peers' profiles and Chromium's temp files go to a directory of ours.
TMPW=$(mktemp -d "${TMPDIR:-/tmp}/sc-multi-XXXXXX")
export BENCH_PIDFILE="$TMPW/pids"
: > "$BENCH_PIDFILE"
CUR=""

# pid and every descendant of it (by ppid), pid first.
tree_pids() {
  local all
  all=$(ps -e -o pid=,ppid=)
  local want=" $1 " p pp added=1
  while [ "$added" = 1 ]; do
    added=0
    while read -r p pp; do
      case "$want" in *" $pp "*) case "$want" in *" $p "*) ;; *) want="$want$p "; added=1 ;; esac ;; esac
    done <<< "$all"
  done
  echo $want # word-split: one line of pids
}

cleanup() {
  if [ -n "$CUR" ] && kill -0 "$CUR" 2>/dev/null; then
    local pids
    pids=$(tree_pids "$CUR")
    # treestat sends TERM to the tool (which stops its browsers), then KILLs
    # what is left after 10 s; give it 20.
    kill -TERM "$CUR" 2>/dev/null || true
    for _ in $(seq 40); do kill -0 "$CUR" 2>/dev/null || break; sleep 0.5; done
    # shellcheck disable=SC2086
    kill -KILL $pids 2>/dev/null || true
  fi
  stop_noted_browsers
  rm -rf "$TMPW"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== build ($BUILD)" >&2
cmake -S "$ROOT" -B "$BUILD" -DSTEPCHECK_BENCH=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$OUT/build.log" 2>&1
cmake --build "$BUILD" -j"$(nproc)" --target stepcheck_cli >> "$OUT/build.log" 2>&1 ||
  { tail -n 30 "$OUT/build.log" >&2; exit 1; }
SC="$BUILD/stepcheck"
if [ ! -f "$PEER/node_modules/playwright-core/package.json" ]; then
  echo "== npm install playwright-core ($PEER)" >&2
  (cd "$PEER" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund > "$OUT/npm.log" 2>&1) ||
    (cd "$PEER" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund >> "$OUT/npm.log" 2>&1)
fi

rm -f "$OUT"/runs/*
{
  machine_facts "$ROOT" "$PEER"
  echo "browser=\"$EXE $($EXE --version 2>/dev/null | head -1)\" cycles=$CYCLES"
} > "$OUT/machine.txt"

# Busy CPU ticks of the whole machine (user nice system irq softirq steal).
busy_ticks() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9}' /proc/stat; }
load_now() { echo "load=$(cut -d' ' -f1-3 /proc/loadavg) cpu_psi_some_avg60=$(sed -n 's/^some .*avg60=\([0-9.]*\).*/\1/p' /proc/pressure/cpu 2>/dev/null)"; }

# measure TOOL N CMD...: CMD under treestat, at most TIMEOUT s; raw files
# runs/TOOL-nN.{stat.json,out,err}; the load before and after to runs.log;
# the machine's busy CPU over the run to runs/TOOL-nN.host (what other
# programs used = that minus the tool's tree).
measure() {
  local tool=$1 n=$2; shift 2
  local base="$OUT/runs/$tool-n$n" t0=$SECONDS rc=0 b0 w0
  b0=$(busy_ticks)
  w0=$(date +%s.%N)
  echo "== $tool N=$n: $*" >&2
  echo "$tool n=$n start $(date -u +%H:%M:%S) $(load_now)" >> "$OUT/runs.log"
  TMPDIR="$TMPW" python3 "$ROOT/bench/treestat.py" --out "$base.stat.json" -- "$@" > "$base.out" 2> "$base.err" &
  CUR=$!
  while kill -0 "$CUR" 2>/dev/null; do
    if [ $((SECONDS - t0)) -ge "$TIMEOUT" ]; then
      echo "   $tool N=$n: over $TIMEOUT s, stopping it" >&2
      kill -TERM "$CUR" 2>/dev/null || true
      break
    fi
    sleep 1
  done
  wait "$CUR" || rc=$?
  CUR=""
  echo "{\"busy_ticks\": $(( $(busy_ticks) - b0 )), \"clk_tck\": $(getconf CLK_TCK), \"wall_s\": $(awk -v a="$w0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }'), \"cores\": $(nproc)}" > "$base.host.json"
  echo "$tool n=$n end $(date -u +%H:%M:%S) $((SECONDS - t0)) s exit $rc $(load_now)" >> "$OUT/runs.log"
  echo "   exit $rc, $((SECONDS - t0)) s" >&2
  [ "$rc" -le 1 ] || tail -n 5 "$base.err" >&2 || true
  # Profiles the tool should have removed (stepcheck-*, playwright_*).
  if [ -f "$base.stat.json" ]; then
    local d
    for d in $(node -e 'for (const d of require(process.argv[1]).profile_dirs) console.log(d)' "$base.stat.json"); do
      case "$d" in */stepcheck-*|*/playwright_*) ;; *) continue ;; esac
      if [ -e "$d" ]; then
        echo "$tool n=$n left its profile $d behind (removed)" >> "$OUT/runs.log"
        rm -rf "$d"
      fi
    done
  fi
  return 0
}

run_stepcheck() {
  measure stepcheck "$1" "$SC" run "$SCENARIO" --url "$URL" --allow-url-scheme file --users "$1" --cycles "$CYCLES" \
    --warmup 1 --report-json "$OUT/runs/stepcheck-n$1.report.json" -q
}
run_peer() {
  measure "pw-$1" "$2" node "$PEER/multi.js" --users "$2" --mode "$1" --cycles "$CYCLES" \
    --warmup 1 --executable "$EXE" --out "$OUT/runs/pw-$1-n$2.report.json"
}
run_floor() {
  measure "pw-floor-$1" "$2" node "$PEER/multi.js" --users "$2" --mode contexts --verify "$1" \
    --cycles "$CYCLES" --warmup 1 --executable "$EXE" --out "$OUT/runs/pw-floor-$1-n$2.report.json"
}
healthy() {
  node -e 'const r = require(process.argv[1]); process.exit(r.levels && r.levels[0] && r.levels[0].healthy ? 0 : 1)' \
    "$OUT/runs/stepcheck-n$1.report.json" 2>/dev/null
}

# shellcheck disable=SC2086
counts=$(printf '%s\n' $USERS $SEARCH | sort -n | uniq)
last=0
for n in $counts; do
  run_stepcheck "$n"
  case " $USERS " in *" $n "*)
    run_peer contexts "$n"; run_peer browsers "$n"
    if [ "$FLOOR" = 1 ]; then run_floor none "$n"; run_floor one "$n"; fi ;;
  esac
  last=$n
done
# Past the largest count, while stepcheck stays healthy.
prev=$last
for n in 24 32 48 64 96 128; do
  [ "$n" -gt "$last" ] && [ "$n" -le "$MAX_USERS" ] || continue
  healthy "$prev" || break
  run_stepcheck "$n"
  prev=$n
done

node "$PEER/multisum.js" "$OUT" > "$OUT/summary.txt"
{ echo; echo "Runs (UTC, load before/after):"; cat "$OUT/runs.log"; } >> "$OUT/summary.txt"
cat "$OUT/summary.txt"
