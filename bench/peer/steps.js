// The peer of bench/steps/bench_steps.c: the same scenario steps on the same
// page, driven by playwright-core and verified the way the reference work did:
// clip screenshot of each region the step expects to change, hash it, send the
// gesture, then screenshot every 150 ms until every such hash differs from
// before; the step passes on that screenshot. Regions named only by
// "unchanged" or "stable" are not polled (they would never differ).
// Pacing is stepcheck's: the same settle floor, double-click spacing, notch
// spacing and pointer park, so only the verification differs.
//
// Timed like stepcheck: verified_ms = first input sent -> reply of the
// screenshot that passed; app_ms and overhead_ms from the app's own records
// (window.__inputs / window.__paints), read after each step, outside every
// measured interval; cpu_ms = this node process's user+sys CPU for the step.
// Pages without those records (JOSM through noVNC) give app_ms = nan.
// A step with no gesture ("none", e.g. setup "ready") waits until the canvas
// has ink and two screenshots of its regions are identical.
//
//   node steps.js [--cycles 10] [--scenario FILE] [--url URL] [--verbose 0|1]
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { launch, notePids, parseArgs, stats, treeCpuMs, childPids, fmt } = require('./launch');

const ROOT = path.resolve(__dirname, '../..');
const POLL_MS = 150;
const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

// The parts of a scenario the peer needs, resolved as docs/scenario.md says.
function loadScenario(file) {
  const j = JSON.parse(fs.readFileSync(file, 'utf8'));
  const points = j.points || {};
  const pt = (p) => (typeof p === 'string' ? points[p] : p);
  const regions = {};
  for (const [name, r] of Object.entries(j.regions)) {
    const o = Array.isArray(r) ? { x: r[0], y: r[1], w: r[2], h: r[3], inset: 0 } : Object.assign({ inset: 0 }, r);
    regions[name] = { x: o.x + o.inset, y: o.y + o.inset, w: o.w - 2 * o.inset, h: o.h - 2 * o.inset };
  }
  const input = Object.assign({ wheel_delta: 100, notch_spacing_ms: 250, double_click_ms: 500 }, j.input || {});
  const defaults = Object.assign({ timeout_ms: 8000, settle_ms: 300 }, j.defaults || {});
  const step = (s) => {
    const out = { id: s.id, timeout_ms: s.timeout_ms ?? defaults.timeout_ms, settle_ms: s.settle_ms ?? defaults.settle_ms,
      park: s.park !== false, watch: [] };
    if ('click' in s) out.action = { kind: 'click', at: pt(s.click) };
    else if ('wheel' in s) out.action = { kind: 'wheel', at: pt(s.wheel.at), notches: s.wheel.notches };
    else if ('move' in s) out.action = { kind: 'move', at: pt(s.move) };
    else if ('key' in s) {
      const k = typeof s.key === 'string' ? { key: s.key } : s.key;
      out.action = { kind: 'key', key: k.key, repeat: k.repeat || 1, at: k.at ? pt(k.at) : null };
    } else out.action = { kind: 'none' };
    for (const e of s.expect || []) {
      const kind = Object.keys(e)[0];
      if (kind !== 'unchanged' && kind !== 'stable' && !out.watch.includes(e[kind])) out.watch.push(e[kind]);
    }
    return out;
  };
  return { j, regions, input, park: j.park !== undefined ? pt(j.park) : null,
    setup: (j.setup || []).map(step), cycle: j.cycle.map(step) };
}

