import type { Stage } from '../stage';
import { shrinkTurn, turnAtFloor } from './shrink-turn';

/**
 * With the history gone, what is over the target is the current turn: it is shrunk inside (older
 * results, images, then the newest results). Then the summary gives way — a note with its
 * reference stays in its place, counted — and the turn goes to its floor; then the pinned block.
 * A turn that still cannot meet the target is sent in its floor form in full.
 */
export const shrinkCurrentTurnStage: Stage = {
  name: 'shrink the current turn',
  run(draft, context) {
    let current = shrinkTurn(draft, context, { floor: false });
    if (context.count(current) <= context.targetTokens) return current;
    current = shrinkTurn(current.with({ summaries: [], userWords: false, noteDetail: false }), context, {
      floor: true,
    });
    if (context.count(current) > context.targetTokens && current.pinned() !== undefined) {
      current = shrinkTurn(current.with({ pinnedBlock: false }), context, { floor: true });
    }
    const tokens = context.count(current);
    if (tokens <= context.targetTokens) return current;
    // Still over: the turn takes its floor form in full (every result cut to the floor in one
    // step), the same form the smallest request is measured with. Cutting only as far as needed,
    // step by step, can land a token or two above it, and the request would then be neither under
    // the target nor at its smallest.
    const floor = turnAtFloor(current.originalTurn, context);
    const floored = current.with({ turn: floor.messages, turnRecords: floor.records });
    return context.count(floored) < tokens ? floored : current;
  },
};
