/**
 * The units of validation work, shared by the call-time bound
 * (work-bound.ts) and the schema policy (shared/declarations/schema-policy.ts). One unit is about one
 * `enum` comparison in Chromium; bench/validation-bench.js measures the costliest shapes.
 */

/**
 * Most work one validator call may cost, in units of about one `enum` comparison. Over it the
 * call is refused before the validator runs. Measured in Chromium (bench/validation-bench.js):
 * a whole budget, in the costliest shapes (every item failing an `anyOf`, every item compared
 * with a large `enum`), costs well under 50 ms (the figures: docs/declarations.md).
 */
export const MAX_VALIDATION_WORK = 1_500_000;

/**
 * Units charged for one application of a subschema to one value that passes: the validator's own
 * call and location strings (measured: 20–40 enum comparisons).
 */
export const PAIR_UNITS = 30;

/**
 * Units charged for one application that fails: its error objects, its message and their copies
 * into every enclosing result (FAILING_DEPTH_UNITS per level), one error per missing `required`
 * name (ERROR_UNITS each). Measured: a failing application costs 5–10 times a passing one.
 * Every application inside `anyOf`/`oneOf`/`not` is charged so, valid value or not: their
 * branches fail as a matter of course.
 */
export const FAILING_UNITS = 150;
export const FAILING_DEPTH_UNITS = 15;
export const ERROR_UNITS = 20;


/**
 * Deepest chain of subschema applications one check may take (each `$ref`, branch, property or
 * item is one level). The validator recurses once per level and overflowed the stack from about
 * 600 levels (a recursive `$ref` over an input nested 300 deep); past this bound the value is
 * refused before the validator runs.
 */
export const MAX_VALIDATION_DEPTH = 256;
