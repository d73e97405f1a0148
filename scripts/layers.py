#!/usr/bin/env python3
"""The layer rule, checked (docs/design.md, "Layers").

The layer order is read from the diagram in docs/design.md (top = highest),
so the diagram and the includes cannot drift apart. For every
`#include "..."` in lib/:
  - a header of another folder (`x/name.h`) must belong to a lower layer,
    and must not be private (`*_priv.h` is for its own folder only);
  - a public header (`stepcheck/name.h`) counts as its owner's layer
    (OWNERS below), so a lower layer cannot reach an upper one through it.
Prints one line per violation (FILE:LINE: ...) and exits 1 if any.
Usage: scripts/layers.py [ROOT]"""
import os
import re
import sys

OWNERS = {  # public header -> the layer that implements it
    "common.h": "core", "loop.h": "cdp", "browser.h": "browser", "grid.h": "browser",
    "image.h": "image", "text.h": "text", "page.h": "page",
    "scenario.h": "scenario", "builder.h": "scenario", "run.h": "run",
    "multi.h": "run", "load.h": "run", "inspect.h": "run", "report.h": "report",
}


def layer_order(root):
    text = open(os.path.join(root, "docs/design.md")).read()
    block = text.split("## Layers", 1)[1].split("```")[1]
    order = re.findall(r"^lib/([a-z]+)/", block, re.M)
    return {name: len(order) - i for i, name in enumerate(order)}  # higher = upper


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    rank = layer_order(root)
    bad = []
    libdir = os.path.join(root, "lib")
    folders = sorted(d for d in os.listdir(libdir) if os.path.isdir(os.path.join(libdir, d)))
    for d in folders:
        if d not in rank:
            bad.append("lib/%s: a folder the diagram in docs/design.md does not list" % d)
    for d in folders:
        for f in sorted(os.listdir(os.path.join(libdir, d))):
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(libdir, d, f)
            for n, line in enumerate(open(path, encoding="utf-8"), 1):
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not m:
                    continue
                inc = m.group(1)
                where = "lib/%s/%s:%d" % (d, f, n)
                parts = inc.split("/")
                if len(parts) != 2:
                    continue  # same-folder include
                folder, name = parts
                if folder == "stepcheck":
                    owner = OWNERS.get(name)
                    if owner is None:
                        bad.append("%s: public header %s has no owner in scripts/layers.py" % (where, inc))
                    elif owner != d and rank.get(owner, 0) > rank.get(d, 0):
                        bad.append("%s: includes %s (layer %s, above %s)" % (where, inc, owner, d))
                    continue
                if folder == d:
                    continue
                if name.endswith("_priv.h"):
                    bad.append("%s: includes %s, private to lib/%s" % (where, inc, folder))
                elif rank.get(folder, 0) > rank.get(d, 0):
                    bad.append("%s: includes %s (layer %s, above %s)" % (where, inc, folder, d))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
