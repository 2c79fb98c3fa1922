import type { BaseMessage } from '@langchain/core/messages';
import { type CompactionState, type CompactionStore, stateMatches } from '@spillway/core';
import { toNeutralMessages } from '../convert/to-neutral-messages';
import { COMPACTION_STATE_KEY } from './compaction-state-schema';
import { type RuntimeLike, threadConversationId } from './thread-conversation-id';

/** The agent state as this middleware reads it. */
export interface AgentStateLike {
  messages: BaseMessage[];
  [COMPACTION_STATE_KEY]?: CompactionState | undefined;
}

/**
 * The state update that copies a newer summary from the store into the agent state (one made in the
 * background, or by `compact()`), so the checkpointer persists it with the thread; undefined when
 * the agent state already holds it, or holds a better one, or the stored one no longer describes
 * the messages.
 */
export async function syncCompactionState(
  state: AgentStateLike,
  runtime: RuntimeLike | undefined,
  store: CompactionStore,
): Promise<{ [COMPACTION_STATE_KEY]: CompactionState & { summaries: string[] } } | undefined> {
  const conversation = toNeutralMessages(state.messages);
  const latest = await store.get(threadConversationId(runtime?.configurable?.thread_id, conversation));
  const current = state[COMPACTION_STATE_KEY];
  if (latest === undefined || sameState(latest, current)) return undefined;
  if (!stateMatches(conversation, latest)) return undefined;
  if (
    current !== undefined &&
    stateMatches(conversation, current) &&
    current.coveredCount > latest.coveredCount
  ) {
    return undefined;
  }
  return { [COMPACTION_STATE_KEY]: { ...latest, summaries: [...latest.summaries] } };
}

function sameState(a: CompactionState, b: CompactionState | undefined): boolean {
  return (
    b !== undefined &&
    a.coveredHash === b.coveredHash &&
    a.coveredCount === b.coveredCount &&
    a.compactionCount === b.compactionCount &&
    a.summaries.length === b.summaries.length &&
    a.summaries.every((summary, index) => summary === b.summaries[index])
  );
}
