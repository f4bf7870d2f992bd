/**
 * The demo's admin actors and their rights, as Capell Core's policy layer would hold them.
 * Rights are read fresh on every check (never cached in a session or a token), so revoking one
 * takes effect on the very next request. Source: Capell Agent Schema, "Navigation, forms, and
 * admin tools": admin tools use "the existing session, policy, and permission boundary", and
 * "global property sets, blueprints and settings require global-admin capability".
 */

/** The sites the admin manages: `a` is the public demo site, `b` exists only in the admin. */
export const ADMIN_SITE_KEYS = /** @type {const} */ (['a', 'b']);

/** @typedef {typeof ADMIN_SITE_KEYS[number]} AdminSiteKey */

/**
 * What an actor may do on a site, as Capell's admin asks it (capell-app/capell
 * `packages/admin/src/Support/Agent/AgentAdminAuthorization.php` @2c15f27): `site.view` (Gate
 * `view` on the site), `page.view` (`viewAny` Page), `page.update` (Page `update`),
 * `blueprint.view` (Blueprint `view_any`), `site.update` (Gate `update` on the site).
 */
export const SITE_CAPABILITIES = /** @type {const} */ (['site.view', 'page.view', 'page.update', 'blueprint.view']);

/** What only some may do on a site: change the site's structure (taxonomies, property sets). */
export const SITE_ADMIN_CAPABILITIES = /** @type {const} */ (['site.update']);

/** What only a global admin may do (Capell: `isGlobalAdmin()`): settings and blueprints. */
export const GLOBAL_CAPABILITIES = /** @type {const} */ (['global.admin']);

/** The "site" a global capability is granted on. */
export const GLOBAL_SCOPE = '*';

/**
 * @typedef {object} Actor
 * @property {string} id sign-in name, e.g. `ada`
 * @property {string} name display name
 * @property {string} password the demo password (`demo-<id>`, shown on the sign-in page: this is a demo)
 */

/** @type {readonly Actor[]} */
export const ACTORS = Object.freeze([
  { id: 'ada', name: 'Ada Lindqvist (editor, site A)', password: 'demo-ada' },
  { id: 'bo', name: 'Bo Haraldsen (editor, site B)', password: 'demo-bo' },
  { id: 'gil', name: 'Gil Moreau (global admin)', password: 'demo-gil' },
]);

/** The ids of the demo actors. */
export const ACTOR_IDS = Object.freeze(ACTORS.map((actor) => actor.id));

/**
 * The actor with an id, or undefined.
 * @param {unknown} id
 * @returns {Actor | undefined}
 */
export function findActor(id) {
  return ACTORS.find((actor) => actor.id === id);
}

/**
 * @typedef {object} Rights
 * @property {(actorId: string, site: string, capability: string) => boolean} can whether the actor
 *   holds the capability on the site (`GLOBAL_SCOPE` for global capabilities), now
 * @property {(actorId: string, capability: string) => string[]} sitesFor the admin sites on which
 *   the actor holds the capability, in ADMIN_SITE_KEYS order
 * @property {(actorId: string, site: string, capability: string) => void} grant
 * @property {(actorId: string, site: string, capability: string) => void} revoke
 */

/**
 * The demo's rights table, one per app: `ada` edits site `a`, `bo` site `b` (Capell's "site
 * editor": 10 of the 13 admin tools), `gil` is the global admin (both sites, their structure,
 * settings and blueprints: all 13).
 * @returns {Rights}
 * @example
 * const rights = createRights();
 * rights.can('ada', 'a', 'page.update'); // true
 * rights.revoke('ada', 'a', 'page.update');
 * rights.can('ada', 'a', 'page.update'); // false
 */
export function createRights() {
  /** @type {Set<string>} entries `actor site capability` */
  const held = new Set();
  /** @type {(actorId: string, site: string, capability: string) => string} */
  const entry = (actorId, site, capability) => `${actorId} ${site} ${capability}`;
  for (const capability of SITE_CAPABILITIES) {
    held.add(entry('ada', 'a', capability));
    held.add(entry('bo', 'b', capability));
    for (const site of ADMIN_SITE_KEYS) held.add(entry('gil', site, capability));
  }
  for (const capability of SITE_ADMIN_CAPABILITIES) for (const site of ADMIN_SITE_KEYS) held.add(entry('gil', site, capability));
  for (const capability of GLOBAL_CAPABILITIES) held.add(entry('gil', GLOBAL_SCOPE, capability));
  return {
    can: (actorId, site, capability) => held.has(entry(actorId, site, capability)),
    sitesFor: (actorId, capability) => ADMIN_SITE_KEYS.filter((site) => held.has(entry(actorId, site, capability))),
    grant(actorId, site, capability) {
      held.add(entry(actorId, site, capability));
    },
    revoke(actorId, site, capability) {
      held.delete(entry(actorId, site, capability));
    },
  };
}
