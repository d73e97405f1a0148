#!/usr/bin/env bash
# rig.sh -- any X11 program on its own Xvfb, shown in a browser through noVNC
# (x11vnc + websockify + a lossless vnc_lite.html) or Xpra's HTML5 client,
# for one or several independent users.
#
#   rig.sh start  --app 'CMD ARGS' [--size WxH] [--display N] [--state DIR]
#                 [--transport novnc|xpra] [--ready title:REGEX|still:MS|log:REGEX|cmd:COMMAND]...
#                 [--users N] [--web-port P] [--vnc-port P] [--timeout S] [--lossy]
#   rig.sh stop   [--display N | --state DIR]
#   rig.sh status [--display N | --state DIR]
#   rig.sh pss    [--display N | --state DIR]
#
# start prints one URL per user on stdout, user 1 first, once every user's
# program is ready; progress and errors go to stderr. --app is one shell
# command (run by bash, with DISPLAY, HOME and TMPDIR of the user's own); WxH
# is the X screen (default 1280x800). User I (1..N, N <= 32) has display
# N+I-1, web port P+I-1 (default 6000 + its display), VNC port 5900 + its
# display (novnc); everything listens on 127.0.0.1. Users start in parallel;
# if one fails, or start is interrupted, everything started is stopped and the
# state dir removed. Defaults: 1 user, novnc, display 7, state dir
# /tmp/stepcheck-rig.N (N: the first display), timeout 60 s, --ready still:1000.
# Every process is started in its own session and stopped by its recorded pid
# and start time (with its process group and descendants), never by name.
#
# --ready (repeatable; each must hold, in the order given, within --timeout):
#   title:REGEX   a viewable window whose name matches REGEX (grep -E)
#   still:MS      the program's screen unchanged for MS ms (100..600000)
#   log:REGEX     a line of the program's output matches REGEX (grep -E)
#   cmd:COMMAND   COMMAND (bash, DISPLAY set) exits 0
# novnc serves a copy of vnc_lite.html (same URL) that offers x11vnc only
# lossless encodings, so the canvas equals the X screen; --lossy serves the
# stock page (Tight, JPEG quality 6). xpra is asked for lossless pictures only.
# pss: one line per user with the summed PSS (KiB) of its server-side
# processes, then a total line. docs/rig.md has the details.
#
# Needs: Xvfb, imagemagick (import), python3, x11-utils (xwininfo); novnc:
# x11vnc, websockify, novnc (/usr/share/novnc); xpra: xpra
# (/usr/share/xpra/www). Debian: apt-get install xvfb imagemagick python3
# x11-utils x11vnc websockify novnc xpra
set -u

# A profile (examples/josm/rig.sh is one) defines the profile_* hooks and
# PROFILE_* settings below, then sources this file; run on its own, this file
# is the generic profile: --app and --ready.
ME=$(basename "$0")
HERE=$(cd "$(dirname "$0")" && pwd)
NOVNC_DIR=${NOVNC_DIR:-/usr/share/novnc}
XPRA_WWW=${XPRA_WWW:-/usr/share/xpra/www}
MAX_USERS=32

say() { printf '%s: %s\n' "$ME" "$*" >&2; }
die() { say "error: $*"; exit 1; }
# a bad option value: one line naming the option, exit 2 (like usage)
bad_arg() { say "error: $*"; exit 2; }

usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
  exit 2
}

if ! declare -F profile_option >/dev/null; then
  # ---------------------------------------------------------- generic profile
  PROFILE_STATE_PREFIX=stepcheck-rig   # default state dir /tmp/PREFIX.N
  PROFILE_SIZE=1280x800                # default --size
  PROFILE_MIN_SIZE=64x64               # the smallest --size
  PROFILE_TIMEOUT=60                   # default --timeout
  PROFILE_LOSSLESS=1                   # novnc: lossless vnc_lite.html unless --lossy
  PROFILE_XPRA_TOP=0                   # xpra: rows above the program on its X screen
  PROFILE_APP_NAME="the program"       # in messages
  PROFILE_READY_WORDS="ready"          # "<words> N s after start"
  PROFILE_LOGS="app"                   # its logs (DIR/uI/NAME.log) shown on failure
  PROFILE_TOOLS=xwininfo               # commands it needs beside the transport's
  PROFILE_PKGS=x11-utils               # ... and their Debian packages
  APP=
  READY=()
  # profile_option "$@": takes one option of the profile's, setting PSHIFT
  # to the number of words it used; 1 when it is not one of them
  profile_option() {
    PSHIFT=1
    case "$1" in
      --app) APP=${2:-}; PSHIFT=2 ;;
      --app=*) APP=${1#*=} ;;
      --ready) READY+=("${2:-}"); PSHIFT=2 ;;
      --ready=*) READY+=("${1#*=}") ;;
      --lossy) LOSSLESS=0 ;;
      *) return 1 ;;
    esac
    [ $# -ge "$PSHIFT" ] || usage
  }
  profile_check_args() {
    local r re
    [ "$CMD" = start ] || return 0
    [ -n "${APP//[[:space:]]/}" ] || bad_arg "--app is required: the X11 program to start, as one shell command (--app 'xclock -digital')"
    [[ "$APP" != *$'\n'* ]] || bad_arg "--app must be one line"
    [ ${#READY[@]} -gt 0 ] || READY=(still:1000)
    for r in "${READY[@]}"; do
      case "$r" in
        title:?*|log:?*)
          re=${r#*:}
          grep -Eq -- "$re" < /dev/null 2>/dev/null; [ $? != 2 ] || bad_arg "--ready $r: not a valid extended regular expression" ;;
        still:*)
          [[ "${r#still:}" =~ ^[0-9]{1,6}$ ]] && [ "${r#still:}" -ge 100 ] && [ "${r#still:}" -le 600000 ] ||
            bad_arg "--ready still:MS wants 100..600000 ms (got '$r')" ;;
        cmd:?*) ;;
        *) bad_arg "--ready must be title:REGEX, still:MS, log:REGEX or cmd:COMMAND (got '$r')" ;;
      esac
    done
  }
  # the program's first word that is not VAR=value or env: it must exist
  profile_start_checks() {
    local w
    for w in $APP; do
      case "$w" in *=*|env) continue ;; esac
      command -v "$w" >/dev/null 2>&1 || die "--app: '$w' not found"
      return 0
    done
  }
  profile_state_lines() { printf 'app=%s\n' "$APP"; }
  profile_prepare_all() { :; }
  profile_prepare_user() { :; }
  # novnc: the program on display :$D, recorded at once
  profile_start_novnc_app() {
    setsid env DISPLAY=":$D" HOME="$UD/home" TMPDIR="$UD/tmp" bash -c "exec $APP" \
      > "$UD/app.log" 2>&1 < /dev/null &
    APID=$!
    record app "$APID"
  }
  profile_app_alive() { alive "$APID"; }
  # xpra's --start: the program, writing its pid first (bash's own, kept by exec)
  profile_xpra_start() {
    printf 'env HOME=%s TMPDIR=%s bash -c %s' "$(shq "$UD/home")" "$(shq "$UD/tmp")" \
      "$(shq "echo \$\$ > $(shq "$UD/app.pid"); exec $APP")"
  }
  # xpra: the program's pid once it wrote it (a child of xpra), recorded
  profile_xpra_find_app() {
    local p
    p=$(cat "$UD/app.pid" 2>/dev/null) || return 1
    [ -n "$p" ] && [ "$(awk '{ sub(/.*\) /, ""); print $2 }' "/proc/$p/stat" 2>/dev/null)" = "$1" ] || return 1
    APID=$p
    record app "$APID"
  }
  profile_start_xpra() { start_xpra; }
  profile_wait_ready() { wait_ready_generic; }
