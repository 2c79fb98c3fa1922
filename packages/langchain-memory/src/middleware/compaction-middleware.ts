import {
  COMPACT_THRESHOLD_RATIO,
  type CompactionEvent,
  type Compactor,
  createCompactor,
  createEstimator,
  EMERGENCY_THRESHOLD_RATIO,
  MemoryCompactionStore,
  type Message,
  readContextLimit,
  type Summarizer,
} from '@spillway/core';
import { createMiddleware } from 'langchain';
import type { CompactNowResult } from '../compact/compact-now-result';
import { type CompactToolOptions, compactTool } from '../compact/compact-tool';
import { tokenCounterEstimator } from '../estimate/token-counter-estimator';
import { dispatchCompactionEvent } from '../events/dispatch-compaction-event';
import {
  type ChatModelLike,
  chatModelId,
  chatModelProvider,
  chatModelWindow,
} from '../model/chat-model-window';
import { pinFromKwargs } from '../recall/pin-from-kwargs';
import { createModelSummarizer, type InvokableChatModel } from '../summarize/model-summarizer';
import { callModelWithCompaction } from './call-model-with-compaction';
import { checkMiddlewareOptions, resolveLimits } from './check-middleware-options';
import { type CompactThreadOptions, compactThread } from './compact-thread';
import type { CompactionMiddlewareOptions } from './compaction-middleware-options';
import { compactionStateSchema } from './compaction-state-schema';
import { providerContextModel } from './provider-context-model';
import { type AgentStateLike, syncCompactionState } from './sync-compaction-state';
import type { RuntimeLike } from './thread-conversation-id';

// The options' type lives in its own file (the option checks need it too); imported from here as well.
export type { CompactionMiddlewareOptions } from './compaction-middleware-options';

const MIDDLEWARE_NAME = 'SpillwayCompactionMiddleware';

/**
 * A `createAgent` middleware that keeps every model call inside the context window while the agent
 * state keeps every original message. Before each call (`wrapModelCall`) the model receives a
 * compacted copy: the summary in place of the covered prefix (in the one system message, before
 * your system prompt), large tool results shortened, old images as placeholders, in an emergency
 * the oldest messages dropped from that request only. The summary and its boundary (covered count
 * and hash) live in the agent state under `spillwayCompaction`, so the checkpointer persists them
 * with the thread. A model error saying the prompt is too long is compacted harder and retried.
 * After a call that leaves the conversation over the background threshold, the next summary is
 * made in the background. A failed summary never deletes anything. Summary calls never show in
 * the conversation's streams or callbacks.
 *
 * The returned middleware also has `compact({ messages, threadId, instructions })`: compact a thread
 * now, and `compactTool()`: the `spillway_compact` tool the agent itself can call.
 *
 * @example
 * const agent = createAgent({
 *   model: 'openai:gpt-4.1',
 *   tools,
 *   middleware: [compactionMiddleware({ model: cheapModel })],
 *   checkpointer: new MemorySaver(),
 * });
 *
 * @throws {InvalidConfigError} for a bad option, when the middleware is created, naming the option
 * and the accepted range.
 */
