#!/usr/bin/env bash
# pss-bench.sh -- server-side memory of the JOSM rig per user, for the table
# in docs/rig.md.
#
#   pss-bench.sh [--transport novnc|xpra] [--users N] [--display N]
#                [--stay S] [--viewport WxH]
#
# Starts `rig.sh start --users N --transport T` (timed), then reads
# `rig.sh pss` three times: with no browser; with one headless Chromium on
# every user's URL (examples/josm/pageshot.py, all at once) after the page
# is up and has stayed S seconds (default 20: xpra and noVNC allocate per
# client); and again once the browsers have gone. Prints the three pss
# outputs (PSS by process name on their stderr lines) and one summary line
# per phase: PSS and private (USS) memory per user. The rig and the browsers are
# stopped, and the temp dir removed, on exit, error and ^C.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
RIG=$HERE/rig.sh
TRANSPORT=novnc
USERS=1
DISPLAY_NUM=86
STAY=20
VIEWPORT=1920x1120
while [ $# -gt 0 ]; do
  case "$1" in
    --transport) TRANSPORT=$2; shift 2 ;;
    --users) USERS=$2; shift 2 ;;
    --display) DISPLAY_NUM=$2; shift 2 ;;
    --stay) STAY=$2; shift 2 ;;
    --viewport) VIEWPORT=$2; shift 2 ;;
    *) echo "pss-bench.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
TMP=$(mktemp -d /tmp/sc-pss-bench-XXXXXX)
browsers=()
cleanup() {
  local p
  for p in ${browsers[@]+"${browsers[@]}"}; do kill -TERM "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  bash "$RIG" stop --state "$TMP/rig" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

summary() { # phase pss-file
  awk -v phase="$1" '
    /^user=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
               n++; s = s sprintf(" %.0f", f["pss_kib"] / 1024) }
    /^total/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); t[kv[1]] = kv[2] }
               printf "%s: PSS total %.0f MiB, %.0f MiB per user (users:%s MiB); private %.0f MiB per user\n",
                 phase, t["pss_kib"] / 1024, t["pss_kib"] / 1024 / n, s, t["uss_kib"] / 1024 / n }' "$2"
}

t0=$(date +%s.%N)
bash "$RIG" start --transport "$TRANSPORT" --users "$USERS" --display "$DISPLAY_NUM" \
  --state "$TMP/rig" > "$TMP/urls" 2> "$TMP/start.log" || { cat "$TMP/start.log" >&2; exit 1; }
t1=$(date +%s.%N)
echo "== rig.sh start --transport $TRANSPORT --users $USERS: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
bash "$RIG" pss --state "$TMP/rig" > "$TMP/pss.idle" 2> "$TMP/pss.idle.err"
cat "$TMP/pss.idle" "$TMP/pss.idle.err"

i=0
while read -r url; do
  i=$((i + 1))
  python3 "$HERE/pageshot.py" "$url" -o "$TMP/page$i.png" --viewport "$VIEWPORT" \
    --wait 30 --ready "$TMP/ready$i" --stay $((STAY + 5)) > "$TMP/page$i.json" 2> "$TMP/page$i.err" &
  browsers+=($!)
done < "$TMP/urls"
# every page up (pageshot: a canvas, its list unchanged for 2 s), then STAY s
deadline=$((SECONDS + 60))
while [ "$(ls "$TMP"/ready* 2>/dev/null | wc -l)" -lt "$i" ]; do
  [ $SECONDS -lt $deadline ] || { echo "pss-bench.sh: pages not up within 60 s" >&2; exit 1; }
  sleep 0.2
done
sleep "$STAY"
bash "$RIG" pss --state "$TMP/rig" > "$TMP/pss.conn" 2> "$TMP/pss.conn.err"
echo "== with a browser on every user, ~${STAY} s after the page came up"
cat "$TMP/pss.conn" "$TMP/pss.conn.err"
for p in "${browsers[@]}"; do wait "$p" || echo "pageshot $p failed: $(cat "$TMP"/page*.err)" >&2; done
browsers=()
for ((j = 1; j <= i; j++)); do
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print("page %s: %d canvas(es): %s" % (sys.argv[2], len(d["canvases"]),
      ", ".join("%dx%d at (%g,%g)" % (c["width"], c["height"], c["x"], c["y"]) for c in d["canvases"])))
' "$TMP/page$j.json" "$j" || true
done
sleep 3
bash "$RIG" pss --state "$TMP/rig" > "$TMP/pss.after" 2> "$TMP/pss.after.err"
echo "== after the browsers left"
cat "$TMP/pss.after" "$TMP/pss.after.err"
echo "== summary ($(date -u +%Y-%m-%d), $TRANSPORT, $USERS user(s))"
summary "no browser" "$TMP/pss.idle"
summary "browser connected" "$TMP/pss.conn"
summary "browser gone" "$TMP/pss.after"