fi

# ---------------------------------------------------------------- arguments
CMD=${1:-}
[ -n "$CMD" ] || usage
shift
case "$CMD" in start|stop|status|pss) ;; -h|--help|help) usage ;; *) say "unknown command '$CMD'"; usage ;; esac

DISPLAY_NUM=7
SIZE=$PROFILE_SIZE
STATE=
VNC_PORT=
WEB_PORT=
TIMEOUT=$PROFILE_TIMEOUT
LOSSLESS=$PROFILE_LOSSLESS
USERS=1
TRANSPORT=novnc
while [ $# -gt 0 ]; do
  case "$1" in
    --display) DISPLAY_NUM=${2:-}; shift 2 || usage ;;
    --display=*) DISPLAY_NUM=${1#*=}; shift ;;
    --size) SIZE=${2:-}; shift 2 || usage ;;
    --size=*) SIZE=${1#*=}; shift ;;
    --state) STATE=${2:-}; shift 2 || usage ;;
    --state=*) STATE=${1#*=}; shift ;;
    --users) USERS=${2:-}; shift 2 || usage ;;
    --users=*) USERS=${1#*=}; shift ;;
    --transport) TRANSPORT=${2:-}; shift 2 || usage ;;
    --transport=*) TRANSPORT=${1#*=}; shift ;;
    --vnc-port) VNC_PORT=${2:-}; shift 2 || usage ;;
    --vnc-port=*) VNC_PORT=${1#*=}; shift ;;
    --web-port) WEB_PORT=${2:-}; shift 2 || usage ;;
    --web-port=*) WEB_PORT=${1#*=}; shift ;;
    --timeout) TIMEOUT=${2:-}; shift 2 || usage ;;
    --timeout=*) TIMEOUT=${1#*=}; shift ;;
    --lossless) LOSSLESS=1; shift ;;
    -h|--help) usage ;;
    *) profile_option "$@" || { say "unknown option '$1'"; usage; }
       shift "$PSHIFT" ;;
  esac
done

DISPLAY_NUM=${DISPLAY_NUM#:}
[[ "$DISPLAY_NUM" =~ ^[0-9]{1,4}$ ]] || bad_arg "--display must be a number (got '$DISPLAY_NUM')"
[[ "$USERS" =~ ^[0-9]{1,3}$ ]] && [ "$USERS" -ge 1 ] && [ "$USERS" -le $MAX_USERS ] ||
  bad_arg "--users must be 1..$MAX_USERS (got '$USERS')"
case "$TRANSPORT" in novnc|xpra) ;; *) bad_arg "--transport must be novnc or xpra (got '$TRANSPORT')" ;; esac
[ $((DISPLAY_NUM + USERS - 1)) -le 9999 ] || bad_arg "--display $DISPLAY_NUM + --users $USERS goes past display 9999"
[[ "$SIZE" =~ ^([0-9]{2,5})x([0-9]{2,5})$ ]] || bad_arg "--size must be WIDTHxHEIGHT (got '$SIZE')"
WIDTH=${BASH_REMATCH[1]}
HEIGHT=${BASH_REMATCH[2]}
[ "$WIDTH" -ge "${PROFILE_MIN_SIZE%x*}" ] && [ "$HEIGHT" -ge "${PROFILE_MIN_SIZE#*x}" ] ||
  bad_arg "--size must be at least $PROFILE_MIN_SIZE"
[ "$WIDTH" -le 8192 ] && [ "$HEIGHT" -le 8192 ] || bad_arg "--size must be at most 8192x8192"
if [ "$TRANSPORT" = xpra ]; then
  [ -z "$VNC_PORT" ] || bad_arg "--vnc-port is for --transport novnc (xpra serves its page and its stream on --web-port)"
  if [ "$LOSSLESS" != "$PROFILE_LOSSLESS" ]; then
    [ "$LOSSLESS" = 0 ] || bad_arg "--lossless is for --transport novnc"
    bad_arg "--lossy is for --transport novnc"
  fi
  LOSSLESS=0
fi
VNC_PORT=${VNC_PORT:-$((5900 + DISPLAY_NUM))}
WEB_PORT=${WEB_PORT:-$((6000 + DISPLAY_NUM))}
for p in "$VNC_PORT" "$WEB_PORT"; do
  [[ "$p" =~ ^[0-9]{1,5}$ ]] && [ "$p" -ge 1024 ] && [ $((p + USERS - 1)) -le 65535 ] ||
    bad_arg "--web-port/--vnc-port must be 1024..$((65536 - USERS)) for $USERS user(s) (got '$p')"
done
# the users' port ranges must not overlap
if [ "$TRANSPORT" = novnc ] && [ "$VNC_PORT" -lt $((WEB_PORT + USERS)) ] && [ "$WEB_PORT" -lt $((VNC_PORT + USERS)) ]; then
  if [ "$USERS" = 1 ]; then bad_arg "--vnc-port and --web-port must differ"; fi
  bad_arg "--vnc-port $VNC_PORT..$((VNC_PORT + USERS - 1)) and --web-port $WEB_PORT..$((WEB_PORT + USERS - 1)) overlap"
