#!/usr/bin/env bash
# Reports on a disk that refuses them (real Chromium, the fixture map app):
# a read-only report dir and a full disk each give one line on stderr per
# report file not written (report.json, report.html) naming it and the
# reason, exit 3, and the run's verdict is
# still on stdout; failure images that could not be written are named in
# the step's reason. As root the disks are small tmpfs mounts (read-only,
# and 64 KiB filled up); without root, a dir without write permission (and
# no full disk).
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-reportdisk-XXXXXX)
mounts=()
cleanup() {
  for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
  chmod -R u+w "$tmp" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../util/tally.sh"
url="file://$fx/mapapp/index.html"
scn="$fx/mapapp/seven-steps.json"

# A tmpfs of $2 at $1 (root only); 0 when mounted.
small_fs() {
  mkdir -p "$1" && [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o "size=$2,mode=0755" tmpfs "$1" 2>/dev/null &&
    mounts+=("$1")
}

# $1 name: the run's exit, one error line for each report file of --report
# DIR $2 that was not written, with reason $3 (report.json always,
# report.html unless it could be written), and nothing else; the verdict $4 on
# stdout; nothing half-written left; no crash.
expect_report_error() {
  local name=$1 dir=$2 why=$3 verdict=$4 rc f want=0 lines=0 left=""
  rc=$(cat "$tmp/$name.rc")
  for f in report.json report.html; do
    [ "$f" = report.html ] && [ -s "$dir/$f" ] && continue
    want=$((want + 1))
    lines=$((lines + $(grep -c "^stepcheck: report: $dir/$f: not written: .*: $why\$" "$tmp/$name.err")))
    [ -e "$dir/$f" ] || [ -e "$dir/$f.tmp" ] && left="$left $f"
  done
  if [ "$rc" -eq 3 ] && [ "$lines" -eq "$want" ] && [ "$(grep -c '^stepcheck: ' "$tmp/$name.err")" -eq "$want" ] &&
     grep -q "^RESULT: $verdict" "$tmp/$name.out" && [ -z "$left" ]; then ok; else
    bad "$name: exit $rc, $lines of $want error lines naming files of $dir ($why), left:$left, verdict $verdict?"
    cat "$tmp/$name.err"; tail -3 "$tmp/$name.out"
  fi
}

run() { # name args...
  local name=$1; shift
  "$cli" run "$scn" --url "$url" --allow-url-scheme file --quiet "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  echo $? >"$tmp/$name.rc"
}

# --- a report dir that cannot be made: refused before anything runs
: >"$tmp/afile"
"$cli" run "$scn" --url "$url" --allow-url-scheme file --report "$tmp/afile/sub" >"$tmp/mk.out" 2>"$tmp/mk.err"
rc=$?
if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/mk.err")" -eq 1 ] &&
   grep -q "^stepcheck: run: --report $tmp/afile/sub: Not a directory$" "$tmp/mk.err"; then ok; else
  bad "uncreatable --report: exit $rc"; cat "$tmp/mk.err"
fi

# --- the table's stdout full: one line naming it, exit 3, report.json
# still written with the verdict
"$cli" run "$scn" --url "$url" --allow-url-scheme file --quiet --cycles 1 --report "$tmp/sf" >/dev/full 2>"$tmp/stdout-full.err"
rc=$?
if [ "$rc" -eq 3 ] && [ "$(grep -c '^stepcheck: ' "$tmp/stdout-full.err")" -eq 1 ] &&
   grep -q "^stepcheck: stdout: report table: write failed: No space left on device$" "$tmp/stdout-full.err" &&
   python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['result'] == 'PASS'" "$tmp/sf/report.json"; then
  ok
else
  bad "stdout full: exit $rc"; cat "$tmp/stdout-full.err"
fi

# --- a read-only report dir
ro=$tmp/ro
if small_fs "$ro" 64k; then
  mkdir "$ro/r" && mount -o remount,ro "$ro" || bad "remount read-only"
else
  mkdir -p "$ro/r" && chmod 555 "$ro/r"
fi
run ro --cycles 1 --report "$ro/r"
expect_report_error ro "$ro/r" "Read-only file system\|Permission denied" "PASS"
# the load path: the same error for its report, the verdict still printed
"$cli" run "$scn" --url "$url" --allow-url-scheme file --quiet --users 2 --cycles 1 --warmup 0 --report "$ro/r" \
  >"$tmp/ro-load.out" 2>"$tmp/ro-load.err"
echo $? >"$tmp/ro-load.rc"
expect_report_error ro-load "$ro/r" "Read-only file system\|Permission denied" "PASS"

# --- a full disk: reports, and failure images of steps that fail
# (as root only: a link to /dev/full at report.json.tmp, the way without
# root until 0.3.0, is no longer written through, issue 25)
full=$tmp/full
if small_fs "$full" 64k; then
  mkdir "$full/r"
  dd if=/dev/zero of="$full/fill" bs=4k count=64 2>/dev/null # until ENOSPC
  run full --cycles 1 --report "$full/r"
  expect_report_error full "$full/r" "No space left on device" "PASS"
else
  echo "reportdisk: full disk not tried: it needs root for a small tmpfs (the unit test a_full_disk_names_the_report covers the writers)"
  mkdir -p "$full/r"
fi

# Steps that fail (the app ignores clicks; 1.5 s timeouts): each failure's
# images cannot be written, and its reason says so in the table and in a
# JSON report written elsewhere; report.html cannot be written into the
# full dir either, so the exit is 3 with one line naming it.
python3 - "$scn" "$tmp/fast.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["defaults"]["timeout_ms"] = 1500
s["cycle"] = s["cycle"][:2]
json.dump(s, open(sys.argv[2], "w"))
PY
if [ "${#mounts[@]}" -gt 0 ]; then
  "$cli" run "$tmp/fast.json" --url "$url?ignore-clicks" --allow-url-scheme file --quiet --cycles 1 --report "$full/r" \
    --report-json "$tmp/fail.json" >"$tmp/fail.out" 2>"$tmp/fail.err"
  rc=$?
  n=$(grep -c "failure images not written: .*No space left on device" "$tmp/fail.out")
  if [ "$rc" -eq 3 ] && [ "$n" -eq 2 ] && grep -q "^RESULT: VOID 2 of 3" "$tmp/fail.out" &&
     [ "$(grep -c '^stepcheck: ' "$tmp/fail.err")" -eq 1 ] &&
     grep -q "^stepcheck: report: $full/r/report.html: not written: .*: No space left on device\$" "$tmp/fail.err" &&
     python3 - "$tmp/fail.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
failed = [x for x in r["results"] if not x["passed"]]
assert len(failed) == 2, failed
for x in failed:
    assert x["artifacts"] == [], x["artifacts"]
    assert "3 of 3 failure images not written" in x["reason"], x["reason"]
PY
  then ok; else
    bad "failure images on a full disk: exit $rc, $n reasons say so"; cat "$tmp/fail.err" "$tmp/fail.out"
  fi
else
  echo "skip: failure images on a full disk (needs root for a small tmpfs)"
fi

tally cli-reportdisk
