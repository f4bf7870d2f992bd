/**
 * The library's documentation (docs/library.md) lists every export, so a user never meets an
 * undocumented name nor looks for one that is gone. This test reads the names `src/index.ts`
 * exports (values and types) and the first column of that page's table "Every export of
 * `capell-webmcp`", and fails when either has a name the other lacks.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const INDEX = readFileSync(new URL('../../src/index.ts', import.meta.url), 'utf8');
const LIBRARY_DOC = readFileSync(new URL('../../docs/library.md', import.meta.url), 'utf8');

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

/** The names in the first column of docs/library.md's export table (backticked, call parens dropped). */
function documentedNames(doc: string): string[] {
  const start = doc.indexOf('## Every export of `capell-webmcp`');
  assert.notEqual(start, -1, 'docs/library.md has no "Every export of `capell-webmcp`" section');
  const section = doc.slice(start).split('\n').slice(1);
  const end = section.findIndex((line) => line.startsWith('#'));
  const rows = section.slice(0, end === -1 ? undefined : end).filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([A-Za-z_][\w]*)/g)].map((match) => match[1]!)).sort();
}

describe('docs/library.md documents every library export', () => {
  it('every export of src/index.ts has a row, and every row names an export', () => {
    const exported = exportedNames(INDEX);
    assert.ok(exported.includes('start') && exported.includes('Report'), `read the exports: ${exported.join(', ')}`);
    assert.deepEqual(documentedNames(LIBRARY_DOC), exported);
  });
});
