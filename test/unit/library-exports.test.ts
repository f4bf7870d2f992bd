/**
 * Issue 11, "Docs": the README lists the library API with every export. This test reads the
 * names `src/index.ts` exports (values and types) and the first column of the README's table
 * "Every export of `capell-webmcp`", and fails when either has a name the other lacks.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const INDEX = readFileSync(new URL('../../src/index.ts', import.meta.url), 'utf8');
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** Every name in `export { … } from` and `export type { … } from` clauses of the entry. */
function exportedNames(source: string): string[] {
  const names: string[] = [];
  for (const [, list] of source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const item of list!.split(',')) {
      const name = item.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop()!.trim();
      if (name) names.push(name);
    }
  }
  return names.sort();
}

/** The names in the first column of the README's export table (backticked, call parens dropped). */
function documentedNames(readme: string): string[] {
  const start = readme.indexOf('#### Every export of `capell-webmcp`');
  assert.notEqual(start, -1, 'README has no "Every export of `capell-webmcp`" section');
  const section = readme.slice(start).split('\n').slice(1);
  const end = section.findIndex((line) => line.startsWith('#'));
  const rows = section.slice(0, end === -1 ? undefined : end).filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([A-Za-z_][\w]*)/g)].map((match) => match[1]!)).sort();
}

describe('the README documents every library export (issue 11, Docs)', () => {
  it('every export of src/index.ts has a row, and every row names an export', () => {
    const exported = exportedNames(INDEX);
    assert.ok(exported.includes('start') && exported.includes('Report'), `read the exports: ${exported.join(', ')}`);
    assert.deepEqual(documentedNames(README), exported);
  });
});
