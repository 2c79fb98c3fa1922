import { extractiveDigest } from '../../summarize/extractive-summarizer';
import type { RequestDraft } from '../request-draft';
import type { Stage, StageContext } from '../stage';
import { fitHistory } from './fit-history';

/**
 * When no summary could be made (the summarizer failed, or another request is making one) and the
 * request is still over, or an overflow retry must keep fewer groups: the oldest turns leave this
 * request only — the stored conversation is untouched — and a note takes their place:
 * `[System: N older messages were truncated due to context limits] [ref=s.…]`, a digest made
 * without a model, and the user's own words of those turns, verbatim. As few turns as fit.
 */
export const dropOldHistory: Stage = {
  name: 'drop old history',
  run(draft, context) {
    const least = context.mustCover(draft);
    const fits = context.count(draft) <= context.targetTokens;
    if (fits && least <= draft.dropped) return draft;
    const full = draft.with({ dropped: 0 });
    const ladder = context.ladderOf(full);
    const end = draft.originalHistory.length;
    const noteAllowance = context.budget.summaryMaxTokens + draft.userWordsMaxTokens;
    const fixed = context.count(full.with({ history: [] })) + noteAllowance;
    const candidates = [...ladder.turnStarts, end].filter(
      (start, index, all) => start > 0 && start >= least && all.indexOf(start) === index,
    );
    let first = candidates.findIndex(
      (start) => start === end || fixed + ladder.foldedTokensFrom(start) <= context.targetTokens,
    );
    if (first === -1) first = candidates.length - 1;
    let dropped = draft;
    for (let index = Math.max(0, first); index < candidates.length; index++) {
      dropped = dropTo(draft, context, candidates[index]!);
      if (context.count(dropped) <= context.targetTokens) break;
    }
    if (dropped.dropped > draft.dropped) {
      context.act('drop-oldest', context.count(draft) - context.count(dropped));
      context.emit({
        type: 'emergency-truncation',
        conversationId: context.conversationId,
        droppedCount: dropped.outOfView() - draft.outOfView(),
        tokensBefore: calibrated(context, context.count(draft)),
        tokensAfter: calibrated(context, context.count(dropped)),
      });
    }
    return dropped;
  },
};

/** The draft with history messages `0..start` dropped, the rest fitted again. */
function dropTo(draft: RequestDraft, context: StageContext, start: number): RequestDraft {
  const ladder = context.ladderOf(draft.with({ dropped: 0 }));
  const span = ladder.stubMessages(0, start).filter((message) => message.role !== 'system');
  const digest =
    span.length === 0
      ? undefined
      : extractiveDigest(span, undefined, {
          maxChars: 2_000,
          maxTokens: Math.max(1, context.budget.summaryMaxTokens - 30),
        });
  return fitHistory(
    draft.with({ dropped: start, digest, history: draft.originalHistory.slice(start) }),
    context,
    'all',
  );
}

function calibrated(context: StageContext, raw: number): number {
  return context.estimator.calibrated(raw, context.options.model);
}
