import type { LanguageModelLike } from '@spillway/ai-sdk-prompt';
import type { CompactionAction, CompactionEventHandler, CompactorOptions, Summarizer } from '@spillway/core';

/** What a {@link CompactionMiddlewareOptions.conversationId} resolver is given. */
export interface ConversationIdInput {
  /** The call's parameters (prompt, provider options, headers, …) as the middleware received them. */
  params: {
    readonly prompt: readonly unknown[];
    readonly providerOptions?: unknown;
    readonly headers?: unknown;
  };
  /** The model the call goes to. */
  model: { readonly provider: string; readonly modelId: string };
}

/** What {@link CompactionMiddlewareOptions.onContextUsage} receives for each call. */
export interface ContextUsage {
  conversationId: string;
  /** The model's window in tokens, when known. */
  contextWindow: number | undefined;
  /** Estimated tokens of the prompt as the application sent it, before any cap (tools included). */
  tokensBefore: number;
  /** Estimated tokens of the prompt as it goes to the provider (tools included). */
  tokensAfter: number;
  /** What the engine did, in order (`apply-summary`, `summarize`, `drop-oldest`, …). */
  actions: readonly CompactionAction[];
  /** Tokens each of those steps took off the prompt (see `CompactMessagesResult.savings`). */
  savings: Readonly<Partial<Record<CompactionAction, number>>>;
  /** 0 for the first attempt; 1, 2, … for retries after the provider said "too long". */
  overflowAttempt: number;
}

/** Options of `compactionMiddleware`. Every engine option of `createCompactor` is accepted too. */
export interface CompactionMiddlewareOptions
  extends Omit<CompactorOptions, 'summarizer' | 'model' | 'onEvent' | 'contextWindow'> {
  /**
   * The model's context window in tokens.
   * @default looked up from the wrapped model's id (`getContextWindow`); unknown → no compaction
   *   (tool results are still capped)
   */
  contextWindow?: number;
  /**
   * What writes summaries: an AI SDK language model (called directly, e.g. a cheaper one), any
   * `Summarizer` function, or `'extractive'` (deterministic, no model: `extractiveSummarizer`).
   * @default the wrapped model (the one the call goes to)
   */
  summarizer?: LanguageModelLike | Summarizer | 'extractive';
  /**
   * The conversation's key in the store when the call gives none in
   * `providerOptions.spillway.conversationId`. Return undefined to fall back.
   * @default derived from the conversation's first messages
   */
  conversationId?: (input: ConversationIdInput) => string | undefined;
  /**
   * Receives every compaction event (`compaction-start`, `compaction-end`, `compaction-failed`,
   * `truncation`, `emergency-truncation`, `overflow-retry`). Errors it throws are ignored.
   * @default none
   */
  onEvent?: CompactionEventHandler;
  /**
   * Called before every call goes down with how full the context is: the conversation's estimated
   * tokens as the application holds it (`tokensBefore`) and as sent (`tokensAfter`), the window,
   * and what was done (`actions`, empty when the prompt went down untouched). For context meters and
   * logs. Errors it throws are ignored.
   * @default none
   */
  onContextUsage?: (usage: ContextUsage) => void;
  /**
   * Keeps background compaction alive after the response on serverless hosts: called with the
   * promise of the work (it never rejects), e.g. Vercel's `waitUntil` or Cloudflare's
   * `ctx.waitUntil`.
   * @default none (the work runs detached)
   */
  waitUntil?: (promise: Promise<unknown>) => void;
  /**
   * Retries after the provider rejects a prompt as too long, each compacting harder (keeping 4, 2,
   * 1, then 0 recent message groups). After the last, a `ContextOverflowError` is thrown with the
   * provider's error as its `cause`.
   * @default 4
   */
  maxOverflowRetries?: number;
  /**
   * Who manages the context. `'local'`: Spillway (caps, previews, stubs, summaries). `'provider'`:
   * the provider's own context management, set on every call from Spillway's thresholds and merged
   * with (never overriding) what the call already set — Anthropic (`@ai-sdk/anthropic`):
   * `clear_tool_uses_20250919` triggered at the compact threshold, keeping the protected window's
   * tool uses, clearing at least a protected window (25% of the window) at a time and never the
   * read-back tool's results, plus `compact_20260112` at the emergency threshold on windows where
   * that is at least 50,000 tokens; OpenAI Responses (`@ai-sdk/openai` 4, ai 7): `contextManagement`
   * compaction at the compact threshold. Spillway then does locally only what the provider does
   * not: the storage-time cap, media a text-only provider cannot show, pinned rules, read-back, and
   * reductions without a summary only when a request would not fit the window otherwise. Other
   * providers (and `@ai-sdk/openai` 3) fall back to `'local'`, with one `console.warn` per
   * middleware. Provider compaction blocks in the prompt are kept verbatim in either mode.
   * @default 'local'
   */
  strategy?: 'local' | 'provider';
}
