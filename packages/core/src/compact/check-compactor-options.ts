import { InvalidConfigError } from '../errors/invalid-config-error';

/**
 * Checks the options only `createCompactor` takes (the engine's are checked by
 * `resolveCompactionOptions`).
 * @throws {InvalidConfigError} naming the first bad option.
 */
export function checkCompactorOptions({
  retrySummaryAfter,
  contextWindows,
}: {
  retrySummaryAfter: number;
  contextWindows: Readonly<Record<string, number>> | undefined;
}): void {
  if (!Number.isInteger(retrySummaryAfter) || retrySummaryAfter < 0) {
    throw new InvalidConfigError({
      option: 'retrySummaryAfter',
      value: retrySummaryAfter,
      message: 'must be a whole number of requests, 0 or more',
    });
  }
  if (contextWindows === undefined) return;
  if (typeof contextWindows !== 'object' || contextWindows === null) {
    throw new InvalidConfigError({
      option: 'contextWindows',
      value: contextWindows,
      message: 'must be an object of model id → window in tokens',
    });
  }
  for (const [id, value] of Object.entries(contextWindows)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new InvalidConfigError({
        option: `contextWindows.${id}`,
        value,
        message: 'must be a finite number of tokens above 0',
      });
    }
  }
}
