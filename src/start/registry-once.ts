/**
 * The registry chunk, loaded once per copy of the runtime: the entry asks for it when it runs
 * (auto.ts), and start() gets the same load. Once it has loaded, start() reaches the registry
 * in the same task: a second `import()` of a module that has loaded still waits for a task of its
 * own in Chromium, which the page's first frame can come before. (A source whose rules are a chunk
 * of their own, AgentGate's or the admin registry's, still loads them by `import()`.)
 */
import { loadRegistry } from './later-units.js';

type Follow = Awaited<ReturnType<typeof loadRegistry>>;

let loading: Promise<Follow> | undefined;

/**
 * The registry's `follow` (registry/follow.ts), loaded on the first call; every later call gets
 * the same load. A load that failed is forgotten, so the next call asks again (where the fetch
 * itself failed the browser may answer from its module map: HTML keeps a failed module for the
 * page's life).
 * @returns a promise of `follow`; rejects with the error when the chunk cannot be loaded (also
 *   when the loader throws, as the classic script's can where a page broke `Promise.all`).
 */
export async function loadRegistryOnce(): Promise<Follow> {
  // The `import()` runs in a promise job of its own, once the caller's script has run: agent
  // clients attach DevTools, which records the stack of each request's initiator, and from the
  // entry's top level that made V8 re-parse the whole entry for its source positions before
  // `DOMContentLoaded` (Chromium 156 trace). startup-ab.js, 80 rounds: 54.6 → 53.1 ms at 10 tools.
  loading ??= Promise.resolve().then(loadRegistry).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
