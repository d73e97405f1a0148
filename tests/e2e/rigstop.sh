#!/usr/bin/env bash
# `rig.sh stop` returns only when everything the rig started is gone (issue
# 25 item 13): a run started right after it must not meet its predecessor's
# processes, ports or displays. For one xpra user (its JOSM's java stopped
# with SIGSTOP first, so that it ignores TERM as a JOSM stuck in a shutdown
# hook or starved under load does, and only the KILL after 10 s ends it) and
# one novnc user: start the rig, note every process it runs (the recorded
# ones, their descendants and everything in the sessions they lead), stop
# it, and at once (no sleep)
# check that none of them is running (a zombie counts as gone: it holds no
# port, display or memory, and PID 1 reaps it), that the web (and VNC) port
# is not listening, and that the display's lock and socket are gone; and
# that JOSM keeps its temp files (Java's +~JF*.tmp font files, left behind
# when it is killed) in the state dir that stop removes: its java runs with
# java.io.tmpdir there (JOSM writes its font file there some seconds after
# its map is drawn, so the file itself is not waited for; /tmp's +~JF files
# cannot be told apart from other JOSMs' on the machine).
# Sabotage, run every time so the check stays honest: the same with
# SC_RIG_STOP_NOWAIT=1 (the rig sends TERM and returns without waiting) must
# be caught by the same check; what it left is then stopped by pid here.
# No stepcheck binary needed; about 90 s (three rig starts, one 10 s TERM wait).
set -euo pipefail
root=${SC_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
rig="$root/examples/josm/rig.sh"
work=$(mktemp -d /tmp/sc-e2e-rigstop-XXXXXX)
disp=${SC_E2E_RIGSTOP_DISPLAY:-61}
state="$work/rig"
snap="$work/procs"
cleanup() {
  # whatever a failed check or the sabotage left: by the pids noted
  [ ! -s "$snap" ] || kill_snapshot
  bash "$rig" stop --state "$state" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# every live process of the rig: "pid starttime comm" (recorded, their
# descendants, and the members of the sessions they lead)
snapshot() {
  python3 - "$state" > "$snap" <<'PY'
import glob, os, sys
want = set()
for f in glob.glob(sys.argv[1] + "/u*/pids"):
    for line in open(f):
        name, pid, st = line.split()
        want.add((int(pid), st))
info, kids, sess = {}, {}, {}
for d in filter(str.isdigit, os.listdir("/proc")):
    try:
        s = open("/proc/%s/stat" % d).read()
    except OSError:
        continue
    f = s[s.rindex(")") + 2:].split()
    info[int(d)] = (f[0], f[19], s[s.index("(") + 1:s.rindex(")")])
    kids.setdefault(int(f[1]), []).append(int(d))
    sess.setdefault(int(f[3]), []).append(int(d))
todo = [p for p, st in want if p in info and info[p][1] == st]
seen = set()
while todo:
    p = todo.pop()
    if p in seen or info[p][0] == "Z":
        continue
    seen.add(p)
    todo += kids.get(p, []) + sess.get(p, [])
for p in sorted(seen):
    print(p, info[p][1], info[p][2])
PY
}

# what of the snapshot, the port(s) and the display is still there
leftovers() { # port...
  local pid st comm now p
  while read -r pid st comm; do
    now=$(awk '{ sub(/.*\) /, ""); print $1, $20 }' "/proc/$pid/stat" 2>/dev/null || true)
    [ -n "$now" ] && [ "${now#* }" = "$st" ] && [ "${now%% *}" != Z ] && echo "process $pid ($comm) still running"
  done < "$snap"
  for p in "$@"; do
    [ -z "$(ss -Hltn "sport = :$p" 2>/dev/null)" ] || echo "port $p still listening"
  done
  [ ! -e "/tmp/.X$disp-lock" ] || echo "display :$disp lock still there"
  [ ! -e "/tmp/.X11-unix/X$disp" ] || echo "display :$disp socket still there"
  return 0
}

kill_snapshot() {
  local pid st comm now i
  for sig in TERM KILL; do
    while read -r pid st comm; do
      now=$(awk '{ sub(/.*\) /, ""); print $20 }' "/proc/$pid/stat" 2>/dev/null || true)
      # CONT after TERM: a stopped java acts on it
      [ "$now" = "$st" ] && kill -"$sig" "$pid" 2>/dev/null && kill -CONT "$pid" 2>/dev/null || true
    done < "$snap"
    for ((i = 0; i < 50; i++)); do
      [ -z "$(leftovers | grep '^process' || true)" ] && break
      sleep 0.2
    done
  done
  # a killed Xvfb leaves its lock and socket
  if [ -e "/tmp/.X$disp-lock" ] && ! kill -0 "$(tr -d ' \n' < "/tmp/.X$disp-lock")" 2>/dev/null; then
    rm -f "/tmp/.X$disp-lock" "/tmp/.X11-unix/X$disp"
  fi
  : > "$snap"
}

fails=0
one() { # name transport freeze env... : start, snapshot, stop, check at once
  local name=$1 transport=$2 freeze=$3 left n jpid
  shift 3
  bash "$rig" start --transport "$transport" --display "$disp" --state "$state" > "$work/url"
  snapshot
  n=$(wc -l < "$snap")
  if [ "$freeze" = 1 ]; then
    # JOSM's java stopped (SIGSTOP): it cannot act on TERM, as a JOSM stuck
    # in a shutdown hook or starved under load; only KILL ends it
    jpid=$(awk '$1 == "java" { print $2 }' "$state/u1/pids")
    [ -n "$jpid" ] && kill -STOP "$jpid"
  fi
  jpid=$(awk '$1 == "java" { print $2 }' "$state/u1/pids")
  if ! tr '\0' '\n' < "/proc/$jpid/cmdline" 2>/dev/null | grep -qx -- "-Djava.io.tmpdir=$state/u1/tmp"; then
    echo "$name: FAIL: JOSM's java (pid ${jpid:-none}) runs without -Djava.io.tmpdir=$state/u1/tmp"
    fails=$((fails + 1))
  fi
  env "$@" bash "$rig" stop --state "$state" 2> "$work/stop.err" ||
    { echo "$name: rig.sh stop failed: $(cat "$work/stop.err")"; fails=$((fails + 1)); }
  if [ "$transport" = novnc ]; then left=$(leftovers $((6000 + disp)) $((5900 + disp)))
  else left=$(leftovers $((6000 + disp))); fi
  if [ "$name" = sabotage ]; then
    if [ -n "$left" ]; then
      echo "sabotage: a stop that does not wait is caught: $(wc -l <<< "$left") thing(s) left, e.g. $(head -n 1 <<< "$left")"
    else
      echo "sabotage: FAIL: a stop that does not wait left nothing the check could see"
      fails=$((fails + 1))
    fi
    kill_snapshot
  elif [ -n "$left" ]; then
    echo "$name: FAIL: right after rig.sh stop returned:"
    sed 's/^/  /' <<< "$left"
    fails=$((fails + 1))
    kill_snapshot
  else
    echo "$name: $n processes, all gone, ports and display :$disp free when stop returned"
    : > "$snap"
  fi
}

one xpra xpra 1
one novnc novnc 0
one sabotage xpra 1 SC_RIG_STOP_NOWAIT=1
[ "$fails" = 0 ] || { echo "rigstop: $fails failed"; exit 1; }
echo "rigstop: 3 passed, 0 failed"
