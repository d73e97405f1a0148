#!/usr/bin/env bash
# The layer rule (docs/design.md, "Layers"): scripts/layers.py finds no
# include that goes up, reaches into another folder's private header, or
# reaches an upper layer through its public header; and it does find each
# of those when one is planted in a copy of lib/.
set -uo pipefail
src=${SC_SOURCE_DIR:?}
tmp=$(mktemp -d /tmp/sc-layers-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # name want_rc want_output cmd...
  local name=$1 want=$2 msg=$3; shift 3
  "$@" >"$tmp/out" 2>&1
  local rc=$?
  if [ "$rc" -ne "$want" ] || { [ -n "$msg" ] && ! grep -qF -- "$msg" "$tmp/out"; }; then
    echo "FAIL $name: exit $rc (want $want), output:"; cat "$tmp/out"; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}
check the-tree 0 "" python3 "$src/scripts/layers.py" "$src"

plant() { # name line-to-add file-under-lib want-output
  rm -rf "$tmp/t" && mkdir -p "$tmp/t" && cp -r "$src/lib" "$src/docs" "$tmp/t/"
  printf '%s\n' "$2" >>"$tmp/t/lib/$3"
  check "$1" 1 "$4" python3 "$src/scripts/layers.py" "$tmp/t"
}
plant upward '#include "run/runner.h"' cdp/loop.c "lib/cdp/loop.c:"
plant private '#include "cdp/cdp_priv.h"' page/open.c "private to lib/cdp"
plant public-upward '#include "stepcheck/run.h"' image/diff.c "includes stepcheck/run.h (layer run, above image)"
rm -rf "$tmp/t" && mkdir -p "$tmp/t/lib/newlayer" && cp -r "$src/lib/." "$tmp/t/lib/" && cp -r "$src/docs" "$tmp/t/"
check unlisted-folder 1 "lib/newlayer: a folder the diagram" python3 "$src/scripts/layers.py" "$tmp/t"

echo "layers: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
