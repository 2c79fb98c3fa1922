import { LRUCache } from 'lru-cache';
import type { Message } from '../message/message';

/**
 * Content hashes of messages, for checking that a stored summary still covers the same prefix.
 * Deterministic across processes (so a shared store works), independent of object key order (a
 * database may reorder JSON keys), and memoised per message object.
 */
const memo = new WeakMap<object, string>();

/** Hash of one message's role and content. */
export function hashMessage(message: Message): string {
  const cached = memo.get(message);
  if (cached !== undefined) return cached;
  const hasher = new StreamingHash();
  hasher.update(message.role);
  feed(hasher, message.content, 0);
  const hash = hasher.digest();
  memo.set(message, hash);
  return hash;
}

/** Hash of a list of messages: their count and each message's hash, in order. */
export function hashMessages(messages: readonly Message[]): string {
  const hasher = new StreamingHash();
  hasher.update(String(messages.length));
  for (const message of messages) hasher.update(hashMessage(message));
  return hasher.digest();
}

const MAX_DEPTH = 32;
/** Strings this long are hashed once and fed to the message hash as their digest. */
const DIGESTED_STRING_MIN_CHARS = 256;
/**
 * Digests of long strings by content, so that a request carrying the same tool results in new
 * objects does not hash them again (bounded: 4 M characters of keys).
 */
const stringDigests = new LRUCache<string, string>({
  maxSize: 4_000_000,
  sizeCalculation: (_digest, text) => text.length,
});

function digestOf(text: string): string {
  const known = stringDigests.get(text);
  if (known !== undefined) return known;
  const hasher = new StreamingHash();
  hasher.update(text);
  const digest = hasher.digest();
  if (text.length <= 4_000_000) stringDigests.set(text, digest);
  return digest;
}

function feed(hasher: StreamingHash, value: unknown, depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (value === null || value === undefined) {
    hasher.update(value === null ? '\u0000n' : '\u0000u');
  } else if (typeof value === 'string') {
    if (value.length >= DIGESTED_STRING_MIN_CHARS) {
      hasher.update('\u0000S');
      hasher.update(digestOf(value));
    } else {
      hasher.update('\u0000s');
      hasher.update(value);
    }
  } else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    hasher.update(`\u0000${typeof value}${String(value)}`);
  } else if (value instanceof Uint8Array) {
    hasher.update(`\u0000b${value.length}`);
    hasher.updateBytes(value);
  } else if (value instanceof ArrayBuffer) {
    hasher.update(`\u0000b${value.byteLength}`);
    hasher.updateBytes(new Uint8Array(value));
  } else if (value instanceof URL) {
    hasher.update(`\u0000l${value.href}`);
  } else if (value instanceof Date) {
    hasher.update(`\u0000d${value.toISOString()}`);
  } else if (Array.isArray(value)) {
    hasher.update(`\u0000a${value.length}`);
    for (const item of value) feed(hasher, item, depth + 1);
  } else if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined && typeof record[key] !== 'function')
      .sort();
    hasher.update(`\u0000o${keys.length}`);
    for (const key of keys) {
      hasher.update(key);
      feed(hasher, record[key], depth + 1);
    }
  }
}

/** A 64-bit streaming hash (two 32-bit lanes, cyrb53-style mixing). Not cryptographic. */
class StreamingHash {
  #h1 = 0xdeadbeef;
  #h2 = 0x41c6ce57;

  update(text: string): void {
    let h1 = this.#h1;
    let h2 = this.#h2;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      h1 = Math.imul(h1 ^ code, 2654435761);
      h2 = Math.imul(h2 ^ code, 1597334677);
    }
    // Separate consecutive strings so ("ab", "c") and ("a", "bc") differ.
    h1 = Math.imul(h1 ^ text.length, 2246822507);
    h2 = Math.imul(h2 ^ text.length, 3266489909);
    this.#h1 = h1;
    this.#h2 = h2;
  }

  updateBytes(bytes: Uint8Array): void {
    let h1 = this.#h1;
    let h2 = this.#h2;
    for (let index = 0; index < bytes.length; index++) {
      const byte = bytes[index]!;
      h1 = Math.imul(h1 ^ byte, 2654435761);
      h2 = Math.imul(h2 ^ byte, 1597334677);
    }
    this.#h1 = h1;
    this.#h2 = h2;
  }

  digest(): string {
    let h1 = this.#h1;
    let h2 = this.#h2;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
  }
}
