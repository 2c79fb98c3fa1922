import { InvalidConfigError } from '@spillway/core';

/**
 * Checks the middleware's own options (the engine's are checked by `createCompactor`).
 *
 * @throws {InvalidConfigError} naming the first bad option.
 */
export function checkMiddlewareOptions({
  maxOverflowRetries,
  waitUntil,
}: {
  maxOverflowRetries: number;
  waitUntil: unknown;
}): void {
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
