import { describe, expect, it } from 'vitest';
import { CUT_MENTIONS_MAX_CHARS, headTailPreview } from './head-tail-preview';
import { truncateText } from './truncate-text';

/** A log of `lines` lines with one id in its middle. */
function log(lines: number, id = 'req_8f2k19x7'): string {
  return Array.from({ length: lines }, (_, line) =>
    line === Math.floor(lines / 2)
      ? `2026-03-02T10:00:${line % 60}Z WARN retry failed request_id=${id} status=503`
      : `2026-03-02T10:00:${line % 60}Z INFO worker processed a batch of rows in the queue`,
  ).join('\n');
}

describe('headTailPreview', () => {
  it('names the identifiers of the cut part, within maxChars', () => {
    const text = log(200);
    const preview = headTailPreview(text, { maxChars: 1_000, ref: 't.abc' });
    expect(preview.length).toBeLessThanOrEqual(1_000);
    expect(preview).toContain('[truncated: ');
    expect(preview).toContain('[ref=t.abc offset=');
    expect(preview).toMatch(/\n\(the cut part mentioned [^)]*req_8f2k19x7[^)]*\)$/);
    // The line is paid for out of the preview: the head and tail keep that much less.
    expect(preview.length).toBeGreaterThan(900);
  });

  it('cut again, keeps the identifiers it named and the original tail, with one line', () => {
    const text = log(400);
    const once = headTailPreview(text, { maxChars: 2_000 });
    const twice = headTailPreview(once, { maxChars: 600 });
    expect(twice.length).toBeLessThanOrEqual(600);
    expect(twice.match(/the cut part mentioned/g)).toHaveLength(1);
    expect(twice).toMatch(/\n\(the cut part mentioned [^)]*req_8f2k19x7[^)]*\)$/);
    const tail = twice.slice(0, twice.lastIndexOf('\n(')).split('...\n\n').at(-1)!;
    expect(text.endsWith(tail)).toBe(true);
  });

  it('writes no line when the cut part names nothing, or when told not to', () => {
    const plain = Array.from({ length: 200 }, () => 'the worker processed a batch of rows').join('\n');
    const options = { maxChars: 1_000, mode: 'head-tail' as const };
    expect(headTailPreview(plain, { maxChars: 1_000 })).toBe(truncateText(plain, options));
    expect(headTailPreview(log(200), { maxChars: 1_000, mentions: false })).toBe(
      truncateText(log(200), options),
    );
    // A text within the limit is returned as it is.
    expect(headTailPreview('short', { maxChars: 1_000 })).toBe('short');
  });

  it('gives the line at most a quarter of a small preview, and none to a tiny one', () => {
    const text = log(200, 'req_8f2k19x7abc0d1e2f3');
    const small = headTailPreview(text, { maxChars: 400 });
    expect(small.length).toBeLessThanOrEqual(400);
    const line = small.slice(small.lastIndexOf('\n('));
    expect(line.length).toBeLessThanOrEqual(100);
    const tiny = headTailPreview(text, { maxChars: 120 });
    expect(tiny).toBe(truncateText(text, { maxChars: 120, mode: 'head-tail' }));
    const large = headTailPreview(text, { maxChars: 20_000 / 4 });
    expect(large.slice(large.lastIndexOf('\n(')).length).toBeLessThanOrEqual(CUT_MENTIONS_MAX_CHARS);
  });
});
