// Summary of bench/multi.sh: one table of every run (stepcheck and the two
// peers, per user count), stepcheck's search for the largest healthy count,
// and the goals, MET / NOT MET.
//
//   node multisum.js OUTDIR
//
// Reads OUTDIR/runs/TOOL-nN.stat.json (bench/treestat.py: PSS peaks, CPU)
// and TOOL-nN.report.json (stepcheck's report.json, or multi.js's), TOOL
// being stepcheck, pw-browsers (peer a) or pw-contexts (peer b).
//
// Definitions (the same for every tool):
// - gen PSS: peak over 1 s samples of the summed PSS of the driver process
//   and every process under it (browsers, zygotes, renderers);
// - per extra user: (gen PSS(N) - gen PSS(1)) / (N - 1), same tool; "anon"
//   the same from Pss_Anon + Pss_Shmem (file pages left out);
// - driver PSS: the driver process alone (stepcheck / node), its peak;
// - CPU per verified step: CPU over the process's whole life (launch,
//   warm-up, setup, cycles, shutdown) / every step verified in the run
//   (warm-up and the setup step "ready" included); "driver" = the driver
//   process alone, "+browsers" = its whole tree;
// - verified med/p95: verified_ms of the passed cycle steps of the N users
//   (setup and warm-up excluded), median and p95 by nearest rank;
// - bar: stepcheck's own verdict for the level (report.json levels[0]); for
//   the peers the same step rule applied here (each step <= max(3 x the
//   warm-up's slowest of that step id, 750 ms), every step passed; the
//   stall rule is not applied to them).
'use strict';
const fs = require('fs');
const path = require('path');
const { stats } = require('./launch');

const dir = process.argv[2];
if (!dir) { console.error('usage: node multisum.js OUTDIR'); process.exit(2); }
const RUNS = path.join(dir, 'runs');
const TOOLS = [['stepcheck', 'stepcheck'], ['pw-contexts', 'peer (b) 1 browser, N contexts'], ['pw-browsers', 'peer (a) 1 browser per user']];
const MIB = 1024;

const readJson = (f) => { try { return JSON.parse(fs.readFileSync(f, 'utf8')); } catch (e) { return null; } };

function warmSlowest(rep) {
  const warm = {};
  for (const r of (rep.warmup && rep.warmup.results) || [])
    if (r.passed && r.verified_ms > (warm[r.step_id] ?? -1)) warm[r.step_id] = r.verified_ms;
  return warm;
}
const stepBar = (warm, id) => Math.max(3 * (warm[id] ?? -1), 750);

// Steps of the N users over the step bar (or failed): { total, over, by: {id: k} }.
function overBar(rep) {
  const warm = warmSlowest(rep), by = {};
  let total = 0, over = 0;
  for (const u of rep.users || []) for (const r of u.results || []) {
    total++;
    if (r.passed && r.verified_ms <= stepBar(warm, r.step_id)) continue;
    over++;
    by[r.step_id] = (by[r.step_id] || 0) + 1;
  }
  return { total, over, by };
}

// Floor runs: the same bar on work_ms (the step less its fixed wait), or
// null for reports without it.
function floorOverBar(rep) {
  const warm = {}, all = [];
  for (const r of (rep.warmup && rep.warmup.results) || [])
    if (r.work_ms !== undefined && r.work_ms > (warm[r.step_id] ?? -1)) warm[r.step_id] = r.work_ms;
  let total = 0, over = 0;
  for (const u of rep.users || []) for (const r of u.results || []) {
    if (r.work_ms === undefined) continue;
    total++; all.push(r.work_ms);
    if (r.work_ms > stepBar(warm, r.step_id)) over++;
  }
  if (!total) return null;
  const v = stats(all);
  return { total, over, med: v.median, p95: v.p95, max: Math.max(...all) };
}

// The warm-up's cycle 1, first step start to last step end (ms).
function warmCycleMs(rep) {
  let a = Infinity, b = -Infinity;
  for (const r of (rep.warmup && rep.warmup.results) || []) {
    if (r.setup || r.cycle !== 1) continue;
    a = Math.min(a, r.started_unix_ms);
    b = Math.max(b, r.started_unix_ms + (r.elapsed_ms ?? r.verified_ms ?? 0));
  }
  return b - a;
}

