import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import { messageText } from '../message/message-parts';
import type { CompactionState, PinnedQuote } from '../store/compaction-state';
import type { StatedDecision } from '../summarize/decision-sentences';
import { summarize } from '../summarize/summarize';
import type { CompactionReason } from './compaction-event';
import { layoutConversation } from './compaction-layout';
import type { ResolvedCompactionOptions } from './compaction-options';
import { isUserTurn } from './current-turn';
import { hashMessages } from './hash-messages';

/** What {@link summarizeSpan} needs besides the options. */
export interface SummarizeSpanInput {
  /** The conversation as the application has it (the new state hashes its covered prefix). */
  messages: readonly Message[];
  /** The state that applies now, if any (its summary is merged in cumulative mode). */
  state: CompactionState | undefined;
  /** Conversation messages (system messages not counted) the new state covers, from the start. */
  coveredCount: number;
  /** What the summarizer reads: the newly covered messages, tool results as stubs. */
  input: readonly Message[];
  /** The user's words of the newly covered messages, by conversation number (to accept quoted rules). */
  userTexts: readonly { number: number; text: string }[];
  /**
   * The identifiers the newly covered tool results mentioned, as they were (not stubbed), read from
   * the end: best first (see `toolIdentifiersOf`).
   */
  toolIdentifiers: readonly string[];
  /**
   * The sentences that state a choice a summary must not lose (see `decisionsOf`): the assistant's
   * of the span, and the user's whose messages the user's words beside the summary will not quote.
   */
  decisions: readonly StatedDecision[];
  options: ResolvedCompactionOptions;
  contextWindow: number | undefined;
  reason: CompactionReason;
  conversationId: string;
  /** The bound on the new summary (stack mode: on all summaries together), in tokens. */
  summaryMaxTokens: number;
  /** Time limit for the summarizer, in milliseconds. */
  timeoutMs: number;
  abortSignal: AbortSignal | undefined;
  /** Counts tokens (the provider's view of the estimator). */
  estimator: Estimator;
  /** Calibrated tokens of the request before and after, for the events. */
  tokensBefore: number;
  tokensAfter: (state: CompactionState) => number;
}

/**
 * One compaction: summarizes the newly covered span (merged with the previous summary in
 * cumulative mode) and returns the new state, with the standing instructions the summarizer quoted
 * verbatim from the user added to its pinned rules. Emits `compaction-start` / `compaction-end`; a
 * failure throws (the caller decides the fallback) and changes nothing.
 */
export async function summarizeSpan({
  messages,
  state,
  coveredCount,
  input,
  userTexts,
  toolIdentifiers,
  decisions,
  options,
  contextWindow,
  reason,
  conversationId,
  summaryMaxTokens,
  timeoutMs,
  abortSignal,
  estimator,
  tokensBefore,
  tokensAfter,
}: SummarizeSpanInput): Promise<{ state: CompactionState; summarizerCalls: number }> {
  const previous = state?.summaries ?? [];
  const started = Date.now();
  options.onEvent({
    type: 'compaction-start',
    conversationId,
    reason,
    tokensBefore,
    messageCount: coveredCount - (state?.coveredCount ?? 0),
  });
  // Stacked summaries grow with every compaction; once they and a new one could outgrow the bound
  // together, they are folded into one, as in cumulative mode.
  const stackTokens = previous.length > 0 ? estimator.countText(previous.join('\n\n')) : 0;
  const stackFull =
    options.summaryMode === 'stack' && previous.length > 0 && stackTokens * 2 > summaryMaxTokens;
  const merge = options.summaryMode === 'cumulative' || stackFull;
  // What the previous summary stands in for: a merged summary is audited against those user
  // identifiers too (the summarizer may cut the previous summary to fit).
  const earlierUserTexts =
    merge && previous.length > 0 && options.auditIdentifiers && state !== undefined
      ? layoutConversation(messages, state.coveredCount).covered.filter(isUserTurn).map(messageText)
      : [];
  const result = await summarize({
    messages: input,
    summarizer: options.summarizer,
    previousSummary: merge && previous.length > 0 ? previous.join('\n\n') : undefined,
    maxInputTokens:
      options.summarizerMaxInputTokens ?? Math.min(100_000, Math.floor((contextWindow ?? 166_667) * 0.6)),
    summaryPrompt: options.summaryPrompt,
    onMemory: options.onMemory,
    auditIdentifiers: options.auditIdentifiers,
    maxSummaryTokens: merge ? summaryMaxTokens : Math.max(1, summaryMaxTokens - stackTokens),
    timeoutMs,
    estimator,
    abortSignal,
    conversationId,
    userTexts,
    earlierUserTexts,
    toolIdentifiers,
    // Stacked summaries stay in the request: a decision one of them holds is not written again.
    decisions: merge
      ? decisions
      : decisions.filter((decision) => !previous.some((text) => text.includes(decision.text))),
  });
  const summaries = merge ? [result.summary] : [...previous, result.summary];
  const covered = layoutConversation(messages, coveredCount).covered;
  const pinned: PinnedQuote[] = [...(state?.pinned ?? []), ...result.standingInstructions];
  const newState: CompactionState = {
    version: 1,
    summaries,
    coveredCount,
    coveredHash: hashMessages(covered),
    tokensBefore,
    tokensAfter: 0,
    createdAt: Date.now(),
    compactionCount: (state?.compactionCount ?? 0) + 1,
    ...(pinned.length > 0 ? { pinned } : {}),
  };
  const after = tokensAfter(newState);
  const made = { ...newState, tokensAfter: after };
  options.onEvent({
    type: 'compaction-end',
    conversationId,
    reason,
    tokensBefore,
    tokensAfter: after,
    coveredCount,
    summarizerCalls: result.calls,
    durationMs: Date.now() - started,
  });
  return { state: made, summarizerCalls: result.calls };
}
