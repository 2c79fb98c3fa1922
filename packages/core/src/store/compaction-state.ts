/**
 * What one conversation's compaction left behind: the summary that stands in for the first
 * `coveredCount` conversation messages (system messages not counted), and the hash that proves
 * those messages are still the ones it was made from. Plain JSON, so any store can keep it.
 */
export interface CompactionState {
  /** Format version, for stores that outlive a release. */
  readonly version: 1;
  /**
   * The summaries, oldest first: one in `cumulative` mode (each compaction merges the previous
   * summary with the newly covered messages), one per compaction in `stack` mode.
   */
  readonly summaries: readonly string[];
  /** How many conversation messages (system messages excluded) the summaries cover. */
  readonly coveredCount: number;
  /** Hash of those covered messages; a state whose prefix no longer hashes to it is ignored. */
  readonly coveredHash: string;
  /** Estimated tokens of the conversation before and after the compaction that made this state. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** When the state was made (ms since epoch). */
  readonly createdAt: number;
  /** How many compactions this conversation has had. */
  readonly compactionCount: number;
  /**
   * Standing instructions the summarizer named, each accepted only because it is found verbatim in
   * a user message of the covered span: carried in the pinned block next to the detected rules.
   */
  readonly pinned?: readonly PinnedQuote[];
}

/** A standing instruction quoted verbatim from the user (see `CompactionState.pinned`). */
export interface PinnedQuote {
  /** The words, exactly as the user wrote them. */
  readonly text: string;
  /** The conversation message they come from (0-based, system messages not counted). */
  readonly messageNumber: number;
}
