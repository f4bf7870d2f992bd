/**
 * The registry chunk, loaded once per copy of the runtime: the entry asks for it as soon as it
 * runs (auto.ts), and start() gets the same promise. Once it has loaded, start() continues in the
 * same task: a second `import()` of a module that has loaded still waits for a task of its own
 * in Chromium, which the page's first frame can come before.
 */
import { loadRegistry } from './later-units.js';

type Follow = Awaited<ReturnType<typeof loadRegistry>>;

let loading: Promise<Follow> | undefined;

/**
 * The registry's `follow` (registry/follow.ts), loaded on the first call; every later call gets
 * the same promise. A load that failed is forgotten, so the next call tries again.
 * @returns a promise of `follow`; rejects with the import's error when the chunk cannot be loaded.
 */
export function loadRegistryOnce(): Promise<Follow> {
  loading ??= loadRegistry().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
