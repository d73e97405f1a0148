// The peer of `stepcheck run --users N`: N users of the fixture map app's
// scenario from one node process, all at once, each doing the steps of
// steps.js (user.js: the reference work's verification and stepcheck's
// pacing). Two shapes:
//   --mode browsers   one browser per user (the reference work's way);
//   --mode contexts   one browser, one context per user.
// Like stepcheck's load run: every browser is launched first, then one user
// alone runs --warmup cycles on the first browser (its own context, closed
// after), then all N users start together.
//
// Writes FILE (--out) shaped like the part of stepcheck's report.json that
// bench/multi.sh reads: warmup.results[], users[].results[] with step_id,
// cycle, setup, passed, verified_ms; users[].error when a user broke off.
// One line to stdout: users, steps verified and failed.
//
//   node multi.js --users N --mode browsers|contexts --out FILE
//        [--cycles 3] [--warmup 1] [--executable PATH] [--scenario F] [--url U]
//        [--verify screenshots|none|one]
// --verify none sends the same gestures with the same pacing and takes no
// screenshot at all; one takes a single screenshot per step (user.js,
// floorStep): the browser CPU every driver pays per step, whatever it
// verifies with. Their steps count as passed without being verified.
'use strict';
const fs = require('fs');
const path = require('path');
const { launch, notePids, parseArgs } = require('./launch');
const { loadScenario, User } = require('./user');

const ROOT = path.resolve(__dirname, '../..');

// One user: a context of its own, the setup steps, then `cycles` cycles.
async function runUser(browser, sc, url, cycles, name, floor) {
  const out = { user_name: name, error: null, results: [] };
  const ctx = await browser.newContext({ viewport: { width: sc.j.viewport.width, height: sc.j.viewport.height }, deviceScaleFactor: 1 });
  try {
    const u = new User(await ctx.newPage(), sc);
    u.floor = floor;
    await u.open(url);
    const one = async (st, cycle) => {
      const started = Date.now();
      const r = await u.step(st);
      out.results.push({ step_id: st.id, cycle, setup: cycle === 0, passed: r.passed,
        verified_ms: r.passed && Number.isFinite(r.verified) ? r.verified : null,
        ...(r.work !== undefined ? { work_ms: r.work } : {}), started_unix_ms: started, captures: r.captures });
      return r.passed;
    };
    let ok = true;
    for (const st of sc.setup) ok = (await one(st, 0)) && ok;
    if (!ok) throw new Error('a setup step did not pass');
    for (let c = 1; c <= cycles; c++) for (const st of sc.cycle) await one(st, c);
  } catch (e) {
    out.error = String(e && e.message || e).split('\n')[0];
  } finally {
    await ctx.close().catch(() => {});
  }
  return out;
}

async function main() {
  const o = parseArgs(process.argv.slice(2), {
    users: 1, mode: 'contexts', verify: 'screenshots', cycles: 3, warmup: 1, out: '', executable: '',
    scenario: path.join(ROOT, 'fixtures/mapapp/seven-steps.json'),
    url: 'file://' + path.join(ROOT, 'fixtures/mapapp/index.html') + '?delay=0',
  });
  if (!o.out) throw new Error('--out FILE is required');
  if (o.mode !== 'browsers' && o.mode !== 'contexts') throw new Error(`--mode ${o.mode}: browsers or contexts`);
  if (!['screenshots', 'none', 'one'].includes(o.verify)) throw new Error(`--verify ${o.verify}: screenshots, none or one`);
  const floor = o.verify === 'screenshots' ? null : o.verify;
  const sc = loadScenario(o.scenario);
  const browsers = [];
  const t0 = Date.now();
  let report;
  try {
    const nb = o.mode === 'browsers' ? o.users : 1;
    for (let i = 0; i < nb; i++) {
      browsers.push(await launch(o.executable || undefined));
      notePids();
    }
    const warm = o.warmup > 0 ? await runUser(browsers[0], sc, o.url, o.warmup, 'warm-up', floor) : null;
    if (warm && warm.error) throw new Error(`warm-up: ${warm.error}`);
    const started = Date.now();
    const users = await Promise.all(Array.from({ length: o.users }, (_, i) =>
      runUser(browsers[o.mode === 'browsers' ? i : 0], sc, o.url, o.cycles, `user-${i + 1}`, floor)));
    const all = users.flatMap((u) => u.results);
    report = {
      tool: `playwright-core ${require('playwright-core/package.json').version}`, mode: o.mode, verify: o.verify,
      browser: `${o.executable || process.env.SC_CHROMIUM || '/usr/bin/chromium'} ${browsers[0].version()}`,
      browsers: nb, url: o.url, cycles: o.cycles, started_unix_ms: started, ended_unix_ms: Date.now(),
      launch_and_warmup_ms: started - t0,
      steps_passed: all.filter((r) => r.passed).length, steps_failed: all.filter((r) => !r.passed).length,
      warmup: warm, users,
    };
  } finally {
    await Promise.all(browsers.map((b) => b.close().catch(() => {})));
  }
  fs.writeFileSync(o.out, JSON.stringify(report, null, 1));
  const broke = report.users.filter((u) => u.error);
  console.log(`peer mode=${o.mode} users=${o.users} browsers=${report.browsers} verified=${report.steps_passed} failed=${report.steps_failed}${broke.length ? ` users_broken=${broke.length} (${broke[0].user_name}: ${broke[0].error})` : ''}`);
  process.exitCode = report.steps_failed || broke.length ? 1 : 0;
}

// SIGTERM/SIGINT: playwright-core's own handlers (launch's handleSIGTERM,
// handleSIGINT) close every browser it launched and end the process.
main().catch((e) => { console.error('multi.js:', e && e.stack || e); process.exit(1); });
