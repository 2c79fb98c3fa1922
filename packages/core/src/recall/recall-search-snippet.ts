import { safeEnd } from '../truncate/cut-points';

/** A matching line as a search lists it, and where the search resumes after it. */
export interface RecallSearchSnippet {
  /** The line around the match, at most `window` characters, with `…` where it was shortened. */
  readonly line: string;
  /** Where the search resumes: after the line when it was shown whole, else after what was shown. */
  readonly resume: number;
}

/**
 * The line around a match, at most `window` characters (plus `…` where it was shortened), found by
 * looking at most `window` characters either side (never scanning a long line to its ends), and where
 * the search resumes: the end of the line when it was shown whole, else the end of what was shown.
 * Never splits a surrogate pair.
 */
export function recallSearchSnippet(
  text: string,
  matchStart: number,
  matchEnd: number,
  window: number,
): RecallSearchSnippet {
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

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
