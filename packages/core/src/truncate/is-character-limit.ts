/**
 * Whether `value` is a usable character limit: a non-negative integer, or `Infinity` for no limit.
 * Internal to the truncate stage.
 */
export function isCharacterLimit(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    ((Number.isInteger(value) && value >= 0) || value === Number.POSITIVE_INFINITY)
  );
}
