#!/usr/bin/env node
/**
 * `node bench/regex-bench.js`: what one whole validation step budget (VALIDATION_STEP_BUDGET)
 * costs in real Chromium, for the worst cases of the linear-time matcher
 * (src/shared/validation/linear-regex.ts): the slug pattern and format "url" on long near-misses, a
 * pattern whose every step tests a non-ASCII code point against Unicode classes, and a pattern of
 * nearly MAX_PATTERN_STATES states. Also the compile of one schema's patterns at
 * MAX_SCHEMA_PATTERN_STATES, which the schema policy does in one slice of start-up work.
 * Prints the median ms of 15 runs each; asserts nothing.
 * Budget: far below a 50 ms long task.
 */
import { build } from 'esbuild';
import { chromium } from 'playwright';
import { launchOptions } from '../test/support/chromium.js';

const entry = `
import { compileLinear, VALIDATION_STEP_BUDGET, MAX_PATTERN_STATES, MAX_SCHEMA_PATTERN_STATES } from './src/shared/validation/linear-regex.ts';
import { LINEAR_FORMATS, useBudget } from './src/call/validation/formats.ts';
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
function measure(check) {
  const times = [];
  let steps = 0;
  let outcome;
  for (let run = 0; run < 15; run++) {
    const budget = { left: VALIDATION_STEP_BUDGET };
    const started = performance.now();
    try { outcome = check(budget); } catch (error) { outcome = error.constructor.name; }
    times.push(performance.now() - started);
    steps = VALIDATION_STEP_BUDGET - budget.left;
  }
  return { ms: median(times), steps, outcome };
}
const pattern = (source, input) => {
  const regex = compileLinear(source);
  return { states: regex.size, ...measure((budget) => regex.test(input, budget)) };
};
// Distinct patterns of about 8800 states each, as many as fit in one schema's budget.
const schemaCompile = () => {
  const sources = [];
  let states = 0;
  for (let n = 0; ; n++) {
    const source = '^(?:[a-z]{1,44}){1,100}' + n + '$';
    const size = compileLinear(source).size;
    if (states + size > MAX_SCHEMA_PATTERN_STATES) break;
    states += size;
    sources.push(source);
  }
  return { states, ...measure(() => { for (const source of sources) compileLinear(source); return sources.length + ' patterns'; }) };
};
const format = (name, input) => measure((budget) => { useBudget(budget); return LINEAR_FORMATS[name](input); });
window.results = {
  budget: VALIDATION_STEP_BUDGET,
  maxStates: MAX_PATTERN_STATES,
  schemaStates: MAX_SCHEMA_PATTERN_STATES,
  'slug pattern, 600 000-char near-miss': pattern('^[a-z0-9]+(?:[._-]?[a-z0-9]+)*$', 'a'.repeat(600000) + '!'),
  'Unicode classes, non-ASCII input': pattern('(?:\\\\p{L}|\\\\p{N}|[\\\\u{100}-\\\\u{10ffff}]x|\\\\p{Script=Greek})*!', 'é'.repeat(600000)),
  'near MAX_PATTERN_STATES states, non-ASCII': pattern('(?:[^!]){1,4900}!', 'é'.repeat(5000)),
  "one schema's patterns, compiled": schemaCompile(),
  'format url, near-miss': format('url', 'http://' + 'a'.repeat(600000) + '!'),
  'format email, near-miss': format('email', 'a@' + 'a.'.repeat(100000) + '!'),
  'format uri-reference, near-miss': format('uri-reference', '/' + 'a/'.repeat(300000) + ' '),
};
`;

const bundle = await build({ stdin: { contents: entry, resolveDir: process.cwd(), loader: 'js' }, bundle: true, write: false, format: 'iife', target: 'es2022' });
const browser = await chromium.launch(launchOptions({ webmcp: false }));
const page = await browser.newPage();
await page.setContent('<!doctype html><title>regex bench</title>');
await page.addScriptTag({ content: bundle.outputFiles[0].text });
const results = await page.evaluate(() => window.results);
await browser.close();
console.log(`VALIDATION_STEP_BUDGET ${results.budget} steps, MAX_PATTERN_STATES ${results.maxStates}, MAX_SCHEMA_PATTERN_STATES ${results.schemaStates}`);
for (const [name, result] of Object.entries(results)) {
  if (typeof result !== 'object') continue;
  console.log(`${name.padEnd(44)} ${result.ms.toFixed(2).padStart(7)} ms  ${String(result.steps).padStart(7)} steps  ${result.states ? `${result.states} states  ` : ''}${result.outcome}`);
}
