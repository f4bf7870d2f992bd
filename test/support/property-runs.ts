/**
 * How many generated cases a property test runs. The suite runs a small, fixed set on every
 * `npm test`, so a failure is the same failure on every machine and the suite stays quick;
 * `npm run fuzz` (bench/fuzz.js) sets FUZZ_FULL=1 and the same tests run their full count.
 */

/** The environment variable bench/fuzz.js sets to `1` for the full counts. */
export const FUZZ_FULL_ENV = 'FUZZ_FULL';

/**
 * The number of cases to run: `small` in the suite, `full` when FUZZ_FULL=1.
 * @param small cases on every `npm test` (a positive integer)
 * @param full cases in `npm run fuzz` (at least `small`)
 * @throws TypeError naming the argument when the counts are not positive integers with small ≤ full
 * @example for (let seed = 1; seed <= propertyRuns(60, 400); seed++) { ... }
 */
export function propertyRuns(small: number, full: number): number {
  if (!Number.isSafeInteger(small) || small < 1) throw new TypeError(`propertyRuns: small must be a positive integer (got ${small})`);
  if (!Number.isSafeInteger(full) || full < small) throw new TypeError(`propertyRuns: full must be an integer ≥ small (got ${full})`);
  return process.env[FUZZ_FULL_ENV] === '1' ? full : small;
}
