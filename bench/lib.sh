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
