/**
 * Base64 helpers for reading image headers and file sizes without Node APIs (`atob` exists in
 * browsers, edge runtimes and Node ≥ 16).
 */

/**
 * Decodes the first `maximumChars` characters of base64 text (standard or URL-safe alphabet;
 * whitespace ignored) into bytes. Returns `undefined` when the text is not base64.
 */
export function decodeBase64Prefix(
  base64: string,
  maximumChars = Number.POSITIVE_INFINITY,
): Uint8Array | undefined {
  const limited =
    base64.length > maximumChars * 1.25 ? base64.slice(0, Math.ceil(maximumChars * 1.25)) : base64;
  let text = /\s/.test(limited) ? limited.replace(/\s+/g, '') : limited;
  if (text.includes('-') || text.includes('_')) text = text.replace(/-/g, '+').replace(/_/g, '/');
  const truncated = limited.length < base64.length || text.length > maximumChars;
  if (truncated) {
    const length = Math.min(text.length, maximumChars);
    text = text.slice(0, length - (length % 4));
  } else {
    text = text.replace(/=+$/, '');
    const remainder = text.length % 4;
    if (remainder === 1) text = text.slice(0, -1);
    else if (remainder > 1) text += '='.repeat(4 - remainder);
  }
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** The number of bytes base64 text decodes to (whitespace and padding ignored), without decoding it. */
export function base64ByteLength(base64: string): number {
  let length = base64.length;
  let whitespace = 0;
  // Counting whitespace is a cheap scan; base64 from most sources has none or only line breaks.
  for (let index = 0; index < length; index++) {
    const code = base64.charCodeAt(index);
    if (code === 10 || code === 13 || code === 32 || code === 9) whitespace++;
  }
  length -= whitespace;
  let end = base64.length - 1;
  while (end >= 0 && (base64.charCodeAt(end) === 61 || base64.charCodeAt(end) <= 32)) {
    if (base64.charCodeAt(end) === 61) length--;
    end--;
  }
  return Math.floor((length * 3) / 4);
}

/** The parts of a `data:` URL: its media type, and its payload as base64 text or as bytes. */
export interface DataUrl {
  readonly mediaType: string | undefined;
  /** The payload when the URL is base64-encoded. */
  readonly base64?: string;
  /** The payload when the URL is percent-encoded text (e.g. an SVG). */
  readonly bytes?: Uint8Array;
}

/** Splits a `data:` URL; `undefined` when `url` is not one. */
export function parseDataUrl(url: string): DataUrl | undefined {
  if (!url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  if (comma === -1) return undefined;
  const header = url.slice(5, comma);
  const parameters = header.split(';');
  const mediaType = parameters[0] || undefined;
  if (parameters.includes('base64')) return { mediaType, base64: url.slice(comma + 1) };
  let text: string;
  try {
    text = decodeURIComponent(url.slice(comma + 1));
  } catch {
    text = url.slice(comma + 1);
  }
  return { mediaType, bytes: new TextEncoder().encode(text) };
}
