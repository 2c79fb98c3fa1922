import type { Estimator } from '../estimate/estimator';
import { truncateText } from '../truncate/truncate-text';

/**
 * How far over its bound a summary may come back and still be used, shortened to the bound: models
 * overshoot a length they are asked for by a few tens of percent, and throwing such a summary away
 * (then dropping the history it covered) loses far more than trimming its middle. Beyond this the
 * summarizer ignored the bound (a transcript echoed back, a runaway answer): a failed attempt.
 */
export const SUMMARY_OVERSHOOT_LIMIT = 2;

/**
 * `summary` within `maxTokens`: itself when it fits; a little over (up to
 * {@link SUMMARY_OVERSHOOT_LIMIT} times the bound), its middle cut (head and tail kept, on line
 * boundaries, with the truncation marker) until it fits; far over, an error.
 */
export function fitSummaryToBound(
  summary: string,
  maxTokens: number,
  estimator: Estimator,
  overshootLimit = SUMMARY_OVERSHOOT_LIMIT,
): string | Error {
  let tokens = estimator.countText(summary);
  if (tokens <= maxTokens) return summary;
  if (tokens > maxTokens * overshootLimit) {
    return new Error(
      `The summary is about ${tokens} tokens, over ${SUMMARY_OVERSHOOT_LIMIT}× its bound of ${maxTokens}.`,
    );
  }
  let fitted = summary;
  let maxChars = Math.floor((summary.length * maxTokens) / tokens);
  for (let attempt = 0; attempt < 8 && tokens > maxTokens; attempt++) {
    fitted = truncateText(summary, { maxChars: Math.max(0, maxChars), mode: 'head-tail' });
    tokens = estimator.countText(fitted);
    maxChars = Math.floor(maxChars * 0.9);
  }
  return tokens <= maxTokens && fitted.trim() !== ''
    ? fitted
    : new Error(`The summary could not be shortened to its bound of ${maxTokens} tokens.`);
}
