// Screenshots of the fixture map app for bench_diff: the map region at
// rest, after selecting building A, and after zooming in three notches
// (the select-a and zoom-in steps of seven-steps.json), captured the way
// stepcheck captures (CDP PNG, optimizeForSpeed, a clip of the region).
//
//   node bench/image/pairs.js OUTDIR [--executable PATH]
// writes OUTDIR/map-rest.png, map-select.png, map-zoom.png.
'use strict';
const fs = require('fs');
const path = require('path');
const { launch } = require('../peer/launch');

const ROOT = path.resolve(__dirname, '../..');

async function main() {
  const out = process.argv[2];
  if (!out) throw new Error('usage: node pairs.js OUTDIR [--executable PATH]');
  const ei = process.argv.indexOf('--executable');
  const sc = JSON.parse(fs.readFileSync(path.join(ROOT, 'fixtures/mapapp/seven-steps.json'), 'utf8'));
  const map = sc.regions.map, pts = sc.points;
  fs.mkdirSync(out, { recursive: true });
  const b = await launch(ei > 0 ? process.argv[ei + 1] : '/usr/bin/chromium-headless-shell');
  try {
    const ctx = await b.newContext({ viewport: sc.viewport, deviceScaleFactor: 1 });
    const page = await ctx.newPage();
    await page.goto('file://' + path.join(ROOT, 'fixtures/mapapp/index.html') + '?delay=0');
    await page.waitForFunction(() => document.querySelector('canvas'));
    const cv = await page.evaluate(() => { const r = document.querySelector('canvas').getBoundingClientRect(); return { x: r.left, y: r.top }; });
    const cdp = await ctx.newCDPSession(page);
    const shot = async (name) => {
      await page.waitForTimeout(500);
      const r = await cdp.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true,
        clip: { x: cv.x + map.x, y: cv.y + map.y, width: map.w, height: map.h, scale: 1 } });
      fs.writeFileSync(path.join(out, name), Buffer.from(r.data, 'base64'));
    };
    const at = (p) => [cv.x + p[0] + 0.5, cv.y + p[1] + 0.5];
    await page.mouse.move(...at(pts.park));
    await shot('map-rest.png');
    await page.mouse.click(...at(pts.building_a));
    await page.mouse.move(...at(pts.park));
    await shot('map-select.png');
    await page.mouse.move(...at(pts.map_centre));
    for (let i = 0; i < 3; i++) { await page.mouse.wheel(0, -100); await page.waitForTimeout(250); }
    await page.mouse.move(...at(pts.park));
    await shot('map-zoom.png');
  } finally {
    await b.close();
  }
}
main().catch((e) => { console.error(`pairs.js: ${e.message.split('\n')[0]}`); process.exit(1); });
