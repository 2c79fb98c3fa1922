import { SummarizationError } from '../errors/summarization-error';
import type { Message } from '../message/message';
import { findBoundary } from '../split/split-messages';
import type { CompactionState } from '../store/compaction-state';
import { capToolResults } from '../truncate/cap-tool-results';
import { reduceToolResults } from '../truncate/reduce-tool-results';
import { replaceImages } from '../truncate/replace-images';
import { supersedeToolResults } from '../truncate/supersede-tool-results';
import type { TruncationRecord } from '../truncate/truncation-record';
import type { CompactionReason } from './compaction-event';
import {
  assembleRequest,
  type ConversationLayout,
  layoutConversation,
  stateMatches,
} from './compaction-layout';
import {
  type CompactionOptions,
  type ResolvedCompactionOptions,
  resolveCompactionOptions,
} from './compaction-options';
import { deriveConversationId } from './conversation-id';
import { dropOldest } from './drop-oldest';
import { recognizeMessages } from './recognize-messages';
import { summarizeOlder } from './summarize-older';

/** Per-request options of {@link compactMessages}. */
export interface CompactRequestOptions {
  /** The state a previous compaction of this conversation left (from your store). */
  state?: CompactionState;
  /**
   * Names the conversation in events.
   * @default derived from the conversation's first messages
   */
  conversationId?: string;
  /**
   * Tokens the request carries besides the messages (tool definitions, provider framing), counted
   * on top of the messages.
   * @default 0
   */
  overheadTokens?: number;
  /**
   * The provider rejected the previous attempt as too long: retry number (1, 2, 3, …). Each attempt
   * keeps fewer message groups verbatim (4 → 2 → 1 → 0, where 0 keeps only the last group) and
   * shortens tool results harder, whatever the estimate says. Works even when the context window is
   * unknown.
   */
  overflowAttempt?: number;
  /**
   * Summarize now when over the compact threshold. The compactor turns this off while a background
   * compaction of the same conversation is running.
   * @default true
   */
  allowSummarize?: boolean;
  abortSignal?: AbortSignal;
}

/** Options of {@link compactMessages}. */
export type CompactMessagesOptions = CompactionOptions & CompactRequestOptions;

/** A step {@link compactMessages} took, in order. */
export type CompactionAction =
  | 'cap-tool-results'
  | 'apply-summary'
  | 'replace-images'
  | 'supersede-tool-results'
  | 'reduce-tool-results'
  | 'summarize'
  | 'summarize-failed'
  | 'drop-oldest';

/** What {@link compactMessages} returns. */
export interface CompactMessagesResult {
  /** The messages to send. Messages it did not change are the caller's own objects. */
  messages: Message[];
  /**
   * The state in force after this call: a new one when a summary was made (store it), the given
   * one when it still applied, undefined when none applies.
   */
  state: CompactionState | undefined;
  /** Whether `state` is new (a summary was made in this call). */
  stateChanged: boolean;
  /** Calibrated token estimate of the input, overhead included. */
  tokensBefore: number;
  /** Calibrated token estimate of `messages`, overhead included. */
  tokensAfter: number;
  /**
   * Raw (uncalibrated) estimate of `messages` plus overhead: hand it back with the provider's
   * reported input tokens to calibrate the estimator.
   */
  estimatedTokens: number;
  /**
   * What was done, each step once: the cap and the stored summary first, then the reductions that
   * are in the request, then summarizing and dropping. Empty when the input went through untouched.
   */
  actions: CompactionAction[];
}

/** Groups kept verbatim on each overflow retry (seed claw-code #2808). */
export const OVERFLOW_KEEP_GROUPS = [4, 2, 1, 0] as const;
/** Share of the compact budget tool results are shortened to on each overflow retry. */
const OVERFLOW_REDUCTION_TARGET = [0.8, 0.6, 0.4, 0.25] as const;

/**
 * The whole pipeline as one async function, for applications that keep their own state: before a
 * request, give it the conversation and the state your store holds; send the messages it returns
 * and store the state when `stateChanged`.
 *
 * 1. Storage-time cap on tool results (always, even with an unknown context window).
 * 2. A stored summary whose covered prefix still hashes the same replaces that prefix.
 * 3. Over `thresholds.compact`: images older than the protected window become placeholders,
 *    superseded and duplicate tool results become notes, large tool results are shortened oldest
 *    first (head + tail), until the prompt is back under `thresholds.background`.
 * 4. Still over `thresholds.compact`: the messages older than the protected window are summarized
 *    now (merged with the previous summary) and a new state is returned. If the summarizer fails
 *    twice, the oldest messages leave this request only (a digest stays in their place).
 * 5. Still over `thresholds.emergency` (or on an overflow retry, over `thresholds.compact`): the
 *    recent tool results are shortened too, then the oldest message groups are dropped from the
 *    request, with `[System: N older messages were truncated due to context limits]` in their place.
 *
 * Under the threshold it is a no-op apart from steps 1 and 2. The input is never mutated.
 */
