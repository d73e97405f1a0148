#!/usr/bin/env bash
# docs/scenario.md and `validate` agree on the keys: every key the docs
# list (top-level table, `input`, `defaults`, the step table and actions,
# the expectation kinds' rows, the locator forms) is put in its place in a
# valid scenario and `validate` does not call it unknown; and every key in
# the loader's key lists (lib/scenario/*.c, what `validate` accepts) is
# named in the docs.
set -uo pipefail
cli=${SC_CLI:?}
fx=${SC_FIXTURES:?}
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d /tmp/sc-dockeys-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cp -r "$fx/mapapp/templates" "$fx"/mapapp/*.glyphs "$tmp/"
python3 - "$cli" "$src" "$tmp" <<'PY'
import json, re, subprocess, sys
cli, src, tmp = sys.argv[1:4]
doc = open(src + "/docs/scenario.md").read()
base = json.load(open(src + "/fixtures/mapapp/locators.json"))
fails = []

def validate(scn, key):
    path = tmp + "/k.json"
    json.dump(scn, open(path, "w"))
    p = subprocess.run([cli, "validate", path], capture_output=True, text=True)
    if 'unknown key "%s"' % key in p.stderr:
        fails.append("documented key %r is refused: %s" % (key, p.stderr.strip()))
    return p

def section(title):
    return doc.split(title, 1)[1]

def table_rows(text):
    rows = []
    for line in text.splitlines():
        if not line.startswith("|"):
            if rows: break
            continue
        rows.append([c.strip() for c in line.strip("|").split("|")])
    return rows[2:]

documented = set()
# top level
for row in table_rows("| key |" + doc.split("| key | type | default | meaning |", 1)[1]):
    m = re.fullmatch(r"`([a-z_]+)`", row[0])
    if m:
        k = m.group(1); documented.add(k)
        s = json.loads(json.dumps(base)); s[k] = s.get(k, 1)
        validate(s, k)
# input and defaults: the keys in their paragraphs
for obj in ("input", "defaults"):
    para = doc.split("`%s`: " % obj, 1)[1].split("\n\n", 1)[0]
    for k in re.findall(r"`([a-z_]+)` \(", para):
        documented.add(k)
        s = json.loads(json.dumps(base)); s.setdefault(obj, {})[k] = 1
        validate(s, k)
# steps: the table and the actions
steps = section("## Steps")
for row in table_rows("| key |" + steps.split("| key | type | default | meaning |", 1)[1]):
    m = re.fullmatch(r"`([a-z_]+)`", row[0])
    if m:
        k = m.group(1); documented.add(k)
        s = json.loads(json.dumps(base)); s["cycle"][0][k] = s["cycle"][0].get(k, 1)
        validate(s, k)
for action, obj in (("wheel", {"at": "map_centre", "notches": 1}), ("key", {"key": "a", "repeat": 1, "at": "map_centre"})):
    for k in obj:
        documented.add(k)
        s = json.loads(json.dumps(base)); step = s["cycle"][0]
        for a in ("click", "wheel", "key", "move", "none"): step.pop(a, None)
        step[action] = obj
        validate(s, k)
# expectations: each kind with every key of its row
exp = section("## Expectations")
for row in table_rows("| kind |" + exp.split("| kind | keys (default) | passes when |", 1)[1]):
    kind = re.fullmatch(r"`([a-z_]+)`", row[0]).group(1)
    documented.add(kind)
    for k in re.findall(r"`([a-z_]+)`", row[1]):
        documented.add(k)
        s = json.loads(json.dumps(base))
        s["cycle"][0]["expect"] = [{kind: "map", k: 1}]
        validate(s, k)
# locators: every quoted key of every form, in a point or region locator
loc = section("## Locators")
for row in table_rows("| form |" + loc.split("| form | for | found as |", 1)[1]):
    keys = re.findall(r'"([a-z_]+)"', row[0])
    kind = keys[0]
    for k in keys:
        documented.add(k)
        s = json.loads(json.dumps(base))
        l = {"template": "templates/eye.png", "text": "X", "glyphs": "ui.glyphs",
             "from": "park", "between": ["park", "map_centre"], "centre": "map", "quiet": "map"}
        one = {kind: l[kind]}
        one[k] = one.get(k, 1)
        (s["regions"] if row[1] == "region" else s["points"])["it"] = one
        validate(s, k)
# validate -> docs: every key in the loader's lists is named in the docs
accepted = set()
for f in ("top.c", "step.c", "expect.c", "locators.c"):
    text = open(src + "/lib/scenario/" + f).read()
    text = text.replace("TOL,", '"threshold", "max_pixels", "max_ratio",')
    for arr in re.findall(r"static const char \*const \w+\[\] = \{([^}]*)\}", text):
        accepted.update(re.findall(r'"([a-z_]+)"', arr))
    for m in re.findall(r'\{"([a-z_]+)", SC_EXPECT_', text):
        accepted.add(m)
for k in sorted(accepted):
    if not re.search(r'[`"]%s[`"]' % re.escape(k), doc):
        fails.append("key %r is accepted by validate but not in docs/scenario.md" % k)
if len(documented) < 60:
    fails.append("only %d documented keys found: the parser lost the tables" % len(documented))
for f in fails: print("FAIL", f)
print("dockeys: %d documented keys checked, %d accepted keys, %d failed" % (len(documented), len(accepted), len(fails)))
sys.exit(1 if fails else 0)
PY
