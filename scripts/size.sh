#!/usr/bin/env bash
# size.sh -- how many JOSM users still work within a server memory budget
# (sizing as the reference did it, in miniature).
#
#   scripts/size.sh [--transport novnc|xpra] [--budget SIZE] [--max-users N]
#                   [--cycles C] [--display BASE] [--size WxH] [--out DIR]
#                   [--scenario FILE] [--cli PATH]
#
# Puts the server side -- every user's rig: Xvfb, JOSM's java, x11vnc and
# websockify (novnc) or xpra -- in a memory cgroup with a hard limit of
# --budget and no swap. Then adds users one by one: user K gets its own rig
# (examples/josm/rig.sh; display BASE+K-1, web port 16000 + display, VNC
# port 15000 + display) started inside the group, and ONE stepcheck process
# drives all K users (--url per user, the newest first so that the one-cycle
# warm-up is its JOSM's first use; --cycles C, --warmup 1). Each level
# records: all users passed every step (yes/no), steps verified/failed, the
# group's memory (sampled every second, its peak, the kernel's peak),
# failcnt and OOM kills, the rigs' PSS, and the generator's own peak PSS and
# CPU from stepcheck's report. It stops at the first level where some user
# failed a step, where a rig could not start (e.g. JOSM killed by the
# group's OOM killer), or at --max-users.
#
# Prints a table (one row per level) and the line
#   last count where every user passed every step: K (server peak M MiB of
#   budget B MiB; generator peak PSS G MiB)
# and writes to --out: table.txt (the same), levels.tsv, memory.tsv (every
# sample: level, seconds, usage MiB, processes in the group), level-K.json
# and level-K.log (stepcheck's report and output), rig-uK.log (rig starts).
#
# Defaults: novnc, budget 3G, max users 8, 1 cycle, display 120, 1600x900,
# out/size under the source tree, examples/josm/josm.json, the CLI from
# $SC_CLI, else stepcheck on PATH. SIZE: bytes, or a number with K, M or G
# (binary units): 200M, 2560M, 2.5G.
# The group: cgroup v2 (memory.max, memory.swap.max 0) when
# /sys/fs/cgroup/cgroup.controllers exists, else cgroup v1
# (/sys/fs/cgroup/memory: memory.limit_in_bytes and, when present,
# memory.memsw.limit_in_bytes); needs root. SC_SIZE_CGROUP_ROOT replaces
# /sys/fs/cgroup. Every rig is stopped (rig.sh stop), and the group removed,
# on success, failure, INT and TERM.
# Exit: 0 measured (the last line gives the count), 2 bad arguments or no
# writable memory cgroup, 3 stopped by something other than a failed step or
# the budget (a rig that failed with no memory pressure, stepcheck exit 2/3
# with none, a group that would not empty).
set -u

ME=size.sh
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RIG=$ROOT/examples/josm/rig.sh
CG_ROOT=${SC_SIZE_CGROUP_ROOT:-/sys/fs/cgroup}
MAX_USERS_LIMIT=32   # rig.sh's own limit on users
SAMPLE_S=1           # the group's usage is read this often
EMPTY_WAIT_S=20      # how long the group may take to empty after the stops
RIG_WAIT_S=300       # a rig start still running after this is stopped (rig.sh
                     # gives JOSM 180 s to draw the map, after Xvfb and x11vnc)
STOP_WAIT_S=60       # a process of ours gets this long after TERM, then KILL
# User K's ports: web WEB_PORT_BASE + display, VNC VNC_PORT_BASE + display.
# Not rig.sh's default 6000 + display: that is the display's own X TCP port,
# which Xlib tries when the display's socket is dead (Xvfb OOM-killed), so a
# client such as rig.sh's `import` would talk X to websockify and hang.
WEB_PORT_BASE=16000
VNC_PORT_BASE=15000

say() { printf '%s: %s\n' "$ME" "$*" >&2; }
bad_arg() { say "error: $*"; exit 2; }
usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
  exit 2
}

