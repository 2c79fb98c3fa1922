import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shareBudget } from './share-budget';

describe('shareBudget', () => {
  it('leaves everything when the total fits', () => {
    expect(shareBudget([10, 20, 30], 100)).toEqual([10, 20, 30]);
  });

  it('keeps small items whole and cuts large ones to one cap', () => {
    expect(shareBudget([100, 5000, 20_000], 3000)).toEqual([100, 1450, 1450]);
  });

  it('never exceeds the budget, never grows an item, and larger items never get less (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 100_000 }), { maxLength: 20 }),
        fc.nat({ max: 200_000 }),
        (sizes, budget) => {
          const allowances = shareBudget(sizes, budget);
          expect(allowances.reduce((sum, value) => sum + value, 0)).toBeLessThanOrEqual(budget);
          allowances.forEach((allowance, index) => {
            expect(allowance).toBeLessThanOrEqual(sizes[index] as number);
            expect(Number.isInteger(allowance)).toBe(true);
          });
          for (let a = 0; a < sizes.length; a++) {
            for (let b = 0; b < sizes.length; b++) {
              if ((sizes[a] as number) > (sizes[b] as number))
                expect(allowances[a]).toBeGreaterThanOrEqual(allowances[b] as number);
            }
          }
        },
      ),
    );
  });
});
