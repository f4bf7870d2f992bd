import { defineConfig } from 'vite';

/**
 * Library build `dist/index.js` (`import { start } from 'capell-webmcp'`): no side effects on
 * import. Built apart from the script-tag entry so that entry stays one self-contained file.
 */
export default defineConfig({
  build: {
    target: 'es2022',
    outDir: 'dist/lib',
    emptyOutDir: true,
    sourcemap: true,
    minify: true,
    lib: {
      entry: { index: 'src/index.ts' },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rollupOptions: {
      output: { chunkFileNames: 'chunks/[name]-[hash].js', minify: true },
    },
  },
});
