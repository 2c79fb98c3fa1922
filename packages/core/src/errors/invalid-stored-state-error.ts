import { SpillwayError } from './spillway-error';

const marker = 'spillway.error.invalid-stored-state';
const symbol = Symbol.for(marker);

/** Why a stored value could not be read as a compaction state. */
export type InvalidStoredStateReason =
  /** Not JSON (or not the type the store keeps there). */
  | 'not-json'
  /** JSON, but not something Spillway wrote (no envelope, wrong shape). */
  | 'foreign'
  /** Written by a newer schema than this version reads. */
  | 'unsupported-version'
  /** Spillway's envelope, but a field is missing or out of range (corrupt). */
  | 'invalid-field';

/**
 * A store holds a value under a conversation's key that is not a compaction state this version can
 * read. The compactor treats the conversation as having no stored state (with a `store-error`
 * event) and never overwrites such a value.
 */
export class InvalidStoredStateError extends SpillwayError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for by isInstance
  private readonly [symbol] = true;

  readonly reason: InvalidStoredStateReason;
  /** The field that failed, for `invalid-field`. */
  readonly field: string | undefined;

  constructor({
    reason,
    field,
    message,
  }: { reason: InvalidStoredStateReason; field?: string; message: string }) {
    super({ name: 'InvalidStoredStateError', message });
    this.reason = reason;
    this.field = field;
  }

  static override isInstance(error: unknown): error is InvalidStoredStateError {
    return SpillwayError.hasMarker(error, marker);
  }
}
