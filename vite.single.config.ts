import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { classicScriptBuild, IIFE_ENTRY } from './vite.classic-script.ts';
import { linearFormatsOnly } from './vite.formats.ts';


/**
 * Entry module for the classic script. auto.ts exports READY_EVENT and SCRIPT_MARKER for the
 * module build; as an IIFE entry those exports would need a global name to land on (the bundle
 * once leaked `window.capellWebMCPBundle`). Importing it for its side effect alone leaves the
 * IIFE nothing to export, so it defines `window.capellWebMCP` (auto.ts) and no other global.
 */
function exportFreeEntry(): Plugin {
  const auto = fileURLToPath(new URL('./src/auto.ts', import.meta.url));
  return {
    name: 'capell-iife-entry',
    enforce: 'pre',
    // Vite hands lib.entry over as a path under the root.
    resolveId: (source) => (source.endsWith(IIFE_ENTRY) ? `\0${IIFE_ENTRY}` : null),
    load: (id) => (id === `\0${IIFE_ENTRY}` ? `import ${JSON.stringify(auto)};\n` : null),
  };
}

/**
 * Single-file classic-script build `dist/capell-webmcp.single.iife.js`, for hosts that can serve
 * one file only (no `chunks/` folder beside it): every lazily imported module (the registry, the
 * read and write rooms, the panel: vite.rooms.ts) is inlined. Same behaviour as the other script
 * builds, larger file. The lazy classic script `capell-webmcp.iife.js` is vite.iife.config.ts.
 */
export default defineConfig({
  plugins: [exportFreeEntry(), linearFormatsOnly()],
  // A classic script finds itself through document.currentScript; import.meta does not exist.
  define: { 'import.meta.url': 'undefined' },
  build: classicScriptBuild('capell-webmcp.single.iife.js'),
});
