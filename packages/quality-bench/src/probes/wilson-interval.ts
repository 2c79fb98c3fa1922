/** A share with its 95% confidence interval. */
export interface Interval {
  /** `successes / total` (0 when `total` is 0). */
  share: number;
  low: number;
  high: number;
}

/** z for a two-sided 95% interval. */
const Z = 1.959963984540054;

/**
 * The Wilson score interval (95%) for `successes` of `total` independent trials: well-behaved at
 * 0% and 100% and for small samples, unlike the normal approximation.
 */
export function wilsonInterval(successes: number, total: number): Interval {
  if (total === 0) return { share: 0, low: 0, high: 1 };
  const share = successes / total;
  const z2 = Z * Z;
  const center = (share + z2 / (2 * total)) / (1 + z2 / total);
  const half = (Z * Math.sqrt((share * (1 - share)) / total + z2 / (4 * total * total))) / (1 + z2 / total);
  return {
    share,
    low: successes === 0 ? 0 : Math.max(0, center - half),
    high: successes === total ? 1 : Math.min(1, center + half),
  };
}
