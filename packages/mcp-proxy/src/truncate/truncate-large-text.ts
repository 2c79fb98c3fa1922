import { cutPoints } from '@spillway/core';
import type { LargeText } from '../large-text/large-text';

/** How far past the kept characters `cutPoints` may look (its line window of 200, and a margin). */
const CUT_POINT_REACH = 256;

/** Options of {@link truncateLargeText}. */
export interface TruncateLargeTextOptions {
  /** The longest output allowed, in UTF-16 code units, marker included (an integer). */
  maxChars: number;
  /** The share (0 to 1) of the kept characters that goes to the head. */
  headRatio: number;
}

/**
 * `@spillway/core`'s `truncateText(text.toString(), { maxChars, mode: 'head-tail', headRatio })` for a
 * large text, without joining it: the cut points depend only on the characters near them, so they
 * are found in the text's head and tail side by side, and only the kept parts are sliced. The output
 * is the same string (a property test compares them).
 */
export function truncateLargeText(
  text: LargeText,
  { maxChars, headRatio }: TruncateLargeTextOptions,
): string {
  const total = text.length;
  if (maxChars <= 0) return '';
  if (total <= maxChars) return text.toString();
  // truncateText's head-tail marker (seed Strands #1545), exactly.
  const marker = (removed: number) => `\n\n... [truncated: ${removed} chars removed] ...\n\n`;
  const safeAvailable = maxChars - marker(total).length;
  if (safeAvailable < 1) {
    // Not even the marker fits: a plain prefix, never splitting a surrogate pair.
    const prefix = text.slice(0, maxChars + 1);
    return prefix.slice(0, cutPoints(prefix, { keepChars: maxChars, headRatio: 1, lineWindow: 0 }).headEnd);
  }
  const cut = (available: number) => {
    const reach = available + CUT_POINT_REACH;
    if (2 * reach >= total) return cutPoints(text.toString(), { keepChars: available, headRatio });
    const probe = text.slice(0, reach) + text.slice(total - reach);
    const points = cutPoints(probe, { keepChars: available, headRatio });
    return { headEnd: points.headEnd, tailStart: points.tailStart + (total - probe.length) };
  };
  let points = cut(maxChars - marker(total - safeAvailable).length);
  if (
    points.headEnd + (total - points.tailStart) + marker(points.tailStart - points.headEnd).length >
    maxChars
  ) {
    points = cut(safeAvailable);
  }
  return (
    text.slice(0, points.headEnd) + marker(points.tailStart - points.headEnd) + text.slice(points.tailStart)
  );
}