export async function compactMessages(
  messages: readonly Message[],
  options: CompactMessagesOptions = {},
): Promise<CompactMessagesResult> {
  return runCompaction(messages, resolveCompactionOptions(options), options);
}

/** {@link compactMessages} with options already resolved (the compactor resolves them once). */
export async function runCompaction(
  messages: readonly Message[],
  options: ResolvedCompactionOptions,
  {
    state: givenState,
    conversationId = deriveConversationId(messages),
    overheadTokens = 0,
    overflowAttempt,
    allowSummarize = true,
    abortSignal,
    contextWindow = options.contextWindow,
  }: CompactRequestOptions & { contextWindow?: number },
): Promise<CompactMessagesResult> {
  recognizeMessages(messages, { conversationId });
  const { estimator, model, thresholds, onEvent } = options;
  const rawCount = (list: readonly Message[]) => estimator.countMessages(list) + overheadTokens;
  const countTokens = (list: readonly Message[]) => estimator.calibrated(rawCount(list), model);
  const actions: CompactionAction[] = [];
  const tokensBefore = countTokens(messages);
  const report = (records: readonly TruncationRecord[]) => {
    if (records.length > 0) onEvent({ type: 'truncation', conversationId, records });
  };
  // Reductions are recomputed from the originals at each stage; only the last set is reported.
  let reduction: { records: TruncationRecord[]; actions: CompactionAction[] } = { records: [], actions: [] };
  const finish = (output: Message[], state: CompactionState | undefined, stateChanged = false) => {
    report(reduction.records);
    const estimatedTokens = rawCount(output);
    return {
      messages: output,
      state,
      stateChanged,
      tokensBefore,
      tokensAfter: estimator.calibrated(estimatedTokens, model),
      estimatedTokens,
      actions: [
        ...actions.filter((action) => action === 'cap-tool-results' || action === 'apply-summary'),
        ...reduction.actions,
        ...actions.filter((action) => action !== 'cap-tool-results' && action !== 'apply-summary'),
      ],
    };
  };

  // 1. Storage-time cap.
  const capped = capToolResults(messages, {
    maxChars: options.toolResultMaxChars,
    limits: options.toolResultLimits,
  });
  if (capped.records.length > 0) actions.push('cap-tool-results');
  report(capped.records);
  const working = capped.messages;

  // 2. The stored summary, when it still covers the same prefix.
  let state = stateMatches(messages, givenState) ? givenState : undefined;
  let layout = layoutConversation(working, state?.coveredCount ?? 0);
  let summaries = state?.summaries ?? [];
  const placement = options.summaryPlacement;
  if (state) actions.push('apply-summary');
  let request = state ? assembleRequest({ layout, summaries, placement }) : working;
  let tokens = countTokens(request);

  if (contextWindow === undefined && overflowAttempt === undefined) return finish(request, state);
  const retry = overflowAttempt === undefined ? undefined : Math.max(1, Math.floor(overflowAttempt));
  // With an unknown window, an overflow retry aims below what was just rejected.
  const window = contextWindow ?? tokens / thresholds.compact;
  const compactTokens = window * thresholds.compact;
  if (retry === undefined && tokens < compactTokens) return finish(request, state);

  const reason: CompactionReason = retry === undefined ? 'threshold' : 'overflow';
  const keepGroups = retry === undefined ? undefined : OVERFLOW_KEEP_GROUPS[Math.min(retry, 4) - 1];
  const reductionTarget =
    retry === undefined
      ? window * thresholds.background
      : compactTokens * OVERFLOW_REDUCTION_TARGET[Math.min(retry, 4) - 1]!;

  // 3. Reductions without a model, on what the summary does not cover.
  // `protect`: leave the protected recent window alone (step 3). Otherwise (emergency, overflow
  // retries) recent tool results may be shortened too; images and notes still spare the last group.
  const reduce = (current: ConversationLayout, target: number, protect: boolean) => {
    const protectedStart = findBoundary(current.rest, {
      protectTokens: protect ? window * options.protectedRatio : 0,
      keepGroups: protect ? keepGroups : 0,
      estimator,
    });
    const records: TruncationRecord[] = [];
    const done: CompactionAction[] = [];
    const apply = (
      action: CompactionAction,
      result: { messages: Message[]; records: TruncationRecord[] },
    ) => {
      if (result.records.length > 0) done.push(action);
      records.push(...result.records);
      return result.messages;
    };
    let rest = current.rest;
    if (options.imagePlaceholders) {
      rest = apply('replace-images', replaceImages(rest, { before: protectedStart }));
    }
    if (options.supersedeToolResults) {
      rest = apply('supersede-tool-results', supersedeToolResults(rest, { before: protectedStart }));
    }
    if (options.toolResultReduction !== false) {
      const fixed = rawCount(assembleRequest({ layout: current, summaries, placement, rest: [] }));
      const rawTarget = target / estimator.calibrationFactor(model) - fixed;
      rest = apply(
        'reduce-tool-results',
        reduceToolResults(rest, {
          estimator,
          targetTokens: Math.max(0, rawTarget),
          minChars: options.toolResultReduction.minChars,
          keepChars: options.toolResultReduction.keepChars,
          before: protect ? protectedStart : Number.POSITIVE_INFINITY,
        }),
      );
    }
    reduction = { records, actions: done };
    return rest;
  };
  let rest = reduce(layout, reductionTarget, true);
  request = assembleRequest({ layout, summaries, placement, rest });
  tokens = countTokens(request);
  if (retry === undefined && tokens < compactTokens) return finish(request, state);

  // 4. Summarize what is older than the protected window.
  let stateChanged = false;
  let fallback = false;
  if (allowSummarize) {
    try {
      const result = await summarizeOlder({
        messages,
        working,
        state,
        options,
        contextWindow: window,
        keepGroups,
        reason,
        conversationId,
        countTokens,
        abortSignal,
      });
      if (result.state) {
        actions.push('summarize');
        state = result.state;
        stateChanged = true;
        summaries = state.summaries;
        layout = layoutConversation(working, state.coveredCount);
        rest = layout.rest;
        request = assembleRequest({ layout, summaries, placement, rest });
        tokens = countTokens(request);
        if (tokens >= compactTokens || retry !== undefined) {
          rest = reduce(layout, reductionTarget, retry === undefined);
          request = assembleRequest({ layout, summaries, placement, rest });
          tokens = countTokens(request);
        }
      }
    } catch (error) {
      if (abortSignal?.aborted) throw error;
      actions.push('summarize-failed');
      fallback = true;
      onEvent({
        type: 'compaction-failed',
        conversationId,
        reason,
        error: SummarizationError.isInstance(error)
          ? error
          : new SummarizationError({ attempts: 1, errors: [error] }),
        fallback: 'drop-oldest',
      });
    }
  }

  // 5. Drop the oldest groups from the request: after a failed summary (down to the compact
  // threshold), in an emergency, or on an overflow retry that still does not fit.
  const emergencyTokens = window * thresholds.emergency;
  if (fallback || tokens >= emergencyTokens || (retry !== undefined && tokens >= compactTokens)) {
    if (!fallback) {
      rest = reduce(layout, compactTokens, false);
      request = assembleRequest({ layout, summaries, placement, rest });
      tokens = countTokens(request);
    }
    if (fallback || tokens >= (retry === undefined ? emergencyTokens : compactTokens)) {
      const fixed = countTokens(assembleRequest({ layout, summaries, placement, rest: [] }));
      const tokensBeforeDrop = tokens;
      const dropped = dropOldest(rest, {
        budgetTokens: Math.max(0, (retry === undefined ? compactTokens : reductionTarget) - fixed),
        countTokens: (list) => estimator.calibrated(estimator.countMessages(list), model),
      });
      if (dropped.droppedCount > 0) {
        actions.push('drop-oldest');
        request = assembleRequest({ layout, summaries, placement, rest: dropped.kept, note: dropped.note });
        tokens = countTokens(request);
        onEvent({
          type: 'emergency-truncation',
          conversationId,
          droppedCount: dropped.droppedCount,
          tokensBefore: tokensBeforeDrop,
          tokensAfter: tokens,
        });
      }
    }
  }
  return finish(request, state, stateChanged);
}
