import type { StageContext } from '../stage';
import type { RequestDraft } from '../request-draft';

/**
 * The draft with its history at the least-reduced level of the ladder that fits the request's
 * target: `clear` looks only at the levels that clear tool output, `fold` also at those that fold
 * old turns. Reductions are made from the original history each time, so the draft carries one
 * consistent set of them.
 */
export function fitHistory(draft: RequestDraft, context: StageContext, through: 'clear' | 'fold'): RequestDraft {
  const history = draft.originalHistory.slice(draft.dropped);
  if (history.length === 0) return draft;
  const room = context.targetTokens - context.count(draft.with({ history: [] }));
  const fitted = context.ladderOf(draft).fit(room, { through });
  return draft.with({
    history: fitted.messages,
    historyRecords: fitted.records.map((record) => ({ ...record, messageIndex: record.messageIndex + draft.dropped })),
    historySavings: fitted.savings,
  });
}
