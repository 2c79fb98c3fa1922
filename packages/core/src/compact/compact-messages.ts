import { getContextWindow } from '../context-window/get-context-window';
import type { Message } from '../message/message';
import type { CompactMessagesOptions, CompactMessagesResult } from './compact-messages-types';
import { deriveConversationId } from './conversation-id';
import { recognizeMessages } from './recognize-messages';
import { resolveCompactionOptions } from './resolve-compaction-options';
import { runCompaction } from './run-compaction';

export type {
  CompactMessagesOptions,
  CompactMessagesResult,
  CompactRequestOptions,
} from './compact-messages-types';

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
  const resolved = resolveCompactionOptions(options);
  // A server calls this with a fresh copy of the conversation every time: equal messages borrow
  // the previous call's counts and hashes (a compactor does the same when a request comes in).
  const conversationId = options.conversationId ?? deriveConversationId(messages);
  recognizeMessages(messages, { conversationId, scope: resolved.estimator });
  // The window: the option, else the table's for `model`; unknown, it is said (an overflow retry
  // still aims under what the provider rejected).
  const contextWindow = resolved.contextWindow ?? getContextWindow(options.model);
  if (contextWindow === undefined && options.overflowAttempt === undefined) {
    resolved.onEvent({ type: 'context-window-unknown', conversationId, model: options.model });
  }
  return runCompaction(messages, resolved, {
    ...options,
    conversationId,
    ...(contextWindow === undefined ? {} : { contextWindow }),
  });
}
