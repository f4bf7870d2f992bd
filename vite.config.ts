import { defineConfig } from 'vite';

/**
 * ES module build: the script-tag entry `dist/capell-webmcp.js` (starts itself) and the
 * side-effect-free library entry `dist/index.js`. Everything loaded after start-up (the JSON
 * Schema validator, later the lit UI and signing) is split into chunks by dynamic import, so the
 * first load stays within DESIGN section 6's 5 KB gzip budget.
 */
export default defineConfig({
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    minify: true,
    lib: {
      entry: { 'capell-webmcp': 'src/auto.ts', index: 'src/index.ts' },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rollupOptions: {
      output: { chunkFileNames: 'chunks/[name]-[hash].js', minify: true },
    },
  },
});
