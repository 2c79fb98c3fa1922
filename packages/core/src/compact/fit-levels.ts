import { atLeastAs, type HistoryLevel, type RenderedHistory } from './history-level';

/**
 * How much of the way from `room` to `lowRoom` a step must go when no level gets all the way. More
 * makes fewer, larger steps (three quarters: cache breaks at a 15% window 8.6 → 8.0 per 100 turns on
 * the quality benchmark's tune split) but reaches folds before stubs: a coding session's first step
 * then folds every old turn, and the structural stages save nothing. Half keeps the tiers in order.
 */
const PARTIAL_STEP_SHARE = 0.5;

/**
 * The level of `levels` (least reduced first) a request takes: the one the conversation already
 * reached (`atLeast`) while it fits `room`; past it, the first that fits `lowRoom`, so the next step
 * is far off — or, when none gets that low, the first that gets halfway there
 * (`PARTIAL_STEP_SHARE`), else the deepest, so the step is as large as it can usefully be made (not
 * a lower one that merely fits `room`: it would be passed again a few turns later). Whether the
 * level reached still fits is judged by its rendering, not its estimate.
 * `low` says whether the result needed no step or got as low as `lowRoom`: a caller with deeper
 * kinds of levels to offer (folds, then the newest results) should offer them rather than break
 * the prefix for a step that lasts only a few turns.
 * Every candidate reduces at least as far as `atLeast`, zone by zone (the prefix never goes back and
 * forth). The structural stages save more than estimates count, so a level lower that already fits
 * is taken; references and notes can make a rendering a little larger than its estimate, so one
 * that does not fit gives way to the next.
 */
export function fitLevels(
  levels: readonly HistoryLevel[],
  {
    estimate,
    render,
    structured,
  }: {
    estimate: (level: HistoryLevel) => number;
    render: (level: HistoryLevel) => RenderedHistory;
    /** Whether supersede or cluster is on (a lower level may then fit). */
    structured: boolean;
  },
  { room, lowRoom, atLeast }: { room: number; lowRoom: number; atLeast: HistoryLevel | undefined },
): RenderedHistory & { fits: boolean; low: boolean } {
  const candidates = levels.map((level) => (atLeast === undefined ? level : atLeastAs(level, atLeast)));
  const first = (within: number) => candidates.findIndex((level) => estimate(level) <= within);
  // The level reached, while its rendering fits: not its estimate, which the structural stages
  // can make too high (a step for nothing) and references too low (a step past it is then the
  // smallest one that fits, passed again a few turns later).
  const reached = render(candidates[0]!);
  if (reached.tokens <= room) return { ...reached, fits: true, low: true };
  // Past the level reached, aim at `lowRoom`; when no level gets that low, halfway there; when none
  // gets even that low, the deepest. Never a level that merely fits `room`: it would be passed
  // again a few turns later.
  let aim = Number.NEGATIVE_INFINITY;
  let index = -1;
  for (const within of [lowRoom, room - PARTIAL_STEP_SHARE * (room - lowRoom)]) {
    index = first(within);
    if (index !== -1) {
      aim = within;
      break;
    }
  }
  if (index === -1) index = candidates.length - 1;
  let best = render(candidates[index]!);
  for (let lower = index - 1; structured && lower >= 1 && best.tokens <= aim; lower--) {
    const candidate = render(candidates[lower]!);
    if (candidate.tokens > aim) break;
    best = candidate;
    index = lower;
  }
  for (let higher = index + 1; best.tokens > room && higher < candidates.length; higher++) {
    best = render(candidates[higher]!);
  }
  return { ...best, fits: best.tokens <= room, low: best.tokens <= lowRoom };
}
