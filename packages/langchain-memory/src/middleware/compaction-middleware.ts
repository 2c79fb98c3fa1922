import { AIMessage, type BaseMessage, isBaseMessage, SystemMessage } from '@langchain/core/messages';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import {
  type CompactionEvent,
  type CompactionState,
  type Compactor,
  type CompactorOptions,
  ContextOverflowError,
  createCompactor,
  createEstimator,
  deriveConversationId,
  getContextWindow,
  InvalidConfigError,
  isContextOverflowError,
  MemoryCompactionStore,
  type Message,
  type Summarizer,
  stateMatches,
} from '@spillway/core';
import { createMiddleware } from 'langchain';
import { fromNeutralMessages } from '../convert/from-neutral-messages';
import { bestState } from '../convert/state-matches';
import { toNeutralMessages } from '../convert/to-neutral-messages';
import { type TokenCounter, tokenCounterEstimator } from '../estimate/token-counter-estimator';
import { dispatchCompactionEvent } from '../events/dispatch-compaction-event';
import { createModelSummarizer, type InvokableChatModel } from '../summarize/model-summarizer';
import { COMPACTION_STATE_KEY, compactionStateSchema } from './compaction-state-schema';
import { type TokenLimit, tokenLimitRatio } from './token-limit';

/** Options of {@link compactionMiddleware}. Every option of `createCompactor` applies too. */
export interface CompactionMiddlewareOptions extends Omit<CompactorOptions, 'model' | 'estimator'> {
  /**
   * The chat model that writes summaries (LangChain's `summarizationMiddleware` calls it `model`
   * too), e.g. a cheaper model than the agent's, or a model string for `initChatModel`
   * (`'openai:gpt-4.1-mini'`). Ignored when `summarizer` is given.
   * @default the agent's own model
   */
  model?: InvokableChatModel | string;
  /**
   * Makes summaries without a chat model, or with your own call. Wins over `model`. Pass
   * `extractiveSummarizer` from `@spillway/core` for a deterministic, offline summary.
   * @default a summarizer calling `model`
   */
  summarizer?: Summarizer;
  /**
   * When the prompt is compacted before a model call: a share of the window (`{ fraction }`) or a
   * token count (`{ tokens }`). Sets `thresholds.compact`; background and emergency thresholds move
   * with it when needed to stay in order.
   * @default { fraction: 0.85 } (COMPACT_THRESHOLD_RATIO)
   */
  trigger?: TokenLimit;
  /**
   * How much of the newest conversation is kept verbatim: `{ fraction }` or `{ tokens }`. Sets
   * `protectedRatio`.
   * @default { fraction: 0.25 } (PROTECTED_WINDOW_RATIO)
   */
  keep?: TokenLimit;
  /**
   * How many times a model call rejected as too long (LangChain's `ContextOverflowError`, a
   * provider's "context length exceeded") is compacted harder and retried.
   * @default 4
   */
  maxOverflowRetries?: number;
  /**
   * Counts tokens and learns the real tokenizer's ratio from `usage_metadata.input_tokens`.
   * @default createEstimator()
   */
  estimator?: CompactorOptions['estimator'];
  /**
   * Counts the tokens of LangChain messages for every threshold decision, as LangChain's
   * `summarizationMiddleware` option of that name does, but synchronously: it is called with one
   * message at a time (memoised per message) and a list counts as the sum, so it must return a
   * number, not a `Promise`. Calibration from `usage_metadata` still applies on top of it.
   * @default the estimator's own count
   */
  tokenCounter?: TokenCounter;
}

const MIDDLEWARE_NAME = 'SpillwayCompactionMiddleware';

interface RuntimeLike {
  configurable?: { thread_id?: unknown; [key: string]: unknown };
}

interface ModelLike {
  profile?: { maxInputTokens?: unknown };
  model?: unknown;
  modelName?: unknown;
  invoke?: unknown;
}

interface ToolLike {
  name?: unknown;
  description?: unknown;
  schema?: unknown;
}

/**
 * A `createAgent` middleware that keeps every model call inside the context window while the agent
 * state keeps every original message. Before each call (`wrapModelCall`) the model receives a
 * compacted copy: the summary in place of the covered prefix, large tool results shortened, old
 * images as placeholders, in an emergency the oldest messages dropped from that request only. The
 * summary and its boundary (covered count and hash) live in the agent state under
 * `spillwayCompaction`, so the checkpointer persists them with the thread. A model error saying the
 * prompt is too long is compacted harder and retried. After a call that leaves the conversation over
 * the background threshold, the next summary is made in the background. A failed summary never
 * deletes anything.
 *
 * @example
 * const agent = createAgent({
 *   model: 'openai:gpt-4.1',
 *   tools,
 *   middleware: [compactionMiddleware({ model: cheapModel })],
 *   checkpointer: new MemorySaver(),
 * });
 *
 * @throws {InvalidConfigError} for a bad option, when the middleware is created.
 */
