/** A valid call of the read-back tool. */
export type RecallRequest = RecallReadRequest | RecallSearchRequest;

/** Read mode: a page of the material behind `ref`. */
export interface RecallReadRequest {
  readonly mode: 'read';
  readonly ref: string;
  /** First character of the page (UTF-16 code units). */
  readonly offset: number;
  /** Characters asked for; `undefined` lets the host choose within its budget. */
  readonly length: number | undefined;
}

/** Search mode: matching lines within `ref`, or across all the material the host holds. */
export interface RecallSearchRequest {
  readonly mode: 'search';
  /** The pattern as the model gave it (see `searchRecall` for how it is matched). */
  readonly search: string;
  /** Limits the search to this material; `undefined` searches all of it. */
  readonly ref: string | undefined;
  /** Where the search starts within `ref` (characters). */
  readonly offset: number;
  /** Characters searched from `offset`; `undefined` searches to the end. */
  readonly length: number | undefined;
}

/** What {@link parseRecallInput} gives back: a request, or a message to send the model as a tool error. */
export type ParseRecallInputResult =
  | { readonly ok: true; readonly request: RecallRequest }
  | { readonly ok: false; readonly message: string };

const KNOWN_KEYS = new Set(['ref', 'offset', 'length', 'search']);

/**
 * Checks the arguments a model passed to the read-back tool. Never throws: bad input gives
 * `{ ok: false, message }`, a message written for the model (it says what to send instead).
 * `offset` and `length` may also come as strings of digits (some models quote numbers); `null`
 * stands for an absent field; unknown fields are refused, so a misspelt name is not silently ignored.
 */
export function parseRecallInput(value: unknown): ParseRecallInputResult {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return failure('Pass an object: {"ref": "<ref>"} to read, or {"search": "<pattern>"} to search.');
  }
  const input = value as Record<string, unknown>;
  const unknown = Object.keys(input).filter((key) => !KNOWN_KEYS.has(key) && input[key] !== undefined);
  if (unknown.length > 0) {
    return failure(
      `Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => JSON.stringify(key)).join(', ')}: the fields are "ref", "offset", "length" and "search".`,
    );
  }
  const ref = absent(input.ref) ? undefined : input.ref;
  if (ref !== undefined && (typeof ref !== 'string' || ref.length === 0)) {
    return failure('"ref" must be the reference string printed where the material was cut.');
  }
  const search = absent(input.search) ? undefined : input.search;
  if (search !== undefined && (typeof search !== 'string' || search.length === 0)) {
    return failure('"search" must be a non-empty string: a regular expression or plain text.');
  }
  const offset = integer(input.offset, 0);
  if (offset === undefined || offset < 0) return failure('"offset" must be an integer of 0 or more.');
  const length = absent(input.length) ? undefined : integer(input.length, undefined);
  if (!absent(input.length) && (length === undefined || length < 1)) {
    return failure('"length" must be an integer of 1 or more.');
  }
  if (search !== undefined) {
    return { ok: true, request: { mode: 'search', search, ref, offset, length } };
  }
  if (ref === undefined) {
    return failure(
      'Pass "ref" (with "offset" and "length" to choose a part) to read cut material, or "search" to find it.',
    );
  }
  return { ok: true, request: { mode: 'read', ref, offset, length } };
}

function absent(value: unknown): boolean {
  return value === undefined || value === null;
}

/** An integer, from a number or a string of digits; `fallback` when absent; `undefined` when invalid. */
function integer(value: unknown, fallback: number | undefined): number | undefined {
  if (absent(value)) return fallback;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*\d{1,15}\s*$/.test(value)) return Number(value);
  return undefined;
}

function failure(message: string): ParseRecallInputResult {
  return { ok: false, message };
}
