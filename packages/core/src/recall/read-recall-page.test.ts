import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readRecallPage } from './read-recall-page';

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('readRecallPage', () => {
  it('gives the exact slice with a header and the call for the next page', () => {
    const page = readRecallPage({ ref: 'R', text: 'abcdefghij'.repeat(10), offset: 5, length: 10 });
    expect(page.page).toBe('fghijabcde');
    expect(page.header).toBe('[R: characters 5–15 of 100]');
    expect(page.footer).toBe('[Next page: spillway_recall {"ref":"R","offset":15}]');
    expect(page.text).toBe(`${page.header}\nfghijabcde\n${page.footer}`);
    const last = readRecallPage({ ref: 'R', text: 'abc', offset: 1, length: 10 });
    expect(last.page).toBe('bc');
    expect(last.nextOffset).toBeUndefined();
    expect(last.footer).toBe('[End of R.]');
    const past = readRecallPage({ ref: 'R', text: 'abc', offset: 7, length: 10 });
    expect(past.page).toBe('');
    expect(past.header).toMatch(/past the end \(3 characters\)/);
  });

  it('pages concatenated give back the original, without a lone surrogate in any page (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 400 }),
        fc.integer({ min: 1, max: 50 }),
        (text, length) => {
          let offset = 0;
          let joined = '';
          for (let guard = 0; guard <= text.length + 1; guard++) {
            const page = readRecallPage({ ref: 'R', text, offset, length });
            expect(page.page.length).toBeLessThanOrEqual(Math.max(length, 2));
            expect(loneSurrogate.test(page.page)).toBe(false);
            joined += page.page;
            if (page.nextOffset === undefined) break;
            expect(page.nextOffset).toBeGreaterThan(offset);
            offset = page.nextOffset;
          }
          expect(joined).toBe(text);
        },
      ),
    );
  });

  it('never opens a page with half a character', () => {
    const text = 'a😀b';
    const page = readRecallPage({ ref: 'R', text, offset: 2, length: 5 });
    expect(page.start).toBe(1);
    expect(page.page).toBe('😀b');
  });
});
