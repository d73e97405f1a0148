#!/usr/bin/env bash
# stepcheck cut warns when a template is found once but its runner-up is
# less than twice the required margin behind (issue 36: "found once" for a
# runner-up 0.022 behind a 0.02 margin). On the fixture map app: a 19x15
# cut of building A whose runner-up (building B's corner) is 0.021 behind
# gets one warning line; a 12x12 cut 0.042 ahead of its runner-up, and the
# eye (no runner-up), get none. Both are still found (exit 0, JSON printed).
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-cutmargin-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../util/tally.sh"

"$cli" cut --url "file://$fx/mapapp/index.html" --allow-url-scheme file -o "$tmp" \
  close=541,495,19,15 clear=545,497,12,12 eye=1318,87,20,20 >"$tmp/cut.json" 2>"$tmp/cut.err"
rc=$?
[ $rc = 0 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert set(d) == {"close", "clear", "eye"}' "$tmp/cut.json" &&
  ok || bad "cut: exit $rc, want 0 and three locators: $(cat "$tmp/cut.err")"
grep -q '^close: found once at 541,495 (score 1.000; next best 0.979' "$tmp/cut.err" && ok ||
  bad "close: not found once with its runner-up: $(cat "$tmp/cut.err")"
[ "$(grep -c 'warning' "$tmp/cut.err")" = 1 ] &&
  grep -qF 'close: warning: the next best place is only 0.021 behind (the margin is 0.020; want 0.040 or more to be safe): cut a larger, more distinctive part' "$tmp/cut.err" &&
  ok || bad "want one warning, for close only: $(cat "$tmp/cut.err")"
grep -q '^clear: found once at 545,497 (score 1.000; next best 0.958' "$tmp/cut.err" && ok ||
  bad "clear: $(cat "$tmp/cut.err")"
tally cutmargin
