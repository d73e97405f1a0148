// One user of the peer benchmarks: a page driven through a scenario's steps
// the way the reference work verified them (see steps.js for the method),
// shared by steps.js (one user, timed in detail) and multi.js (many users).
//
//   const sc = loadScenario(file);
//   const u = new User(page, sc);
//   await u.open(url);                 // load, wait for the guest canvas
//   const r = await u.step(st);        // { passed, verified, gesture, captures }
//   const app = await u.appTime();     // the app's own time-to-pixel for it
'use strict';
const crypto = require('crypto');
const fs = require('fs');

const POLL_MS = 150;
const FLOOR_MS = 400; // --verify none|one: time given to each step's gesture to be drawn
const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

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

class User {
  constructor(page, sc) {
    this.page = page;
    this.sc = sc;
    this.cv = null;
    this.seenIn = 0;
    this.seenPaint = 0;
    this.lastGestureEnd = 0;
    this.lastClick = null;
    this.lastClickAt = 0;
    this.shots = 0; // screenshots for verdicts (hashes) and floorStep's one, for bench/peer/steps.js
    this.checkFinal = false; // steps.js --check-final 1: was the passing screenshot final?
  }

  // Load the page, wait for the guest canvas, read where it sits, and skip
  // the app records made while loading.
  async open(url) {
    const { page, sc } = this;
    await page.goto(url, { waitUntil: 'load' });
    const gw = sc.j.guest.width, gh = sc.j.guest.height;
    await page.waitForFunction(([w, h]) => [...document.querySelectorAll('canvas')].some((c) => c.width === w && c.height === h), [gw, gh], { timeout: 30000 });
    this.cv = await page.evaluate(() => {
      const c = [...document.querySelectorAll('canvas')].sort((a, b) => b.width * b.height - a.width * a.height)[0];
      const r = c.getBoundingClientRect();
      return { x: r.left, y: r.top };
    });
    await this.records();
  }

  css(p) { return [this.cv.x + p[0] + 0.5, this.cv.y + p[1] + 0.5]; } // guest pixel centre, as stepcheck

  async hashes(names) {
    const out = [];
    for (const n of names) {
      const r = this.sc.regions[n];
      const png = await this.page.screenshot({ clip: { x: this.cv.x + r.x, y: this.cv.y + r.y, width: r.w, height: r.h } });
      this.shots++;
      out.push(crypto.createHash('sha1').update(png).digest('hex'));
    }
    return out;
  }

  // App records: the same reading as bench_steps.c (first input timeStamp ->
  // animation frame after the step's last paint).
  async records() {
    const r = await this.page.evaluate(([a, b]) => ({ inputs: (window.__inputs || []).slice(a), paints: (window.__paints || []).slice(b) }), [this.seenIn, this.seenPaint]);
    this.seenIn += r.inputs.length;
    this.seenPaint += r.paints.length;
    return r;
  }

  // The app's time-to-pixel for what happened since the last call; NaN on
  // pages without records (JOSM through noVNC).
  async appTime() {
    const r = await this.records();
    let first = NaN, last = NaN;
    for (const e of r.inputs) if (typeof e.t === 'number' && !(e.t >= first)) first = e.t;
    if (Number.isNaN(first)) return NaN;
    for (const e of r.paints) {
      if (typeof e.t !== 'number' || e.t < first) continue;
      const t = typeof e.frame === 'number' && e.frame > e.t ? e.frame : e.t;
      if (!(t <= last)) last = t;
    }
    return Number.isNaN(last) ? NaN : last - first;
  }

