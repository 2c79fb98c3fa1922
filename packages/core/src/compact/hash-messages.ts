import { contentMemo } from '../message/content-memo';
import type { Message } from '../message/message';

/**
 * Content hashes of messages, for checking that a stored summary still covers the same prefix.
 * Deterministic across processes and platforms (so a shared store works), independent of object
 * key order (a database may reorder JSON keys), and memoised per message object (and, through
 * `contentMemo`, per content: a request rebuilt from JSON reuses the hashes of the messages it
 * repeats).
 *
 * The hash is 64 bits in two 32-bit lanes, each a multiply-rotate stream over 32-bit words (two
 * UTF-16 code units per word), finished with MurmurHash3's 64-bit mix. Every step is a bijection
 * of the lane state, so two inputs of the same shape that differ in a single word never collide.
 * Not cryptographic: it guards against accidents (an edited or branched history), not attackers
 * who can write into the conversation and the store.
 */
interface Digest {
  readonly high: number;
  readonly low: number;
}

const memo = new WeakMap<object, Digest>();

/** Hash of one message's role and content (16 hex digits). */
export function hashMessage(message: Message): string {
  return hex(digestMessage(message));
}

/** Hash of a list of messages: their count and each message's hash, in order (16 hex digits). */
export function hashMessages(messages: readonly Message[]): string {
  const hasher = new Hasher();
  hasher.word(Tag.List);
  hasher.word(messages.length);
  for (const message of messages) {
    const digest = digestMessage(message);
    hasher.word(digest.high);
    hasher.word(digest.low);
  }
  return hex(hasher.digest());
}

/**
 * Hash of a list of strings (16 hex digits), with the same stream hash as the messages: each
 * string's length, then its code units. `seed` keeps independent uses apart (two seeds give two
 * independent 64-bit hashes of the same strings). Deterministic across processes and platforms.
 */
export function hashStrings(strings: readonly string[], seed = 0): string {
  const hasher = new Hasher();
  hasher.word(Tag.List);
  hasher.word(seed);
  hasher.word(strings.length);
  for (const text of strings) hasher.string(text);
  return hex(hasher.digest());
}

function digestMessage(message: Message): Digest {
  // A message the conversation memo recognized shares its content's memo with the equal messages
  // of earlier requests (see `recognizeMessages`); any other is memoised by identity.
  const shared = contentMemo(message);
  const known = shared === undefined ? memo.get(message) : shared.digest;
  if (known !== undefined) return known;
  const hasher = new Hasher();
  hasher.word(Tag.Message);
  if (typeof message === 'object' && message !== null) {
    feed(hasher, message.role, 0);
    feed(hasher, message.content, 0);
  }
  const digest = hasher.digest();
  if (shared !== undefined) shared.digest = digest;
  else if (typeof message === 'object' && message !== null) memo.set(message, digest);
  return digest;
}

/** Values deeper than this are not hashed. */
const MAX_DEPTH = 32;

/** Type tags: keep values of different types apart ("1" vs 1, [] vs {}). */
const Tag = {
  List: 0x4c495354,
  Message: 0x4d455347,
  Null: 1,
  Undefined: 2,
  String: 3,
  Number: 4,
  True: 5,
  False: 6,
  BigInt: 7,
  Bytes: 8,
  Url: 9,
  Date: 10,
  Array: 11,
  Object: 12,
} as const;

const float = new Float64Array(1);
const floatWords = new Int32Array(float.buffer);

function feed(hasher: Hasher, value: unknown, depth: number): void {
  if (depth > MAX_DEPTH) return;
  switch (typeof value) {
    case 'string':
      hasher.word(Tag.String);
      hasher.string(value);
      return;
    case 'number':
      hasher.word(Tag.Number);
      // -0 as 0 and every NaN alike, as JSON and `===` see them.
      float[0] = value === 0 ? 0 : Number.isNaN(value) ? Number.NaN : value;
      hasher.word(floatWords[0]!);
      hasher.word(floatWords[1]!);
      return;
    case 'boolean':
      hasher.word(value ? Tag.True : Tag.False);
      return;
    case 'bigint':
      hasher.word(Tag.BigInt);
      hasher.string(value.toString());
      return;
    case 'undefined':
      hasher.word(Tag.Undefined);
      return;
    case 'object':
      break;
    default:
      return;
  }
  if (value === null) {
    hasher.word(Tag.Null);
  } else if (Array.isArray(value)) {
    hasher.word(Tag.Array);
    hasher.word(value.length);
    for (const item of value) feed(hasher, item, depth + 1);
  } else if (value instanceof Uint8Array) {
    hasher.word(Tag.Bytes);
    hasher.bytes(value);
  } else if (value instanceof ArrayBuffer) {
    hasher.word(Tag.Bytes);
    hasher.bytes(new Uint8Array(value));
  } else if (value instanceof URL) {
    hasher.word(Tag.Url);
    hasher.string(value.href);
  } else if (value instanceof Date) {
    hasher.word(Tag.Date);
    feed(hasher, value.getTime(), depth + 1);
  } else {
    const record = value as Record<string, unknown>;
    const keys: string[] = [];
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (item !== undefined && typeof item !== 'function') keys.push(key);
    }
    // Sorted, so that key order (which a database may change) does not matter.
    keys.sort();
    hasher.word(Tag.Object);
    hasher.word(keys.length);
    for (const key of keys) {
      hasher.string(key);
      feed(hasher, record[key], depth + 1);
    }
  }
}

