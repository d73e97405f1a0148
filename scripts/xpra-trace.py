#!/usr/bin/env python3
"""Record, for every user of a running examples/josm/rig.sh rig, what
reaches its X display and its Xpra server (docs/reliability.md, "Clicks
without effect through Xpra"):

  scripts/xpra-trace.py STATE OUT

STATE is the rig's state dir (rig.sh start --state); OUT a directory for
the records. Per user I (STATE/uI/user.state):
  OUT/uI-x.log     every pointer motion and button press/release the X
                   server delivered (`xinput test-xi2 --root`), one line
                   each, stamped with this machine's clock;
  OUT/uI-xpra.log  a copy of the user's xpra.log (`tail -F`: it survives
                   rig.sh stop, which removes the state dir), with the
                   server's mouse log switched on (`xpra control :D debug
                   enable mouse`, through the rig's home, runtime and
                   socket dirs): one line per pointer-position and
                   button-action packet, and each XTest motion and button.
Users that appear later (a rig still starting) are picked up once their
server says it is ready. Runs until
SIGTERM or SIGINT, or until STATE is gone; then stops what it started (by
pid) and exits 0. Needs xinput (scripts/deps.sh) and xpra."""
import os
import signal
import subprocess
import sys
import threading
import time

state, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
children = []
lock = threading.Lock()  # no child started once the stop began
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
signal.signal(signal.SIGINT, lambda *_: stop.set())


def stamp():
    t = time.time()
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) + ",%03d" % (t % 1 * 1000)


def condense(proc, path):
    """xinput test-xi2's blocks, one line each: motions and buttons."""
    keep = {"6": "motion", "4": "press", "5": "release"}
    with open(path, "w", buffering=1) as f:
        cur, t = None, None

        def flush():
            if cur and cur["type"] in keep:
                k = keep[cur["type"]]
                if k == "motion":
                    v = cur.get("val", {})
                    f.write("%s %s %s,%s\n" % (t, k, v.get("0", "?"), v.get("1", "?")))
                else:
                    f.write("%s %s %s at %s %s\n" % (t, k, cur.get("detail", "?"),
                                                     cur.get("root", "?"), cur.get("win", "")))
        for line in proc.stdout:
            s = line.strip()
            if s.startswith("EVENT type"):
                flush()
                cur, t = {"type": s.split()[2]}, stamp()
            elif cur is None:
                continue
            elif s.startswith("detail:"):
                cur["detail"] = s.split()[1]
            elif s.startswith("root:"):
                cur["root"] = s.split()[1].replace(".00", "").replace("/", ",")
            elif s.startswith("windows:"):
                cur["win"] = s.split("child")[-1].strip()
            elif ":" in s and s.split(":")[0].isdigit():
                cur.setdefault("val", {})[s.split(":")[0]] = s.split()[1].replace(".00", "")
        flush()


def xpra_env(ud):
    return dict(os.environ, HOME=ud + "/home", XDG_RUNTIME_DIR=ud + "/run",
                XPRA_USER_CONF_DIRS=ud + "/xpra-conf")


def user_state(ud):
    try:
        return dict(l.rstrip("\n").split("=", 1) for l in open(ud + "/user.state") if "=" in l)
    except OSError:
        return {}


def ready(ud):
    try:
        with open(ud + "/xpra.log", errors="replace") as f:
            return any("xpra is ready." in l for l in f)
    except OSError:
        return False


def trace_user(name, ud):
    disp = user_state(ud).get("display")
    # its X display and server up (no xpra command spawned before: each is
    # a Python start, and a starting rig is busy enough)
    while not stop.is_set() and not ready(ud):
        stop.wait(0.2)
    with lock:
        if stop.is_set():
            return
        x = subprocess.Popen(["stdbuf", "-oL", "xinput", "test-xi2", "--root"],
                             env=dict(os.environ, DISPLAY=":" + disp),
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        children.append(x)
        with open("%s/%s-xpra.log" % (out, name), "w") as f:
            children.append(subprocess.Popen(["tail", "-n", "+1", "-F", ud + "/xpra.log"],
                                             stdout=f, stderr=subprocess.DEVNULL))
    threading.Thread(target=condense, args=(x, "%s/%s-x.log" % (out, name)), daemon=True).start()
    # the server's mouse log: once its control socket answers
    while not stop.is_set():
        try:
            r = subprocess.run(["xpra", "control", ":" + disp, "debug", "enable", "mouse",
                                "--socket-dirs=" + ud + "/xpra-sock"], env=xpra_env(ud),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=15)
            if r.returncode == 0:
                break
        except subprocess.TimeoutExpired:
            pass
        stop.wait(0.5)


seen = set()
while not stop.is_set() and os.path.isdir(state):
    for name in sorted(os.listdir(state)):
        ud = os.path.join(state, name)
        if name in seen or not name.startswith("u") or not user_state(ud).get("display"):
            continue
        seen.add(name)
        threading.Thread(target=trace_user, args=(name, ud), daemon=True).start()
    stop.wait(0.2)
with lock:
    stop.set()
for c in children:
    c.terminate()
for c in children:
    try:
        c.wait(5)
    except subprocess.TimeoutExpired:
        c.kill()
        c.wait()
