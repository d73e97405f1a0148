#!/usr/bin/env bash
# The main job: the seven JOSM steps, verified on the pixels, on real JOSM
# (Xvfb + x11vnc + websockify + noVNC) in headless Chromium.
#   scripts/demo.sh [--cycles N] [--url URL] [--scenario FILE] [--report DIR]
#                   [--users N] [--transport novnc|xpra] [--display N]
# Without --url it starts the bundled JOSM rig (examples/josm/rig.sh) and
# stops it afterwards; with --url it drives that page instead.
# --users N: N JOSM users, each with its own X display, JOSM and web port
# (through noVNC, or Xpra's HTML5 client with --transport xpra), driven from
# one stepcheck process with the quality bar and per-user reports.
# --display N: the rig's first X display (user I on N+I-1, web port 6000 +
# its display; rig.sh's default, 7, without it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cycles=3 url="" scenario="examples/josm/josm.json" report="out/report" users=1 transport=novnc
display=()
while [ $# -gt 0 ]; do
  case "$1" in
    --cycles) cycles=$2; shift 2 ;;
    --url) url=$2; shift 2 ;;
    --scenario) scenario=$2; shift 2 ;;
    --report) report=$2; shift 2 ;;
    --users) users=$2; shift 2 ;;
    --transport) transport=$2; shift 2 ;;
    --display) display=(--display "$2"); shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "demo: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[[ "$users" =~ ^[1-9][0-9]*$ ]] || { echo "demo: --users must be a whole number >= 1 (got '$users')" >&2; exit 2; }
case "$transport" in novnc|xpra) ;; *) echo "demo: --transport must be novnc or xpra (got '$transport')" >&2; exit 2 ;; esac
[ -z "$url" ] || [ "$users" -eq 1 ] || { echo "demo: --users starts its own rig; it does not go with --url" >&2; exit 2; }

bash scripts/deps.sh
cmake -S . -B build -DSTEPCHECK_TESTS=OFF -DSTEPCHECK_BENCH=OFF >/dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)" --target stepcheck_cli >/dev/null

state=""
# The rig's stop returns once everything it started is gone and its ports
# and displays are free (so a next run can start at once); if it cannot say
# so, that is an infrastructure fault: its lines on stderr, exit 3 unless the
# run already failed.
cleanup() {
  local rc=$? out
  trap - EXIT
  if [ -n "$state" ] && ! out=$(bash examples/josm/rig.sh stop --state "$state" 2>&1); then
    printf '%s\n' "$out" | grep -E 'error|KILL' | sed 's/^/demo: /' >&2
    echo "demo: the rig did not stop cleanly; its state is kept at $state" >&2
    [ "$rc" != 0 ] || rc=3
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
urls=()
if [ -z "$url" ]; then
  state=$(mktemp -d /tmp/sc-rig-XXXXXX)
  rmdir "$state"
  echo "demo: starting the JOSM rig ($users user(s), $transport)..." >&2
  mapfile -t urls < <(bash examples/josm/rig.sh start --state "$state" --users "$users" \
                        --transport "$transport" "${display[@]}")
  [ "${#urls[@]}" -eq "$users" ] || { echo "demo: the rig did not start" >&2; exit 3; }
  echo "demo: rig ready at ${urls[*]}" >&2
else
  urls=("$url")
fi
mkdir -p "$report"
args=()
for u in "${urls[@]}"; do args+=(--url "$u"); done
# one user: the plain run; several: one server per user from one process,
# each after a one-user warm-up on the first (the quality bar)
[ "$users" -gt 1 ] && args+=(--users "$users" --report-json "$report/report.json")
set +e
./build/stepcheck run "$scenario" "${args[@]}" --cycles "$cycles" --report "$report" \
  --junit "$report/junit.xml" --jtl "$report/results.jtl"
rc=$?
set -e
echo "demo: reports in $report (report.json, junit.xml, results.jtl, failure images)" >&2
exit $rc
