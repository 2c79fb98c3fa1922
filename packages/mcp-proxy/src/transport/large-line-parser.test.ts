import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LargeText } from '../large-text/large-text';
import { LargeLineParser } from './large-line-parser';

/** Every large text in `value` replaced by its string (a deep copy). */
function plain(value: unknown): unknown {
  if (LargeText.isInstance(value)) return value.toString();
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
  }
  return value;
}

/** The large texts in `value`. */
function largeTexts(value: unknown, found: LargeText[] = []): LargeText[] {
  if (LargeText.isInstance(value)) found.push(value);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) largeTexts(item, found);
  return found;
}

function parse(line: string, sizes: readonly number[], minTextChars: number): unknown {
  const parser = new LargeLineParser({ minTextChars });
  for (let offset = 0, index = 0; offset < line.length; index++) {
    const size = sizes[index % sizes.length] as number;
    parser.write(line.slice(offset, offset + size));
    offset += size;
  }
  return parser.end();
}

// Text without the control characters JSON forbids raw (they are written escaped by JSON.stringify anyway).
const text = fc.string({ unit: 'binary', maxLength: 120 });
const block = fc.oneof(
  fc.record({ type: fc.constant('text'), text }),
  fc.record({ type: fc.constant('resource'), resource: fc.record({ uri: fc.string(), text }) }),
  fc.record({ type: fc.constant('image'), data: fc.base64String(), mimeType: fc.constant('image/png') }),
);
const message = fc.record({
  jsonrpc: fc.constant('2.0'),
  id: fc.nat(),
  result: fc.record({
    content: fc.array(block, { maxLength: 5 }),
    structuredContent: fc.option(fc.dictionary(fc.constantFrom('text', 'a', 'b\\"', 'é'), fc.jsonValue()), {
      nil: undefined,
    }),
  }),
});

describe('LargeLineParser', () => {
  it('gives the value JSON.parse gives, whatever the pieces, long texts read into large texts (property)', () => {
    fc.assert(
      fc.property(
        message,
        fc.array(fc.integer({ min: 1, max: 23 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom('', ' ', '\r', ' \t'),
        (value, sizes, minTextChars, space) => {
          const line = JSON.stringify(value, null, space === '' ? undefined : space) + space;
          const parsed = parse(line, sizes, minTextChars);
          expect(plain(parsed)).toEqual(JSON.parse(line));
          for (const large of largeTexts(parsed)) expect(large.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('reads a long text of a content block into a large text, and leaves other strings alone', () => {
    const long = 'line\n'.repeat(100);
    const line = JSON.stringify({
      result: { content: [{ type: 'text', text: long }], note: long, text: 'short' },
    });
    const parsed = parse(line, [7], 64) as {
      result: { content: [{ text: unknown }]; note: unknown; text: unknown };
    };
    expect(LargeText.isInstance(parsed.result.content[0].text)).toBe(true);
    expect(parsed.result.content[0].text?.toString()).toBe(long);
    expect(parsed.result.note).toBe(long);
    expect(parsed.result.text).toBe('short');
  });

  it('rejects what JSON.parse rejects', () => {
    for (const line of ['{"text":"abc', '{"text":"a\\', '{"text":"a"', '{"text":"a\\q"}', '{"a":1,}']) {
      expect(() => parse(line, [3], 1)).toThrow(SyntaxError);
      expect(() => JSON.parse(line)).toThrow(SyntaxError);
    }
  });
});
