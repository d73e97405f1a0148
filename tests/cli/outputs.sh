#!/usr/bin/env bash
# Output paths (docs/security.md, "Output paths"): every report and image
# is written to PATH.tmp and renamed over PATH, so only a regular file or a
# new file in an existing folder may be named. A device (a node made here
# when root, and a link to /dev/null), a FIFO, a directory, a missing
# folder or a --report that is a file are refused up front: exit 2, one
# line naming the option and the path, and no browser started (the browser
# is a stand-in that leaves a mark when it is launched). The real /dev/null
# is only looked at, and must be a character device still at the end.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-outputs-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../util/tally.sh"

printf '#!/bin/sh\ntouch "%s/launched"\nexit 1\n' "$tmp" >"$tmp/fake-chromium"
chmod +x "$tmp/fake-chromium"
export SC_CHROMIUM="$tmp/fake-chromium"
scn="$fx/mapapp/seven-steps.json"
url="file://$fx/mapapp/index.html"

ln -s /dev/null "$tmp/null-link"
mkfifo "$tmp/fifo"
mkdir "$tmp/folder"
echo file >"$tmp/plain"
node=""
if [ "$(id -u)" -eq 0 ] && mknod "$tmp/null-node" c 1 3 2>/dev/null; then node="$tmp/null-node"; fi

# refused NAME OPTION PATH WANT_TEXT -- command...
refused() {
  local name=$1 opt=$2 path=$3 want=$4; shift 5
  rm -f "$tmp/launched"
  local t0=$SECONDS
  timeout 30 "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -ne 2 ]; then bad "$name: exit $rc, want 2"; cat "$tmp/err"; return; fi
  if [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -qF -- "$opt $path" "$tmp/err" || ! grep -qF -- "$want" "$tmp/err"; then
    bad "$name: stderr is not one line naming '$opt $path' and '$want'"; cat "$tmp/err"; return; fi
  if [ -e "$tmp/launched" ]; then bad "$name: a browser was started"; return; fi
  if [ $((SECONDS - t0)) -gt 5 ]; then bad "$name: took $((SECONDS - t0)) s"; return; fi
  ok
}
devs=("$tmp/null-link" "$tmp/fifo" ${node:+"$node"})
for p in "${devs[@]}"; do
  what="character device"; [ "$p" = "$tmp/fifo" ] && what="FIFO"
  refused "capture -o $p" -o "$p" "not replaced: it is a $what" -- "$cli" capture --url "$url" --allow-url-scheme file -o "$p"
  refused "inspect -o $p" -o "$p" "not replaced: it is a $what" -- "$cli" inspect "$scn" --url "$url" --allow-url-scheme file -o "$p"
  for opt in --report-json --junit --jtl; do
    refused "run $opt $p" "$opt" "$p" "not replaced: it is a $what" -- "$cli" run "$scn" --url "$url" --allow-url-scheme file $opt "$p"
  done
  refused "run --users 2 --jtl $p" --jtl "$p" "not replaced" -- "$cli" run "$scn" --url "$url" --allow-url-scheme file --users 2 --jtl "$p"
  refused "glyphs learn -o $p" -o "$p" "not replaced" -- "$cli" glyphs learn --text 1 -o "$p" "$fx/mapapp/guest-pan64-32.png"
done
refused "capture -o a directory" -o "$tmp/folder" "not replaced: it is a directory" -- "$cli" capture --url "$url" --allow-url-scheme file -o "$tmp/folder"
# A folder that does not exist: refused at once, not after the page was opened.
refused "capture -o into a missing folder" -o "$tmp/missing/out.png" "the folder $tmp/missing does not exist" -- \
  "$cli" capture --url "$url" --allow-url-scheme file -o "$tmp/missing/out.png"
refused "inspect -o into a missing folder" -o "$tmp/missing/out.png" "does not exist" -- \
  "$cli" inspect "$scn" --url "$url" --allow-url-scheme file -o "$tmp/missing/out.png"
refused "run --junit into a missing folder" --junit "$tmp/missing/j.xml" "does not exist" -- \
  "$cli" run "$scn" --url "$url" --allow-url-scheme file --junit "$tmp/missing/j.xml"
# --report DIR: a file is not a folder; a report file in it that is a FIFO.
refused "run --report a file" --report "$tmp/plain" "Not a directory" -- \
  "$cli" run "$scn" --url "$url" --allow-url-scheme file --report "$tmp/plain"
mkdir "$tmp/r" && mkfifo "$tmp/r/report.html"
refused "run --report with a FIFO report.html" --report "$tmp/r/report.html" "not replaced: it is a FIFO" -- \
  "$cli" run "$scn" --url "$url" --allow-url-scheme file --report "$tmp/r"

# What was refused is what it was; a regular file and a new file go on to
# the browser (here the stand-in, which fails: exit 3, the mark left).
[ -L "$tmp/null-link" ] && [ -p "$tmp/fifo" ] && [ -d "$tmp/folder" ] && [ -p "$tmp/r/report.html" ] && ok ||
  bad "a refused path changed"
[ -z "$node" ] || { [ -c "$node" ] && ok || bad "the device node changed"; }
for p in "$tmp/plain" "$tmp/new.png"; do
  rm -f "$tmp/launched"
  timeout 30 "$cli" capture --url "$url" --allow-url-scheme file -o "$p" --timeout 2000 >/dev/null 2>"$tmp/err"
  rc=$?
  [ "$rc" -eq 3 ] && [ -e "$tmp/launched" ] && ok || { bad "capture -o $p: exit $rc, launched: $([ -e "$tmp/launched" ] && echo yes || echo no)"; cat "$tmp/err"; }
done
[ -c /dev/null ] && ok || bad "/dev/null is no longer a character device"
tally cli-outputs
