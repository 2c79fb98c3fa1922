import type { BaseChatMessageHistory } from '@langchain/core/chat_history';
import type { CompactionEvent, Compactor, RecallArchive, RecallEviction } from '@spillway/core';

/**
 * What a `CompactingChatMessageHistory` is made of once its options are resolved: what each of its
 * steps (the view, the storage-time cap, background summaries, compaction now, read-back) reads.
 */
export interface HistoryRuntime {
  /** The wrapped history. */
  readonly history: BaseChatMessageHistory;
  /** The engine (store, calibration, single-flight). */
  readonly compactor: Compactor;
  /** The context window prompts are sized for (undefined: unknown, nothing is compacted). */
  readonly contextWindow: number | undefined;
  /** Tokens kept free for the template's own text. */
  readonly templateTokens: number;
  /** The `conversationId` option. */
  readonly conversationId: string | undefined;
  /** The `inputTokens` option. */
  readonly inputTokens: number | undefined;
  /** The `waitUntil` option: given the promise of each background summary's work. */
  readonly waitUntil: ((promise: Promise<unknown>) => void) | undefined;
  /** The model id prompts go to (calibration key). */
  readonly modelName: string | undefined;
  /** The compact threshold, as a share of the window. */
  readonly compactRatio: number;
  readonly toolResultMaxChars: number;
  readonly toolResultLimits: Readonly<Record<string, number>>;
  /** `onEvent` (errors ignored), then LangChain callbacks. */
  readonly handleEvent: (event: CompactionEvent) => void;
  /** The secret references are made with; undefined when references are off. */
  readonly recallSecret: string | undefined;
  /** Where capped originals are kept; undefined when none are kept. */
  readonly archive: RecallArchive | undefined;
  /** The conversations this history archived originals for (whose evictions it reports). */
  readonly archivedFor: Set<string>;
  /**
   * Reports an original the shared archive let go (when it is one of `archivedFor`'s); held here so
   * the weakly held listener lives as long as the history.
   */
  readonly evicted: (eviction: RecallEviction) => void;
}
