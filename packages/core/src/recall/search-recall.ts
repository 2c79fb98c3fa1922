import { safeEnd } from '../truncate/cut-points';
import { RECALL_TOOL_NAME } from './recall-tool';

/** One text that {@link searchRecall} searches. */
export interface RecallSource {
  /** The reference the text is known by. */
  readonly ref: string;
  readonly text: string;
  /**
   * Where the search starts (characters).
   * @default 0
   */
  readonly start?: number;
  /**
   * Where the search ends (exclusive); a match must start before it.
   * @default text.length
   */
  readonly end?: number;
}

/** Options of {@link searchRecall}. */
export interface SearchRecallOptions {
  /** The texts to search, in the order their matches are listed. */
  sources: Iterable<RecallSource>;
  /**
   * A JavaScript regular expression, matched case-insensitively with `^` and `$` at line ends;
   * a pattern that is not a valid regular expression is searched as literal text.
   */
  pattern: string;
  /**
   * Matches listed, at most.
   * @default 20
   */
  maxMatches?: number;
  /**
   * Length of the whole answer, at most, in characters (header, lines and footer).
   * @default 4000
   */
  maxChars?: number;
  /**
   * Characters of a matching line shown, at most: a longer line is shown around the match, with `…`.
   * @default 160
   */
  maxLineChars?: number;
}

/** One listed match. */
export interface RecallMatch {
  readonly ref: string;
  /** Where the match starts in the text behind `ref` (characters): `text.slice(offset)` opens with it. */
  readonly offset: number;
  /** The matching line, shortened around the match to at most `maxLineChars` (plus `…` marks). */
  readonly line: string;
}

/** What {@link searchRecall} found. */
export interface RecallSearchResult {
  /** The answer for the model: a header, one line per listed match, and a footer. At most `maxChars`. */
  readonly text: string;
  readonly matches: readonly RecallMatch[];
  /** Matches found but not listed (over `maxMatches` or `maxChars`). */
  readonly omitted: number;
  /** Whether the pattern was searched as literal text (it was not a valid regular expression). */
  readonly literal: boolean;
}

/**
 * Searches cut material line by line: lists each matching line (once, at its first match; a line
 * longer than `maxLineChars` once per shown stretch) with its reference and the character offset of
 * the match, written as the arguments of the read call that opens there, and says how many more
 * matches were left out. Bounded output; linear work (each step looks at most `maxLineChars` around a
 * match and the search resumes after what was shown), so a 50 MB single-line text costs one pass.
 * Pure; never throws on a bad pattern (it is then searched as literal text).
 */
