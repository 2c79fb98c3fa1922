import { extractRecallRef, RECALL_REF_INPUT_MAX_CHARS } from './extract-recall-ref';

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

/** Characters of a search pattern, at most: longer ones are refused with a one-line message. */
export const RECALL_SEARCH_MAX_CHARS = 1_000;

/** Characters of arguments passed as a JSON string (some models double-encode them), at most. */
const JSON_STRING_MAX_CHARS = 10_000;

/**
 * Checks the arguments a model passed to the read-back tool. Never throws: bad input gives
 * `{ ok: false, message }`, one line written for the model (it says what to send instead, and never
 * repeats more than a few characters of what was sent). `offset` and `length` may also come as
 * strings of digits (some models quote numbers); `null` stands for an absent field; unknown fields
 * are refused, so a misspelt name is not silently ignored; arguments sent as a JSON string are read.
 * `ref` is read leniently, in every form the markers print it (`[ref=t.…]`, `ref=t.… offset=1000`,
 * quoted, a whole marker line: see `extractRecallRef`); an offset written beside it is where a read
 * starts when no `offset` is given. A `search` over {@link RECALL_SEARCH_MAX_CHARS} characters, or a
 * `ref` over `RECALL_REF_INPUT_MAX_CHARS`, is refused.
 */
export function parseRecallInput(value: unknown): ParseRecallInputResult {
  const object = asObject(value);
  if (object === undefined) {
    return failure('Pass an object: {"ref": "<ref>"} to read, or {"search": "<pattern>"} to search.');
  }
  const input = object as Record<string, unknown>;
  const unknown = Object.keys(input).filter((key) => !KNOWN_KEYS.has(key) && input[key] !== undefined);
  if (unknown.length > 0) {
    const named = unknown.slice(0, 3).map((key) => JSON.stringify(shorten(key)));
    return failure(
      `Unknown field${unknown.length > 1 ? 's' : ''} ${named.join(', ')}${unknown.length > 3 ? ` and ${unknown.length - 3} more` : ''}: the fields are "ref", "offset", "length" and "search".`,
    );
  }
  const given = absent(input.ref) ? undefined : input.ref;
  if (given !== undefined && (typeof given !== 'string' || given.length === 0)) {
    return failure('"ref" must be the reference string printed where the material was cut.');
  }
  if (given !== undefined && given.length > RECALL_REF_INPUT_MAX_CHARS) {
    return failure(
      `"ref" is ${given.length} characters long: pass the reference as printed (e.g. "t.Ab12Cd34Ef56"), at most ${RECALL_REF_INPUT_MAX_CHARS} characters.`,
    );
  }
  const extracted = given === undefined ? undefined : extractRecallRef(given);
  if (extracted !== undefined && extracted.ref.length === 0) {
    return failure('"ref" must be the reference string printed where the material was cut.');
  }
  const ref = extracted?.ref;
  const search = absent(input.search) ? undefined : input.search;
  if (search !== undefined && (typeof search !== 'string' || search.length === 0)) {
    return failure('"search" must be a non-empty string: a regular expression or plain text.');
  }
  if (search !== undefined && search.length > RECALL_SEARCH_MAX_CHARS) {
    return failure(
      `"search" is ${search.length} characters long; the limit is ${RECALL_SEARCH_MAX_CHARS}: search for a shorter, distinctive part.`,
    );
  }
  const offset = integer(input.offset, extracted?.offset ?? 0);
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

/** The arguments as an object: as given, or parsed from a JSON string of one. */
function asObject(value: unknown): object | undefined {
  if (typeof value === 'string') {
    const text = value.trim();
    if (!text.startsWith('{') || text.length > JSON_STRING_MAX_CHARS) return undefined;
    try {
      return asObject(JSON.parse(text) as unknown);
    } catch {
      return undefined;
    }
  }
  return value === null || typeof value !== 'object' || Array.isArray(value) ? undefined : value;
}

function shorten(text: string): string {
  return text.length <= 40 ? text : `${text.slice(0, 39)}…`;
}

function absent(value: unknown): boolean {
  return value === undefined || value === null;
}

/** An integer, from a number or a string of digits; `fallback` when absent; `undefined` when invalid. */
function integer(value: unknown, fallback: number | undefined): number | undefined {
  if (absent(value)) return fallback;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && value.length <= 40 && /^\s*\d{1,15}\s*$/.test(value)) return Number(value);
  return undefined;
}

function failure(message: string): ParseRecallInputResult {
  return { ok: false, message };
}