function bar(rep) {
  const warm = warmSlowest(rep);
  for (const u of rep.users || []) {
    if (u.error) return { healthy: false, reason: `${u.user_name}: error: ${u.error}` };
    for (const r of u.results) {
      if (!r.passed) return { healthy: false, reason: `${u.user_name}: ${r.step_id} failed` };
      const b = stepBar(warm, r.step_id);
      if (r.verified_ms > b) return { healthy: false, reason: `${u.user_name}: ${r.step_id} ${r.verified_ms.toFixed(1)} ms > bar ${b.toFixed(1)} ms` };
    }
  }
  return { healthy: true, reason: '' };
}

function load(tool, n) {
  const st = readJson(path.join(RUNS, `${tool}-n${n}.stat.json`));
  const rep = readJson(path.join(RUNS, `${tool}-n${n}.report.json`));
  if (!st) return null;
  const row = { tool, n, st, rep, exit: st.exit, leftovers: st.leftovers.length };
  row.pss = st.peak_pss_kib / MIB;
  row.drv = st.peak_tool_pss_kib / MIB;
  row.anon = st.peak_anon_kib !== undefined ? st.peak_anon_kib / MIB : NaN;
  if (!rep) return row;
  const res = (rep.users || []).flatMap((u) => u.results || []);
  const warm = (rep.warmup && rep.warmup.results) || [];
  const cyc = res.filter((r) => !r.setup && r.cycle > 0);
  row.passed = cyc.filter((r) => r.passed).length;
  row.failed = cyc.length - row.passed;
  row.users_broken = (rep.users || []).filter((u) => u.error).length;
  row.users_done = (rep.users || []).length;
  row.all_verified = res.concat(warm).filter((r) => r.passed).length;
  const v = stats(cyc.filter((r) => r.passed).map((r) => r.verified_ms));
  row.med = v.median; row.p95 = v.p95;
  row.cpu_drv = st.tool_cpu_ms / row.all_verified;
  row.cpu_all = st.tree_cpu_ms / row.all_verified;
  row.browsers = (st.profile_dirs || []).length; // one profile per launched browser
  row.over = overBar(rep);
  row.warm_cycle_ms = warmCycleMs(rep);
  // CPU the tree needs per user to keep the warm-up's pace (cores).
  const perCycle = warm.filter((r) => !r.setup && r.cycle === 1).length; // steps in one cycle
  row.cores_per_user = (st.tree_cpu_ms / row.all_verified) * perCycle / row.warm_cycle_ms;
  const host = readJson(path.join(RUNS, `${tool}-n${n}.host.json`));
  if (host) row.others = (host.busy_ticks * 1000 / host.clk_tck - st.tree_cpu_ms) / (host.wall_s * 1000);
  if (tool === 'stepcheck') {
    const lv = (rep.levels || [])[0];
    row.bar = lv ? { healthy: !!lv.healthy, reason: lv.reason || '' } : { healthy: false, reason: rep.error || 'no level' };
    const smp = rep.samples || [];
    row.own_cpu_peak = smp.reduce((m, s) => Math.max(m, s.cpu_pct), 0);
    row.own_pss_peak = smp.reduce((m, s) => Math.max(m, s.pss_mib), 0);
    row.own_lib_pss_peak = smp.reduce((m, s) => Math.max(m, s.lib_pss_mib), 0);
    row.warnings = rep.warnings || [];
    // How each step's rest was proven (0.3.0: "paint-log" or "pairs"; older reports have none).
    row.rest = {};
    for (const r of res.concat(warm)) if (r.rest) row.rest[r.rest] = (row.rest[r.rest] || 0) + 1;
    row.error = rep.error || null;
  } else {
    row.bar = bar(rep);
  }
  return row;
}

const ns = new Set();
for (const f of fs.existsSync(RUNS) ? fs.readdirSync(RUNS) : []) {
  const m = /^(.*)-n(\d+)\.stat\.json$/.exec(f);
  if (m) ns.add(Number(m[2]));
}
const NS = [...ns].sort((a, b) => a - b);
const rows = {};
for (const [t] of TOOLS) { rows[t] = {}; for (const n of NS) { const r = load(t, n); if (r) rows[t][n] = r; } }

const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');
const extra = (t, n, key) => { const a = rows[t][n], b = rows[t][1]; return a && b && n > 1 ? (a[key] - b[key]) / (n - 1) : NaN; };
const pad = (s, w) => String(s).padEnd(w);

const out = [];
const say = (s = '') => out.push(s);
const machine = fs.existsSync(path.join(dir, 'machine.txt')) ? fs.readFileSync(path.join(dir, 'machine.txt'), 'utf8').trim() : '';
if (machine) { say(machine); say(); }

