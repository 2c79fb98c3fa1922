import { atLeastAs, type HistoryLevel, type RenderedHistory } from './history-level';

/**
 * The level of `levels` (least reduced first) a request takes: the one the conversation already
 * reached (`atLeast`) while it fits `room`; past it, the first that fits `lowRoom`, so the next step
 * is far off — or, when none gets that low, the first that gets halfway there, else the deepest, so
 * the step is as large as it can usefully be made (not a lower one that merely fits `room`: it would
 * be passed again a few turns later).
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
  // Past the level reached, aim at `lowRoom`; when no level gets that low, halfway there; when none
  // gets even that low, the deepest. Never a level that merely fits `room`: it would be passed
  // again a few turns later.
  let aim = room;
  let index = 0;
  if (estimate(candidates[0]!) > room) {
    for (aim of [lowRoom, (room + lowRoom) / 2]) {
      index = first(aim);
      if (index !== -1) break;
    }
    if (index === -1) {
      aim = Number.NEGATIVE_INFINITY;
      index = candidates.length - 1;
    }
  }
  let best = render(candidates[index]!);
  for (let lower = index - 1; structured && lower >= 1 && best.tokens <= aim; lower--) {
    const candidate = render(candidates[lower]!);
    if (candidate.tokens > aim) break;
    best = candidate;
  }
  for (
    let higher = candidates.indexOf(best.level) + 1;
    best.tokens > room && higher < candidates.length;
    higher++
  ) {
    best = render(candidates[higher]!);
  }
  return { ...best, fits: best.tokens <= room, low: aim === room || best.tokens <= lowRoom };
}
