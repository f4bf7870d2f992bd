/**
 * The units hold in the sources: each folder of src/ is a chunk the browser loads (vite.rooms.ts),
 * so a unit's module may import statically only its own folder, shared/ and the units always
 * loaded before it; a read call never reaches the write machinery, start-up never a later unit.
 * The e2e spec chunk-rooms.on.spec.ts checks the same in the built bundle; this names the
 * offending import.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');

/**
 * Each unit the browser loads, and the units always loaded before it: the registry where WebMCP
 * exists, the call chunk on the first call, the write chunk on the first write call (its
 * executor is loaded through the call chunk), with the write kind's own chunk (a form's, an
 * endpoint's, an admin write's) or the status call's; the panel on the first proposal;
 * AgentGate's discovery on a page that names it, its call on the first call of one of its tools.
 */
const LOADED_BEFORE: Record<string, readonly string[]> = {
  start: [],
  registry: ['start'],
  call: ['start', 'registry'],
  write: ['start', 'registry', 'call'],
  'write-forms': ['start', 'registry', 'call', 'write'],
  // Admin tools exist only once the admin registry's chunk registered them: it is loaded before.
  'write-admin': ['start', 'registry', 'call', 'write', 'admin'],
  'write-endpoint': ['start', 'registry', 'call', 'write'],
  'write-status': ['start', 'registry', 'call', 'write'],
  panel: ['start', 'registry', 'call', 'write'],
  inspector: ['start'],
  'agentgate-discover': ['start', 'registry'],
  'agentgate-call': ['start', 'registry', 'call', 'agentgate-discover'],
  admin: ['start', 'registry'],
};
/** Not units: the rules every unit may import (they may import start-up code only), and the Node-side folders. */
const SHARED = 'shared';
const NODE_ONLY = ['agent', 'cli'];

/** The unit of a path under src/: its top folder, or `<folder>-<sub>` in agentgate/ or write/; the file name for a file directly in src/. */
function unitOf(path: string): string {
  const parts = path.split(/[\\/]/);
  return ['agentgate', 'write'].includes(parts[0]!) && parts.length > 2 ? `${parts[0]}-${parts[1]}` : parts[0]!;
}

/** Every .ts file under `dir`, as paths from src/. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path)] : [];
  });
}

/** Static imports of a source file (`import … from '…'`, `export … from '…'`; not `import type`, not `import()`), as paths from src/. */
function staticImports(file: string): string[] {
  const code = readFileSync(join(SRC, file), 'utf8');
  const found: string[] = [];
  for (const match of code.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm)) {
    const target = resolve(dirname(join(SRC, file)), match[1]!).replace(/\.js$/, '.ts');
    if (existsSync(target)) found.push(relative(SRC, target));
  }
  return found;
}

describe('units', () => {
  const files = sourceFiles();

  it('every folder of src/ is a unit, the shared rules or Node-side', () => {
    const folders = new Set(files.filter((file) => /[\\/]/.test(file)).map(unitOf));
    assert.deepEqual([...folders].filter((unit) => !(unit in LOADED_BEFORE) && unit !== SHARED && !NODE_ONLY.includes(unit)), []);
  });

  for (const unit of [...Object.keys(LOADED_BEFORE), SHARED]) {
    it(`${unit}/ imports statically only ${unit === SHARED ? 'start-up code' : 'shared/ and the units loaded before it'}`, () => {
      const allowed = new Set([unit, SHARED, ...(LOADED_BEFORE[unit] ?? ['start'])]);
      const wrong = files.filter((file) => unitOf(file) === unit)
        .flatMap((file) => staticImports(file).filter((target) => !allowed.has(unitOf(target))).map((target) => `${file} → ${target}`));
      assert.deepEqual(wrong, []);
    });
  }

  it('start-up code loads later units only through start/later-units.ts, which the classic script replaces', () => {
    const startUp = files.filter((file) => unitOf(file) === 'start' || file === 'auto.ts');
    const loading = startUp.filter((file) => /\bimport\(/.test(readFileSync(join(SRC, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')));
    assert.deepEqual(loading, [join('start', 'later-units.ts')]);
  });

  it('the walk sees imports (a write executor imports its own unit, shared rules and start-up code)', () => {
    const units = new Set(staticImports(join('write', 'forms', 'form.ts')).map(unitOf));
    assert.deepEqual([...units].sort(), ['shared', 'start', 'write', 'write-forms']);
  });
});
