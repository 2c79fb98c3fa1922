import { safeEnd } from '../truncate/cut-points';
import { RECALL_SEARCH_MAX_CHARS } from './parse-recall-input';
import { createRecallSearchEngine, RECALL_SEARCH_MAX_PROGRAM } from './recall-search-engine';
import { recallSearchSnippet } from './recall-search-snippet';
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
   * What to find, case-insensitively: a regular expression in RE2 syntax (the common syntax of
   * JavaScript, Python and Go patterns without lookaround and backreferences; `^` and `$` match at
   * line ends), or plain text. A pattern without any of `.*+?^${}()|[]\\`, or one that is not a
   * valid RE2 pattern, is searched as literal text. Longer than {@link RECALL_SEARCH_MAX_CHARS}: refused.
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
  /**
   * Characters of material looked through, at most (the size limit): the answer says where the
   * search stopped and how to go on from there.
   * @default 64000000 (RECALL_SEARCH_MAX_SCAN_CHARS)
   */
  maxScanChars?: number;
  /**
   * Milliseconds of searching, at most (the time limit, checked before each block of material and
   * each match, after a first stretch always searched whole: 16,777,216 characters of plain text,
   * about 16,000 characters of a small pattern): the answer says where the search stopped and how
   * to go on from there. `Infinity` turns it off.
   * @default 25 (RECALL_SEARCH_TIME_LIMIT_MS)
   */
  timeLimitMs?: number;
  /**
   * A search of all the material (no one reference): where it goes on, in characters of all the
   * sources taken in order, as a stopped or full search of all of them gives it. When set (0 too),
   * the calls an answer gives to go on are across all the sources as well (`{"search": …,
   * "offset": N}`), not within the one text where the search stopped, so no later text is skipped.
   * @default undefined (each source from its own `start`; the calls to go on name their `ref`)
   */
  from?: number;
}

/** Default {@link SearchRecallOptions.maxScanChars}. */
export const RECALL_SEARCH_MAX_SCAN_CHARS = 64_000_000;
/** Default {@link SearchRecallOptions.timeLimitMs}. */
export const RECALL_SEARCH_TIME_LIMIT_MS = 25;

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
  /**
   * Matches found but not listed (over `maxMatches` or `maxChars`). A pattern's matches are counted
   * only up to the first one left out (a text's all): see `counted`.
   */
  readonly omitted: number;
  /** Whether `omitted` counts every match left out (false for a pattern once the list is full). */
  readonly counted: boolean;
  /** Whether the pattern was searched as literal text because it is not a valid RE2 pattern. */
  readonly literal: boolean;
  /**
   * Whether every character of the material was searched; `false` when the size or time limit
   * stopped the search first (`stoppedAt` says where, and the answer how to go on).
   */
  readonly complete: boolean;
  /**
   * Where the search stopped, when it did not finish: in `ref`, and (with `from`) `across` all the
   * sources taken in order.
   */
  readonly stoppedAt?: {
    readonly ref: string;
    readonly offset: number;
    readonly reason: 'size' | 'time';
    readonly across?: number;
  };
  /**
   * Whether the pattern was refused (longer than {@link RECALL_SEARCH_MAX_CHARS} characters, or more
   * than `RECALL_SEARCH_MAX_PROGRAM` RE2 instructions); `text` says so in one line.
   */
  readonly refused?: boolean;
}

/**
 * Searches cut material line by line: lists each matching line (once, at its first match; a line
 * longer than `maxLineChars` once per shown stretch) with its reference and the character offset of
 * the match, written as the arguments of the read call that opens there, and says how many more
 * matches were left out. Bounded everywhere: the pattern is matched by RE2 (linear time, see
 * {@link createRecallSearchEngine}), so no pattern can stall the process; the output is at most
 * `maxChars`; the material looked through is at most `maxScanChars` characters and `timeLimitMs`
 * milliseconds, after which the answer says where the search stopped and gives the call that goes
 * on from there. Each step looks at most `maxLineChars` around a match and the search resumes after
 * what was shown. Pure but for the clock; never throws (a pattern RE2 refuses is searched as literal
 * text; one over {@link RECALL_SEARCH_MAX_CHARS} characters is refused in one line).
 */
