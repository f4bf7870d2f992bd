import { defineConfig } from 'vite';
import { inlineBundlerRuntime } from './vite.bundler-runtime.ts';
import { fetchChunkImportsTogether } from './vite.chunk-imports.ts';
import { classicScriptDoor } from './vite.classic-script.ts';
import { compileHints } from './vite.compile-hints.ts';
import { linearFormatsOnly } from './vite.formats.ts';
import { roomChunkGroups } from './vite.rooms.ts';

/**
 * ES module build of the script-tag entry `dist/capell-webmcp.js` (starts itself). Everything
 * needed after start-up is split into one chunk per unit folder of src/ (vite.rooms.ts: the
 * registry, the call with the validator and the reads, the writes, the lit panel, the inspector,
 * AgentGate's discovery and call, the admin registry), each loaded by dynamic import when first
 * needed, so the first load stays small. The library entry is built by vite.lib.config.ts.
 */
export default defineConfig({
  plugins: [
    linearFormatsOnly(), fetchChunkImportsTogether(), inlineBundlerRuntime(), classicScriptDoor(),
    // The entry's and the registry's functions run at start-up: V8 compiles them with the file,
    // off the main thread where it is streamed (vite.compile-hints.ts). Last: the hint must stay the
    // first line, before the helpers inlineBundlerRuntime puts first.
    compileHints((chunk) => chunk === 'capell-webmcp' || chunk === 'registry'),
  ],
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
        // One chunk per unit folder of src/ (vite.rooms.ts).
        codeSplitting: { groups: roomChunkGroups() },
      },
    },
  },
});
