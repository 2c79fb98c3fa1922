/** Where a text is cut: `text.slice(0, headEnd)` and `text.slice(tailStart)` are kept. */
export interface CutPoints {
  /** End of the kept head (exclusive). */
  headEnd: number;
  /** Start of the kept tail (`text.length` when no tail is kept). */
  tailStart: number;
}

/** Options of {@link cutPoints}. */
export interface CutPointsOptions {
  /** Characters (UTF-16 code units) to keep, head and tail together. */
  keepChars: number;
  /**
   * Share of `keepChars` that goes to the head; `1` keeps a head only.
   * @default 0.5
   */
  headRatio?: number;
  /**
   * How far (in characters) to look for a line break near each cut point; never more than a fifth
   * of the kept part. `0` turns it off.
   * @default 200
   */
  lineWindow?: number;
}

/**
 * Where `truncateText` would cut `text` to keep `keepChars` characters: the head ends just before a
 * line break near its budget when there is one, the tail starts just after one, and no surrogate
 * pair is ever split. For callers that write their own marker (the MCP proxy states totals and how to
 * page). Costs O(lineWindow), not O(text). A text no longer than `keepChars` is kept whole
 * (`headEnd === tailStart === text.length`).
 */
export function cutPoints(
  text: string,
  { keepChars, headRatio = 0.5, lineWindow = 200 }: CutPointsOptions,
): CutPoints {
  if (keepChars >= text.length) return { headEnd: text.length, tailStart: text.length };
  const { end, start } = headTailCut(text, Math.max(0, Math.floor(keepChars)), headRatio, lineWindow);
  return { headEnd: end, tailStart: start };
}

const LINE_FEED = 10;
const CARRIAGE_RETURN = 13;

/** Where the head ends and the tail starts when `available` characters are kept in all. */
export function headTailCut(
  text: string,
  available: number,
  headRatio: number,
  lineWindow: number,
): { end: number; start: number } {
  const headBudget = Math.floor(available * headRatio);
  const tailBudget = available - headBudget;
  return {
    end: headBudget > 0 ? headEnd(text, headBudget, lineWindow) : 0,
    start: tailBudget > 0 ? tailStart(text, tailBudget, lineWindow) : text.length,
  };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** `end`, moved back by one when it would split a surrogate pair. */
export function safeEnd(text: string, end: number): number {
  return end > 0 &&
    end < text.length &&
    isHighSurrogate(text.charCodeAt(end - 1)) &&
    isLowSurrogate(text.charCodeAt(end))
    ? end - 1
    : end;
}

/** `start`, moved forward by one when it would split a surrogate pair. */
function safeStart(text: string, start: number): number {
  return start > 0 &&
    start < text.length &&
    isLowSurrogate(text.charCodeAt(start)) &&
    isHighSurrogate(text.charCodeAt(start - 1))
    ? start + 1
    : start;
}

/**
 * Where a head of at most `budget` characters ends (exclusive): just before a line break within the
 * window before `budget` when there is one (also before the `\r` of a `\r\n`), else at `budget`,
 * moved back so as not to split a surrogate pair. Requires `budget < text.length`.
 */
export function headEnd(text: string, budget: number, lineWindow: number): number {
  const lowest = budget - Math.min(lineWindow, Math.floor(budget / 5));
  if (lineWindow > 0) {
    for (let index = budget; index >= lowest && index > 0; index--) {
      if (text.charCodeAt(index) === LINE_FEED) {
        return text.charCodeAt(index - 1) === CARRIAGE_RETURN ? index - 1 : index;
      }
    }
  }
  return safeEnd(text, budget);
}

/**
 * Where a tail of at most `budget` characters starts: just after a line break within the window after
 * the natural start when there is one, else at the natural start, moved forward so as not to split a
 * surrogate pair. Requires `budget < text.length`.
 */
function tailStart(text: string, budget: number, lineWindow: number): number {
  const start = text.length - budget;
  if (lineWindow > 0) {
    const highest = start - 1 + Math.min(lineWindow, Math.floor(budget / 5));
    for (let index = start - 1; index <= highest && index < text.length - 1; index++) {
      if (text.charCodeAt(index) === LINE_FEED) return index + 1;
    }
  }
  return safeStart(text, start);
}
