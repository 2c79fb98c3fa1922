import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import { collectPinnedRules, type PinnedRule } from '../pin/collect-pinned-rules';
import { PINNED_RULES_MAX_TOKENS, PINNED_RULES_WINDOW_SHARE } from '../pin/pinned-block';
import type { RecallMarks } from '../recall/recall-marks';
import type { CompactionState } from '../store/compaction-state';
import { boundSummaries } from './bound-summaries';
import { layoutConversation } from './compaction-layout';
import type { ResolvedCompactionOptions } from './compaction-options';
import type { RequestBudget } from './request-budget';
import { createDraft, type DraftSettings, type RequestDraft } from './request-draft';

/**
 * Makes the first draft of a request for a state (again after a summary is made): the layout
 * around its covered prefix, its summaries within their bound, and what every draft shares — the
 * references, the read-back line, the standing rules (detected in the user's words and named by
 * summaries, collected once per state), the bounds of the pinned block and of the user's words.
 */
export function createDraftFactory({
  working,
  originals,
  options,
  budget,
  window,
  estimator,
  marks,
  announce,
}: {
  working: readonly Message[];
  originals: readonly Message[];
  options: ResolvedCompactionOptions;
  budget: RequestBudget | undefined;
  window: number | undefined;
  estimator: Estimator;
  marks: RecallMarks | undefined;
  announce: boolean;
}): (state: CompactionState | undefined) => RequestDraft {
  const { pinnedRules } = options;
  return (state) => {
    let rules: PinnedRule[] | undefined;
    const settings: DraftSettings = {
      placement: options.summaryPlacement,
      marks,
      announce,
      rules:
        pinnedRules === false
          ? undefined
          : () => {
              rules ??= [
                ...collectPinnedRules(originals, { detect: pinnedRules.detect, pin: options.pin }),
                ...(state?.pinned ?? []).map((quote) => ({ ...quote, source: 'explicit' as const })),
              ];
              return rules;
            },
      pinnedMaxTokens:
        pinnedRules === false
          ? 0
          : (pinnedRules.maxTokens ??
            Math.min(
              PINNED_RULES_MAX_TOKENS,
              Math.max(1, Math.floor((window ?? Number.POSITIVE_INFINITY) * PINNED_RULES_WINDOW_SHARE)),
            )),
      userWordsMaxTokens: budget?.userWordsMaxTokens ?? Number.POSITIVE_INFINITY,
      blobMinChars: budget?.blobMinChars ?? Number.POSITIVE_INFINITY,
      blobKeepChars: budget?.blobKeepChars ?? 0,
      countText: (text) => estimator.countText(text),
      countScope: estimator,
      countMessages: (list) => estimator.countMessages(list),
    };
    return createDraft(
      layoutConversation(working, state?.coveredCount ?? 0),
      {
        coveredCount: state?.coveredCount ?? 0,
        summaries:
          budget === undefined || state === undefined
            ? (state?.summaries ?? [])
            : boundSummaries(state.summaries, budget.summaryMaxTokens, estimator),
      },
      settings,
    );
  };
}
