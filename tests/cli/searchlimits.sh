#!/usr/bin/env bash
# A template search is bounded and interruptible (issue 25 item 3; real
# Chromium, the fixture map app): a 250x250 noise template searched at
# score 0.5 over the whole guest (the kind that took 219 s) is stopped by
# SIGTERM at once in `run` (exit 3, "interrupted", report written, within
# 2 s of the signal while the search is under way), ends by itself with
# its CPU-time limit in `inspect` (exit 1, a message naming the limit, the
# picture written, not looked for again), and a template over 256x256 is
# refused by `validate` with its position.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-searchlimits-XXXXXX)
runpid=""
cleanup() {
  [ -n "$runpid" ] && kill -KILL "$runpid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../util/tally.sh"
url="file://$fx/mapapp/index.html"
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# Noise PNGs (RGBA, 8 bit) without any imaging package.
python3 - "$tmp" <<'PY'
import random, struct, sys, zlib
def png(path, w, h, seed):
    r = random.Random(seed)
    raw = b"".join(b"\0" + bytes(r.randrange(256) if i % 4 != 3 else 255 for i in range(w * 4))
                   for _ in range(h))
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
png(sys.argv[1] + "/slow.png", 250, 250, 1)
png(sys.argv[1] + "/big.png", 300, 300, 2)
PY
scenario() { # template -> stdout
  sed -e "s|\"building_a\": {\"template\": \"templates/house94.png\", \"within\": \"map\"}|\"building_a\": {\"template\": \"$1\", \"score\": 0.5}|" \
    "$fx/mapapp/locators.json"
}
cp -r "$fx/mapapp/templates" "$fx"/mapapp/*.glyphs "$tmp/"
scenario "$tmp/slow.png" >"$tmp/slow.json"
scenario "$tmp/big.png" >"$tmp/big.json"
grep -q slow.png "$tmp/slow.json" || bad "the scenario was not rewritten"

# CPU seconds (clock ticks) the process has used.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }

# run: SIGTERM while the search runs (the CLI, which otherwise waits on
# its browser, has used 0.15 s of CPU: it is searching).
"$cli" run "$tmp/slow.json" --url "$url" --allow-url-scheme file --report "$tmp/rep" \
  >"$tmp/run.out" 2>"$tmp/run.err" &
runpid=$!
busy=0
for _ in $(seq 1 600); do
  kill -0 "$runpid" 2>/dev/null || break
  [ "$(ticks "$runpid")" -ge 15 ] && { busy=1; break; }
  sleep 0.02
done
t0=$(now_ms)
kill -TERM "$runpid"
wait "$runpid"
rc=$?
runpid=""
took=$(($(now_ms) - t0))
if [ "$busy" -eq 1 ] && [ "$rc" -eq 3 ] && [ "$took" -lt 2000 ] && grep -q "interrupted" "$tmp/run.err" &&
   ! grep -q "took more than" "$tmp/run.err" && [ -s "$tmp/rep/report.json" ]; then
  ok
else
  bad "run: SIGTERM in a search: busy $busy, exit $rc after $took ms"
  cat "$tmp/run.err"
fi

# inspect: the time limit ends the search; not looked for again.
t0=$(now_ms)
"$cli" inspect "$tmp/slow.json" --url "$url" --allow-url-scheme file -o "$tmp/slow-inspect.png" \
  >"$tmp/inspect.out" 2>"$tmp/inspect.err"
rc=$?
took=$(($(now_ms) - t0))
if [ "$rc" -eq 1 ] && grep -q "building_a.*took more than 5000 ms of CPU" "$tmp/inspect.err" &&
   [ "$took" -lt 30000 ] && [ -s "$tmp/slow-inspect.png" ]; then
  ok
else
  bad "inspect: exit $rc after $took ms"
  cat "$tmp/inspect.err"
fi

# validate: a template over the size bound, with its position.
out=$("$cli" validate "$tmp/big.json" 2>&1)
rc=$?
if [ "$rc" -eq 2 ] && echo "$out" | grep -Eq 'big.json:[0-9]+:[0-9]+: .*\(300x300\) is larger than 65536 pixels'; then
  ok
else
  bad "validate big template: exit $rc: $out"
fi

tally searchlimits
