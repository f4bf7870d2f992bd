/**
 * What the two classic-script builds share (vite.iife.config.ts, the lazy one;
 * vite.single.config.ts, everything inlined): the virtual entry that each build's own plugin
 * resolves to a module importing the start code for its side effect alone (so the IIFE exports
 * nothing and defines only `window.capellWebMCP`), and the build options of an IIFE written
 * beside the module build in dist/.
 */
import type { BuildEnvironmentOptions } from 'vite';

/** The classic script's entry id; each build's plugin resolves it to `\0` + this id. */
export const IIFE_ENTRY = 'virtual:capell-webmcp-iife';

/**
 * Vite build options of a classic script `dist/<fileName>` (ES2022, minified, with a source map;
 * dist/ is not emptied: it runs after the module build).
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
