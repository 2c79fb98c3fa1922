import type { BaseMessage } from '@langchain/core/messages';
import type { CompactionState } from '@spillway/core';

/**
 * What a "compact now" call did (`compact()` of the middleware, the history and the memory): the
 * seed's manual trigger, e.g. behind a "compact" button or a `/compact` command.
 */
export interface CompactNowResult {
  /** Whether a new summary was made by this call (false: nothing older than the kept window). */
  compacted: boolean;
  /** How many conversation messages the summary in force stands in for (0: none). */
  coveredCount: number;
  /** How many of them this call added to the summary. */
  newlyCoveredCount: number;
  /** Estimated tokens of the conversation as stored. */
  tokensBefore: number;
  /** Estimated tokens of the compacted view now handed to the model. */
  tokensAfter: number;
  /** The compaction state in force after the call (store it, or let the adapter do it). */
  state: CompactionState | undefined;
  /** The compacted view the model now receives, as LangChain messages. */
  messages: BaseMessage[];
}
