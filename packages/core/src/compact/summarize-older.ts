import type { Message } from '../message/message';
import type { CompactionState } from '../store/compaction-state';
import { summarize } from '../summarize/summarize';
import { supersedeToolResults } from '../truncate/supersede-tool-results';
import type { CompactionReason } from './compaction-event';
import { assembleRequest, layoutConversation } from './compaction-layout';
import type { ResolvedCompactionOptions } from './compaction-options';
import { hashMessages } from './hash-messages';
import { olderBoundary } from './older-boundary';

/** What {@link summarizeOlder} produced. */
export interface SummarizeOlderResult {
  /** The new state, or undefined when there was nothing older than the protected window. */
  state: CompactionState | undefined;
  summarizerCalls: number;
}

/**
 * One compaction: splits what the current state does not cover into older and recent, summarizes
 * the older part (merged with the previous summary in cumulative mode) and returns the new state.
 * Emits `compaction-start` / `compaction-end`; a failure throws (the caller decides the fallback)
 * and changes nothing.
 */
export async function summarizeOlder({
  messages,
  working,
  state,
  options,
  contextWindow,
  keepGroups,
  reason,
  conversationId,
  countTokens,
  summaryMaxTokens,
  timeoutMs,
  abortSignal,
  estimator = options.estimator,
}: {
  /** The conversation as the application has it (hashed for the state). */
  messages: readonly Message[];
  /** The same conversation after the storage-time cap (what the summarizer reads). */
  working: readonly Message[];
  /** The state that currently applies (already validated), if any. */
  state: CompactionState | undefined;
  options: ResolvedCompactionOptions;
  contextWindow: number | undefined;
  keepGroups: number | undefined;
  reason: CompactionReason;
  conversationId: string;
  countTokens: (messages: readonly Message[]) => number;
  /** The bound on the new summary (stack mode: on all summaries together), in tokens. */
  summaryMaxTokens: number;
  /** Time limit for the summarizer, in milliseconds. */
  timeoutMs: number;
  abortSignal?: AbortSignal;
  /** Counts tokens (the provider's view of the estimator). */
  estimator?: ResolvedCompactionOptions['estimator'];
}): Promise<SummarizeOlderResult> {
  const coveredBefore = state?.coveredCount ?? 0;
  const layout = layoutConversation(working, coveredBefore);
  const boundary = olderBoundary(layout.rest, {
    protectTokens: (contextWindow ?? 0) * options.protectedRatio,
    keepGroups,
    estimator,
  });
  const older = layout.rest.slice(0, boundary).filter((message) => message.role !== 'system');
  if (older.length === 0) return { state: undefined, summarizerCalls: 0 };

  const previous = state?.summaries ?? [];
  // What the request holds now: the previous summary (if any) and everything it does not cover.
  const tokensBefore = countTokens(
    assembleRequest({ layout, summaries: previous, placement: options.summaryPlacement }),
  );
  const started = Date.now();
  options.onEvent({
    type: 'compaction-start',
    conversationId,
    reason,
    tokensBefore,
    messageCount: older.length,
  });
  // Stacked summaries grow with every compaction; once they and a new one could outgrow the bound
  // together, they are folded into one, as in cumulative mode.
  const stackTokens = previous.length > 0 ? estimator.countText(previous.join('\n\n')) : 0;
  const stackFull =
    options.summaryMode === 'stack' && previous.length > 0 && stackTokens * 2 > summaryMaxTokens;
  const merge = options.summaryMode === 'cumulative' || stackFull;
  // Stale and duplicate results (the supersede stage, within the span) reach the summarizer as
  // their one-line notes: its input budget goes to what is still true.
  const supersede = options.structure.supersede;
  const result = await summarize({
    messages: supersede === false ? older : supersedeToolResults(older, supersede).messages,
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
  });
  const summaries = merge ? [result.summary] : [...previous, result.summary];
  const coveredCount = coveredBefore + older.length;
  const covered = layoutConversation(messages, coveredCount).covered;
  const after = layoutConversation(working, coveredCount);
  const tokensAfter = countTokens(
    assembleRequest({ layout: after, summaries, placement: options.summaryPlacement }),
  );
  const newState: CompactionState = {
    version: 1,
    summaries,
    coveredCount,
    coveredHash: hashMessages(covered),
    tokensBefore,
    tokensAfter,
    createdAt: Date.now(),
    compactionCount: (state?.compactionCount ?? 0) + 1,
  };
  options.onEvent({
    type: 'compaction-end',
    conversationId,
    reason,
    tokensBefore,
    tokensAfter,
    coveredCount,
    summarizerCalls: result.calls,
    durationMs: Date.now() - started,
  });
  return { state: newState, summarizerCalls: result.calls };
}
