import type { Reason } from './reason.js';

/**
 * Descriptions: `description`, or `descriptionKey` resolved through the manifest's `messages`.
 */

/** Translations: message key → text in the page's language (the island's `messages`). */
export type Messages = Readonly<Record<string, unknown>>;

/** Longest description after translation, in code points (Capell Agent Schema normaliser). */
export const MAX_DESCRIPTION_CODE_POINTS = 500;

/** Counts Unicode code points, as JSON Schema and Core's `mb_strlen` do (not UTF-16 units). */
export function countCodePoints(text: string): number {
  // A surrogate pair is one code point; a lone surrogate counts as one, as iterating the string does.
  let count = text.length;
  for (let index = 0; index < text.length - 1; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        index++;
      }
    }
  }
  return count;
}

/**
 * Resolves a declaration's description. A `descriptionKey` with a translation wins; otherwise a
 * plain `description` is used. The text passes through unchanged (no trimming or stripping).
 * Capell Agent Schema, "Tool declarations": "a provider-authored description or translation key";
 * Core: 1–500 characters after translation.
 * @returns `{ description }` or `{ reasons }` naming the field and the rule.
 */
export function resolveDescription(
  declaration: { description?: unknown; descriptionKey?: unknown },
  messages: Messages,
): { description: string; reasons?: undefined } | { description?: undefined; reasons: Reason[] } {
  const { description, descriptionKey } = declaration;
  const reasons: Reason[] = [];
  let text: string | undefined;
  if (descriptionKey !== undefined) {
    if (typeof descriptionKey !== 'string' || descriptionKey === '') {
      reasons.push(['descriptionKey', 'nonEmptyString']);
    } else {
      const translated = Object.hasOwn(messages, descriptionKey) ? messages[descriptionKey] : undefined;
      if (typeof translated === 'string') text = translated;
      else if (description === undefined) {
        reasons.push(['descriptionKey', 'noTranslation', descriptionKey]);
      }
    }
  }
  if (text === undefined && description !== undefined) {
    if (typeof description !== 'string') reasons.push(['description', 'string']);
    else text = description;
  }
  if (text === undefined) {
    if (reasons.length === 0) reasons.push(['description', 'descriptionRequired']);
    return { reasons };
  }
  const field = descriptionKey !== undefined && typeof descriptionKey === 'string' && text !== description ? 'descriptionKey' : 'description';
  if (text.trim() === '') return { reasons: [[field, 'emptyText']] };
  // Code points never outnumber UTF-16 units: only a longer text needs counting.
  if (text.length > MAX_DESCRIPTION_CODE_POINTS) {
    const length = countCodePoints(text);
    if (length > MAX_DESCRIPTION_CODE_POINTS) return { reasons: [[field, 'textLength', length]] };
  }
  return { description: text };
}
