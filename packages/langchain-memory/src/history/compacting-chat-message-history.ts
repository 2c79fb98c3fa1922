import { BaseChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, type BaseMessage, HumanMessage, isBaseMessage } from '@langchain/core/messages';
import {
  COMPACT_THRESHOLD_RATIO,
  type CompactionEvent,
  type CompactionState,
  type Compactor,
  type CompactorOptions,
  ContextOverflowError,
  capToolResults,
  createCompactor,
  createEstimator,
  createRecallMarks,
  createRecallScope,
  DEFAULT_RECALL_SECRET,
  deriveConversationId,
  extractiveSummarizer,
  MemoryCompactionStore,
  MemoryRecallArchive,
  type Message,
  type RecallArchive,
  type Summarizer,
  type SummaryPlacement,
  stateMatches,
  TOOL_RESULT_MAX_CHARS,
  toolResultTexts,
} from '@spillway/core';
import type { CompactNowResult } from '../compact/compact-now-result';
import { fromNeutralMessages } from '../convert/from-neutral-messages';
import { toNeutralMessages } from '../convert/to-neutral-messages';
import { toPromptMessages } from '../convert/to-prompt-messages';
import { type TokenCounter, tokenCounterEstimator } from '../estimate/token-counter-estimator';
import { dispatchCompactionEvent } from '../events/dispatch-compaction-event';
import {
  type ChatModelLike,
  chatModelId,
  chatModelProvider,
  chatModelWindow,
} from '../model/chat-model-window';
import {
  checkContextWindow,
  checkContextWindows,
  checkFunction,
  checkMethods,
  checkName,
  checkTokenCount,
} from '../options/option-checks';
import { pinFromKwargs } from '../recall/pin-from-kwargs';
import { type RecallToolOptions, recallTool } from '../recall/recall-tool';
import { createModelSummarizer, type InvokableChatModel } from '../summarize/model-summarizer';
import { dropToFit } from './drop-to-fit';

/**
 * The store histories share when none is given: `getMessageHistory` commonly makes a new history
 * object per call, and the summary must outlive it.
 */
let sharedStore: MemoryCompactionStore | undefined;

function defaultStore(): MemoryCompactionStore {
  sharedStore ??= new MemoryCompactionStore();
  return sharedStore;
}

/** Share of the window reserved for the template's own text when `templateTokens` is not given. */
const TEMPLATE_SHARE = 0.05;
/** ...at most this many tokens. */
const TEMPLATE_TOKENS_CAP = 2000;
/** `getMessages()` reserves room for an input as large as the largest of this many recent user messages... */
const RECENT_INPUTS = 4;
/** ...at least this share of the window... */
const INPUT_RESERVE_MIN_SHARE = 0.1;
/** ...and at most this share. */
const INPUT_RESERVE_MAX_SHARE = 0.25;

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
   * Where the originals of tool results capped when stored are kept, so `spillway_recall`
   * (`history.recallTool()`) can read them back: the wrapped history holds only the capped copy.
   * Bounded; an original let go raises a `recall-evicted` event. `false` keeps no originals.
   * @default new MemoryRecallArchive() (64 MiB, 24 hours)
   */
  recallArchive?: RecallArchive | false;
  /**
   * The chat model that writes summaries (e.g. the model of your chain, or a cheaper one), or a
   * model string for `initChatModel` (`'openai:gpt-4.1-mini'`). When `contextWindow` and
   * `modelName` are not given, its `profile.maxInputTokens` or its model id sizes the window; when
   * `provider` is not given, its provider decides how images are counted.
   * Ignored for summaries when `summarizer` is given.
   * @default none: `extractiveSummarizer` writes the summaries (deterministic, offline, no model)
   */
  model?: InvokableChatModel | string;
  /**
   * The model id the prompts go to: calibration key, and the window lookup when `contextWindow` is
   * not given (`getContextWindow`).
   * @default the id of `model`, if any
   */
  modelName?: string;
  /**
   * Counts the tokens of LangChain messages for every threshold decision, synchronously: called
   * with one message at a time (memoised per message), a list counting as the sum. Calibration
   * from `usage_metadata` still applies on top of it.
   * @default the estimator's own count
   */
  tokenCounter?: TokenCounter;
  /**
   * Tokens of the template's own text around the history (system prompt, instructions): kept free
   * so that the whole prompt fits, not just the history.
   * @default 5% of the context window, at most 2,000
   */
  templateTokens?: number;
  /**
   * Where the summary state lives (keyed by `conversationId`). Pass a shared store
   * (`@spillway/redis`, `@spillway/postgres`) to keep it across processes.
   * @default one in-memory store shared by every history of the process (a new history object per
   * `getMessageHistory` call still finds the summary)
   */
  store?: CompactorOptions['store'];
  /**
   * Tokens kept free for the incoming input where the history cannot see it: `getMessages()`, which
   * `RunnableWithMessageHistory` calls before it adds the input (`getPromptMessages({ input })` and
   * `CompactionMemory` count the real input instead). Set it to the largest input you accept.
   * @default the largest of the last four user messages, at least 10% and at most 25% of the window
   */
  inputTokens?: number;
  /**
   * `user`: the summary opens the conversation as part of its first user turn, which every chat
   * integration accepts inside a template with its own system prompt (Anthropic, Google and Bedrock
   * refuse a system message after the first). `system`: a `SystemMessage` at the head of the
   * history, only valid when the template has no system prompt of its own.
   * @default 'user'
   */
  summaryPlacement?: SummaryPlacement;
}