fi
[[ "$TIMEOUT" =~ ^[0-9]+$ ]] && [ "$TIMEOUT" -ge 5 ] || bad_arg "--timeout must be a whole number of seconds >= 5"
profile_check_args
STATE=${STATE:-/tmp/$PROFILE_STATE_PREFIX.$DISPLAY_NUM}
case "$STATE" in /*) ;; *) STATE=$PWD/$STATE ;; esac
STATE=${STATE%/}
[ "$STATE" != "" ] && [ "$STATE" != "/" ] && [ "$STATE" != "/tmp" ] || die "refusing state dir '$STATE'"
MARKER=$STATE/rig.state

# ---------------------------------------------------------------- processes
# A recorded process is "name pid starttime" in its user's pids file;
# starttime (field 22 of /proc/PID/stat) guards against a recycled pid.
starttime() { awk '{ sub(/.*\) /, ""); print $20 }' "/proc/$1/stat" 2>/dev/null; }
alive() { # pid: exists and is not a zombie
  [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null &&
    [ "$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null)" != Z ]
}
ours() { alive "$1" && [ "$(starttime "$1")" = "$2" ]; }

# procs tree|pss PID:STARTTIME... -> every given process that is still the
# one recorded, with all its descendants (walk of /proc/*/stat parent links)
# and, when it leads a process group or a session, every member of it (the
# josm wrapper's java stays in it when the wrapper dies first): "pid
# starttime comm" (tree) or "pid pss_kib uss_kib comm" (pss; uss: its
# private pages). procs session SID:STARTTIME... -> the live members of
# sessions whose (perhaps gone) leader was that process.
procs() {
  python3 - "$@" <<'PY'
import os, sys
mode, want = sys.argv[1], [a.split(":") for a in sys.argv[2:]]
info, kids, groups, sessions = {}, {}, {}, {}
for d in os.listdir("/proc"):
    if not d.isdigit():
        continue
    try:
        with open("/proc/%s/stat" % d) as f:
            s = f.read()
    except OSError:
        continue
    f = s[s.rindex(")") + 2:].split()
    info[int(d)] = (f[0], f[19], s[s.index("(") + 1:s.rindex(")")])
    kids.setdefault(int(f[1]), []).append(int(d))
    groups.setdefault(int(f[2]), []).append(int(d))
    sessions.setdefault(int(f[3]), []).append(int(d))
if mode == "session":
    # live members of the given sessions (sid:starttime of their leader),
    # born no earlier than the leader: "pid starttime comm"
    for sid, st in want:
        for p in sorted(sessions.get(int(sid), [])):
            if info[p][0] != "Z" and int(info[p][1]) >= int(st):
                print(p, info[p][1], info[p][2])
    sys.exit(0)
todo = []
for p, st in want:
    p = int(p)
    if p in info and info[p][1] == st and info[p][0] != "Z":
        todo.append(p)
        todo.extend(sorted(groups.get(p, [])))
        todo.extend(sorted(sessions.get(p, [])))
seen = []
while todo:
    p = todo.pop(0)
    if p not in seen:
        seen.append(p)
        todo.extend(sorted(kids.get(p, [])))
for p in seen:
    state, st, comm = info[p]
    if state == "Z":
        continue
    if mode == "tree":
        print(p, st, comm)
        continue
    try:
        with open("/proc/%d/smaps_rollup" % p) as f:
            kib = dict((l.split(":")[0], int(l.split()[1])) for l in f if l.endswith("kB\n"))
    except OSError:
        continue
    if "Pss" in kib:
        print(p, kib["Pss"], kib.get("Private_Clean", 0) + kib.get("Private_Dirty", 0), comm)
PY
}

# xpra's own commands (stop, control) for user dir $1, at most $2 seconds:
# the same config, home and socket dir the server was started with.
xpra_cmd() { # userdir seconds args...
  local ud=$1 secs=$2; shift 2
  timeout "$secs" env HOME="$ud/home" XDG_RUNTIME_DIR="$ud/run" XPRA_USER_CONF_DIRS="$ud/xpra-conf" \
    xpra "$@" --socket-dirs="$ud/xpra-sock"
}

# key from a user's user.state
ustate() { sed -n "s/^$2=//p" "$1/user.state" 2>/dev/null | head -n 1; }

# TERM every member of a recorded process's tree (snapshot "pid:starttime
# ...", each checked again before every signal), wait up to 10 s for all of
# them, then KILL the rest and wait up to 5 s more for them to be gone (a
# KILLed java frees its memory, and only then its sockets). java runs
# shutdown hooks after the josm wrapper died: wait for all of them.
# SC_RIG_STOP_NOWAIT=1 (tests/e2e/rigstop.sh's sabotage, never for use):
# TERM only, no waiting.
stop_tree() { # name pid members
  local name=$1 pid=$2 members=$3 m
  for m in $members; do ours "${m%:*}" "${m#*:}" && kill -TERM "${m%:*}" 2>/dev/null; done
  [ "${SC_RIG_STOP_NOWAIT:-0}" = 1 ] && return 0
  members_gone "$members" 10 && return 0
  say "$name (pid $pid) did not stop within 10 s of TERM; sending KILL"
  for m in $members; do ours "${m%:*}" "${m#*:}" && kill -KILL "${m%:*}" 2>/dev/null; done
  members_gone "$members" 5 || true
}

# Wait up to SECS for every member ("pid:starttime ...") to be gone:
# 0 when they are, 1 when one is still there at the end.
members_gone() { # members secs
  local m left deadline=$((SECONDS + $2))
  while :; do
    left=0
    for m in $1; do ours "${m%:*}" "${m#*:}" && left=1; done
    [ $left = 0 ] && return 0
    [ $SECONDS -lt "$deadline" ] || return 1
    sleep 0.2
  done
}

# What of one user is still there: one line per recorded process (snapshot
# "pid:starttime ...") still running, per live member of its sessions, per
# port still listening and for its display if its lock is held or its socket
# is still there. Zombies count as gone: they hold no port, display or
# memory, and their parent (here PID 1: every process was started with
# setsid) reaps them.
user_leftovers() { # userdir members sessions
  local ud=$1 members=$2 sessions=$3 m p d lock
  for m in $members; do
    ours "${m%:*}" "${m#*:}" && echo "pid ${m%:*} ($(awk '{ print $2 }' "/proc/${m%:*}/stat" 2>/dev/null)) still running"
  done
  # shellcheck disable=SC2086
  [ -z "$sessions" ] || procs session $sessions | while read -r p _ m; do
    echo "pid $p ($m, in a session the rig started) still running"
  done
  for p in $(ustate "$ud" web_port) $(ustate "$ud" vnc_port); do
    port_busy "$p" && echo "port $p still in use"
  done
  d=$(ustate "$ud" display)
  if [ -n "$d" ]; then
    lock=/tmp/.X$d-lock
    if [ -f "$lock" ] && alive "$(tr -d ' \n' < "$lock")"; then
      echo "display :$d still locked by pid $(tr -d ' \n' < "$lock")"
    elif [ -e "/tmp/.X11-unix/X$d" ]; then
      echo "display :$d: socket /tmp/.X11-unix/X$d still there"
    fi
  fi
}

