import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasLoneSurrogate } from '../../test/truncate-helpers';
import { TOOL_RESULT_MAX_CHARS, truncateToolResult } from './truncate-tool-result';

const MARKER = /\n\n\[\.\.\. content truncated, showing first (\d+) characters of (\d+) total \.\.\.\]$/;

describe('truncateToolResult', () => {
  it('caps at 30,000 characters by default (seed constant)', () => {
    expect(TOOL_RESULT_MAX_CHARS).toBe(30_000);
  });

  it('leaves a result of exactly 30,000 characters untouched', () => {
    const text = 'a'.repeat(30_000);
    expect(truncateToolResult(text)).toBe(text);
  });

  it('leaves a result under the limit untouched', () => {
    const text = 'short result\nwith lines';
    expect(truncateToolResult(text)).toBe(text);
    expect(truncateToolResult('')).toBe('');
  });

  it('truncates 30,001 characters with the exact marker, total at most 30,000', () => {
    const text = 'b'.repeat(30_001);
    const output = truncateToolResult(text);
    expect(output.length).toBeLessThanOrEqual(30_000);
    const match = MARKER.exec(output);
    expect(match).not.toBeNull();
    const kept = Number(match![1]);
    expect(Number(match![2])).toBe(30_001);
    expect(output).toBe(
      `${'b'.repeat(kept)}\n\n[... content truncated, showing first ${kept} characters of 30001 total ...]`,
    );
    expect(output.length).toBe(30_000);
  });

  it('keeps multi-byte Unicode intact at the cut', () => {
    for (const unit of ['😀', '中文😀', 'é👍🏽', '𝕏']) {
      for (let shift = 0; shift < 4; shift++) {
        const text = 'x'.repeat(shift) + unit.repeat(Math.ceil(40_000 / unit.length));
        const output = truncateToolResult(text);
        expect(output.length).toBeLessThanOrEqual(30_000);
        expect(hasLoneSurrogate(output)).toBe(false);
        const kept = Number(MARKER.exec(output)![1]);
        expect(text.startsWith(output.slice(0, kept))).toBe(true);
        expect(Number(MARKER.exec(output)![2])).toBe(text.length);
      }
    }
  });

  it('prefers a line break near the cut', () => {
    const text = Array.from({ length: 2_000 }, (_, index) => `row ${index}: ${'v'.repeat(30)}`).join('\n');
    const output = truncateToolResult(text);
    const kept = Number(MARKER.exec(output)![1]);
    expect(text[kept]).toBe('\n');
  });

  it('supports a custom limit and head-tail mode', () => {
    const text = `${'h'.repeat(500)}${'t'.repeat(500)}`;
    expect(truncateToolResult(text, { maxChars: 200 }).length).toBeLessThanOrEqual(200);
    const headTail = truncateToolResult(text, { maxChars: 200, mode: 'head-tail' });
    expect(headTail).toMatch(/^h+\n\n\.\.\. \[truncated: \d+ chars removed\] \.\.\.\n\nt+$/);
    expect(truncateToolResult(text, { maxChars: Number.POSITIVE_INFINITY })).toBe(text);
  });

  it('never throws: non-string input is returned as it is', () => {
    for (const value of [undefined, null, 42, { text: 'x' }, ['a'], Symbol('s')]) {
      expect(truncateToolResult(value as unknown as string)).toBe(value);
    }
  });

  it('never throws: invalid options fall back to the defaults', () => {
    const text = 'c'.repeat(40_000);
    const expected = truncateToolResult(text);
    for (const options of [
      null,
      { maxChars: Number.NaN },
      { maxChars: -1 },
      { maxChars: 1.5 },
      { maxChars: '100' },
      { mode: 'bogus' },
      { maxChars: undefined, mode: undefined },
    ]) {
      expect(truncateToolResult(text, options as never)).toBe(expected);
    }
  });

  it('never throws on arbitrary input and options, and stays within the limit', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary' }), fc.anything()),
        fc.oneof(
          fc.anything(),
          fc.record({ maxChars: fc.integer({ min: -10, max: 500 }), mode: fc.anything() }),
        ),
        (text, options) => {
          const output = truncateToolResult(text as string, options as never);
          if (typeof text !== 'string') {
            expect(output).toBe(text);
            return;
          }
          const maxChars = (options as { maxChars?: unknown } | null)?.maxChars;
          const limit =
            typeof maxChars === 'number' && Number.isInteger(maxChars) && maxChars >= 0 ? maxChars : 30_000;
          expect(output.length).toBeLessThanOrEqual(limit);
          if (text.length <= limit) expect(output).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('handles a 1 MB result (its speed, < 10 ms in the seed, is measured by `pnpm bench`)', () => {
    const text = 'log line with ünïcödé and 😀\n'.repeat(40_000);
    const output = truncateToolResult(text);
    expect(output.length).toBeLessThanOrEqual(30_000);
  });
});
