// What the paint log's compared refill costs the page (docs/design.md,
// "Whole-buffer draws"): Xpra's HTML5 client clears a whole 1600x900 window
// buffer and draws a decoded PNG back into it; the log reads the buffer
// before the clear, reads it back after the draw and compares the two.
// Each of those is timed here in a real Chromium page, on an opaque
// 1600x900 PNG that differs from the last in a 30x20 box, beside what the
// page pays anyway: the same PNG drawn and flushed without any read
// ("decode only"). The compare is the library's own changed(), taken from
// lib/page/paintlog_js.c at run time, so this measures the shipped code.
//
//   node refill.js [--rounds 12] [--browser /usr/bin/chromium]
//
// Prints one row per round (ms) and the medians; extra = snapshot +
// (readback - decode only) + compare is what the log adds per refill.
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');
const { parseArgs, stats } = require('./launch');

// The C source's string literals, joined: the injected script as shipped.
function shippedChanged() {
  const src = fs.readFileSync(path.join(__dirname, '../../lib/page/paintlog_js.c'), 'utf8');
  let js = '';
  for (const m of src.matchAll(/^\s*"((?:[^"\\]|\\.)*)"/gm)) js += JSON.parse('"' + m[1] + '"');
  const at = js.indexOf('function changed(');
  if (at < 0) throw new Error('lib/page/paintlog_js.c: no function changed(');
  let depth = 0, end = js.indexOf('{', at);
  for (; end < js.length; end++) {
    if (js[end] === '{') depth++;
    else if (js[end] === '}' && --depth === 0) break;
  }
  return js.slice(at, end + 1);
}

(async () => {
  const o = parseArgs(process.argv.slice(2), { rounds: 12, browser: '/usr/bin/chromium' });
  const rounds = o.rounds;
  const browser = await chromium.launch({
    executablePath: o.browser,
    args: ['--disable-gpu', '--headless'],
  });
  const page = await browser.newPage();
  const rows = await page.evaluate(async ({ changedSrc, rounds }) => {
    const LE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
    const changed = new Function('LE', changedSrc + ';return changed;')(LE);
    const W = 1600, H = 900;
    const src = document.createElement('canvas');
    src.width = W; src.height = H;
    const sg = src.getContext('2d');
    sg.fillStyle = '#fff'; sg.fillRect(0, 0, W, H);
    for (let i = 0; i < 3000; i++) {
      sg.fillStyle = `rgb(${i % 255},${(i * 7) % 255},${(i * 13) % 255})`;
      sg.fillRect((i * 37) % W, (i * 53) % H, 40, 30);
    }
    sg.font = '14px sans-serif';
    for (let i = 0; i < 200; i++) sg.fillText('hello world ' + i, (i * 97) % W, (i * 31) % H);
    const urls = [];
    for (let k = 0; k < 2 * rounds + 2; k++) {
      sg.fillStyle = 'rgb(' + k + ',0,0)'; sg.fillRect(700, 400, 30, 20);
      urls.push(src.toDataURL('image/png'));
    }
    const load = u => new Promise(res => { const i = new Image(); i.onload = () => res(i); i.src = u; });
    const blank = () => { const c = document.createElement('canvas'); c.width = W; c.height = H; return c; };
    const ms = (a, b) => +(b - a).toFixed(1);
    const out = [];
    for (let k = 0; k < rounds; k++) {
      const g = blank().getContext('2d');
      g.drawImage(await load(urls[0]), 0, 0); g.getImageData(0, 0, 1, 1);
      const next = await load(urls[1 + 2 * k]);
      const t0 = performance.now();
      const before = g.getImageData(0, 0, W, H);
      const t1 = performance.now();
      g.clearRect(0, 0, W, H); g.drawImage(next, 0, 0);
      const t2 = performance.now();
      const after = g.getImageData(0, 0, W, H);
      const t3 = performance.now();
      const d = changed(before, after, 0, 0);
      const t4 = performance.now();
      // the same kind of draw with no read: decoded and flushed by a copy
      const g2 = blank().getContext('2d'), v = blank().getContext('2d');
      const other = await load(urls[2 + 2 * k]);
      const u0 = performance.now();
      g2.drawImage(other, 0, 0); v.drawImage(g2.canvas, 0, 0); v.getImageData(0, 0, 1, 1);
      const u1 = performance.now();
      out.push({ snapshot: ms(t0, t1), readback: ms(t2, t3), decode_only: ms(u0, u1),
                 compare: ms(t3, t4), box: d ? d.b.join(',') : 'none' });
    }
    return out;
  }, { changedSrc: shippedChanged(), rounds });
  await browser.close();
  console.table(rows);
  const m = k => stats(rows.map(r => r[k])).median;
  const extra = m('snapshot') + Math.max(0, m('readback') - m('decode_only')) + m('compare');
  console.log(`median ms: snapshot ${m('snapshot')} readback ${m('readback')} decode_only ${m('decode_only')} ` +
              `compare ${m('compare')} extra per refill ${extra.toFixed(1)}`);
  if (rows.some(r => r.box !== '700,400,730,420')) {
    console.error('refill.js: the compare did not find exactly the changed 30x20 box');
    process.exit(1);
  }
})().catch(e => { console.error('refill.js: ' + e.message); process.exit(1); });