export function compactionMiddleware({
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
  thresholds = {},
  protectedRatio,
  ...engineOptions
}: CompactionMiddlewareOptions = {}) {
  if (!Number.isInteger(maxOverflowRetries) || maxOverflowRetries < 0) {
    throw new InvalidConfigError({
      option: 'maxOverflowRetries',
      value: maxOverflowRetries,
      message: 'must be a whole number, 0 or more',
    });
  }
  const estimator =
    tokenCounter === undefined ? baseEstimator : tokenCounterEstimator(tokenCounter, baseEstimator);
  // The agent's model writes summaries unless told otherwise; it is known at the first call.
  let agentModel: InvokableChatModel | undefined;
  const defaultSummarizer: Summarizer = (input) => {
    if (agentModel === undefined) throw new Error('No model to summarize with yet.');
    return createModelSummarizer(agentModel)(input);
  };
  const effectiveSummarizer =
    summarizer ?? (summaryModel === undefined ? defaultSummarizer : createModelSummarizer(summaryModel));
  const handleEvent = (event: CompactionEvent) => {
    // A throwing handler is ignored (the engine catches it), but LangChain callbacks still get the event.
    try {
      onEvent?.(event);
    } finally {
      dispatchCompactionEvent(event);
    }
  };

  const compactors = new Map<string, Compactor>();
  const compactorFor = (window: number | undefined): Compactor => {
    const compactRatio = tokenLimitRatio('trigger', trigger, window);
    const keepRatio = tokenLimitRatio('keep', keep, window) ?? protectedRatio;
    const resolved = { ...thresholds };
    if (compactRatio !== undefined) {
      resolved.compact = compactRatio;
      if ((resolved.background ?? 0.8) > compactRatio) resolved.background = compactRatio;
      if ((resolved.emergency ?? 0.95) < compactRatio) resolved.emergency = compactRatio;
    }
    const key = `${resolved.compact}|${keepRatio}`;
    let compactor = compactors.get(key);
    if (compactor === undefined) {
      compactor = createCompactor({
        ...engineOptions,
        thresholds: resolved,
        ...(keepRatio === undefined ? {} : { protectedRatio: keepRatio }),
        summarizer: effectiveSummarizer,
        store,
        estimator,
        onEvent: handleEvent,
      });
      compactors.set(key, compactor);
    }
    return compactor;
  };
  // Check the options once, now, rather than at the first model call.
  compactorFor(fixedWindow);

  const conversationIdOf = (runtime: RuntimeLike | undefined, conversation: readonly Message[]): string => {
    const threadId = runtime?.configurable?.thread_id;
    return typeof threadId === 'string' || typeof threadId === 'number'
      ? `thread:${threadId}`
      : deriveConversationId(conversation);
  };

  /** A state update when the store holds a newer summary than the agent state. */
  const persist = async (
    state: { messages: BaseMessage[]; [COMPACTION_STATE_KEY]?: CompactionState | undefined },
    runtime: RuntimeLike,
  ) => {
    const conversation = toNeutralMessages(state.messages);
    const latest = await store.get(conversationIdOf(runtime, conversation));
    const current = state[COMPACTION_STATE_KEY];
    if (latest === undefined || sameState(latest, current)) return undefined;
    if (!stateMatches(conversation, latest)) return undefined;
    if (
      current !== undefined &&
      stateMatches(conversation, current) &&
      current.coveredCount > latest.coveredCount
    ) {
      return undefined;
    }
    return { [COMPACTION_STATE_KEY]: { ...latest, summaries: [...latest.summaries] } };
  };

  return createMiddleware({
    name: MIDDLEWARE_NAME,
    stateSchema: compactionStateSchema,
    beforeModel: (state, runtime) => persist(state, runtime as RuntimeLike),
    afterModel: (state, runtime) => persist(state, runtime as RuntimeLike),
    afterAgent: (state, runtime) => persist(state, runtime as RuntimeLike),

    async wrapModelCall(request, handler) {
      const model = request.model as unknown as ModelLike;
      if (typeof model?.invoke === 'function') agentModel = model as InvokableChatModel;
      const modelId = modelIdOf(model);
      const window =
        fixedWindow ?? profileWindow(model) ?? getContextWindow(modelId, { overrides: contextWindows });
      const compactor = compactorFor(window);

      const systemMessage = request.systemMessage;
      const hasSystem = systemMessage !== undefined && systemMessage.text !== '';
      const conversation = toNeutralMessages(request.messages);
      const neutral = hasSystem ? toNeutralMessages([systemMessage, ...request.messages]) : conversation;
      const conversationId = conversationIdOf(request.runtime as RuntimeLike, conversation);

      // The agent state is the durable copy; the store may hold a newer one (a background summary).
      const stored = await store.get(conversationId);
      const chosen = bestState(conversation, [
        stored,
        request.state[COMPACTION_STATE_KEY] as CompactionState | undefined,
      ]);
      if (chosen !== undefined && chosen !== stored) await store.set(conversationId, chosen);

      const overheadTokens = toolTokens(request.tools as readonly ToolLike[], compactor);
      for (let attempt = 0; ; attempt++) {
        const prepared = await compactor.prepare(neutral, {
          conversationId,
          contextWindow: window,
          overheadTokens,
          ...(modelId === undefined ? {} : { model: modelId }),
          ...(attempt === 0 ? {} : { overflowAttempt: attempt }),
        });
        const { system, messages } = splitSystem(prepared.messages, hasSystem ? systemMessage : undefined);
        try {
          const response = await handler({
            ...request,
            messages,
            // Only the system message changes: LangChain compares `systemPrompt` with the system
            // message this middleware received, on every call of the handler (retries included).
            ...(system === undefined ? {} : { systemMessage: system }),
          });
          const usage = AIMessage.isInstance(response) ? response.usage_metadata : undefined;
          // An inner middleware may answer with a `Command` instead of a message.
          const answer = isBaseMessage(response)
            ? toNeutralMessages([...request.messages, response]).slice(-1)
            : [];
          void compactor.afterResponse([...neutral, ...answer], {
            conversationId,
            contextWindow: window,
            overheadTokens,
            ...(modelId === undefined ? {} : { model: modelId }),
            ...(usage?.input_tokens === undefined
              ? {}
              : { inputTokens: usage.input_tokens, estimatedTokens: prepared.estimatedTokens }),
            ...(usage?.output_tokens === undefined ? {} : { responseTokens: usage.output_tokens }),
          });
          return response;
        } catch (error) {
          if (!isContextOverflowError(error)) throw error;
          if (attempt >= maxOverflowRetries) {
            throw new ContextOverflowError({
              message: `The model rejected the prompt as too long ${attempt + 1} times, even compacted (about ${prepared.tokensAfter} tokens).`,
              tokenCount: prepared.tokensAfter,
              ...(window === undefined ? {} : { contextWindow: window }),
              cause: error,
            });
          }
        }
      }
    },
  });
}

