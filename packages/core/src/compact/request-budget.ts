import type { ResolvedCompactionOptions } from './compaction-options';

/** Every budget of one request, derived from the context window. */
export interface RequestBudget {
  /** The context window in tokens. */
  readonly contextWindow: number;
  /** The compact threshold in tokens: every request that can fit goes out at or under it. */
  readonly compactTokens: number;
  /** The background threshold in tokens: request-time reductions aim under it. */
  readonly backgroundTokens: number;
  /**
   * After a response, a summary starts in the background when the reductions that need no model
   * (every tool result of the history cleared, every finished turn folded) cannot bring the next
   * request under this many tokens: the background threshold less 10% of the window. Past it the
   * dialogue itself nearly fills the window, and the oldest of it is summarized before a request
   * has to wait.
   */
  readonly summaryTriggerTokens: number;
  /**
   * What request-time reductions aim for when they must go further (the request at the level the
   * conversation reached is over the compact threshold): the compact threshold less half the
   * window. Each step that changes the request's prefix so frees at least half the window (like
   * Anthropic's `clear_at_least`), and buys many turns before the next.
   */
  readonly reductionTargetTokens: number;
  /** Tokens of the newest messages kept verbatim (the protected window). */
  readonly protectTokens: number;
  /** The bound on a summary (and on the digest a drop leaves), in tokens. */
  readonly summaryMaxTokens: number;
  /** Request-time reduction of tool results: results over `minChars` keep `keepChars`. */
  readonly reduction: { readonly minChars: number; readonly keepChars: number } | false;
  /** The smallest a tool result of the current turn is cut to, in characters, when nothing else fits. */
  readonly floorChars: number;
  /**
   * The grain of the reduction levels, in tokens: old tool output is cleared, and old turns are
   * folded, in batches of about this many tokens, counted from the start of the history so the
   * batch ends stay where they are as the conversation grows.
   */
  readonly levelGrainTokens: number;
  /** The bound on each block of the user's own words kept beside a summary or a drop note, in tokens. */
  readonly userWordsMaxTokens: number;
  /**
   * Characters of identifiers the lines of one folded turn list together (see `foldToolSteps`):
   * 0.1% of the window (at four characters a token), at most 320; `false` under 40 (a small
   * window keeps its room for the dialogue).
   */
  readonly foldIdentifierChars: number | false;
  /** Pasted blobs (logs, code, JSON) in the user's messages over this many characters are shortened. */
  readonly blobMinChars: number;
  /** Characters a shortened blob keeps. */
  readonly blobKeepChars: number;
}

/** Share of the window a summary may take at most (and the seeds' absolute bound is 2,048 tokens). */
export const SUMMARY_WINDOW_SHARE = 0.1;
/** Share of the window, in tokens, a reduced tool result keeps (4 characters a token). */
const KEEP_WINDOW_SHARE = 0.02;
const KEEP_CHARS_MIN = 400;
const KEEP_CHARS_MAX = 2_000;
/** Headroom under the background threshold the reductions must be able to keep (see above). */
const SUMMARY_HEADROOM_SHARE = 0.1;
/** The share of the window a step takes off when reductions must go further (see `reductionTargetTokens`). */
export const REDUCTION_STEP_WINDOW_SHARE = 0.6;
/** The grain of the reduction levels, as a share of the window (see `levelGrainTokens`). */
const LEVEL_GRAIN_WINDOW_SHARE = 0.1;
/**
 * The share of the window the user's own words may take beside a summary (and again beside a drop
 * note) before the oldest are condensed: the dialogue is a few percent of an agent session, and
 * the user's words are what a summary keeps worst.
 */
export const USER_WORDS_WINDOW_SHARE = 0.3;
/** Share of the window, in tokens, a current-turn tool result keeps at its floor. */
const FLOOR_WINDOW_SHARE = 0.005;
const FLOOR_CHARS_MIN = 160;
const FLOOR_CHARS_MAX = 512;

/**
 * The budgets of a request to a window of `contextWindow` tokens. Tool-result reduction, the
 * protected window and the summary bound all scale with the window, so a 20K-window conversation
 * compacts about as rarely, relative to its size, as a 128K one:
 * - reduced tool results keep 2% of the window (at 4 characters a token), 400–2,000 characters,
 *   and only results over twice that are reduced — unless `toolResultReduction` sets them;
 * - summaries: at most `summaryMaxTokens` (2,048) and at most 10% of the window;
 * - a current-turn tool result is cut, when nothing else fits, to 0.5% of the window, 160–512
 *   characters;
 * - a reduction step that changes the request's prefix frees at least half the window (85% → 35%) where it can; the user's own words beside a summary
 *   take at most 30% of it; pasted blobs over twice the kept size are shortened like tool results.
 */
export function requestBudget(contextWindow: number, options: ResolvedCompactionOptions): RequestBudget {
  const { thresholds, protectedRatio, summaryMaxTokens, toolResultReduction } = options;
  const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.round(value)));
  const keepChars = clamp(contextWindow * KEEP_WINDOW_SHARE * 4, KEEP_CHARS_MIN, KEEP_CHARS_MAX);
  const reduction =
    toolResultReduction === false
      ? false
      : {
          keepChars: toolResultReduction.keepChars ?? keepChars,
          minChars: toolResultReduction.minChars ?? 2 * (toolResultReduction.keepChars ?? keepChars),
        };
  return {
    contextWindow,
    compactTokens: contextWindow * thresholds.compact,
    backgroundTokens: contextWindow * thresholds.background,
    summaryTriggerTokens:
      contextWindow * Math.max(thresholds.background / 2, thresholds.background - SUMMARY_HEADROOM_SHARE),
    reductionTargetTokens:
      contextWindow * Math.max(thresholds.compact / 3, thresholds.compact - REDUCTION_STEP_WINDOW_SHARE),
    protectTokens: contextWindow * protectedRatio,
    summaryMaxTokens: Math.max(
      1,
      Math.floor(Math.min(summaryMaxTokens, contextWindow * SUMMARY_WINDOW_SHARE)),
    ),
    reduction,
    floorChars: Math.min(
      reduction === false ? FLOOR_CHARS_MAX : reduction.keepChars,
      clamp(contextWindow * FLOOR_WINDOW_SHARE * 4, FLOOR_CHARS_MIN, FLOOR_CHARS_MAX),
    ),
    levelGrainTokens: contextWindow * LEVEL_GRAIN_WINDOW_SHARE,
    userWordsMaxTokens: Math.max(1, Math.floor(contextWindow * USER_WORDS_WINDOW_SHARE)),
    foldIdentifierChars: foldIdentifierChars(contextWindow),
    blobMinChars: 2 * (reduction === false ? keepChars : reduction.keepChars),
    blobKeepChars: reduction === false ? keepChars : reduction.keepChars,
  };
}

/** Share of the window, in characters, the identifiers of one folded turn may take. */
const FOLD_IDENTIFIER_WINDOW_SHARE = 0.001;
const FOLD_IDENTIFIER_CHARS_MIN = 40;
const FOLD_IDENTIFIER_CHARS_MAX = 320;

function foldIdentifierChars(contextWindow: number): number | false {
  const chars = Math.min(
    FOLD_IDENTIFIER_CHARS_MAX,
    Math.floor(contextWindow * 4 * FOLD_IDENTIFIER_WINDOW_SHARE),
  );
  return chars >= FOLD_IDENTIFIER_CHARS_MIN ? chars : false;
}
