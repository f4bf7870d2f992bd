/**
 * The raw arguments of a tool call as WebMCP hands them over, turned into a JSON object: one
 * reading for every tool, declared or the runtime's own.
 */
import { isPlainObject } from '../shared/is-plain-object.js';

/** Largest tool input accepted, in UTF-16 units of its JSON (about bytes); larger is refused unread. */
const MAX_INPUT_SIZE = 256 * 1024;

/**
 * Reads a call's raw input: `undefined`/`null` is `{}`; a string (older engines and some
 * polyfills pass the arguments as JSON text) is parsed; the result must be a plain JSON object
 * of at most MAX_INPUT_SIZE characters of JSON.
 * @returns `{ input }`, or `{ reason }` (one line, e.g. `input: must be a JSON object`). Never throws.
 */
export function parseToolInput(raw: unknown): { input: Record<string, unknown> } | { reason: string } {
  if (raw === undefined || raw === null) return { input: {} };
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return { reason: 'input: not a JSON object' };
    }
  }
  if (!isPlainObject(value)) return { reason: 'input: must be a JSON object' };
  const size = JSON.stringify(value).length;
  if (size > MAX_INPUT_SIZE) return { reason: `input: ${size} characters of JSON, at most ${MAX_INPUT_SIZE} allowed` };
  return { input: value };
}
