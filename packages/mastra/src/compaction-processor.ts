import type { MessageList } from '@mastra/core/agent/message-list';
import type {
  ProcessAPIErrorArgs,
  ProcessAPIErrorResult,
  ProcessInputArgs,
  ProcessInputStepArgs,
  ProcessLLMRequestArgs,
  ProcessLLMRequestResult,
  ProcessLLMResponseArgs,
} from '@mastra/core/processors';
import {
  compactionDataPart,
  createPromptConverter,
  fromNeutralMessages,
  isLanguageModel,
  type LanguageModelLike,
  modelContextWindow,
  promptVersionOf,
  repairPrompt,
  resolveSummarizer,
  type SdkPrompt,
} from '@spillway/ai-sdk-prompt';
import {
  type CompactionEvent,
  type CompactionEventHandler,
  type Compactor,
  ContextOverflowError,
  createCompactor,
  DEFAULT_RECALL_SECRET,
  deriveConversationId,
  isContextOverflowError,
  TOOL_RESULT_MAX_CHARS,
} from '@spillway/core';
import { loadWholeThread, runMemory } from './call/load-whole-thread';
import { memoryContext, threadConversationId } from './call/memory-context';

import { overflowError } from './call/overflow-error';
import { readStepResult } from './call/read-step-result';
import { type PreparedRequest, runState } from './call/run-state';
import { hasRecallTool, schemaText, toolsText } from './call/tools-overhead';
import { checkProcessorOptions } from './check-processor-options';
import type { CompactionProcessorOptions } from './compaction-processor-options';
import { pinFromMarker } from './recall/pin-from-marker';
import { rememberConversation } from './recall/recall-registry';
import { type RecallMastraTool, type RecallToolOptions, recallTool } from './recall/recall-tool';

import { createStreamWriters, type StreamWriterLike } from './ui/stream-writers';

/**
 * The processor: put it in an agent's `inputProcessors` (and `errorProcessors`, for recovery from
 * "prompt too long" errors). It also holds the engine and an event subscription for UIs.
 */
export interface CompactionProcessor {
  readonly id: string;
  readonly name: string;
  /**
   * At the start of a `generate`/`stream` call with memory: adds the thread's messages memory did
   * not load (`wholeThread`), as memory messages Mastra never saves again.
   */
  processInput(args: ProcessInputArgs): Promise<MessageList>;
  /** Before each step of the agent's loop: notes the step's tools (their tokens go with the request). */
  processInputStep(args: ProcessInputStepArgs): undefined;
  /**
   * Before each model request: the request as the provider gets it — capped tool results, the
   * stored summary, compaction when needed. Transient: Mastra's message list, memory and UI keep
   * every original.
   */
  processLLMRequest(args: ProcessLLMRequestArgs): Promise<ProcessLLMRequestResult>;
  /** After each model response: calibrates from usage, starts background compaction after an answer. */
  processLLMResponse(args: ProcessLLMResponseArgs): undefined;
  /** On a "prompt too long" rejection (in `errorProcessors`): asks Mastra to retry, compacting harder. */
  processAPIError(args: ProcessAPIErrorArgs): ProcessAPIErrorResult | undefined;
  /** The engine (store, calibration, single-flight). `compactor.idle()` waits for background work. */
  readonly compactor: Compactor;
  /** Adds an event listener; returns the function that removes it. */
  subscribe(listener: CompactionEventHandler): () => void;
  /** The read-back tool (`createTool`): `tools: { spillway_recall: processor.recallTool() }`. */
  recallTool(options?: RecallToolOptions): RecallMastraTool;
}

/**
 * Keeps long Mastra agent conversations inside the model's context window: old turns become a
 * summary, large tool outputs become previews, old images become placeholders, and the user's
 * latest ask and the run's own tool calls always go out whole. It rewrites each model request at
 * Mastra's prompt stage, so memory and the UI keep every original; the summary is kept in a
 * `CompactionStore` under the run's memory thread and reused on every later call.
 *
 * @example
 * const spillway = compactionProcessor({ store });
 * const agent = new Agent({ model, memory, tools: { spillway_recall: recallTool() },
 *   inputProcessors: [spillway], errorProcessors: [spillway] });
 *
 * @throws {InvalidConfigError} for a bad option.
 */
