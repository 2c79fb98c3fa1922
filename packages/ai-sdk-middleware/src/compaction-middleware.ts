import {
  type CompactionEvent,
  type CompactionEventHandler,
  type Compactor,
  ContextOverflowError,
  callWithOverflowRecovery,
  createCompactor,
  DEFAULT_RECALL_SECRET,
  deriveConversationId,
  extractiveSummarizer,
  InvalidConfigError,
  type Message,
  type PrepareOptions,
  type PrepareResult,
  type Summarizer,
  type SummarizerInput,
  TOOL_RESULT_MAX_CHARS,
} from '@spillway/core';
import { modelContextWindow } from './call/model-context-window';
import { endsTurn, readUsage } from './call/read-usage';
import { readSpillwayCallOptions } from './call/spillway-call-options';
import type { CompactionMiddlewareOptions } from './compaction-middleware-options';
import { fromNeutralMessages, type PromptVersion } from './prompt/from-neutral-messages';
import { createPromptConverter } from './prompt/prompt-converter';
import { repairPrompt } from './prompt/repair-prompt';
import type { SdkMessage, SdkPrompt } from './prompt/sdk-prompt';
import { hasRecallTool } from './recall/has-recall-tool';
import { pinFromMarker } from './recall/pin-from-marker';
import { type RecallAiTool, type RecallToolOptions, recallTool } from './recall/recall-tool';
import { surfaceStreamOverflow } from './stream/surface-stream-overflow';
import { isLanguageModel, type LanguageModelLike } from './summarize/language-model-like';
import { languageModelSummarizer } from './summarize/language-model-summarizer';

/** The call parameters the middleware reads: the V3 and V4 call options both fit. */
export interface CallParamsLike {
  readonly prompt: readonly unknown[];
  readonly providerOptions?: unknown;
  readonly tools?: unknown;
  readonly responseFormat?: unknown;
  readonly abortSignal?: AbortSignal;
}

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
}