# Stop every recorded process of one user, newest first, each with the
# processes it had under it before anything was stopped (xpra's JOSM is
# reparented once xpra is gone); then whatever is left in the sessions the
# rig started. An xpra server is first asked to end its session. Returns
# only when all of it is gone and the user's ports and display are free
# (waiting up to 5 s for them), else says what is left on stderr, keeps the
# pids file and returns 1.
stop_user() { # userdir
  local ud=$1 lines name pid st i d lock tree=() xpra_up=0 all='' sessions='' left deadline
  [ -f "$ud/pids" ] || return 0
  mapfile -t lines < "$ud/pids"
  for ((i = ${#lines[@]} - 1; i >= 0; i--)); do
    read -r name pid st <<< "${lines[$i]}"
    ours "$pid" "$st" || continue
    [ "$name" = xpra ] && xpra_up=1
    tree+=("$name $pid $(procs tree "$pid:$st" | awk '{ printf "%s:%s ", $1, $2 }')")
    all+=" ${tree[-1]#* * }"
    # every recorded process was started in its own session (xpra's
    # Xvfb by xpra): what it left behind there is ours too
    [ "$(awk '{ sub(/.*\) /, ""); print $4 }' "/proc/$pid/stat" 2>/dev/null)" = "$pid" ] &&
      sessions+=" $pid:$st"
  done
  d=$(ustate "$ud" display)
  [ $xpra_up = 1 ] && [ "${SC_RIG_STOP_NOWAIT:-0}" != 1 ] &&
    xpra_cmd "$ud" 20 stop ":$d" > "$ud/xpra-stop.log" 2>&1
  for i in ${tree[@]+"${!tree[@]}"}; do
    read -r name pid members <<< "${tree[$i]}"
    stop_tree "$name" "$pid" "$members"
  done
  if [ "${SC_RIG_STOP_NOWAIT:-0}" = 1 ]; then
    rm -f "$ud/pids"
    return 0
  fi
  # shellcheck disable=SC2086
  [ -z "$sessions" ] || stop_tree "the rest of the sessions" "-" \
    "$(procs session $sessions | awk '{ printf "%s:%s ", $1, $2 }')"
  # Xvfb leaves its lock and socket behind when killed: remove them if they
  # are the ones our (now gone) Xvfb made
  for i in "${!lines[@]}"; do
    read -r name pid st <<< "${lines[$i]}"
    [ "$name" = xvfb ] && [ -n "$d" ] || continue
    lock=/tmp/.X$d-lock
    if [ -f "$lock" ] && [ "$(tr -d ' \n' < "$lock")" = "$pid" ] && ! alive "$pid"; then
      rm -f "$lock" "/tmp/.X11-unix/X$d"
    fi
  done
  # the listening sockets close as the processes end; give them a moment
  deadline=$((SECONDS + 5))
  while left=$(user_leftovers "$ud" "$all" "$sessions") && [ -n "$left" ] && [ $SECONDS -lt $deadline ]; do
    sleep 0.2
  done
  if [ -n "$left" ]; then
    while read -r i; do say "error: ${ud##*/}: $i after stop"; done <<< "$left"
    return 1
  fi
  rm -f "$ud/pids"
}

user_dirs() { # every user dir of the state, in user order
  local i
  for ((i = 1; i <= MAX_USERS; i++)); do [ -d "$STATE/u$i" ] && echo "$STATE/u$i"; done
}

stop_all_users() { # in parallel: each user's stop waits for its own processes
  local ud p rc=0 stoppers=()
  for ud in $(user_dirs); do
    stop_user "$ud" &
    stoppers+=($!)
  done
  for p in ${stoppers[@]+"${stoppers[@]}"}; do wait "$p" || rc=1; done
  return $rc
}

port_busy() { # port
  if command -v ss >/dev/null 2>&1; then
    [ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ] && return 0
  fi
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

display_busy() { # display
  local lock=/tmp/.X$1-lock pid
  if [ -f "$lock" ]; then
    pid=$(tr -d ' \n' < "$lock")
    alive "$pid" && return 0
  fi
  return 1
}

# reads the rig's settings back, for stop/status/pss
load_state() {
  [ -f "$MARKER" ] || return 1
  local k v
  USERS=1
  TRANSPORT=novnc
  while IFS='=' read -r k v; do
    case "$k" in
      display) DISPLAY_NUM=$v ;;
      users) USERS=$v ;;
      transport) TRANSPORT=$v ;;
    esac
  done < "$MARKER"
}

# ---------------------------------------------------------------- stop/status/pss
if [ "$CMD" = stop ]; then
  if [ ! -e "$STATE" ]; then
    say "no rig state at $STATE (nothing to stop)"
    exit 0
  fi
  load_state || die "$STATE is not a rig state dir (no rig.state); not touching it"
  # returns once every process of the rig is gone and its ports and
  # displays are free, or says what is left and keeps the state
  stop_all_users || die "the rig did not stop cleanly (see above); state kept at $STATE, stop again to retry"
  rm -rf -- "$STATE"
  say "stopped; removed $STATE"
  exit 0
fi

if [ "$CMD" = status ]; then
  if ! load_state; then
    say "not running (no rig state at $STATE)"
    exit 3
  fi
  all=0
  urls=()
  for ((u = 1; u <= USERS; u++)); do
    ud=$STATE/u$u
    prefix=
    [ "$USERS" = 1 ] || prefix=$(printf 'user %-3s ' "$u")
    urls+=("$(ustate "$ud" url)")
    if [ -f "$ud/pids" ]; then
      while read -r name pid st; do
        if ours "$pid" "$st"; then
          printf '%s%-10s pid %-8s running\n' "$prefix" "$name" "$pid" >&2
        else
          printf '%s%-10s pid %-8s DEAD\n' "$prefix" "$name" "$pid" >&2
          all=1
        fi
      done < "$ud/pids"
    else
      all=1
    fi
  done
  if [ $all = 0 ]; then
    printf '%s\n' "${urls[@]}"
    if [ "$USERS" = 1 ]; then
      say "running: display :$DISPLAY_NUM, state $STATE"
    else
      say "running: $USERS users ($TRANSPORT), displays :$DISPLAY_NUM..:$((DISPLAY_NUM + USERS - 1)), state $STATE"
    fi
  else
    say "not healthy: some processes are gone (rig.sh stop --state $STATE cleans up)"
  fi
  exit $all
fi

if [ "$CMD" = pss ]; then
  if ! load_state; then
    say "not running (no rig state at $STATE)"
    exit 3
  fi
  total=0
  total_uss=0
  nproc_all=0
  for ((u = 1; u <= USERS; u++)); do
    ud=$STATE/u$u
    recorded=()
    if [ -f "$ud/pids" ]; then
      while read -r name pid st; do recorded+=("$pid:$st"); done < "$ud/pids"
    fi
    sum=0
    uss=0
    n=0
    declare -A by=()
    if [ ${#recorded[@]} -gt 0 ]; then
      while read -r pid kib ukib comm; do
        sum=$((sum + kib))
        uss=$((uss + ukib))
        n=$((n + 1))
        by[$comm]=$(( ${by[$comm]:-0} + kib ))
      done < <(procs pss "${recorded[@]}")
    fi
    printf 'user=%s display=:%s transport=%s pss_kib=%s processes=%s uss_kib=%s\n' \
      "$u" "$(ustate "$ud" display)" "$TRANSPORT" "$sum" "$n" "$uss"
    detail=
    for comm in "${!by[@]}"; do detail+=" $comm=${by[$comm]}"; done
    say "user $u:$(tr ' ' '\n' <<< "$detail" | sort | tr '\n' ' ' | sed 's/ *$//') (KiB)"
    unset by
    total=$((total + sum))
    total_uss=$((total_uss + uss))
    nproc_all=$((nproc_all + n))
  done
  printf 'total pss_kib=%s processes=%s users=%s uss_kib=%s\n' "$total" "$nproc_all" "$USERS" "$total_uss"
  exit 0
fi

# ---------------------------------------------------------------- start
if [ "$TRANSPORT" = novnc ]; then
  for tool in Xvfb $PROFILE_TOOLS x11vnc websockify import python3; do
    command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found (Debian: apt-get install xvfb $PROFILE_PKGS x11vnc websockify novnc imagemagick python3)"
  done
  [ -f "$NOVNC_DIR/vnc_lite.html" ] || die "noVNC not found at $NOVNC_DIR (apt-get install novnc, or set NOVNC_DIR)"
else
  for tool in xpra Xvfb $PROFILE_TOOLS xwininfo import python3; do
    command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found (Debian: apt-get install xpra xvfb $PROFILE_PKGS x11-utils imagemagick python3)"
  done
  [ -f "$XPRA_WWW/index.html" ] || die "xpra's HTML5 client not found at $XPRA_WWW (apt-get install xpra, or set XPRA_WWW)"
fi
# the profile's own checks and settings, before anything is started
profile_start_checks

# user I's display, ports, dir and URL
user_vars() { # user
  U=$1
  UD=$STATE/u$U
  D=$((DISPLAY_NUM + U - 1))
  UWEB=$((WEB_PORT + U - 1))
  UVNC=$((VNC_PORT + U - 1))
  PIDS=$UD/pids
  if [ "$TRANSPORT" = novnc ]; then
    UURL="http://127.0.0.1:$UWEB/vnc_lite.html?host=127.0.0.1&port=$UWEB"
  else
    # sharing: more than one browser may show the session (a capture next to
    # a run); floating_menu=false: no menu bar over the page; sound=false: no
    # audio set-up (the server has none)
    UURL="http://127.0.0.1:$UWEB/index.html?sharing=true&floating_menu=false&sound=false"
  fi
}

# refuse what is in use before touching anything
if [ -e "$STATE" ]; then
  if load_state 2>/dev/null; then
    for ud in $(user_dirs); do
      [ -f "$ud/pids" ] || continue
      while read -r name pid st; do
        ours "$pid" "$st" && die "a rig is already running with state $STATE ($name pid $pid); rig.sh stop --state $STATE"
      done < "$ud/pids"
    done
  fi
  if [ -f "$MARKER" ]; then
    say "removing stale state dir $STATE"
    stop_all_users || die "what the stale state $STATE recorded did not stop (see above)"
    rm -rf -- "$STATE"
  elif [ -n "$(ls -A "$STATE" 2>/dev/null)" ]; then
    die "state dir $STATE exists, is not empty and is not a rig state dir"
  fi
fi
for ((u = 1; u <= USERS; u++)); do
  user_vars "$u"
  display_busy "$D" && die "display :$D is in use (/tmp/.X$D-lock, pid $(tr -d ' \n' < /tmp/.X$D-lock)); pick another --display"
  if [ -e "/tmp/.X11-unix/X$D" ] && [ ! -e "/tmp/.X$D-lock" ]; then
    die "display :$D: socket /tmp/.X11-unix/X$D exists without a lock file; pick another --display"
  fi
  if [ "$TRANSPORT" = novnc ]; then
    port_busy "$UVNC" && die "VNC port $UVNC is in use; pick another --display or --vnc-port"
  fi
  port_busy "$UWEB" && die "web port $UWEB is in use; pick another --display or --web-port"
done

mkdir -p -- "$STATE" || die "cannot create $STATE"
chmod 700 "$STATE"
CREATED=1
user_vars 1
{
  echo "display=$DISPLAY_NUM"
  echo "users=$USERS"
  echo "transport=$TRANSPORT"
  echo "size=$SIZE"
  echo "web_port=$WEB_PORT"
  [ "$TRANSPORT" = novnc ] && echo "vnc_port=$VNC_PORT"
  [ "$LOSSLESS" = 1 ] && echo "lossless=1"
  echo "url=$UURL"
  profile_state_lines
} > "$MARKER"

OK=0
declare -A STARTERS=()   # pid of each user's starter subshell -> user
cleanup() {
  local rc=$? p
  trap - EXIT INT TERM HUP
  if [ "$OK" != 1 ] && [ "${CREATED:-0}" = 1 ]; then
    # the starters stop at their next check (never between starting a
    # process and recording it); then everything recorded is stopped
    for p in "${!STARTERS[@]}"; do kill -TERM "$p" 2>/dev/null; done
    wait
    stop_all_users
    rm -rf -- "$STATE"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'say "interrupted; stopping what was started"; exit 130' INT
trap 'say "terminated; stopping what was started"; exit 143' TERM HUP

T0=$SECONDS

# ---------------------------------------------------------------- one user
# Runs in a subshell per user, in parallel. Records every process in $PIDS
# the moment it is started; TERM from the parent sets STOPPING, acted on at
# the next check_stop.
STOPPING=0
check_stop() { [ "$STOPPING" = 0 ] || exit 1; }
record() { printf '%s %s %s\n' "$1" "$2" "$(starttime "$2")" >> "$PIDS"; check_stop; }

UPFX=
fail() { # message; keeps a screenshot, the logs and their tails for diagnosis
  local shot=${TMPDIR:-/tmp}/stepcheck-rig-fail.$D.png logs=${TMPDIR:-/tmp}/stepcheck-rig-fail.$D.log f
  # unix:N, never :N: when the Xvfb is gone (killed by a memory limit), Xlib
  # falls back from :N to TCP port 6000+N, which is this rig's web port, and
  # import then waits on websockify forever (seen by scripts/size.sh)
  if [ -S "/tmp/.X11-unix/X$D" ] &&
     DISPLAY="unix:$D" timeout 20 import -silent -window "${CAPTURE_WIN:-root}" "$shot" 2>/dev/null \
     && [ -s "$shot" ]; then
    say "${UPFX}screen at failure: $shot"
  fi
  : > "$logs"
  for f in $PROFILE_LOGS xvfb x11vnc websockify xpra-1 xpra; do
    [ -s "$UD/$f.log" ] || continue
    say "${UPFX}--- last lines of $f.log:"
    tail -n 8 "$UD/$f.log" | sed 's/^/    /' >&2
    { echo "==> $f.log <=="; cat "$UD/$f.log"; } >> "$logs"
  done
  [ -s "$logs" ] && say "${UPFX}logs at failure: $logs"
  die "$UPFX$*"
}

# children of pid $1 whose command name is $2
child_of() { ps -o pid=,comm= --ppid "$1" 2>/dev/null | awk -v c="$2" '$2 == c { print $1 }'; }

wait_x_ready() { # xvfb pid; the display answers
  local xpid=$1 deadline=$((SECONDS + 15))
  until [ -S "/tmp/.X11-unix/X$D" ] && [ -f "/tmp/.X$D-lock" ] \
        && [ "$(tr -d ' \n' < "/tmp/.X$D-lock" 2>/dev/null)" = "$xpid" ] \
        && [ "$(DISPLAY=":$D" import -silent -window root -crop 1x1+0+0 +repage -depth 8 rgb:- 2>/dev/null | wc -c)" -eq 3 ]; do
    alive "$xpid" || fail "Xvfb :$D exited (display in use?)"
    [ $SECONDS -lt $deadline ] || fail "Xvfb :$D not ready after 15 s"
    sleep 0.2
    check_stop
  done
}

http_ok() { # port path
  exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
  printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$2" >&3
  local line
  IFS= read -r -t 3 line <&3
  exec 3<&-
  [[ "$line" == HTTP/1.?\ 200* ]]
}

# ---------------------------------------------------------------- readiness
# The generic profile's --ready tests, each in turn, all within --timeout.
# Before each sample: the program must be alive, and on xpra its windows are
# mapped from the server side (xpra maps a window on its X display only while
# a client shows it: until a browser connects it is unviewable and unpainted)
# and CAPTURE_WIN becomes its largest one; on novnc CAPTURE_WIN is the root.
now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }

# xpra's windows: "N xid area override-redirect" (xpra info), refreshed at
# most once a second into XPRA_WINS
XPRA_WINS=
XPRA_WINS_AT=-1
xpra_windows() {
  [ "$XPRA_WINS_AT" != "$SECONDS" ] || return 0
  XPRA_WINS_AT=$SECONDS
  XPRA_WINS=$(xpra_cmd "$UD" 15 info ":$D" 2>/dev/null | awk '
    match($0, /^windows\.[0-9]+\./) {
      n = substr($0, 9, RLENGTH - 9); kv = substr($0, RLENGTH + 1)
      k = kv; sub(/=.*/, "", k); v = kv; sub(/^[^=]*=/, "", v)
      if (k == "xid") xid[n] = v
      else if (k == "geometry") { gsub(/[() ]/, "", v); split(v, g, ","); area[n] = g[3] * g[4] }
      else if (k == "override-redirect") ovr[n] = v
    }
    END { for (n in xid) print n, xid[n], area[n] + 0, (ovr[n] == "True") }')
}
viewable() { DISPLAY=":$D" xwininfo -id "$1" 2>/dev/null | grep -q 'Map State: IsViewable'; }

ready_prepare() { # 0 go on; 1 the program is gone; 2 xpra is gone
  local n xid area ovr best=0
  if [ "$TRANSPORT" = novnc ]; then
    profile_app_alive || return 1
    CAPTURE_WIN=root
    return 0
  fi
  alive "$XPRA_PID" || return 2
  profile_app_alive || return 1
  xpra_windows
  CAPTURE_WIN=
  while read -r n xid area ovr; do
    [ -n "${xid:-}" ] || continue
    if ! viewable "$xid"; then
      xpra_cmd "$UD" 15 control ":$D" map "$n" >> "$UD/xpra-control.log" 2>&1
      continue
    fi
    [ "$ovr" = 0 ] && [ "$area" -gt "$best" ] && { best=$area; CAPTURE_WIN=$xid; }
  done <<< "$XPRA_WINS"
  return 0
}

# names of the viewable windows a program shows: "xid name" per line
window_names() {
  local n xid area ovr
  if [ "$TRANSPORT" = novnc ]; then
    DISPLAY=":$D" xwininfo -root -tree 2>/dev/null |
      sed -n 's/^ *\(0x[0-9a-f]*\) "\(.*\)": .*/\1 \2/p' |
      while read -r xid n; do viewable "$xid" && printf '%s %s\n' "$xid" "$n"; done
  else
    # xpra's own windows (its corral, world and tray windows) are not the
    # program's: only those xpra manages for it
    while read -r n xid area ovr; do
      [ -n "${xid:-}" ] && viewable "$xid" &&
        DISPLAY=":$D" xwininfo -id "$xid" 2>/dev/null | sed -n "s/^xwininfo: Window id: \(0x[0-9a-f]*\) \"\(.*\)\"$/\1 \2/p"
    done <<< "$XPRA_WINS"
  fi
}

STILL_HASH=
STILL_SINCE=
ready_holds() { # test
  local r=$1 h
  case "$r" in
    title:*) window_names | cut -d ' ' -f 2- | grep -Eq -- "${r#title:}" ;;
    log:*)
      if [ "$TRANSPORT" = novnc ]; then grep -Eq -- "${r#log:}" "$UD/app.log" 2>/dev/null
      else grep -Eq -- "${r#log:}" "$UD/xpra.log" 2>/dev/null; fi ;;
    cmd:*) DISPLAY=":$D" HOME="$UD/home" timeout 10 bash -c "${r#cmd:}" > /dev/null 2>&1 < /dev/null ;;
    still:*)
      [ -n "${CAPTURE_WIN:-}" ] || { STILL_HASH=; return 1; }
      h=$(DISPLAY=":$D" import -silent -window "$CAPTURE_WIN" -depth 8 rgb:- 2>/dev/null | sha1sum)
      if [ "${h%% *}" != "$STILL_HASH" ] || [ "${h%% *}" = da39a3ee5e6b4b0d3255bfef95601890afd80709 ]; then
        STILL_HASH=${h%% *}
        STILL_SINCE=$(now_ms)
        return 1
      fi
      [ $(($(now_ms) - STILL_SINCE)) -ge "${r#still:}" ] ;;
  esac
}

