// Summary of bench/josm.sh --rounds R: the tools ran R times, each round in
// its own directory (DIR/r1, DIR/r2, ...) with the tools' order rotated by
// one per round, so that no tool always runs first or right after another.
// Per round: each tool's browser CPU per verified step (the program's
// reading over the steps) and screenshots per step, and the ratios the
// paint-log issue states its goals in, with their medians over the rounds:
// a ratio within one round compares runs minutes apart; the median of
// several rounds is what a noisy page can say.
//
//   node rounds.js DIR/r1 DIR/r2 ...
'use strict';
const path = require('path');
const { linesByCase } = require('./toolline');
const { stats } = require('./launch');

const dirs = process.argv.slice(2);
if (!dirs.length) { console.error('usage: node rounds.js DIR/r1 DIR/r2 ...'); process.exit(2); }
const TOOLS = [['steps', 'log'], ['steps-pairs', 'pairs'], ['steps-peer', 'peer'],
  ['steps-floor-none', 'none'], ['steps-floor-one', 'one']];
const num = (x) => (x === undefined ? NaN : Number(x));
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');
const pad = (s, n) => String(s).padEnd(n);
const median = (v) => stats(v.filter(Number.isFinite)).median;

const rounds = dirs.map((d) => {
  const r = { dir: path.basename(d) };
  for (const [name, key] of TOOLS) {
    const all = linesByCase(path.join(d, `${name}.txt`)).all || {};
    r[key] = { cpu: num(all.browser_cpu_ms_per_step), shots: num(all.screenshots_per_step),
      pass: all.pass === undefined ? '-' : `${all.pass}/${all.n}` };
  }
  r.logPairs = r.log.cpu / r.pairs.cpu;
  r.logOne = r.log.cpu / r.one.cpu;
  r.onePairs = r.one.cpu / r.pairs.cpu;
  return r;
});

const W = Math.max(8, ...rounds.map((r) => r.dir.length + 2));
console.log('Rounds (browser CPU per verified step, ms, the program\'s reading over the steps; shots = screenshots per step)');
console.log(pad('round', W) + TOOLS.map(([, k]) => pad(k, 9)).join('') + pad('log shots', 11) +
  pad('log/pairs', 11) + pad('log/one', 9) + 'one/pairs');
for (const r of rounds) {
  console.log(pad(r.dir, W) + TOOLS.map(([, k]) => pad(f1(r[k].cpu), 9)).join('') + pad(f2(r.log.shots), 11) +
    pad(f2(r.logPairs), 11) + pad(f2(r.logOne), 9) + f2(r.onePairs));
}
const m = (k) => median(rounds.map((r) => r[k]));
const mt = (k, f) => median(rounds.map((r) => r[k][f]));
console.log(pad('median', W) + TOOLS.map(([, k]) => pad(f1(mt(k, 'cpu')), 9)).join('') + pad(f2(mt('log', 'shots')), 11) +
  pad(f2(m('logPairs')), 11) + pad(f2(m('logOne')), 9) + f2(m('onePairs')));
console.log('Passed: ' + rounds.map((r) => `${r.dir} ` + TOOLS.map(([, k]) => `${k} ${r[k].pass}`).join(', ')).join('; '));
const mark = (ok) => (ok ? 'MET' : 'NOT MET');
console.log(`Goals over ${rounds.length} rounds (medians): screenshots per step ${f2(mt('log', 'shots'))} <= 1.4: ` +
  `${mark(mt('log', 'shots') <= 1.4)}; browser CPU ${f2(m('logPairs'))} x pairs' <= 0.55: ${mark(m('logPairs') <= 0.55)}` +
  (Number.isFinite(m('onePairs')) ? ` (the one-screenshot floor: ${f2(m('onePairs'))} x pairs')` : ''));
