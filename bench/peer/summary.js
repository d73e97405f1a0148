// Summary of a bench/run.sh output directory: every "tool=... case=..." line
// of its *.txt files, as tables with stepcheck/peer ratios.
//   node summary.js DIR
'use strict';
const fs = require('fs');
const path = require('path');
const { parseLine } = require('./toolline');

const dir = process.argv[2];
const rows = [];
let scenario = '';
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.txt') && f !== 'summary.txt')) {
  for (const l of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
    const m = l.match(/^# .*\bscenario=(\S+)/);
    if (m && !scenario) scenario = m[1];
    if (!l.startsWith('tool=')) continue;
    rows.push(Object.assign({ file: f }, parseLine(l)));
  }
}
const num = (x) => (x === undefined ? NaN : Number(x));
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? (a / b).toFixed(2) : '-');
const pad = (s, n) => String(s).padEnd(n);
const isSc = (t) => t.startsWith('stepcheck') && !t.endsWith('-cdp');

const machine = path.join(dir, 'machine.txt');
if (fs.existsSync(machine)) console.log(fs.readFileSync(machine, 'utf8').trim());

const caps = rows.filter((r) => isSc(r.tool) && r.page).sort((a, b) => (a.tool === b.tool ? 0 : a.tool === 'stepcheck' ? -1 : b.tool === 'stepcheck' ? 1 : 0));
if (caps.length) {
  console.log('\nCapture, median ms (sc = sc_page_capture incl. base64 + PNG decode; sc-cdp/pw-cdp = the CDP round trip alone;');
  console.log('png = PNG decode of that reply; pw-shot = playwright page.screenshot)');
  console.log(pad('tool', 17) + pad('page case scale fast', 33) + pad('sc med/p95', 13) + pad('sc-cdp', 8) + pad('png', 6) +
    pad('pw-cdp med/p95', 16) + pad('pw-shot', 9) + pad('sc/pw-cdp', 11) + pad('sc-cdp/pw-cdp', 15) + 'sc/pw-shot');
  for (const r of caps) {
    const key = (t) => rows.find((x) => x.tool === t && x.page === r.page && x.case === r.case && x.scale === r.scale && x.fast === r.fast) || {};
    const sc = key(r.tool + '-cdp'), pc = key('playwright-cdp'), ps = key('playwright-screenshot');
    console.log(pad(r.tool, 17) + pad(`${r.page} ${r.case} s=${r.scale} f=${r.fast}`, 33) +
      pad(`${f1(num(r.median_ms))}/${f1(num(r.p95_ms))}`, 13) + pad(f1(num(sc.median_ms)), 8) + pad(f1(num(sc.png_median_ms)), 6) +
      pad(pc.tool ? `${f1(num(pc.median_ms))}/${f1(num(pc.p95_ms))}` : '-', 16) + pad(f1(num(ps.median_ms)), 9) +
      pad(ratio(num(r.median_ms), num(pc.median_ms)), 11) + pad(ratio(num(sc.median_ms), num(pc.median_ms)), 15) +
      ratio(num(r.median_ms), num(ps.median_ms)));
  }
}

const dec = fs.readdirSync(dir).filter((f) => f.startsWith('decode-') && f.endsWith('.txt')).sort();
if (dec.length) {
  console.log('\nPNG decode alone (bench_png, median of 50)');
  for (const f of dec) {
    const t = fs.readFileSync(path.join(dir, f), 'utf8');
    const m = t.match(/decode\s+median ([\d.]+) ms/), p = t.match(/per MP\s+([\d.]+) ms\/MP/);
    const i = t.match(/image\s+(\S+) \(([\d.]+) MP\), PNG (\d+) bytes/);
    console.log(`  ${pad(f.replace(/\.txt$/, ''), 30)} ${i ? pad(`${i[1]} ${i[3]} B`, 20) : ''} ${m ? m[1] : '-'} ms  ${p ? p[1] : '-'} ms/MP`);
  }
}

const text = path.join(dir, 'text.txt');
if (fs.existsSync(text)) {
  console.log('\nText layer (bench_text)');
  for (const l of fs.readFileSync(text, 'utf8').split('\n')) if (l.trim()) console.log('  ' + l);
}

