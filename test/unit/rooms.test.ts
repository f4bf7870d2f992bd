/**
 * The rooms hold in the sources: no module the read path reaches through static imports (the call
 * module, each read executor the binding registry loads, and what they import) is in the write
 * room (src/writes) or the UI (src/ui). The e2e spec chunk-rooms.on.spec.ts checks the same in the
 * built bundle; this names the offending import.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');

/** Static imports of a source file (`import … from '…'`, `export … from '…'`; not `import type`, not `import()`), resolved to .ts files. */
function staticImports(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of code.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm)) {
    const target = resolve(dirname(file), match[1]!).replace(/\.js$/, '.ts');
    if (existsSync(target)) found.push(target);
  }
  return found;
}

/** Every module reachable from `start` by static imports, with the chain that reaches it. */
function reach(start: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[start, [start]]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const next of staticImports(file)) {
      if (chains.has(next)) continue;
      chains.set(next, [...chains.get(file)!, next]);
      queue.push(next);
    }
  }
  return chains;
}

const READ_PATH = ['call/call-tool.ts', 'call/reads/inline.ts', 'call/reads/endpoint-read.ts', 'call/reads/search.ts', 'call/reads/property-query.ts', 'registry/request.ts'];

describe('rooms', () => {
  for (const start of READ_PATH) {
    it(`${start} reaches no module of src/write, src/panel or src/inspector`, () => {
      const file = join(SRC, start);
      assert.ok(existsSync(file), `${start} is missing`);
      for (const [module, chain] of reach(file)) {
        const path = relative(SRC, module);
        assert.ok(!/^(write|panel|inspector)\//.test(path), `read path imports ${path}: ${chain.map((step) => relative(SRC, step)).join(' → ')}`);
      }
    });
  }

  it('the walk sees imports (a write executor reaches the write room)', () => {
    const reached = [...reach(join(SRC, 'write/form.ts')).keys()].map((module) => relative(SRC, module));
    assert.ok(reached.includes('write/pending-write.ts') && reached.includes('write/open-confirm-panel.ts'));
  });
});
