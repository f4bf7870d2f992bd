import { defineConfig } from 'vite';

/**
 * Node build of `capell-webmcp/agent`: src/agent/index.ts → dist/agent/index.js (ES module, not
 * minified so stack traces stay readable). Dependencies (structured-headers, idb-keyval) stay
 * external, loaded from node_modules; the signing, manifest and receipt rules are bundled from
 * the same sources as the browser runtime. No browser entry imports src/agent.
 */
export default defineConfig({
  build: {
    ssr: 'src/agent/index.ts',
    target: 'node20',
    outDir: 'dist/agent',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    rollupOptions: {
      output: { entryFileNames: 'index.js', chunkFileNames: 'chunks/[name]-[hash].js', format: 'es' },
      onwarn(warning, warn) {
        if (warning.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') warn(warning);
      },
    },
  },
});
