#!/usr/bin/env python3
"""Seed the fuzz corpora from the repository's real inputs (run once from the
repository root; scripts/fuzz.sh then grows and minimises them). Writes into
tests/fuzz/corpus/<name>/seed-* (and keep-*): CDP transcripts (fixtures/cdp), screenshot
replies of Chromium's exact shape, PNG fixtures, scenario fixtures and
examples, glyph sets, and scale-bar crops (fixtures/text) in the text
target's image format. Needs ImageMagick's `convert` for the crops."""
import base64, glob, json, os, struct, subprocess, sys, zlib

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
out = os.path.join(root, "tests/fuzz/corpus")


def put(name, tag, data, prefix="seed-"):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, prefix + tag), "wb") as f:
        f.write(data)


def compact(o):
    return json.dumps(o, separators=(",", ":")).encode()


# cdp: flags byte, then one message (or control line) per line.
for path in sorted(glob.glob(os.path.join(root, "fixtures/cdp/*.jsonl"))):
    ins = [compact(json.loads(l)["msg"]) for l in open(path) if l.startswith('{"dir":"in"')]
    tag = os.path.basename(path)[:-6]
    put("cdp", tag, b"\x00" + b"\n".join(ins))
    # cdp_rx: the same messages NUL-framed (pipe), and as websocket frames.
    put("cdp_rx", "pipe-" + tag, b"\x0c\xff" + b"\x00".join(ins) + b"\x00")
    frames = b""
    for m in ins[:6]:
        for i in range(0, len(m), 200):
            part = m[i:i + 200]
            final = 1 if i + 200 >= len(m) else 0
            frames += bytes([len(part), final | 2]) + part
    put("cdp_rx", "ws-" + tag, b"\x1c\x3f" + frames)
shot = base64.b64encode(bytes(range(256)) * 16)  # > 4096 bytes: the fast path
# keep-*: valid JSON on the fast path, which fuzz_cdp's check against
# jansson needs; scripts/fuzz.sh never drops them from the corpus.
put("cdp", "screenshot-session",
    b"\x02\n" + b'{"id":2,"result":{"data":"' + shot + b'"},"sessionId":"S1"}', "keep-")
put("cdp", "screenshot-browser", b"\x02\n" + b'{"id":2,"result":{"data":"' + shot + b'"}}', "keep-")
put("cdp", "screenshot-escaped",
    b"\x02\n" + b'{"id":2,"result":{"data":"' + shot + b'\\u0041"},"sessionId":"S1"}')
put("cdp", "oversized", b"\x12\n" + b'{"id":2,"result":{"data":"' + shot[:600] + b'"}}' + b"\n!o{\"id\":1,")
put("cdp", "events", b"\x0b\n" + b"\n".join([
    compact({"method": "Target.attachedToTarget",
             "params": {"sessionId": "S1", "targetInfo": {"targetId": "T1"}}}),
    compact({"id": 1, "result": {"sessionId": "S2"}}),
    b"!sS1", b"!t\x10",
    compact({"method": "Target.targetCrashed", "params": {"targetId": "T1"}}),
    compact({"method": "Inspector.targetCrashed", "params": {}, "sessionId": "S2"}),
    compact({"method": "Target.detachedFromTarget", "params": {"sessionId": "S1"}}),
    compact({"id": 3, "error": {"code": -32602, "message": "bad", "data": "x"}}),
    compact({"id": 4}), b'{"id":"5"}', b"[1]", b"{}", b"{", b"!cbye"]))
big = compact({"id": 1, "result": {"data": "x" * 300}})
put("cdp_rx", "oversized-pipe", b"\x03\x40" + big + b"\x00" + compact({"id": 2, "result": {}}) + b"\x00")
put("cdp_rx", "oversized-ws", b"\x13\x40" + bytes([200, 2]) + big[:200] + bytes([len(big) - 200, 3]) + big[200:])

