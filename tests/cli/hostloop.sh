#!/usr/bin/env bash
# examples/hostloop: 4 users on the map app, their loop run by the host's own
# poll(2) (sc_loop_fds / sc_loop_timeout / sc_loop_step), every step passes;
# and the host's own descriptor works beside stepcheck's: a line on stdin
# cancels every user at once (exit 3, nothing passes after it).
set -uo pipefail
hl=${SC_HOSTLOOP:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-hostloop-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
url="file://$fx/mapapp/index.html"

"$hl" "$fx/mapapp/seven-steps.json" "$url" 4 1 </dev/null >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && ok || { bad "four users: exit $rc"; cat "$tmp/out" "$tmp/err"; }
grep -q "hostloop: 4 users, 32 steps, 0 failed" "$tmp/out" && ok || { bad "four users: summary"; tail -3 "$tmp/out"; }
n=$(grep -c " PASS " "$tmp/out")
[ "$n" -eq 32 ] && ok || bad "four users: $n PASS lines, want 32"
for u in 1 2 3 4; do
  grep -q "^user-$u show-layer cycle 1 PASS" "$tmp/out" && ok || bad "user-$u did not finish"
done

# Cancel from the host's side: a line on stdin once the users started.
( sleep 2; echo stop ) | "$hl" "$fx/mapapp/seven-steps.json" "$url" 2 50 >"$tmp/out2" 2>"$tmp/err2"
rc=$?
[ "$rc" -eq 3 ] && ok || { bad "cancel: exit $rc, want 3"; cat "$tmp/out2" "$tmp/err2"; }
grep -q "canceled: host" "$tmp/err2" "$tmp/out2" && ok || { bad "cancel: no reason"; cat "$tmp/err2"; }

echo "hostloop: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
