// Summary of bench/josm.sh's three tools side by side: stepcheck with the
// paint log (steps.txt), stepcheck with --rest pairs (steps-pairs.txt) and
// the playwright-core peer (steps-peer.txt), each with its treestat record
// (NAME.stat.json), and the goals of the paint-log issue, MET / NOT MET:
//   - screenshots per verified step with the paint log <= 1.4 (every
//     Page.captureScreenshot of the run over the verified cycle steps);
//   - browser CPU per verified step with the paint log <= 0.55 x pairs';
//   - verified median with the paint log <= the peer's on every step id.
// Browser CPU per verified step is given two ways: "run" is the program's
// own reading of the browser tree over the steps (bench_steps.c, steps.js;
// launch and page load left out), "life" is treestat's tree CPU less the
// driver process's over the whole life of the program (launch included).
// With josm.sh --floor's runs (steps-floor-none.txt, steps-floor-one.txt:
// the peer's gestures unverified, with no screenshot / one per step), also
// what each rule costs above the floor every driver pays:
// (rule - none) / (pairs - none), and the paint log over the one-screenshot
// floor.
//
//   node restsum.js DIR
'use strict';
const fs = require('fs');
const path = require('path');
const { linesByCase } = require('./toolline');

const dir = process.argv[2];
if (!dir) { console.error('usage: node restsum.js DIR'); process.exit(2); }
const TOOLS = [['steps', 'paint log'], ['steps-pairs', 'pairs'], ['steps-peer', 'peer']];
const FLOORS = [['steps-floor-none', 'floor none'], ['steps-floor-one', 'floor one']]
  .filter(([name]) => fs.existsSync(path.join(dir, `${name}.txt`)));

const lines = (name) => linesByCase(path.join(dir, `${name}.txt`));
const readJson = (f) => { try { return JSON.parse(fs.readFileSync(f, 'utf8')); } catch (e) { return null; } };
const num = (x) => (x === undefined ? NaN : Number(x));
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');
const pad = (s, n) => String(s).padEnd(n);

const T = {};
for (const [name, label] of TOOLS.concat(FLOORS)) {
  const rows = lines(name), all = rows.all || {};
  const st = readJson(path.join(dir, `${name}.stat.json`));
  const verified = num(all.verified);
  T[name] = {
    label, rows, all, verified,
    shots: num(all.screenshots_per_step),
    runCpu: num(all.browser_cpu_ms_per_step),
    lifeCpu: st && verified > 0 ? (st.tree_cpu_ms - st.tool_cpu_ms) / verified : NaN,
    driverCpu: st && verified > 0 ? st.tool_cpu_ms / verified : NaN,
    wall: st ? st.wall_s : NaN,
  };
}
const log = T.steps, pairs = T['steps-pairs'], peer = T['steps-peer'];

console.log('\nPer step id (verified = first input -> the capture that passed, median ms; first / last paint = the');
console.log("paint log's first and last paint over the step's regions, median ms: no verdict on the final screen can");
console.log('come before the last; shots = screenshots sent per step, mean)');
console.log(pad('step', 12) + pad('log pass', 10) + pad('log verified', 13) + pad('first paint', 12) + pad('last paint', 11) +
  pad('log shots', 10) +
  pad('pairs pass', 11) + pad('pairs verified', 15) + pad('pairs shots', 12) + pad('peer pass', 10) + pad('peer verified', 14) +
  pad('peer shots', 11) + 'log <= peer');
