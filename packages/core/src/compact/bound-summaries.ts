import type { Estimator } from '../estimate/estimator';
import { truncateText } from '../truncate/truncate-text';

/**
 * The summaries as they go into a request whose summary bound is `maxTokens`: the same array when
 * they fit together, else each shortened head + tail in proportion (deterministic, so the request
 * stays the same on every call). Used when a state made for a larger window meets a smaller one.
 */
export function boundSummaries(
  summaries: readonly string[],
  maxTokens: number,
  estimator: Estimator,
): readonly string[] {
  if (summaries.length === 0) return summaries;
  const counts = summaries.map((summary) => estimator.countText(summary));
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total <= maxTokens) return summaries;
  return summaries.map((summary, index) => {
    let chars = Math.max(1, Math.floor((summary.length * maxTokens) / total) - 8);
    let shortened = truncateText(summary, { maxChars: chars, mode: 'head-tail' });
    const share = (maxTokens * counts[index]!) / total;
    for (let round = 0; round < 6 && estimator.countText(shortened) > share && chars > 1; round++) {
      chars = Math.max(1, Math.floor(chars * 0.8));
      shortened = truncateText(summary, { maxChars: chars, mode: 'head-tail' });
    }
    return shortened;
  });
}