const steps = rows.filter((r) => r.case && (r.case.startsWith('step:') || r.case === 'all'));
const scFirst = (a, b) => (a === 'stepcheck' ? -1 : b === 'stepcheck' ? 1 : a < b ? -1 : a > b);
const where = /fixtures\/mapapp\//.test(scenario) || !scenario ? 'the fixture map app' : path.basename(scenario);
for (const tool of [...new Set(steps.map((r) => r.tool).filter(isSc))].sort(scFirst)) {
  const mine = steps.filter((x) => x.tool === tool);
  const peer = (r) => steps.find((x) => x.tool === 'playwright' && x.case === r.case) || {};
  const a = mine.find((x) => x.case === 'all');
  const b = steps.find((x) => x.tool === 'playwright' && x.case === 'all');
  // Pages without the map app's paint records (JOSM) have no time-to-pixel:
  // compare verified_ms itself.
  const hasApp = mine.some((r) => num(r.overhead_n) > 0);
  if (hasApp) {
    console.log(`\nSteps on ${where}: ${tool} vs playwright (ms; overhead = verified - app's time-to-pixel;`);
    console.log('cpu = driver process CPU per passed step, median)');
    console.log(pad('step', 12) + pad('sc pass', 9) + pad('sc verified', 12) + pad('sc ovh med/p95', 16) + pad('pw pass', 9) +
      pad('pw verified', 12) + pad('pw ovh med/p95', 16) + pad('ovh sc/pw', 10) + pad('sc cpu', 8) + 'pw cpu');
    for (const r of mine) {
      const p = peer(r);
      console.log(pad(r.case.replace('step:', ''), 12) + pad(`${r.pass}/${r.n}`, 9) + pad(f1(num(r.verified_median_ms)), 12) +
        pad(`${f1(num(r.overhead_median_ms))}/${f1(num(r.overhead_p95_ms))}`, 16) + pad(p.n ? `${p.pass}/${p.n}` : '-', 9) +
        pad(f1(num(p.verified_median_ms)), 12) + pad(`${f1(num(p.overhead_median_ms))}/${f1(num(p.overhead_p95_ms))}`, 16) +
        pad(ratio(num(r.overhead_median_ms), num(p.overhead_median_ms)), 10) + pad(f1(num(r.cpu_median_ms)), 8) + f1(num(p.cpu_median_ms)));
    }
  } else {
    console.log(`\nSteps on ${where}: ${tool} vs playwright (ms; verified = first input -> the capture that passed;`);
    console.log('no app time-to-pixel on this page; cpu = driver process CPU per passed step, median)');
    console.log(pad('step', 12) + pad('sc pass', 9) + pad('sc verified med/p95', 21) + pad('pw pass', 9) +
      pad('pw verified med/p95', 21) + pad('sc/pw', 7) + pad('sc cpu', 8) + 'pw cpu');
    for (const r of mine) {
      const p = peer(r);
      console.log(pad(r.case.replace('step:', ''), 12) + pad(`${r.pass}/${r.n}`, 9) +
        pad(`${f1(num(r.verified_median_ms))}/${f1(num(r.verified_p95_ms))}`, 21) + pad(p.n ? `${p.pass}/${p.n}` : '-', 9) +
        pad(p.n ? `${f1(num(p.verified_median_ms))}/${f1(num(p.verified_p95_ms))}` : '-', 21) +
        pad(ratio(num(r.verified_median_ms), num(p.verified_median_ms)), 7) + pad(f1(num(r.cpu_median_ms)), 8) + f1(num(p.cpu_median_ms)));
    }
  }
  if (!a) continue;
  console.log(`CPU per verified step: ${tool} ${a.run_cpu_ms_per_step} ms during the steps (${a.process_cpu_ms_per_step} ms with launch and load), browser ${a.browser_cpu_ms_per_step} ms` +
    (b ? `; playwright node ${b.run_cpu_ms_per_step} ms (${b.process_cpu_ms_per_step}), browser ${b.browser_cpu_ms_per_step} ms` : ''));
  const om = num(a.overhead_median_ms), pm = b ? num(b.overhead_median_ms) : NaN, cpu = num(a.run_cpu_ms_per_step);
  const voidNote = a.pass === a.n ? '' : ` (VOID: ${num(a.n) - num(a.pass)} of ${a.n} steps failed; figures over passed steps)`;
  const cpuGoal = `library CPU ${f1(cpu)} ms per verified step <= 3: ${cpu <= 3 ? 'MET' : 'NOT MET'}`;
  if (hasApp)
    console.log(`Goals${voidNote}: overhead median ${f1(om)} ms <= 17: ${om <= 17 ? 'MET' : 'NOT MET'}; ` +
      `<= 1/3 of the peer's ${f1(pm)} ms: ${Number.isFinite(pm) && om <= pm / 3 ? 'MET' : 'NOT MET'} (ratio ${ratio(om, pm)}); ` + cpuGoal);
  else
    console.log(`Goals${voidNote}: overhead not measurable (no app time-to-pixel on this page); verified median ` +
      `${f1(num(a.verified_median_ms))} ms vs the peer's ${b ? f1(num(b.verified_median_ms)) : '-'} ms (ratio ${b ? ratio(num(a.verified_median_ms), num(b.verified_median_ms)) : '-'}); ` + cpuGoal);
}
