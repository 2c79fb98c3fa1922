import type { Stage } from '../stage';
import { shrinkTurn } from './shrink-turn';

/**
 * With the history gone, what is over the target is the current turn: it is shrunk inside (older
 * results, images, then the newest results). Then the summary gives way — a note with its
 * reference stays in its place, counted — and the turn goes to its floor; then the pinned block.
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
    return current;
  },
};