export function compactionProcessor({
  id = 'spillway',
  summarizer,
  conversationId: resolveConversationId,
  onEvent,
  onContextUsage,
  dataParts = compactionDataPart,
  waitUntil,
  maxOverflowRetries = 4,
  wholeThread = true,
  memory: givenMemory,
  ...engineOptions
}: CompactionProcessorOptions = {}): CompactionProcessor {
  checkProcessorOptions({
    id,
    maxOverflowRetries,
    waitUntil,
    onContextUsage,
    resolveConversationId,
    wholeThread,
    givenMemory,
    dataParts,
  });
  // The default summarizer writes a conversation's summary with the model its requests go to.
  const conversationModels = new Map<string, LanguageModelLike>();
  let lastModel: LanguageModelLike | undefined;
  const rememberModel = (conversationId: string, model: unknown) => {
    if (!isLanguageModel(model)) return;
    lastModel = model;
    conversationModels.delete(conversationId);
    conversationModels.set(conversationId, model);
    if (conversationModels.size > REMEMBERED)
      conversationModels.delete(conversationModels.keys().next().value as string);
  };
  const writers = createStreamWriters(dataParts === false ? () => undefined : dataParts);
  const listeners = new Set<CompactionEventHandler>();
  const emit = (event: CompactionEvent) => {
    writers.write(event);
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
  const overheadMemo = new WeakMap<object, number>();
  let warnedNoPromptStage = false;

  const report = (request: PreparedRequest, uncappedTokens: number, attempt: number, stepNumber: number) => {
    if (onContextUsage === undefined) return;
    try {
      const { prepared, prepareOptions } = request;
      const { estimator } = compactor;
      const overhead = prepareOptions.overheadTokens ?? 0;
      // The storage cap runs while converting the request: it is reported like the engine's steps.
      const capSaved = Math.round(
        estimator.calibrated(
          uncappedTokens - estimator.countMessages(request.messages),
          prepareOptions.model,
        ),
      );
      const capped = capSaved > 0 && !prepared.actions.includes('cap-tool-results');
      onContextUsage({
        conversationId: prepared.conversationId,
        contextWindow: prepared.contextWindow,
        tokensBefore: estimator.calibrated(uncappedTokens + overhead, prepareOptions.model),
        tokensAfter: prepared.tokensAfter,
        actions: capped ? ['cap-tool-results', ...prepared.actions] : prepared.actions,
        savings: capped ? { 'cap-tool-results': capSaved, ...prepared.savings } : prepared.savings,
        overflowAttempt: attempt,
        stepNumber,
      });
    } catch {
      // A listener must never break a request.
    }
  };

  return {
    id,
    name: 'Spillway compaction',
    compactor,

    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    recallTool(options = {}) {
      return recallTool(options);
    },

    async processInput({ messageList, state, requestContext }) {
      // A new call: nothing of an earlier call's retries carries over (Mastra's state is per call).
      runState(state).overflow = undefined;
      const { threadId, resourceId } = memoryContext(requestContext);
      const memory =
        wholeThread && threadId !== undefined ? runMemory(requestContext, givenMemory) : undefined;
      if (memory === undefined || threadId === undefined) return messageList;
      try {
        await loadWholeThread({ messageList, memory, threadId, resourceId });
      } catch {
        // Memory could not be read: the request goes on with the history memory loaded (Mastra
        // reports a failing memory itself).
      }
      return messageList;
    },

    processInputStep({ tools, activeTools, structuredOutput, state, llmRequestStage }) {
      if (llmRequestStage !== true && !warnedNoPromptStage) {
        warnedNoPromptStage = true;
        console.warn(
          `[spillway] processor "${id}" runs where Mastra does not call processLLMRequest (a processor ` +
            'workflow, or a legacy generate/stream): requests go out uncompacted. Put it directly in ' +
            "the agent's inputProcessors and use generate/stream.",
        );
      }
      // Tool definitions and the output schema travel with every request of the step.
      let overheadTokens = 0;
      const toolsKey = activeTools === undefined ? tools : undefined;
      for (const [value, text] of [
        [tools, () => toolsText(tools, activeTools)],
        [structuredOutput?.schema, () => schemaText(structuredOutput?.schema)],
      ] as const) {
        if (typeof value !== 'object' || value === null) continue;
        const memoKey = value === tools ? toolsKey : value;
        let count = memoKey === undefined ? undefined : overheadMemo.get(memoKey);
        if (count === undefined) {
          count = compactor.estimator.countText(text());
          if (memoKey !== undefined) overheadMemo.set(memoKey, count);
        }
        overheadTokens += count;
      }
      runState(state).step = { overheadTokens, recallTool: hasRecallTool(tools, activeTools) };
      return undefined;
    },

    async processLLMRequest({ prompt, model, state, stepNumber, requestContext, abortSignal, writer }) {
      if (!Array.isArray(prompt)) return undefined;
      const run = runState(state);
      const original = prompt as unknown as SdkPrompt;
      const version = promptVersionOf(model);
      const { provider, modelId } = modelNames(model);
      try {
        const converted = converter.convert(original);
        const thread = memoryContext(requestContext);
        const conversationId =
          resolveConversationId?.({ ...thread, requestContext, model: { provider, modelId } }) ??
          threadConversationId(thread) ??
          deriveConversationId(converted.messages);
        rememberModel(conversationId, model);
        writers.register(conversationId, writer as StreamWriterLike | undefined);
        rememberConversation(requestContext, {
          messages: converted.uncapped,
          conversationId,
          secret: recallSecret,
        });
        // What the model object declares of itself comes after the application's own windows
        // (`contextWindow`, `contextWindows`) and before the core's table.
        const declaredWindow = modelContextWindow(model);
        const prepareOptions: PreparedRequest['prepareOptions'] = {
          conversationId,
          model: modelId,
          provider,
          overheadTokens: run.step?.overheadTokens ?? 0,
          ...(declaredWindow === undefined ? {} : { modelContextWindow: declaredWindow }),
          // References name the originals (before the storage-time cap).
          originals: converted.uncapped,
          recallTool: run.step?.recallTool ?? false,
        };
        const overflow = run.overflow;
        const prepared = await compactor.prepare(converted.messages, {
          ...prepareOptions,
          ...(overflow === undefined
            ? {}
            : { overflowAttempt: overflow.attempt, overflowError: overflow.error }),
          ...(abortSignal === undefined ? {} : { abortSignal }),
        });
        if (overflow !== undefined && prepared.estimatedTokens >= overflow.rejectedTokens) {
          // Sending what was just rejected again would only be rejected again.
          throw overflowError(prepared, overflow.error);
        }
        if (converted.records.length > 0) {
          emit({ type: 'truncation', conversationId: prepared.conversationId, records: converted.records });
        }
        const request: PreparedRequest = { messages: converted.messages, prepareOptions, prepared };
        run.request = request;
        report(
          request,
          compactor.estimator.countMessages(converted.uncapped),
          overflow?.attempt ?? 0,
          stepNumber,
        );
        // Nothing changed (the common case under the thresholds): Mastra's prompt goes out as is.
        const unchanged =
          prepared.messages.length === converted.messages.length &&
          prepared.messages.every(
            (message, index) => message === converted.messages[index] && converted.unchanged[index],
          );
        if (unchanged) return undefined;
        const current = converted.current();
        const rebuilt = repairPrompt(fromNeutralMessages(prepared.messages, { version, current }), original);
        return { prompt: rebuilt as unknown as typeof prompt };
      } catch (error) {
        if (abortSignal?.aborted) throw error;
        // Even the smallest request cannot fit: no provider call is made.
        if (ContextOverflowError.isInstance(error)) throw error;
        // Otherwise compaction must never be the reason a call fails: the request goes out as it is.
        emit({
          type: 'compaction-failed',
          conversationId: 'unknown',
          reason: 'threshold',
          error,
          fallback: 'none',
        });
        return undefined;
      }
    },

    processLLMResponse({ chunks, state, fromCache }) {
      const run = runState(state);
      const request = run.request;
      if (request === undefined || fromCache) return undefined;
      run.overflow = undefined;
      try {
        const outcome = readStepResult(chunks);
        if (!outcome.finished) return undefined;
        const work = compactor.afterResponse(request.messages, {
          ...request.prepareOptions,
          ...(outcome.inputTokens === undefined ? {} : { inputTokens: outcome.inputTokens }),
          estimatedTokens: request.prepared.estimatedTokens,
          responseTokens: outcome.outputTokens ?? 0,
          turnFinished: outcome.endsTurn,
        });
        waitUntil?.(work);
      } catch (error) {
        // The response is complete: compaction must not turn it into a failure.
        const conversationId = request.prepared.conversationId;
        emit({ type: 'compaction-failed', conversationId, reason: 'background', error, fallback: 'none' });
      }
      return undefined;
    },

    processAPIError({ error, state }) {
      if (!isContextOverflowError(error)) return undefined;
      const run = runState(state);
      const request = run.request;
      const attempt = (run.overflow?.attempt ?? 0) + 1;
      if (request === undefined || attempt > maxOverflowRetries || request.prepared.minimal) return undefined;
      run.overflow = { attempt, error, rejectedTokens: request.prepared.estimatedTokens };
      return { retry: true };
    },
  };
}

/** Conversations whose model the default summarizer remembers. */
const REMEMBERED = 1_000;

function modelNames(model: unknown): { provider: string; modelId: string } {
  const { provider, modelId } = (model ?? {}) as { provider?: unknown; modelId?: unknown };
  return {
    provider: typeof provider === 'string' ? provider : 'unknown',
    modelId: typeof modelId === 'string' ? modelId : 'unknown',
  };
}