const MULTIPLIER_HIGH = 0x9e3779b1;
const MULTIPLIER_LOW = 0x85ebca77;

/** The two-lane streaming hash. */
class Hasher {
  #high = 0x243f6a88;
  #low = 0x85a308d3;

  /** Feeds one 32-bit word. */
  word(value: number): void {
    const high = Math.imul(this.#high ^ value, MULTIPLIER_HIGH);
    const low = Math.imul(this.#low ^ value, MULTIPLIER_LOW);
    this.#high = (high << 15) | (high >>> 17);
    this.#low = (low << 13) | (low >>> 19);
  }

  /** Feeds a string: its length, then its UTF-16 code units two per word. */
  string(text: string): void {
    const length = text.length;
    let high = Math.imul(this.#high ^ length, MULTIPLIER_HIGH);
    let low = Math.imul(this.#low ^ length, MULTIPLIER_LOW);
    high = (high << 15) | (high >>> 17);
    low = (low << 13) | (low >>> 19);
    const pairs = length - (length & 1);
    for (let index = 0; index < pairs; index += 2) {
      const value = text.charCodeAt(index) | (text.charCodeAt(index + 1) << 16);
      high = Math.imul(high ^ value, MULTIPLIER_HIGH);
      low = Math.imul(low ^ value, MULTIPLIER_LOW);
      high = (high << 15) | (high >>> 17);
      low = (low << 13) | (low >>> 19);
    }
    if (pairs < length) {
      const value = text.charCodeAt(pairs);
      high = Math.imul(high ^ value, MULTIPLIER_HIGH);
      low = Math.imul(low ^ value, MULTIPLIER_LOW);
      high = (high << 15) | (high >>> 17);
      low = (low << 13) | (low >>> 19);
    }
    this.#high = high;
    this.#low = low;
  }

  /** Feeds bytes: their length, then four per word (little-endian, on every platform). */
  bytes(data: Uint8Array): void {
    const length = data.length;
    this.word(length);
    let high = this.#high;
    let low = this.#low;
    const words = length - (length & 3);
    for (let index = 0; index < words; index += 4) {
      const value =
        data[index]! | (data[index + 1]! << 8) | (data[index + 2]! << 16) | (data[index + 3]! << 24);
      high = Math.imul(high ^ value, MULTIPLIER_HIGH);
      low = Math.imul(low ^ value, MULTIPLIER_LOW);
      high = (high << 15) | (high >>> 17);
      low = (low << 13) | (low >>> 19);
    }
    for (let index = words; index < length; index++) {
      high = Math.imul(high ^ data[index]!, MULTIPLIER_HIGH);
      low = Math.imul(low ^ data[index]!, MULTIPLIER_LOW);
      high = (high << 15) | (high >>> 17);
      low = (low << 13) | (low >>> 19);
    }
    this.#high = high;
    this.#low = low;
  }

  /** The 64-bit result: MurmurHash3's finalization, mixing the lanes into each other. */
  digest(): Digest {
    let high = this.#high;
    let low = this.#low;
    high = (high + low) | 0;
    low = (low + high) | 0;
    high = mix(high);
    low = mix(low);
    high = (high + low) | 0;
    low = (low + high) | 0;
    return { high: high >>> 0, low: low >>> 0 };
  }
}

/** MurmurHash3's 32-bit finalizer (a bijection that spreads every bit over the word). */
function mix(value: number): number {
  let hash = value;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash;
}

function hex(digest: Digest): string {
  return digest.high.toString(16).padStart(8, '0') + digest.low.toString(16).padStart(8, '0');
}