say('Many users on the fixture map app (seven-steps.json), every tool measured from outside by bench/treestat.py');
say('(gen PSS = peak of driver + browser trees, 1 s samples; CPU/step = CPU over the whole run / every verified step)');
const head = ['tool', 'N', 'brw', 'verified', 'failed', 'med ms', 'p95 ms', 'gen PSS', '/extra user', '(anon /extra)', 'driver PSS', '/user', '/extra user', 'CPU/step drv', '+browsers', 'over bar', 'others'];
const W = [12, 4, 4, 9, 7, 8, 8, 9, 12, 14, 11, 7, 12, 13, 10, 10, 7];
say(head.map((h, i) => pad(h, W[i])).join(''));
const short = { stepcheck: 'stepcheck', 'pw-contexts': 'peer-b', 'pw-browsers': 'peer-a' };
for (const n of NS) for (const [t] of TOOLS) {
  const r = rows[t][n];
  if (!r) continue;
  if (!r.rep) { say(`${pad(short[t], W[0])}${pad(n, W[1])}no report (exit ${r.exit})`); continue; }
  say([short[t], n, r.browsers ?? '-', r.passed, r.failed + (r.users_broken ? ` (${r.users_broken} users broke off)` : ''), f1(r.med), f1(r.p95), f1(r.pss),
    f1(extra(t, n, 'pss')), f1(extra(t, n, 'anon')), f1(r.drv), f2(r.drv / n), f2(extra(t, n, 'drv')), f1(r.cpu_drv), f1(r.cpu_all),
    `${r.over.over}/${r.over.total}`, f2(r.others)].map((c, i) => pad(c, W[i])).join(''));
}
say('(MiB and ms; brw = browsers launched; anon = the same peak counting Pss_Anon + Pss_Shmem only,');
say(' i.e. without file pages shared with other programs on the machine; over bar = steps of the N users');
say(' slower than max(3 x the warm-up\'s slowest of that step, 750 ms) or failed; others = cores the rest of');
say(' the machine used meanwhile: busy CPU from /proc/stat minus the tool\'s tree, / wall time)');
say();

say('stepcheck: quality bar per user count (one run per count, each with its own one-user warm-up)');
for (const n of NS) {
  const r = rows.stepcheck[n];
  if (!r || !r.rep) continue;
  const cores = r.rep.cores || 2;
  const by = Object.entries(r.over.by).map(([k, v]) => `${k} ${v}`).join(', ');
  say(`  N=${pad(n, 3)} ${r.bar.healthy ? 'healthy ' : 'DEGRADED'} ${r.passed}/${r.passed + r.failed} verified; over the bar ${r.over.over}/${r.over.total}${by ? ` (${by})` : ''}; warm-up cycle ${(r.warm_cycle_ms / 1000).toFixed(1)} s, tree CPU at that pace ${f2(r.cores_per_user)} cores per user; other programs ${f2(r.others)} cores`);
  if (r.bar.reason) say(`         first reason: ${r.bar.reason}`);
  say(`         its own samples: CPU peak ${r.own_cpu_peak.toFixed(0)}% of one core${r.own_cpu_peak > 100 * cores ? ` (IMPOSSIBLE on ${cores} cores)` : ''}, PSS peak ${r.own_pss_peak.toFixed(0)} MiB (library ${r.own_lib_pss_peak.toFixed(1)} MiB)`);
  const rest = Object.entries(r.rest || {}).map(([k, v]) => `${k} ${v}`).join(', ');
  if (rest) say(`         rest proven by: ${rest} (steps, warm-up included)`);
  if (r.warnings.length) say(`         warning: ${r.warnings.join(' | ')}`);
  if (r.error) say(`         error: ${r.error}`);
}
let held = 0;
for (const n of NS) { const r = rows.stepcheck[n]; if (!r || !r.rep || !r.bar.healthy) break; held = n; }
const healthyAny = NS.filter((n) => rows.stepcheck[n] && rows.stepcheck[n].rep && rows.stepcheck[n].bar.healthy);
say(`  largest N with every tried N up to it healthy: ${held || 'none'}; healthy counts: ${healthyAny.join(' ') || 'none'}`);
say();

for (const n of NS) for (const [t] of TOOLS) {
  const r = rows[t][n];
  if (r && r.leftovers) say(`WARNING: ${t} N=${n}: ${r.leftovers} processes left behind after exit (stopped by treestat)`);
  if (r && r.exit !== 0 && r.exit !== 1) say(`WARNING: ${t} N=${n}: exit ${r.exit}`);
  if (r && r.bar && !r.bar.healthy && t !== 'stepcheck') say(`  ${t} N=${n} bar: ${r.bar.reason}`);
}

