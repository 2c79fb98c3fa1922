import { salientIdentifiers } from '../summarize/salient-identifiers';
import { truncateText } from './truncate-text';

/** The most characters the line naming what a cut removed may take, line break and brackets included. */
export const CUT_MENTIONS_MAX_CHARS = 160;
/** The most identifiers that line names. */
const CUT_MENTIONS_MAX_COUNT = 8;
/** A line that names fewer characters of identifiers than this is not written. */
const CUT_MENTIONS_MIN_CHARS = 12;
const OPENING = '\n(the cut part mentioned ';
const CLOSING = ')';

/** Options of {@link headTailPreview}. */
export interface HeadTailPreviewOptions {
  /** The longest output, in UTF-16 code units, marker and the line of identifiers included. */
  maxChars: number;
  /**
   * Share of the kept characters that goes to the head.
   * @default 0.5
   */
  headRatio?: number;
  /** A reference to the original, written after the marker (see `truncateText`). */
  ref?: string | undefined;
  /**
   * Whether to end the preview with the identifiers the cut part mentioned (paths, ids, URLs, error
   * codes; see `salientIdentifiers`): `\n(the cut part mentioned a, b, c)`. The line takes at most a
   * quarter of `maxChars` and `CUT_MENTIONS_MAX_CHARS`, out of `maxChars` (the preview keeps that
   * much less of the text).
   * @default true
   */
  mentions?: boolean;
}

/**
 * The head and tail of `text` within `maxChars` (`truncateText`'s head-tail marker, with the
 * reference), followed — when the cut part mentioned identifiers — by a line naming them, so that a
 * preview, like a stub, still says which ids, paths and error codes the result held. A text within
 * `maxChars` is returned unchanged. Costs O(text) when it names the cut part's identifiers (it reads
 * the cut part once or twice), O(kept characters) otherwise.
 */
export function headTailPreview(
  text: string,
  { maxChars, headRatio = 0.5, ref, mentions = true }: HeadTailPreviewOptions,
): string {
  const cut = (chars: number) =>
    truncateText(text, { maxChars: chars, mode: 'head-tail', headRatio, ...(ref ? { ref } : {}) });
  const kept = cut(maxChars);
  if (!mentions || kept === text) return kept;
  const room = Math.min(CUT_MENTIONS_MAX_CHARS, Math.floor(maxChars / 4)) - OPENING.length - CLOSING.length;
  if (room < CUT_MENTIONS_MIN_CHARS) return kept;
  const first = salientIdentifiers(cutPart(text, kept), { maxCount: CUT_MENTIONS_MAX_COUNT, maxChars: room });
  if (first.length === 0) return kept;
  // The line is paid for out of the preview: cut again, shorter by the line, and name what that cut
  // removed (a superset of the first cut, in as many characters).
  const listed = first.join(', ');
  const shorter = cut(maxChars - OPENING.length - listed.length - CLOSING.length);
  const found = salientIdentifiers(cutPart(text, shorter), {
    maxCount: CUT_MENTIONS_MAX_COUNT,
    maxChars: listed.length,
  });
  return found.length > 0 ? `${shorter}${OPENING}${found.join(', ')}${CLOSING}` : shorter;
}

/** The characters of `text` that `kept` (its head, a marker, its tail) left out. */
function cutPart(text: string, kept: string): string {
  let head = 0;
  while (head < kept.length && kept[head] === text[head]) head++;
  let tail = 0;
  while (tail < kept.length - head && kept[kept.length - 1 - tail] === text[text.length - 1 - tail]) tail++;
  return text.slice(head, text.length - tail);
}
