#!/usr/bin/env bash
# The paint log's blind spots (fixtures/blind/README.md), through the CLI.
# On each page a click changes R in a way a 2D-canvas paint log cannot see
# (webgl, offscreen, iframe: the run falls back to screenshot pairs and
# says why) or sees only as "something changed" (overlay, transform,
# css-anim). Per page, one cycle each, one run at a time:
#   changed.json passes, and its click step says how rest was proven;
#   unchanged.json fails (R did change);
#   spin.json on PAGE?busy=2000 fails: R takes a new colour every 8 ms
#     for 2 s after ready, by the page's own blind way, then stays changed;
#     the click changes nothing, so "R changed" must not be believed;
# and the sabotage: SC_DEBUG=log-trust,no-witness (the log trusted where it
# knows it is blind, no self-check, no compositor witness) lets spin.json
# pass on webgl, offscreen and iframe, by the log: its "before" was taken
# mid-animation. (With log-trust alone the witness fails them: a second
# guard.) (A two-colour ?spin is
# not used: whether two samples differ then depends on the capture cadence,
# README.md "Spin".)
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}/blind
tmp=$(mktemp -d /tmp/sc-blind-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

declare -A why=(
  [webgl]="a WebGL canvas on or over the guest"
  [offscreen]="a canvas drawn by a worker (transferControlToOffscreen) on or over the guest"
  [iframe]="a frame over the guest (its document paints where the log cannot see)"
)

. "$(dirname "$0")/lib/rest_case.sh"

start=$(date +%s)
for p in overlay webgl transform offscreen iframe css-anim; do
  if [ -n "${why[$p]:-}" ]; then
    rest=pairs rwhy=${why[$p]}
  else
    rest=paint-log rwhy=-
  fi
  case_ "$p-changed" changed "$p.html" 0 "$rest" "$rwhy" ""
  case_ "$p-unchanged" unchanged "$p.html" 1 "" "" ""
  case_ "$p-busy" spin "$p.html?busy=2000" 1 "$rest" "$rwhy" "r unchanged"
done
# The sabotage: trusted where it is blind, the log sees no paint, takes its
# "before" mid-animation, and the capture after the timeout shows R changed.
for p in webgl offscreen iframe; do
  case_ "$p-busy-log-trust" spin "$p.html?busy=2000" 0 paint-log - "" SC_DEBUG=log-trust,no-witness
done
rest_case_summary blind "$start"
