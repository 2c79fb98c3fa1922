import { InvalidConfigError } from '@spillway/core';

/**
 * A size, as LangChain's `summarizationMiddleware` spells it: a share of the context window
 * (`fraction`) or a token count (`tokens`). Exactly one of them.
 */
export interface TokenLimit {
  /** Share of the context window, above 0 and at most 1. */
  fraction?: number;
  /** Tokens; turned into a share of the context window when the window is known. */
  tokens?: number;
}

/**
 * The share of `contextWindow` a {@link TokenLimit} stands for (undefined when none is given, or
 * when it counts tokens and the window is unknown).
 * @throws {InvalidConfigError} naming `option` when the limit is malformed.
 */
export function tokenLimitRatio(
  option: string,
  limit: TokenLimit | undefined,
  contextWindow: number | undefined,
): number | undefined {
  if (limit === undefined) return undefined;
  if (limit === null || typeof limit !== 'object') {
    throw new InvalidConfigError({ option, value: limit, message: 'must be { fraction } or { tokens }' });
  }
  const { fraction, tokens } = limit;
  const unsupported = Object.keys(limit).filter((key) => key !== 'fraction' && key !== 'tokens');
  if (unsupported.length > 0) {
    throw new InvalidConfigError({
      option,
      value: limit,
      message: `supports { fraction } or { tokens } only (got ${unsupported.join(', ')}); message counts are not a size`,
    });
  }
  if ((fraction === undefined) === (tokens === undefined)) {
    throw new InvalidConfigError({
      option,
      value: limit,
      message: 'must give exactly one of fraction or tokens',
    });
  }
  if (fraction !== undefined) {
    if (typeof fraction !== 'number' || !(fraction > 0 && fraction <= 1)) {
      throw new InvalidConfigError({
        option: `${option}.fraction`,
        value: fraction,
        message: 'must be above 0 and at most 1',
      });
    }
    return fraction;
  }
  if (typeof tokens !== 'number' || !(tokens > 0)) {
    throw new InvalidConfigError({
      option: `${option}.tokens`,
      value: tokens,
      message: 'must be a number above 0',
    });
  }
  if (contextWindow === undefined) return undefined;
  return Math.min(1, tokens / contextWindow);
}
