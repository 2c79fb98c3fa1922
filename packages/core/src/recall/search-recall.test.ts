import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { searchRecall } from './search-recall';

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('searchRecall', () => {
  const log = Array.from({ length: 1000 }, (_, index) =>
    index % 97 === 3 ? `line ${index}: ERROR disk full on /var/data/${index}` : `line ${index}: ok`,
  ).join('\n');

  it('lists matching lines with the offset of the match and says how many were left out', () => {
    const result = searchRecall({ sources: [{ ref: 'L', text: log }], pattern: 'error disk', maxMatches: 3 });
    expect(result.literal).toBe(false);
    expect(result.matches).toHaveLength(3);
    expect(result.omitted).toBe(log.split('\n').filter((line) => line.includes('ERROR')).length - 3);
    for (const match of result.matches) {
      expect(log.slice(match.offset, match.offset + 10)).toBe('ERROR disk');
      expect(match.line).toMatch(/^line \d+: ERROR disk full/);
      expect(result.text).toContain(`{"ref":"L","offset":${match.offset}}: ${match.line}`);
    }
    expect(result.text).toMatch(/^\[spillway_recall search \/error disk\/i: 11 matches/);
    expect(result.text).toMatch(/8 more not listed/);
    const fourth = log.indexOf('ERROR', (result.matches[2]?.offset ?? 0) + 1);
    expect(result.text).toContain(`spillway_recall {"ref":"L","search":"error disk","offset":${fourth}}`);
  });

  it('searches an invalid regular expression as literal text', () => {
    const result = searchRecall({ sources: [{ ref: 'A', text: 'one (two\nthree' }], pattern: '(two' });
    expect(result.literal).toBe(true);
    expect(result.matches).toEqual([{ ref: 'A', offset: 4, line: 'one (two' }]);
  });

  it('searches several sources in order, within ranges, and anchors ^ at lines', () => {
    const result = searchRecall({
      sources: [
        { ref: 'A', text: 'alpha\nbeta\ngamma' },
        { ref: 'B', text: 'beta first\nno\nbeta again', start: 3 },
      ],
      pattern: '^beta',
    });
    expect(result.matches.map(({ ref, offset }) => [ref, offset])).toEqual([
      ['A', 6],
      ['B', 14],
    ]);
    expect(searchRecall({ sources: [], pattern: 'x' }).text).toMatch(/no cut material/);
    expect(searchRecall({ sources: [{ ref: 'A', text: 'abc' }], pattern: 'zzz' }).text).toMatch(/no match/);
  });

  it('shortens a long line around the match, and handles a 50 MB single line in one pass', () => {
    const long = `${'x'.repeat(50_000_000)}NEEDLE${'y'.repeat(1000)}`;
    const result = searchRecall({
      sources: [{ ref: 'BIG', text: long }],
      pattern: 'needle',
      maxLineChars: 60,
    });
    expect(result.matches).toHaveLength(1);
    const [match] = result.matches;
    expect(match?.offset).toBe(50_000_000);
    expect(match?.line).toMatch(/^…x+NEEDLEy+…$/);
    expect((match?.line.length ?? 0) - 2).toBeLessThanOrEqual(60);
    // Every character matches: one listed stretch per window, counted without quadratic work.
    const dense = searchRecall({
      sources: [{ ref: 'D', text: 'e'.repeat(5_000_000) }],
      pattern: 'e',
      maxLineChars: 100,
    });
    expect(dense.matches.length + dense.omitted).toBeGreaterThanOrEqual(50_000);
    expect(dense.matches.length + dense.omitted).toBeLessThanOrEqual(100_000);
  });

  it('stays within maxChars and points every offset at a match (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 300 }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('a', 'b.', '^c', 'x$', '(', '[', '\\d+', 'é', '😀', 'a|b'),
        fc.integer({ min: 450, max: 3000 }),
        fc.integer({ min: 1, max: 30 }),
        (texts, pattern, maxChars, maxMatches) => {
          const sources = texts.map((text, index) => ({ ref: `r${index}`, text }));
          const result = searchRecall({ sources, pattern, maxChars, maxMatches, maxLineChars: 40 });
          expect(result.text.length).toBeLessThanOrEqual(maxChars);
          expect(result.matches.length).toBeLessThanOrEqual(maxMatches);
          expect(loneSurrogate.test(result.text)).toBe(false);
          let regex: RegExp;
          try {
            regex = new RegExp(pattern, 'imy');
          } catch {
            regex = new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'imy');
          }
          for (const match of result.matches) {
            const text = texts[Number(match.ref.slice(1))] as string;
            regex.lastIndex = match.offset;
            expect(regex.test(text)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
