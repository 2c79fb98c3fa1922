import { InvalidConfigError } from '@spillway/core';

/**
 * Checks the middleware's own options (the engine's are checked by `createCompactor`).
 *
 * @throws {InvalidConfigError} naming the first bad option.
 */
export function checkMiddlewareOptions({
  maxOverflowRetries,
  waitUntil,
  strategy,
}: {
  maxOverflowRetries: number;
  waitUntil: unknown;
  strategy: unknown;
}): void {
  if (strategy !== 'local' && strategy !== 'provider') {
    throw new InvalidConfigError({
      option: 'strategy',
      value: strategy,
      message: "must be 'local' or 'provider'",
    });
  }
  if (!Number.isInteger(maxOverflowRetries) || maxOverflowRetries < 0) {
    throw new InvalidConfigError({
      option: 'maxOverflowRetries',
      value: maxOverflowRetries,
      message: 'must be an integer >= 0',
    });
  }
  if (waitUntil !== undefined && typeof waitUntil !== 'function') {
    throw new InvalidConfigError({ option: 'waitUntil', value: waitUntil, message: 'must be a function' });
  }
}
