import { randomBytes } from 'node:crypto';
import { LargeText, type TextValue } from '../large-text/large-text';

/**
 * `JSON.stringify(value)` (`''` when it gives `undefined`), except that a value holding large texts
 * (read in pieces) gives a large text whose pieces are the JSON around them and each large text's
 * pieces, escaped one by one: the large text is never joined, and the serialized form is in memory
 * once. The characters are `JSON.stringify`'s.
 */
export function jsonText(value: unknown): TextValue {
  if (LargeText.created === 0) return JSON.stringify(value) ?? '';
  const found: LargeText[] = [];
  const prefix = `\u0000spillway-json:${randomBytes(6).toString('hex')}:`;
  const stand = withPlaceholders(value, prefix, found, new Set());
  const json = JSON.stringify(stand) ?? '';
  if (found.length === 0) return json;
  // Each placeholder is written as a JSON string: `"\u0000spillway-json:…:n"`.
  const written = JSON.stringify(prefix).slice(1, -1);
  const parts: string[] = [];
  let position = 0;
  for (let index = 0; index < found.length; index++) {
    const placeholder = `"${written}${index}"`;
    const at = json.indexOf(placeholder, position);
    if (at === -1) return (JSON.stringify(value) ?? '') as string;
    parts.push(json.slice(position, at + 1));
    parts.push(...escapedPieces((found[index] as LargeText).parts()));
    position = at + placeholder.length - 1;
  }
  parts.push(json.slice(position));
  return new LargeText(parts);
}

/** A copy of `value`'s structure with each large text replaced by a numbered placeholder string. */
function withPlaceholders(value: unknown, prefix: string, found: LargeText[], seen: Set<object>): unknown {
  if (LargeText.isInstance(value)) {
    found.push(value);
    return `${prefix}${found.length - 1}`;
  }
  if (value === null || typeof value !== 'object' || seen.has(value)) return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  seen.add(value);
  const copy: unknown = Array.isArray(value)
    ? value.map((item) => withPlaceholders(item, prefix, found, seen))
    : Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, withPlaceholders(item, prefix, found, seen)]),
      );
  seen.delete(value);
  return copy;
}

/** Each piece as written inside a JSON string; a surrogate pair split between two pieces is kept whole. */
function escapedPieces(pieces: readonly string[]): string[] {
  const escaped: string[] = [];
  let carry = '';
  for (const [index, piece] of pieces.entries()) {
    let text = carry + piece;
    carry = '';
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff && index < pieces.length - 1) {
      carry = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (text !== '') escaped.push(JSON.stringify(text).slice(1, -1));
  }
  return escaped;
}
