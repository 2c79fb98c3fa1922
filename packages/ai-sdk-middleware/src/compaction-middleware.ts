import type { LanguageModelLike } from '@spillway/ai-sdk-prompt';
import { createPromptConverter, resolveSummarizer } from '@spillway/ai-sdk-prompt';
import {
  type CompactionEventHandler,
  type Compactor,
  createCompactor,
  DEFAULT_RECALL_SECRET,
  recallAnswerMaxTokens,
  TOOL_RESULT_MAX_CHARS,
} from '@spillway/core';
import { afterResponse } from './call/after-response';
import type { CallContext } from './call/call-context';
import type { CallParamsLike } from './call/call-params-like';
import { callWithRecovery } from './call/call-with-recovery';
import { prepareCall } from './call/prepare-call';
import { providerContextSettings } from './call/provider-context-settings';
import { endsTurn } from './call/read-usage';
import { readSpillwayCallOptions } from './call/spillway-call-options';
import { createToolOverhead } from './call/tool-overhead';
import { createCompactCalls } from './compact/compact-calls';
import { type CompactAiTool, type CompactToolOptions, compactTool } from './compact/compact-tool';
import type { CompactionMiddlewareOptions } from './compaction-middleware-options';
import { createEventHub } from './events/event-hub';
import { checkMiddlewareOptions } from './middleware/check-middleware-options';
import type { MiddlewareRuntime } from './middleware/middleware-runtime';
import { pinFromMarker } from './recall/pin-from-marker';
import { type RecallAiTool, type RecallToolOptions, recallTool } from './recall/recall-tool';
import { surfaceStreamOverflow } from './stream/surface-stream-overflow';
import { watchStreamFinish } from './stream/watch-stream-finish';
import { createConversationModels } from './summarize/conversation-models';

/**
 * The middleware: a `LanguageModelMiddleware` for `wrapLanguageModel` in ai 6 (V3) and ai 7 (V4),
 * plus the engine behind it and an event subscription for UIs.
 */
export interface CompactionMiddleware {
  readonly specificationVersion: 'v3';
  /** Rewrites the prompt: capped tool results, the stored summary, compaction when needed. */
  transformParams<Params extends CallParamsLike>(options: {
    type: 'generate' | 'stream';
    params: Params;
    model: LanguageModelLike<Params>;
  }): Promise<Params>;
  /** Calibrates from usage, starts background compaction, recovers from overflow errors. */
  wrapGenerate<Params extends CallParamsLike, GenerateResult, StreamResult>(options: {
    doGenerate: () => PromiseLike<GenerateResult>;
    doStream: () => PromiseLike<StreamResult>;
    params: Params;
    model: LanguageModelLike<Params, GenerateResult, StreamResult>;
  }): Promise<GenerateResult>;
  /** As `wrapGenerate`; background compaction starts when the stream has finished. */
  wrapStream<Params extends CallParamsLike, GenerateResult, StreamResult>(options: {
    doGenerate: () => PromiseLike<GenerateResult>;
    doStream: () => PromiseLike<StreamResult>;
    params: Params;
    model: LanguageModelLike<Params, GenerateResult, StreamResult>;
  }): Promise<StreamResult>;
  /** The engine (store, calibration, single-flight). `compactor.idle()` waits for background work. */
  readonly compactor: Compactor;
  /** Adds an event listener (e.g. `forwardCompactionEvents`); returns the function that removes it. */
  subscribe(listener: CompactionEventHandler): () => void;
  /**
   * The read-back tool with this middleware's `recall.secret`: `tools: { spillway_recall:
   * middleware.recallTool() }`. See {@link recallTool}.
   */
  recallTool(options?: Omit<RecallToolOptions, 'secret'>): RecallAiTool;
  /**
   * The "compact now" tool the model can call: `tools: { spillway_compact: middleware.compactTool() }`.
   * It compacts the conversation of the call it came in (what is older than the current request,
   * with the model's `instructions`), and the next request carries the new summary. See
   * {@link compactTool}.
   */
  compactTool(options?: CompactToolOptions): CompactAiTool;
}

/**
 * Keeps long AI SDK conversations inside the model's context window. Add it with
 * `wrapLanguageModel` and forget about it: `generateText`, `streamText` and agents keep working
 * however long the conversation gets.
 *
 * @example
 * const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware: compactionMiddleware() });
 * const result = streamText({ model, messages, providerOptions: { spillway: { conversationId } } });
 *
 * @throws {InvalidConfigError} for a bad option.
 */
