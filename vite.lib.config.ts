import { defineConfig } from 'vite';

/**
 * Library build `dist/lib/index.js`, its chunks in `dist/lib/chunks/` (`import { start } from
 * 'capell-webmcp'`): no side effects on import. Built apart from the script-tag entry
 * (vite.config.ts), which starts itself and groups its chunks into rooms.
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
      // Automatic splitting, not the script build's room groups (vite.rooms.ts): those need the
      // entry to export internals to its chunks (preserveEntrySignatures 'allow-extension'), which
      // a package's public module must not. The rooms hold anyway: no read module imports a write
      // module, so no read chunk imports the write room's chunks.
      output: { chunkFileNames: 'chunks/[name]-[hash].js', minify: true },
    },
  },
});