const ids = Object.keys(log.rows).filter((c) => c.startsWith('step:'));
let idsMet = 0;
const before = []; // ids not met whose peer median came before the app's last paint
const missed = [];
for (const c of ids) {
  const a = log.rows[c], b = pairs.rows[c] || {}, p = peer.rows[c] || {};
  const ok = num(a.verified_median_ms) <= num(p.verified_median_ms);
  idsMet += ok;
  if (!ok) {
    missed.push(c.slice(5));
    if (num(p.verified_median_ms) < num(a.last_paint_median_ms))
      before.push(`${c.slice(5)} ${f1(num(p.verified_median_ms))} < ${f1(num(a.last_paint_median_ms))}`);
  }
  console.log(pad(c.slice(5), 12) + pad(`${a.pass}/${a.n}`, 10) + pad(f1(num(a.verified_median_ms)), 13) +
    pad(f1(num(a.first_paint_median_ms)), 12) + pad(f1(num(a.last_paint_median_ms)), 11) + pad(f2(num(a.shots_mean)), 10) +
    pad(b.n ? `${b.pass}/${b.n}` : '-', 11) + pad(f1(num(b.verified_median_ms)), 15) + pad(f2(num(b.shots_mean)), 12) +
    pad(p.n ? `${p.pass}/${p.n}` : '-', 10) + pad(f1(num(p.verified_median_ms)), 14) + pad(f2(num(p.shots_mean)), 11) +
    (ok ? 'yes' : 'NO'));
}

console.log('\nPer verified step (run = browser tree over the steps, read by the program; life = treestat: tree less driver,');
console.log('launch included; driver = the driver process over its life)');
console.log(pad('tool', 11) + pad('verified', 10) + pad('median', 9) + pad('rest by log', 12) + pad('screenshots', 12) +
  pad('browser run', 12) + pad('browser life', 13) + pad('driver', 8) + 'wall s');
for (const [name] of TOOLS.concat(FLOORS)) {
  const t = T[name];
  console.log(pad(t.label, 11) + pad(`${t.all.pass || '-'}/${t.all.n || '-'}`, 10) + pad(f1(num(t.all.verified_median_ms)), 9) +
    pad(t.all.paint_log === undefined ? '-' : t.all.paint_log, 12) + pad(f2(t.shots), 12) + pad(f1(t.runCpu), 12) +
    pad(f1(t.lifeCpu), 13) + pad(f1(t.driverCpu), 8) + f1(t.wall));
}

const mark = (ok) => (ok ? 'MET' : 'NOT MET');
const rRun = log.runCpu / pairs.runCpu, rLife = log.lifeCpu / pairs.lifeCpu;
console.log('\nGoals (paint log):');
console.log(`  screenshots per verified step ${f2(log.shots)} <= 1.4: ${mark(log.shots <= 1.4)}`);
console.log(`  browser CPU per verified step <= 0.55 x pairs': run ${f1(log.runCpu)} / ${f1(pairs.runCpu)} = ${f2(rRun)}: ` +
  `${mark(rRun <= 0.55)}; life ${f1(log.lifeCpu)} / ${f1(pairs.lifeCpu)} = ${f2(rLife)}: ${mark(rLife <= 0.55)}`);
console.log(`  verified median <= the peer's on every step id: ${idsMet} of ${ids.length}: ${mark(ids.length > 0 && idsMet === ids.length)}`);
if (missed.length)
  console.log(`    not met: ${missed.join(', ')}; the peer's median verdict came before the application's median last paint` +
    ` (a frame it then painted over) on ${before.length} of ${missed.length}${before.length ? ': ' + before.join(', ') : ''}`);

if (FLOORS.length === 2) {
  const none = T['steps-floor-none'], one = T['steps-floor-one'];
  const above = (t, k) => (t[k] - none[k]) / (pairs[k] - none[k]);
  console.log('\nAbove the floor (the peer\'s gestures unverified: none = no screenshot, one = one per step):');
  console.log(`  paint log over pairs, above none: run ${f2(above(log, 'runCpu'))}, life ${f2(above(log, 'lifeCpu'))}`);
  console.log(`  paint log over the one-screenshot floor: run ${f1(log.runCpu)} / ${f1(one.runCpu)} = ${f2(log.runCpu / one.runCpu)}, ` +
    `life ${f1(log.lifeCpu)} / ${f1(one.lifeCpu)} = ${f2(log.lifeCpu / one.lifeCpu)}`);
}
