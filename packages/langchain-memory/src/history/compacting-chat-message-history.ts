import { BaseChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import {
  type CompactionState,
  type Compactor,
  ContextOverflowError,
  type Message,
  recallAnswerMaxTokens,
  stateMatches,
} from '@spillway/core';
import type { CompactNowResult } from '../compact/compact-now-result';
import { toNeutralMessages } from '../convert/to-neutral-messages';
import { type RecallToolOptions, recallTool } from '../recall/recall-tool';
import { capForStorage } from './cap-for-storage';
import { compactHistoryNow } from './compact-history-now';
import { compactedView } from './compacted-view';
import type {
  CompactHistoryOptions,
  CompactingChatMessageHistoryOptions,
  GetPromptMessagesOptions,
} from './compacting-chat-message-history-options';
import { createHistoryRuntime } from './create-history-runtime';
import { historyConversationId } from './history-conversation-id';
import type { HistoryRuntime } from './history-runtime';
import { inputReserve } from './input-reserve';
import { summarizeAfterResponse } from './summarize-after-response';
import { toInputMessages } from './to-input-messages';
import { ViewCache } from './view-cache';

export type {
  CompactHistoryOptions,
  CompactingChatMessageHistoryOptions,
  GetPromptMessagesOptions,
} from './compacting-chat-message-history-options';

/**
 * A `BaseChatMessageHistory` that wraps another one and keeps what it hands out inside the context
 * window. Tool results are capped when stored (`toolResultMaxChars`, 30,000 characters by default);
 * `getMessages()` returns the compacted view a prompt is built from (the summary in place of the
 * covered prefix, large tool results shortened); `getOriginalMessages()` returns what is stored,
 * untouched. Drop it in wherever a history goes, e.g. `RunnableWithMessageHistory`.
 *
 * The view is sized for the whole prompt: it leaves room for the template's own text
 * (`templateTokens`) and for the incoming input. `RunnableWithMessageHistory` reads the history
 * before it looks at the input, so `getMessages()` reserves `inputTokens` (by default the size of
 * the largest recent user message, 10% to 25% of the window); `getPromptMessages({ input })` counts the real input, and throws
 * `ContextOverflowError` when the input alone cannot fit.
 *
 * By default the summary is part of the first user turn of the view (`summaryPlacement: 'user'`),
 * so a template with its own system prompt still sends exactly one system message, first, and
 * user and assistant turns still alternate: valid for OpenAI, Anthropic, Google and Bedrock.
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
  /** The context window prompts are sized for (undefined: unknown, nothing is compacted). */
  readonly contextWindow: number | undefined;
  /** Tokens kept free for the template's own text. */
  readonly templateTokens: number;

  readonly #runtime: HistoryRuntime;
  readonly #view = new ViewCache();

  /** @throws {InvalidConfigError} for a bad option, naming it and the accepted range. */
  constructor(options: CompactingChatMessageHistoryOptions) {
    super();
    this.#runtime = createHistoryRuntime(options ?? ({} as CompactingChatMessageHistoryOptions));
    ({
      history: this.history,
      compactor: this.compactor,
      contextWindow: this.contextWindow,
      templateTokens: this.templateTokens,
    } = this.#runtime);
  }

  /**
   * The compacted view of the conversation, for building a prompt, with room left for the
   * template's own text and for the input to come (`inputTokens`; by default the largest of the
   * last four user messages, 10% to 25% of the window): `RunnableWithMessageHistory` reads the
   * history before it adds the input, so the input itself is not known here. It is remade when
   * the stored conversation changed length since the last view (a write through this wrapper, or
   * through anything else sharing the wrapped history), and only then.
   */
  async getMessages(): Promise<BaseMessage[]> {
    const stored = await this.history.getMessages();
    const neutral = toNeutralMessages(stored);
    return this.#viewFor(stored, neutral, this.templateTokens + inputReserve(this.#runtime, neutral));
  }

  /**
   * The compacted view for a prompt that adds `input` after the history (and the template's own
   * text, `templateTokens`): the whole prompt fits the window. `CompactionMemory` calls it with the
   * chain's input values; call it yourself when you build prompts by hand.
   *
   * @throws {ContextOverflowError} before any model is called, when the input and the template
   * alone are larger than the context window (`tokenCount`, `contextWindow`).
   */
  async getPromptMessages({ input, signal }: GetPromptMessagesOptions = {}): Promise<BaseMessage[]> {
    const inputMessages = toInputMessages(input);
    const inputTokens =
      inputMessages.length === 0
        ? 0
        : this.compactor.estimator.countMessages(toNeutralMessages(inputMessages));
    const overhead = this.templateTokens + inputTokens;
    const window = this.contextWindow;
    const calibratedOverhead = this.compactor.estimator.calibrated(overhead, this.#runtime.modelName);
    if (window !== undefined && calibratedOverhead > window) {
      throw new ContextOverflowError({
        message: `The input alone does not fit the context window: about ${calibratedOverhead} tokens (${inputTokens} of input, ${this.templateTokens} reserved for the template) for a window of ${window}. Nothing was sent and nothing stored was changed.`,
        tokenCount: calibratedOverhead,
        contextWindow: window,
      });
    }
    const stored = await this.history.getMessages();
    return this.#viewFor(stored, toNeutralMessages(stored), overhead, signal);
  }

  /** Every stored message, as stored (tool results capped at storage time, nothing else changed). */
  getOriginalMessages(): Promise<BaseMessage[]> {
    return this.history.getMessages();
  }

  /** The compaction state now in force for this conversation, if any. */
  async getCompactionState(): Promise<CompactionState | undefined> {
    const messages = toNeutralMessages(await this.history.getMessages());
    const state = await this.compactor.store.get(
      historyConversationId(this.#runtime.conversationId, messages),
    );
    return stateMatches(messages, state) ? state : undefined;
  }

  /**
   * Compacts now, whatever the usage (the seed's manual trigger: a "compact" button, a `/compact`
   * command): summarizes what is older than the kept window into the summary in force. The stored
   * messages stay as they are.
   */
  compact({ signal }: CompactHistoryOptions = {}): Promise<CompactNowResult> {
    return compactHistoryNow(this.#runtime, {
      signal,
      freshView: () => {
        this.#view.clear();
        return this.getMessages();
      },
    });
  }

  async addMessage(message: BaseMessage): Promise<void> {
    await this.addMessages([message]);
  }

  /**
   * Stores the messages, tool results capped; after an AI message, starts a background summary when
   * the conversation is over the background threshold (and calibrates from its `usage_metadata`).
   */
  override async addMessages(messages: BaseMessage[]): Promise<void> {
    const capped = await capForStorage(this.#runtime, messages);
    await this.history.addMessages(capped);
    await summarizeAfterResponse(this.#runtime, { stored: capped, view: this.#view.take() });
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
    await this.compactor.store.delete(historyConversationId(this.#runtime.conversationId, messages));
    await this.history.clear();
    this.#view.clear();
  }

  /**
   * The read-back tool for this history: `spillway_recall` reading the stored conversation, and the
   * archived originals of results capped when stored. Add it to the tools your chain binds. Its
   * answers are sized to the history's window (`recallAnswerMaxTokens`) when it has one.
   */
  recallTool(options: Pick<RecallToolOptions, 'maxChars' | 'maxTokens'> = {}) {
    const { recallSecret, archive } = this.#runtime;
    return recallTool({
      ...(this.contextWindow === undefined ? {} : { maxTokens: recallAnswerMaxTokens(this.contextWindow) }),
      ...options,
      ...(recallSecret === undefined ? {} : { secret: recallSecret }),
      messages: () => this.history.getMessages(),
      ...(archive === undefined ? {} : { archive }),
      conversationId: (messages) => historyConversationId(this.#runtime.conversationId, messages),
    });
  }

  /** The view for `stored` with `overhead` raw tokens next to it, cached while both stay the same. */
  #viewFor(
    stored: readonly BaseMessage[],
    neutral: readonly Message[],
    overhead: number,
    signal?: AbortSignal,
  ): Promise<BaseMessage[]> {
    return this.#view.get(`${stored.length}|${overhead}`, () =>
      compactedView(this.#runtime, neutral, overhead, signal),
    );
  }
}
