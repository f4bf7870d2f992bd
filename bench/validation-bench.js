#!/usr/bin/env node
/**
 * `node bench/validation-bench.js`: what validateValue (src/call/validation.ts) costs in real Chromium
 * for the costliest shapes of schema work that is not a regex: each case is
 * sized to just under MAX_VALIDATION_WORK (so it is accepted and the validator runs) and to just
 * over it (refused before the validator runs). Prints the work counted, the median ms of 7 runs
 * and the first issue; asserts nothing. Bound: the worst accepted case well under 50 ms.
 */
import { build } from 'esbuild';
import { chromium } from 'playwright';
import { launchOptions } from '../test/support/chromium.js';

const entry = `
import { validateValue } from './src/call/validation.ts';
import { MAX_VALIDATION_WORK, validationWork } from './src/call/validation/work-bound.ts';
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const strings = (n, prefix = 'v') => Array.from({ length: n }, (_, i) => prefix + i);
const obj = (properties) => ({ type: 'object', properties });
// Largest n whose value's work stays within the bound (work grows with n).
function fit(schema, make) {
  let lo = 1, hi = 1;
  while (validationWork(schema, make(hi), MAX_VALIDATION_WORK).work <= MAX_VALIDATION_WORK && hi < 1e7) { lo = hi; hi *= 2; }
  while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (validationWork(schema, make(mid), MAX_VALIDATION_WORK).work <= MAX_VALIDATION_WORK) lo = mid; else hi = mid; }
  return lo;
}
function measure(name, schema, make) {
  const n = fit(schema, make);
  const out = {};
  for (const [label, size] of [['accepted', n], ['refused', n + 1]]) {
    const value = make(size);
    const times = [];
    let issues;
    for (let run = 0; run < 7; run++) {
      const started = performance.now();
      issues = validateValue(schema, value);
      times.push(performance.now() - started);
    }
    out[label] = { n: size, bytes: JSON.stringify(value).length, work: validationWork(schema, value, 1e12).work, exhaustive: validationWork(schema, value, 1e12).exhaustive, ms: median(times), max: Math.max(...times), issues: issues.length, first: issues[0] ? (issues[0].path + ': ' + issues[0].message).slice(0, 90) : 'valid' };
  }
  return [name, out];
}
const E7000 = strings(7000);
window.results = { max: MAX_VALIDATION_WORK, cases: [
  measure('items enum 7000, failing', obj({ q: { type: 'array', items: { type: 'string', enum: E7000 } } }), (n) => ({ q: Array(n).fill('zzzz') })),
  measure('items enum 7000, last member', obj({ q: { type: 'array', items: { type: 'string', enum: E7000 } } }), (n) => ({ q: Array(n).fill('v6999') })),
  measure('items anyOf 2500 const, failing', obj({ q: { type: 'array', items: { anyOf: strings(2500).map((c) => ({ const: c })) } } }), (n) => ({ q: Array(n).fill('zzzz') })),
  measure('items anyOf 20 const, failing', obj({ q: { type: 'array', items: { anyOf: strings(20).map((c) => ({ const: c })) } } }), (n) => ({ q: Array(n).fill('zzzz') })),
  measure('items type string, failing', obj({ q: { type: 'array', items: { type: 'string' } } }), (n) => ({ q: Array(n).fill(1) })),
  measure('items type string, valid', obj({ q: { type: 'array', items: { type: 'string' } } }), (n) => ({ q: Array(n).fill('a') })),
  measure('items object 3 props anyOf, failing', obj({ q: { type: 'array', items: { type: 'object', required: ['a', 'b', 'c'], properties: { a: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, b: { oneOf: [{ type: 'string' }, { type: 'null' }] }, c: { allOf: [{ type: 'string' }, { minLength: 1 }] } } } } }), (n) => ({ q: Array(n).fill({ a: true, b: 1, c: 2 }) })),
  measure('enum of 2 arrays, deep compare', obj({ q: { enum: [Array(6000).fill(0), [...Array(5999).fill(0), 1]] } }), (n) => ({ q: [...Array(n).fill(0), 2] })),
  measure('items const object, deep compare failing', obj({ q: { type: 'array', items: { const: { a: Array(50).fill(0) } } } }), (n) => ({ q: Array(n).fill({ a: [...Array(49).fill(0), 1] }) })),
  measure('nested arrays 8 deep, failing leaves', { type: 'object', properties: { q: { $ref: '#/$defs/t' } }, $defs: { t: { anyOf: [{ type: 'string', enum: ['x', 'y'] }, { type: 'array', items: { $ref: '#/$defs/t' } }] } } }, (n) => { let v = Array(n).fill('z'); for (let i = 0; i < 7; i++) v = [v]; return { q: v }; }),
  measure('string maxLength, long', obj({ q: { type: 'string', maxLength: 3 } }), (n) => ({ q: 'é'.repeat(n) })),
] };
`;

const bundle = await build({ stdin: { contents: entry, resolveDir: process.cwd(), loader: 'js' }, bundle: true, write: false, format: 'iife', target: 'es2022' });
const browser = await chromium.launch(launchOptions({ webmcp: false }));
const page = await browser.newPage();
await page.setContent('<!doctype html><title>validation bench</title>');
await page.addScriptTag({ content: bundle.outputFiles[0].text });
const results = await page.evaluate(() => window.results);
await browser.close();
console.log(`MAX_VALIDATION_WORK ${results.max} units`);
for (const [name, out] of results.cases) {
  for (const [label, r] of Object.entries(out)) {
    console.log(`${name.padEnd(42)} ${label.padEnd(8)} n=${String(r.n).padStart(7)} ${String(r.bytes).padStart(8)} B work=${String(r.work).padStart(8)} exh=${String(r.exhaustive).padStart(9)} ${r.ms.toFixed(2).padStart(7)} ms (max ${r.max.toFixed(1)}) ${r.issues} issues: ${r.first}`);
  }
}
