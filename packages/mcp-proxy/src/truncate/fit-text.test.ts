import { estimateTokens } from '@spillway/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitText, type TextCut } from './fit-text';

const marker = (cut: TextCut) => `\n[cut ${cut.tailStart - cut.headEnd} of ${cut.total}]\n`;

describe('fitText', () => {
  it('returns the very same string when it fits', () => {
    const text = 'short text';
    expect(fitText(text, { maxTokens: 100, marker })).toEqual({ text, cut: undefined });
  });

  it('keeps head and tail around the caller’s marker and stays within the budget', () => {
    const text = Array.from({ length: 5000 }, (_, index) => `line ${index}`).join('\n');
    const { text: output, cut } = fitText(text, { maxTokens: 500, headRatio: 0.6, marker });
    expect(cut).toBeDefined();
    const { headEnd, tailStart, total } = cut as TextCut;
    expect(total).toBe(text.length);
    expect(output).toBe(text.slice(0, headEnd) + marker(cut as TextCut) + text.slice(tailStart));
    expect(estimateTokens(output)).toBeLessThanOrEqual(500);
    expect(estimateTokens(output)).toBeGreaterThan(350);
    expect(headEnd).toBeGreaterThan(text.length - tailStart); // 60% head
    expect(text[headEnd]).toBe('\n'); // cut at a line break
  });

  it('never exceeds the budget nor leaves a lone surrogate (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 3000 }),
        fc.integer({ min: 20, max: 400 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (text, maxTokens, headRatio) => {
          const { text: output, cut } = fitText(text, { maxTokens, headRatio, marker });
          if (cut === undefined) {
            expect(output).toBe(text);
            return;
          }
          expect(estimateTokens(output)).toBeLessThanOrEqual(maxTokens);
          expect(output).toBe(text.slice(0, cut.headEnd) + marker(cut) + text.slice(cut.tailStart));
          expect(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(output)).toBe(
            false,
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
