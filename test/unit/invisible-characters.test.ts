/**
 * Which characters the panel makes visible and a form fill refuses (write/invisible-characters.ts):
 * Unicode's Default_Ignorable_Code_Point and Bidi_Control, and the C0/C1 controls, read from the
 * engine's tables; emoji presentation selectors and ZWJ sequences are left as drawn. Pure, no DOM.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { firstBidiControl, hasInvisible, markInvisible, splitInvisible } from '../../src/write/invisible-characters.ts';

describe('invisible and direction-changing characters', () => {
  it('marks every bidi control (U+061C, U+200E/F, U+202A–E, U+2066–9) where it is', () => {
    const controls = [0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
    for (const codePoint of controls) {
      const name = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
      assert.equal(markInvisible(`a${String.fromCodePoint(codePoint)}b`), `a⟨${name}⟩b`);
      assert.equal(firstBidiControl(`x${String.fromCodePoint(codePoint)}`), name);
    }
    assert.equal(markInvisible('refund \u202E0005'), 'refund ⟨U+202E⟩0005');
  });

  it('marks zero-width, default-ignorable and control characters, tag characters and variation selectors after text', () => {
    assert.equal(markInvisible('a\u200Bb\u200Cc\u200Dd\u2060e\u2064f\uFEFFg\u00ADh'), 'a⟨U+200B⟩b⟨U+200C⟩c⟨U+200D⟩d⟨U+2060⟩e⟨U+2064⟩f⟨U+FEFF⟩g⟨U+00AD⟩h');
    assert.equal(markInvisible('flag\u{E0067}\u{E007F}'), 'flag⟨U+E0067⟩⟨U+E007F⟩');
    assert.equal(markInvisible('x\uFE0F\u3164\u0007'), 'x⟨U+FE0F⟩⟨U+3164⟩⟨U+0007⟩');
    assert.equal(firstBidiControl('a\u200Bb'), undefined);
  });

  it('leaves tab, line breaks, ordinary text and emoji sequences as drawn', () => {
    for (const text of ['line one\nline two\ttab\r', 'Ada Lovelace', 'שלום 123', '👩\u200D💻', '❤\uFE0F', '']) {
      assert.equal(markInvisible(text), text);
      assert.equal(hasInvisible(text), false);
    }
    assert.deepEqual(splitInvisible('bob@\u202Emoc'), ['bob@', { codePoint: 0x202e }, 'moc']);
    assert.deepEqual(splitInvisible(''), []);
  });
});
