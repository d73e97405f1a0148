// The peer of bench/capture/bench_capture.c: the same captures of the same
// page, through playwright-core on the same Debian chromium with the same
// flags, in two ways:
//   tool=playwright-screenshot  page.screenshot({clip}) (PNG bytes; Playwright
//                               has no numeric clip scale and no
//                               optimizeForSpeed, so only scale=1 fast=0)
//   tool=playwright-cdp         a raw CDP session, Page.captureScreenshot with
//                               the same parameters stepcheck sends, base64
//                               decoded to a Buffer (not decoded to pixels)
// Same runs, warm-ups, round-robin order and output format as the C side.
//
//   node capture.js [--n 30] [--warmup 3] [--url URL] [--label canvas] [--save_png DIR]
//
// --save_png writes Chromium's own PNG bytes of the full canvas and of the
// 1200x800 clip, so bench_png can time decoding exactly what Chromium sends.
'use strict';
const fs = require('fs');
const path = require('path');
const { launch, notePids, parseArgs, stats, fmt } = require('./launch');

const CASES = [
  ['full1600x900', [0, 0, 1600, 900], 1, 0],
  ['full1600x900', [0, 0, 1600, 900], 1, 1],
  ['clip1200x800', [40, 65, 1200, 800], 1, 0],
  ['clip1200x800', [40, 65, 1200, 800], 1, 1],
  ['clip160x24', [36, 84, 160, 24], 1, 0],
  ['clip160x24', [36, 84, 160, 24], 1, 1],
  ['clip1200x800', [40, 65, 1200, 800], 0.25, 0],
  ['clip1200x800', [40, 65, 1200, 800], 0.25, 1],
];

async function main() {
  const o = parseArgs(process.argv.slice(2), {
    n: 30, warmup: 3, label: 'canvas', save_png: '',
    url: 'file://' + path.resolve(__dirname, '../capture/canvas.html'),
  });
  const browser = await launch();
  notePids();
  try {
    const ctx = await browser.newContext({ viewport: { width: 1600, height: 940 }, deviceScaleFactor: 1 });
    const page = await ctx.newPage();
    await page.goto(o.url, { waitUntil: 'load' });
    // The largest canvas, as stepcheck's page layer picks it.
    await page.waitForFunction(() => [...document.querySelectorAll('canvas')].some((c) => c.width === 1600 && c.height === 900), null, { timeout: 30000 });
    const cv = await page.evaluate(() => {
      const c = [...document.querySelectorAll('canvas')].sort((a, b) => b.width * b.height - a.width * a.height)[0];
      const r = c.getBoundingClientRect();
      return { x: r.left, y: r.top, w: c.width, h: c.height };
    });
    const cdp = await ctx.newCDPSession(page);
    console.log(`# browser=Chrome/${browser.version()} playwright-core=${require('playwright-core/package.json').version} url=${o.url} canvas=${cv.w}x${cv.h}@(${cv.x},${cv.y}) runs=${o.n} warmups=${o.warmup}`);

    const jobs = [];
    for (const [name, r, scale, fast] of CASES) {
      const clip = { x: cv.x + r[0], y: cv.y + r[1], width: r[2], height: r[3] };
      jobs.push({
        tool: 'playwright-cdp', name, scale, fast, ms: [], last: null,
        run: async () => Buffer.from((await cdp.send('Page.captureScreenshot', {
          format: 'png', clip: Object.assign({ scale }, clip), fromSurface: true,
          captureBeyondViewport: false, optimizeForSpeed: !!fast,
        })).data, 'base64'),
      });
      if (scale === 1 && !fast)
        jobs.push({ tool: 'playwright-screenshot', name, scale, fast, ms: [], last: null,
          run: async () => page.screenshot({ clip }) });
    }
    for (let round = -o.warmup; round < o.n; round++) {
      for (const j of jobs) {
        const t0 = performance.now();
        const buf = await j.run();
        const t = performance.now() - t0;
        if (!buf || !buf.length) throw new Error(`${j.tool} ${j.name}: empty capture`);
        j.last = buf;
        if (round >= 0) j.ms.push(t);
      }
    }
    for (const j of jobs) {
      const s = stats(j.ms);
      console.log(`tool=${j.tool} page=${o.label} case=${j.name} scale=${j.scale} fast=${j.fast} n=${j.ms.length} median_ms=${fmt(s.median)} p95_ms=${fmt(s.p95)} min_ms=${fmt(s.min)} max_ms=${fmt(s.max)}`);
    }
    if (o.save_png) {
      fs.mkdirSync(o.save_png, { recursive: true });
      for (const j of jobs)
        if (j.tool === 'playwright-cdp' && j.scale === 1 && !j.fast && j.name !== 'clip160x24')
          fs.writeFileSync(path.join(o.save_png, `${o.label}-${j.name}.png`), j.last);
    }
  } finally {
    await browser.close();
  }
}

main().catch((e) => { console.error('capture.js:', e && e.stack || e); process.exit(1); });
