#!/usr/bin/env python3
"""Deterministic OSM test map for the JOSM rig (python3 stdlib only, no network).

An N x N street grid (one highway=residential way per row and per column of
nodes) with closed building ways (building=yes, addr:housenumber) inside the
blocks; <bounds> is the first element. Positive ids with version="1", so JOSM
loads the data as unmodified; upload="never" so JOSM never offers an upload.

Same arguments -> byte-identical output (no randomness, no clock, fixed
number formatting).

  gen-osm.py [-n 24] [--per-row 9] [--spacing-m 45] [--lat 51.0] [--lon 7.0]
             [--tag N:KEY=VALUE]... [-o FILE]

Defaults: 24x24 street nodes (23x23 blocks), 9 buildings in every block row,
about 170 KB.
"""
import argparse
import math
import sys


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", "--size", type=int, default=24,
                    help="street nodes per side (default 24)")
    ap.add_argument("--per-row", type=int, default=9,
                    help="buildings per block row (default 9, at most size-1)")
    ap.add_argument("--spacing-m", type=float, default=45.0,
                    help="street spacing in metres (default 45)")
    ap.add_argument("--lat", type=float, default=51.0,
                    help="latitude of the south-west corner (default 51.0)")
    ap.add_argument("--lon", type=float, default=7.0,
                    help="longitude of the south-west corner (default 7.0)")
    ap.add_argument("--tag", action="append", default=None, metavar="N:KEY=VALUE",
                    help="add a tag to building N (repeatable); default: "
                         "93:amenity=cafe and 96:amenity=pharmacy, the two "
                         "buildings examples/josm/josm.json finds by their "
                         "icons; --tag none for plain buildings only")
    ap.add_argument("-o", "--output", default="-",
                    help="output file (default stdout)")
    a = ap.parse_args(argv)
    n = a.size
    blocks = n - 1
    if n < 2 or n > 1000:
        ap.error("--size must be 2..1000")
    if a.per_row < 0 or a.per_row > blocks:
        ap.error("--per-row must be 0..size-1")

    extra = {}
    for t in (a.tag if a.tag is not None else ["93:amenity=cafe", "96:amenity=pharmacy"]):
        if t == "none":
            continue
        num, _, kv = t.partition(":")
        k, _, v = kv.partition("=")
        if not num.isdigit() or not k or not v:
            ap.error("--tag must be N:KEY=VALUE (got %r)" % t)
        extra.setdefault(int(num), []).append((k, v))

    dlat = a.spacing_m / 111320.0
    dlon = a.spacing_m / (111320.0 * math.cos(math.radians(a.lat)))

    def lat(v):  # v in block units from the south edge
        return "%.7f" % (a.lat + v * dlat)

    def lon(u):  # u in block units from the west edge
        return "%.7f" % (a.lon + u * dlon)

    out = []
    w = out.append
    w('<?xml version="1.0" encoding="UTF-8"?>\n')
    w('<osm version="0.6" generator="stepcheck gen-osm.py" upload="never">\n')
    w('  <bounds minlat="%s" minlon="%s" maxlat="%s" maxlon="%s"/>\n'
      % (lat(-0.5), lon(-0.5), lat(blocks + 0.5), lon(blocks + 0.5)))

    next_id = [1]

    def new_id():
        i = next_id[0]
        next_id[0] += 1
        return i

    # Street nodes, row-major from the south-west corner.
    grid = [[0] * n for _ in range(n)]
    for r in range(n):
        for c in range(n):
            i = new_id()
            grid[r][c] = i
            w('  <node id="%d" version="1" lat="%s" lon="%s"/>\n' % (i, lat(r), lon(c)))

    # Buildings: per block row r, per_row blocks chosen by a fixed formula;
    # size and position inside the block vary deterministically.
    buildings = []  # (way id, [node ids], housenumber)
    house = 1
    for r in range(blocks):
        cols = sorted(((k * blocks) // a.per_row + r * 7) % blocks
                      for k in range(a.per_row)) if a.per_row else []
        for k, c in enumerate(cols):
            h = (r * 31 + c * 17 + k * 5) % 7          # 0..6 variation
            bw = 0.46 + 0.04 * (h % 4)                  # width 0.46..0.58 of block
            bh = 0.40 + 0.05 * (h % 3)                  # height 0.40..0.50
            x0 = c + 0.5 - bw / 2 + 0.02 * ((h % 3) - 1)
            y0 = r + 0.5 - bh / 2 + 0.02 * ((h % 2) * 2 - 1)
            corners = [(x0, y0), (x0 + bw, y0), (x0 + bw, y0 + bh), (x0, y0 + bh)]
            ids = []
            for (u, v) in corners:
                i = new_id()
                ids.append(i)
                w('  <node id="%d" version="1" lat="%s" lon="%s"/>\n' % (i, lat(v), lon(u)))
            buildings.append((ids, house))
            house += 1

    # Street ways: one per row, one per column.
    for r in range(n):
        i = new_id()
        w('  <way id="%d" version="1">\n' % i)
        for c in range(n):
            w('    <nd ref="%d"/>\n' % grid[r][c])
        w('    <tag k="highway" v="residential"/>\n')
        w('    <tag k="name" v="Row Street %d"/>\n' % (r + 1))
        w('  </way>\n')
    for c in range(n):
        i = new_id()
        w('  <way id="%d" version="1">\n' % i)
        for r in range(n):
            w('    <nd ref="%d"/>\n' % grid[r][c])
        w('    <tag k="highway" v="residential"/>\n')
        w('    <tag k="name" v="Column Street %d"/>\n' % (c + 1))
        w('  </way>\n')

    # Building ways (closed: first node repeated).
    for ids, hn in buildings:
        i = new_id()
        w('  <way id="%d" version="1">\n' % i)
        for nid in ids + ids[:1]:
            w('    <nd ref="%d"/>\n' % nid)
        w('    <tag k="building" v="yes"/>\n')
        w('    <tag k="addr:housenumber" v="%d"/>\n' % hn)
        for k, v in extra.get(hn, []):
            w('    <tag k="%s" v="%s"/>\n' % (k, v))
        w('  </way>\n')
    w('</osm>\n')

    data = "".join(out).encode("utf-8")
    if a.output == "-":
        sys.stdout.buffer.write(data)
    else:
        with open(a.output, "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
