import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import { groupStarts, safeBoundaries } from '../split/safe-boundaries';
import { findBoundary } from '../split/split-messages';
import { currentTurnStart } from './current-turn';

/**
 * Where the part of `rest` that may be summarized ends: the protected window's boundary (or, on an
 * overflow retry, the start of the `keepGroups` newest message groups before the current turn), but
 * never later than the start of the current turn. Everything from the result on stays verbatim.
 */
export function olderBoundary(
  rest: readonly Message[],
  {
    protectTokens,
    keepGroups,
    estimator,
  }: { protectTokens: number; keepGroups: number | undefined; estimator: Estimator },
): number {
  const turnStart = currentTurnStart(rest);
  if (keepGroups === undefined) {
    return Math.min(findBoundary(rest, { protectTokens, keepGroups: undefined, estimator }), turnStart);
  }
  if (keepGroups <= 0) return turnStart;
  let leading = 0;
  while (leading < turnStart && rest[leading]!.role === 'system') leading++;
  const starts = groupStarts(safeBoundaries(rest), leading).filter((start) => start < turnStart);
  const index = starts.length - keepGroups;
  return index <= 0 ? leading : starts[index]!;
}
