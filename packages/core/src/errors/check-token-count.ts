import { InvalidConfigError } from './invalid-config-error';

/**
 * Checks a number of tokens given as an option (a window, a bound).
 * @throws {InvalidConfigError} naming `option` when `value` is not a finite number above 0.
 */
export function checkTokenCount(option: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new InvalidConfigError({
      option,
      value,
      message: 'must be a finite number of tokens above 0',
    });
  }
}
