/**
 * A 32-bit hash of `text` (FNV-1a over UTF-16 code units, then an avalanche step), mixed with
 * `seed`. Deterministic on every platform; used where a decision must depend only on content.
 */
export function hashText(text: string, seed = 0): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** {@link hashText} as a number in [0, 1). */
export function hashUnit(text: string, seed = 0): number {
  return hashText(text, seed) / 4294967296;
}
