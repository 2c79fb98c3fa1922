import { describe, expect, it } from 'vitest';
import { createRecallRef } from './create-recall-ref';

describe('createRecallRef', () => {
  it('makes 22 base64url characters (128 random bits), never the same twice', () => {
    const refs = new Set(Array.from({ length: 2000 }, () => createRecallRef()));
    expect(refs.size).toBe(2000);
    for (const ref of refs) expect(ref).toMatch(/^[A-Za-z0-9_-]{21}[AQgw]$/);
    // Every position varies (no fixed prefix that would lower the entropy).
    const first = [...refs].map((ref) => ref[0]);
    expect(new Set(first).size).toBeGreaterThan(40);
  });
});
