import { defineConfig } from 'vite';
import { roomChunkGroups } from './vite.rooms.ts';

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
      // The library exports normaliseCapellDeclaration, which needs the reason texts up front, so
      // the runtime's lazy import of them cannot split them out here (it does in the script build).
      onwarn(warning, warn) {
        if (warning.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') warn(warning);
      },
      // The same rooms as the script build (vite.rooms.ts): a read call never loads the write room.
      output: { chunkFileNames: 'chunks/[name]-[hash].js', minify: true, codeSplitting: { groups: roomChunkGroups() } },
    },
  },
});
