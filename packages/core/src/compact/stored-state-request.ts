import type { Message } from '../message/message';
import type { CompactionState } from '../store/compaction-state';
import { assembleRequest, layoutConversation, stateMatches } from './compaction-layout';
import type { ResolvedCompactionOptions } from './compaction-options';
import { currentTurnStart } from './current-turn';

/** The request with the state applied and nothing else done (no window to work with). */
export function plainRequest(
  working: readonly Message[],
  state: CompactionState | undefined,
  options: ResolvedCompactionOptions,
): Message[] {
  if (state === undefined) return working.slice();
  return assembleRequest({
    layout: layoutConversation(working, state.coveredCount),
    summaries: state.summaries,
    placement: options.summaryPlacement,
  });
}

/**
 * A stored state applies when its covered prefix still hashes the same and it covers nothing of
 * the current turn (a state made from a longer branch of the conversation never hides the user's
 * latest message).
 */
export function stateApplies(
  messages: readonly Message[],
  working: readonly Message[],
  state: CompactionState | undefined,
): state is CompactionState {
  if (!stateMatches(messages, state)) return false;
  const turnStart = currentTurnStart(working);
  let conversationBefore = 0;
  for (let index = 0; index < turnStart; index++) if (working[index]!.role !== 'system') conversationBefore++;
  return state!.coveredCount <= conversationBefore;
}
