/** Random bytes in a reference: 128 bits, so a reference cannot be guessed. */
const REF_BYTES = 16;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * A new unguessable reference for cut material: 128 random bits from the Web Crypto API
 * (`crypto.getRandomValues`, in Node, browsers and edge runtimes alike), written as 22 base64url
 * characters, e.g. `Vq3W0r-hXk2s9bZc1fT8aA`.
 */
export function createRecallRef(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(REF_BYTES));
  let ref = '';
  // 16 bytes = 5 groups of 3 bytes (4 characters each) + 1 byte (2 characters), no padding.
  for (let index = 0; index + 2 < bytes.length; index += 3) {
    const group =
      ((bytes[index] as number) << 16) | ((bytes[index + 1] as number) << 8) | (bytes[index + 2] as number);
    ref +=
      ALPHABET[(group >> 18) & 63] +
      (ALPHABET[(group >> 12) & 63] as string) +
      (ALPHABET[(group >> 6) & 63] as string) +
      (ALPHABET[group & 63] as string);
  }
  const last = bytes[REF_BYTES - 1] as number;
  return ref + (ALPHABET[last >> 2] as string) + (ALPHABET[(last & 3) << 4] as string);
}
