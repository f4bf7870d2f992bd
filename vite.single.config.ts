import { defineConfig } from 'vite';
import { classicScriptBuild, exportFreeEntry } from './vite.classic-script.ts';
import { linearFormatsOnly } from './vite.formats.ts';

/**
 * Single-file classic-script build `dist/capell-webmcp.single.iife.js`, for hosts that can serve
 * one file only (no `chunks/` folder beside it): every lazily loaded unit (the registry, the call
 * and the writes, the panel: vite.rooms.ts) is inlined. Same behaviour as the other script
 * builds, larger file. The lazy classic script `capell-webmcp.iife.js` is vite.iife.config.ts.
 */
export default defineConfig({
  plugins: [exportFreeEntry(), linearFormatsOnly()],
  // A classic script finds itself through document.currentScript; import.meta does not exist.
  define: { 'import.meta.url': 'undefined' },
  build: classicScriptBuild('capell-webmcp.single.iife.js'),
});
