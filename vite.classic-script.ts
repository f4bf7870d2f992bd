/**
 * The classic scripts, built by the bundler from the same sources as the module build:
 * - `capell-webmcp.single.iife.js` (vite.single.config.ts): everything inlined;
 * - `capell-webmcp.iife.js` (vite.iife.config.ts): the start code, which loads the rest as the
 *   module build's own chunks, beside it in dist/chunks/. A classic script may `import()` a
 *   module; the specifier resolves against the script's own URL (HTML: a classic script's base
 *   URL is its URL). Start code loads later units only through src/start/later-units.ts, whose
 *   loaders resolve to the one export each caller needs. The module build emits that module once
 *   more as an entry of its own, `chunks/classic-door-<hash>.js` (`classicScriptDoor`): a facade of
 *   the module entry exporting the loaders by their names. The classic build replaces the module
 *   with loaders that import the door together with every chunk the module entry's loader will
 *   load (one round trip, as in the module build) and call it (`laterUnitsOfModuleBuild`). The
 *   chunks import the rest of the start code from the module entry, whose own start-up sees
 *   `window.capellWebMCP` and stays idle; what both copies share is kept on the document under
 *   registry symbols (runtime.ts), not in module state.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildEnvironmentOptions, Plugin } from 'vite';

/** The classic script's entry id; `exportFreeEntry` resolves it to `\0` + this id. */
export const IIFE_ENTRY = 'virtual:capell-webmcp-iife';

/** The script entry; the module that holds every `import()` of a later unit in the start code. */
const AUTO = fileURLToPath(new URL('./src/auto.ts', import.meta.url));
const LATER_UNITS = fileURLToPath(new URL('./src/start/later-units.ts', import.meta.url));

/** The door's entry module: it exports the loaders of later-units.ts, which stay in the entry's chunk. */
const DOOR = '\0capell-webmcp-classic-door';

/** What the module build tells the classic build: the door, and what each loader loads, as paths from dist/. */
const DOOR_INDEX = fileURLToPath(new URL('./node_modules/.cache/capell-webmcp/classic-door.json', import.meta.url));

interface DoorIndex {
  door: string;
  loaders: Record<string, string[]>;
}

/**
 * Vite build options of a classic script `dist/<fileName>` (ES2022, minified, with a source map;
 * dist/ is not emptied: it runs after the module build). `import.meta` does not exist in a
 * classic script: the script finds itself through document.currentScript (auto.ts).
 */
export function classicScriptBuild(fileName: string): BuildEnvironmentOptions {
  return {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: true,
    minify: true,
    lib: {
      entry: IIFE_ENTRY,
      formats: ['iife'],
      // Required by Vite for an IIFE; unused, as the entry exports nothing.
      name: 'capellWebMCP',
      fileName: () => fileName,
    },
  };
}

/**
 * The classic script's entry module. auto.ts exports READY_EVENT and SCRIPT_MARKER for the module
 * build; as an IIFE entry those exports would need a global name to land on (the bundle once
 * leaked `window.capellWebMCPBundle`). Importing it for its side effect alone leaves the IIFE
 * nothing to export, so it defines `window.capellWebMCP` (auto.ts) and no other global.
 */
export function exportFreeEntry(): Plugin {
  return {
    name: 'capell-iife-entry',
    enforce: 'pre',
    // Vite hands lib.entry over as a path under the root.
    resolveId: (source) => (source.endsWith(IIFE_ENTRY) ? `\0${IIFE_ENTRY}` : null),
    load: (id) => (id === `\0${IIFE_ENTRY}` ? `import ${JSON.stringify(AUTO)};\n` : null),
  };
}

/** The first `import()` in an ESTree node, as its specifier. */
function importSpecifier(node: unknown): string | null {
  if (!node || typeof node !== 'object') return null;
  const value = node as { type?: string; source?: { value?: unknown } };
  if (value.type === 'ImportExpression') return typeof value.source?.value === 'string' ? value.source.value : null;
  for (const child of Object.values(node)) {
    const found = importSpecifier(child);
    if (found !== null) return found;
  }
  return null;
}

