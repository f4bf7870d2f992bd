/**
 * Characters a person cannot see where they are drawn, or that change the order in which the text
 * around them is drawn: what the panel makes visible (as `⟨U+202E⟩`) wherever it writes a value,
 * and what a form fill refuses (the bidi controls: a page's control would draw the value in
 * another order than it is sent). docs/security.md, "What the person sees is what is sent".
 *
 * The set is Unicode's own, read from the JavaScript engine's Unicode tables (ECMAScript property
 * escapes, so it follows the engine's Unicode version with no table of ours):
 * - `Default_Ignorable_Code_Point` (UAX #44; "should be rendered as completely invisible"): the
 *   zero-width space, non-joiner and joiner (U+200B–U+200D), word joiner and invisible operators
 *   (U+2060–U+2064), the BOM (U+FEFF), the soft hyphen (U+00AD), variation selectors, tag
 *   characters (U+E0000–U+E0FFF), Hangul fillers, and the rest of the property;
 * - `Bidi_Control` (UAX #9): U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069;
 * - the C0 and C1 controls other than tab, line feed and carriage return (drawn as nothing).
 * Left alone, because a person sees their effect: a variation selector U+FE0E/U+FE0F right after
 * an `Extended_Pictographic` character (text or emoji presentation), and U+200D between two
 * (an emoji ZWJ sequence such as 👩‍💻).
 */

/** One character of the set (see the module comment). */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]/u;
/** Every character of the set, for scanning. */
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');
const BIDI_CONTROL = /\p{Bidi_Control}/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;

/** A part of a text as the panel writes it: text drawn as it is, or one invisible character (its code point). */
export type TextPart = string | { codePoint: number };

/** `U+202E` for 0x202E (at least four hex digits, upper case: Unicode's notation). */
export function codePointName(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The character that ends just before `index` of `text` ('' at the start), whole when it is a surrogate pair. */
function charBefore(text: string, index: number): string {
  if (index <= 0) return '';
  const low = text.charCodeAt(index - 1);
  const start = low >= 0xdc00 && low <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  return String.fromCodePoint(text.codePointAt(start)!);
}

/** Whether the invisible character `char` at `index` of `text` has an effect a person sees (the emoji exceptions above). */
function isDrawnEffect(text: string, index: number, char: string): boolean {
  const before = charBefore(text, index);
  if (char === '\uFE0E' || char === '\uFE0F') return PICTOGRAPHIC.test(before);
  if (char !== '\u200D' || index + 1 >= text.length) return false;
  return PICTOGRAPHIC.test(before) && PICTOGRAPHIC.test(String.fromCodePoint(text.codePointAt(index + 1)!));
}

/**
 * Splits `text` into the parts the panel writes: runs drawn as they are, and each invisible or
 * direction-changing character on its own (see the module comment).
 * @returns `['bob@', { codePoint: 0x202E }, 'moc.knab']`; `[text]` when there is none; `[]` for ''.
 */
export function splitInvisible(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let from = 0;
  for (const match of text.matchAll(INVISIBLE_ALL)) {
    const index = match.index;
    if (isDrawnEffect(text, index, match[0])) continue;
    if (index > from) parts.push(text.slice(from, index));
    parts.push({ codePoint: match[0].codePointAt(0)! });
    from = index + match[0].length;
  }
  if (from < text.length) parts.push(text.slice(from));
  return parts;
}

/** `text` with every invisible or direction-changing character written as `⟨U+202E⟩` (the text the panel shows). */
export function markInvisible(text: string): string {
  return splitInvisible(text).map((part) => (typeof part === 'string' ? part : `⟨${codePointName(part.codePoint)}⟩`)).join('');
}

/** Whether `text` holds a character markInvisible writes as a marker. */
export function hasInvisible(text: string): boolean {
  return splitInvisible(text).some((part) => typeof part !== 'string');
}

/** The first bidi control (UAX #9 Bidi_Control) in `text`, as `U+202E`, or undefined. */
export function firstBidiControl(text: string): string | undefined {
  const found = BIDI_CONTROL.exec(text);
  return found ? codePointName(found[0].codePointAt(0)!) : undefined;
}
