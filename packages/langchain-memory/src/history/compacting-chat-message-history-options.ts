import type { BaseChatMessageHistory } from '@langchain/core/chat_history';
import type { BaseMessage } from '@langchain/core/messages';
import type { CompactorOptions, RecallArchive, SummaryPlacement } from '@spillway/core';
import type { TokenCounter } from '../estimate/token-counter-estimator';
import type { InvokableChatModel } from '../summarize/model-summarizer';

/** Options of `CompactingChatMessageHistory`. Every option of `createCompactor` applies too. */
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
   * Keyed by the conversation (`conversationId`, else derived from the first stored messages, as
   * stored), so any history object over the same stored conversation reads them. Bounded; an
   * original let go raises a `recall-evicted` event. `false` keeps no originals. Pass a shared
   * `RecallArchive` to keep them across processes.
   * @default one in-memory `MemoryRecallArchive` shared by every history of the process (64 MiB,
   *   24 hours), like the default store
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
  /**
   * Keeps background compaction alive after a turn on serverless hosts: called, each time an AI
   * message is stored, with the promise of the background summary that may start (it never
   * rejects; it settles once the summary is stored, or at once when none was needed), e.g.
   * Vercel's `waitUntil` or Cloudflare's `ctx.waitUntil`. A `waitUntil` that throws never fails
   * the write (a `compaction-failed` event instead).
   * @default none (the work runs detached)
   */
  waitUntil?: (promise: Promise<unknown>) => void;
}

/** Options of `CompactingChatMessageHistory.getPromptMessages`. */
export interface GetPromptMessagesOptions {
  /**
   * What the prompt adds after the history: the new user message (a string, a message or several),
   * and any other template variables, as strings or messages.
   */
  input?: string | BaseMessage | readonly (string | BaseMessage)[];
  /** Cancels a summary this call has to make. */
  signal?: AbortSignal;
}

/** Options of `CompactingChatMessageHistory.compact`. */
export interface CompactHistoryOptions {
  /** Cancels the summary. */
  signal?: AbortSignal;
}
