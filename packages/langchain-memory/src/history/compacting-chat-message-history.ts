import { BaseChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import {
  type CompactionState,
  type Compactor,
  type CompactorOptions,
  capToolResults,
  createCompactor,
  createEstimator,
  deriveConversationId,
  type Summarizer,
  TOOL_RESULT_MAX_CHARS,
} from '@spillway/core';
import { fromNeutralMessages } from '../convert/from-neutral-messages';
import { toNeutralMessages } from '../convert/to-neutral-messages';
import { type TokenCounter, tokenCounterEstimator } from '../estimate/token-counter-estimator';
import { dispatchCompactionEvent } from '../events/dispatch-compaction-event';
import { createModelSummarizer, type InvokableChatModel } from '../summarize/model-summarizer';

/** Options of {@link CompactingChatMessageHistory}. Every option of `createCompactor` applies too. */
export interface CompactingChatMessageHistoryOptions extends Omit<CompactorOptions, 'model'> {
  /** The history that stores the messages: in memory, Redis, Postgres, any `BaseChatMessageHistory`. */
  history: BaseChatMessageHistory;
  /**
   * The conversation's key in the compaction store (e.g. the session id). Give one when the store is
   * shared between histories.
   * @default derived from the conversation's first messages
   */
  conversationId?: string;
  /**
   * The chat model that writes summaries, or a model string for `initChatModel`. Ignored when
   * `summarizer` is given.
   * @default none: `extractiveSummarizer` (deterministic, no model)
   */
  model?: InvokableChatModel | string;
  /**
   * The model id the prompts go to: calibration key, and the window lookup when `contextWindow` is
   * not given (`getContextWindow`).
   * @default undefined (then give `contextWindow`, or nothing is compacted)
   */
  modelName?: string;
  /**
   * Counts the tokens of LangChain messages for every threshold decision, synchronously: called
   * with one message at a time (memoised per message), a list counting as the sum. Calibration
   * from `usage_metadata` still applies on top of it.
   * @default the estimator's own count
   */
  tokenCounter?: TokenCounter;
}

/** The last compacted view, and how many stored messages it was made from. */
interface CompactedView {
  storedCount: number;
  messages: Promise<BaseMessage[]>;
}

/**
 * A `BaseChatMessageHistory` that wraps another one and keeps what it hands out inside the context
 * window. Tool results are capped when stored (`toolResultMaxChars`, 30,000 characters by default);
 * `getMessages()` returns the compacted view a prompt is built from (the summary in place of the
 * covered prefix, large tool results shortened); `getOriginalMessages()` returns what is stored,
 * untouched. Drop it in wherever a history goes, e.g. `RunnableWithMessageHistory`.
 *
 * Compaction events go to `onEvent` and, inside a run, to LangChain callbacks as `spillway:<type>`.
 *
 * The compacted view stays the same while the stored conversation does (even when a background
 * summary completes meanwhile), so `RunnableWithMessageHistory`, which reads the history twice per
 * run and slices by length, always sees the same list; a write by anyone else sharing the wrapped
 * history is seen at the next read.
 */
export class CompactingChatMessageHistory extends BaseChatMessageHistory {
  lc_namespace = ['spillway', 'langchain_memory'];

  /** The wrapped history. */
  readonly history: BaseChatMessageHistory;
  /** The engine (store, calibration, single-flight). */
  readonly compactor: Compactor;

  readonly #conversationId: string | undefined;
  readonly #modelName: string | undefined;
  readonly #toolResultMaxChars: number;
  readonly #toolResultLimits: Readonly<Record<string, number>>;
  #view: CompactedView | undefined;
  #lastEstimate: number | undefined;

  /** @throws {InvalidConfigError} for a bad option. */
  constructor({
    history,
    conversationId,
    model,
    modelName,
    summarizer,
    tokenCounter,
    ...options
  }: CompactingChatMessageHistoryOptions) {
    super();
    this.history = history;
    this.#conversationId = conversationId;
    this.#modelName = modelName;
    this.#toolResultMaxChars = options.toolResultMaxChars ?? TOOL_RESULT_MAX_CHARS;
    this.#toolResultLimits = options.toolResultLimits ?? {};
    const effective: Summarizer | undefined =
      summarizer ?? (model === undefined ? undefined : createModelSummarizer(model));
    const { onEvent } = options;
    this.compactor = createCompactor({
      ...options,
      ...(tokenCounter === undefined
        ? {}
        : { estimator: tokenCounterEstimator(tokenCounter, options.estimator ?? createEstimator()) }),
      onEvent: (event) => {
        try {
          onEvent?.(event);
        } finally {
          dispatchCompactionEvent(event);
        }
      },
      ...(modelName === undefined ? {} : { model: modelName }),
      ...(effective === undefined ? {} : { summarizer: effective }),
    });
  }

  /**
   * The compacted view of the conversation, for building a prompt. It is remade when the stored
   * conversation changed length since the last view (a write through this wrapper, or through
   * anything else sharing the wrapped history), and only then.
   */
  async getMessages(): Promise<BaseMessage[]> {
    const stored = await this.history.getMessages();
    let view = this.#view;
    if (view === undefined || view.storedCount !== stored.length) {
      const made: CompactedView = {
        storedCount: stored.length,
        messages: this.#compactedView(stored).catch((error) => {
          if (this.#view === made) this.#view = undefined;
          throw error;
        }),
      };
      this.#view = view = made;
    }
    return [...(await view.messages)];
  }

  /** Every stored message, as stored (tool results capped at storage time, nothing else changed). */
  getOriginalMessages(): Promise<BaseMessage[]> {
    return this.history.getMessages();
  }

  /** The compaction state now in force for this conversation, if any. */
  async getCompactionState(): Promise<CompactionState | undefined> {
    const messages = toNeutralMessages(await this.history.getMessages());
    return this.compactor.store.get(this.#idOf(messages));
  }

  async addMessage(message: BaseMessage): Promise<void> {
    await this.addMessages([message]);
  }

  /**
   * Stores the messages, tool results capped; after an AI message, starts a background summary when
   * the conversation is over the background threshold (and calibrates from its `usage_metadata`).
   */
  override async addMessages(messages: BaseMessage[]): Promise<void> {
    const capped = this.#cap(messages);
    await this.history.addMessages(capped);
    this.#view = undefined;
    const last = capped[capped.length - 1];
    if (last === undefined || !AIMessage.isInstance(last)) return;
    const all = toNeutralMessages(await this.history.getMessages());
    const usage = last.usage_metadata;
    void this.compactor.afterResponse(all, {
      conversationId: this.#idOf(all),
      ...(usage?.input_tokens === undefined || this.#lastEstimate === undefined
        ? {}
        : { inputTokens: usage.input_tokens, estimatedTokens: this.#lastEstimate }),
    });
  }

  async addUserMessage(message: string): Promise<void> {
    await this.addMessage(new HumanMessage(message));
  }

  async addAIMessage(message: string): Promise<void> {
    await this.addMessage(new AIMessage(message));
  }

  /** Clears the wrapped history and forgets the conversation's summary. */
  async clear(): Promise<void> {
    const messages = toNeutralMessages(await this.history.getMessages());
    await this.compactor.store.delete(this.#idOf(messages));
    await this.history.clear();
    this.#view = undefined;
  }

  async #compactedView(stored: readonly BaseMessage[]): Promise<BaseMessage[]> {
    const messages = toNeutralMessages(stored);
    if (messages.length === 0) return [];
    const prepared = await this.compactor.prepare(messages, {
      conversationId: this.#idOf(messages),
      ...(this.#modelName === undefined ? {} : { model: this.#modelName }),
    });
    this.#lastEstimate = prepared.estimatedTokens;
    return fromNeutralMessages(prepared.messages);
  }

  #cap(messages: readonly BaseMessage[]): BaseMessage[] {
    const neutral = toNeutralMessages(messages);
    const { messages: capped, records } = capToolResults(neutral, {
      maxChars: this.#toolResultMaxChars,
      limits: this.#toolResultLimits,
    });
    return records.length === 0 ? [...messages] : fromNeutralMessages(capped);
  }

  #idOf(messages: ReturnType<typeof toNeutralMessages>): string {
    return (
      this.#conversationId ?? deriveConversationId(messages.filter((message) => message.role !== 'system'))
    );
  }
}