# png: flags byte (skip checksums, limits version 1, tight limits), then the file.
for path in sorted(glob.glob(os.path.join(root, "fixtures/png/*.png"))):
    tag = os.path.basename(path)[:-4]
    data = open(path, "rb").read()
    put("png", tag, b"\x00" + data)
    if tag in ("rgb", "interlaced", "badcrc", "palette"):
        put("png", tag + "-nocrc", b"\x01" + data)
        put("png", tag + "-tight-v1", b"\x06" + data)
for path in sorted(glob.glob(os.path.join(root, "fixtures/text/josm/m-hatch-1*.png")))[:3]:
    put("png", "crop-" + os.path.basename(path)[:-4], b"\x00" + open(path, "rb").read())



def png(w, h):
    """A valid w x h RGBA PNG (grey ramp)."""
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    raw = b"".join(b"\x00" + bytes((x * 4 + y) & 255 for x in range(w * 4)) for y in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


# keep-*: valid files just past each tight limit (64 x 64, 8 KiB), which
# fuzz_png's limit check needs; and the same within the loose limits.
put("png", "tight-over-bytes-64x40", b"\x04" + png(64, 40), "keep-")
put("png", "tight-over-width-65x1", b"\x04" + png(65, 1), "keep-")
put("png", "loose-64x40", b"\x00" + png(64, 40), "keep-")

# scenario: the fixtures (bad and valid) and the examples.
for path in sorted(glob.glob(os.path.join(root, "fixtures/scenario/*.json")) +
                   glob.glob(os.path.join(root, "examples/*/*.json")) +
                   glob.glob(os.path.join(root, "fixtures/mapapp/*.json"))):
    data = open(path, "rb").read()
    if len(data) <= 16384:
        put("scenario", os.path.basename(path)[:-5], data)

# glyphset: the shipped sets and a minimal one.
for path in [os.path.join(root, "data/glyphs/josm-scalebar.glyphs"),
             os.path.join(root, "fixtures/mapapp/scalebar.glyphs")]:
    put("glyphset", os.path.basename(os.path.dirname(path)), open(path, "rb").read())
put("glyphset", "minimal", b"stepcheck-glyphs 1\r\nink ffffff\ntolerance 0\nspace 2\ngaps -1 -1\n"
    b"glyph ft 2 3 3\n##\n#.\n.#\nglyph . 1 1 1\n#\n")


# text: [w-1][h-1][flags][rx][ry][rw][rh] then pixels (1 bit each, or grey bytes).
def crop(path, grey, region=None):
    size = subprocess.run(["identify", "-format", "%w %h", path], check=True,
                          capture_output=True).stdout.split()
    w, h = int(size[0]), int(size[1])
    rgb = subprocess.run(["convert", path, "-depth", "8", "rgb:-"], check=True,
                         capture_output=True).stdout
    flags = 1 if grey else 0
    hdr = [w - 1, h - 1, flags, 0, 0, 0, 0]
    if region:
        hdr[2] |= 2
        hdr[3:7] = [v & 255 for v in region]
    if grey:
        px = bytes(min(rgb[i:i + 3]) for i in range(0, len(rgb), 3))
    else:
        bits = bytearray((w * h + 7) // 8)
        for i in range(w * h):
            if min(rgb[3 * i:3 * i + 3]) >= 207:
                bits[i // 8] |= 1 << (i % 8)
        px = bytes(bits)
    return bytes(hdr) + px


text = sorted(glob.glob(os.path.join(root, "fixtures/text/josm/*.png")))
for path in text[::6]:
    put("text", os.path.basename(path)[:-4], crop(path, False))
put("text", "grey-vnc-lossy", crop(os.path.join(root, "fixtures/text/josm/vnc-lossy-54.0NM.png"), True))
put("text", "region-m-hatch-100m",
    crop(os.path.join(root, "fixtures/text/josm/m-hatch-100m.png"), False, (-5, 10, 150, 30)))
print("seeds written under", out, file=sys.stderr)