interface CallContext {
  messages: Message[];
  /** `messages` before the storage-time cap. */
  uncapped: readonly Message[];
  conversationId: string;
  modelId: string;
  /** What every `prepare` of this call is given (retries add the attempt and the error). */
  prepareOptions: Omit<PrepareOptions, 'overflowAttempt' | 'overflowError'>;
  /** The request as first prepared. */
  prepared: PrepareResult;
  contextWindow: number | undefined;
  overheadTokens: number;
  version: PromptVersion;
  /** The caller's SDK message for each unchanged neutral message (computed when first needed). */
  current: () => ReadonlyMap<Message, SdkMessage>;
  original: SdkPrompt;
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
  ...engineOptions
}: CompactionMiddlewareOptions = {}): CompactionMiddleware {
  if (!Number.isInteger(maxOverflowRetries) || maxOverflowRetries < 0) {
    throw new InvalidConfigError({
      option: 'maxOverflowRetries',
      value: maxOverflowRetries,
      message: 'must be an integer >= 0',
    });
  }
  if (waitUntil !== undefined && typeof waitUntil !== 'function') {
    throw new InvalidConfigError({ option: 'waitUntil', value: waitUntil, message: 'must be a function' });
  }
  // The default summarizer writes a conversation's summary with the model that conversation goes to
  // (one middleware may wrap several models); the model called last stands in for a forgotten one.
  const conversationModels = new Map<string, LanguageModelLike>();
  let lastModel: LanguageModelLike | undefined;
  const rememberModel = (conversationId: string, model: LanguageModelLike) => {
    lastModel = model;
    conversationModels.delete(conversationId);
    conversationModels.set(conversationId, model);
    if (conversationModels.size > REMEMBERED_MODELS) {
      conversationModels.delete(conversationModels.keys().next().value as string);
    }
  };
  const listeners = new Set<CompactionEventHandler>();
  const emit = (event: CompactionEvent) => {
    for (const listener of [onEvent, ...listeners]) {
      try {
        listener?.(event);
      } catch {
        // A listener must never break a request.
      }
    }
  };
  const recallSecret =
    engineOptions.recall === false ? undefined : (engineOptions.recall?.secret ?? DEFAULT_RECALL_SECRET);
  const compactor = createCompactor({
    ...engineOptions,
    pin: pinFromMarker(engineOptions.pin),
    summarizer: resolveSummarizer(
      summarizer,
      ({ conversationId }) =>
        (conversationId === undefined ? undefined : conversationModels.get(conversationId)) ?? lastModel,
    ),
    onEvent: emit,
  });
  const converter = createPromptConverter({
    toolResultMaxChars: engineOptions.toolResultMaxChars ?? TOOL_RESULT_MAX_CHARS,
    toolResultLimits: engineOptions.toolResultLimits ?? {},
    recallSecret,
  });
  const contexts = new WeakMap<object, CallContext>();
  const overheadMemo = new WeakMap<object, number>();

  const overheadOf = (params: CallParamsLike): number => {
    let tokens = 0;
    for (const value of [params.tools, params.responseFormat]) {
      if (typeof value !== 'object' || value === null) continue;
      let count = overheadMemo.get(value);
      if (count === undefined) {
        count = compactor.estimator.countText(safeJson(value));
        overheadMemo.set(value, count);
      }
      tokens += count;
    }
    return tokens;
  };

  const build = (
    messages: readonly Message[],
    context: Pick<CallContext, 'version' | 'current' | 'original'>,
  ) =>
    repairPrompt(
      fromNeutralMessages(messages, { version: context.version, current: context.current() }),
      context.original,
    );

  const reportUsage = (context: CallContext, prepared: PrepareResult, overflowAttempt: number) => {
    if (onContextUsage === undefined) return;
    try {
      const { estimator } = compactor;
      const uncapped = estimator.countMessages(context.uncapped) + context.overheadTokens;
      // The storage cap runs here, while converting the prompt: it is reported like the engine's steps.
      const capSaved =
        context.uncapped === context.messages
          ? 0
          : estimator.calibrated(
              estimator.countMessages(context.uncapped) - estimator.countMessages(context.messages),
              context.modelId,
            );
      const capped = capSaved > 0 && !prepared.actions.includes('cap-tool-results');
      onContextUsage({
        conversationId: context.conversationId,
        contextWindow: context.contextWindow,
        tokensBefore: estimator.calibrated(uncapped, context.modelId),
        tokensAfter: prepared.tokensAfter,
        actions: capped ? ['cap-tool-results', ...prepared.actions] : prepared.actions,
        savings: capped
          ? { 'cap-tool-results': Math.round(capSaved), ...prepared.savings }
          : prepared.savings,
        overflowAttempt,
      });
    } catch {
      // A listener must never break a request.
    }
  };

  /** Runs after a completed response (for a stream, inside its `flush`): must never throw. */
  const afterResponse = (
    context: CallContext,
    prepared: PrepareResult,
    usage: unknown,
    turnFinished: boolean,
  ) => {
    try {
      const { inputTokens, outputTokens } = readUsage(usage);
      const work = compactor.afterResponse(context.messages, {
        ...context.prepareOptions,
        inputTokens,
        estimatedTokens: prepared.estimatedTokens,
        responseTokens: outputTokens ?? 0,
        turnFinished,
      });
      waitUntil?.(work);
    } catch (error) {
      // The response is complete: compaction must not turn it into a failure.
      emit({
        type: 'compaction-failed',
        conversationId: context.conversationId,
        reason: 'background',
        error,
        fallback: 'none',
      });
    }
  };

  /**
   * Makes the call; when the provider answers "context too long" (thrown, or as the first event of
   * a stream), compacts harder and calls again with the new prompt, through the core's shared
   * recovery (never the same prompt twice, at most `maxOverflowRetries` retries).
   */
  const callWithRecovery = <Params extends CallParamsLike, Result>(
    context: CallContext,
    params: Params,
    first: () => PromiseLike<Result>,
    call: (params: Params) => PromiseLike<Result>,
  ) =>
    callWithOverflowRecovery({
      compactor,
      messages: context.messages,
      prepareOptions: context.prepareOptions,
      prepared: context.prepared,
      maxRetries: maxOverflowRetries,
      ...(params.abortSignal === undefined ? {} : { abortSignal: params.abortSignal }),
      send: (prepared, attempt) =>
        attempt === 0 ? first() : call({ ...params, prompt: build(prepared.messages, context) }),
      onRetry: (prepared, attempt) => reportUsage(context, prepared, attempt),
      onCompactionError: (error) =>
        emit({
          type: 'compaction-failed',
          conversationId: context.conversationId,
          reason: 'overflow',
          error,
          fallback: 'none',
        }),
    });

  return {
    specificationVersion: 'v3',
    compactor,

    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    recallTool(options = {}) {
      return recallTool({ ...options, ...(recallSecret === undefined ? {} : { secret: recallSecret }) });
    },

    async transformParams({ params: received, model }) {
      const { options: callOptions, params } = readSpillwayCallOptions(received);
      if (callOptions.disabled || !Array.isArray(params.prompt)) return params;
      const original = params.prompt as SdkPrompt;
      const version: PromptVersion = model.specificationVersion === 'v4' ? 'v4' : 'v3';
      try {
        const converted = converter.convert(original);
        const overheadTokens = overheadOf(params);
        const conversationId =
          callOptions.conversationId ??
          resolveConversationId?.({ params, model }) ??
          deriveConversationId(converted.messages);
        rememberModel(conversationId, model as LanguageModelLike);
        const contextWindow = callOptions.contextWindow ?? modelContextWindow(model);
        const prepareOptions: CallContext['prepareOptions'] = {
          conversationId,
          model: model.modelId,
          provider: model.provider,
          overheadTokens,
          ...(contextWindow === undefined ? {} : { contextWindow }),
          // References name the originals (before the storage-time cap); the read-back line goes in
          // only when the model has the read-back tool.
          originals: converted.uncapped,
          recallTool: hasRecallTool(params.tools),
        };
        const prepared = await compactor.prepare(converted.messages, {
          ...prepareOptions,
          ...(params.abortSignal === undefined ? {} : { abortSignal: params.abortSignal }),
        });
        if (converted.records.length > 0) {
          emit({ type: 'truncation', conversationId: prepared.conversationId, records: converted.records });
        }
        // Nothing changed (the common case under the thresholds): the caller's prompt goes down as is.
        const unchanged =
          prepared.messages.length === converted.messages.length &&
          prepared.messages.every(
            (message, index) => message === converted.messages[index] && converted.unchanged[index],
          );
        const context: CallContext = {
          messages: converted.messages,
          uncapped: converted.uncapped,
          conversationId: prepared.conversationId,
          modelId: model.modelId,
          prepareOptions,
          prepared,
          contextWindow: prepared.contextWindow,
          overheadTokens,
          version,
          current: once(converted.current),
          original,
        };
        reportUsage(context, prepared, 0);
        const transformed = { ...params, prompt: unchanged ? original : build(prepared.messages, context) };
        contexts.set(transformed, context);
        return transformed;
      } catch (error) {
        if (params.abortSignal?.aborted) throw error;
        // Even the smallest request cannot fit: no provider call is made.
        if (ContextOverflowError.isInstance(error)) throw error;
        // Otherwise compaction must never be the reason a call fails: send the conversation as it is.
        emit({
          type: 'compaction-failed',
          conversationId: 'unknown',
          reason: 'threshold',
          error,
          fallback: 'none',
        });
        return params;
      }
    },

    async wrapGenerate({ doGenerate, params, model }) {
      const context = contexts.get(params);
      if (context === undefined) return doGenerate();
      const { result, prepared } = await callWithRecovery(context, params, doGenerate, (retryParams) =>
        model.doGenerate(retryParams),
      );
      const { usage, finishReason, content } = result as {
        usage?: unknown;
        finishReason?: unknown;
        content?: readonly { type?: unknown }[];
      };
      const toolCalls = Array.isArray(content) && content.some((part) => part?.type === 'tool-call');
      afterResponse(context, prepared, usage, endsTurn(finishReason, toolCalls));
      return result;
    },

    async wrapStream({ doStream, params, model }) {
      const context = contexts.get(params);
      if (context === undefined) return doStream();
      const { result, prepared } = await callWithRecovery(
        context,
        params,
        async () => surfaceStreamOverflow(await doStream()),
        async (retryParams) => surfaceStreamOverflow(await model.doStream(retryParams)),
      );
      type Part = { type: string; usage?: unknown; finishReason?: unknown };
      const { stream } = result as { stream?: ReadableStream<Part> };
      if (!(stream instanceof ReadableStream)) return result;
      let usage: unknown;
      let finishReason: unknown;
      let finished = false;
      let toolCalls = false;
      const watched = stream.pipeThrough(
        new TransformStream<Part, Part>({
          transform(chunk, controller) {
            if (chunk?.type === 'tool-call') toolCalls = true;
            if (chunk?.type === 'finish') {
              usage = chunk.usage;
              finishReason = chunk.finishReason;
              finished = true;
            }
            controller.enqueue(chunk);
          },
          flush() {
            // The stream has ended: start background work without holding the stream open.
            if (finished) afterResponse(context, prepared, usage, endsTurn(finishReason, toolCalls));
          },
        }),
      );
      return { ...(result as object), stream: watched } as typeof result;
    },
  };
}

/** Conversations whose model the default summarizer remembers. */
const REMEMBERED_MODELS = 1_000;

function resolveSummarizer(
  summarizer: CompactionMiddlewareOptions['summarizer'],
  wrappedModel: (input: SummarizerInput) => LanguageModelLike | undefined,
): Summarizer {
  if (summarizer === undefined) return languageModelSummarizer({ model: wrappedModel });
  if (summarizer === 'extractive') return extractiveSummarizer;
  if (isLanguageModel(summarizer)) return languageModelSummarizer({ model: summarizer });
  if (typeof summarizer === 'function') return summarizer;
  throw new InvalidConfigError({
    option: 'summarizer',
    value: summarizer,
    message: "must be a language model, a function or 'extractive'",
  });
}

function once<T>(compute: () => T): () => T {
  let value: { result: T } | undefined;
  return () => {
    value ??= { result: compute() };
    return value.result;
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
