import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shareBudget } from './share-budget';

describe('shareBudget', () => {
  it('keeps short texts whole and cuts the longest most', () => {
    expect(shareBudget([100, 5_000, 20_000], 3_000)).toEqual([100, 1_450, 1_450]);
    expect(shareBudget([10, 20], 100)).toEqual([10, 20]);
    expect(shareBudget([7, 7, 7], 10)).toEqual([3, 3, 4]);
    expect(shareBudget([], 10)).toEqual([]);
  });

  it('stays within the budget, each cap within its text, larger texts giving up at least as much', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000 }), { maxLength: 8 }),
        fc.integer({ min: 0, max: 20_000 }),
        (lengths, budget) => {
          const caps = shareBudget(lengths, budget);
          const total = lengths.reduce((sum, length) => sum + length, 0);
          const capped = caps.reduce((sum, cap) => sum + cap, 0);
          expect(caps.length).toBe(lengths.length);
          if (total <= budget) expect(caps).toEqual(lengths);
          else expect(capped).toBe(budget);
          caps.forEach((cap, index) => {
            expect(cap).toBeGreaterThanOrEqual(0);
            expect(cap).toBeLessThanOrEqual(lengths[index]!);
          });
          for (let left = 0; left < lengths.length; left++) {
            for (let right = 0; right < lengths.length; right++) {
              if (lengths[left]! < lengths[right]!) {
                expect(lengths[left]! - caps[left]!).toBeLessThanOrEqual(lengths[right]! - caps[right]!);
              }
            }
          }
        },
      ),
    );
  });

  it('never exceeds the budget, never grows an item, and larger items never get less (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 100_000 }), { maxLength: 20 }),
        fc.nat({ max: 200_000 }),
        (sizes, budget) => {
          const allowances = shareBudget(sizes, budget);
          expect(allowances.reduce((sum, value) => sum + value, 0)).toBeLessThanOrEqual(Math.max(budget, 0));
          for (const [index, allowance] of allowances.entries()) {
            expect(allowance).toBeLessThanOrEqual(sizes[index]!);
            expect(Number.isInteger(allowance)).toBe(true);
          }
          for (let a = 0; a < sizes.length; a++) {
            for (let b = 0; b < sizes.length; b++) {
              if (sizes[a]! > sizes[b]!) expect(allowances[a]).toBeGreaterThanOrEqual(allowances[b]!);
            }
          }
        },
      ),
    );
  });
});
