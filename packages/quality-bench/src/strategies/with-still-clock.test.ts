import { describe, expect, it } from 'vitest';
import { withStillClock } from './with-still-clock';

describe('withStillClock', () => {
  it('holds performance.now() still while the work runs, and puts the real clock back after, even on a throw', async () => {
    const real = globalThis.performance;
    const seen = await withStillClock(async () => {
      const first = performance.now();
      const until = Date.now() + 5;
      while (Date.now() < until) {
        // let real time pass
      }
      return [first, performance.now(), performance.timeOrigin];
    });
    expect(seen[1]).toBe(seen[0]);
    expect(seen[2]).toBe(real.timeOrigin);
    expect(globalThis.performance).toBe(real);
    await expect(
      withStillClock(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(globalThis.performance).toBe(real);
    const before = performance.now();
    const until = Date.now() + 2;
    while (Date.now() < until) {
      // let real time pass
    }
    expect(performance.now()).toBeGreaterThan(before);
  });
});
