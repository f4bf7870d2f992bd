import { defineConfig } from 'vite';
import { classicScriptBuild, exportFreeEntry, laterUnitsOfModuleBuild } from './vite.classic-script.ts';
import { compileHints } from './vite.compile-hints.ts';

/**
 * Classic-script build `dist/capell-webmcp.iife.js` for themes that cannot load modules: the
 * start code (read the script tag's data-* options, define `window.capellWebMCP`, find WebMCP),
 * bundled from src/auto.ts, loading the rest as the module build's chunks beside it only where
 * WebMCP exists, as the module build does (vite.classic-script.ts). Serve it with `dist/chunks/`
 * and `dist/capell-webmcp.js`; a host that serves one file only uses
 * `capell-webmcp.single.iife.js` (vite.single.config.ts). Runs after the module build
 * (`npm run build`).
 */
export default defineConfig({
  plugins: [exportFreeEntry(), laterUnitsOfModuleBuild(), compileHints(() => true)],
  // A classic script finds itself through document.currentScript; import.meta does not exist.
  define: { 'import.meta.url': 'undefined' },
  build: classicScriptBuild('capell-webmcp.iife.js'),
});
