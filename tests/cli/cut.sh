#!/usr/bin/env bash
# stepcheck cut (real Chromium, the fixture map app): templates cut from
# one settled capture of the data panned by 64,32 are written, checked on
# that capture and printed as locator JSON; the cut building finds its
# building on the unpanned page (inspect locates it where the literal
# scenario has it); a cut of a plain area is reported (exit 1, JSON still
# printed); bad arguments and a missing output folder are refused before
# any browser starts.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-cut-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../util/tally.sh"
url="file://$fx/mapapp/index.html"
cd "$tmp" || exit 1
mkdir out

# Building 94 (its top-left at 609,528 when panned by 64,32) and the eye.
"$cli" cut "$fx/mapapp/locators.json" --url "$url?pan=64,32" --allow-url-scheme file -o out \
  b94=609,528,19,14 eye=1318,87,20,20 >cut.json 2>cut.err
rc=$?
if [ "$rc" -eq 0 ] && [ -s out/b94.png ] && [ -s out/eye.png ] &&
   grep -q "b94: found once at 609,528 (score 1.000" cut.err &&
   python3 -c 'import json,sys; d=json.load(open("cut.json")); assert d["b94"]["template"]=="out/b94.png", d' ; then
  ok
else
  bad "cut: exit $rc"; cat cut.err cut.json
fi

# The cut template finds building 94 where it is on the unpanned page.
mkdir -p scn/templates && cp "$fx"/mapapp/*.glyphs scn/ && cp "$fx"/mapapp/templates/* scn/templates/
cp out/b94.png scn/templates/cut94.png
sed 's|templates/house94.png|templates/cut94.png|' "$fx/mapapp/locators.json" >scn/cut.json
"$cli" inspect scn/cut.json --url "$url" --allow-url-scheme file -o shot.png >inspect.out 2>inspect.err
rc=$?
if [ "$rc" -eq 0 ] && grep -q "located point building_a at 554.5,503 score 1.000" inspect.out; then
  ok
else
  bad "inspect with the cut template: exit $rc"; cat inspect.err; grep located inspect.out
fi

# A plain area fits anywhere: reported, exit 1, the JSON still printed.
"$cli" cut --url "$url" --allow-url-scheme file -o out wall=300,300,10,10 >wall.json 2>wall.err
rc=$?
if [ "$rc" -eq 1 ] && grep -q "wall: .*matches at more than 4096 positions" wall.err &&
   grep -q '"wall": {"template": "out/wall.png"}' wall.json; then
  ok
else
  bad "cut of a plain area: exit $rc"; cat wall.err wall.json
fi

# Refused up front (fast, exit 2).
for args in "--url $url -o nowhere b=1,1,20,20" "--url $url -o out b=1,1,20" "--url $url -o out a/b=1,1,20,20" "--url $url -o out"; do
  start=$(date +%s%N)
  # shellcheck disable=SC2086
  "$cli" cut $args --allow-url-scheme file >/dev/null 2>err.txt
  rc=$?
  ms=$((($(date +%s%N) - start) / 1000000))
  if [ "$rc" -eq 2 ] && [ "$ms" -lt 1000 ]; then ok; else bad "cut $args: exit $rc after $ms ms"; cat err.txt; fi
done

# Issue 39 item 8, refused up front too (exit 2, one line, before any
# browser): a name given twice (it overwrote the first template and printed
# a duplicate key the loader refuses), and a template path that is a FIFO,
# a folder, or a link to a device (refused only after the capture, exit 3).
mkdir -p odd && mkfifo odd/fifo.png && mkdir odd/dir.png && ln -s /dev/null odd/dev.png
for args in "-o out b=1,1,20,20 c=5,5,20,20 b=30,30,20,20" "-o odd fifo=1,1,20,20" \
            "-o odd dir=1,1,20,20" "-o odd dev=1,1,20,20" "-o odd ok=1,1,20,20 dir=1,1,20,20"; do
  start=$(date +%s%N)
  # shellcheck disable=SC2086
  timeout 20 "$cli" cut --url "$url" --allow-url-scheme file $args >out.txt 2>err.txt </dev/null
  rc=$?
  ms=$((($(date +%s%N) - start) / 1000000))
  if [ "$rc" -eq 2 ] && [ "$ms" -lt 1000 ] && [ "$(wc -l <err.txt)" -eq 1 ] && [ ! -s out.txt ]; then ok; else
    bad "cut $args: exit $rc after $ms ms"; cat err.txt; fi
done
[ ! -e odd/ok.png ] && [ -p odd/fifo.png ] && ok || bad "cut wrote before refusing"

tally cut
