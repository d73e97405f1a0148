#!/usr/bin/env bash
# Fuzz the parsers with libFuzzer (docs/fuzzing.md).
#   scripts/fuzz.sh [SECONDS] [TARGET...]    SECONDS 0: only minimise the corpora
# Builds the clang fuzz build in build-fuzz (STEPCHECK_FUZZ=ON, ASan+UBSan),
# then fuzzes each target (default: all) for SECONDS (default 600), one at a
# time on one core. New inputs go to build-fuzz/corpus/<target>/; then
# tests/fuzz/corpus/<target>/ is replaced by the minimal set of both that
# reaches every edge (regress-* and keep-* inputs are always kept).
# A finding stops that target: its reproducer is in build-fuzz/artifacts/
# and the script exits 1 after the other targets ran. libFuzzer's output
# is in build-fuzz/logs/<target>.log.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
secs=${1:-600}
shift || true
all=(cdp cdp_rx png scenario glyphset text report locators args)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
# clang and its libFuzzer runtime (only a Recommends of clang, so named):
# not in the default deps, test.sh does not need them.
SC_DEPS_EXTRA="clang libclang-rt-14-dev" bash scripts/deps.sh

b=build-fuzz
# clang does not know gcc's -Wno-format-truncation: no -Werror here.
CC=clang cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTEPCHECK_FUZZ=ON \
  -DSTEPCHECK_SANITIZE=ON -DSTEPCHECK_BENCH=OFF -DSTEPCHECK_EXAMPLES=OFF \
  -DSTEPCHECK_WERROR=OFF -DCMAKE_C_FLAGS=-Wno-unknown-warning-option >/dev/null
cmake --build "$b" -j"$(nproc 2>/dev/null || echo 2)" \
  --target "${targets[@]/#/fuzz_}" >/dev/null

# Longest input per target: room for a screenshot reply past the CDP fast
# path's 4 KiB threshold, and a 256 x 256 one-bit image.
max_len() { case $1 in cdp|cdp_rx|png) echo 16384 ;; *) echo 8192 ;; esac; }

# Fuzz target $1 for $secs; 1 on a finding.
fuzz_one() {
  local t=$1 dict=()
  [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
  echo "== fuzz_$t for ${secs}s"
  # One process on one core (no -jobs: it forks and logs to ./fuzz-N.log).
  if ! ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
      nice -n 5 "$b/tests/fuzz/fuzz_$t" "$b/corpus/$t" "tests/fuzz/corpus/$t" "${dict[@]}" \
      -max_total_time="$secs" -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=1024 \
      -print_final_stats=1 -artifact_prefix="$b/artifacts/$t-" >"$b/logs/$t.log" 2>&1; then
    echo "fuzz_$t: FINDING, see $b/logs/$t.log and $b/artifacts/"
    grep -E "ERROR|SUMMARY|invariant|Test unit written" "$b/logs/$t.log" | head -5
    return 1
  fi
  grep -E "DONE|stat::number_of_executed_units|stat::average_exec_per_sec" \
    "$b/logs/$t.log" | head -3 | tr -s ' \n' ' '
  echo
}

# The repository keeps a minimal corpus: the smallest inputs that reach
# every edge (-use_counters=0: hit counts do not count), plus, always, the
# reproducers of past findings (regress-*) and inputs an invariant needs
# (keep-*: valid screenshot replies for the CDP fast-path check, valid
# PNGs just past the tight limits). The fuller corpus stays in
# build-fuzz/corpus for the next run.
minimise() {
  local t=$1 min="$b/corpus-min/$1" dir="tests/fuzz/corpus/$1"
  rm -rf "$min"
  mkdir -p "$min"
  "$b/tests/fuzz/fuzz_$t" -merge=1 -use_counters=0 -max_len="$(max_len "$t")" -timeout=10 \
    "$min" "$dir" "$b/corpus/$t" >>"$b/logs/$t.log" 2>&1
  find "$dir" -type f ! -name 'regress-*' ! -name 'keep-*' -delete
  cp "$min"/* "$dir/"
  for r in "$dir"/regress-* "$dir"/keep-*; do
    [ -e "$r" ] && rm -f "$dir/$(sha1sum "$r" | cut -d' ' -f1)"
  done
  echo "fuzz_$t: corpus $(ls "$dir" | wc -l) inputs, $(du -sb "$dir" | cut -f1) bytes"
}

mkdir -p "$b/artifacts" "$b/logs"
rc=0
for t in "${targets[@]}"; do
  mkdir -p "$b/corpus/$t"
  if [ "$secs" -gt 0 ] && ! fuzz_one "$t"; then
    rc=1
    continue
  fi
  minimise "$t"
done
exit "$rc"
