#!/usr/bin/env bash
# Malformed numbers in options are usage errors, refused up front (issue 39
# item 9): exit 2, one line on stderr naming the option, before a scenario
# is read or a browser starts. The C library's number readers take leading
# white space, a '+', hex, exponents and "inf"; `--frames " -5"` passed a
# check of its first character and reached the library (exit 3). Each
# option kind (whole numbers, sizes in bytes, seconds, WxH, x,y,w,h,
# RRGGBB) with the values a reader would take and a person would not mean.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-numbers-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../util/tally.sh"
scn="$fx/mapapp/seven-steps.json"

# refused DESCRIPTION CMD...: exit 2 and exactly one line on stderr, which
# names the option (the description's first word), and no browser.
refused() {
  local what=$1 opt=${1%% *}
  shift
  "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local rc=$? lines
  lines=$(wc -l <"$tmp/err")
  if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "$opt: " "$tmp/err" &&
     ! grep -qi "launch\|chromium" "$tmp/err"; then ok; else
    bad "$what: exit $rc, $lines lines: $(head -c 300 "$tmp/err")"; fi
}

for v in " -5" "-5" "+5" "5 " " 5M" "0x10" "1e3" "5MM" "5m" "" "99999999999999999999K"; do
  refused "--frames '$v'" "$cli" run "$scn" --report "$tmp/r" --frames "$v"
done
for v in " 3" "+3" "3 " "0x3" "3.0" "1e1" "" "-1"; do
  refused "--cycles '$v'" "$cli" run "$scn" --cycles "$v"
  refused "--users '$v'" "$cli" run "$scn" --users "$v"
done
for v in " 5" "+5" "5 " "inf" "nan" "0x10" "1e2" "." "-1" "5." ""; do
  refused "--duration '$v'" "$cli" run "$scn" --users 2 --duration "$v"
done
for v in " 800x600" "800x+600" "+800x600" "800x 600" "800x600 " "0x600" "800X600"; do
  refused "--viewport '$v'" "$cli" capture --url "file://$fx/mapapp/index.html" --viewport "$v" -o "$tmp/c.png"
done
for v in " 1,2,3,4" "1,+2,3,4" "1,2,3,4 " "1, 2,3,4" "-1,2,3,4" "1,2,3" "1,2,3,4,5"; do
  refused "--region '$v'" "$cli" capture --url "file://$fx/mapapp/index.html" --region "$v" -o "$tmp/c.png"
done
for v in " fffff" "+fffff" "0xffff" "fffff "; do
  refused "--keep '$v'" "$cli" capture --url "file://$fx/mapapp/index.html" --keep "$v" -o "$tmp/c.png"
done
# the plain forms still pass the parsers (the next check refuses them:
# no --report for --frames, a run with nothing wrong would start a browser)
"$cli" run "$scn" --frames 5M >/dev/null 2>"$tmp/err"
grep -q -- "--frames needs --report" "$tmp/err" && ok || bad "--frames 5M: $(cat "$tmp/err")"
"$cli" run "$scn" --users 2 --duration 1.5 --ramp 3 --every .5 --cycles 0 >/dev/null 2>"$tmp/err"
grep -q -- "--cycles: '0'" "$tmp/err" && ok || bad "--duration 1.5, --every .5: $(cat "$tmp/err")"

tally cli-numbers