  // A "none" step: the canvas has ink (noVNC shows a blank canvas until the
  // first framebuffer update) and two screenshots of the step's regions
  // POLL_MS apart are identical.
  drawn() {
    return this.page.evaluate(() => {
      const c = [...document.querySelectorAll('canvas')].sort((a, b) => b.width * b.height - a.width * a.height)[0];
      try {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 0; i < d.length; i += 4 * 97) if (d[i] || d[i + 1] || d[i + 2]) return true;
        return false;
      } catch (e) { return true; } // not a 2d canvas or not readable: cannot tell
    });
  }

  async atRest(st) {
    const names = st.watch.length ? st.watch : Object.keys(this.sc.regions);
    const t0 = performance.now();
    let prev = null, captures = 0;
    while (performance.now() - t0 < st.timeout_ms) {
      const h = (await this.hashes(names)).join();
      captures++;
      if (prev === h && await this.drawn()) return { passed: true, captures };
      prev = h;
      await sleep(POLL_MS);
    }
    return { passed: false, captures };
  }

  async gesture(a) {
    const { page, sc } = this;
    switch (a.kind) {
      case 'click': { const [x, y] = this.css(a.at); await page.mouse.click(x, y); break; }
      case 'move': { const [x, y] = this.css(a.at); await page.mouse.move(x, y); break; }
      case 'wheel': {
        const [x, y] = this.css(a.at);
        await page.mouse.move(x, y);
        const n = Math.abs(a.notches), d = Math.sign(a.notches) * sc.input.wheel_delta;
        for (let i = 0; i < n; i++) {
          if (i) await sleep(sc.input.notch_spacing_ms);
          await page.mouse.wheel(0, d);
        }
        break;
      }
      case 'key': {
        if (a.at) { const [x, y] = this.css(a.at); await page.mouse.move(x, y); }
        for (let i = 0; i < a.repeat; i++) await page.keyboard.press(a.key);
        break;
      }
      default: break;
    }
  }

  // One step: settle floor and double-click spacing as stepcheck's runner
  // does, park the pointer, hash the watched regions, send the gesture, then
  // check right away and every POLL_MS until every hash differs.
  // verified = first input sent -> reply of the screenshot that passed.
  //
  // With this.floor set (multi.js --verify none|one) the step is not
  // verified: the gesture is sent with the same pacing, the step waits
  // FLOOR_MS, and with 'one' takes a single screenshot of the bounding box
  // of its watched regions (all regions for a step without a gesture). What
  // the browser then spends per step is the floor every driver pays: the
  // app's own work, the input and the compositor's frames ('none'), plus the
  // least exact evidence a verdict can rest on ('one').
  // work_ms: the step's time less the FLOOR_MS wait (the gesture and the
  // screenshot's round trip): what load adds to a step at the floor, held
  // against the same quality bar as a verified step (multisum.js).
  async floorStep(st, t0) {
    const t1 = performance.now();
    await sleep(FLOOR_MS);
    const t2 = performance.now();
    let captures = 0;
    if (this.floor === 'one') {
      const names = st.watch.length && st.action.kind !== 'none' ? st.watch : Object.keys(this.sc.regions);
      const rs = names.map((n) => this.sc.regions[n]);
      const x0 = Math.min(...rs.map((r) => r.x)), y0 = Math.min(...rs.map((r) => r.y));
      const x1 = Math.max(...rs.map((r) => r.x + r.w)), y1 = Math.max(...rs.map((r) => r.y + r.h));
      // The cheapest exact capture there is: CDP's PNG with optimizeForSpeed
      // (zlib level 1, one filter), as stepcheck asks for it.
      if (!this.cdp) this.cdp = await this.page.context().newCDPSession(this.page);
      await this.cdp.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true, fromSurface: true,
        clip: { x: this.cv.x + x0, y: this.cv.y + y0, width: x1 - x0, height: y1 - y0, scale: 1 } });
      captures = 1;
      this.shots++;
    }
    const end = performance.now();
    return { passed: true, verified: NaN, gesture: t1 - t0, work: (t1 - t0) + (end - t2), captures };
  }

  async step(st) {
    const { page, sc } = this;
    if (this.floor && st.action.kind === 'none') return this.floorStep(st, performance.now());
    let until = this.lastGestureEnd ? this.lastGestureEnd + st.settle_ms : 0;
    const a = st.action;
    if (a.kind === 'click' && this.lastClick && Math.abs(a.at[0] - this.lastClick[0]) < 8 && Math.abs(a.at[1] - this.lastClick[1]) < 8)
      until = Math.max(until, this.lastClickAt + sc.input.double_click_ms + 1);
    await sleep(until - performance.now());
    if (st.park && sc.park) { const [x, y] = this.css(sc.park); await page.mouse.move(x, y); }
    const before = this.floor ? null : await this.hashes(st.watch);
    const t0 = performance.now();
    await this.gesture(a);
    const t1 = performance.now();
    this.lastGestureEnd = t1;
    if (a.kind === 'click') { this.lastClick = a.at; this.lastClickAt = t1; }
    if (this.floor) return this.floorStep(st, t0);
    let passed = false, verified = -1, captures = 0, premature = false;
    if (a.kind === 'none') {
      // No gesture (a setup step such as "ready"): nothing can change
      // because of it, so wait until the page is drawn and at rest instead.
      ({ passed, captures } = await this.atRest(st));
      verified = performance.now() - t0;
    } else if (!st.watch.length) { passed = true; verified = t1 - t0; }
    while (!passed && a.kind !== 'none') {
      const now = await this.hashes(st.watch);
      captures++;
      const t = performance.now() - t0;
      if (now.every((h, i) => h !== before[i])) {
        passed = true; verified = t;
        if (this.checkFinal) {
          // Was the passing screenshot the screen the app came to rest on?
          // Looked at 1 s later, outside every measured interval and count.
          await sleep(1000);
          const shots = this.shots, later = await this.hashes(st.watch);
          this.shots = shots;
          premature = later.join() !== now.join();
        }
        break;
      }
      if (t >= st.timeout_ms) break;
      await sleep(POLL_MS);
    }
    return { passed, verified, gesture: t1 - t0, captures, premature };
  }
}

module.exports = { loadScenario, User, POLL_MS };
