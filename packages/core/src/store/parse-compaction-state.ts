import { InvalidStoredStateError } from '../errors/invalid-stored-state-error';
import type { CompactionState, PinnedQuote } from './compaction-state';

/** The `version` of the {@link CompactionState} format this release writes and reads. */
export const COMPACTION_STATE_VERSION = 1;

/**
 * Checks that `value` (an object, or its JSON text) is a {@link CompactionState} this version can
 * read, and returns a clean copy of it (known fields only). For stores that read JSON back.
 *
 * @throws {InvalidStoredStateError} with `reason` `not-json`, `foreign`, `unsupported-version` or
 * `invalid-field` (naming the field).
 */
export function parseCompactionState(value: unknown): CompactionState {
  const object = typeof value === 'string' ? parseJson(value) : value;
  if (object === null || typeof object !== 'object' || Array.isArray(object)) {
    throw new InvalidStoredStateError({ reason: 'foreign', message: 'The stored value is not an object' });
  }
  const record = object as Record<string, unknown>;
  if (typeof record.version !== 'number' || !('summaries' in record)) {
    throw new InvalidStoredStateError({
      reason: 'foreign',
      message: 'The stored value is not a compaction state (no version or summaries)',
    });
  }
  if (record.version > COMPACTION_STATE_VERSION) {
    throw new InvalidStoredStateError({
      reason: 'unsupported-version',
      message: `The stored compaction state has version ${record.version}; this release reads ${COMPACTION_STATE_VERSION}`,
    });
  }
  if (record.version !== COMPACTION_STATE_VERSION) invalid('version');
  const { summaries } = record;
  if (!Array.isArray(summaries) || !summaries.every((summary) => typeof summary === 'string')) {
    invalid('summaries');
  }
  const pinned = pinnedQuotes(record.pinned);
  return {
    version: COMPACTION_STATE_VERSION,
    summaries: [...(summaries as string[])],
    coveredCount: count(record, 'coveredCount'),
    coveredHash: text(record, 'coveredHash'),
    tokensBefore: amount(record, 'tokensBefore'),
    tokensAfter: amount(record, 'tokensAfter'),
    createdAt: amount(record, 'createdAt'),
    compactionCount: count(record, 'compactionCount'),
    ...(pinned === undefined ? {} : { pinned }),
  };
}

/** The optional `pinned` field: absent, or a list of `{ text, messageNumber }`. */
function pinnedQuotes(value: unknown): PinnedQuote[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) invalid('pinned');
  return value.map((item: unknown) => {
    const quote = item as Record<string, unknown> | null;
    if (
      quote === null ||
      typeof quote !== 'object' ||
      typeof quote.text !== 'string' ||
      typeof quote.messageNumber !== 'number' ||
      !Number.isSafeInteger(quote.messageNumber) ||
      quote.messageNumber < 0
    ) {
      invalid('pinned');
    }
    return { text: quote.text as string, messageNumber: quote.messageNumber as number };
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidStoredStateError({ reason: 'not-json', message: 'The stored value is not JSON' });
  }
}

function invalid(field: string): never {
  throw new InvalidStoredStateError({
    reason: 'invalid-field',
    field,
    message: `The stored compaction state has an invalid "${field}"`,
  });
}

function count(record: Record<string, unknown>, field: string): number {
  const value = record[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) invalid(field);
  return value;
}

function amount(record: Record<string, unknown>, field: string): number {
  const value = record[field];
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) invalid(field);
  return value;
}

function text(record: Record<string, unknown>, field: string): string {
  const value = record[field];
  if (typeof value !== 'string') invalid(field);
  return value;
}
