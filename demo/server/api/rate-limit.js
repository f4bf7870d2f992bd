/**
 * The `throttle:capell-agent` middleware of Core's agent routes (capell-app/frontend
 * `FrontendServiceProvider`: `Limit::perMinute(config('capell.agent.rate_limit', 60))` by
 * `host|ip`), with Laravel's ThrottleRequests headers: `X-RateLimit-Limit` and
 * `X-RateLimit-Remaining` on every answer of the group, and on a 429 also `Retry-After` and
 * `X-RateLimit-Reset` (test/fixtures/capell/SOURCES.md §4.5).
 */

/** Length of a rate limit window, in seconds (`perMinute`). */
const WINDOW_SECONDS = 60;

/**
 * Core's default is 60 requests a minute; the demo, which the test suites and the benchmarks call
 * thousands of times a minute from one address, is configured as a site owner may configure
 * `capell.agent.rate_limit`.
 */
export const DEMO_AGENT_RATE_LIMIT = 100_000;

/**
 * @typedef {object} RateLimitOutcome
 * @property {boolean} allowed false once the key has used up its window
 * @property {Record<string, string>} headers the throttle headers for the answer
 */

/**
 * A limiter: windows of WINDOW_SECONDS per key, each starting at its first hit.
 * @param {object} options
 * @param {number} options.limit requests per window, ≥ 1
 * @param {() => number} [options.now] the clock, in ms since the epoch
 * @returns {{ hit(key: string): RateLimitOutcome }}
 */
export function createRateLimiter({ limit, now = Date.now }) {
  /** @type {Map<string, { hits: number, resetAt: number }>} resetAt in ms */
  const windows = new Map();
  return {
    hit(key) {
      const at = now();
      let window = windows.get(key);
      if (!window || window.resetAt <= at) {
        // Old windows go as keys come back, and all at once when too many are kept.
        if (windows.size > 10_000) windows.clear();
        window = { hits: 0, resetAt: at + WINDOW_SECONDS * 1000 };
        windows.set(key, window);
      }
      if (window.hits >= limit) {
        const retryAfter = Math.max(1, Math.ceil((window.resetAt - at) / 1000));
        return {
          allowed: false,
          headers: {
            'Retry-After': String(retryAfter),
            'X-RateLimit-Reset': String(Math.floor(at / 1000) + retryAfter),
            'X-RateLimit-Limit': String(limit),
            'X-RateLimit-Remaining': '0',
          },
        };
      }
      window.hits += 1;
      return { allowed: true, headers: { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(limit - window.hits) } };
    },
  };
}
