import { defineConfig } from 'vite';

/**
 * Node build of the `capell-webmcp` command: src/cli/cli.ts → dist/cli.js (ES module, not minified so
 * stack traces stay readable). Dependencies (linkedom) stay external, loaded from node_modules;
 * the declaration rules and the audit are bundled from the same sources as the browser runtime.
 */
export default defineConfig({
  build: {
    ssr: 'src/cli/cli.ts',
    target: 'node20',
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: true,
    minify: false,
    rollupOptions: { output: { entryFileNames: 'cli.js', format: 'es' } },
  },
});