# ---------------------------------------------------------------- arguments
TRANSPORT=novnc
BUDGET=3G
MAX_USERS=8
CYCLES=1
BASE=120
SIZE=1600x900
OUT=$ROOT/out/size
SCENARIO=$ROOT/examples/josm/josm.json
CLI=${SC_CLI:-}
need() { [ $# -ge 2 ] || bad_arg "$1 needs a value"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --transport|--budget|--max-users|--cycles|--display|--size|--out|--scenario|--cli)
      need "$@"
      case "$1" in
        --transport) TRANSPORT=$2 ;; --budget) BUDGET=$2 ;; --max-users) MAX_USERS=$2 ;;
        --cycles) CYCLES=$2 ;; --display) BASE=$2 ;; --size) SIZE=$2 ;; --out) OUT=$2 ;;
        --scenario) SCENARIO=$2 ;; --cli) CLI=$2 ;;
      esac
      shift 2 ;;
    --transport=*) TRANSPORT=${1#*=}; shift ;;
    --budget=*) BUDGET=${1#*=}; shift ;;
    --max-users=*) MAX_USERS=${1#*=}; shift ;;
    --cycles=*) CYCLES=${1#*=}; shift ;;
    --display=*) BASE=${1#*=}; shift ;;
    --size=*) SIZE=${1#*=}; shift ;;
    --out=*) OUT=${1#*=}; shift ;;
    --scenario=*) SCENARIO=${1#*=}; shift ;;
    --cli=*) CLI=${1#*=}; shift ;;
    -h|--help) usage ;;
    *) bad_arg "unknown option '$1' (see --help)" ;;
  esac
done

case "$TRANSPORT" in novnc|xpra) ;; *) bad_arg "--transport must be novnc or xpra (got '$TRANSPORT')" ;; esac
BUDGET_BYTES=$(awk -v s="$BUDGET" 'BEGIN {
  if (s !~ /^[0-9]+(\.[0-9]+)?[KkMmGg]?$/) exit 1
  m = 1; u = substr(s, length(s))
  if (u ~ /[Kk]/) m = 1024; else if (u ~ /[Mm]/) m = 1048576; else if (u ~ /[Gg]/) m = 1073741824
  if (m > 1) s = substr(s, 1, length(s) - 1)
  printf "%.0f", int(s * m / 4096) * 4096 }') ||
  bad_arg "--budget must be bytes or a number with K, M or G, e.g. 3G or 2560M (got '$BUDGET')"
[ "$BUDGET_BYTES" -ge $((64 << 20)) ] || bad_arg "--budget must be at least 64M (got '$BUDGET')"
[ "$BUDGET_BYTES" -le $((1 << 50)) ] || bad_arg "--budget is larger than any machine (got '$BUDGET')"
BUDGET_MIB=$((BUDGET_BYTES >> 20))
[[ "$MAX_USERS" =~ ^[0-9]{1,3}$ ]] && [ "$MAX_USERS" -ge 1 ] && [ "$MAX_USERS" -le $MAX_USERS_LIMIT ] ||
  bad_arg "--max-users must be 1..$MAX_USERS_LIMIT (got '$MAX_USERS')"
