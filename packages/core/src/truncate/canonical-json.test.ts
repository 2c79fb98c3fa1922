import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts keys at every level so that key order does not matter', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[1,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson({ path: 'a', mode: 'r' })).toBe(canonicalJson({ mode: 'r', path: 'a' }));
  });

  it('follows JSON.stringify for the awkward values', () => {
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ a: undefined, b: () => 1, c: Number.NaN })).toBe('{"c":null}');
    expect(canonicalJson([undefined, () => 1])).toBe('[null,null]');
    expect(canonicalJson(new Date(0))).toBe('"1970-01-01T00:00:00.000Z"');
    expect(canonicalJson({ n: 10n })).toBe('{"n":10n}');
    expect(canonicalJson('a"b')).toBe('"a\\"b"');
  });

  it('returns undefined for cycles but accepts shared references', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(canonicalJson(cyclic)).toBeUndefined();
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
});
