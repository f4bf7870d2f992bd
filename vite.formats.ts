import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/**
 * Vite plugin for the browser builds: @cfworker/json-schema's `./format.js` (its regular
 * expressions, replaced at run time by src/call/validation/formats.ts) resolves to an empty table
 * instead, which keeps about 1.7 KB gzip of dead code out of the bundle. Node (tests, CLI) loads
 * the real module; validation.ts overwrites every entry either way.
 */
export function linearFormatsOnly(): Plugin {
  const stub = fileURLToPath(new URL('./src/call/validation/cfworker-format-stub.ts', import.meta.url));
  return {
    name: 'capell-linear-formats-only',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === './format.js' && importer && /@cfworker[\\/]json-schema[\\/]/.test(importer)) return stub;
      return null;
    },
  };
}
