import { type CompactionState, type Message, stateMatches } from '@spillway/core';

/** Of the states that still describe `messages`, the one that covers the most (the first on a tie). */
export function bestState(
  messages: readonly Message[],
  candidates: readonly (CompactionState | undefined)[],
): CompactionState | undefined {
  let best: CompactionState | undefined;
  for (const candidate of candidates) {
    if (!stateMatches(messages, candidate)) continue;
    if (best === undefined || candidate!.coveredCount > best.coveredCount) best = candidate;
  }
  return best;
}
