import type { CompactorOptions, Summarizer } from '@spillway/core';
import type { TokenCounter } from '../estimate/token-counter-estimator';
import type { InvokableChatModel } from '../summarize/model-summarizer';
import type { TokenLimit } from './token-limit';

/** Options of `compactionMiddleware`. Every option of `createCompactor` applies too. */
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
  /**
   * Who manages the context. `'local'`: Spillway. `'provider'`: for a `ChatAnthropic` agent model,
   * Anthropic's context management, set on each call from Spillway's thresholds and merged with
   * (never overriding) the model's own `contextManagement` edits — `clear_tool_uses_20250919` at the
   * compact threshold (keeping the protected window's tool uses, clearing at least a protected
   * window at a time, never the read-back tool's results) and `compact_20260112` at the emergency
   * threshold where that is at least 50,000 tokens; Spillway then makes no summary and reduces the
   * history only when a request would not fit the window otherwise (caps, pins and read-back work
   * as always). Other models are compacted locally, with one `console.warn` per middleware.
   * @default 'local'
   */
  strategy?: 'local' | 'provider';
  /**
   * Keeps background compaction alive after a model call on serverless hosts: called after each
   * model call with the promise of the background work that call started (it never rejects; it
   * settles once the summary is stored, or at once when none was needed), e.g. Vercel's
   * `waitUntil` or Cloudflare's `ctx.waitUntil`. A `waitUntil` that throws never fails the call
   * (a `compaction-failed` event instead).
   * @default none (the work runs detached)
   */
  waitUntil?: (promise: Promise<unknown>) => void;
}
