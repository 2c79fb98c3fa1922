import type { Message } from '@spillway/core';
import type { HistoryRuntime } from './history-runtime';

/** `getMessages()` reserves room for an input as large as the largest of this many recent user messages... */
const RECENT_INPUTS = 4;
/** ...at least this share of the window... */
const INPUT_RESERVE_MIN_SHARE = 0.1;
/** ...and at most this share. */
const INPUT_RESERVE_MAX_SHARE = 0.25;

/**
 * Raw tokens to keep for an input not seen yet: the largest of the last four user messages (not
 * tool results), at least a tenth and at most a quarter of the window; `inputTokens` if given.
 */
export function inputReserve(
  {
    inputTokens,
    contextWindow,
    compactor,
  }: Pick<HistoryRuntime, 'inputTokens' | 'contextWindow' | 'compactor'>,
  messages: readonly Message[],
): number {
  if (inputTokens !== undefined) return inputTokens;
  if (contextWindow === undefined) return 0;
  let largest = 0;
  let seen = 0;
  for (let index = messages.length - 1; index >= 0 && seen < RECENT_INPUTS; index--) {
    const message = messages[index]!;
    if (message.role !== 'user') continue;
    seen++;
    largest = Math.max(largest, compactor.estimator.countMessage(message));
  }
  return Math.min(
    Math.max(largest, Math.ceil(contextWindow * INPUT_RESERVE_MIN_SHARE)),
    Math.floor(contextWindow * INPUT_RESERVE_MAX_SHARE),
  );
}
