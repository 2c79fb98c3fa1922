import { InvalidConfigError } from '../errors/invalid-config-error';
import { refAnnotation } from '../recall/recall-ref';
import { headEnd, headTailCut, safeEnd } from './cut-points';

/**
 * How `truncateText` shortens a text:
 * - `'head'` keeps the beginning and appends
 *   `\n\n[... content truncated, showing first {kept} characters of {total} total ...]`
 *   (seed FEAT-011, the storage-time format);
 * - `'head-tail'` keeps the beginning and the end with
 *   `\n\n... [truncated: {removed} chars removed] ...\n\n` between them (seed Strands #1545).
 */
export type TruncateMode = 'head' | 'head-tail';

/** Options of {@link truncateText}. */
export interface TruncateTextOptions {
  /**
   * The longest output allowed, in UTF-16 code units (what `string.length` counts), marker included.
   * An integer; `Infinity` means no limit; `0` or less (or `-Infinity`) gives `''`.
   */
  maxChars: number;
  /**
   * Which part of the text to keep.
   * @default 'head-tail'
   */
  mode?: TruncateMode;
  /**
   * In `'head-tail'` mode, the share (0 to 1) of the kept characters that goes to the head; the tail
   * gets the rest.
   * @default 0.5
   */
  headRatio?: number;
  /**
   * How far (in characters) to look for a line break near a cut point, so that the head ends and
   * the tail starts on a line boundary. Never more than a fifth of the kept part is given up for
   * this, and the search is bounded, so a 10 MB single-line text costs nothing extra. `0` turns it off.
   * @default 200
   */
  lineWindow?: number;
  /**
   * A reference to the original (see `spillway_recall`): when given, the marker is followed by
   * `[ref={ref} offset={n}]`, where `n` is the character of the original at which the cut begins
   * (head mode: on the line after the marker; head-tail mode: after the marker's blank line,
   * followed by another). The seed's marker text stays as it is, and the whole still fits `maxChars`.
   * @default undefined (no reference)
   */
  ref?: string;
}

/**
 * Shortens `text` to at most `maxChars` UTF-16 code units, marker included, with an exact marker
 * saying what was removed (see {@link TruncateMode}).
 *
 * - A text no longer than `maxChars` is returned unchanged (the same string).
 * - Never splits a surrogate pair: the output has no lone surrogate the input did not have.
 * - Prefers to cut at a line break within `lineWindow` characters of the cut point.
 * - When not even the marker fits in `maxChars` (tiny limits), the result is a plain prefix of the
 *   text, cut without a marker.
 * - Costs O(kept characters): the part that is dropped is never scanned.
 *
 * @throws {InvalidConfigError} when `maxChars` is NaN or a non-integer finite number, `mode` is unknown,
 * `headRatio` is outside 0..1 or `lineWindow` is not a non-negative integer.
 * @throws {TypeError} when `text` is not a string.
 */
export function truncateText(
  text: string,
  { maxChars, mode = 'head-tail', headRatio = 0.5, lineWindow = 200, ref }: TruncateTextOptions,
): string {
  if (typeof text !== 'string') {
    throw new TypeError(`truncateText expects a string, got ${text === null ? 'null' : typeof text}`);
  }
  if (
    typeof maxChars !== 'number' ||
    Number.isNaN(maxChars) ||
    !(Number.isInteger(maxChars) || !Number.isFinite(maxChars))
  ) {
    throw new InvalidConfigError({
      option: 'maxChars',
      value: maxChars,
      message: 'expected an integer number of characters (or Infinity for no limit)',
    });
  }
  if (mode !== 'head' && mode !== 'head-tail') {
    throw new InvalidConfigError({ option: 'mode', value: mode, message: "expected 'head' or 'head-tail'" });
  }
  if (typeof headRatio !== 'number' || !(headRatio >= 0 && headRatio <= 1)) {
    throw new InvalidConfigError({
      option: 'headRatio',
      value: headRatio,
      message: 'expected a number from 0 to 1',
    });
  }
  if (typeof lineWindow !== 'number' || !Number.isInteger(lineWindow) || lineWindow < 0) {
    throw new InvalidConfigError({
      option: 'lineWindow',
      value: lineWindow,
      message: 'expected a non-negative integer',
    });
  }

  if (ref !== undefined && typeof ref !== 'string') {
    throw new InvalidConfigError({ option: 'ref', value: ref, message: 'expected a string' });
  }

  if (maxChars <= 0) return '';
  const total = text.length;
  if (total <= maxChars) return text;

  // The marker's length depends on the numbers it shows, which depend on the cut. A first, safe
  // budget assumes the longest numbers possible; a second one, the numbers of the first; the
  // second is used when the result fits (nearly always), so the output uses all of `maxChars`.
  if (mode === 'head') {
    const marker = (kept: number) =>
      headMarker(kept, total) + (ref === undefined ? '' : `\n${refAnnotation(ref, kept)}`);
    const safeBudget = maxChars - marker(maxChars).length;
    if (safeBudget < 1) return text.slice(0, safeEnd(text, maxChars));
    let end = headEnd(text, maxChars - marker(safeBudget).length, lineWindow);
    if (end + marker(end).length > maxChars) end = headEnd(text, safeBudget, lineWindow);
    return text.slice(0, end) + marker(end);
  }

  const marker = (removed: number, offset: number) =>
    headTailMarker(removed) + (ref === undefined ? '' : `${refAnnotation(ref, offset)}\n\n`);
  const safeAvailable = maxChars - marker(total, total).length;
  if (safeAvailable < 1) return text.slice(0, safeEnd(text, maxChars));
  let cut = headTailCut(
    text,
    maxChars - marker(total - safeAvailable, safeAvailable).length,
    headRatio,
    lineWindow,
  );
  if (cut.end + (total - cut.start) + marker(cut.start - cut.end, cut.end).length > maxChars) {
    cut = headTailCut(text, safeAvailable, headRatio, lineWindow);
  }
  return text.slice(0, cut.end) + marker(cut.start - cut.end, cut.end) + text.slice(cut.start);
}

/** The marker of head mode (seed FEAT-011, exact). */
function headMarker(kept: number, total: number): string {
  return `\n\n[... content truncated, showing first ${kept} characters of ${total} total ...]`;
}

/** The marker of head+tail mode (seed Strands #1545, exact). */
function headTailMarker(removed: number): string {
  return `\n\n... [truncated: ${removed} chars removed] ...\n\n`;
}