export function compactionMiddleware({
  summarizer,
  conversationId: resolveConversationId,
  onEvent,
  waitUntil,
  onContextUsage,
  maxOverflowRetries = 4,
  strategy = 'local',
  ...engineOptions
}: CompactionMiddlewareOptions = {}): CompactionMiddleware {
  // 1. The middleware's own options (the engine checks its own in `createCompactor`).
  checkMiddlewareOptions({ maxOverflowRetries, waitUntil, strategy });
  // 2. Events, and the model each conversation goes to (the default summarizer writes with it).
  const events = createEventHub(onEvent);
  const models = createConversationModels();
  // 3. The engine.
  const recallSecret =
    engineOptions.recall === false ? undefined : (engineOptions.recall?.secret ?? DEFAULT_RECALL_SECRET);
  const compactor = createCompactor({
    ...engineOptions,
    pin: pinFromMarker(engineOptions.pin),
    summarizer: resolveSummarizer(summarizer, models.modelFor),
    onEvent: events.emit,
  });
  // 4. What each call shares: the prompt converter (with the storage-time cap) and the rest.
  const runtime: MiddlewareRuntime = {
    compactor,
    converter: createPromptConverter({
      toolResultMaxChars: engineOptions.toolResultMaxChars ?? TOOL_RESULT_MAX_CHARS,
      toolResultLimits: engineOptions.toolResultLimits ?? {},
      recallSecret,
    }),
    emit: events.emit,
    models,
    overheadOf: createToolOverhead(compactor.estimator),
    resolveConversationId,
    onContextUsage,
    waitUntil,
    maxOverflowRetries,
    providerContext:
      strategy === 'provider'
        ? providerContextSettings(engineOptions.thresholds, engineOptions.protectedRatio)
        : undefined,
    latestWindow: undefined,
  };
  /** Each transformed call's context, found again by `wrapGenerate` / `wrapStream`. */
  const contexts = new WeakMap<object, CallContext>();
  /** `spillway_compact` calls seen in responses, with their call's context, until executed. */
  const compactCalls = createCompactCalls();

  return {
    specificationVersion: 'v3',
    compactor,
    subscribe: events.subscribe,

    recallTool(options = {}) {
      // Pages sized to the window of the latest call, so the page the model asked for reaches it whole.
      return recallTool(
        { ...options, ...(recallSecret === undefined ? {} : { secret: recallSecret }) },
        () => (runtime.latestWindow === undefined ? undefined : recallAnswerMaxTokens(runtime.latestWindow)),
      );
    },

    compactTool(options = {}) {
      return compactTool(options, { compactor, calls: compactCalls });
    },

    // 5. Before the call: the compacted prompt.
    async transformParams({ params: received, model }) {
      const { options: callOptions, params } = readSpillwayCallOptions(received);
      if (callOptions.disabled || !Array.isArray(params.prompt)) return params;
      const prepared = await prepareCall(runtime, { params, model, callOptions });
      if (prepared.context !== undefined) contexts.set(prepared.params, prepared.context);
      return prepared.params;
    },

    // 6. The call, retried when the provider says "too long"; then background work.
    async wrapGenerate({ doGenerate, params, model }) {
      const context = contexts.get(params);
      if (context === undefined) return doGenerate();
      const { result, prepared } = await callWithRecovery(
        runtime,
        context,
        params,
        doGenerate,
        (retryParams) => model.doGenerate(retryParams),
      );
      const { usage, finishReason, content } = result as {
        usage?: unknown;
        finishReason?: unknown;
        content?: readonly { type?: unknown }[];
      };
      const toolCalls = Array.isArray(content) && content.some((part) => part?.type === 'tool-call');
      if (toolCalls) compactCalls.notice(content, context);
      afterResponse(runtime, context, prepared, usage, endsTurn(finishReason, toolCalls));
      return result;
    },

    async wrapStream({ doStream, params, model }) {
      const context = contexts.get(params);
      if (context === undefined) return doStream();
      const { result, prepared } = await callWithRecovery(
        runtime,
        context,
        params,
        async () => surfaceStreamOverflow(await doStream()),
        async (retryParams) => surfaceStreamOverflow(await model.doStream(retryParams)),
      );
      // Background work starts when the stream has ended.
      return watchStreamFinish(
        result,
        ({ usage, finishReason, toolCalls }) =>
          afterResponse(runtime, context, prepared, usage, endsTurn(finishReason, toolCalls)),
        (part) => compactCalls.notice(part, context),
      );
    },
  };
}
