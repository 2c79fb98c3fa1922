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
  if (!mentions || text.length <= maxChars) {
    return truncateText(text, { maxChars, mode: 'head-tail', headRatio, ...(ref ? { ref } : {}) });
  }
  // A preview cut again (a turn shrunk step by step) keeps the identifiers it named, first.
  const earlier = MENTIONS_LINE.exec(text);
  const body = earlier === null ? text : text.slice(0, earlier.index);
  const named = earlier === null ? [] : earlier[1]!.split(', ');
  const cut = (chars: number) =>
    truncateText(body, { maxChars: chars, mode: 'head-tail', headRatio, ...(ref ? { ref } : {}) });
  const kept = cut(maxChars);
  const room = Math.min(CUT_MENTIONS_MAX_CHARS, Math.floor(maxChars / 4)) - OPENING.length - CLOSING.length;
  if (room < CUT_MENTIONS_MIN_CHARS) return kept;
  const listFor = (kept: string, chars: number) =>
    joinWithin(
      [
        ...named,
        ...salientIdentifiers(cutPart(body, kept), { maxCount: CUT_MENTIONS_MAX_COUNT, maxChars: chars }),
      ],
      chars,
    );
  const first = listFor(kept, room);
  if (first === '') return kept;
  // The line is paid for out of the preview: cut again, shorter by the line, and name what that cut
  // removed (a superset of the first cut, in as many characters).
  const shorter = cut(maxChars - OPENING.length - first.length - CLOSING.length);
  const listed = listFor(shorter, first.length);
  return listed === '' ? shorter : `${shorter}${OPENING}${listed}${CLOSING}`;
}

/** The line a preview ends with when its cut part named identifiers. */
const MENTIONS_LINE = /\n\(the cut part mentioned ([^\n]*)\)$/;

/** Distinct `identifiers`, in order, as many as fit `maxChars` joined with `, ` (at most the count bound). */
function joinWithin(identifiers: readonly string[], maxChars: number): string {
  const taken: string[] = [];
  let chars = 0;
  for (const identifier of identifiers) {
    if (taken.length >= CUT_MENTIONS_MAX_COUNT) break;
    if (taken.includes(identifier)) continue;
    const cost = identifier.length + (taken.length > 0 ? 2 : 0);
    if (chars + cost > maxChars) continue;
    taken.push(identifier);
    chars += cost;
  }
  return taken.join(', ');
}

/** The characters of `text` that `kept` (its head, a marker, its tail) left out. */
function cutPart(text: string, kept: string): string {
  let head = 0;
  while (head < kept.length && kept[head] === text[head]) head++;
  let tail = 0;
  while (tail < kept.length - head && kept[kept.length - 1 - tail] === text[text.length - 1 - tail]) tail++;
  return text.slice(head, text.length - tail);
}