export function searchRecall({
  sources,
  pattern,
  maxMatches = 20,
  maxChars = 4000,
  maxLineChars = 160,
  maxScanChars = RECALL_SEARCH_MAX_SCAN_CHARS,
  timeLimitMs = RECALL_SEARCH_TIME_LIMIT_MS,
  from,
}: SearchRecallOptions): RecallSearchResult {
  if (typeof pattern !== 'string' || pattern.length > RECALL_SEARCH_MAX_CHARS) {
    const length = typeof pattern === 'string' ? pattern.length : 0;
    return {
      text: `[${RECALL_TOOL_NAME} search: the pattern is ${length} characters long; the limit is ${RECALL_SEARCH_MAX_CHARS}.]`,
      matches: [],
      omitted: 0,
      counted: true,
      literal: false,
      complete: true,
      refused: true,
    };
  }
  const engine = createRecallSearchEngine({
    pattern,
    maxScanChars: Number.isFinite(maxScanChars) ? Math.max(1, maxScanChars) : Number.POSITIVE_INFINITY,
    timeLimitMs: Number.isNaN(timeLimitMs) ? RECALL_SEARCH_TIME_LIMIT_MS : Math.max(0, timeLimitMs),
    now: clock,
  });
  if (engine.kind === 'too-complex') {
    return {
      text: `[${RECALL_TOOL_NAME} search /${pattern}/i: the pattern is too complex (${engine.programSize} steps; the limit is ${RECALL_SEARCH_MAX_PROGRAM}): use fewer or smaller repetitions, or search for plain text.]`,
      matches: [],
      omitted: 0,
      counted: true,
      literal: false,
      complete: true,
      refused: true,
    };
  }
  const literal = engine.kind === 'invalid';
  const display = `${literal ? JSON.stringify(pattern) : `/${pattern}/i`}`;
  const window = Math.max(16, Math.floor(maxLineChars));
  const matches: RecallMatch[] = [];
  const lines: string[] = [];
  let found = 0;
  let used = 0;
  let firstOmitted: { ref: string; offset: number; across?: number } | undefined;
  const across = from !== undefined && Number.isFinite(from) ? Math.max(0, Math.floor(from)) : undefined;
  let base = 0;
  let stoppedAt: RecallSearchResult['stoppedAt'];
  let searched = 0;
  // The header and the footers are written last; room is kept for their longest form.
  const reserve = 600 + display.length + 2 * JSON.stringify(pattern).length;
  let full = false;
  let counted = true;
  search: for (const source of sources) {
    const { ref, text } = source;
    const sourceBase = base;
    base += text.length;
    // Going on across all the sources: the texts before `from` were searched by an earlier call.
    if (across !== undefined && across > 0 && base <= across) continue;
    searched++;
    const start = Math.max(
      clamp(source.start ?? 0, 0, text.length),
      across === undefined ? 0 : Math.min(text.length, Math.max(0, across - sourceBase)),
    );
    const place = (offset: number) => (across === undefined ? {} : { across: sourceBase + offset });
    const end = clamp(source.end ?? text.length, start, text.length);
    let position = start;
    while (position < end) {
      const step = engine.find(text, position, end);
      if (step.kind === 'none') break;
      if (step.kind === 'stopped') {
        stoppedAt = { ref, offset: step.at, reason: step.reason, ...place(step.at) };
        break search;
      }
      found++;
      const { index } = step;
      const shown = recallSearchSnippet(text, index, step.end, window);
      // Resume after what was shown (and after the match, and at least one character further).
      position = Math.max(shown.resume, step.end, index + 1);
      if (full) continue;
      const entry = `${JSON.stringify({ ref, offset: index })}: ${shown.line}`;
      if (matches.length >= maxMatches || used + entry.length + 1 + reserve > maxChars) {
        full = true;
        firstOmitted = { ref, offset: index, ...place(index) };
        // A pattern's further matches are not counted (each costs a search of its own); text's are.
        if (engine.kind === 'pattern') {
          counted = false;
          break search;
        }
        continue;
      }
      matches.push({ ref, offset: index, line: shown.line });
      lines.push(entry);
      used += entry.length + 1;
    }
  }
  const omitted = found - matches.length;
  const text = answerText({
    pattern,
    display,
    searched,
    found,
    counted,
    matches,
    omitted,
    firstOmitted,
    stoppedAt,
    lines,
  });
  return {
    text: text.length <= maxChars ? text : text.slice(0, safeEnd(text, Math.max(0, maxChars))),
    matches,
    omitted,
    counted,
    literal,
    complete: stoppedAt === undefined,
    ...(stoppedAt === undefined ? {} : { stoppedAt }),
  };
}

