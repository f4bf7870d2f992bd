/**
 * The browser modules the demo theme takes from npm packages, served under `/site/vendor/` from
 * the project's node_modules (installed by `npm ci`, so `npm start` serves them as they are): no
 * copy of a library's code is kept in the repository.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { serveStaticFile } from './static-files.js';
import { sendText } from './responses.js';

const require = createRequire(import.meta.url);

/**
 * `/site/vendor/<name>` → the package file it is. idiomorph (bigskysoftware, 0BSD): the DOM morph
 * the Livewire stand-in redraws form-builder's forms with.
 */
const VENDOR_MODULES = Object.freeze(/** @type {Record<string, { dir: string, file: string }>} */ ({
  'idiomorph.js': { dir: dirname(require.resolve('idiomorph/dist/idiomorph.esm.js')), file: 'idiomorph.esm.js' },
}));

/**
 * Serves one vendor module, or 404 for a name not listed.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} name the path below `/site/vendor/`
 */
export async function serveVendorModule(req, res, name) {
  const module = Object.hasOwn(VENDOR_MODULES, name) ? VENDOR_MODULES[name] : undefined;
  if (!module) return sendText(req, res, 404, 'Not found');
  return serveStaticFile(req, res, module.dir, module.file);
}