[[ "$CYCLES" =~ ^[0-9]{1,4}$ ]] && [ "$CYCLES" -ge 1 ] || bad_arg "--cycles must be a whole number >= 1 (got '$CYCLES')"
BASE=${BASE#:}
[[ "$BASE" =~ ^[0-9]{1,4}$ ]] && [ $((10#$BASE + MAX_USERS - 1)) -le 9999 ] ||
  bad_arg "--display must be a display number with room for --max-users after it (got '$BASE')"
BASE=$((10#$BASE))
[[ "$SIZE" =~ ^([0-9]{3,5})x([0-9]{3,5})$ ]] && [ "${BASH_REMATCH[1]}" -ge 800 ] && [ "${BASH_REMATCH[2]}" -ge 600 ] ||
  bad_arg "--size must be WIDTHxHEIGHT, at least 800x600 (got '$SIZE')"
[ -n "$OUT" ] || bad_arg "--out must name a directory"
[ -f "$SCENARIO" ] && [ -r "$SCENARIO" ] || bad_arg "--scenario $SCENARIO: not a readable file"
if [ -z "$CLI" ]; then
  CLI=$(command -v stepcheck 2>/dev/null) || bad_arg "--cli: no stepcheck binary (set SC_CLI or pass --cli PATH)"
fi
[ -x "$CLI" ] && [ -f "$CLI" ] || bad_arg "--cli $CLI: not an executable file"
command -v python3 >/dev/null 2>&1 || bad_arg "python3 not found (the sampler and the report reader need it)"
[ -f "$RIG" ] || bad_arg "rig.sh not found at $RIG"

# ---------------------------------------------------------------- the group
# CG: the group's directory; CG_VER 1 or 2. Names of its counters differ.
CG=
CG_VER=
CG_NAME=stepcheck-size.$$.$(date +%s)
no_cgroup() { say "error: no writable memory cgroup: $*"; exit 2; }
cg_create() {
  if [ -f "$CG_ROOT/cgroup.controllers" ]; then
    grep -qw memory "$CG_ROOT/cgroup.controllers" ||
      no_cgroup "cgroup v2 at $CG_ROOT has no memory controller"
    if ! grep -qw memory "$CG_ROOT/cgroup.subtree_control" 2>/dev/null; then
      echo +memory > "$CG_ROOT/cgroup.subtree_control" 2>/dev/null ||
        no_cgroup "cannot enable the memory controller in $CG_ROOT/cgroup.subtree_control (needs root)"
    fi
    mkdir "$CG_ROOT/$CG_NAME" 2>/dev/null || no_cgroup "cannot create $CG_ROOT/$CG_NAME (needs root)"
    CG=$CG_ROOT/$CG_NAME
    CG_VER=2
    echo "$BUDGET_BYTES" > "$CG/memory.max" 2>/dev/null || no_cgroup "cannot write $CG/memory.max"
    if [ -f "$CG/memory.swap.max" ]; then
      echo 0 > "$CG/memory.swap.max" 2>/dev/null || no_cgroup "cannot write $CG/memory.swap.max"
    fi
  elif [ -d "$CG_ROOT/memory" ] && [ -f "$CG_ROOT/memory/memory.limit_in_bytes" ]; then
    mkdir "$CG_ROOT/memory/$CG_NAME" 2>/dev/null ||
      no_cgroup "cannot create $CG_ROOT/memory/$CG_NAME (cgroup v1; needs root)"
    CG=$CG_ROOT/memory/$CG_NAME
    CG_VER=1
    echo "$BUDGET_BYTES" > "$CG/memory.limit_in_bytes" 2>/dev/null ||
      no_cgroup "cannot write $CG/memory.limit_in_bytes"
    # memory + swap no higher than memory: no swap for the group
    if [ -f "$CG/memory.memsw.limit_in_bytes" ]; then
      echo "$BUDGET_BYTES" > "$CG/memory.memsw.limit_in_bytes" 2>/dev/null ||
        no_cgroup "cannot write $CG/memory.memsw.limit_in_bytes"
    fi
  else
    no_cgroup "neither cgroup v2 ($CG_ROOT/cgroup.controllers) nor v1's memory controller ($CG_ROOT/memory)"
  fi
}
cg_usage_file() { if [ "$CG_VER" = 2 ]; then echo "$CG/memory.current"; else echo "$CG/memory.usage_in_bytes"; fi; }
cg_event() { # v2 memory.events key
  awk -v k="$1" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }' "$CG/memory.events" 2>/dev/null || echo 0
}
# times a charge hit the limit. v1 charges memory+swap first when it is
# limited, and with both limits equal that counter is the one that fails;
# kernel 6.18 here counts neither then (0 even at an OOM kill), so
# at_limit below also looks at the peak.
cg_failcnt() {
  if [ "$CG_VER" = 2 ]; then cg_event max; return; fi
  cat "$CG/memory.failcnt" "$CG/memory.memsw.failcnt" 2>/dev/null | awk '{ n += $1 } END { print n + 0 }'
}
cg_oom_kills() {
  if [ "$CG_VER" = 2 ]; then cg_event oom_kill
  else awk '$1 == "oom_kill" { print $2; f = 1 } END { if (!f) print 0 }' "$CG/memory.oom_control" 2>/dev/null || echo 0
  fi
}
# the kernel's peak: per level on v1 (reset at the level's start), since the
# group was made on v2 (memory.peak, when the kernel has it)
cg_peak_reset() { [ "$CG_VER" = 1 ] && echo 0 > "$CG/memory.max_usage_in_bytes" 2>/dev/null; true; }
cg_peak_mib() {
  local f=$CG/memory.max_usage_in_bytes
  [ "$CG_VER" = 2 ] && f=$CG/memory.peak
  if [ -r "$f" ]; then awk '{ printf "%.1f", $1 / 1048576 }' "$f"; else echo -; fi
}
cg_procs() { cat "$CG/cgroup.procs" 2>/dev/null; }
# the group reached its limit during the level: the failcnt moved, or its
# peak came within 1 MiB of the budget (v1: the kernel's per-level peak; v2,
# whose memory.peak spans every level: the sampled one)
at_limit() { # kernel-peak-MiB|- sampled-peak-MiB failcnt-delta
  [ "$3" -gt 0 ] && return 0
  awk -v k="$1" -v s="$2" -v b="$BUDGET_MIB" -v v="$CG_VER" \
    'BEGIN { m = (k == "-" || v == 2 ? s : k); exit !(m + 1 >= b) }'
}

# The group must end empty (everything in it is ours: started through the
# rigs) and removed. Returns 1 if it could not be.
cg_remove() {
  [ -n "$CG" ] && [ -d "$CG" ] || return 0
  local deadline=$((SECONDS + EMPTY_WAIT_S)) left p
  while [ -n "$(cg_procs)" ] && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
  left=$(cg_procs | tr '\n' ' ')
  if [ -n "$left" ]; then
    # only processes our rig starts made can be in it: stop them by pid
    say "processes still in the group after the rigs stopped: $left; sending TERM"
    for p in $left; do kill -TERM "$p" 2>/dev/null; done
    deadline=$((SECONDS + 5))
    while [ -n "$(cg_procs)" ] && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
    for p in $(cg_procs); do kill -KILL "$p" 2>/dev/null; done
    sleep 0.5
  fi
  deadline=$((SECONDS + 5))
  until rmdir "$CG" 2>/dev/null; do
    if [ $SECONDS -ge $deadline ]; then
      say "error: cannot remove the cgroup $CG (processes: $(cg_procs | tr '\n' ' '))"
      return 1
    fi
    sleep 0.2
  done
  CG=
}

# "task (pid N)" for each OOM kill in the group the kernel log has and we
# have not named yet; empty when the log is unreadable
OOM_SEEN=0
oom_names() {
  local lines
  lines=$(dmesg 2>/dev/null | grep -F "oom-kill:" | grep -F "oom_memcg=" | grep -F "/$CG_NAME,") || true
  [ -n "$lines" ] || return 0
  awk -v seen="$OOM_SEEN" 'NR > seen {
      t = $0; sub(/.*,task=/, "", t); sub(/,.*/, "", t)
      p = $0; sub(/.*,pid=/, "", p); sub(/,.*/, "", p)
      printf "%s%s (pid %s)", (n++ ? ", " : ""), t, p }' <<< "$lines"
  OOM_SEEN=$(wc -l <<< "$lines")
}

# ---------------------------------------------------------------- processes
WORK=
STATES=()      # one rig state dir per started user
STARTER=       # a rig.sh start in progress
RUNNER=        # a stepcheck run in progress
SAMPLER=       # the group's sampler for the current level
alive() { # pid: exists and is not a zombie
  [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null &&
    [ "$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null)" != Z ]
}
stop_pid() { # pid of our child: TERM, up to STOP_WAIT_S for it, then KILL
  [ -n "${1:-}" ] || return 0
  if alive "$1"; then
    kill -TERM "$1" 2>/dev/null
    local deadline=$((SECONDS + STOP_WAIT_S))
    while alive "$1" && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
    if alive "$1"; then
      say "pid $1 did not stop within $STOP_WAIT_S s of TERM; sending KILL"
      kill -KILL "$1" 2>/dev/null
    fi
  fi
  wait "$1" 2>/dev/null
}
# wait for our child, at most $2 seconds (then stop it): its exit code, 124
# when it ran out of time. Polls, so INT/TERM are acted on within 0.5 s.
wait_child() { # pid seconds
  local deadline=$((SECONDS + $2)) rc=0
  while alive "$1"; do
    if [ $SECONDS -ge $deadline ]; then stop_pid "$1"; return 124; fi
    sleep 0.5
  done
  wait "$1" || rc=$?
  return $rc
}
cleanup() {
  local rc=$? st
  trap - EXIT INT TERM HUP
  stop_pid "$SAMPLER"
  stop_pid "$RUNNER"     # stepcheck writes its reports (VOID) and stops its browsers
  stop_pid "$STARTER"    # rig.sh start stops what it started
  for st in ${STATES[@]+"${STATES[@]}"}; do
    bash "$RIG" stop --state "$st" >/dev/null 2>&1 &
  done
  wait
  cg_remove || { [ "$rc" != 0 ] || rc=3; }
  [ -z "$WORK" ] || rm -rf -- "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'say "interrupted; stopping every rig"; exit 130' INT
trap 'say "terminated; stopping every rig"; exit 143' TERM HUP

WORK=$(mktemp -d /tmp/sc-size-XXXXXX)
cg_create
mkdir -p -- "$OUT" || bad_arg "--out $OUT: cannot create it"
OUT=$(cd "$OUT" && pwd)
rm -f -- "$OUT"/table.txt "$OUT"/levels.tsv "$OUT"/memory.tsv "$OUT"/level-*.json \
  "$OUT"/level-*.log "$OUT"/rig-u*.log
say "cgroup v$CG_VER $CG: limit $BUDGET_MIB MiB, no swap; users on displays :$BASE.. ($TRANSPORT, $SIZE); rig states in $WORK"

# The group's usage every SAMPLE_S seconds until TERM: level, seconds since
# the sizing started, MiB, processes in the group.
T0=$(date +%s.%N)
sampler_start() { # level
  python3 - "$(cg_usage_file)" "$CG/cgroup.procs" "$OUT/memory.tsv" "$1" "$T0" "$SAMPLE_S" <<'PY' &
import signal, sys, time
usage, procs, out, level, t0, every = sys.argv[1:]
signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
with open(out, "a") as f:
    while True:
        try:
            with open(usage) as u:
                b = int(u.read())
            with open(procs) as p:
                n = len(p.read().split())
        except (OSError, ValueError):
            break
        f.write("%s\t%.1f\t%.1f\t%d\n" % (level, time.time() - float(t0), b / 1048576, n))
        f.flush()
        time.sleep(float(every))
PY
  SAMPLER=$!
}
sampled_peak() { # level -> MiB
  awk -F'\t' -v l="$1" '$1 == l && $3 > m { m = $3 } END { printf "%.1f", m }' "$OUT/memory.tsv" 2>/dev/null
}

# The rigs' summed PSS (rig.sh pss), MiB
rigs_pss() {
  local st kib total=0
  for st in "${STATES[@]}"; do
    kib=$(bash "$RIG" pss --state "$st" 2>/dev/null | sed -n 's/^total pss_kib=\([0-9]*\).*/\1/p')
    total=$((total + ${kib:-0}))
  done
  awk -v k="$total" 'BEGIN { printf "%.1f", k / 1024 }'
}

# which rigs lost a process: "user 2: java DEAD, ..."
rigs_dead() {
  local k=0 st out=
  for st in "${STATES[@]}"; do
    k=$((k + 1))
    [ -d "$st" ] || continue   # a rig that failed to start removed its state
    bash "$RIG" status --state "$st" > /dev/null 2> "$WORK/status" && continue
    out+="${out:+; }user $k: $(awk '/DEAD/ { printf "%s%s", (n++ ? ", " : ""), $1 }' "$WORK/status") gone"
  done
  echo "$out"
}

# stepcheck's report for a level of K users -> tab-separated: all passed
# (yes/no), steps verified, steps failed, generator peak PSS MiB, peak and
# mean CPU % of one core, then a note (first failure per user, warnings).
# The note names users as the rigs number them ("user J"): stepcheck's
# user-N opened its N-th --url, and the newest rig's URL comes first.
read_report() { # file users rc rig-url...
  python3 - "$@" <<'PY'
import json, re, sys
path, k, rc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rig_urls = sys.argv[4:]
def rig_of(n):  # stepcheck's user-N -> the rig's user number
    return k if n == 1 else n - 1
def names(text):
    return re.sub(r"\buser-(\d+)\b", lambda m: "user %d" % rig_of(int(m.group(1))), text or "")
try:
    r = json.load(open(path))
except (OSError, ValueError) as e:
    print("no\t0\t0\t-\t-\t-\tno report (stepcheck exit %d)" % rc)
    sys.exit()
users = r.get("users") or []
ok = sum(u.get("steps_passed", 0) for u in users)
bad = sum(u.get("steps_failed", 0) for u in users)
allp = rc == 0 and r.get("passed") and len(users) == k and bad == 0 and all(u.get("passed") for u in users)
s = r.get("samples") or []
pss = "%.1f" % max(x["pss_mib"] for x in s) if s else "-"
cpu = "%.0f" % max(x["cpu_pct"] for x in s) if s else "-"
mean = "%.0f" % (sum(x["cpu_pct"] for x in s) / len(s)) if s else "-"
notes = []
for i, u in enumerate(users):
    who = "user %d" % (rig_urls.index(u["url"]) + 1 if u.get("url") in rig_urls else rig_of(i + 1))
    if u.get("error"):
        notes.append("%s: %s" % (who, names(u["error"])))
        continue
    for x in u.get("results") or []:
        if not x.get("passed"):
            notes.append("%s %s: %s" % (who, x.get("step_id"), (x.get("reason") or "")[:200]))
            break
w = r.get("warmup") or {}
if not w.get("passed", True):
    fails = ["%s: %s" % (x.get("step_id"), (x.get("reason") or "")[:200])
             for x in w.get("results") or [] if not x.get("passed")]
    notes.append("warm-up (user %d alone) failed " % k + "; ".join(fails or [w.get("error") or "?"]))
if not allp and len(users) != k:
    notes.append("%d of %d users in the report" % (len(users), k))
if not allp and r.get("void_reason") and not notes:
    notes.append(r["void_reason"])
if rc not in (0, 1):
    notes.append("stepcheck exit %d%s" % (rc, ": " + names(r["error"]) if r.get("error") else ""))
lv = r.get("levels") or []
if lv and not lv[-1].get("healthy") and lv[-1].get("reason") and not notes:
    notes.append("quality bar: " + names(lv[-1]["reason"]))
for w in r.get("warnings") or []:
    notes.append(w)
print("\t".join(["yes" if allp else "no", str(ok), str(bad), pss, cpu, mean, "; ".join(notes)]))
PY
}

# ---------------------------------------------------------------- levels
COLS="level users all_passed steps_ok steps_failed server_peak_mib server_kernel_peak_mib server_pss_mib failcnt oom_kills gen_peak_pss_mib gen_peak_cpu_pct gen_mean_cpu_pct rig_start_s run_s load1 note"
printf '%s\n' "$COLS" | tr ' ' '\t' > "$OUT/levels.tsv"
ROWS=()
NOTES=()
ROWFMT='%5s %5s  %-6s %6s %6s  %8s %8s %8s  %7s %4s  %8s %5s %5s  %5s %5s %5s'
# the machine's 1-minute load average: the server and the generator share
# its cores, and so does anything else running
load1() { awk '{ print $1 }' /proc/loadavg; }
row() { # the columns above, in order (note last)
  printf '%s\t' "${@:1:16}" >> "$OUT/levels.tsv"
  printf '%s\n' "${17}" >> "$OUT/levels.tsv"
  ROWS+=("$(printf "$ROWFMT" "${@:1:16}")")
  NOTES+=("${17}")
}

LAST=0 LAST_PEAK=- LAST_GEN=- STOP= RC=0
URLS=()
for ((k = 1; k <= MAX_USERS; k++)); do
  d=$((BASE + k - 1))
  st=$WORK/rig-u$k
  cg_peak_reset
  fail0=$(cg_failcnt) oom0=$(cg_oom_kills)
  sampler_start "$k"

  # 1. user k's rig, inside the group (the shell joins it, then becomes rig.sh)
  say "level $k: starting user $k's rig on :$d"
  t=$SECONDS
  STATES+=("$st")
  ports=(--web-port $((WEB_PORT_BASE + d)))
  [ "$TRANSPORT" = xpra ] || ports+=(--vnc-port $((VNC_PORT_BASE + d)))
  sh -c 'echo $$ > "$1/cgroup.procs" || exit 3; shift; exec "$@"' sh "$CG" \
    bash "$RIG" start --display "$d" --transport "$TRANSPORT" --size "$SIZE" --state "$st" \
    "${ports[@]}" > "$WORK/url" 2> "$OUT/rig-u$k.log" &
  STARTER=$!
  rc=0; wait_child "$STARTER" "$RIG_WAIT_S" || rc=$?
  STARTER=
  rig_s=$((SECONDS - t))
  if [ $rc != 0 ] || [ ! -s "$WORK/url" ]; then
    kills=$(( $(cg_oom_kills) - oom0 )) fails=$(( $(cg_failcnt) - fail0 ))
    peak=$(sampled_peak "$k") kpeak=$(cg_peak_mib)
    stop_pid "$SAMPLER"; SAMPLER=
    why=$(grep 'error:' "$OUT/rig-u$k.log" | tail -n 1 | sed 's/^rig.sh: error: //')
    [ $rc != 124 ] || why="rig.sh start still running after $RIG_WAIT_S s; stopped${why:+: $why}"
    names=$(oom_names)
    if [ "$kills" -gt 0 ]; then
      note="rig could not start: the group's OOM killer killed $kills process(es)${names:+: $names} ($why)"
    elif at_limit "$kpeak" "$peak" "$fails"; then
      note="rig could not start with the group at its limit: $why"
    else
      note="rig could not start, with no memory pressure in the group: ${why:-rig.sh exit $rc} (see $OUT/rig-u$k.log)"
      RC=3
    fi
    dead=$(rigs_dead)
    [ -z "$dead" ] || note+="; $dead"
    row "$k" "$k" no - - "$peak" "$kpeak" - "$fails" "$kills" - - - "$rig_s" - "$(load1)" "$note"
    STOP="level $k: user $k's $note"
    break
  fi
  URLS+=("$(head -n 1 "$WORK/url")")

  # 2. one stepcheck process drives all k users. The newest user's URL goes
  # first, so the one-cycle warm-up (that URL alone) is its JOSM's first
  # use: a fresh JOSM's first selection took 3.9-7.7 s here against 0.6-2.7 s
  # for the others (step timeout 8 s), and failed the level twice at level 2
  # with the group far below its limit.
  say "level $k: stepcheck drives $k user(s), $CYCLES cycle(s) each (warm-up: user $k alone)"
  args=(--url "${URLS[$((k - 1))]}")
  for ((i = 0; i < k - 1; i++)); do args+=(--url "${URLS[$i]}"); done
  t=$SECONDS
  "$CLI" run "$SCENARIO" "${args[@]}" --cycles "$CYCLES" --warmup 1 \
    --report-json "$OUT/level-$k.json" -q > "$OUT/level-$k.log" 2>&1 &
  RUNNER=$!
  # no time limit here: stepcheck's own (step timeouts, the quality bar's
  # stall limit) end the run
  rc=0; wait_child "$RUNNER" 999999 || rc=$?
  RUNNER=
  run_s=$((SECONDS - t))
  pss=$(rigs_pss)
  kills=$(( $(cg_oom_kills) - oom0 )) fails=$(( $(cg_failcnt) - fail0 ))
  kpeak=$(cg_peak_mib)
  stop_pid "$SAMPLER"; SAMPLER=
  peak=$(sampled_peak "$k")
  IFS=$'\t' read -r allp ok bad gpss gcpu gmean note < <(read_report "$OUT/level-$k.json" "$k" "$rc" "${URLS[@]}")
  names=$(oom_names)
  [ "$kills" = 0 ] || note="OOM killer: $kills kill(s)${names:+: $names}${note:+; $note}"
  limit=0
  if at_limit "$kpeak" "$peak" "$fails"; then
    limit=1
    note="the group reached its limit${note:+; $note}"
  fi
  if [ "$allp" = yes ]; then
    LAST=$k LAST_PEAK=$kpeak LAST_GEN=$gpss
    [ "$LAST_PEAK" != - ] || LAST_PEAK=$peak
  else
    dead=$(rigs_dead)
    [ -z "$dead" ] || note+="${note:+; }$dead"
    if [ $rc != 0 ] && [ $rc != 1 ] && [ "$kills" = 0 ] && [ $limit = 0 ]; then RC=3; fi
  fi
  row "$k" "$k" "$allp" "$ok" "$bad" "$peak" "$kpeak" "$pss" "$fails" "$kills" "$gpss" "$gcpu" "$gmean" "$rig_s" "$run_s" "$(load1)" "$note"
  say "level $k: all passed: $allp ($ok verified, $bad failed); server peak $kpeak MiB; generator peak PSS $gpss MiB"
  if [ "$allp" != yes ]; then
    STOP="level $k: not every user passed every step (stepcheck exit $rc)"
    break
  fi
done
[ -n "$STOP" ] || STOP="reached --max-users $MAX_USERS"

# ---------------------------------------------------------------- table
{
  echo "sizing: $TRANSPORT, $SIZE, budget $BUDGET_MIB MiB (cgroup v$CG_VER, no swap), $CYCLES cycle(s) per level, scenario $(basename "$SCENARIO"), $(date '+%Y-%m-%d %H:%M')"
  printf '%35s%-42s%-22s%s\n' "" "server (the cgroup): MiB, limit hits" "generator: MiB, %CPU" "seconds, load"
  printf "$ROWFMT\n" level users passed steps failed peak kernel PSS failcnt OOM PSS peak mean rig run load
  for i in "${!ROWS[@]}"; do
    echo "${ROWS[$i]}"
    [ -z "${NOTES[$i]}" ] || echo "      ^ ${NOTES[$i]}"
  done
  echo "stopped: $STOP"
  if [ "$LAST" -gt 0 ]; then
    echo "last count where every user passed every step: $LAST (server peak $LAST_PEAK MiB of budget $BUDGET_MIB MiB; generator peak PSS $LAST_GEN MiB)"
  else
    echo "last count where every user passed every step: 0 (no level passed; budget $BUDGET_MIB MiB)"
  fi
} | tee "$OUT/table.txt"
say "wrote $OUT/table.txt, levels.tsv, memory.tsv, level-K.json/.log, rig-uK.log"
exit $RC
