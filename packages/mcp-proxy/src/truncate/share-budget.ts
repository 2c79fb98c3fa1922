/**
 * Splits `budget` among items of the given sizes so that the small ones keep everything and the
 * large ones are cut to one common cap (water-filling): larger items give up more, and the allowances
 * sum to at most `budget` (to `sum(sizes)` when that is smaller). Allowances are whole numbers.
 */
export function shareBudget(sizes: readonly number[], budget: number): number[] {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= budget) return [...sizes];
  const order = sizes.map((size, index) => ({ size, index })).sort((a, b) => a.size - b.size);
  const allowances = new Array<number>(sizes.length).fill(0);
  let remaining = Math.max(0, budget);
  let count = order.length;
  for (const { size, index } of order) {
    const cap = Math.floor(remaining / count);
    const allowance = Math.min(size, cap);
    allowances[index] = allowance;
    remaining -= allowance;
    count--;
  }
  return allowances;
}
