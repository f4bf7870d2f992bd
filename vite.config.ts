import { defineConfig } from 'vite';
import { fetchChunkImportsTogether } from './vite.chunk-imports.ts';
import { linearFormatsOnly } from './vite.formats.ts';
import { roomChunkGroups } from './vite.rooms.ts';

/**
 * ES module build of the script-tag entry `dist/capell-webmcp.js` (starts itself). Everything
 * needed after start-up (the JSON Schema validator and the read room, the write room, the lit
 * panel, later signing) is split into chunks by dynamic import, so the first load stays small (DESIGN
 * section 6). The library entry is built by vite.lib.config.ts.
 */
export default defineConfig({
  plugins: [linearFormatsOnly(), fetchChunkImportsTogether()],
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
        // Chunks by room (vite.rooms.ts): call (with the read room), write, the panel.
        codeSplitting: { groups: roomChunkGroups() },
      },
    },
  },
});
