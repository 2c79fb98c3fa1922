import type { Estimator } from '../estimate/estimator';
import { extractIdentifiers } from './extract-identifiers';
import { fitSummaryToBound } from './fit-summary-to-bound';

/** The line that carries the identifiers a summary left out. */
export const IDENTIFIERS_LINE_PREFIX = 'Identifiers the user gave:';
/** The most of the bound the identifiers line may take. */
const IDENTIFIERS_SHARE = 0.25;
/**
 * `summary` with the identifiers of the user's words it left out appended on one line, the whole
 * within `maxTokens`: the line takes at most a quarter of the bound (the latest identifiers
 * first), and the summary's middle is shortened to make room when it must.
 */
export function withIdentifiers(
  summary: string,
  userTexts: readonly { number: number; text: string }[],
  maxTokens: number,
  estimator: Estimator,
): string {
  const identifiers = extractIdentifiers(userTexts.map((entry) => entry.text).join('\n'), { limit: 200 });
  const missing = identifiers.filter((identifier) => !summary.includes(identifier)).reverse();
  if (missing.length === 0) return summary;
  const lineBudget = Math.floor(maxTokens * IDENTIFIERS_SHARE);
  const taken: string[] = [];
  for (const identifier of missing) {
    const line = `${IDENTIFIERS_LINE_PREFIX} ${[...taken, identifier].reverse().join(', ')}`;
    if (estimator.countText(line) > lineBudget) break;
    taken.push(identifier);
  }
  if (taken.length === 0) return summary;
  const line = `${IDENTIFIERS_LINE_PREFIX} ${taken.reverse().join(', ')}`;
  const room = maxTokens - estimator.countText(line) - 2;
  const body = fitSummaryToBound(summary, Math.max(1, room), estimator, Number.POSITIVE_INFINITY);
  return typeof body === 'string' ? `${body}\n\n${line}` : summary;
}
