import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasLoneSurrogate } from '../../test/truncate-helpers';
import { InvalidConfigError } from '../errors/invalid-config-error';
import { type TruncateTextOptions, truncateText } from './truncate-text';

const headMarker = (kept: number, total: number) =>
  `\n\n[... content truncated, showing first ${kept} characters of ${total} total ...]`;
const headTailMarker = (removed: number) => `\n\n... [truncated: ${removed} chars removed] ...\n\n`;
/** The most head characters that fit with the head marker: the largest k with k + marker ≤ maxChars. */
const headBudget = (maxChars: number, total: number) => {
  let kept = maxChars;
  while (kept + headMarker(kept, total).length > maxChars) kept--;
  return kept;
};
/** The most head + tail characters that fit with the head-tail marker. */
const headTailBudget = (maxChars: number, total: number) => {
  let available = maxChars;
  while (available + headTailMarker(total - available).length > maxChars) available--;
  return available;
};
const HEAD_MARKER = /\n\n\[\.\.\. content truncated, showing first (\d+) characters of (\d+) total \.\.\.\]$/;
const HEAD_TAIL_MARKER = /\n\n\.\.\. \[truncated: (\d+) chars removed\] \.\.\.\n\n/;

describe('truncateText', () => {
  it('returns a text that fits unchanged', () => {
    const text = 'hello 😀 world';
    expect(truncateText(text, { maxChars: text.length })).toBe(text);
    expect(truncateText(text, { maxChars: 1_000, mode: 'head' })).toBe(text);
    expect(truncateText(text, { maxChars: Number.POSITIVE_INFINITY })).toBe(text);
    expect(truncateText('', { maxChars: 0 })).toBe('');
  });

  it('returns an empty string for maxChars of 0 or less', () => {
    expect(truncateText('abc', { maxChars: 0 })).toBe('');
    expect(truncateText('abc', { maxChars: -5 })).toBe('');
    expect(truncateText('abc', { maxChars: Number.NEGATIVE_INFINITY })).toBe('');
  });

  it('head mode: keeps the head and appends the exact seed marker with exact numbers', () => {
    const text = 'a'.repeat(5_000);
    const output = truncateText(text, { maxChars: 1_000, mode: 'head' });
    const kept = headBudget(1_000, 5_000);
    expect(output).toBe('a'.repeat(kept) + headMarker(kept, 5_000));
    expect(output.length).toBe(1_000);
  });

  it('head-tail mode: keeps both ends with the exact Strands marker and the exact removed count', () => {
    const text = `${'h'.repeat(3_000)}${'m'.repeat(4_000)}${'t'.repeat(3_000)}`;
    const output = truncateText(text, { maxChars: 1_000 });
    const available = headTailBudget(1_000, 10_000);
    const head = 'h'.repeat(Math.floor(available / 2));
    const tail = 't'.repeat(available - head.length);
    expect(output).toBe(head + headTailMarker(10_000 - head.length - tail.length) + tail);
    expect(output.length).toBeLessThanOrEqual(1_000);
  });

  it('writes numbers as plain integers, without separators', () => {
    const text = 'x'.repeat(1_234_567);
    expect(truncateText(text, { maxChars: 200, mode: 'head' })).toMatch(/of 1234567 total \.\.\.\]$/);
    expect(truncateText(text, { maxChars: 200 })).toMatch(/\[truncated: \d{7} chars removed\]/);
    expect(truncateText(text, { maxChars: 200 })).not.toMatch(/[,.\u00a0\u202f]\d{3} chars/);
  });

  it('honours headRatio', () => {
    const text = 'x'.repeat(10_000);
    const output = truncateText(text, { maxChars: 1_000, headRatio: 0.8 });
    const match = HEAD_TAIL_MARKER.exec(output)!;
    const available = headTailBudget(1_000, 10_000);
    expect(match.index).toBe(Math.floor(available * 0.8));
    expect(output.length - match.index - match[0].length).toBe(available - match.index);
    expect(truncateText(text, { maxChars: 1_000, headRatio: 1 }).endsWith(' ...\n\n')).toBe(true);
    expect(truncateText(text, { maxChars: 1_000, headRatio: 0 }).startsWith('\n\n... [truncated: ')).toBe(
      true,
    );
  });

  describe('Unicode safety', () => {
    it('never splits a surrogate pair across the head cut', () => {
      const maxChars = 500;
      const total = 2_000;
      const budget = headBudget(maxChars, total);
      // The pair occupies [budget - 1, budget + 1): the natural cut lands between its two halves.
      const text = `${'x'.repeat(budget - 1)}😀${'y'.repeat(total - budget - 1)}`;
      expect(text.length).toBe(total);
      const output = truncateText(text, { maxChars, mode: 'head' });
      expect(hasLoneSurrogate(output)).toBe(false);
      expect(output).toBe('x'.repeat(budget - 1) + headMarker(budget - 1, total));
    });

    it('never splits a surrogate pair across the head or tail cut in head-tail mode', () => {
      const maxChars = 601;
      const total = 3_000;
      const available = headTailBudget(maxChars, total);
      const headChars = Math.floor(available / 2);
      const tailChars = available - headChars;
      const tailStart = total - tailChars;
      const text = `${'h'.repeat(headChars - 1)}😀${'m'.repeat(tailStart - headChars - 2)}🎉${'t'.repeat(tailChars - 1)}`;
      expect(text.length).toBe(total);
      expect(text.charCodeAt(headChars)).toBe(0xde00); // low half of 😀 right at the head cut
      expect(text.charCodeAt(tailStart)).toBe(0xdf89); // low half of 🎉 right at the tail start
      const output = truncateText(text, { maxChars });
      expect(hasLoneSurrogate(output)).toBe(false);
      const head = 'h'.repeat(headChars - 1);
      const tail = 't'.repeat(tailChars - 1);
      expect(output).toBe(head + headTailMarker(total - head.length - tail.length) + tail);
    });

    it('keeps CJK and emoji intact and counts UTF-16 code units', () => {
      const text = '中文😀'.repeat(20_000);
      for (const mode of ['head', 'head-tail'] as const) {
        const output = truncateText(text, { maxChars: 30_000, mode });
        expect(output.length).toBeLessThanOrEqual(30_000);
        expect(hasLoneSurrogate(output)).toBe(false);
      }
    });

    it('cuts without marker, Unicode-safely, when the marker does not fit', () => {
      const text = `abc😀${'z'.repeat(100)}`;
      expect(truncateText(text, { maxChars: 4, mode: 'head' })).toBe('abc');
      expect(truncateText(text, { maxChars: 5 })).toBe('abc😀');
      expect(truncateText(text, { maxChars: 40 })).toBe(text.slice(0, 40));
    });
  });

  describe('line awareness', () => {
    const lines = Array.from(
      { length: 400 },
      (_, index) => `line ${String(index).padStart(3, '0')} ${'.'.repeat(40)}`,
    );
    const text = lines.join('\n');

    it('ends the head at a line break near the cut point', () => {
      const output = truncateText(text, { maxChars: 2_000, mode: 'head' });
      const [, kept] = HEAD_MARKER.exec(output)!;
      const head = output.slice(0, Number(kept));
      expect(text.startsWith(head)).toBe(true);
      expect(text[head.length]).toBe('\n');
      expect(head.endsWith('.')).toBe(true);
    });

    it('starts the tail just after a line break near its start', () => {
      const output = truncateText(text, { maxChars: 2_000 });
      const match = HEAD_TAIL_MARKER.exec(output)!;
      const head = output.slice(0, match.index);
      const tail = output.slice(match.index + match[0].length);
      expect(text[head.length]).toBe('\n');
      expect(tail.startsWith('line ')).toBe(true);
      expect(text[text.length - tail.length - 1]).toBe('\n');
      expect(Number(match[1])).toBe(text.length - head.length - tail.length);
    });

    it('does not split a CRLF pair', () => {
      const crlf = lines.join('\r\n');
      const output = truncateText(crlf, { maxChars: 2_000, mode: 'head' });
      const [, kept] = HEAD_MARKER.exec(output)!;
      expect(crlf.slice(Number(kept), Number(kept) + 2)).toBe('\r\n');
    });

    it('ignores line breaks outside the bounded window', () => {
      const single = `${'a'.repeat(100)}\n${'b'.repeat(100_000)}`;
      const output = truncateText(single, { maxChars: 10_000, mode: 'head' });
      const [, kept] = HEAD_MARKER.exec(output)!;
      expect(Number(kept)).toBe(headBudget(10_000, single.length));
    });

    it('can be turned off', () => {
      const output = truncateText(text, { maxChars: 2_000, mode: 'head', lineWindow: 0 });
      expect(output.length).toBe(2_000);
    });
  });

  it('rejects invalid options with InvalidConfigError', () => {
    const invalid: TruncateTextOptions[] = [
      { maxChars: Number.NaN },
      { maxChars: 1.5 },
      { maxChars: '10' as unknown as number },
      { maxChars: 10, mode: 'tail' as never },
      { maxChars: 10, headRatio: 2 },
      { maxChars: 10, headRatio: Number.NaN },
      { maxChars: 10, lineWindow: -1 },
    ];
    for (const options of invalid) {
      let caught: unknown;
      try {
        truncateText('text', options);
      } catch (error) {
        caught = error;
      }
      expect(InvalidConfigError.isInstance(caught), JSON.stringify(options)).toBe(true);
    }
    expect(() => truncateText('text', { maxChars: Number.NaN })).toThrow(/maxChars/);
    expect(() => truncateText(42 as unknown as string, { maxChars: 10 })).toThrow(TypeError);
  });

  it('cuts a 10 MB single-line input (its O(kept) cost is measured by `pnpm bench`)', () => {
    const text = 'é'.repeat(10 * 1024 * 1024);
    const output = truncateText(text, { maxChars: 30_000 });
    expect(output.length).toBeLessThanOrEqual(30_000);
    expect(output.startsWith('é'.repeat(1_000))).toBe(true);
  });

  describe('properties', () => {
    const codeUnitString = fc.string({
      unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    });
    const anyText = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'grapheme-composite' }),
      fc.string({ unit: fc.constantFrom('a', '\n', '😀', '中', '\r\n'), maxLength: 400 }),
      codeUnitString,
    );
    const options = fc.record({
      maxChars: fc.integer({ min: -5, max: 300 }),
      mode: fc.constantFrom('head' as const, 'head-tail' as const),
      headRatio: fc.double({ min: 0, max: 1, noNaN: true }),
      lineWindow: fc.integer({ min: 0, max: 50 }),
    });

    it('output length is always within maxChars', () => {
      fc.assert(
        fc.property(anyText, options, (text, settings) => {
          const output = truncateText(text, settings);
          expect(output.length).toBeLessThanOrEqual(Math.max(0, settings.maxChars));
          if (text.length <= settings.maxChars) expect(output).toBe(text);
        }),
        { numRuns: 500 },
      );
    });

    it('adds no lone surrogate to an input that had none', () => {
      const wellFormed = fc.oneof(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'grapheme' }),
        fc.string({ unit: fc.constantFrom('a', '😀', '👍🏽', '\n'), maxLength: 400 }),
      );
      fc.assert(
        fc.property(wellFormed, options, (text, settings) => {
          expect(hasLoneSurrogate(truncateText(text, settings))).toBe(false);
        }),
        { numRuns: 500 },
      );
    });

    it('head and tail are a verbatim prefix and suffix, and the marker numbers are exact', () => {
      fc.assert(
        fc.property(anyText, options, (text, settings) => {
          const output = truncateText(text, settings);
          if (output === text || output === '') return;
          if (settings.mode === 'head') {
            const match = HEAD_MARKER.exec(output);
            if (match === null) {
              // Marker did not fit: a hard prefix cut.
              expect(settings.maxChars).toBeLessThan(headMarker(settings.maxChars, text.length).length + 1);
              expect(text.startsWith(output)).toBe(true);
              return;
            }
            const head = output.slice(0, match.index);
            expect(text.startsWith(head)).toBe(true);
            expect(Number(match[1])).toBe(head.length);
            expect(Number(match[2])).toBe(text.length);
          } else {
            const match = HEAD_TAIL_MARKER.exec(output);
            if (match === null) {
              expect(settings.maxChars).toBeLessThan(headTailMarker(text.length).length + 1);
              expect(text.startsWith(output)).toBe(true);
              return;
            }
            const head = output.slice(0, match.index);
            const tail = output.slice(match.index + match[0].length);
            expect(text.startsWith(head)).toBe(true);
            expect(text.endsWith(tail)).toBe(true);
            expect(Number(match[1])).toBe(text.length - head.length - tail.length);
            expect(Number(match[1])).toBeGreaterThan(0);
          }
        }),
        { numRuns: 500 },
      );
    });
  });
});
