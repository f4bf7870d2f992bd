/**
 * The `admin-action` binding's target rule (shared/bindings/registry.ts uses it): pure, no DOM and no
 * network. A module of its own, not in targets.ts, which start-up code imports: the admin rule is
 * needed only where declarations are checked (the registry chunk).
 */
import type { Reason } from '../declarations/reason.js';

/**
 * Admin action identifiers (the admin contract: `[a-z][a-z0-9]*(\.[a-z0-9]+)*`, e.g.
 * `property.write`): one path segment of the admin API's `/actions/{action}/preview` and
 * `…/confirm`, so never a path, URL or selector.
 */
export const ACTION_TARGET_PATTERN = /^[a-z][a-z0-9]*(?:\.[a-z0-9]+)*$/;

/**
 * Checks an `admin-action` target: an action identifier (ACTION_TARGET_PATTERN), at most 128
 * characters.
 * @returns `[['binding.target', 'actionIdentifier', target]]`, or `[]` when it is one.
 */
export function checkActionTarget(target: string): Reason[] {
  return target.length <= 128 && ACTION_TARGET_PATTERN.test(target) ? [] : [['binding.target', 'actionIdentifier', target]];
}
