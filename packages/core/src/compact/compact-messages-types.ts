import type { Message } from '../message/message';
import type { CompactionState } from '../store/compaction-state';
import type { CompactionAction } from './compaction-action';
import type { CompactionOptions } from './compaction-options';
import type { ReductionLevel } from './reduction-level';

/** Per-request options of `compactMessages`. */
export interface CompactRequestOptions {
  /** The state a previous compaction of this conversation left (from your store). */
  state?: CompactionState;
  /**
   * Names the conversation in events.
   * @default derived from the conversation's first messages
   */
  conversationId?: string;
  /**
   * Tokens the request carries besides the messages (tool definitions, provider framing), counted
   * on top of the messages.
   * @default 0
   */
  overheadTokens?: number;
  /**
   * Tokens reserved for the model's answer (the call's `maxOutputTokens`): a request is refused only
   * when it cannot fit the window less this. The compact threshold is the target every request aims
   * at; one a little over it that still fits the window is sent, never refused.
   * @default 0
   */
  outputTokens?: number;
  /**
   * The provider rejected the previous attempt as too long: retry number (1, 2, 3, …). Each attempt
   * keeps fewer message groups of the history verbatim (4 → 2 → 1 → 0, where 0 keeps only the
   * current turn) and aims lower (80%, 60%, 40%, 25% of the compact threshold), whatever the
   * estimate says. Works even when the context window is unknown.
   */
  overflowAttempt?: number;
  /**
   * On an overflow retry: the raw estimate (`estimatedTokens`) of the request the provider just
   * rejected. Each retry then aims under that share of it (80%, 60%, 40%, 25%), whatever the window
   * says — the provider counts differently or the window is smaller than known — so every retry is
   * really smaller, down to the current turn alone. The compactor passes it.
   * @default undefined (the shares of the compact threshold)
   */
  rejectedTokens?: number;
  /**
   * Summarize now when over the compact threshold. The compactor turns this off while a summary of
   * the same conversation is being made elsewhere; the request is then brought under the threshold
   * without a model.
   * @default true
   */
  allowSummarize?: boolean;
  /**
   * Aborts a summarizer that is running for this request at once; the abort reason is thrown.
   */
  abortSignal?: AbortSignal;
  /**
   * The conversation as the framework holds it, message for message, before any storage-time cap
   * the adapter applied itself: references name these originals (what the read-back tool reads).
   * @default messages
   */
  originals?: readonly Message[];
  /**
   * How far the previous request of this conversation reduced its history (its result's
   * `reductionLevel`): this one reduces at least as far, so the prompt's prefix never goes back
   * and forth between two levels. The compactor passes it; ignored when it belongs to another
   * summary state.
   * @default undefined (the least that fits)
   */
  reductionLevel?: ReductionLevel;
  /**
   * Whether the model has the read-back tool (`spillway_recall`) in this request. When it does and
   * something was cut, one line tells it so (`RECALL_ANNOUNCEMENT`): with the summary, else with the
   * note of dropped messages, else after the first cut. Adapters set it from the request's tools.
   * @default false
   */
  recallTool?: boolean;
}

/** Options of `compactMessages`. */
export type CompactMessagesOptions = CompactionOptions & CompactRequestOptions;

/** What `compactMessages` returns. */
export interface CompactMessagesResult {
  /** The messages to send. Messages it did not change are the caller's own objects. */
  messages: Message[];
  /**
   * The state in force after this call: a new one when a summary was made (store it), the given
   * one when it still applied, undefined when none applies.
   */
  state: CompactionState | undefined;
  /** Whether `state` is new (a summary was made in this call). */
  stateChanged: boolean;
  /** Calibrated token estimate of the input, overhead included. */
  tokensBefore: number;
  /** Calibrated token estimate of `messages`, overhead included. */
  tokensAfter: number;
  /**
   * Raw (uncalibrated) estimate of `messages` plus overhead: hand it back with the provider's
   * reported input tokens to calibrate the estimator.
   */
  estimatedTokens: number;
  /**
   * What was done, each step once, in pipeline order. Empty when the input went through untouched.
   */
  actions: CompactionAction[];
  /**
   * Tokens each step took off the request (calibrated, like `tokensBefore`), by action: the
   * no-model steps measured message by message; `apply-summary` / `summarize` is what is left of
   * `tokensBefore - tokensAfter` (the covered prefix replaced by the summary). Empty when nothing
   * was done.
   */
  savings: Partial<Record<CompactionAction, number>>;
  /**
   * Whether `messages` is the smallest request the engine can make (no history left, the current
   * turn shrunk as far as it goes): an overflow retry of it would send the same again.
   */
  minimal: boolean;
  /** How far the no-model reductions reached (hand it back as `reductionLevel` next time). */
  reductionLevel?: ReductionLevel;
}
