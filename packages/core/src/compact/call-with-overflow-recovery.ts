import { ContextOverflowError } from '../errors/context-overflow-error';
import { InvalidConfigError } from '../errors/invalid-config-error';
import { isContextOverflowError } from '../errors/is-context-overflow-error';
import type { Message } from '../message/message';
import type { Compactor, PrepareOptions, PrepareResult } from './compactor';

/** Options of {@link callWithOverflowRecovery}. */
export interface CallWithOverflowRecoveryOptions<Result = unknown> {
  /** The compactor that prepared `prepared`. */
  compactor: Compactor;
  /** The conversation as the application has it (what `prepared` was made from). */
  messages: readonly Message[];
  /** The options `prepared` was made with; each retry adds `overflowAttempt` and `overflowError`. */
  prepareOptions: Omit<PrepareOptions, 'overflowAttempt' | 'overflowError'>;
  /** The first request, already prepared. */
  prepared: PrepareResult;
  /**
   * Sends a prepared request to the provider. Throwing an error that `isContextOverflowError`
   * recognises (or resolving after such an error surfaced in a stream, if you rethrow it) starts
   * the next retry; any other error is passed through as is.
   */
  send: (prepared: PrepareResult, attempt: number) => PromiseLike<Result>;
  /**
   * Retries after the provider rejects the prompt as too long.
   * @default 4
   */
  maxRetries?: number;
  /** Stops retrying (the last provider error is thrown) once aborted. */
  abortSignal?: AbortSignal;
  /** Called with each retry's prepared request before it is sent. */
  onRetry?: (prepared: PrepareResult, attempt: number) => void;
  /**
   * Called when compacting for a retry fails with anything but a `ContextOverflowError` (a store
   * that cannot be read, say); the provider's own overflow error is then thrown, not this one.
   */
  onCompactionError?: (error: unknown) => void;
}

/** What {@link callWithOverflowRecovery} returns. */
export interface CallWithOverflowRecoveryResult<Result = unknown> {
  /** What `send` returned for the accepted request. */
  result: Result;
  /** The request the provider accepted. */
  prepared: PrepareResult;
  /** 0 when the first request was accepted, else the retry that was. */
  attempt: number;
}

/**
 * Sends a prepared request and, when the provider answers "context too long", compacts harder and
 * sends again (seed claw-code #2808: 4 → 2 → 1 → 0 history groups kept), learning the window and the
 * provider's count from the error when it states them. It never sends the same request twice: when
 * a retry could not be made smaller than what was rejected (the request was already the smallest
 * the engine can make), it stops at once. The adapters share it, so every framework recovers alike.
 *
 * @throws {ContextOverflowError} when the retries run out or cannot shrink the request further
 * (`cause` is the provider's last error), or at once when the engine finds that even the smallest
 * request cannot fit. Other errors from `send` pass through unchanged.
 */
export async function callWithOverflowRecovery<Result>({
  compactor,
  messages,
  prepareOptions,
  prepared: first,
  send,
  maxRetries = 4,
  abortSignal,
  onRetry,
  onCompactionError,
}: CallWithOverflowRecoveryOptions<Result>): Promise<CallWithOverflowRecoveryResult<Result>> {
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new InvalidConfigError({
      option: 'maxRetries',
      value: maxRetries,
      message: 'must be a whole number, 0 or more',
    });
  }
  let prepared = first;
  // The window as the engine knows it now (a retry may have learned it from the provider's error).
  let contextWindow = first.contextWindow;
  let lastError: unknown;
  try {
    return { result: await send(prepared, 0), prepared, attempt: 0 };
  } catch (error) {
    if (!isContextOverflowError(error)) throw error;
    lastError = error;
  }
  for (let attempt = 1; attempt <= maxRetries; attempt++) {
    if (abortSignal?.aborted) throw lastError;
    if (prepared.minimal) break;
    let next: PrepareResult;
    try {
      next = await compactor.prepare(messages, {
        ...prepareOptions,
        overflowAttempt: attempt,
        overflowError: lastError,
        ...(abortSignal === undefined ? {} : { abortSignal }),
      });
    } catch (error) {
      if (abortSignal?.aborted) throw error;
      if (ContextOverflowError.isInstance(error) && error.cause === undefined) {
        throw new ContextOverflowError({
          message: error.message,
          tokenCount: error.tokenCount,
          contextWindow: error.contextWindow,
          budgetTokens: error.budgetTokens,
          unshrinkable: error.unshrinkable,
          cause: lastError,
        });
      }
      // No smaller prompt to retry with: the caller gets the provider's own error, not ours.
      onCompactionError?.(error);
      throw lastError;
    }
    contextWindow = next.contextWindow ?? contextWindow;
    // Sending what was just rejected again would only be rejected again.
    if (next.estimatedTokens >= prepared.estimatedTokens) break;
    prepared = next;
    onRetry?.(prepared, attempt);
    try {
      return { result: await send(prepared, attempt), prepared, attempt };
    } catch (error) {
      if (!isContextOverflowError(error)) throw error;
      lastError = error;
    }
  }
  throw new ContextOverflowError({
    message:
      `The provider rejected the prompt as too long, and it cannot be made smaller ` +
      `(about ${prepared.tokensAfter.toLocaleString('en-US')} tokens${
        contextWindow === undefined ? '' : ` for a window of ${contextWindow.toLocaleString('en-US')}`
      }).`,
    tokenCount: prepared.tokensAfter,
    ...(contextWindow === undefined ? {} : { contextWindow }),
    cause: lastError,
  });
}
