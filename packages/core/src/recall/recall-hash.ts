import { LRUCache } from 'lru-cache';
import { hashStrings } from '../compact/hash-messages';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Texts at least this long have their fingerprints remembered (by content). */
const REMEMBERED_MIN_CHARS = 512;

const fingerprints = new LRUCache<string, string>({
  // Characters of remembered texts, in all: the texts themselves are held by the conversation.
  maxSize: 32_000_000,
  sizeCalculation: (_value, key) => Math.max(1, key.length),
});

/**
 * The fingerprint of a text: two independent 64-bit stream hashes (32 hex digits). Long texts are
 * remembered by content (least recently used forgotten first), so a request that repeats a 1 MB tool
 * result in a new string costs one native comparison, not a rehash.
 */
export function textFingerprint(text: string): string {
  if (text.length < REMEMBERED_MIN_CHARS) return hashStrings([text], 1) + hashStrings([text], 2);
  const known = fingerprints.get(text);
  if (known !== undefined) return known;
  const computed = hashStrings([text], 1) + hashStrings([text], 2);
  fingerprints.set(text, computed);
  return computed;
}

/**
 * A keyed code of `fields` under `key`: `length` characters of [A-Za-z0-9] (about 5.95 bits each)
 * from two independent 64-bit hashes of the key and the fields (each field length-prefixed, so
 * no two lists of fields read the same). Deterministic: the same key and fields give the same code
 * in every process. Not cryptographic; what keeps a code from being guessed is that one of the
 * fields is the fingerprint of the material it names.
 */
export function keyedCode(key: string, fields: readonly string[], length: number): string {
  const input = [key, ...fields];
  const hex = hashStrings(input, 3) + hashStrings(input, 4);
  let code = '';
  // 6 bits per character from the 128-bit hex string (21 characters at most).
  for (let index = 0; index < length; index++) {
    const bit = index * 6;
    const word = Number.parseInt(hex.slice(Math.floor(bit / 4), Math.floor(bit / 4) + 3), 16);
    const value = (word >> (12 - 6 - (bit % 4))) & 63;
    code += ALPHABET[value % 62];
  }
  return code;
}