ready_why() { # test: what did not hold
  case "$1" in
    title:*) echo "no viewable window's name matches /${1#title:}/" ;;
    log:*) echo "no line of ${PROFILE_APP_NAME}'s output matches /${1#log:}/" ;;
    cmd:*) echo "'${1#cmd:}' did not exit 0" ;;
    still:*) echo "the screen was never still for ${1#still:} ms" ;;
  esac
}

wait_ready_generic() {
  local deadline=$((SECONDS + TIMEOUT)) r rc
  for r in "${READY[@]}"; do
    STILL_HASH=
    while :; do
      check_stop
      rc=0
      ready_prepare || rc=$?
      [ $rc != 2 ] || fail "xpra exited before $PROFILE_APP_NAME was ready (see xpra.log)"
      [ $rc = 0 ] || fail "$PROFILE_APP_NAME exited before it was ready (--ready $r; see its log)"
      ready_holds "$r" && break
      [ $SECONDS -lt "$deadline" ] || fail "not ready within $TIMEOUT s (--ready $r): $(ready_why "$r")"
      sleep 0.2
    done
  done
  # xpra: the window the state names (the root shows nothing there)
  [ "$TRANSPORT" = novnc ] || [ -n "${CAPTURE_WIN:-}" ] || ready_prepare || true
}

