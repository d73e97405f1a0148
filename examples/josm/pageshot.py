#!/usr/bin/env python3
"""Screenshot a whole page in headless Chromium and list its canvases.

  pageshot.py URL -o OUT.png [--viewport 1920x1120] [--wait 20] [--stay 0]
              [--ready FILE] [--chromium chromium]

`stepcheck capture` shows the canvas it picked; this shows everything around
it: the whole viewport as PNG, and on stdout one JSON object with every
<canvas> (page rectangle, backing size, visible or not) and every element a
remote-desktop client draws around it (xpra's window title bars
`.windowhead`, noVNC's status bar `#noVNC_status_bar`/`#top_bar`).
It waits until the page has at least one canvas and the list has not changed
for 2 s (at most --wait seconds), creates --ready FILE if given, then stays
--stay more seconds connected.

python3 stdlib only (a minimal CDP client over a raw WebSocket). The browser
runs in its own session with a temporary profile; both go away at the end,
the browser by its pid.
"""
import argparse
import base64
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request

GEOMETRY_JS = r"""
(() => {
  const r = e => { const b = e.getBoundingClientRect();
    return {x: b.x, y: b.y, w: b.width, h: b.height}; };
  const shown = e => { const s = getComputedStyle(e);
    return s.display !== 'none' && s.visibility !== 'hidden' && e.getClientRects().length > 0; };
  return JSON.stringify({
    viewport: {w: innerWidth, h: innerHeight},
    canvases: [...document.querySelectorAll('canvas')].map(c => Object.assign(
      {id: c.id || null, width: c.width, height: c.height, visible: shown(c)}, r(c))),
    chrome: [...document.querySelectorAll(
        '.windowhead, #float_menu, #progress, #noVNC_status_bar, #top_bar, #noVNC_status')]
      .filter(shown).map(e => Object.assign(
        {what: e.id || e.className, text: e.innerText.trim().slice(0, 60)}, r(e))),
  });
})()
"""


class Cdp:
    """One WebSocket to one CDP target; call() waits for its reply."""

    def __init__(self, ws_url):
        host_port, path = ws_url[len("ws://"):].split("/", 1)
        host, port = host_port.split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise OSError("CDP handshake: connection closed")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise OSError("CDP handshake refused: " + head.split(b"\r\n")[0].decode())
        self.next_id = 0

    def _recv_exact(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise OSError("CDP connection closed")
            buf += chunk
        return buf

    def _recv_message(self):
        data = b""
        while True:
            b0, b1 = self._recv_exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._recv_exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._recv_exact(8))[0]
            payload = self._recv_exact(n)
            if b0 & 0x0F in (0x9, 0xA):  # ping/pong: not ours to answer here
                continue
            data += payload
            if b0 & 0x80:
                return data.decode()

    def call(self, method, **params):
        self.next_id += 1
        msg = json.dumps({"id": self.next_id, "method": method, "params": params}).encode()
        mask = os.urandom(4)
        n = len(msg)
        if n < 126:
            head = struct.pack(">BB", 0x81, 0x80 | n)
        elif n < 65536:
            head = struct.pack(">BBH", 0x81, 0x80 | 126, n)
        else:
            head = struct.pack(">BBQ", 0x81, 0x80 | 127, n)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(msg)))
        while True:
            reply = json.loads(self._recv_message())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise OSError(f"{method}: {reply['error']}")
                return reply["result"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("url")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--viewport", default="1920x1120")
    ap.add_argument("--wait", type=float, default=20.0)
    ap.add_argument("--stay", type=float, default=0.0)
    ap.add_argument("--ready", default=None)
    ap.add_argument("--chromium", default="chromium")
    a = ap.parse_args()
    w, h = (int(v) for v in a.viewport.split("x"))

    profile = tempfile.mkdtemp(prefix="sc-pageshot-")
    browser = subprocess.Popen(
        [a.chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--user-data-dir=" + profile, "--remote-debugging-port=0",
         f"--window-size={w},{h}", "about:blank"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    try:
        port_file = os.path.join(profile, "DevToolsActivePort")
        deadline = time.time() + 30
        while not (os.path.exists(port_file) and open(port_file).read().count("\n") >= 1):
            if time.time() > deadline or browser.poll() is not None:
                raise SystemExit("pageshot: chromium did not start")
            time.sleep(0.1)
        port = open(port_file).read().split("\n")[0]
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = Cdp(next(t for t in targets if t["type"] == "page")["webSocketDebuggerUrl"])
        page.call("Emulation.setDeviceMetricsOverride", width=w, height=h,
                  deviceScaleFactor=1, mobile=False)
        page.call("Page.navigate", url=a.url)
        deadline = time.time() + a.wait
        last, since = None, time.time()
        while time.time() < deadline:
            geo = page.call("Runtime.evaluate", expression=GEOMETRY_JS)["result"]["value"]
            if geo != last:
                last, since = geo, time.time()
            elif json.loads(geo)["canvases"] and time.time() - since >= 2:
                break
            time.sleep(0.5)
        if a.ready:
            open(a.ready, "w").close()
        time.sleep(a.stay)
        geo = page.call("Runtime.evaluate", expression=GEOMETRY_JS)["result"]["value"]
        shot = page.call("Page.captureScreenshot", format="png")["data"]
        with open(a.output, "wb") as f:
            f.write(base64.b64decode(shot))
        print(json.dumps(json.loads(geo), indent=1))
    finally:
        try:
            os.killpg(browser.pid, signal.SIGTERM)
            browser.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(browser.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            browser.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
