import type { Message } from '../message/message';
import type { CompactionState } from '../store/compaction-state';
import type { CompactionAction } from './compaction-action';
import { type CompactionOptions, resolveCompactionOptions } from './compaction-options';
import type { ReductionLevel } from './reduction-level';
import { runCompaction } from './run-compaction';

/** Per-request options of {@link compactMessages}. */
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

/** Options of {@link compactMessages}. */
export type CompactMessagesOptions = CompactionOptions & CompactRequestOptions;

/** What {@link compactMessages} returns. */
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

/**
 * The whole pipeline as one async function, for applications that keep their own state: before a
 * request, give it the conversation and the state your store holds; send the messages it returns
 * and store the state when `stateChanged`.
 *
 * 1. Storage-time cap on tool results (always, even with an unknown context window); media inside
 *    tool results become placeholders for providers that could only send them as text.
 * 2. A stored summary whose covered prefix still hashes the same replaces that prefix.
 * 3. At or over `thresholds.compact`, the stages of `STAGES` in order, each only as far as the
 *    budget needs, each step freeing at least 30% of the window (the prompt's prefix changes
 *    rarely): old tool output cleared (previews, then one-line stubs with the identifiers they held
 *    and a reference; stale results as notes; images as placeholders; pasted logs shortened), then
 *    old turns' tool steps folded into one line per call, then the oldest dialogue summarized (the
 *    user's own words of it kept verbatim beside the summary), or, when no summary can be made,
 *    dropped from this request with a note; then the oldest user words condensed; last, the current
 *    turn shrunk inside.
 *
 * **The current turn is sacred:** the latest user message and everything after it is never
 * summarized, dropped, digested or replaced; when it alone does not fit, its tool results are
 * shortened oldest first, then its images become placeholders; the user's text is never cut.
 * **Every budget holds:** whenever a fitting request exists, the result is at or under the compact
 * threshold; one that cannot get under it but fits the window (less `outputTokens`) is sent; every
 * summary is within its bound. Whatever leaves the request leaves a note with its reference.
 *
 * @throws {ContextOverflowError} before any provider call, when even the smallest request (system
 * prompt and the current turn shrunk, no history) cannot fit the window, with what could not be
 * shrunk. The input is never mutated.
 */
export async function compactMessages(
  messages: readonly Message[],
  options: CompactMessagesOptions = {},
): Promise<CompactMessagesResult> {
  return runCompaction(messages, resolveCompactionOptions(options), options);
}


