import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitText, type TextCut } from '../truncate/fit-text';
import { LargeText } from './large-text';
import { materializeLargeTexts } from './materialize-large-texts';

/** `text` cut into pieces at the given sizes (cycled). */
function piecesOf(text: string, sizes: readonly number[]): string[] {
  const pieces: string[] = [];
  for (let offset = 0, index = 0; offset < text.length; index++) {
    const size = sizes[index % sizes.length] as number;
    pieces.push(text.slice(offset, offset + size));
    offset += size;
  }
  return pieces;
}

const sizes = fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 8 });

describe('LargeText', () => {
  it('slices like the string it stands for, and joins to it (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 400 }),
        sizes,
        fc.nat(),
        fc.nat(),
        (text, cuts, a, b) => {
          const large = new LargeText(piecesOf(text, cuts));
          const start = a % (text.length + 2);
          const end = b % (text.length + 2);
          expect(large.length).toBe(text.length);
          expect(large.slice(start, end)).toBe(text.slice(start, Math.max(start, end)));
          expect(large.slice(start)).toBe(text.slice(start));
          expect(JSON.stringify({ text: large })).toBe(JSON.stringify({ text }));
          expect(large.toString()).toBe(text);
          expect(large.slice(start, end)).toBe(text.slice(start, Math.max(start, end)));
        },
      ),
    );
  });

  it('concatenates strings and large texts without joining them', () => {
    const joined = LargeText.concat(['ab', new LargeText(['cd', 'ef']), '', 'g']);
    expect(joined.length).toBe(7);
    expect(joined.slice(1, 6)).toBe('bcdef');
    expect(`${joined}`).toBe('abcdefg');
  });

  it('is cut by fitText exactly as its string is, without being joined (property)', () => {
    const marker = (cut: TextCut) => `\n[cut ${cut.tailStart - cut.headEnd} of ${cut.total}]\n`;
    // Long enough, most of the time, that the text is cut from its head and tail apart.
    const line = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 60, size: 'large' }),
      fc.string({ unit: 'grapheme-ascii', maxLength: 80, size: 'large' }),
      fc.constantFrom('', '\r', 'x\ud83d', '\ude00y', '😀😀'),
    );
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 40, maxLength: 200 }).map((lines) => lines.join('\n')),
        sizes,
        fc.integer({ min: 20, max: 300 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (text, cuts, maxTokens, headRatio) => {
          const large = new LargeText(piecesOf(text, cuts));
          const expected = fitText(text, { maxTokens, headRatio, marker });
          const actual = fitText(large, { maxTokens, headRatio, marker });
          expect(actual.cut).toEqual(expected.cut);
          expect(actual.text.toString()).toBe(expected.text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves a message without large texts alone, and gives the strings of those it carries', () => {
    const large = new LargeText(['a', 'b']);
    const message = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: large }], n: 1 } };
    const plain = { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'x' }] } };
    expect(materializeLargeTexts(message)).toBe(message);
    expect(message.result.content[0]?.text).toBe('ab');
    expect(materializeLargeTexts(plain)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: 'x' }] },
    });
  });
});