start_novnc() {
  # 1. Xvfb
  setsid Xvfb ":$D" -screen 0 "${WIDTH}x${HEIGHT}x24" -nolisten tcp -br -noreset \
    > "$UD/xvfb.log" 2>&1 < /dev/null &
  XPID=$!
  record xvfb "$XPID"
  wait_x_ready "$XPID"

  # 2. the program (own session)
  profile_start_novnc_app

  # 3. x11vnc + websockify (noVNC)
  setsid x11vnc -display ":$D" -localhost -rfbport "$UVNC" -shared -forever -nopw \
    -norc -quiet > "$UD/x11vnc.log" 2>&1 < /dev/null &
  local vpid=$! wpid deadline webroot=$NOVNC_DIR f
  record x11vnc "$vpid"
  deadline=$((SECONDS + 15))
  until port_open "$UVNC"; do
    alive "$vpid" || fail "x11vnc exited (port $UVNC in use?)"
    [ $SECONDS -lt $deadline ] || fail "x11vnc not listening on $UVNC after 15 s"
    sleep 0.2
    check_stop
  done

  if [ "$LOSSLESS" = 1 ]; then
    # web root = links to the noVNC files + a vnc_lite.html that filters the
    # encodings noVNC offers (drops Tight 7, TightPNG -260, JPEG quality levels
    # -32..-23), leaving CopyRect/Hextile/RRE/Raw: all lossless.
    webroot=$UD/web
    mkdir -p "$webroot"
    for f in "$NOVNC_DIR"/*; do
      [ "$(basename "$f")" = vnc_lite.html ] || ln -s "$f" "$webroot/$(basename "$f")"
    done
    awk '{ print }
         /import RFB from .\.\/core\/rfb\.js./ && !done {
           print "        const scClientEncodings = RFB.messages.clientEncodings;"
           print "        RFB.messages.clientEncodings = (sock, encs) => scClientEncodings(sock,"
           print "            encs.filter(e => e !== 7 && e !== -260 && !(e >= -32 && e <= -23)));"
           done = 1 }' "$NOVNC_DIR/vnc_lite.html" > "$webroot/vnc_lite.html"
    grep -q scClientEncodings "$webroot/vnc_lite.html" || fail "--lossless: could not patch $NOVNC_DIR/vnc_lite.html (noVNC version?)"
  fi
  setsid websockify --web "$webroot" "127.0.0.1:$UWEB" "127.0.0.1:$UVNC" \
    > "$UD/websockify.log" 2>&1 < /dev/null &
  wpid=$!
  record websockify "$wpid"
  deadline=$((SECONDS + 15))
  until http_ok "$UWEB" /vnc_lite.html 2>/dev/null; do
    alive "$wpid" || fail "websockify exited (port $UWEB in use?)"
    [ $SECONDS -lt $deadline ] || fail "websockify not serving $UURL after 15 s"
    sleep 0.2
    check_stop
  done

  # 4. the program ready, read from the root window
  CAPTURE_WIN=root
  profile_wait_ready
}

# shell-quote for xpra's --start (split with Python's shlex)
shq() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

XPRA_PID=
# A copy of xpra's web root (symlinks followed) in $1 with the double wheel
# handling fixed and no server notifications; fails when a file does not
# look as expected.
www_fix() {
  local dst=$1
  rm -rf "$dst"
  cp -rL "$XPRA_WWW" "$dst" 2>/dev/null || fail "cannot copy the xpra client from $XPRA_WWW"
  [ "$(grep -c 'function on_mousescroll(e) {$' "$dst/js/Window.js")" = 1 ] &&
    sed -i '/function on_mousescroll(e) {$/a\		e.stopPropagation();  /* stepcheck rig: once, not also on #screen */' \
      "$dst/js/Window.js" &&
    grep -q 'stepcheck rig: once' "$dst/js/Window.js" ||
    fail "xpra's Window.js has no wheel listener where 3.1.3 has it: cannot fix the double wheel"
  # The client offers the server notifications in its hello, and the server
  # sends its own whatever --notifications says: under load, "Network
  # Performance Issue" (id 2^24+1, after 10 late frames in 10 s; again after
  # 60 s). The client shows it in a 600 px wide box at the page's top right
  # (css/client.css .notifications: right 0, top 96 px, z-index 10001, above
  # every window) until its timer has counted the server's 10000 (ms) down
  # in seconds: for the rest of the session. It covers JOSM's layer list: a
  # click on the layer's eye lands on the notification, and the client
  # sends nothing (docs/reliability.md, "Clicks without effect through
  # Xpra"). The copy's hello says no, so the server sends none.
  [ "$(grep -cE '^\s*"notifications"\s*: true,$' "$dst/js/Client.js")" = 1 ] &&
    sed -i -E 's|^(\s*"notifications"\s*: )true,$|\1false,  /* stepcheck rig: no box over the window */|' \
      "$dst/js/Client.js" &&
    grep -q 'stepcheck rig: no box' "$dst/js/Client.js" ||
    fail "xpra's Client.js has no notifications capability where 3.1.3 has it: cannot turn off notifications"
}

