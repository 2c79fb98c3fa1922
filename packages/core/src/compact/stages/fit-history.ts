import type { RequestDraft } from '../request-draft';
import type { StageContext } from '../stage';

/**
 * The draft with its history at the least-reduced level of the ladder that fits the request's
 * target and is at least as reduced as the level the conversation already reached (so the prefix
 * never goes back and forth): `clear` looks only at the levels that clear tool output, `steady` also
 * at those that fold old turns, `all` also at the emergency levels whose bounds move with every
 * turn. Reductions are made from the original history each time, so the draft carries one
 * consistent set of them. A step past the level reached that cannot get as low as its aim
 * (`reductionTargetTokens`) is taken only when `through` is `all`: otherwise the draft is returned as
 * it was, for the next stage and its deeper levels.
 */
export function fitHistory(
  draft: RequestDraft,
  context: StageContext,
  through: 'clear' | 'steady' | 'all',
  /** Raw tokens the history must fit, and must fit when it steps (default: from the targets). */
  rooms?: { room: number; lowRoom: number },
): RequestDraft {
  const history = draft.originalHistory.slice(draft.dropped);
  if (history.length === 0) return draft;
  const room = rooms?.room ?? context.targetTokens - context.count(draft.with({ history: [] }));
  // Going further than the level reached, a step aims much lower (see `reductionTargetTokens`), for
  // the history alone: a large turn in progress (results of a tool loop) is history soon.
  const lowRoom =
    rooms?.lowRoom ??
    Math.min(room, context.reductionTargetTokens - context.count(draft.with({ history: [], turn: [] })));
  const ladder = context.ladderOf(draft);
  const hint = context.levelHint;
  const steady = draft.dropped === 0 && hint !== undefined && hint.coveredCount === draft.coveredCount;
  const fitted = ladder.fit(room, {
    through,
    lowRoom,
    atLeast: steady ? ladder.fromNumbers(hint) : undefined,
  });
  // A step that cannot get as low as its aim is left to the next stage, which has deeper levels to
  // offer (folds, then the newest results): the prefix breaks once, for a step that lasts.
  if (!fitted.low && through !== 'all') return draft;
  if (draft.dropped === 0)
    context.reached = { coveredCount: draft.coveredCount, ...ladder.toNumbers(fitted.level) };
  return draft.with({
    history: fitted.messages,
    historyRecords: fitted.records.map((record) => ({
      ...record,
      messageIndex: record.messageIndex + draft.dropped,
    })),
    historySavings: fitted.savings,
  });
}
