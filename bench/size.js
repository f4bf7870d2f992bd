#!/usr/bin/env node
/**
 * `npm run size`: sizes of the built bundles, raw and gzip (level 9), against the size budgets:
 * what the script tag loads first ≤ 5 KB gzip (the entry and its static imports), everything
 * together ≤ 30 KB gzip. Also what each script build loads before ready: the module entry, the
 * classic script `capell-webmcp.iife.js` (the start code; the same chunks, which import the rest
 * of the start code from the module entry, and the door to its loaders) and the single-file
 * `capell-webmcp.single.iife.js`.
 * Builds first when dist/ is missing.
 */
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

const DIST = 'dist';
const ENTRY = join(DIST, 'capell-webmcp.js');
const IIFE = join(DIST, 'capell-webmcp.iife.js');
const SINGLE_IIFE = join(DIST, 'capell-webmcp.single.iife.js');
const FIRST_LOAD_BUDGET = 5 * 1024;
const TOTAL_BUDGET = 30 * 1024;

if (!existsSync(ENTRY)) execSync('npm run build', { stdio: 'inherit' });

const sizes = (file) => {
  const bytes = readFileSync(file);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};

/** The entry and every chunk it imports statically (not `import()`), transitively. */
function firstLoad(entry, seen = new Set()) {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const code = readFileSync(entry, 'utf8');
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*)["'`](\.{1,2}\/[^"'`]+)["'`]/g)) {
    firstLoad(join(dirname(entry), match[1]), seen);
  }
  return seen;
}

/** The chunk name of a file `chunks/<name>-<hash>.js` (the hash: 8 characters). */
const chunkName = (file) => file.replace(/-[\w-]{8}\.js$/, '');

/**
 * The chunks named one of `names`, with everything they import statically, added to `seen` (by
 * default the module entry's first load).
 */
function loadOf(names, seen = firstLoad(ENTRY)) {
  for (const file of readdirSync(join(DIST, 'chunks'))) {
    if (file.endsWith('.js') && names.includes(chunkName(file))) firstLoad(join(DIST, 'chunks', file), seen);
  }
  return [...seen];
}

/** The heaviest (gzip) of several loads, each a list of chunk names (loadOf). */
const heaviest = (...loads) => loads.map((names) => sum(loadOf(names))).reduce((a, b) => (b.gzip > a.gzip ? b : a));

const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;
const row = (label, { raw, gzip }) => console.log(`${label.padEnd(44)} ${kb(raw).padStart(10)} ${kb(gzip).padStart(10)}`);
const sum = (files) => files.map(sizes).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });

console.log(`${'file'.padEnd(44)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)}`);
const moduleFiles = [ENTRY, ...readdirSync(join(DIST, 'chunks')).filter((f) => f.endsWith('.js')).map((f) => join(DIST, 'chunks', f))];
for (const file of moduleFiles) row(relative(DIST, file), sizes(file));
row('capell-webmcp.iife.js (classic script, start code)', sizes(IIFE));
row('capell-webmcp.single.iife.js (all inlined)', sizes(SINGLE_IIFE));
console.log('');
const first = sum([...firstLoad(ENTRY)]);
const total = sum(moduleFiles);
row(`first load (${[...firstLoad(ENTRY)].length} files), budget ${kb(FIRST_LOAD_BUDGET)}`, first);
// What a visit loads, by what the agent does (the rest is never fetched).
row('with WebMCP: ready (registry and rules)', sum(loadOf(['registry'])));
row('… and read calls (call chunk)', sum(loadOf(['registry', 'call'])));
// A write loads the write chunk and the panel, and its kind's own chunk: a form write
// write-forms, an endpoint write write-endpoint, an admin write write-admin. The row is the
// heaviest of the three.
const WRITE = ['registry', 'call', 'write', 'panel'];
row('… and a write (heaviest: form/endpoint/admin)', heaviest(...['forms', 'endpoint', 'admin'].map((kind) => [...WRITE, `write-${kind}`])));
row(`everything (module build), budget ${kb(TOTAL_BUDGET)}`, total);
// The classic script loads the same chunks by import(), with the door to the module entry's loaders
// and the module entry the chunks import (vite.classic-script.ts).
console.log('');
row('classic script: first load (and all without WebMCP)', sizes(IIFE));
row('… with WebMCP: ready', sum([IIFE, ...loadOf(['classic-door', 'registry'], new Set())]));
row('… and read calls', sum([IIFE, ...loadOf(['classic-door', 'registry', 'call'], new Set())]));
row('single-file classic script: everything, first', sizes(SINGLE_IIFE));
console.log(`\nfirst load ${first.gzip <= FIRST_LOAD_BUDGET ? 'within' : 'OVER'} budget; everything ${total.gzip <= TOTAL_BUDGET ? 'within' : 'OVER'} budget`);
