// One "tool=... case=... key=value ..." line of a benchmark's output as an
// object (every key=value pair; other words ignored), and a tool file's
// lines by case.
'use strict';
const fs = require('fs');

function parseLine(l) {
  const r = {};
  for (const kv of l.split(' ')) {
    const i = kv.indexOf('=');
    if (i > 0) r[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return r;
}

// FILE's tool lines by their case ({} when FILE cannot be read)
function linesByCase(file) {
  const out = {};
  let f;
  try { f = fs.readFileSync(file, 'utf8'); } catch (e) { return out; }
  for (const l of f.split('\n')) if (l.startsWith('tool=')) { const r = parseLine(l); out[r.case] = r; }
  return out;
}

module.exports = { parseLine, linesByCase };
