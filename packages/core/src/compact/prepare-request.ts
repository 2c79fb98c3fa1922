import type { Message } from '../message/message';
import { linkSignals } from '../summarize/abortable';
import { startBackgroundSummary } from './background-summary';
import type { CompactMessagesResult } from './compact-messages-types';
import type { CompactionAction } from './compaction-action';
import type { PrepareOptions, PrepareResult } from './compactor';
import { type CompactorRuntime, withOverrides } from './compactor-runtime';
import { deriveConversationId } from './conversation-id';
import { delegatedOptions } from './delegated-options';
import { needsSummary } from './needs-summary';
import { prepareWithStore } from './prepare-with-store';
import { splitProviderCompacted } from './provider-compacted';
import { recognizeMessages } from './recognize-messages';
import type { ReductionLevel } from './reduction-level';
import { OVERFLOW_KEEP_GROUPS, runCompaction } from './run-compaction';

/** The no-model reductions of the history whose reach a {@link ReductionLevel} records. */
const HISTORY_REDUCTIONS = [
  'reduce-tool-results',
  'stub-tool-results',
  'fold-tool-steps',
  'shorten-pasted-blobs',
] as const satisfies readonly CompactionAction[];

function historyReductionTokens(savings: CompactMessagesResult['savings']): number {
  return HISTORY_REDUCTIONS.reduce((sum, action) => sum + (savings[action] ?? 0), 0);
}

function sameLevel(level: ReductionLevel, previous: ReductionLevel | undefined): boolean {
  return (
    previous !== undefined &&
    level.coveredCount === previous.coveredCount &&
    level.previewTo === previous.previewTo &&
    level.stubTo === previous.stubTo &&
    level.foldTo === previous.foldTo
  );
}

/**
 * `Compactor.prepare`: learns from an overflow error, compacts against the store (summarizing now
 * only when no compaction of the conversation is running and it is not cooling down after a
 * failure), and remembers what the request was for the next one. A request waits for another
 * request's compaction up to the foreground limit, never for a background one.
 */
export async function prepareRequest(
  runtime: CompactorRuntime,
  messages: readonly Message[],
  {
    conversationId,
    model,
    provider,
    contextWindow,
    modelContextWindow,
    overheadTokens = 0,
    outputTokens,
    overflowAttempt,
    overflowError,
    abortSignal,
    originals,
    recallTool,
    delegated = false,
  }: PrepareOptions = {},
): Promise<PrepareResult> {
  const { resolved, shared, flights, cooldowns, windows, requests } = runtime;
  abortSignal?.throwIfAborted();
  const id = conversationId ?? deriveConversationId(messages);
  recognizeMessages(messages, { conversationId: id, scope: resolved.estimator });
  const effectiveModel = model ?? resolved.model;
  if (overflowError !== undefined)
    windows.learnFromOverflow(effectiveModel, overflowError, requests.estimate(id));
  const window = windows.windowFor(effectiveModel, contextWindow, id, modelContextWindow);
  const overridden = withOverrides(resolved, model, provider);
  const effective = delegated ? delegatedOptions(overridden) : overridden;
  if (overflowAttempt !== undefined) {
    const attempt = Math.max(1, Math.floor(overflowAttempt));
    resolved.onEvent({
      type: 'overflow-retry',
      conversationId: id,
      attempt,
      keepGroups: OVERFLOW_KEEP_GROUPS[Math.min(attempt, OVERFLOW_KEEP_GROUPS.length) - 1]!,
    });
  }
  const rejectedTokens = overflowAttempt === undefined ? undefined : requests.estimate(id);
  const reductionLevel = requests.level(id);
  // Found once for the request (the lease check and the pipeline both need it).
  const providerSplit = splitProviderCompacted(messages) ?? null;
  const deadline = Date.now() + resolved.summaryTimeouts.foreground;
  const run = async (allowSummarize: boolean): Promise<PrepareResult> => {
    const result = await prepareWithStore({
      flight: shared,
      conversationId: id,
      allowSummarize,
      waitMs: Math.max(0, deadline - Date.now()),
      abortSignal,
      needsSummary: (state) =>
        needsSummary({
          messages,
          state,
          options: effective,
          contextWindow: window,
          overheadTokens,
          overflowAttempt,
          providerSplit,
        }),
      compute: (state, summarize) =>
        runCompaction(messages, effective, {
          state,
          conversationId: id,
          overheadTokens,
          overflowAttempt,
          allowSummarize: summarize,
          abortSignal,
          contextWindow: window,
          providerSplit,
          ...(outputTokens === undefined ? {} : { outputTokens }),
          ...(originals === undefined ? {} : { originals }),
          ...(recallTool === undefined ? {} : { recallTool }),
          ...(reductionLevel === undefined ? {} : { reductionLevel }),
          ...(rejectedTokens === undefined ? {} : { rejectedTokens }),
        }),
    });
    abortSignal?.throwIfAborted();
    if (result.stateChanged) cooldowns.clear(id);
    if (result.actions.includes('summarize-failed')) cooldowns.noteFailure(id, 'request');
    const reduced = historyReductionTokens(result.savings);
    if (result.reductionLevel !== undefined && !sameLevel(result.reductionLevel, reductionLevel)) {
      resolved.onEvent({
        type: 'reduction-step',
        conversationId: id,
        level: result.reductionLevel,
        previous: reductionLevel,
        tokensFreed: Math.max(0, reduced - (requests.reduced(id) ?? 0)),
      });
    }
    requests.remember(id, result.estimatedTokens, result.reductionLevel, reduced);
    return { ...result, conversationId: id, contextWindow: window };
  };
  const cooldown = cooldowns.take(id);
  if (!delegated && cooldown?.backgroundRetry && window !== undefined && !flights.has(id)) {
    // The one retry after a failure: in the background, so this request does not wait for it.
    cooldown.backgroundRetry = false;
    if (cooldown.remaining === 0) cooldowns.clear(id);
    void startBackgroundSummary(runtime, id, messages, {
      effective,
      window,
      overheadTokens,
      responseTokens: 0,
      abortSignal: undefined,
      turnFinished: false,
    });
  }
  // Check and claim the conversation in one synchronous step, so two requests never both
  // summarize. A request waits for another request's compaction (up to the foreground limit); it
  // does not wait for a background one (and does not start a second: the request is brought under
  // the threshold without a model until the summary is ready).
  for (;;) {
    const flight = flights.get(id);
    if (flight === undefined) {
      return cooldown !== undefined || delegated ? run(false) : flights.track(id, 'request', () => run(true));
    }
    if (flight.kind === 'background') return run(false);
    const waited = linkSignals([abortSignal], deadline - Date.now());
    try {
      await new Promise<void>((resolve) => {
        flight.promise.then(
          () => resolve(),
          () => resolve(),
        );
        waited.signal.addEventListener('abort', () => resolve(), { once: true });
      });
    } finally {
      waited.dispose();
    }
    abortSignal?.throwIfAborted();
    if (waited.timedOut() || Date.now() >= deadline) return run(false);
  }
}
