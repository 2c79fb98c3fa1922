import { ContextOverflowError } from '@spillway/core';

/**
 * The error for a request the provider rejected as too long that cannot be made smaller than what
 * was rejected (sending it again would only be rejected again); `cause` is the provider's error.
 */
export function overflowError(
  prepared: { tokensAfter: number; contextWindow: number | undefined },
  cause: unknown,
) {
  return new ContextOverflowError({
    message:
      'The provider rejected the prompt as too long, and it cannot be made smaller ' +
      `(about ${prepared.tokensAfter.toLocaleString('en-US')} tokens${
        prepared.contextWindow === undefined
          ? ''
          : ` for a window of ${prepared.contextWindow.toLocaleString('en-US')}`
      }).`,
    tokenCount: prepared.tokensAfter,
    ...(prepared.contextWindow === undefined ? {} : { contextWindow: prepared.contextWindow }),
    cause,
  });
}
