import type { Stage } from '../stage';
import { shrinkTurn } from './shrink-turn';

/**
 * The current turn alone (with the system prompt) over the target: no summary of the history could
 * make room for it, so it is shrunk first — its older tool results, then its images, then the
 * newest — leaving room for a protected window's worth of history.
 */
export const shrinkOversizedTurn: Stage = {
  name: 'shrink an oversized current turn',
  run(draft, context) {
    const alone = context.count(
      draft.with({ history: [], summaries: [], noteDetail: false, userWords: false, pinnedBlock: false }),
    );
    if (alone < context.targetTokens) return draft;
    const historyTokens = context.estimator.countMessages(draft.history);
    return shrinkTurn(draft, context, {
      floor: false,
      reserveTokens: Math.min(historyTokens, context.budget.protectTokens),
    });
  },
};
