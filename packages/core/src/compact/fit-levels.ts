import { atLeastAs, type HistoryLevel, type RenderedHistory, reducesAnything } from './history-level';

/** How much of the way from `room` to `lowRoom` a first step must go when none gets all the way. */
const PARTIAL_STEP_SHARE = 0.5;

/**
 * The level of `levels` (least reduced first) a request takes: the one the conversation already
 * reached (`atLeast`) while it fits `room`; past it, the first that fits `lowRoom`, so the next step
 * is far off. When none gets that low:
 * - a conversation that has reached a level before is near its floor (every level it has left is
 *   above the aim): each step lasts only until the floor, so it takes the deepest level, the
 *   largest step there is, and breaks the prompt cache as seldom as it can;
 * - a first step (no reduction reached yet, or a one-shot compaction) takes the first level that
 *   gets halfway there (`PARTIAL_STEP_SHARE`), else the deepest: it keeps the newest previews, and
 *   lets the structural stages save what folding every turn would hide.
 * Never a level that merely fits `room`: it would be passed again a few turns later. Whether the
 * level reached still fits is judged by its rendering, not its estimate.
 * `low` says whether the result needed no step or got as low as `lowRoom`: a caller with deeper
 * kinds of levels to offer (folds, then the newest results) should offer them rather than break
 * the prefix for a step that lasts only a few turns.
 * Every candidate reduces at least as far as `atLeast`, zone by zone (the prefix never goes back and
 * forth). The structural stages save more than estimates count, so a level lower that already fits
 * is taken; references and notes can make a rendering a little larger than its estimate, so one
 * that does not fit gives way to the next.
 *
 * Measured, the deepest level against the first halfway there for a later step: cache breaks at a
 * 15% window, per 100 turns, 9.0 → 8.4 on the quality benchmark's tune split (7.3 → 6.7 on
 * `--full`), 9.9 → 8.9 on `operationsSession` (seeds 4–9, 160 turns); 2–4% fewer tokens sent; the
 * same facts kept, but for tool identifiers at 5% (two of 72; one of 159 on `--full`, and one at 15%):
 * the deepest level folds the newest turns too, and a folded turn lists fewer identifiers than its
 * stubs. On the held-out split, measured once: 8.0 → 7.6 at 15% (7.1 → 6.7 on `--full`), nothing
 * lost on the default suite, one tool identifier of 157 at 5% and at 15% on `--full`.
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
  // The level reached, while its rendering fits: not its estimate, which the structural stages
  // can make too high (a step for nothing) and references too low (a step past it is then the
  // smallest one that fits, passed again a few turns later).
  const reached = render(candidates[0]!);
  if (reached.tokens <= room) return { ...reached, fits: true, low: true };
  // Past the level reached, aim at `lowRoom`; when no level gets that low, halfway there on a
  // first step, else the deepest (see above).
  const first = (within: number) => candidates.findIndex((level) => estimate(level) <= within);
  let aim = lowRoom;
  let index = first(lowRoom);
  // A level reached is one that reduced something (a conversation remembers "none" too).
  const stepped = atLeast !== undefined && reducesAnything(atLeast);
  if (index === -1 && !stepped) {
    aim = room - PARTIAL_STEP_SHARE * (room - lowRoom);
    index = first(aim);
  }
  if (index === -1) {
    aim = Number.NEGATIVE_INFINITY;
    index = candidates.length - 1;
  }
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
