#!/bin/bash
# Tesseract (Debian tesseract-ocr 5.x) on the same real JOSM crops as
# tests/unit/text: label area (186x14+14+18, below the bar, right of the
# "0"), keyed to white (pixels with every channel >= 215 become black ink on
# white, everything else white), padded 10 px, x3 nearest-neighbour, then
# `tesseract --psm 7` with OMP_THREAD_LIMIT=1. Prints exact-match accuracy
# and time per read (one process per read, as a caller would run it), then
# the same for stepcheck when a bench_text binary path is given.
#
# usage: bench/text/tesseract.sh [FIXTURES_DIR] [STEPCHECK_BENCH_BINARY]
# needs: apt-get install -y tesseract-ocr imagemagick
set -euo pipefail
fix=${1:-${SC_FIXTURES:-$(dirname "$0")/../../fixtures}}
bench=${2:-}
convert=/usr/bin/convert
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMP_THREAD_LIMIT=1
n=0 ok=0 total_ms=0
while IFS=$'\t' read -r file text bar note; do
  [[ $file == \#* || -z $file ]] && continue
  n=$((n + 1))
  $convert "$fix/text/josm/$file" -crop 186x14+14+18 +repage \
    -fx '(r>=215/255 && g>=215/255 && b>=215/255) ? 0 : 1' \
    -bordercolor white -border 10 -filter point -resize 300% "$tmp/in.png"
  t0=$(date +%s%N)
  got=$(tesseract "$tmp/in.png" - --psm 7 2>/dev/null | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
  t1=$(date +%s%N)
  total_ms=$((total_ms + (t1 - t0) / 1000))
  if [[ $got == "$text" ]]; then ok=$((ok + 1)); else echo "  tesseract: $file: \"$got\" (want \"$text\")" >&2; fi
done < "$fix/text/josm/labels.tsv"
printf '%-22s %3d/%d exact (%5.1f%%)   %8.3f ms/read\n' "tesseract --psm 7" "$ok" "$n" \
  "$(echo "100*$ok/$n" | bc -l)" "$(echo "$total_ms/$n/1000" | bc -l)"
if [[ -n $bench ]]; then
  "$bench" "$fix" | sed -n 1p | awk '{printf "%-22s %s (%s)\n", "stepcheck scalebar", $0, "see test_scalebar for accuracy"}'
fi
