import type { Message } from '../../message/message';
import type { RequestDraft } from '../request-draft';
import { shrinkCurrentTurn } from '../shrink-current-turn';
import type { StageContext } from '../stage';

/**
 * The draft with its current turn shrunk (from the original turn) so that the request, with
 * `reserveTokens` more, meets the target: see `shrinkCurrentTurn` for the order. `floor: false`
 * stops before cutting results to their floor.
 */
export function shrinkTurn(
  draft: RequestDraft,
  context: StageContext,
  { floor, reserveTokens = 0 }: { floor: boolean; reserveTokens?: number },
): RequestDraft {
  const { budget, estimator, marks } = context;
  const shrunk = shrinkCurrentTurn(draft.originalTurn, {
    estimator,
    targetTokens: Math.max(0, context.targetTokens - reserveTokens - context.count(draft.with({ turn: [] }))),
    keepChars: budget.reduction === false ? budget.floorChars * 4 : budget.reduction.keepChars,
    floorChars: budget.floorChars,
    floor,
    marks,
  });
  return draft.with({ turn: shrunk.messages, turnRecords: shrunk.records });
}

/**
 * The current turn in its floor form: every tool result cut to the floor in one step, images as
 * placeholders — the smallest the turn gets, and the form the smallest request is measured with.
 */
export function turnAtFloor(
  turn: readonly Message[],
  context: Pick<StageContext, 'budget' | 'estimator' | 'marks'>,
) {
  const { budget, estimator, marks } = context;
  return shrinkCurrentTurn(turn, {
    estimator,
    targetTokens: 0,
    keepChars: budget.floorChars,
    floorChars: budget.floorChars,
    marks,
  });
}
