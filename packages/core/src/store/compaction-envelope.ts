import { InvalidStoredStateError } from '../errors/invalid-stored-state-error';
import type { CompactionState } from './compaction-state';
import { parseCompactionState } from './parse-compaction-state';
import type { VersionedCompactionState } from './versioned-compaction-store';

/**
 * The schema of the envelope key-value stores keep under a conversation's key:
 * `{"spillway":1,"revision":3,"state":{...}}`. The `spillway` field marks the value as Spillway's
 * and names the envelope's schema; the state inside carries its own `version`.
 */
export const COMPACTION_ENVELOPE_SCHEMA = 1;

/** The JSON text of a state and its revision in Spillway's envelope (for key-value stores). */
export function encodeCompactionEnvelope({ state, revision }: VersionedCompactionState): string {
  return JSON.stringify({ spillway: COMPACTION_ENVELOPE_SCHEMA, revision, state });
}

/**
 * Reads an envelope written by {@link encodeCompactionEnvelope} (JSON text, or the parsed object
 * for clients that parse JSON themselves).
 *
 * @throws {InvalidStoredStateError} when the value is not JSON, not Spillway's, from a newer schema,
 * or corrupt.
 */
export function decodeCompactionEnvelope(value: unknown): VersionedCompactionState {
  let object = value;
  if (typeof value === 'string') {
    try {
      object = JSON.parse(value);
    } catch {
      throw new InvalidStoredStateError({ reason: 'not-json', message: 'The stored value is not JSON' });
    }
  }
  if (object === null || typeof object !== 'object' || !('spillway' in object)) {
    throw new InvalidStoredStateError({
      reason: 'foreign',
      message: 'The stored value is not a Spillway compaction envelope',
    });
  }
  const { spillway, revision, state } = object as { spillway: unknown; revision: unknown; state: unknown };
  if (typeof spillway === 'number' && spillway > COMPACTION_ENVELOPE_SCHEMA) {
    throw new InvalidStoredStateError({
      reason: 'unsupported-version',
      message: `The stored envelope has schema ${spillway}; this release reads ${COMPACTION_ENVELOPE_SCHEMA}`,
    });
  }
  if (spillway !== COMPACTION_ENVELOPE_SCHEMA) {
    throw new InvalidStoredStateError({
      reason: 'invalid-field',
      field: 'spillway',
      message: 'Bad envelope schema',
    });
  }
  if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 1) {
    throw new InvalidStoredStateError({
      reason: 'invalid-field',
      field: 'revision',
      message: 'The stored envelope has an invalid "revision"',
    });
  }
  const parsed: CompactionState = parseCompactionState(state);
  return { state: parsed, revision };
}
