import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutPoints } from './cut-points';

const isLoneSurrogateAt = (text: string, index: number) => {
  const code = text.charCodeAt(index);
  if (code >= 0xd800 && code <= 0xdbff)
    return !(text.charCodeAt(index + 1) >= 0xdc00 && text.charCodeAt(index + 1) <= 0xdfff);
  if (code >= 0xdc00 && code <= 0xdfff)
    return !(text.charCodeAt(index - 1) >= 0xd800 && text.charCodeAt(index - 1) <= 0xdbff);
  return false;
};

describe('cutPoints', () => {
  it('keeps a short text whole', () => {
    expect(cutPoints('abc', { keepChars: 10 })).toEqual({ headEnd: 3, tailStart: 3 });
  });

  it('prefers line boundaries and can keep a head only', () => {
    const text = `${'a'.repeat(95)}\n${'b'.repeat(400)}\n${'c'.repeat(95)}`;
    const both = cutPoints(text, { keepChars: 200 });
    expect(text[both.headEnd]).toBe('\n');
    expect(text[both.tailStart - 1]).toBe('\n');
    expect(cutPoints(text, { keepChars: 100, headRatio: 1 }).tailStart).toBe(text.length);
  });

  it('property: within the budget, never splitting a surrogate pair, cut points in order', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', minLength: 50, maxLength: 400 }),
        fc.integer({ min: 0, max: 120 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (text, keepChars, headRatio) => {
          const { headEnd, tailStart } = cutPoints(text, { keepChars, headRatio });
          expect(0 <= headEnd && headEnd <= tailStart && tailStart <= text.length).toBe(true);
          if (keepChars < text.length)
            expect(headEnd + (text.length - tailStart)).toBeLessThanOrEqual(keepChars);
          const kept = text.slice(0, headEnd) + text.slice(tailStart);
          for (let index = 0; index < kept.length; index++)
            expect(isLoneSurrogateAt(kept, index)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});
