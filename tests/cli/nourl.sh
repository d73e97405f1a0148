#!/usr/bin/env bash
# A scenario without "url": a run, inspect or cut that gives none fails at
# once (exit 2, one line saying neither gave one, no browser started); a run
# that gives --url runs it (the fixture map app, one cycle of its zooms,
# passes). validate accepts the file, reports a "note" of the wrong type and
# a text the glyph set cannot spell with line:column.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-nourl-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../util/tally.sh"
want='no URL to open: the scenario has no "url" and no --url was given'

python3 - "$fx/mapapp/seven-steps.json" "$tmp/nourl.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
del s["url"]
s["note"] = "no url: every run gives --url"
s["cycle"] = [dict(c, note="kept from seven-steps.json") for c in s["cycle"] if c["id"] in ("zoom-in", "zoom-out")]
json.dump(s, open(sys.argv[2], "w"), indent=1)
PY
cp "$fx"/mapapp/*.glyphs "$tmp/" 2>/dev/null
cp -r "$fx/mapapp/templates" "$tmp/" 2>/dev/null

if "$cli" validate "$tmp/nourl.json" >"$tmp/v.out" 2>&1 && grep -q ": ok (" "$tmp/v.out"; then ok; else
  bad "validate without url: $(cat "$tmp/v.out")"
fi
mkdir "$tmp/cut"
for cmd in "run $tmp/nourl.json" "inspect $tmp/nourl.json -o $tmp/x.png" "cut $tmp/nourl.json -o $tmp/cut a=1,1,4,4"; do
  t0=$SECONDS
  # shellcheck disable=SC2086
  "$cli" $cmd >"$tmp/o" 2>"$tmp/e"
  rc=$?
  if [ $rc = 2 ] && [ "$(wc -l < "$tmp/e")" = 1 ] && grep -qF "${cmd%% *}: $want" "$tmp/e" &&
     [ $((SECONDS - t0)) -le 2 ]; then ok; else
    bad "$cmd: exit $rc, want 2 and '${cmd%% *}: $want': $(cat "$tmp/e")"
  fi
done
"$cli" run "$tmp/nourl.json" --url "file://$fx/mapapp/index.html" --allow-url-scheme file \
  --cycles 1 --quiet >"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
if [ $rc = 0 ] && grep -q "^RESULT: PASS" "$tmp/run.out"; then ok; else
  bad "run --url: exit $rc: $(tail -n 3 "$tmp/run.out") $(tail -n 3 "$tmp/run.err")"
fi

# validate: line:column for a wrong note and an unspellable text
"$cli" validate "$fx/scenario/bad-note.json" >/dev/null 2>"$tmp/n.err"
rc=$?
[ $rc = 2 ] && grep -q 'bad-note.json:4:11: "note" is a comment: a string or an array of strings' "$tmp/n.err" &&
  ok || bad "validate bad-note.json: exit $rc: $(cat "$tmp/n.err")"
"$cli" validate "$fx/scenario/bad-text-spell.json" >/dev/null 2>"$tmp/t.err"
rc=$?
[ $rc = 2 ] && grep -qF 'bad-text-spell.json:11:46: cycle[0] "zoom-in": expect[1]: glyph set "../mapapp/scalebar.glyphs" cannot spell "0.3 km": it has no glyph for "3"' "$tmp/t.err" &&
  ok || bad "validate bad-text-spell.json: exit $rc: $(cat "$tmp/t.err")"

tally nourl
