import type { Message } from '../message/message';
import { toolCallsOf } from '../message/message-parts';
import { MemoryCompactionStore } from '../store/memory-compaction-store';
import { startBackgroundSummary } from './background-summary';
import { checkCompactorOptions } from './check-compactor-options';
import { compactNow } from './compact-now';
import type { AfterResponseOptions, Compactor, CompactorOptions } from './compactor';
import { type CompactorRuntime, withOverrides } from './compactor-runtime';
import { createContextWindows } from './context-windows';
import { createConversationFlights } from './conversation-flights';
import { deriveConversationId } from './conversation-id';
import { createDistributedFlight } from './distributed-flight';
import { prepareRequest } from './prepare-request';
import { recognizeMessages } from './recognize-messages';
import { createRequestMemory } from './request-memory';
import { resolveCompactionOptions } from './resolve-compaction-options';
import { createSummaryCooldowns } from './summary-cooldowns';

/**
 * Creates a {@link Compactor}. Options are checked here, once.
 *
 * @example
 * const compactor = createCompactor({ contextWindow: 128_000, summarizer });
 * const { messages: toSend, estimatedTokens } = await compactor.prepare(messages, { conversationId });
 * const response = await callModel(toSend);
 * void compactor.afterResponse([...messages, response], { conversationId, inputTokens, estimatedTokens });
 *
 * @throws {InvalidConfigError} for a bad option.
 */
export function createCompactor({
  store = new MemoryCompactionStore(),
  contextWindows,
  retrySummaryAfter = 5,
  warnOnUnknownContextWindow = true,
  lease,
  storeTimeoutMs = 1000,
  ...options
}: CompactorOptions = {}): Compactor {
  const resolved = resolveCompactionOptions(options);
  const shared = createDistributedFlight({ store, onEvent: resolved.onEvent, lease, storeTimeoutMs });
  checkCompactorOptions({ retrySummaryAfter, contextWindows });
  const runtime: CompactorRuntime = {
    resolved,
    store,
    shared,
    flights: createConversationFlights(),
    cooldowns: createSummaryCooldowns(retrySummaryAfter),
    windows: createContextWindows({ resolved, contextWindows, warnOnUnknownContextWindow }),
    requests: createRequestMemory(),
  };
  return {
    estimator: resolved.estimator,
    store,
    contextWindowFor: (model, modelContextWindow) =>
      runtime.windows.contextWindowFor(model ?? resolved.model, undefined, modelContextWindow),
    prepare: (messages, prepareOptions) => prepareRequest(runtime, messages, prepareOptions),
    afterResponse: (messages, responseOptions) => afterResponse(runtime, messages, responseOptions),
    compact: (messages, compactOptions) => compactNow(runtime, messages, compactOptions),
    isCompacting: (conversationId) => runtime.flights.has(conversationId),
    idle: () => runtime.flights.idle(),
  };
}

/**
 * `Compactor.afterResponse`: calibrates from the reported usage and starts a background summary
 * when the next request needs one. Never throws; the promise always settles.
 */
function afterResponse(
  runtime: CompactorRuntime,
  messages: readonly Message[],
  {
    conversationId,
    model,
    provider,
    contextWindow,
    modelContextWindow,
    inputTokens,
    estimatedTokens,
    responseTokens = 0,
    overheadTokens = 0,
    abortSignal,
    turnFinished,
    delegated = false,
  }: AfterResponseOptions = {},
): Promise<void> {
  const { resolved, flights, cooldowns, windows } = runtime;
  // The provider manages the context: its count is after its own clearing, and it summarizes.
  if (delegated) return Promise.resolve();
  try {
    const effectiveModel = model ?? resolved.model;
    if (inputTokens !== undefined && estimatedTokens !== undefined) {
      resolved.estimator.calibrate({ model: effectiveModel, estimatedTokens, actualTokens: inputTokens });
    }
    const id = conversationId ?? deriveConversationId(messages);
    recognizeMessages(messages, { conversationId: id, scope: resolved.estimator });
    const window = windows.windowFor(effectiveModel, contextWindow, id, modelContextWindow);
    if (window === undefined || flights.has(id) || cooldowns.has(id) || abortSignal?.aborted) {
      return Promise.resolve();
    }
    const last = messages.at(-1);
    return startBackgroundSummary(runtime, id, messages, {
      effective: withOverrides(resolved, model, provider),
      window,
      overheadTokens,
      responseTokens,
      abortSignal,
      turnFinished: turnFinished ?? (last?.role === 'assistant' && toolCallsOf(last).length === 0),
    });
  } catch (error) {
    resolved.onEvent({
      type: 'compaction-failed',
      conversationId: conversationId ?? 'unknown',
      reason: 'background',
      error,
      fallback: 'none',
    });
    return Promise.resolve();
  }
}
