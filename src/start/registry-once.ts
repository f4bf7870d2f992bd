/**
 * The registry chunk, loaded once per copy of the runtime: the entry asks for it as soon as it
 * runs (auto.ts), and start() gets the same load. Once it has loaded, start() reaches the registry
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
  loading ??= loadRegistry().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