/** Options of {@link CompactingChatMessageHistory.getPromptMessages}. */
export interface GetPromptMessagesOptions {
  /**
   * What the prompt adds after the history: the new user message (a string, a message or several),
   * and any other template variables, as strings or messages.
   */
  input?: string | BaseMessage | readonly (string | BaseMessage)[];
  /** Cancels a summary this call has to make. */
  signal?: AbortSignal;
}

/** Options of {@link CompactingChatMessageHistory.compact}. */
export interface CompactHistoryOptions {
  /** Cancels the summary. */
  signal?: AbortSignal;
}

/** The last compacted view, and what it was made for. */
interface CompactedView {
  key: string;
  messages: Promise<BaseMessage[]>;
  /** Raw estimate of the view (no overhead), for calibration. */
  viewTokens: number;
}

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

  readonly #conversationId: string | undefined;
  readonly #inputTokens: number | undefined;
  readonly #modelName: string | undefined;
  readonly #compactRatio: number;
  readonly #toolResultMaxChars: number;
  readonly #toolResultLimits: Readonly<Record<string, number>>;
  readonly #handleEvent: (event: CompactionEvent) => void;
  readonly #recallSecret: string | undefined;
  readonly #archive: RecallArchive | undefined;
  #view: CompactedView | undefined;

  /** @throws {InvalidConfigError} for a bad option, naming it and the accepted range. */
  constructor(options: CompactingChatMessageHistoryOptions) {
    super();
    const {
      history,
      conversationId,
      model,
      modelName,
      summarizer,
      tokenCounter,
      templateTokens,
      inputTokens,
      summaryPlacement = 'user',
      contextWindow,
      contextWindows,
      onEvent,
      recallArchive,
      ...engineOptions
    } = options ?? ({} as CompactingChatMessageHistoryOptions);
    // Required: `undefined` is refused too.
    checkMethods('history', history ?? null, ['getMessages', 'addMessages'], 'a BaseChatMessageHistory');
    checkName('conversationId', conversationId);
    checkName('modelName', modelName);
    checkContextWindow('contextWindow', contextWindow);
    checkContextWindows('contextWindows', contextWindows);
    checkTokenCount('templateTokens', templateTokens);
    checkTokenCount('inputTokens', inputTokens);
    checkFunction('onEvent', onEvent, '(event) => void');
    checkMethods('store', engineOptions.store, ['get', 'set', 'delete'], 'a CompactionStore');
    checkMethods(
      'estimator',
      engineOptions.estimator,
      ['countMessages', 'countText', 'calibrated', 'calibrate'],
      'an Estimator (createEstimator())',
    );
    const summaryModel = model === undefined ? undefined : createModelSummarizer(model);

    this.history = history;
    this.#conversationId = conversationId;
    this.#inputTokens = inputTokens;
    this.#modelName = modelName ?? chatModelId(model as ChatModelLike | string | undefined);
    this.contextWindow =
      contextWindow ??
      (modelName === undefined ? undefined : chatModelWindow(modelName, contextWindows)) ??
      (model === undefined ? undefined : chatModelWindow(model as ChatModelLike | string, contextWindows));
    this.templateTokens =
      templateTokens ??
      (this.contextWindow === undefined
        ? 0
        : Math.min(Math.ceil(this.contextWindow * TEMPLATE_SHARE), TEMPLATE_TOKENS_CAP));
    this.#compactRatio = engineOptions.thresholds?.compact ?? COMPACT_THRESHOLD_RATIO;
    this.#toolResultMaxChars = engineOptions.toolResultMaxChars ?? TOOL_RESULT_MAX_CHARS;
    this.#toolResultLimits = engineOptions.toolResultLimits ?? {};
    this.#recallSecret =
      engineOptions.recall === false ? undefined : (engineOptions.recall?.secret ?? DEFAULT_RECALL_SECRET);
    this.#archive =
      recallArchive === false || this.#recallSecret === undefined
        ? undefined
        : (recallArchive ??
          new MemoryRecallArchive({
            onEvict: ({ conversationId: id, ref, chars, reason }) =>
              this.#handleEvent({ type: 'recall-evicted', conversationId: id, ref, chars, reason }),
          }));
    this.#handleEvent = (event) => {
      try {
        onEvent?.(event);
      } catch {
        // A throwing handler is ignored; LangChain callbacks still get the event.
      } finally {
        dispatchCompactionEvent(event);
      }
    };
    const effective: Summarizer = summarizer ?? summaryModel ?? extractiveSummarizer;
    this.compactor = createCompactor({
      ...engineOptions,
      pin: pinFromKwargs(engineOptions.pin),
      store: engineOptions.store ?? defaultStore(),
      ...(engineOptions.provider === undefined && model !== undefined
        ? providerOf(model as ChatModelLike | string)
        : {}),
      summaryPlacement,
      ...(this.contextWindow === undefined ? {} : { contextWindow: this.contextWindow }),
      ...(contextWindows === undefined ? {} : { contextWindows }),
      ...(tokenCounter === undefined
        ? {}
        : {
            estimator: tokenCounterEstimator(tokenCounter, engineOptions.estimator ?? createEstimator()),
          }),
      onEvent: this.#handleEvent,
      ...(this.#modelName === undefined ? {} : { model: this.#modelName }),
      summarizer: effective,
    });
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
    return this.#viewFor(stored, neutral, this.templateTokens + this.#inputReserve(neutral));
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
    const calibratedOverhead = this.compactor.estimator.calibrated(overhead, this.#modelName);
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
    const state = await this.compactor.store.get(this.#idOf(messages));
    return stateMatches(messages, state) ? state : undefined;
  }

  /**
   * Compacts now, whatever the usage (the seed's manual trigger: a "compact" button, a `/compact`
   * command): summarizes what is older than the kept window into the summary in force. The stored
   * messages stay as they are.
   */
  async compact({ signal }: CompactHistoryOptions = {}): Promise<CompactNowResult> {
    const stored = await this.history.getMessages();
    const neutral = toNeutralMessages(stored);
    const conversationId = this.#idOf(neutral);
    const previous = await this.compactor.store.get(conversationId).catch(() => undefined);
    const coveredBefore = stateMatches(neutral, previous) ? previous!.coveredCount : 0;
    const state =
      neutral.length === 0
        ? undefined
        : await this.compactor.compact(neutral, {
            conversationId,
            ...(this.contextWindow === undefined ? {} : { contextWindow: this.contextWindow }),
            ...(this.#modelName === undefined ? {} : { model: this.#modelName }),
            ...(signal === undefined ? {} : { abortSignal: signal }),
          });
    this.#view = undefined;
    const messages = await this.getMessages();
    const coveredCount = stateMatches(neutral, state) ? state!.coveredCount : 0;
    const count = (list: readonly Message[]) =>
      this.compactor.estimator.calibrated(this.compactor.estimator.countMessages(list), this.#modelName);
    return {
      compacted: coveredCount > coveredBefore,
      coveredCount,
      newlyCoveredCount: Math.max(0, coveredCount - coveredBefore),
      tokensBefore: count(neutral),
      tokensAfter: count(toNeutralMessages(messages)),
      state: coveredCount > 0 ? state : undefined,
      messages,
    };
  }

  async addMessage(message: BaseMessage): Promise<void> {
    await this.addMessages([message]);
  }

  /**
   * Stores the messages, tool results capped; after an AI message, starts a background summary when
   * the conversation is over the background threshold (and calibrates from its `usage_metadata`).
   */
  override async addMessages(messages: BaseMessage[]): Promise<void> {
    const capped = await this.#cap(messages);
    await this.history.addMessages(capped);
    const view = this.#view;
    this.#view = undefined;
    const last = capped[capped.length - 1];
    if (last === undefined || !AIMessage.isInstance(last)) return;
    const all = toNeutralMessages(await this.history.getMessages());
    const usage = last.usage_metadata;
    // What the model was sent, as far as this history knows: the view and this turn's input (the
    // template's text is not known, so calibration errs towards counting high, the safe side).
    const inputMessages = capped.filter((message) => !AIMessage.isInstance(message));
    const estimatedTokens =
      view === undefined
        ? undefined
        : view.viewTokens + this.compactor.estimator.countMessages(toNeutralMessages(inputMessages));
    void this.compactor.afterResponse(all, {
      conversationId: this.#idOf(all),
      ...(this.contextWindow === undefined ? {} : { contextWindow: this.contextWindow }),
      overheadTokens: this.templateTokens + this.#inputReserve(all),
      ...(usage?.input_tokens === undefined || estimatedTokens === undefined
        ? {}
        : { inputTokens: usage.input_tokens, estimatedTokens }),
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

  /** The view for `stored` with `overhead` raw tokens next to it, cached while both stay the same. */
  async #viewFor(
    stored: readonly BaseMessage[],
    neutral: readonly Message[],
    overhead: number,
    signal?: AbortSignal,
  ): Promise<BaseMessage[]> {
    const key = `${stored.length}|${overhead}`;
    let view = this.#view;
    if (view === undefined || view.key !== key) {
      const made: CompactedView = {
        key,
        viewTokens: 0,
        messages: this.#compactedView(neutral, overhead, signal).then(
          ({ messages, viewTokens }) => {
            made.viewTokens = viewTokens;
            return messages;
          },
          (error: unknown) => {
            if (this.#view === made) this.#view = undefined;
            throw error;
          },
        ),
      };
      this.#view = view = made;
    }
    return [...(await view.messages)];
  }

  async #compactedView(
    messages: readonly Message[],
    overhead: number,
    signal: AbortSignal | undefined,
  ): Promise<{ messages: BaseMessage[]; viewTokens: number }> {
    if (messages.length === 0) return { messages: [], viewTokens: 0 };
    const conversationId = this.#idOf(messages);
    const prepared = await this.compactor.prepare(messages, {
      conversationId,
      overheadTokens: overhead,
      ...(this.contextWindow === undefined ? {} : { contextWindow: this.contextWindow }),
      ...(this.#modelName === undefined ? {} : { model: this.#modelName }),
      ...(signal === undefined ? {} : { abortSignal: signal }),
    });
    let compacted = prepared.messages;
    const { estimator } = this.compactor;
    if (this.contextWindow !== undefined) {
      // The engine keeps the newest group of what it is given; next to a large input, even that may
      // have to leave the view.
      const countTokens = (list: readonly Message[]) =>
        estimator.calibrated(estimator.countMessages(list) + overhead, this.#modelName);
      const tokensBefore = countTokens(compacted);
      const fitted = dropToFit(compacted, {
        budgetTokens: this.contextWindow * this.#compactRatio,
        countTokens,
      });
      if (fitted.droppedCount > 0) {
        compacted = fitted.messages;
        this.#handleEvent({
          type: 'emergency-truncation',
          conversationId,
          droppedCount: fitted.droppedCount,
          tokensBefore,
          tokensAfter: countTokens(compacted),
        });
      }
    }
    const view = toPromptMessages(compacted);
    return { messages: view, viewTokens: estimator.countMessages(toNeutralMessages(view)) };
  }

  /**
   * Raw tokens to keep for an input not seen yet: the largest of the last four user messages (not
   * tool results), at least a tenth and at most a quarter of the window; `inputTokens` if given.
   */
  #inputReserve(messages: readonly Message[]): number {
    if (this.#inputTokens !== undefined) return this.#inputTokens;
    const window = this.contextWindow;
    if (window === undefined) return 0;
    let largest = 0;
    let seen = 0;
    for (let index = messages.length - 1; index >= 0 && seen < RECENT_INPUTS; index--) {
      const message = messages[index]!;
      if (message.role !== 'user') continue;
      seen++;
      largest = Math.max(largest, this.compactor.estimator.countMessage(message));
    }
    return Math.min(
      Math.max(largest, Math.ceil(window * INPUT_RESERVE_MIN_SHARE)),
      Math.floor(window * INPUT_RESERVE_MAX_SHARE),
    );
  }

  /**
   * The messages as stored: tool results capped. With references on, each cut names its original
   * (`[ref=…]`), and the original is archived first (it exists nowhere else).
   */
  async #cap(messages: readonly BaseMessage[]): Promise<BaseMessage[]> {
    const neutral = toNeutralMessages(messages);
    const caps = { maxChars: this.#toolResultMaxChars, limits: this.#toolResultLimits };
    const plain = capToolResults(neutral, caps);
    if (plain.records.length === 0) return [...messages];
    const archive = this.#archive;
    if (archive === undefined || this.#recallSecret === undefined) return fromNeutralMessages(plain.messages);
    const conversation = [...toNeutralMessages(await this.history.getMessages()), ...neutral];
    const scope = createRecallScope({ messages: conversation, secret: this.#recallSecret });
    // At storage time the result is its own original.
    const marks = createRecallMarks({ scope, originals: [] });
    const { messages: capped } = capToolResults(neutral, { ...caps, marks });
    const conversationId = this.#idOf(conversation);
    for (const record of plain.records) {
      const part = neutral[record.messageIndex]?.content;
      if (!Array.isArray(part)) continue;
      for (const item of part) {
        if (item?.type !== 'tool-result' || item.toolCallId !== record.toolCallId) continue;
        const texts = toolResultTexts(item);
        for (let index = 0; index < texts.length; index++) {
          const ref = marks.toolResult(item, index);
          if (ref !== undefined && texts[index]!.length > 0) {
            await archive.put(conversationId, { ref, text: texts[index]! });
          }
        }
      }
    }
    return fromNeutralMessages(capped);
  }

  /**
   * The read-back tool for this history: `spillway_recall` reading the stored conversation, and the
   * archived originals of results capped when stored. Add it to the tools your chain binds.
   */
  recallTool(options: Pick<RecallToolOptions, 'maxChars'> = {}) {
    return recallTool({
      ...options,
      ...(this.#recallSecret === undefined ? {} : { secret: this.#recallSecret }),
      messages: () => this.history.getMessages(),
      ...(this.#archive === undefined ? {} : { archive: this.#archive }),
      conversationId: (messages) => this.#idOf(messages),
    });
  }

  #idOf(messages: readonly Message[]): string {
    return (
      this.#conversationId ?? deriveConversationId(messages.filter((message) => message.role !== 'system'))
    );
  }
}

function providerOf(model: ChatModelLike | string): { provider?: string } {
  const provider = chatModelProvider(model);
  return provider === undefined ? {} : { provider };
}

/** The input of a prompt as messages: strings become user messages. */
function toInputMessages(input: GetPromptMessagesOptions['input']): BaseMessage[] {
  if (input === undefined || input === null) return [];
  const list = Array.isArray(input) ? input : [input];
  return list.flatMap((item: unknown) => {
    if (typeof item === 'string') return item === '' ? [] : [new HumanMessage(item)];
    if (isBaseMessage(item)) return [item];
    return [];
  });
}
