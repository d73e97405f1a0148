# Shared by bench/run.sh and bench/josm.sh (sourced).

# Stop every browser whose pid a benchmark program noted in $BENCH_PIDFILE:
# its whole process group, TERM then KILL. Pids that are no longer a
# Chromium (reused) are left alone.
stop_noted_browsers() {
  local p
  [ -r "${BENCH_PIDFILE:-}" ] || return 0
  while read -r p; do
    [ -n "$p" ] && [ -r "/proc/$p/cmdline" ] || continue
    tr '\0' ' ' < "/proc/$p/cmdline" | grep -q chrom || continue
    kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null || true
    sleep 0.5
    kill -KILL -- "-$p" 2>/dev/null || true
  done < "$BENCH_PIDFILE"
}

# The machine and code a benchmark ran on, one fact per line (stdout).
# $1: the root of the repository, $2: bench/peer (for playwright-core's version).
machine_facts() {
  local root=$1 peer=$2 dirty=""
  git -C "$root" diff --quiet HEAD -- lib include 2>/dev/null ||
    dirty=" (+ uncommitted changes in lib/ or include/)"
  echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ) commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo none)$dirty"
  echo "nproc=$(nproc) cpu=\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')\""
  echo "mem=\"$(free -m | awk '/^Mem:/ {print $2 " MiB"}')\" load=\"$(cut -d' ' -f1-3 /proc/loadavg)\""
  echo "chromium=\"$(/usr/bin/chromium --version 2>/dev/null | head -1)\" node=$(node --version)"
  echo "playwright-core=$(node -p "require('$peer/node_modules/playwright-core/package.json').version")"
}