export function searchRecall({
  sources,
  pattern,
  maxMatches = 20,
  maxChars = 4000,
  maxLineChars = 160,
}: SearchRecallOptions): RecallSearchResult {
  const { regex, literal } = compile(pattern);
  const display = `${literal ? JSON.stringify(pattern) : `/${pattern}/i`}`;
  const window = Math.max(16, Math.floor(maxLineChars));
  const matches: RecallMatch[] = [];
  const lines: string[] = [];
  let found = 0;
  let used = 0;
  let firstOmitted: { ref: string; offset: number } | undefined;
  let searched = 0;
  // The header and the footer are written last; room is kept for their longest form.
  const reserve = 400 + display.length + JSON.stringify(pattern).length;
  let full = false;
  for (const source of sources) {
    searched++;
    const { ref, text } = source;
    const start = clamp(source.start ?? 0, 0, text.length);
    const end = clamp(source.end ?? text.length, start, text.length);
    regex.lastIndex = start;
    while (regex.lastIndex < end) {
      const match = regex.exec(text);
      if (match === null || match.index >= end) break;
      found++;
      const index = match.index;
      const shown = snippet(text, index, index + match[0].length, window);
      // Resume after what was shown (and after the match, and at least one character further).
      regex.lastIndex = Math.max(shown.resume, index + match[0].length, index + 1);
      if (full) continue;
      const entry = `${JSON.stringify({ ref, offset: index })}: ${shown.line}`;
      if (matches.length >= maxMatches || used + entry.length + 1 + reserve > maxChars) {
        full = true;
        firstOmitted = { ref, offset: index };
        continue;
      }
      matches.push({ ref, offset: index, line: shown.line });
      lines.push(entry);
      used += entry.length + 1;
    }
  }
  const omitted = found - matches.length;
  const where = searched === 1 ? 'the material searched' : `${searched} cut texts`;
  const header =
    searched === 0
      ? `[${RECALL_TOOL_NAME} search ${display}: no cut material is kept here to search.]`
      : found === 0
        ? `[${RECALL_TOOL_NAME} search ${display}: no match in ${where}.]`
        : `[${RECALL_TOOL_NAME} search ${display}: ${found} match${found === 1 ? '' : 'es'} in ${where}${omitted > 0 ? `, the first ${matches.length} listed` : ''}. Each line gives the {"ref","offset"} of the match: pass them to ${RECALL_TOOL_NAME} to read from there.]`;
  const footer =
    omitted === 0 || firstOmitted === undefined
      ? ''
      : `[${omitted} more not listed. Narrow the pattern, or list the next ones with ${RECALL_TOOL_NAME} {"ref":"${firstOmitted.ref}","search":${JSON.stringify(pattern)},"offset":${firstOmitted.offset}}.]`;
  const text = [header, ...lines, ...(footer === '' ? [] : [footer])].join('\n');
  return {
    text: text.length <= maxChars ? text : text.slice(0, safeEnd(text, Math.max(0, maxChars))),
    matches,
    omitted,
    literal,
  };
}

/** The pattern as a global, case-insensitive, multiline regular expression, or as escaped literal text. */
function compile(pattern: string): { regex: RegExp; literal: boolean } {
  try {
    return { regex: new RegExp(pattern, 'gim'), literal: false };
  } catch {
    return { regex: new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gim'), literal: true };
  }
}

/**
 * The line around a match, at most `window` characters (plus `…` where it was shortened), found by
 * looking at most `window` characters either side (never scanning a long line to its ends), and where
 * the search resumes: the end of the line when it was shown whole, else the end of what was shown.
 */
function snippet(
  text: string,
  matchStart: number,
  matchEnd: number,
  window: number,
): { line: string; resume: number } {
  // The line's ends, looked for at most `window` characters away from the match.
  const lookStart = Math.max(0, matchStart - window);
  const back = text.slice(lookStart, matchStart).lastIndexOf('\n');
  const lineStart = back >= 0 ? lookStart + back + 1 : lookStart;
  const startsLine = back >= 0 || lookStart === 0;
  const lookEnd = Math.min(text.length, matchEnd + window);
  const ahead = text.slice(matchEnd, lookEnd).indexOf('\n');
  const lineEnd = ahead >= 0 ? matchEnd + ahead : lookEnd;
  const endsLine = ahead >= 0 || lookEnd === text.length;
  let start = lineStart;
  let end = lineEnd;
  if (end - start > window) {
    // A long line: show the stretch around the match.
    start = Math.max(lineStart, matchStart - Math.floor(window / 3));
    end = Math.min(lineEnd, start + window);
  }
  if (start > 0 && isLowSurrogate(text.charCodeAt(start)) && start < matchStart) start++;
  end = Math.max(start, safeEnd(text, end));
  const cutBefore = start > lineStart || !startsLine;
  const cutAfter = end < lineEnd || !endsLine;
  let line = text.slice(start, end);
  if (line.endsWith('\r')) line = line.slice(0, -1);
  return {
    line: `${cutBefore ? '…' : ''}${line}${cutAfter ? '…' : ''}`,
    resume: cutAfter ? end : end + 1,
  };
}

function clamp(value: number, low: number, high: number): number {
  return Number.isFinite(value) ? Math.min(high, Math.max(low, Math.floor(value))) : high;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
