import type { CompactionDataPart, LanguageModelLike } from '@spillway/ai-sdk-prompt';
import type { CompactionAction, CompactionEventHandler, CompactorOptions, Summarizer } from '@spillway/core';
import type { MemoryLike } from './call/load-whole-thread';

/** What a {@link CompactionProcessorOptions.conversationId} resolver is given. */
export interface ConversationIdInput {
  /** The memory thread of the run (`memory: { thread }` of `generate`/`stream`), when there is one. */
  threadId: string | undefined;
  /** The memory resource of the run (`memory: { resource }`), when there is one. */
  resourceId: string | undefined;
  /** The run's request context (`requestContext` of `generate`/`stream`). */
  requestContext: unknown;
  /** The model the request goes to. */
  model: { readonly provider: string; readonly modelId: string };
}

/** What {@link CompactionProcessorOptions.onContextUsage} receives for each model request. */
export interface ContextUsage {
  conversationId: string;
  /** The model's window in tokens, when known. */
  contextWindow: number | undefined;
  /** Estimated tokens of the request as Mastra built it, before any cap (tools included). */
  tokensBefore: number;
  /** Estimated tokens of the request as it goes to the provider (tools included). */
  tokensAfter: number;
  /** What the engine did, in order (`apply-summary`, `summarize`, `drop-oldest`, …). */
  actions: readonly CompactionAction[];
  /** Tokens each of those steps took off the request (see `CompactMessagesResult.savings`). */
  savings: Readonly<Partial<Record<CompactionAction, number>>>;
  /** 0 for the first attempt; 1, 2, … for retries after the provider said "too long". */
  overflowAttempt: number;
  /** The step of the agent's loop (0 for the first model call of a `generate`/`stream`). */
  stepNumber: number;
}

/** Options of `compactionProcessor`. Every engine option of `createCompactor` is accepted too. */
export interface CompactionProcessorOptions
  extends Omit<CompactorOptions, 'summarizer' | 'model' | 'onEvent' | 'contextWindow'> {
  /**
   * The processor's id in Mastra (traces, processor state). Two Spillway processors on one agent
   * need two ids.
   * @default 'spillway'
   */
  id?: string;
  /**
   * The model's context window in tokens.
   * @default looked up from the model's id (`getContextWindow`); unknown → no compaction (tool
   *   results are still capped)
   */
  contextWindow?: number;
  /**
   * What writes summaries: an AI SDK language model (V2, V3 or V4, called directly, e.g. a cheaper
   * one), any `Summarizer` function, or `'extractive'` (deterministic, no model:
   * `extractiveSummarizer`).
   * @default the agent's model (the one the request goes to)
   */
  summarizer?: LanguageModelLike | Summarizer | 'extractive';
  /**
   * The conversation's key in the store. Return undefined to fall back.
   * @default the run's memory resource and thread (`<resource>:<thread>`, or the thread alone);
   *   without memory, derived from the conversation's first messages
   */
  conversationId?: (input: ConversationIdInput) => string | undefined;
  /**
   * Receives every compaction event (`compaction-start`, `compaction-end`, `compaction-failed`,
   * `truncation`, `emergency-truncation`, `overflow-retry`, …). Errors it throws are ignored.
   * @default none
   */
  onEvent?: CompactionEventHandler;
  /**
   * Called before every model request with how full the context is: the request's estimated tokens
   * as Mastra built it (`tokensBefore`) and as sent (`tokensAfter`), the window, and what was done
   * (`actions`, empty when the request went out untouched). For context meters and logs. Errors it
   * throws are ignored.
   * @default none
   */
  onContextUsage?: (usage: ContextUsage) => void;
  /**
   * Writes compaction events of a streamed run into Mastra's stream as `data-spillway` chunks
   * (`writer.custom`), which `@mastra/ai-sdk` passes on to `useChat` as data parts: "Optimizing
   * conversation context…", "Conversation history has been automatically trimmed". A function
   * chooses the part per event (undefined skips it); `false` writes none.
   * @default compactionDataPart
   */
  dataParts?: ((event: Parameters<CompactionEventHandler>[0]) => CompactionDataPart | undefined) | false;
  /**
   * Keeps background compaction alive after the response on serverless hosts: called with the
   * promise of the work (it never rejects), e.g. Vercel's `waitUntil`.
   * @default none (the work runs detached)
   */
  waitUntil?: (promise: Promise<unknown>) => void;
  /**
   * With Mastra memory: at the start of each call, add the thread's messages memory did not load
   * (Mastra's memory hands over the last 10 messages by default), so Spillway sees the whole
   * conversation — older turns are summarized instead of leaving the request unseen, and a stored
   * summary always finds the messages it was made from. They are added as memory messages, which
   * Mastra never saves again. `false` works on what memory loaded (`lastMessages`,
   * `messageHistory`); a summary is then reused only while memory's window does not move.
   * @default true
   */
  wholeThread?: boolean;
  /**
   * The memory `wholeThread` reads the thread from.
   * @default the run's own memory (the agent's `memory`)
   */
  memory?: MemoryLike;
  /**
   * Retries after the provider rejects a request as too long, each compacting harder (keeping 4, 2,
   * 1, then 0 recent message groups). Needs the processor in the agent's `errorProcessors` as well
   * (Mastra calls `processAPIError` only there) and `maxProcessorRetries` at least this high. When
   * the request cannot be made smaller, a `ContextOverflowError` is thrown with the provider's error
   * as its `cause`.
   * @default 4
   */
  maxOverflowRetries?: number;
}
