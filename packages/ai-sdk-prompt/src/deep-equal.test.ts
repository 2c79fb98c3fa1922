import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepEqual } from './deep-equal';

describe('deepEqual', () => {
  it('agrees with structural equality on JSON values, and a rebuilt copy is equal', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (left, right) => {
        expect(deepEqual(left, structuredClone(left))).toBe(true);
        expect(deepEqual(left, right)).toBe(
          JSON.stringify(left) === JSON.stringify(right) || isEqualUnordered(left, right),
        );
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('compares bytes and URLs by content, and tells arrays from objects', () => {
    expect(deepEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(deepEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(deepEqual(new URL('https://a.example/x'), new URL('https://a.example/x'))).toBe(true);
    expect(deepEqual({ 0: 'a' }, ['a'])).toBe(false);
    expect(deepEqual({ a: undefined }, {})).toBe(false);
  });
});

/** JSON.stringify depends on key order; deepEqual does not. */
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
