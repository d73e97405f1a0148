#!/usr/bin/env bash
# Scale-bar profiles from the shell, no browser: read-scale with every
# builtin on a real crop of its application, a profile file (relative
# glyph path), a profile that does not load (exit 2, FILE:LINE:COL), a
# crop its profile refuses (the rule named), scale expectations naming a
# builtin or a .json profile in validate, glyphs learn --variants, and
# scale learn (a profile from a few captures, then every crop read with it).
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
src=${SC_SOURCE_DIR:?}
tmp=$(mktemp -d /tmp/sc-scaleprofile-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
expect() { # name want_rc want_output_substring cmd...
  local name=$1 want=$2 msg=$3; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL $name: exit $rc, want $want"; cat "$tmp/err"; fail=$((fail + 1)); return
  fi
  if [ -n "$msg" ] && ! grep -qF -- "$msg" "$tmp/err" "$tmp/out"; then
    echo "FAIL $name: output lacks '$msg'"; cat "$tmp/out" "$tmp/err"; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}

t=$fx/text
expect josm 0 "text \"500.0 m\"  bar 123 px  4.04858 m/px (+-0.41%)" "$cli" read-scale "$t/josm/m-black-500m.png" --profile josm
expect gpsprune 0 'text "0.5 km"  bar 209 px  2.38663 m/px (+-0.24%)' \
  "$cli" read-scale "$t/gpsprune/ki-z5.png" --profile gpsprune
expect leaflet 0 'text "1 km"  bar 80 px  12.5 m/px' "$cli" read-scale "$t/leaflet/lat48-z13.png" --profile leaflet
expect leaflet-imperial 0 'text "3000 ft"  bar 73 px' \
  "$cli" read-scale "$t/leaflet/lat48-z13.png" --profile leaflet-imperial
expect openlayers 0 'text "5000 ft"  bar 121 px' "$cli" read-scale "$t/openlayers/i-lat48-z13.png" --profile openlayers
expect openlayers-bar 0 'text "1000 m"  bar 80 px' \
  "$cli" read-scale "$t/openlayers-bar/bm-lat48-z13.png" --profile openlayers-bar
# A profile file of one's own, its glyph set named relative to it.
mkdir -p "$tmp/p/sets"
cp "$src/data/glyphs/gpsprune-scalebar.glyphs" "$tmp/p/sets/gp.glyphs"
sed 's/"glyphs": "gpsprune"/"glyphs": "sets\/gp.glyphs"/; s/"name": "gpsprune"/"name": "mine"/' \
  "$src/data/scalebars/gpsprune.json" > "$tmp/p/mine.json"
expect file-profile 0 'text "20 mi"  bar 210 px' "$cli" read-scale "$t/gpsprune/mi-z-1.png" --profile "$tmp/p/mine.json"
# The rule that did not hold, named; the wrong profile never gives a value.
expect cut 2 "the region cuts the bar" "$cli" read-scale "$t/gpsprune/ki-z0.png" --region 0,0,200,26 --profile gpsprune
expect wrong-profile 2 "scalebar:" "$cli" read-scale "$t/gpsprune/ki-z0.png" --profile leaflet
expect no-zero 2 'expects a "0" under the left tick' "$cli" read-scale "$t/gpsprune/ki-z0.png" --profile josm
# A profile that does not load: configuration, exit 2, with its position.
printf '{"stepcheck-scalebar": 1, "name": "x", "glyphs": "josm",\n "bar": {"ticks": "sideways"}}' > "$tmp/bad.json"
expect bad-profile 2 "$tmp/bad.json:2:19: \"ticks\" must be one of" "$cli" read-scale "$t/gpsprune/ki-z0.png" --profile "$tmp/bad.json"
expect unknown-profile 2 'unknown profile "gpsprun" (builtin: gpsprune, josm, leaflet' \
  "$cli" read-scale "$t/gpsprune/ki-z0.png" --profile gpsprun
# Scale expectations name a builtin or a profile file beside the scenario.
sed 's/"profile": "josm"/"profile": "gpsprune"/' "$fx/scenario/valid-small.json" > "$tmp/p/s1.json"
expect validate-builtin 0 "ok" "$cli" validate "$tmp/p/s1.json"
sed 's/"profile": "josm"/"profile": "mine.json"/' "$fx/scenario/valid-small.json" > "$tmp/p/s2.json"
expect validate-file 0 "ok" "$cli" validate "$tmp/p/s2.json"
sed 's/"profile": "josm"/"profile": "bad.json"/' "$fx/scenario/valid-small.json" > "$tmp/p/s3.json"
cp "$tmp/bad.json" "$tmp/p/bad.json"
expect validate-bad-file 2 '"ticks" must be one of' "$cli" validate "$tmp/p/s3.json"
# Anti-aliased glyphs: a differing sample is refused, or kept as a variant.
g=$tmp/lf.glyphs
expect learn-first 0 "3 glyphs" "$cli" glyphs learn --text "5 km" "$t/leaflet/lat48-z11.png" \
  --region 7,19,96,18 --ink 333333 --tol 100 -o "$g"
expect learn-refused 2 "'k' differs in" "$cli" glyphs learn --text "300 km" "$t/leaflet/lat48-z5.png" \
  --region 7,19,89,18 -o "$g"
rm -f "$g"
"$cli" glyphs learn --variants 4 --text "5 km" "$t/leaflet/lat48-z11.png" --region 7,19,96,18 \
  --ink 333333 --tol 100 -o "$g" >/dev/null
expect learn-variant 0 "7 glyphs" "$cli" glyphs learn --text "300 km" "$t/leaflet/lat48-z5.png" \
  --region 7,19,89,18 -o "$g"
expect variants-saved 0 "variants 4" grep -x "variants 4" "$g"

# scale learn: a profile for an app drawn like a known layout, from a few
# captures at known labels; then every crop of that app reads with it.
learned() { # profile dir: how many of dir's crops read
  local ok=0
  for f in "$2"/*.png; do "$cli" read-scale "$f" --profile "$1" >/dev/null 2>&1 && ok=$((ok + 1)); done
  echo "$ok"
}
expect learn-gpsprune 0 '/mine-gp.json: profile "mine", 8 glyphs' "$cli" scale learn --layout gpsprune \
  --name mine -o "$tmp/mine-gp.json" "$t/gpsprune/ki-z0.png=20 km@76.3730086" "$t/gpsprune/ki-z5.png=0.5 km" \
  "$t/gpsprune/mi-z3.png=1 mi"
n=$(learned "$tmp/mine-gp.json" "$t/gpsprune")
if [ "$n" = 28 ]; then pass=$((pass + 1)); else echo "FAIL learn-gpsprune-reads: $n of 28"; fail=$((fail + 1)); fi
expect learn-openlayers 0 "8 glyphs" "$cli" scale learn --layout openlayers -o "$tmp/mine-ol.json" \
  "$t/openlayers/m-lat48-z2.png=2000 km" "$t/openlayers/m-lat48-z16.png=100 m" \
  "$t/openlayers/i-lat48-z6.png=100 mi" "$t/openlayers/i-lat48-z13.png=5000 [ft]"
n=$(learned "$tmp/mine-ol.json" "$t/openlayers")
if [ "$n" = 52 ]; then pass=$((pass + 1)); else echo "FAIL learn-openlayers-reads: $n of 52"; fail=$((fail + 1)); fi
# Learning refuses with the sample and the rule named.
expect learn-wrong-layout 2 "sample 1: scalebar: no bar with end ticks in the region (profile leaflet" \
  "$cli" scale learn --layout leaflet -o "$tmp/x.json" "$t/gpsprune/ki-z0.png=20 km"
expect learn-wrong-label 2 "sample 2: the label where this layout draws it: glyphs: '2'" \
  "$cli" scale learn --layout gpsprune -o "$tmp/x.json" "$t/gpsprune/ki-z0.png=20 km" "$t/gpsprune/ki-z1.png=20 km"
expect learn-wrong-scale 1 "sample 1: 76.4818 m/px, not 70 within" \
  "$cli" scale learn --layout gpsprune -o "$tmp/x.json" "$t/gpsprune/ki-z0.png=20 km@70"
expect learn-usage 2 "IMAGE=LABEL" "$cli" scale learn --layout gpsprune -o "$tmp/x.json" "$t/gpsprune/ki-z0.png"

echo "scaleprofile: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
