// Shared by the peer benchmarks: launch Debian chromium through playwright-core
// with the flags stepcheck's launcher uses (lib/browser/launch.c), parse
// "--key value" arguments, statistics, and the CPU time of a process tree.
'use strict';
const fs = require('fs');
const { chromium } = require('playwright-core');

const FLAGS = [
  '--disable-gpu',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
  '--force-color-profile=srgb',
  '--hide-scrollbars',
  '--disable-quic',
  '--mute-audio',
  '--disable-extensions',
  '--disable-features=Translate,MediaRouter,OptimizationHints',
  '--password-store=basic',
];

// executablePath: the browser binary; default $SC_CHROMIUM, else Debian's.
async function launch(executablePath) {
  const args = FLAGS.slice();
  if (process.getuid && process.getuid() === 0) args.push('--no-sandbox');
  // headless: playwright adds --headless itself; never downloads a browser
  // when executablePath is given.
  return chromium.launch({
    executablePath: executablePath || process.env.SC_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args,
  });
}

function parseArgs(argv, defaults) {
  const o = Object.assign({}, defaults);
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (!k.startsWith('--') || i + 1 >= argv.length) throw new Error(`bad argument ${k}`);
    const name = k.slice(2).replace(/-/g, '_');
    if (!(name in o)) throw new Error(`unknown option ${k}`);
    const v = argv[++i];
    o[name] = typeof defaults[name] === 'number' ? Number(v) : v;
  }
  return o;
}

// Median (mean of the middle two for even n) and p95 by nearest rank, as the
// C benchmarks compute them.
function stats(v) {
  const s = v.slice().sort((a, b) => a - b);
  const n = s.length;
  if (!n) return { median: NaN, p95: NaN, min: NaN, max: NaN };
  const median = n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  const r = Math.max(1, Math.ceil(0.95 * n));
  return { median, p95: s[r - 1], min: s[0], max: s[n - 1] };
}

// user+sys CPU ms of pid and all its descendants (live ones; exited children
// that were waited for are in cutime/cstime of their parent).
const TICK_MS = 10; // sysconf(_SC_CLK_TCK) is 100 on Linux
function treeCpuMs(root) {
  const kids = new Map();
  const cpu = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let st;
    try { st = fs.readFileSync(`/proc/${d}/stat`, 'utf8'); } catch (e) { continue; }
    const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(f[1]);
    // fields after the command: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14)
    cpu.set(Number(d), (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_MS);
    if (!kids.has(ppid)) kids.set(ppid, []);
    kids.get(ppid).push(Number(d));
  }
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const p = stack.pop();
    total += cpu.get(p) || 0;
    for (const k of kids.get(p) || []) stack.push(k);
  }
  return total;
}

// Pids of this node process's children (the browser playwright launched).
function childPids() {
  const out = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const st = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      if (Number(f[1]) === process.pid) out.push(Number(d));
    } catch (e) { /* gone */ }
  }
  return out;
}

// bench/run.sh stops what it started even when a benchmark dies: the
// browser's pid (playwright starts it in its own process group) goes to
// $BENCH_PIDFILE.
function notePids() {
  if (process.env.BENCH_PIDFILE)
    for (const p of childPids()) fs.appendFileSync(process.env.BENCH_PIDFILE, `${p}\n`);
}

const fmt = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'nan');

module.exports = { launch, notePids, parseArgs, stats, treeCpuMs, childPids, fmt, FLAGS };
