#!/usr/bin/env python3
"""A copy of examples/josm/josm.json for an e2e test: its templates by
absolute path (the copy lives in the test's temp dir) and its cycle cut to
the steps named, in that order, each optionally with its settle floor.

    josm_cycle.py SRC DST STEP[:SETTLE_MS]...
"""
import json
import os
import sys

if len(sys.argv) < 4:
    sys.exit("usage: josm_cycle.py SRC DST STEP[:SETTLE_MS]...")
src, dst = sys.argv[1], sys.argv[2]
s = json.load(open(src))
d = os.path.dirname(os.path.abspath(src))
for p in list(s["points"].values()) + list(s["regions"].values()):
    if isinstance(p, dict) and "template" in p:
        p["template"] = os.path.join(d, p["template"])
steps = {st["id"]: st for st in s["cycle"]}
cycle = []
for arg in sys.argv[3:]:
    name, _, settle = arg.partition(":")
    if name not in steps:
        sys.exit(f"josm_cycle.py: {src}: no step '{name}' in the cycle")
    st = dict(steps[name])
    if settle:
        st["settle_ms"] = int(settle)
    cycle.append(st)
s["cycle"] = cycle
json.dump(s, open(dst, "w"), indent=1)
