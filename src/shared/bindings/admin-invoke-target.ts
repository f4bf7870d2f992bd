/**
 * The `admin-invoke` binding's target rule (shared/bindings/registry.ts uses it): pure, no DOM and no
 * network. A module of its own, not in targets.ts, which start-up code imports: the admin rule is
 * needed only where declarations are checked (the registry chunk).
 *
 * The target is the tool's own name, sent as `tool` to Capell's one invoke route
 * (`POST /admin/agent/v1/tools/invoke`, capell-app/capell `packages/admin/routes/agent.php` @cdb7004,
 * `src/Http/Agent/AgentAdminToolController.php` @73e5701: `'tool' => ['required', 'string', 'max:191']`).
 * The admin registry's normaliser sets it (admin/admin-registry-fetch.ts); no declaration names it.
 */
import type { Reason } from '../declarations/reason.js';

/** Longest tool name Capell's invoke route accepts (`max:191`), in characters. */
export const ADMIN_INVOKE_TOOL_MAX_LENGTH = 191;

/**
 * Checks an `admin-invoke` target: a tool name of at most ADMIN_INVOKE_TOOL_MAX_LENGTH characters
 * (the name itself passed the name rules already).
 * @returns `[['binding.target', 'adminInvokeTarget', target]]`, or `[]` when it is one.
 */
export function checkAdminInvokeTarget(target: string): Reason[] {
  return target.length <= ADMIN_INVOKE_TOOL_MAX_LENGTH ? [] : [['binding.target', 'adminInvokeTarget', target]];
}
