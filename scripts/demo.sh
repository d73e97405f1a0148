#!/usr/bin/env bash
# The main job: the seven JOSM steps, verified on the pixels, on real JOSM
# (Xvfb + x11vnc + websockify + noVNC) in headless Chromium.
#   scripts/demo.sh [--cycles N] [--url URL] [--scenario FILE] [--report DIR]
# Without --url it starts the bundled JOSM rig (examples/josm/rig.sh) and
# stops it afterwards; with --url it drives that page instead.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cycles=3 url="" scenario="examples/josm/josm.json" report="out/report"
while [ $# -gt 0 ]; do
  case "$1" in
    --cycles) cycles=$2; shift 2 ;;
    --url) url=$2; shift 2 ;;
    --scenario) scenario=$2; shift 2 ;;
    --report) report=$2; shift 2 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) echo "demo: unknown option '$1'" >&2; exit 2 ;;
  esac
done

bash scripts/deps.sh
cmake -S . -B build -DSTEPCHECK_TESTS=OFF -DSTEPCHECK_BENCH=OFF >/dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)" --target stepcheck_cli >/dev/null

state=""
cleanup() { [ -n "$state" ] && bash examples/josm/rig.sh stop --state "$state" >/dev/null 2>&1 || true; }
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ -z "$url" ]; then
  state=$(mktemp -d /tmp/sc-rig-XXXXXX)
  rmdir "$state"
  echo "demo: starting the JOSM rig (Xvfb, JOSM, x11vnc, websockify/noVNC)..." >&2
  url=$(bash examples/josm/rig.sh start --state "$state")
  echo "demo: rig ready at $url" >&2
fi
mkdir -p "$report"
set +e
./build/stepcheck run "$scenario" --url "$url" --cycles "$cycles" --report "$report" \
  --junit "$report/junit.xml" --jtl "$report/results.jtl"
rc=$?
set -e
echo "demo: reports in $report (report.json, junit.xml, results.jtl, failure images)" >&2
exit $rc