async function main() {
  const o = parseArgs(process.argv.slice(2), {
    cycles: 10, verbose: 0,
    scenario: path.join(ROOT, 'fixtures/mapapp/seven-steps.json'),
    url: 'file://' + path.join(ROOT, 'fixtures/mapapp/index.html') + '?delay=0',
  });
  const sc = loadScenario(o.scenario);
  const cpuStart = cpuMs();
  const browser = await launch();
  notePids();
  let failed = 0;
  try {
    const ctx = await browser.newContext({ viewport: { width: sc.j.viewport.width, height: sc.j.viewport.height }, deviceScaleFactor: 1 });
    const page = await ctx.newPage();
    await page.goto(o.url, { waitUntil: 'load' });
    const gw = sc.j.guest.width, gh = sc.j.guest.height;
    await page.waitForFunction(([w, h]) => [...document.querySelectorAll('canvas')].some((c) => c.width === w && c.height === h), [gw, gh], { timeout: 30000 });
    const cv = await page.evaluate(() => {
      const c = [...document.querySelectorAll('canvas')].sort((a, b) => b.width * b.height - a.width * a.height)[0];
      const r = c.getBoundingClientRect();
      return { x: r.left, y: r.top };
    });
    const css = (p) => [cv.x + p[0] + 0.5, cv.y + p[1] + 0.5]; // guest pixel centre, as stepcheck
    const clip = (r) => ({ x: cv.x + r.x, y: cv.y + r.y, width: r.w, height: r.h });
    const hashes = async (names) => {
      const out = [];
      for (const n of names) out.push(crypto.createHash('sha1').update(await page.screenshot({ clip: clip(sc.regions[n]) })).digest('hex'));
      return out;
    };
    console.log(`# browser=Chrome/${browser.version()} playwright-core=${require('playwright-core/package.json').version} url=${o.url} scenario=${o.scenario} cycles=${o.cycles} poll_ms=${POLL_MS}`);

    // App records: the same reading as bench_steps.c (first input timeStamp ->
    // animation frame after the step's last paint).
    let seenIn = 0, seenPaint = 0;
    const records = async () => {
      const r = await page.evaluate(([a, b]) => ({ inputs: (window.__inputs || []).slice(a), paints: (window.__paints || []).slice(b) }), [seenIn, seenPaint]);
      seenIn += r.inputs.length;
      seenPaint += r.paints.length;
      return r;
    };
    const appTime = (r) => {
      let first = NaN, last = NaN;
      for (const e of r.inputs) if (typeof e.t === 'number' && !(e.t >= first)) first = e.t;
      if (Number.isNaN(first)) return NaN;
      for (const e of r.paints) {
        if (typeof e.t !== 'number' || e.t < first) continue;
        const t = typeof e.frame === 'number' && e.frame > e.t ? e.frame : e.t;
        if (!(t <= last)) last = t;
      }
      return Number.isNaN(last) ? NaN : last - first;
    };
    await records();

    // A "none" step: the canvas has ink (noVNC shows a blank canvas until the
    // first framebuffer update) and two screenshots of the step's regions
    // POLL_MS apart are identical.
    const drawn = () => page.evaluate(() => {
      const c = [...document.querySelectorAll('canvas')].sort((a, b) => b.width * b.height - a.width * a.height)[0];
      try {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 0; i < d.length; i += 4 * 97) if (d[i] || d[i + 1] || d[i + 2]) return true;
        return false;
      } catch (e) { return true; } // not a 2d canvas or not readable: cannot tell
    });
    const atRest = async (st) => {
      const names = st.watch.length ? st.watch : Object.keys(sc.regions);
      const t0 = performance.now();
      let prev = null, captures = 0;
      while (performance.now() - t0 < st.timeout_ms) {
        const h = (await hashes(names)).join();
        captures++;
        if (prev === h && await drawn()) return { passed: true, captures };
        prev = h;
        await sleep(POLL_MS);
      }
      return { passed: false, captures };
    };

    let lastGestureEnd = 0, lastClick = null, lastClickAt = 0;
    const gesture = async (a) => {
      switch (a.kind) {
        case 'click': { const [x, y] = css(a.at); await page.mouse.click(x, y); break; }
        case 'move': { const [x, y] = css(a.at); await page.mouse.move(x, y); break; }
        case 'wheel': {
          const [x, y] = css(a.at);
          await page.mouse.move(x, y);
          const n = Math.abs(a.notches), d = Math.sign(a.notches) * sc.input.wheel_delta;
          for (let i = 0; i < n; i++) {
            if (i) await sleep(sc.input.notch_spacing_ms);
            await page.mouse.wheel(0, d);
          }
          break;
        }
        case 'key': {
          if (a.at) { const [x, y] = css(a.at); await page.mouse.move(x, y); }
          for (let i = 0; i < a.repeat; i++) await page.keyboard.press(a.key);
          break;
        }
        default: break;
      }
    };

    const rows = [];
    let cpuMark = cpuMs(), benchCpu = 0;
    const runStep = async (st, cycle) => {
      // Settle floor and double-click spacing, as stepcheck's runner does.
      let until = lastGestureEnd ? lastGestureEnd + st.settle_ms : 0;
      const a = st.action;
      if (a.kind === 'click' && lastClick && Math.abs(a.at[0] - lastClick[0]) < 8 && Math.abs(a.at[1] - lastClick[1]) < 8)
        until = Math.max(until, lastClickAt + sc.input.double_click_ms + 1);
      await sleep(until - performance.now());
      if (st.park && sc.park) { const [x, y] = css(sc.park); await page.mouse.move(x, y); }
      const before = await hashes(st.watch);
      const t0 = performance.now();
      await gesture(a);
      const t1 = performance.now();
      lastGestureEnd = t1;
      if (a.kind === 'click') { lastClick = a.at; lastClickAt = t1; }
      let passed = false, verified = -1, captures = 0;
      if (a.kind === 'none') {
        // No gesture (a setup step such as "ready"): nothing can change
        // because of it, so wait until the page is drawn and at rest instead.
        ({ passed, captures } = await atRest(st));
        verified = performance.now() - t0;
      } else if (!st.watch.length) { passed = true; verified = t1 - t0; }
      while (!passed && a.kind !== 'none') {
        const now = await hashes(st.watch);
        captures++;
        const t = performance.now() - t0;
        if (now.every((h, i) => h !== before[i])) { passed = true; verified = t; break; }
        if (t >= st.timeout_ms) break;
        await sleep(POLL_MS);
      }
      const cpuStep = cpuMs() - cpuMark;
      const c0 = cpuMs();
      const app = appTime(await records());
      if (cycle > 0) {
        const r = { id: st.id, cycle, passed, verified, app, overhead: passed && !Number.isNaN(app) ? verified - app : NaN, captures, cpu: cpuStep };
        rows.push(r);
        if (!passed) failed++;
        if (o.verbose)
          console.error(`# c${cycle}/${o.cycles} ${st.id.padEnd(12)} ${passed ? 'PASS' : 'FAIL'} verified=${fmt(verified)} gesture=${fmt(t1 - t0)} app=${fmt(app)} overhead=${fmt(r.overhead)} captures=${captures} cpu=${cpuStep.toFixed(2)}`);
      }
      else if (!passed) {
        console.log(`# setup step ${st.id} did not pass within ${st.timeout_ms} ms`);
        failed++;
      }
      const c1 = cpuMs();
      benchCpu += c1 - c0;
      cpuMark = c1;
    };

    const bpid = childPids();
    const browserCpu0 = bpid.reduce((s, p) => s + treeCpuMs(p), 0);
    const runCpu0 = cpuMs();
    cpuMark = runCpu0;
    for (const st of sc.setup) await runStep(st, 0);
    for (let c = 1; c <= o.cycles; c++) for (const st of sc.cycle) await runStep(st, c);
    const runCpu = cpuMs() - runCpu0 - benchCpu;
    const browserCpu = bpid.reduce((s, p) => s + treeCpuMs(p), 0) - browserCpu0;

    const line = (name, rs, extra) => {
      const ok = rs.filter((r) => r.passed), withApp = ok.filter((r) => !Number.isNaN(r.overhead));
      const v = stats(ok.map((r) => r.verified)), a = stats(withApp.map((r) => r.app)), ov = stats(withApp.map((r) => r.overhead));
      const cp = stats(ok.map((r) => r.cpu)), k = stats(rs.filter((r) => r.captures).map((r) => r.captures));
      console.log(`tool=playwright case=${name} n=${rs.length} pass=${ok.length} verified_median_ms=${fmt(v.median)} verified_p95_ms=${fmt(v.p95)} app_median_ms=${fmt(a.median)} overhead_median_ms=${fmt(ov.median)} overhead_p95_ms=${fmt(ov.p95)} overhead_n=${withApp.length} captures_median=${Number.isFinite(k.median) ? Math.round(k.median) : 'nan'} cpu_median_ms=${cp.median.toFixed(2)} cpu_p95_ms=${cp.p95.toFixed(2)}${extra || ''}`);
    };
    for (const st of sc.cycle) line(`step:${st.id}`, rows.filter((r) => r.id === st.id));
    const verified = rows.filter((r) => r.passed).length;
    const totalCpu = cpuMs() - cpuStart - benchCpu;
    line('all', rows, ` run_cpu_ms_per_step=${(runCpu / verified).toFixed(2)} process_cpu_ms_per_step=${(totalCpu / verified).toFixed(2)} browser_cpu_ms_per_step=${(browserCpu / verified).toFixed(1)} verified=${verified}`);
    if (failed) console.log(`# ${failed} of ${rows.length} steps failed`);
  } finally {
    await browser.close();
  }
}

main().catch((e) => { console.error('steps.js:', e && e.stack || e); process.exit(1); });