start_xpra() {
  mkdir -p "$UD/xpra-conf" "$UD/xpra-sock" "$UD/run"
  chmod 700 "$UD/run" "$UD/xpra-sock"
  # /etc/xpra/conf.d/60_server.conf adds `start = /etc/X11/Xsession true`,
  # whose xmessage (dbus errors) becomes a second window on the page; the
  # per-user config (read after the system one) empties the start list.
  echo "start =" > "$UD/xpra-conf/xpra.conf"
  # The HTML5 client of xpra 3.1.3 handles every wheel event twice: Window.js
  # listens on the window's div and Client.js on #screen, its parent, and
  # nothing stops the event between them, so one browser wheel notch sends X
  # two button clicks (JOSM zooms x4 per notch instead of x2: stepcheck's
  # zoom-in reads x0.0157 for x0.1250). A real user's mouse does the same.
  # The rig serves a copy of the client whose window listener stops the
  # event (xpra's --html takes a web root); the stock client is untouched.
  # The copy also asks the server for no notifications (see www_fix).
  www_fix "$UD/www"
  # XPRA_PEEK_TIMEOUT_MS: xpra gives a new TCP connection 1 s to send its
  # first bytes, else takes it for its own protocol and drops it when the
  # HTTP request comes. Under load Chromium's requests (and its idle
  # preconnects) came later: client.css was lost, the page measured a 0 px
  # high desktop, and xpra refused the session (AssertionError in
  # calculate_workarea): no canvas, 4 pages of 9 with 3 users at load 13.
  # The X screen is PROFILE_XPRA_TOP px taller than --size: the client
  # centres a window at (0, 0) in the first browser's viewport (and keeps
  # that place for every later browser), but leaves one elsewhere where it
  # is. JOSM's profile puts its window at (0, 31), so the canvas is at page
  # (1, 31) under the client's 30 px title bar whatever the viewport (>= W+2
  # x H+32); a program placed at y >= 31 (-geometry +0+31) gets the same.
  setsid env HOME="$UD/home" XDG_RUNTIME_DIR="$UD/run" XPRA_USER_CONF_DIRS="$UD/xpra-conf" \
    XPRA_PEEK_TIMEOUT_MS=15000 \
    xpra start ":$D" --socket-dir="$UD/xpra-sock" --socket-dirs="$UD/xpra-sock" \
    --bind-tcp="127.0.0.1:$UWEB" --html="$UD/www" --daemon=no --mdns=no --pulseaudio=no \
    --notifications=no --webcam=no --speaker=off --microphone=off --clipboard=no \
    --printing=no --file-transfer=no --systemd-run=no --dbus-launch=no \
    --dbus-control=no --dbus-proxy=no --opengl=no --resize-display=no \
    --encodings=rgb,png --video-encoders=none --video-scaling=off \
    --terminate-children=yes --exit-with-children=no \
    --xvfb="Xvfb +extension Composite -screen 0 ${WIDTH}x$((HEIGHT + PROFILE_XPRA_TOP))x24+32 -nolisten tcp -noreset" \
    --start="$(profile_xpra_start)" \
    > "$UD/xpra.log" 2>&1 < /dev/null &
  local xp=$! deadline xvfb=
  XPRA_PID=$xp
  record xpra "$xp"

  # its Xvfb (own session, started by xpra) and the program (in xpra's group)
  deadline=$((SECONDS + 30))
  until [ -n "$xvfb" ]; do
    alive "$xp" || fail "xpra exited (display or port $UWEB in use? see xpra.log)"
    [ $SECONDS -lt $deadline ] || fail "xpra started no Xvfb within 30 s"
    sleep 0.2
    check_stop
    xvfb=$(child_of "$xp" Xvfb | head -n 1)
  done
  record xvfb "$xvfb"
  wait_x_ready "$xvfb"
  until profile_xpra_find_app "$xp"; do
    alive "$xp" || fail "xpra exited before starting $PROFILE_APP_NAME (see xpra.log)"
    [ $SECONDS -lt $deadline ] || fail "xpra started no $PROFILE_APP_NAME within 30 s"
    sleep 0.2
    check_stop
  done
  until http_ok "$UWEB" /index.html 2>/dev/null; do
    alive "$xp" || fail "xpra exited (port $UWEB in use?)"
    [ $SECONDS -lt $deadline ] || fail "xpra not serving $UURL after 30 s"
    sleep 0.2
    check_stop
  done

  CAPTURE_WIN=
  profile_wait_ready || return 1
  alive "$xp" || fail "xpra exited (see xpra.log)"
}

