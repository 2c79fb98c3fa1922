import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameValue } from './same-content';

describe('sameValue', () => {
  it('agrees with structural equality on JSON values, and a rebuilt copy is equal', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (left, right) => {
        expect(sameValue(left, structuredClone(left))).toBe(true);
        expect(sameValue(left, right)).toBe(
          JSON.stringify(left) === JSON.stringify(right) || isEqualUnordered(left, right),
        );
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('compares bytes and URLs by content, and tells arrays from objects', () => {
    expect(sameValue(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(sameValue(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(sameValue(new URL('https://a.example/x'), new URL('https://a.example/x'))).toBe(true);
    expect(sameValue({ 0: 'a' }, ['a'])).toBe(false);
    expect(sameValue({ a: undefined }, {})).toBe(false);
    expect(sameValue({}, { a: undefined })).toBe(false);
    expect(sameValue(new Date(5), new Date(5))).toBe(true);
    expect(sameValue(new Date(5), new Date(6))).toBe(false);
    expect(sameValue(Object.assign(Object.create(null), { a: 1 }), { a: 1 })).toBe(true);
    class Point {
      constructor(readonly x: number) {}
    }
    // Anything else only when it is the same object.
    expect(sameValue(new Point(1), new Point(1))).toBe(false);
  });

  it('compares an AI SDK prompt with its rebuilt and its deserialized copies, and finds a changed output', () => {
    const prompt = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Read the log.' }], providerOptions: { a: { b: 1 } } },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: 'log' } },
        ],
      },
    ];
    const rebuilt = prompt.map((message) => ({ ...message }));
    expect(sameValue(prompt, rebuilt)).toBe(true);
    expect(sameValue(prompt, JSON.parse(JSON.stringify(prompt)))).toBe(true);
    const changed = JSON.parse(JSON.stringify(prompt));
    changed[2].content[0].output.value = 'log!';
    expect(sameValue(prompt, changed)).toBe(false);
    const options = JSON.parse(JSON.stringify(prompt));
    options[1].providerOptions.a.b = 2;
    expect(sameValue(prompt, options)).toBe(false);
  });
});

/** JSON.stringify depends on key order; sameValue does not. */
function isEqualUnordered(left: unknown, right: unknown): boolean {
  const sort = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sort)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([key, item]) => [key, sort(item)]),
          )
        : value;
  return JSON.stringify(sort(left)) === JSON.stringify(sort(right));
}
