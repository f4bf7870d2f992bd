/**
 * The covered components (RFC 9421 §2) every AgentGate signature carries, whatever the manifest
 * lists. AgentGate declared tools, "Call a tool": send the call "signed with at least the
 * `auth[0].components`": the runtime adds what ties a signature to its one request, so that a
 * manifest listing only `content-digest` cannot make the agent's key sign something valid for
 * another host, method or path (Web Bot Auth requires `@authority`).
 */
import type { Component } from './signature-base.js';

/** A signed call covers where it goes and its body (RFC 9530 Content-Digest). */
const CALL_COMPONENT_FLOOR: readonly Component[] = ['@authority', '@method', '@path', 'content-digest'];

/** Whether two components are the same (name and `key` parameter). */
export function sameComponent(a: Component, b: Component): boolean {
  const left = typeof a === 'string' ? { name: a } : a;
  const right = typeof b === 'string' ? { name: b } : b;
  return left.name === right.name && left.key === right.key;
}

/** `components` in their order, then each of `floor` they lack. */
export function withFloor(components: readonly Component[], floor: readonly Component[] = CALL_COMPONENT_FLOOR): Component[] {
  return [...components, ...floor.filter((needed) => !components.some((component) => sameComponent(component, needed)))];
}

/**
 * What a handoff poll (a signed GET with only `Accept`) can cover of the call's components: the
 * derived ones (`@…`), `content-digest` (of the empty body) and `accept`, and the floor. A header
 * the GET does not carry (`content-type`, a price header) cannot be signed: covering it would make
 * every poll fail after the site accepted, and maybe was paid for, the call.
 */
export function pollComponents(components: readonly Component[]): Component[] {
  const carried = components.filter((component) => {
    const name = typeof component === 'string' ? component : component.name;
    return name.startsWith('@') || name === 'content-digest' || name === 'accept';
  });
  return withFloor(carried);
}
