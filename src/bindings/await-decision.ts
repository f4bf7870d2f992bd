/**
 * Waiting for the person: a write call settles on the first of the person's decision, Cancel,
 * the call's signal aborting, the confirmation timeout, or the page going away. It never hangs.
 */

/** How the wait ended. */
export type Decision<T> =
  | { kind: 'decided'; value: T }
  | { kind: 'cancelled' }
  | { kind: 'pending'; why: 'timeout' | 'abort' | 'pagehide' };

/** What the waiting needs. `timeoutMs` is in ms; `view` is the page's window (for `pagehide`). */
export interface DecisionOptions {
  signal: AbortSignal;
  timeoutMs: number;
  view: Window;
}

/**
 * Arms the ways a person can decide and waits for the first outcome. `arm` receives `decide` and
 * `cancel` and returns its own cleanup, which runs exactly once when the wait ends (whatever
 * ended it), together with the timer and the listeners set here.
 * @returns the Decision; never rejects (an `arm` that throws counts as cancelled after cleanup).
 */
export function awaitDecision<T>(
  { signal, timeoutMs, view }: DecisionOptions,
  arm: (decide: (value: T) => void, cancel: () => void) => () => void,
): Promise<Decision<T>> {
  return new Promise((resolve) => {
    let settled = false;
    let disarm: (() => void) | undefined;
    const onAbort = () => settle({ kind: 'pending', why: 'abort' });
    const onPageHide = () => settle({ kind: 'pending', why: 'pagehide' });
    const timer = setTimeout(() => settle({ kind: 'pending', why: 'timeout' }), timeoutMs);
    function settle(decision: Decision<T>): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      view.removeEventListener('pagehide', onPageHide);
      disarm?.();
      resolve(decision);
    }
    signal.addEventListener('abort', onAbort, { once: true });
    view.addEventListener('pagehide', onPageHide, { once: true });
    if (signal.aborted) return settle({ kind: 'pending', why: 'abort' });
    const cleanup = arm((value) => settle({ kind: 'decided', value }), () => settle({ kind: 'cancelled' }));
    if (settled) cleanup();
    else disarm = cleanup;
  });
}
