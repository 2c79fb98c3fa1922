import { InvalidConfigError } from '@spillway/core';

/**
 * Checks of option values shared by the three entry points. Each throws `InvalidConfigError`
 * naming the option and the accepted range, and returns the value (narrowed) when it is fine.
 * `undefined` always passes: defaults are filled in by the caller.
 */

function fail(option: string, value: unknown, accepted: string): never {
  throw new InvalidConfigError({ option, value, message: `must be ${accepted} (got ${describe(value)})` });
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  return 'an object';
}

/** A context window: a whole number of tokens, 1 or more (not a string, not NaN or Infinity). */
export function checkContextWindow(option: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    fail(option, value, 'a whole number of tokens, 1 or more');
  }
  return value;
}

/** Windows by model id: `{ [modelId]: tokens }`, each a valid context window. */
export function checkContextWindows(
  option: string,
  value: unknown,
): Readonly<Record<string, number>> | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    fail(option, value, 'an object of context windows by model id, e.g. { "my-model": 32000 }');
  }
  for (const [modelId, tokens] of Object.entries(value)) checkContextWindow(`${option}.${modelId}`, tokens);
  return value as Readonly<Record<string, number>>;
}

/** A token count of 0 or more (finite). */
export function checkTokenCount(option: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    fail(option, value, 'a number of tokens, 0 or more');
  }
  return value;
}

/** A whole number, `min` or more. */
export function checkWholeNumber(option: string, value: unknown, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    fail(option, value, `a whole number, ${min} or more`);
  }
  return value;
}

/** A non-empty string. */
export function checkName(option: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') fail(option, value, 'a non-empty string');
  return value;
}

/** A string (possibly empty). */
export function checkString(option: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') fail(option, value, 'a string');
  return value;
}

/** `true` or `false`. */
export function checkBoolean(option: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') fail(option, value, 'true or false');
  return value;
}

/** A function. */
export function checkFunction<T>(option: string, value: T, shape: string): T {
  if (value === undefined) return value;
  if (typeof value !== 'function') fail(option, value, `a function ${shape}`);
  return value;
}

/** A chat model (anything with `invoke`: a model, a binding, a chain) or a model string for `initChatModel`. */
export function checkChatModel(option: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'string' && typeof (value as { invoke?: unknown } | null)?.invoke !== 'function') {
    fail(option, value, 'a chat model (with invoke) or a model string');
  }
}

/** An object with the named methods (a store, a history, an estimator). */
export function checkMethods<T>(option: string, value: T, methods: readonly string[], what: string): T {
  if (value === undefined) return value;
  const record = value as Record<string, unknown> | null;
  if (
    record === null ||
    typeof record !== 'object' ||
    methods.some((method) => typeof record[method] !== 'function')
  ) {
    fail(option, value, `${what} (an object with ${methods.join(', ')})`);
  }
  return value;
}