function sameState(a: CompactionState, b: CompactionState | undefined): boolean {
  return (
    b !== undefined &&
    a.coveredHash === b.coveredHash &&
    a.coveredCount === b.coveredCount &&
    a.compactionCount === b.compactionCount &&
    a.summaries.length === b.summaries.length &&
    a.summaries.every((summary, index) => summary === b.summaries[index])
  );
}

/**
 * The request's system message and messages from the compacted list: leading system messages (the
 * summary, the original system prompt) merge into one system message, summary first; everything
 * after stays in place. `system` is undefined when it is the original system message unchanged.
 */
function splitSystem(
  compacted: readonly Message[],
  original: SystemMessage | undefined,
): { system: SystemMessage | undefined; messages: BaseMessage[] } {
  const converted = fromNeutralMessages(compacted);
  let leading = 0;
  while (leading < converted.length && SystemMessage.isInstance(converted[leading]!)) leading++;
  // Without an original system prompt, the agent's messages never start with a system message of
  // their own, so every leading one is the engine's.
  const head = converted.slice(0, leading) as SystemMessage[];
  const messages = converted.slice(leading);
  if (head.length === 0) return { system: undefined, messages };
  if (head.length === 1 && head[0] === original) return { system: undefined, messages };
  const blocks: Record<string, unknown>[] = [];
  const texts: string[] = [];
  let plain = true;
  for (const message of head) {
    if (typeof message.content === 'string') {
      blocks.push({ type: 'text', text: message.content });
      texts.push(message.content);
    } else {
      plain = false;
      blocks.push(...(message.content as Record<string, unknown>[]));
    }
  }
  const base = original ?? head[head.length - 1]!;
  return {
    system: new SystemMessage({
      content: plain ? texts.join('\n\n') : (blocks as SystemMessage['content']),
      ...(base.id === undefined ? {} : { id: base.id }),
      additional_kwargs: base.additional_kwargs,
      response_metadata: base.response_metadata,
    }),
    messages,
  };
}

function modelIdOf(model: ModelLike | undefined): string | undefined {
  if (model === undefined || model === null) return undefined;
  if (typeof model.model === 'string') return model.model;
  if (typeof model.modelName === 'string') return model.modelName;
  return undefined;
}

function profileWindow(model: ModelLike | undefined): number | undefined {
  try {
    const value = model?.profile?.maxInputTokens;
    return typeof value === 'number' && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

const toolTokenMemo = new WeakMap<object, number>();

/** Tokens the tool definitions add to every request (names, descriptions, JSON schemas). */
function toolTokens(tools: readonly ToolLike[] | undefined, compactor: Compactor): number {
  if (!tools) return 0;
  let total = 0;
  for (const tool of tools) {
    if (tool === null || typeof tool !== 'object') continue;
    const cached = toolTokenMemo.get(tool);
    if (cached !== undefined) {
      total += cached;
      continue;
    }
    let schema: unknown = tool.schema;
    try {
      if (schema !== undefined) schema = toJsonSchema(schema as Parameters<typeof toJsonSchema>[0]);
    } catch {
      schema = undefined;
    }
    let text: string;
    try {
      text = JSON.stringify({ name: tool.name, description: tool.description, parameters: schema });
    } catch {
      text = `${String(tool.name)} ${String(tool.description)}`;
    }
    const count = compactor.estimator.countText(text);
    toolTokenMemo.set(tool, count);
    total += count;
  }
  return total;
}
