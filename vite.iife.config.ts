import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RolldownMagicString } from 'rolldown';
import { defineConfig, type Plugin } from 'vite';
import { classicScriptBuild, IIFE_ENTRY } from './vite.classic-script.ts';

/** The module build's output (vite.config.ts), built first: the IIFE is made from its entry. */
const DIST = fileURLToPath(new URL('./dist/', import.meta.url));
const MODULE_ENTRY = join(DIST, 'capell-webmcp.js');

/**
 * A lazy load in the module entry: a group that vite.chunk-imports.ts wrote
 * (`Promise.all([import(\`./chunks/a.js\`),import(\`./chunks/b.js\`)])`), or a lone
 * `import(\`./chunks/a.js\`)`.
 */
const LAZY_LOAD = /Promise\.all\(\[((?:import\((["'`])\.\/chunks\/[^"'`]+\2\),?)+)\]\)|\bimport\((["'`])(\.\/chunks\/[^"'`]+)\3\)/g;
/** One `import(…)` of a chunk inside a group. */
const CHUNK_IMPORT = /\bimport\((["'`])(\.\/chunks\/[^"'`]+)\1\)/g;
/** A static import in a built chunk: `from"./x.js"`, `import"./x.js"`. */
const STATIC_IMPORT = /(?:\bfrom\s*|\bimport\s*)["'`](\.{1,2}\/[^"'`]+)["'`]/g;

/**
 * The files a built chunk imports statically, transitively (not itself), as paths from dist/
 * (`./capell-webmcp.js`, `./chunks/…`): what the browser fetches only after the chunk arrived.
 */
function staticImportsOf(chunk: string, seen = new Set<string>([chunk])): string[] {
  for (const [, specifier] of readFileSync(chunk, 'utf8').matchAll(STATIC_IMPORT)) {
    const file = join(dirname(chunk), specifier!);
    if (!seen.has(file)) {
      seen.add(file);
      staticImportsOf(file, seen);
    }
  }
  return [...seen].filter((file) => file !== chunk).map((file) => `./${relative(DIST, file).split('\\').join('/')}`);
}

/**
 * What `import.meta.url` of the module entry becomes in the classic script: the script's own URL,
 * read while it runs (document.currentScript, past DOM clobbering: an `<img name="currentScript">`
 * shadows it on the document), the same folder as the module entry's.
 */
const SCRIPT_URL = '\0capell-webmcp-iife-script-url';
const SCRIPT_URL_MODULE = `const script = Object.getOwnPropertyDescriptor(Document.prototype, 'currentScript').get.call(document);
export const scriptURL = script && script.src ? script.src : document.baseURI;
`;

/**
 * Makes the classic script out of the module build's entry file, so it holds exactly the start
 * code that file holds and calls the module build's chunks by the names they export:
 * - the entry module imports dist/capell-webmcp.js for its side effect alone. That file exports
 *   READY_EVENT, SCRIPT_MARKER and what its chunks import from it; as an IIFE entry those exports
 *   would need a global name to land on (the bundle once leaked `window.capellWebMCPBundle`).
 *   Imported for its side effect, the IIFE exports nothing, defines `window.capellWebMCP`
 *   (auto.ts) and no other global, and drops what only the chunks use;
 * - the file is loaded with its source map, so the IIFE's map points at src/;
 * - its `import()` of `./chunks/…` stays an `import()` of the same file: a classic script may
 *   `import()` a module, and the specifier resolves against the script's own URL (HTML: a classic
 *   script's base URL is its URL), so the IIFE loads dist/chunks/ beside it, the module build's.
 *   Those chunks import the rest of the start code from `../capell-webmcp.js` (the module entry;
 *   its own start-up sees `window.capellWebMCP` and stays idle), which the IIFE imports together
 *   with the chunk, as it does the chunk's other static imports (`transform`). So the start-up
 *   helpers exist twice on such a page: the IIFE's run start(), the module entry's serve the
 *   chunks (which then read the islands, register and follow the page). What both must share is
 *   kept on the document under registry symbols (runtime.ts), not in module state;
 * - `import.meta.url` is the classic script's own URL (SCRIPT_URL_MODULE), in the same folder.
 */
function fromModuleEntry(): Plugin {
  return {
    name: 'capell-iife-from-module-entry',
    enforce: 'pre',
    buildStart() {
      if (!existsSync(MODULE_ENTRY)) this.error(`${MODULE_ENTRY} is missing: the module build (vite build) runs first`);
    },
    // Vite hands lib.entry over as a path under the root.
    resolveId: (source) => (source.endsWith(IIFE_ENTRY) ? `\0${IIFE_ENTRY}` : source === SCRIPT_URL ? SCRIPT_URL : null),
    resolveDynamicImport(specifier, importer) {
      if (importer !== MODULE_ENTRY || typeof specifier !== 'string' || !specifier.startsWith('./')) return null;
      return false; // external, the specifier kept as written
    },
    load(id) {
      if (id === `\0${IIFE_ENTRY}`) return `import ${JSON.stringify(MODULE_ENTRY)};\n`;
      if (id === SCRIPT_URL) return SCRIPT_URL_MODULE;
      if (id !== MODULE_ENTRY) return null;
      const map = `${MODULE_ENTRY}.map`;
      return { code: readFileSync(id, 'utf8'), map: existsSync(map) ? readFileSync(map, 'utf8') : null };
    },
    // Each lazy load also starts, at once, what its chunks import statically and it does not start
    // yet. The module build's own groups (vite.chunk-imports.ts) hold all of that but the module
    // entry, which a module importer already holds and the classic script does not: one round trip
    // for all, not one after another.
    transform(code, id) {
      if (id !== MODULE_ENTRY) return null;
      const edited = new RolldownMagicString(code);
      for (const match of code.matchAll(LAZY_LOAD)) {
        const started = match[1] ? [...match[1].matchAll(CHUNK_IMPORT)].map((inner) => inner[2]!) : [match[4]!];
        const needed = [...new Set(started.flatMap((file) => staticImportsOf(join(DIST, file))))].filter((file) => !started.includes(file));
        if (needed.length === 0) continue;
        const imports = [...started, ...needed].map((file) => `import(${JSON.stringify(file)})`).join(',');
        // A group keeps its `.then((modules) => modules[0])`, which follows the match.
        edited.overwrite(match.index, match.index + match[0].length, match[1] ? `Promise.all([${imports}])` : `Promise.all([${imports}]).then((modules)=>modules[0])`);
      }
      // `import.meta` does not exist in a classic script: its `url` is the script's own URL.
      for (const match of code.matchAll(/\bimport\.meta\b(\.url\b)?/g)) {
        if (!match[1]) this.error(`${id}: only import.meta.url can be given to a classic script, not ${code.slice(match.index, match.index + 30)}…`);
        edited.overwrite(match.index, match.index + match[0].length, '__capellScriptURL');
      }
      edited.prepend(`import { scriptURL as __capellScriptURL } from ${JSON.stringify(SCRIPT_URL)};\n`);
      // Character-level, so the map still leads every position to the entry's own map (src/).
      const map = edited.generateMap({ hires: true, source: id });
      return { code: edited.toString(), map: { version: 3, sources: map.sources, names: map.names, mappings: map.mappings } };
    },
  };
}

/**
 * Classic-script build `dist/capell-webmcp.iife.js` for themes that cannot load modules: the
 * start code of `dist/capell-webmcp.js` (read the script tag's data-* options, define
 * `window.capellWebMCP`, find WebMCP), loading the rest from `chunks/` beside it only where
 * WebMCP exists, as the module build does. Serve it with `dist/chunks/` and
 * `dist/capell-webmcp.js`; a host that serves one file only uses `capell-webmcp.single.iife.js`
 * (vite.single.config.ts). Runs after the module build (`npm run build`).
 */
export default defineConfig({
  plugins: [fromModuleEntry()],
  build: classicScriptBuild('capell-webmcp.iife.js'),
});
