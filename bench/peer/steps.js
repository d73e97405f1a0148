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
// Screenshots: every page.screenshot the verdicts take (one per watched
// region per look), as screenshots= and screenshots_per_step= (over verified
// cycle steps, setup's included in the count) on the "all" line, and per
// step id as shots_mean= (the before and the polls of that step).
// Pages without those records (JOSM through noVNC) give app_ms = nan.
// A step with no gesture ("none", e.g. setup "ready") waits until the canvas
// has ink and two screenshots of its regions are identical.
//
//   node steps.js [--cycles 10] [--scenario FILE] [--url URL] [--verbose 0|1] [--check-final 0|1]
//                 [--verify screenshots|none|one] [--inject FILE]
//
// --check-final 1 looks at the watched regions again 1 s after each pass
// (not timed, not counted) and counts the passes whose screenshot the
// application then painted over (premature=K per step id): a verdict on a
// frame that was not the one the screen came to rest on.
//
// --verify none|one (as multi.js): the same gestures with the same pacing,
// not verified (user.js, floorStep), with no screenshot or one per step:
// the browser CPU every driver pays per step on this page (tool=
// playwright-floor-none / -one; their steps count as passed).
//
// --inject FILE runs FILE in every page before the page's own scripts
// (addInitScript): with --verify none and the paint log printed by
// build-bench/bench/print_paintlog, what the log costs the page on its own.
'use strict';
const path = require('path');
const { launch, notePids, parseArgs, stats, treeCpuMs, childPids, fmt } = require('./launch');
const { loadScenario, User, POLL_MS } = require('./user');

const ROOT = path.resolve(__dirname, '../..');
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

async function main() {
  const o = parseArgs(process.argv.slice(2), {
    cycles: 10, verbose: 0, check_final: 0, verify: 'screenshots', inject: '',
    scenario: path.join(ROOT, 'fixtures/mapapp/seven-steps.json'),
    url: 'file://' + path.join(ROOT, 'fixtures/mapapp/index.html') + '?delay=0',
  });
  if (!['screenshots', 'none', 'one'].includes(o.verify)) throw new Error(`--verify ${o.verify}: screenshots, none or one`);
  const tool = o.verify === 'screenshots' ? 'playwright' : `playwright-floor-${o.verify}`;
  const sc = loadScenario(o.scenario);
  const cpuStart = cpuMs();
  const browser = await launch();
  notePids();
  let failed = 0;
  try {
    const ctx = await browser.newContext({ viewport: { width: sc.j.viewport.width, height: sc.j.viewport.height }, deviceScaleFactor: 1 });
    if (o.inject) await ctx.addInitScript({ path: o.inject });
    const user = new User(await ctx.newPage(), sc);
    user.checkFinal = o.check_final === 1;
    if (o.verify !== 'screenshots') user.floor = o.verify;
    await user.open(o.url);
    console.log(`# browser=Chrome/${browser.version()} playwright-core=${require('playwright-core/package.json').version} url=${o.url} scenario=${o.scenario} cycles=${o.cycles} poll_ms=${POLL_MS}`);

    const rows = [];
    let cpuMark = cpuMs(), benchCpu = 0;
    const runStep = async (st, cycle) => {
      const shots0 = user.shots;
      const { passed, verified, gesture, captures, premature } = await user.step(st);
      const shots = user.shots - shots0;
      const cpuStep = cpuMs() - cpuMark;
      const c0 = cpuMs();
      const app = await user.appTime();
      if (cycle > 0) {
        const r = { id: st.id, cycle, passed, verified, app, overhead: passed && !Number.isNaN(app) ? verified - app : NaN, captures, shots, cpu: cpuStep, premature };
        rows.push(r);
        if (!passed) failed++;
        if (o.verbose)
          console.error(`# c${cycle}/${o.cycles} ${st.id.padEnd(12)} ${passed ? 'PASS' : 'FAIL'} verified=${fmt(verified)} gesture=${fmt(gesture)} app=${fmt(app)} overhead=${fmt(r.overhead)} captures=${captures} shots=${shots} cpu=${cpuStep.toFixed(2)}`);
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
    const shots0 = user.shots;
    cpuMark = runCpu0;
    for (const st of sc.setup) await runStep(st, 0);
    for (let c = 1; c <= o.cycles; c++) for (const st of sc.cycle) await runStep(st, c);
    const runCpu = cpuMs() - runCpu0 - benchCpu;
    const browserCpu = bpid.reduce((s, p) => s + treeCpuMs(p), 0) - browserCpu0;
    const runShots = user.shots - shots0;

    const line = (name, rs, extra) => {
      const ok = rs.filter((r) => r.passed), withApp = ok.filter((r) => !Number.isNaN(r.overhead));
      const v = stats(ok.map((r) => r.verified)), a = stats(withApp.map((r) => r.app)), ov = stats(withApp.map((r) => r.overhead));
      const cp = stats(ok.map((r) => r.cpu)), k = stats(rs.filter((r) => r.captures).map((r) => r.captures));
      console.log(`tool=${tool} case=${name} n=${rs.length} pass=${ok.length} verified_median_ms=${fmt(v.median)} verified_p95_ms=${fmt(v.p95)} app_median_ms=${fmt(a.median)} overhead_median_ms=${fmt(ov.median)} overhead_p95_ms=${fmt(ov.p95)} overhead_n=${withApp.length} captures_median=${Number.isFinite(k.median) ? Math.round(k.median) : 'nan'} cpu_median_ms=${cp.median.toFixed(2)} cpu_p95_ms=${cp.p95.toFixed(2)} shots_mean=${rs.length ? (rs.reduce((s, r) => s + r.shots, 0) / rs.length).toFixed(2) : 'nan'}${o.check_final === 1 ? ` premature=${ok.filter((r) => r.premature).length}` : ''}${extra || ''}`);
    };
    for (const st of sc.cycle) line(`step:${st.id}`, rows.filter((r) => r.id === st.id));
    const verified = rows.filter((r) => r.passed).length;
    const totalCpu = cpuMs() - cpuStart - benchCpu;
    line('all', rows, ` run_cpu_ms_per_step=${(runCpu / verified).toFixed(2)} process_cpu_ms_per_step=${(totalCpu / verified).toFixed(2)} browser_cpu_ms_per_step=${(browserCpu / verified).toFixed(1)} verified=${verified} screenshots=${runShots} screenshots_per_step=${(runShots / verified).toFixed(3)}`);
    if (failed) console.log(`# ${failed} of ${rows.length} steps failed`);
  } finally {
    await browser.close();
  }
}

main().catch((e) => { console.error('steps.js:', e && e.stack || e); process.exit(1); });
