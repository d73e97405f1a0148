// What the paint log's wrappers cost a draw-heavy page (issue 35: its state
// moved from expandos into WeakMaps, its builtins taken at the start): a
// 1600x900 canvas attached to the page gets --calls fillRect calls, and as
// many drawImage calls of a 16x16 canvas, in tasks of --per calls each
// (one entry per task), with each script given (bench/page/print_paintlog's
// output) injected before the page, or none ("-").
//
//   node hotpath.js --inject none.js,old.js,new.js [--calls 200000]
//     [--per 1000] [--rounds 7] [--browser /usr/bin/chromium]
//
// "-" for no script. Prints per script and round the ns per call of each
// kind, then the medians.
'use strict';
const fs = require('fs');
const { launch, parseArgs, stats } = require('./launch');

const PAGE = 'data:text/html,<!DOCTYPE html><body style="margin:0"><canvas width=1600 height=900></canvas>';

async function measure(browser, source, calls, per) {
  const page = await (await browser.newContext()).newPage();
  const s = await page.context().newCDPSession(page);
  await s.send('Page.enable');
  if (source) await s.send('Page.addScriptToEvaluateOnNewDocument', { source });
  await page.goto(PAGE);
  const r = await page.evaluate(async ([calls, per]) => {
    const g = document.querySelector('canvas').getContext('2d');
    const src = document.createElement('canvas');
    src.width = src.height = 16;
    src.getContext('2d').fillRect(0, 0, 16, 16);
    const task = () => new Promise((ok) => setTimeout(ok, 0));
    async function run(f) {
      let t = 0;
      for (let done = 0; done < calls; done += per) {
        const t0 = performance.now();
        for (let i = 0; i < per; i++) f(i);
        t += performance.now() - t0;
        await task();
      }
      return (t * 1e6) / calls;
    }
    await run((i) => g.fillRect(i % 1500, i % 800, 20, 20)); // warm up
    const fill = await run((i) => g.fillRect(i % 1500, i % 800, 20, 20));
    const draw = await run((i) => g.drawImage(src, i % 1500, i % 800));
    return { fill, draw, logged: window.__stepcheck_log ? window.__stepcheck_log.seq() : 0 };
  }, [calls, per]);
  await page.context().close();
  return r;
}

(async () => {
  const o = parseArgs(process.argv.slice(2), {
    inject: '-', calls: 200000, per: 1000, rounds: 7, browser: '/usr/bin/chromium',
  });
  const files = String(o.inject).split(',');
  const sources = files.map((f) => (f === '-' ? null : fs.readFileSync(f, 'utf8')));
  const browser = await launch(o.browser);
  const res = files.map(() => ({ fill: [], draw: [] }));
  for (let r = 0; r < o.rounds; r++) {
    // rotate the order per round: no script always first or last
    for (let k = 0; k < files.length; k++) {
      const i = (k + r) % files.length;
      const m = await measure(browser, sources[i], o.calls, o.per);
      res[i].fill.push(m.fill);
      res[i].draw.push(m.draw);
      console.log(`round ${r + 1} ${files[i]}: fillRect ${m.fill.toFixed(1)} ns, ` +
        `drawImage ${m.draw.toFixed(1)} ns (${m.logged} entries)`);
    }
  }
  for (let i = 0; i < files.length; i++) {
    const f = stats(res[i].fill), d = stats(res[i].draw);
    console.log(`${files[i]}: fillRect median ${f.median.toFixed(1)} ns (${f.min.toFixed(1)}-` +
      `${f.max.toFixed(1)}), drawImage median ${d.median.toFixed(1)} ns (${d.min.toFixed(1)}-${d.max.toFixed(1)})`);
  }
  await browser.close();
})();