say('Goals (same run):');
const verdict = (ok) => (ok ? 'MET' : 'NOT MET');
const gN = NS.filter((n) => n > 1 && rows.stepcheck[n] && rows['pw-contexts'][n] && rows['pw-browsers'][n]);
for (const n of gN) {
  const s = extra('stepcheck', n, 'pss'), b = extra('pw-contexts', n, 'pss'), a = extra('pw-browsers', n, 'pss');
  if (![s, b, a].every(Number.isFinite)) { say(`  N=${n}: PSS per extra user: not measured (needs N=1 runs of every tool)`); continue; }
  say(`  N=${n}: gen PSS per extra user ${f1(s)} MiB <= peer b ${f1(b)}: ${verdict(s <= b)}; <= 1/4 of peer a ${f1(a)} (${f1(a / 4)}): ${verdict(s <= a / 4)} (ratio ${f2(s / a)})`);
}
for (const n of gN) {
  const s = rows.stepcheck[n], x = extra('stepcheck', n, 'drv');
  if (!Number.isFinite(x)) { say(`  N=${n}: library process per extra user: not measured (no N=1 run); peak ${f1(s.drv)} MiB / ${n} = ${f2(s.drv / n)} MiB per user`); continue; }
  say(`  N=${n}: library process ${f2(x)} MiB per extra user (peak ${f1(s.drv)} MiB / ${n} = ${f2(s.drv / n)}) <= 2 MiB: ${verdict(x <= 2 && s.drv / n <= 2)}`);
}
for (const n of NS) {
  const s = rows.stepcheck[n], b = rows['pw-contexts'][n];
  if (!s || !b || !s.rep || !b.rep) continue;
  say(`  N=${n}: CPU per verified step, stepcheck + browsers ${f1(s.cpu_all)} ms <= 1/3 of peer b's ${f1(b.cpu_all)} (${f1(b.cpu_all / 3)}): ${verdict(s.cpu_all <= b.cpu_all / 3)} (ratio ${f2(s.cpu_all / b.cpu_all)})`);
}
say(`  >= 16 users held with the quality bar: largest healthy ${held || 'none'}: ${verdict(held >= 16)}`);

// multi.sh --floor: peer (b)'s gestures unverified, with no screenshot or
// one per step. CPU per step = the tree's CPU over every step of the run.
const floorRows = NS.map((n) => [n, load('pw-floor-none', n), load('pw-floor-one', n)]).filter(([, a, b]) => a && b && a.rep && b.rep);
if (floorRows.length) {
  say();
  say('Floor (peer (b)\'s gestures and pacing, not verified; CPU of driver + browsers per step):');
  for (const [n, none, one] of floorRows) {
    const s = rows.stepcheck[n], b = rows['pw-contexts'][n];
    const goal = b && b.rep ? b.cpu_all / 3 : NaN;
    say(`  N=${n}: no screenshot ${f1(none.cpu_all)} ms (browsers ${f1(none.cpu_all - none.cpu_drv)}), one screenshot ${f1(one.cpu_all)} ms (browsers ${f1(one.cpu_all - one.cpu_drv)}); ` +
      `goal 1/3 of peer b ${f1(goal)} ms; stepcheck ${s && s.rep ? f1(s.cpu_all) : '-'} ms; ` +
      `goal below the one-screenshot floor: ${Number.isFinite(goal) ? (goal < one.cpu_all ? 'yes' : 'no') : '-'}`);
    if (s && s.rep) say(`    stepcheck + browsers ${f1(s.cpu_all)} ms <= 1.25 x the one-screenshot floor's ${f1(one.cpu_all)} (${f1(1.25 * one.cpu_all)}): ` +
      `${verdict(s.cpu_all <= 1.25 * one.cpu_all)} (ratio ${f2(s.cpu_all / one.cpu_all)})`);
    for (const [name, r] of [['no screenshot', none], ['one screenshot', one]]) {
      const w = floorOverBar(r.rep);
      if (w) say(`    ${name}: work per step (gesture + screenshot, the wait left out) median ${f1(w.med)} / p95 ${f1(w.p95)} / max ${f1(w.max)} ms; ` +
        `over the bar ${w.over}/${w.total} (max(3 x the warm-up's slowest of that step, 750 ms)); tree ${f2(r.st.tree_cpu_ms / 1000 / r.st.wall_s)} cores over the run`);
    }
  }
}
console.log(out.join('\n'));
