#!/usr/bin/env python3
"""Run a load generator and measure it from outside: its process tree's PSS
every second, its own CPU and its whole tree's CPU over its life.

    bench/treestat.py --out FILE.json [--interval 1.0] -- CMD [ARG]...

The same measurement for every tool bench/multi.sh compares (stepcheck, node
+ playwright-core), so the comparison does not rest on a tool's own report.

- This process is a child subreaper (prctl PR_SET_CHILD_SUBREAPER): whatever
  the tool's tree orphans comes to it and is still counted and stopped.
- PSS: every INTERVAL, Pss from /proc/PID/smaps_rollup summed over every
  descendant of this process (the tool, its browsers, their zygotes and
  renderers, orphans); the tool's own Pss alone too; and the tree's
  Pss_Anon + Pss_Shmem (no file pages). Peaks are reported.
- CPU of the tool alone: utime+stime read from /proc/PID/stat while the tool
  is a zombie (waitid WNOWAIT), so it is exact to the tick and covers the
  tool's whole life. CPU of the tree: RUSAGE_CHILDREN of this process after
  the tool and every orphan are reaped (a process's CPU reaches its reaper
  through each wait along the chain; what the chain did not wait for was
  reparented here and is waited for here).
- The --user-data-dir of every browser seen (profile_dirs), so the caller
  can check that the tool removed them.
- TERM/INT: TERM to the tool (stepcheck and the peer stop their browsers on
  it), then after 10 s KILL to every descendant; the same for descendants
  still alive 5 s after the tool exited (listed under "leftovers").
Exit status: the tool's (128+signal when killed by one).
"""
import argparse
import ctypes
import json
import os
import resource
import signal
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
TICK_MS = 1000.0 / os.sysconf('SC_CLK_TCK')


def proc_table():
    """{pid: ppid} for every live process."""
    out = {}
    for d in os.listdir('/proc'):
        if not d.isdigit():
            continue
        try:
            with open(f'/proc/{d}/stat') as f:
                st = f.read()
        except OSError:
            continue
        out[int(d)] = int(st[st.rindex(')') + 2:].split()[1])
    return out


def descendants(root):
    table = proc_table()
    kids = {}
    for p, pp in table.items():
        kids.setdefault(pp, []).append(p)
    out, stack = [], list(kids.get(root, []))
    while stack:
        p = stack.pop()
        out.append(p)
        stack.extend(kids.get(p, []))
    return out


def profile_dir(pid):
    try:
        with open(f'/proc/{pid}/cmdline', 'rb') as f:
            args = f.read().decode(errors='replace').split('\0')
    except OSError:
        return None
    for x in args:
        if x.startswith('--user-data-dir='):
            return x.split('=', 1)[1]
    return None


def pss_kib(pid):
    """(Pss, Pss_Anon + Pss_Shmem) of pid in KiB. The second leaves out
    file pages (the browser binary, libraries), whose share depends on
    what else on the machine maps the same files."""
    pss = own = 0
    try:
        with open(f'/proc/{pid}/smaps_rollup') as f:
            for line in f:
                if line.startswith('Pss:'):
                    pss = int(line.split()[1])
                elif line.startswith(('Pss_Anon:', 'Pss_Shmem:')):
                    own += int(line.split()[1])
    except OSError:
        pass
    return pss, own


def cpu_ms(pid):
    """utime+stime of pid alone (also readable while it is a zombie)."""
    with open(f'/proc/{pid}/stat') as f:
        st = f.read()
    fld = st[st.rindex(')') + 2:].split()
    return (int(fld[11]) + int(fld[12])) * TICK_MS


def children_cpu_ms():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r.ru_utime + r.ru_stime) * 1000.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', required=True)
    ap.add_argument('--interval', type=float, default=1.0)
    ap.add_argument('cmd', nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd[:1] == ['--'] else a.cmd
    if not cmd:
        ap.error('no command')
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit('treestat: prctl(PR_SET_CHILD_SUBREAPER) failed')

    stop = {'at': None}
    tool = None

    def on_signal(sig, _frame):
        if stop['at'] is None:
            stop['at'] = time.monotonic()
            try:
                if tool:
                    os.kill(tool, signal.SIGTERM)
            except ProcessLookupError:
                pass
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    cpu0 = children_cpu_ms()
    t0 = time.monotonic()
    tool = os.posix_spawnp(cmd[0], cmd, os.environ)
    samples, tool_cpu, status, ended = [], None, None, None
    next_sample = t0 + a.interval
    leftovers = []
    profiles = set()

    def reap():
        """Reap orphans; on the tool's exit read its CPU first, then reap it."""
        nonlocal tool_cpu, status, ended
        while True:
            try:
                info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return
            if info is None:
                return
            if info.si_pid == tool:
                tool_cpu = cpu_ms(tool)
                ended = time.monotonic()
                _, st = os.waitpid(tool, 0)
                status = os.waitstatus_to_exitcode(st)
            else:
                os.waitpid(info.si_pid, 0)

    while status is None:
        reap()
        now = time.monotonic()
        if status is None and now >= next_sample:
            pids = descendants(os.getpid())
            profiles.update(d for d in map(profile_dir, pids) if d)
            each = [pss_kib(p) for p in pids]
            tool_pss = pss_kib(tool)
            samples.append({'t_s': round(now - t0, 3), 'pss_kib': sum(x[0] for x in each),
                            'anon_kib': sum(x[1] for x in each), 'tool_pss_kib': tool_pss[0],
                            'tool_anon_kib': tool_pss[1], 'procs': len(pids)})
            next_sample += a.interval
            if next_sample < now:
                next_sample = now + a.interval
        if stop['at'] is not None and now - stop['at'] > 10:
            for p in descendants(os.getpid()):
                try:
                    os.kill(p, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        time.sleep(0.05)

    # The tool is gone: what it left behind gets 5 s to go, then is stopped.
    deadline = time.monotonic() + 5
    while True:
        reap()
        left = descendants(os.getpid())
        if not left:
            break
        if time.monotonic() >= deadline:
            for p in left:
                try:
                    with open(f'/proc/{p}/cmdline', 'rb') as f:
                        leftovers.append({'pid': p, 'cmd': f.read().replace(b'\0', b' ').decode(errors='replace')[:200]})
                except OSError:
                    pass
                for sig in (signal.SIGTERM, signal.SIGKILL):
                    try:
                        os.kill(p, sig)
                    except ProcessLookupError:
                        pass
            time.sleep(0.2)
            reap()
            break
        time.sleep(0.1)
    tree_cpu = children_cpu_ms() - cpu0
    out = {
        'cmd': cmd, 'exit': status, 'wall_s': round(ended - t0, 3),
        'tool_cpu_ms': round(tool_cpu, 1), 'tree_cpu_ms': round(tree_cpu, 1),
        'peak_pss_kib': max((s['pss_kib'] for s in samples), default=0),
        'peak_tool_pss_kib': max((s['tool_pss_kib'] for s in samples), default=0),
        'peak_anon_kib': max((s['anon_kib'] for s in samples), default=0),
        'interval_s': a.interval, 'samples': samples, 'leftovers': leftovers,
        'profile_dirs': sorted(profiles),
    }
    with open(a.out, 'w') as f:
        json.dump(out, f, indent=1)
    sys.exit(status if status >= 0 else 128 - status)


if __name__ == '__main__':
    main()
