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
    if (text !== '') escapeInto(text, escaped);
  }
  return escaped;
}

/** What `JSON.stringify` escapes in a string (and surrogates, escaped when lone). */
const SPECIAL = /["\\\u0000-\u001f\ud800-\udfff]/g;
/** Escapes per character from which a piece is escaped as one copy rather than kept as slices. */
const MAX_ESCAPE_DENSITY = 1 / 64;

/**
 * `JSON.stringify(text).slice(1, -1)`, appended to `parts`: where escapes are rare, as slices of
 * `text` (which share its memory) around the escaped characters, so that a large text's JSON costs
 * little beyond the text itself; else as one escaped copy.
 */
function escapeInto(text: string, parts: string[]): void {
  const matches = [...text.matchAll(SPECIAL)];
  if (matches.length === 0) {
    parts.push(text);
    return;
  }
  if (matches.length > text.length * MAX_ESCAPE_DENSITY) {
    parts.push(JSON.stringify(text).slice(1, -1));
    return;
  }
  let position = 0;
  for (const match of matches) {
    const index = match.index;
    if (index < position) continue;
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) continue; // a pair: written as is
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      const previous = text.charCodeAt(index - 1);
      if (index > 0 && previous >= 0xd800 && previous <= 0xdbff) continue;
    }
    if (index > position) parts.push(text.slice(position, index));
    parts.push(JSON.stringify(text[index]).slice(1, -1));
    position = index + 1;
  }
  if (position < text.length) parts.push(text.slice(position));
}
