import { extractRecallRef } from './extract-recall-ref';

/**
 * The references Spillway writes where it cut something, and how they read:
 *
 * - `t.` + 12 characters: a tool result's text (one text part of one result). The first 4
 *   characters name the result (its tool-call id and part), the last 8 the text itself.
 * - `i.` + 12 characters: an image or file that became a placeholder.
 * - `s.{from}-{to}.` + 12 characters: a span of conversation messages (counted without system
 *   messages, from 0, `to` excluded) that a summary stands for or that was dropped.
 *
 * Every code is keyed by the conversation (its first message and a secret) and by a fingerprint of
 * the material, so the same cut gives the same reference on every call, and a reference resolves
 * only in the conversation that holds that material.
 */
export type RecallRef =
  | { readonly kind: 'tool-result'; readonly ref: string; readonly locator: string; readonly code: string }
  | { readonly kind: 'image'; readonly ref: string; readonly code: string }
  | {
      readonly kind: 'span';
      readonly ref: string;
      readonly from: number;
      readonly to: number;
      readonly code: string;
    };

/** Characters of a tool-result reference's locator (names the result, cheap to recompute). */
export const LOCATOR_CHARS = 4;
/** Characters of a reference's content code. */
export const CODE_CHARS = 12;

const PATTERN = /^(?:t\.([A-Za-z0-9]{12})|i\.([A-Za-z0-9]{12})|s\.(\d{1,9})-(\d{1,9})\.([A-Za-z0-9]{12}))$/;

/**
 * A pattern that finds Spillway's references in text (for tools and tests that look for them).
 * Global; reset `lastIndex` or use `matchAll`.
 */
export const RECALL_REF_PATTERN =
  /\b(?:t\.[A-Za-z0-9]{12}|i\.[A-Za-z0-9]{12}|s\.\d{1,9}-\d{1,9}\.[A-Za-z0-9]{12})\b/g;

/**
 * Reads a reference; `undefined` when `ref` holds none Spillway writes. Read leniently, in every form
 * a marker prints it (`[ref=t.…]`, `ref=t.… offset=…`, quoted, a whole marker line: see
 * `extractRecallRef`).
 */
export function parseRecallRef(value: string): RecallRef | undefined {
  if (typeof value !== 'string') return undefined;
  const { ref } = extractRecallRef(value);
  const match = PATTERN.exec(ref);
  if (match === null) return undefined;
  if (match[1] !== undefined) {
    return { kind: 'tool-result', ref, locator: match[1].slice(0, LOCATOR_CHARS), code: match[1] };
  }
  if (match[2] !== undefined) return { kind: 'image', ref, code: match[2] };
  const from = Number(match[3]);
  const to = Number(match[4]);
  if (!(from < to)) return undefined;
  return { kind: 'span', ref, from, to, code: match[5]! };
}

/**
 * The annotation written next to a cut: `[ref=t.Ab12Cd34Ef56 offset=1000]` (where in the original
 * the cut text starts) or `[ref=i.Ab12Cd34Ef56]`.
 */
export function refAnnotation(ref: string, offset?: number): string {
  return offset === undefined ? `[ref=${ref}]` : `[ref=${ref} offset=${offset}]`;
}
