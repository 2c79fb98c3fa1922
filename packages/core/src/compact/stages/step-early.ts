import type { RequestDraft } from '../request-draft';
import type { StageContext } from '../stage';
import { fitHistory } from './fit-history';

/**
 * A step of the no-model reductions (old tool output cleared, old turns folded) taken before the
 * request reaches the compact threshold, as soon as one frees as much as a step at the threshold
 * must: the compact threshold less the reduction target (85% → 28%: 57% of the window). The prefix
 * breaks as seldom as before (each step frees as much), but the request sawtooths lower: where the
 * dialogue is small beside the tool output, a step comes before 85% (in the demo at 68–81% of the
 * window), so every request after it sends fewer tokens.
 * Where the dialogue itself is large, no step frees that much before the threshold, and nothing
 * changes. Only the steady levels (their bounds stay put as the conversation grows); the user's
 * words and the current turn are never touched here.
 */
export function stepEarly(draft: RequestDraft, context: StageContext): RequestDraft {
  const freeAtLeast = context.targetTokens - context.reductionTargetTokens;
  if (
    !context.options.earlySteps ||
    !(freeAtLeast > 0) ||
    draft.dropped > 0 ||
    draft.originalHistory.length === 0
  )
    return draft;
  const tokens = context.count(draft);
  if (tokens <= freeAtLeast) return draft;
  const history = tokens - context.count(draft.with({ history: [] }));
  if (history <= freeAtLeast) return draft;
  // A step that cannot get the history this low is not taken (`fitHistory` through `steady`).
  const lowRoom = history - freeAtLeast;
  return fitHistory(draft, context, 'steady', { room: lowRoom, lowRoom });
}
