#!/usr/bin/env bash
# The ABI check (docs/api.md, "The ABI policy"): abidiff of a built library
# (or an abidw XML) against the last release's baseline, abi/libstepcheck.abi.
# Exit 0 when nothing changed or only functions were added (listed), 1 on any
# other change abidiff reports (a function or variable removed or changed,
# any public type changed), 2 on a tool error. Stricter than the policy on
# purpose: a field appended to a result struct also fails here, and is
# accepted by writing the new baseline (--baseline) in the same commit,
# which says so. (abidiff's has_data_member_inserted_at/_between
# suppressions, tried for those structs with libabigail 2.2, also hid a
# field that moved: a check that cannot fail is worse than a strict one.)
#   scripts/abi-check.sh BUILD_DIR            the build's libstepcheck.so
#   scripts/abi-check.sh NEW.abi|NEW.so [BASELINE.abi]
#   scripts/abi-check.sh --baseline BUILD_DIR  write the baseline (a release)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
command -v abidiff >/dev/null || { echo "abi-check: abidiff missing (apt-get install abigail-tools)"; exit 2; }
hdrs="$root/include/stepcheck"
lib_of() { # BUILD_DIR -> the shared library its libstepcheck.so names
  [ -e "$1/libstepcheck.so" ] || { echo "abi-check: no libstepcheck.so in $1" >&2; exit 2; }
  readlink -f "$1/libstepcheck.so"
}
if [ "${1:-}" = --baseline ]; then
  lib=$(lib_of "${2:?usage: abi-check.sh --baseline BUILD_DIR}")
  # Paths of this machine are left out: the baseline is compared by types.
  abidw --headers-dir "$hdrs" --drop-private-types --no-corpus-path --short-locs \
    --out-file "$root/abi/libstepcheck.abi" "$lib"
  rm -rf "$root/abi/include" && mkdir -p "$root/abi/include"
  cp -r "$root/include/stepcheck" "$root/include/stepcheck.h" "$root/abi/include/"
  echo "abi-check: baseline written from $lib"
  exit 0
fi
new=${1:?usage: abi-check.sh BUILD_DIR | NEW [BASELINE]}
base=${2:-$root/abi/libstepcheck.abi}
[ -d "$new" ] && new=$(lib_of "$new")
args=()
case "$new" in *.abi) ;; *) args+=(--hd2 "$hdrs" --drop-private-types) ;; esac
set +e
out=$(abidiff "${args[@]}" "$base" "$new" 2>&1)
rc=$?
set -e
# abidiff's exit status is a bit mask: 1 error, 2 usage, 4 ABI change,
# 8 incompatible ABI change.
if (( rc & 3 )); then
  echo "abi-check: abidiff failed ($rc): $out"
  exit 2
fi
# Anything removed or changed is a break; additions alone are not.
broken=$(printf '%s\n' "$out" | grep -E 'changes summary: ' |
         grep -Ev ': 0 Removed(, [0-9]+ Removed \(filtered out\))?, 0 Changed' || true)
if (( rc & 8 )) || [ -n "$broken" ]; then
  echo "abi-check: INCOMPATIBLE with $(basename "$base"):"
  echo "$out"
  exit 1
elif (( rc & 4 )); then
  echo "abi-check: compatible additions since the baseline:"
  echo "$out"
fi
echo "abi-check: ok against $(basename "$base")"
