import { defineConfig } from 'vite';
import { linearFormatsOnly } from './vite.formats.ts';

/**
 * Classic-script build `dist/capell-webmcp.iife.js` for themes that cannot load modules. An IIFE
 * cannot load chunks, so the lazily imported modules (the read and write rooms, the panel:
 * vite.rooms.ts) are inlined: same behaviour, larger file.
 */
export default defineConfig({
  plugins: [linearFormatsOnly()],
  // A classic script finds itself through document.currentScript; import.meta does not exist.
  define: { 'import.meta.url': 'undefined' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: true,
    minify: true,
    lib: {
      entry: 'src/auto.ts',
      formats: ['iife'],
      name: 'capellWebMCPBundle',
      fileName: () => 'capell-webmcp.iife.js',
    },
  },
});