export function compactionMiddleware(options: CompactionMiddlewareOptions = {}) {
  checkMiddlewareOptions(options ?? {});
  const {
    model: summaryModel,
    summarizer,
    trigger,
    keep,
    maxOverflowRetries = 4,
    store = new MemoryCompactionStore(),
    estimator: baseEstimator = createEstimator(),
    tokenCounter,
    onEvent,
    contextWindow: fixedWindow,
    contextWindows,
    thresholds,
    protectedRatio,
    strategy = 'local',
    waitUntil,
    ...engineOptions
  } = options ?? {};
  let warnedProvider = false;
  const estimator =
    tokenCounter === undefined ? baseEstimator : tokenCounterEstimator(tokenCounter, baseEstimator);
  const summarizeWith = createSummarizer({ summarizer, summaryModel });
  const handleEvent = (event: CompactionEvent) => {
    // A throwing handler is ignored (the engine catches it), but LangChain callbacks still get the event.
    try {
      onEvent?.(event);
    } finally {
      dispatchCompactionEvent(event);
    }
  };

  // One engine per resolved (trigger, keep) pair: `{ tokens }` limits depend on the window.
  const compactors = new Map<string, Compactor>();
  const compactorFor = (window: number | undefined): Compactor => {
    const limits = resolveLimits({ trigger, keep, thresholds, protectedRatio, window });
    const key = `${limits.thresholds.compact}|${limits.protectedRatio}`;
    let compactor = compactors.get(key);
    if (compactor === undefined) {
      compactor = createCompactor({
        ...engineOptions,
        pin: pinFromKwargs(engineOptions.pin),
        ...(contextWindows === undefined ? {} : { contextWindows }),
        thresholds: limits.thresholds,
        ...(limits.protectedRatio === undefined ? {} : { protectedRatio: limits.protectedRatio }),
        summarizer: summarizeWith.summarizer,
        store,
        estimator,
        onEvent: handleEvent,
      });
      compactors.set(key, compactor);
    }
    return compactor;
  };
  // Check the engine's options once, now, rather than at the first model call.
  compactorFor(fixedWindow);
  /** The window of the last model call, for `compact()` without one. */
  let lastWindow: number | undefined;
  let lastModelId: string | undefined;
  let lastProvider: string | undefined;
  /** Limits the providers stated in their overflow errors, by model id: they win over the table. */
  const learnedWindows = new Map<string, number>();

  const sync = (state: unknown, runtime: unknown) =>
    syncCompactionState(state as AgentStateLike, runtime as RuntimeLike, store);

  const middleware = createMiddleware({
    name: MIDDLEWARE_NAME,
    stateSchema: compactionStateSchema,
    beforeModel: sync,
    afterModel: sync,
    afterAgent: sync,

    wrapModelCall(request, handler) {
      const model = request.model as unknown as ChatModelLike & { invoke?: unknown };
      summarizeWith.useAgentModel(model);
      const modelId = chatModelId(model);
      const known = fixedWindow ?? chatModelWindow(model, contextWindows);
      const learned = learnedWindows.get(modelId ?? '');
      const window = learned === undefined || (known !== undefined && known <= learned) ? known : learned;
      const provider = engineOptions.provider ?? chatModelProvider(model);
      lastWindow = window;
      lastModelId = modelId;
      lastProvider = provider;
      const compactor = compactorFor(window);
      return callModelWithCompaction({
        request,
        handler,
        compactor,
        ...(strategy === 'provider' && window !== undefined
          ? {
              delegate: (messages: readonly Message[]) => {
                const limits = resolveLimits({ trigger, keep, thresholds, protectedRatio, window });
                const delegated = providerContextModel(model, {
                  contextWindow: window,
                  compactRatio: limits.thresholds.compact ?? COMPACT_THRESHOLD_RATIO,
                  emergencyRatio: limits.thresholds.emergency ?? EMERGENCY_THRESHOLD_RATIO,
                  protectedRatio: limits.protectedRatio,
                  messages,
                  estimator: compactor.estimator,
                });
                if (delegated === undefined && !warnedProvider) {
                  warnedProvider = true;
                  console.warn(
                    `[spillway] strategy 'provider': ${provider ?? 'this model'} offers no context management Spillway can set; compacting locally.`,
                  );
                }
                return delegated;
              },
            }
          : {}),
        contextWindow: window,
        modelId,
        provider,
        maxOverflowRetries,
        waitUntil,
        onEvent: handleEvent,
        learnWindow: (error) => {
          const { limit } = readContextLimit(error);
          if (limit === undefined || !(limit > 0)) return undefined;
          const key = modelId ?? '';
          learnedWindows.set(key, Math.min(limit, learnedWindows.get(key) ?? limit));
          return limit;
        },
      });
    },
  });

  const compact = ({ contextWindow, ...rest }: CompactThreadOptions): Promise<CompactNowResult> => {
    const window = contextWindow ?? fixedWindow ?? lastWindow;
    return compactThread({
      ...rest,
      ...(window === undefined ? {} : { contextWindow: window }),
      compactor: compactorFor(window),
      modelId: lastModelId,
      provider: lastProvider,
    });
  };

  return Object.assign(middleware, {
    /**
     * Compacts a thread now, whatever its usage (the seed's manual trigger: a "compact" button, a
     * `/compact` command): summarizes what is older than the kept window, stores the summary under
     * the thread, and returns what was done. The next model call on the thread applies it and
     * writes it to the agent state. The thread's messages are not changed.
     */
    compact,
    /**
     * The "compact now" tool the agent's model can call: `createAgent({ tools:
     * [middleware.compactTool()], middleware: [middleware] })`. It runs `compact()` on the thread
     * the call is made in (the agent state's messages, its `thread_id`), with the model's
     * `instructions`, and answers with one line; the next model call carries the new summary.
     */
    compactTool(options: CompactToolOptions = {}) {
      return compactTool(options, compact);
    },
  });
}

/**
 * The summarizer: `summarizer` if given, else one calling `summaryModel`, else one calling the
 * agent's own model (known at the first model call).
 */
function createSummarizer({
  summarizer,
  summaryModel,
}: {
  summarizer: Summarizer | undefined;
  summaryModel: InvokableChatModel | string | undefined;
}): { summarizer: Summarizer; useAgentModel(model: unknown): void } {
  let agentModel: InvokableChatModel | undefined;
  let agentSummarizer: Summarizer | undefined;
  const fixed = summarizer ?? (summaryModel === undefined ? undefined : createModelSummarizer(summaryModel));
  return {
    summarizer:
      fixed ??
      ((input) => {
        if (agentModel === undefined) throw new Error('No model to summarize with yet.');
        agentSummarizer ??= createModelSummarizer(agentModel);
        return agentSummarizer(input);
      }),
    useAgentModel(model) {
      if (model === agentModel || typeof (model as { invoke?: unknown } | null)?.invoke !== 'function')
        return;
      agentModel = model as InvokableChatModel;
      agentSummarizer = undefined;
    },
  };
}
