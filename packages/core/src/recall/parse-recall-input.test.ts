import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRecallInput } from './parse-recall-input';

describe('parseRecallInput', () => {
  it('reads read and search requests, with defaults', () => {
    expect(parseRecallInput({ ref: 'abc' })).toEqual({
      ok: true,
      request: { mode: 'read', ref: 'abc', offset: 0, length: undefined },
    });
    expect(parseRecallInput({ ref: 'abc', offset: 10, length: 5 })).toEqual({
      ok: true,
      request: { mode: 'read', ref: 'abc', offset: 10, length: 5 },
    });
    expect(parseRecallInput({ search: 'error', ref: 'abc', offset: '7' })).toEqual({
      ok: true,
      request: { mode: 'search', search: 'error', ref: 'abc', offset: 7, length: undefined },
    });
    expect(parseRecallInput({ search: 'x', ref: null, length: null })).toEqual({
      ok: true,
      request: { mode: 'search', search: 'x', ref: undefined, offset: 0, length: undefined },
    });
  });

  it('answers bad input with a message for the model, and never throws (property)', () => {
    for (const bad of [
      undefined,
      null,
      'abc',
      [],
      {},
      { ref: '' },
      { ref: 3 },
      { ref: 'a', offset: -1 },
      { ref: 'a', offset: 1.5 },
      { ref: 'a', length: 0 },
      { ref: 'a', length: 'many' },
      { search: '' },
      { id: 'r123' },
    ]) {
      const parsed = parseRecallInput(bad);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.message.length).toBeGreaterThan(10);
    }
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const parsed = parseRecallInput(value);
        expect(typeof parsed.ok).toBe('boolean');
      }),
    );
  });
});