/** Every file `fileName` imports statically, transitively, itself included. */
function withStaticImports(fileName: string, chunks: Record<string, { imports: readonly string[] }>, seen = new Set<string>()): Set<string> {
  seen.add(fileName);
  for (const imported of chunks[fileName]?.imports ?? []) if (!seen.has(imported)) withStaticImports(imported, chunks, seen);
  return seen;
}

/**
 * Module build plugin: emits src/start/later-units.ts as the door entry, and records in
 * DOOR_INDEX, per loader, the chunks its `import()` loads with everything they import statically.
 */
export function classicScriptDoor(): Plugin {
  const targets = new Map<string, string>();
  return {
    name: 'capell-classic-script-door',
    buildStart() {
      this.emitFile({ type: 'chunk', id: DOOR, name: 'classic-door', preserveSignature: 'strict' });
    },
    resolveId: (source) => (source === DOOR ? DOOR : null),
    load: (id) => (id === DOOR ? `export * from ${JSON.stringify(LATER_UNITS)};\n` : null),
    async transform(code, id) {
      if (id !== LATER_UNITS) return null;
      const program = this.parse(code, { lang: 'ts' }) as { body: { type: string; declaration?: { declarations?: { id: { name?: string }; init: unknown }[] } }[] };
      for (const statement of program.body) {
        for (const declarator of statement.type === 'ExportNamedDeclaration' ? statement.declaration?.declarations ?? [] : []) {
          const specifier = importSpecifier(declarator.init);
          const resolved = specifier === null ? null : await this.resolve(specifier, id);
          if (!declarator.id.name || !resolved) this.error(`${id}: each export is \`export const loadX = async () => (await import('…')).x\``);
          targets.set(declarator.id.name, resolved.id);
        }
      }
      return null;
    },
    writeBundle(_options, bundle) {
      const chunks = Object.fromEntries(Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file]] : [])));
      const door = Object.values(chunks).find((chunk) => chunk.facadeModuleId === DOOR);
      if (!door) return this.error('the classic script\'s door was not built');
      const loaders: DoorIndex['loaders'] = {};
      for (const [name, target] of targets) {
        const chunk = Object.values(chunks).find((candidate) => candidate.moduleIds.includes(target));
        if (!chunk) return this.error(`${name}: no chunk holds ${target}`);
        loaders[name] = [...withStaticImports(chunk.fileName, chunks, withStaticImports(door.fileName, chunks))];
      }
      mkdirSync(dirname(DOOR_INDEX), { recursive: true });
      writeFileSync(DOOR_INDEX, JSON.stringify({ door: door.fileName, loaders } satisfies DoorIndex, null, 2));
    },
  };
}

/**
 * Classic build plugin: src/start/later-units.ts becomes loaders of the module build's chunks
 * (DOOR_INDEX, written by `classicScriptDoor`), each importing the door, the module entry it
 * imports and the chunks the loader loads, all at once, then calling the door's loader of the
 * same name.
 */
export function laterUnitsOfModuleBuild(): Plugin {
  return {
    name: 'capell-later-units-of-module-build',
    enforce: 'pre',
    load(id) {
      if (id !== LATER_UNITS) return null;
      let index: DoorIndex;
      try {
        index = JSON.parse(readFileSync(DOOR_INDEX, 'utf8')) as DoorIndex;
      } catch (error) {
        return this.error(`${DOOR_INDEX} is missing (${String(error)}): the module build (vite build) runs first`);
      }
      const specifier = (file: string) => JSON.stringify(`./${posix.normalize(file)}`);
      const loaders = Object.entries(index.loaders).map(([name, files]) => {
        const imports = files.map((file) => `import(${specifier(file)})`);
        return `export const ${name} = () => Promise.all([${imports.join(', ')}]).then(([door]) => door.${name}());`;
      });
      return `${loaders.join('\n')}\n`;
    },
    // The loaders' imports stay as written: the module build's files, beside the script.
    resolveDynamicImport: (_specifier, importer) => (importer === LATER_UNITS ? false : null),
  };
}
