/**
 * The admin registry source (Capell Agent Schema, "Navigation, forms, and admin tools":
 * "Authenticated admin tools use a separate registry and the existing session"): on an admin page
 * that names it (`data-admin-registry`, `start({ adminRegistry: true })`), the runtime fetches the
 * signed-in editor's tools from the admin API, same origin with the session's cookie. The registry
 * is never written into any HTML, so a page without the option fetches nothing and registers no
 * admin tool. A row of the sources table, so only the switch is here: the fetch and the rules
 * (admin/admin-registry-fetch.ts) load on demand, a chunk of their own.
 */
import type { ToolSource } from './source.js';

/**
 * The admin API's base path: Capell admin's default (capell-app/capell `packages/admin/routes/agent.php`
 * @cdb7004: `AdminPanelEntrypoint::path()` (default `admin`) + `/agent/v1`).
 */
export const ADMIN_API_BASE = '/admin/agent/v1';

/**
 * The admin registry as a source. `read(root, config)` fetches nothing without `config` (audit,
 * CLI) or without the `adminRegistry` option (`[]`, synchronously); else resolves with one unit:
 * the registry's declarations, or, with no tools, the reason it could not be read (`(manifest)`
 * in the Report: "not signed in to the admin" for a 401). Definitions (the answer's `tools`) are
 * checked with the Capell rules, each bound to Capell's invoke route (the admin binding
 * `admin-invoke`, allowed only here, whatever binding the definition names: the Report warns per
 * tool), and their tools carry the editor's session (ToolSpec.session). Never throws or rejects.
 */
export const adminRegistry: ToolSource = {
  kind: 'capell-admin',
  // The runtime's own script tag names it; nothing else on a page can.
  selector: 'script[data-admin-registry]',
  read(root, config) {
    if (!config?.adminRegistry) return [];
    return import('../../admin/admin-registry-fetch.js').then(
      ({ readAdminRegistry }) => readAdminRegistry(root, config),
      (error: unknown) => [{ owner: adminRegistry, fingerprint: '', declarations: [], messages: {}, problem: ['manifest', 'adminFetch', String(error)] }],
    );
  },
  // From the fetch's chunk, loaded already: the start-up code holds only the switch.
  normaliser: async () => (await import('../../admin/admin-registry-fetch.js')).normaliseAdminDeclaration,
};