/** The answer: a header, one line per listed match, and footers for what was left out. */
function answerText({
  pattern,
  display,
  searched,
  found,
  counted,
  matches,
  omitted,
  firstOmitted,
  stoppedAt,
  lines,
}: {
  pattern: string;
  display: string;
  searched: number;
  found: number;
  /** Whether every match was counted (a pattern's are not, once the list is full). */
  counted: boolean;
  matches: readonly RecallMatch[];
  omitted: number;
  firstOmitted: { ref: string; offset: number; across?: number } | undefined;
  stoppedAt: RecallSearchResult['stoppedAt'];
  lines: readonly string[];
}): string {
  const where = searched === 1 ? 'the material searched' : `${searched} cut texts`;
  const some = stoppedAt === undefined && counted ? '' : 'at least ';
  const header =
    searched === 0
      ? `[${RECALL_TOOL_NAME} search ${display}: no cut material is kept here to search.]`
      : found === 0
        ? `[${RECALL_TOOL_NAME} search ${display}: no match in ${stoppedAt === undefined ? where : 'what was searched'}.]`
        : `[${RECALL_TOOL_NAME} search ${display}: ${some}${found} match${found === 1 ? '' : 'es'} in ${where}${omitted > 0 ? `, the first ${matches.length} listed` : ''}. Each line gives the {"ref","offset"} of the match: pass them to ${RECALL_TOOL_NAME} to read from there.]`;
  const footers: string[] = [];
  if (omitted > 0 && firstOmitted !== undefined) {
    footers.push(
      `[${counted ? omitted : 'More'} ${counted ? 'more ' : ''}not listed. Narrow the pattern, or list the next ones with ${RECALL_TOOL_NAME} ${goOn(pattern, firstOmitted)}.]`,
    );
  }
  if (stoppedAt !== undefined) {
    footers.push(
      `[The search stopped at its ${stoppedAt.reason === 'time' ? 'time' : 'size'} limit before the end: go on with ${RECALL_TOOL_NAME} ${goOn(pattern, stoppedAt)}.]`,
    );
  }
  return [header, ...lines, ...footers].join('\n');
}

/** The arguments of the call that goes on from `at`: across all the material, or within its `ref`. */
function goOn(pattern: string, at: { ref: string; offset: number; across?: number }): string {
  return at.across === undefined
    ? `{"ref":"${at.ref}","search":${JSON.stringify(pattern)},"offset":${at.offset}}`
    : `{"search":${JSON.stringify(pattern)},"offset":${at.across}}`;
}

function clock(): number {
  return globalThis.performance?.now() ?? Date.now();
}

function clamp(value: number, low: number, high: number): number {
  return Number.isFinite(value) ? Math.min(high, Math.max(low, Math.floor(value))) : high;
}