start_user() { # user
  user_vars "$1"
  [ "$USERS" = 1 ] || UPFX="user $U: "
  # SIGINT stays ignored here (an asynchronous list): the parent has it
  trap 'STOPPING=1' TERM HUP
  # the program's own HOME and TMPDIR, so what it leaves goes with the state dir
  mkdir -p "$UD/home" "$UD/tmp"
  {
    echo "display=$D"
    echo "transport=$TRANSPORT"
    echo "web_port=$UWEB"
    [ "$TRANSPORT" = novnc ] && echo "vnc_port=$UVNC"
    echo "url=$UURL"
  } > "$UD/user.state"
  : > "$PIDS"
  profile_prepare_user
  if [ "$TRANSPORT" = novnc ]; then start_novnc; else profile_start_xpra; fi
  # the X window that shows the program (root on novnc), for readers of the state
  echo "capture_win=$CAPTURE_WIN" >> "$UD/user.state"
  if [ "$USERS" = 1 ]; then
    say "$PROFILE_READY_WORDS $((SECONDS - T0)) s after start; display :$D, state $STATE"
  else
    say "${UPFX}$PROFILE_READY_WORDS $((SECONDS - T0)) s after start; display :$D"
  fi
  exit 0
}

# ---------------------------------------------------------------- all users
profile_prepare_all

for ((u = 1; u <= USERS; u++)); do
  start_user "$u" &
  STARTERS[$!]=$u
done
left=$USERS
while [ $left -gt 0 ]; do
  done_pid=
  wait -n -p done_pid "${!STARTERS[@]}"
  rc=$?
  [ -n "$done_pid" ] || continue
  u=${STARTERS[$done_pid]}
  unset "STARTERS[$done_pid]"
  if [ $rc != 0 ]; then
    [ "$USERS" = 1 ] || say "user $u did not start; stopping every user"
    exit 1
  fi
  left=$((left - 1))
done

OK=1
trap - EXIT INT TERM HUP
[ "$USERS" = 1 ] || say "$USERS users ready $((SECONDS - T0)) s after start ($TRANSPORT, displays :$DISPLAY_NUM..:$((DISPLAY_NUM + USERS - 1))), state $STATE"
for ((u = 1; u <= USERS; u++)); do
  user_vars "$u"
  printf '%s\n' "$UURL"
done
exit 0
