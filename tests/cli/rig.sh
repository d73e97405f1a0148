#!/usr/bin/env bash
# examples/rig/rig.sh, the rig for any X11 program, with programs that are not
# JOSM (ImageMagick's `display` showing a many-coloured plasma, and x11-apps'
# xlogo), both transports: start prints the page's URL, `stepcheck capture`
# through that URL gives a non-blank picture equal, pixel for pixel, to an
# `import` of the X display (the root window on noVNC; on xpra the window the
# state names, since xpra's root shows nothing); stop leaves no recorded
# process (nor a descendant), no state dir, no X lock or socket, no port
# listening. Sabotages: the same noVNC rig with --lossy (stock vnc_lite.html:
# Tight with JPEG) must fail the equality check, so the check can see a lossy
# copy; a --ready that never holds fails start within its timeout with one
# error line naming the test and leaves nothing running; bad --ready values
# exit 2 before anything starts. Displays SC_CLI_RIG_DISPLAY (default 181)
# and the next one.
set -uo pipefail
cli=${SC_CLI:?}
src=${SC_SOURCE_DIR:?}
rig="$src/examples/rig/rig.sh"
d1=${SC_CLI_RIG_DISPLAY:-181}
d2=$((d1 + 1))
tmp=$(mktemp -d /tmp/sc-rig-XXXXXX)
cleanup() {
  local s
  for s in "$tmp"/state*; do [ -d "$s" ] && bash "$rig" stop --state "$s" >/dev/null 2>&1; done
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../util/tally.sh"
export TMPDIR=$tmp   # the rig's failure screenshot and logs go here

for t in Xvfb x11vnc websockify xpra xlogo display import xwininfo; do
  command -v "$t" >/dev/null || { echo "rig: '$t' missing (scripts/deps.sh installs it)"; exit 1; }
done
for d in $d1 $d2; do
  [ ! -e "/tmp/.X$d-lock" ] || { echo "rig: display :$d in use; set SC_CLI_RIG_DISPLAY"; exit 1; }
done
convert -size 400x300 -seed 7 plasma:fractal "$tmp/plasma.png" || exit 1

# snapshot STATE: every recorded process and its descendants, "pid:starttime"
snapshot() {
  python3 - "$1/u1/pids" <<'PY'
import os, sys
want = [l.split() for l in open(sys.argv[1]) if l.strip()]
info, kids = {}, {}
for d in os.listdir("/proc"):
    if d.isdigit():
        try:
            s = open("/proc/%s/stat" % d).read()
        except OSError:
            continue
        f = s[s.rindex(")") + 2:].split()
        info[int(d)] = f[19]
        kids.setdefault(int(f[1]), []).append(int(d))
todo = [int(p) for _, p, st in want if info.get(int(p)) == st]
seen = []
while todo:
    p = todo.pop()
    if p not in seen:
        seen.append(p)
        todo += kids.get(p, [])
print(" ".join("%d:%s" % (p, info[p]) for p in seen))
PY
}
# left DISPLAY PORTS SNAPSHOT STATE: what is still there, one line each
left() {
  local d=$1 ports=$2 snap=$3 state=$4 m p st
  for m in $snap; do
    p=${m%:*}
    st=$(awk '{ sub(/.*\) /, ""); if ($1 != "Z") print $20 }' "/proc/$p/stat" 2>/dev/null)
    [ "$st" = "${m#*:}" ] && echo "pid $p ($(cat "/proc/$p/comm" 2>/dev/null)) still running"
  done
  [ ! -e "$state" ] || echo "state dir $state still there"
  [ ! -e "/tmp/.X$d-lock" ] || echo "X lock /tmp/.X$d-lock still there"
  [ ! -e "/tmp/.X11-unix/X$d" ] || echo "X socket of :$d still there"
  for p in $ports; do
    [ -z "$(ss -Hltn "sport = :$p" 2>/dev/null)" ] || echo "port $p still listening"
  done
  # anything at all still on the display or in the state dir (read only)
  ps -eo pid=,args= | grep -E -- "(:$d( |$)|$state)" | grep -v -e grep -e "$rig stop" | sed 's/^/process: /'
}

# one_rig NAME TRANSPORT DISPLAY WANT(equal|differ) APP [rig options...]
one_rig() {
  local name=$1 transport=$2 d=$3 want=$4 app=$5 state=$tmp/state-$1 url win shot ae ncol snap rest
  shift 5
  if ! url=$(bash "$rig" start --transport "$transport" --app "$app" --size 640x480 --display "$d" \
               --state "$state" --timeout 60 "$@" 2>"$tmp/$name.start.err"); then
    bad "$name: start failed: $(tail -n 3 "$tmp/$name.start.err")"
    return
  fi
  [ "$(printf '%s\n' "$url" | wc -l)" = 1 ] && [[ "$url" == http://127.0.0.1:$((6000 + d))/* ]] && ok ||
    bad "$name: start printed '$url', want one URL on port $((6000 + d))"
  win=$(sed -n 's/^capture_win=//p' "$state/u1/user.state")
  [ -n "$win" ] && ok || bad "$name: no capture_win in user.state"
  if "$cli" capture --url "$url" -o "$tmp/$name.png" --viewport 800x600 >"$tmp/$name.cap.out" 2>&1; then
    ok
  else
    bad "$name: stepcheck capture failed: $(tail -n 2 "$tmp/$name.cap.out")"
  fi
  DISPLAY=":$d" import -silent -window "$win" "$tmp/$name.x.png" 2>/dev/null || bad "$name: import failed"
  ncol=$(identify -format '%k' "$tmp/$name.png" 2>/dev/null)
  [ "${ncol:-0}" -ge 2 ] && ok || bad "$name: capture is blank ($ncol colours)"
  ae=$(compare -metric AE "$tmp/$name.png" "$tmp/$name.x.png" null: 2>&1)
  if [ "$want" = equal ]; then
    [ "$ae" = 0 ] && ok || bad "$name: capture differs from the X display by '$ae' px (want 0: lossless)"
  else
    [[ "$ae" =~ ^[0-9]+$ ]] && [ "$ae" -gt 0 ] && ok ||
      bad "$name (sabotage): capture equals the X display ('$ae'): the check cannot see a lossy copy"
  fi
  echo "$name: $ncol colours, $ae px differ from the X display ($(head -c 200 "$tmp/$name.cap.out"))"
  snap=$(snapshot "$state")
  [ -n "$snap" ] && ok || bad "$name: nothing recorded"
  if bash "$rig" stop --state "$state" 2>"$tmp/$name.stop.err"; then ok; else
    bad "$name: stop failed: $(cat "$tmp/$name.stop.err")"
  fi
  rest=$(left "$d" "$((6000 + d)) $((5900 + d))" "$snap" "$state")
  [ -z "$rest" ] && ok || bad "$name: after stop: $rest"
}

one_rig novnc novnc "$d1" equal "display -geometry +0+0 $tmp/plasma.png" \
  --ready 'title:^ImageMagick: plasma' --ready still:500
one_rig lossy novnc "$d1" differ "display -geometry +0+0 $tmp/plasma.png" \
  --ready 'title:^ImageMagick: plasma' --ready still:500 --lossy
one_rig xpra xpra "$d2" equal "display -geometry +0+31 $tmp/plasma.png" \
  --ready 'title:^ImageMagick: plasma' --ready still:500
one_rig xlogo novnc "$d1" equal "xlogo -geometry 300x200+0+0" --ready title:xlogo

# a --ready that never holds: start fails within its timeout (+ the start
# itself and the clean-up), one error line naming the test, nothing left
t0=$SECONDS
bash "$rig" start --app "xlogo -geometry 300x200+0+0" --size 640x480 --display "$d1" \
  --state "$tmp/state-never" --ready still:300 --ready 'title:^No such window$' --timeout 5 \
  >"$tmp/never.out" 2>"$tmp/never.err"
rc=$? took=$((SECONDS - t0))
if [ $rc = 1 ] && [ ! -s "$tmp/never.out" ] && [ $took -le 25 ] &&
   [ "$(grep -c 'error:' "$tmp/never.err")" = 1 ] &&
   grep -qF "error: not ready within 5 s (--ready title:^No such window\$): no viewable window's name matches /^No such window\$/" "$tmp/never.err"; then
  ok
else
  bad "never ready: exit $rc after $took s, want 1 within 25 s and one error line: $(cat "$tmp/never.err")"
fi
rest=$(left "$d1" "$((6000 + d1)) $((5900 + d1))" "" "$tmp/state-never")
[ -z "$rest" ] && ok || bad "never ready: left behind: $rest"

# bad --ready values and no --app: exit 2, one line, nothing started
for args in "--app xlogo --ready nope:1" "--app xlogo --ready still:5" "--app xlogo --ready title:(" "--ready title:x"; do
  # shellcheck disable=SC2086
  bash "$rig" start $args --display "$d1" --state "$tmp/state-bad" >/dev/null 2>"$tmp/bad.err"
  rc=$?
  if [ $rc = 2 ] && [ "$(wc -l < "$tmp/bad.err")" = 1 ] && [ ! -e "$tmp/state-bad" ]; then ok; else
    bad "start $args: exit $rc, want 2 with one line: $(cat "$tmp/bad.err")"
  fi
done

tally rig
