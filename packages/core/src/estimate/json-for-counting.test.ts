import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { jsonForCounting } from './json-for-counting';

describe('jsonForCounting', () => {
  it('writes plain JSON values exactly as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const { text, binaryBytes } = jsonForCounting(value);
        return binaryBytes === 0 && text === JSON.stringify(value);
      }),
    );
  });

  it('follows toJSON (dates) and drops undefined, functions and symbols from objects', () => {
    const date = new Date(Date.UTC(2025, 0, 2));
    expect(jsonForCounting({ at: date, skip: undefined, run: () => 1, tag: Symbol('x') }).text).toBe(
      JSON.stringify({ at: date }),
    );
  });

  it('sets binary data aside by byte length, never calling its toJSON', () => {
    const bytes = new Uint8Array(4096);
    const toJSON = vi.fn(() => 'should not be called');
    Object.defineProperty(bytes, 'toJSON', { value: toJSON });
    const result = jsonForCounting({
      a: bytes,
      b: new ArrayBuffer(100),
      c: new DataView(new ArrayBuffer(4)),
    });
    expect(result).toEqual({ text: '{"a":"","b":"","c":""}', binaryBytes: 4096 + 100 + 4 });
    expect(toJSON).not.toHaveBeenCalled();
  });

  it('survives cycles, bigints, Maps, Sets and throwing getters', () => {
    const cyclic: Record<string, unknown> = { name: 'root' };
    cyclic.self = cyclic;
    expect(jsonForCounting(cyclic).text).toBe('{"name":"root","self":null}');
    expect(jsonForCounting({ big: 12345678901234567890n }).text).toBe('{"big":12345678901234567890}');
    expect(jsonForCounting(new Map([['k', new Set([1, 2])]])).text).toBe('{"k":[1,2]}');
    const hostile = {
      get broken(): never {
        throw new Error('nope');
      },
    };
    expect(() => jsonForCounting(hostile)).not.toThrow();
  });

  it('counts a shared (non-cyclic) reference every time it appears', () => {
    const shared = { id: 1 };
    expect(jsonForCounting([shared, shared]).text).toBe('[{"id":1},{"id":1}]');
  });
});
