import { ADMIN_ACTIONS } from './actions.js';
import { GLOBAL_SCOPE } from './actors.js';
import { ADMIN_FIELDS, toFieldSchema } from './admin-fields.js';

/**
 * The admin registry: the Capell tool declarations an actor may use, served only by
 * `GET /admin/agent/v1/tools` to a signed-in editor and never written into any HTML. Source:
 * Capell Agent Schema, "Navigation, forms, and admin tools": "Authenticated admin tools use a
 * separate registry", and "Admin declarations and confirmation tokens never enter public HTML or
 * the anonymous registry"; admin contract, "GET /admin/agent/v1/tools".
 */

/** Base of the admin API. */
export const ADMIN_API_BASE = '/admin/agent/v1';

/** Name of the read tool (an `endpoint` binding on ADMIN_CONTENT_PATH). */
export const ADMIN_CONTENT_TOOL = 'admin.content.read';

/** The admin content endpoint. */
export const ADMIN_CONTENT_PATH = `${ADMIN_API_BASE}/content`;

/**
 * The declarations an actor may use (on at least one site), in a stable order: the read tool,
 * then the write actions; every `site` is an enum of the sites on which the actor holds that
 * capability now.
 * @param {string} actorId
 * @param {import('./actors.js').Rights} rights
 * @returns {Record<string, unknown>[]}
 */
export function listAdminTools(actorId, rights) {
  /** @type {Record<string, unknown>[]} */
  const tools = [];
  const readSites = rights.sitesFor(actorId, 'content.read');
  if (readSites.length > 0) {
    tools.push({
      name: ADMIN_CONTENT_TOOL,
      description: 'Read a site\'s pages as the admin holds them: without page, the list with each page\'s status; with page, its stored (published) values and its draft.',
      inputSchema: {
        type: 'object',
        properties: { site: toFieldSchema(ADMIN_FIELDS.site, readSites), page: toFieldSchema(ADMIN_FIELDS.page) },
        required: ['site'],
        additionalProperties: false,
      },
      outputSchema: { type: 'object' },
      effect: 'read',
      binding: { type: 'endpoint', target: ADMIN_CONTENT_PATH },
    });
  }
  for (const action of Object.values(ADMIN_ACTIONS)) {
    const sites = action.global ? (rights.can(actorId, GLOBAL_SCOPE, action.capability) ? [] : undefined) : rights.sitesFor(actorId, action.capability);
    if (sites === undefined || (!action.global && sites.length === 0)) continue;
    /** @type {Record<string, unknown>} */
    const properties = {};
    for (const [name, spec] of Object.entries(action.fields)) properties[name] = toFieldSchema(spec, name === 'site' ? sites : undefined);
    tools.push({
      name: action.tool,
      description: action.description,
      inputSchema: { type: 'object', properties, required: action.required, additionalProperties: false },
      outputSchema: { type: 'object' },
      effect: 'write',
      binding: { type: 'admin-action', target: action.id },
    });
  }
  return tools;
}
