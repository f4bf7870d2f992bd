import { defineConfig } from 'vite';
import { linearFormatsOnly } from './vite.formats.ts';

/**
 * ES module build of the script-tag entry `dist/capell-webmcp.js` (starts itself). Everything
 * needed after start-up (the JSON Schema validator and the executors, later the lit UI and
 * signing) is split into chunks by dynamic import, so the first load stays small (DESIGN
 * section 6). The library entry is built by vite.lib.config.ts.
 */
export default defineConfig({
  plugins: [linearFormatsOnly()],
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    minify: true,
    lib: {
      entry: { 'capell-webmcp': 'src/auto.ts' },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rollupOptions: {
      // Start-up code stays in the entry file itself (no facade re-exporting a start chunk: that
      // cost every visitor a second round trip); later chunks may import from the entry.
      preserveEntrySignatures: 'allow-extension',
      output: {
        chunkFileNames: 'chunks/[name]-[hash].js',
        minify: true,
        // Everything the entry needs at start-up in one chunk; the call chunk imports from it
        // instead of splitting shared modules into a third file.
        // The write machinery (form filling, write endpoints) as one chunk rather than four small
        // ones: it is always needed together, on the first write call.
        codeSplitting: {
          groups: [
            { name: 'write', includeDependenciesRecursively: false, test: /src[\\/](bindings[\\/](form|endpoint-write|write-answer)|forms[\\/]|writes[\\/](pending-write|write-registry|write-answers|read-write-answer|status-call))/ },
          ],
        },
      },
    },
  },
});
