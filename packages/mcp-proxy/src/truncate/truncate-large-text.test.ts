import { truncateText } from '@spillway/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LargeText } from '../large-text/large-text';
import { LargeLineParser } from '../transport/large-line-parser';
import { jsonText } from './json-text';
import { truncateLargeText } from './truncate-large-text';

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

const sizes = fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 8 });
// Lines of varied length, so that the cut points move to line breaks.
const lines = fc
  .array(fc.string({ unit: 'grapheme', maxLength: 90 }), { maxLength: 120 })
  .map((parts) => parts.join('\n'));

describe('truncateLargeText', () => {
  it("gives truncateText's output without joining the text (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(lines, fc.string({ unit: 'binary', maxLength: 3000 })),
        sizes,
        fc.integer({ min: 0, max: 2000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (text, cuts, maxChars, headRatio) => {
          const large = new LargeText(piecesOf(text, cuts));
          expect(truncateLargeText(large, { maxChars, headRatio })).toBe(
            truncateText(text, { maxChars, mode: 'head-tail', headRatio }),
          );
        },
      ),
    );
  });
});

describe('jsonText', () => {
  it('serializes a value holding large texts to the JSON of the same value (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ unit: 'grapheme', maxLength: 200 }),
            fc.string({ unit: 'binary', maxLength: 200 }),
            fc
              .array(fc.constantFrom('a', 'bcdefghijklmnopqrstuvwxyz', '"', '\\', '\n', '\ud83d', '\ude00'), {
                maxLength: 300,
              })
              .map((parts) => parts.join('')),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        sizes,
        fc.jsonValue(),
        (texts, cuts, other) => {
          const value = { other, items: texts.map((text) => new LargeText(piecesOf(text, cuts))), last: 1 };
          const expected = JSON.stringify({ other, items: texts, last: 1 });
          const json = jsonText(value);
          expect(json.toString()).toBe(expected);
        },
      ),
    );
  });
});

describe('LargeLineParser and structuredContent', () => {
  it('reads long string values under structuredContent into large texts, not keys or short values', () => {
    const long = 'x\n"y'.repeat(100);
    const message = {
      jsonrpc: '2.0',
      id: 1,
      result: {
        content: [{ type: 'text', text: long }],
        structuredContent: { content: long, list: [long, 'short'], [long]: 1, nested: { value: long } },
        other: long,
      },
    };
    const parser = new LargeLineParser({ minTextChars: 64 });
    parser.write(JSON.stringify(message));
    const parsed = parser.end() as { result: Record<string, Record<string, unknown>> };
    const structured = parsed.result.structuredContent as Record<string, unknown>;
    expect(LargeText.isInstance(structured.content)).toBe(true);
    expect(LargeText.isInstance((structured.list as unknown[])[0])).toBe(true);
    expect((structured.list as unknown[])[1]).toBe('short');
    expect(structured[long]).toBe(1);
    expect(LargeText.isInstance((structured.nested as Record<string, unknown>).value)).toBe(true);
    expect(parsed.result.other).toBe(long);
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(message);
  });
});
