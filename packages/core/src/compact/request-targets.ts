import type { Estimator } from '../estimate/estimator';
import { olderBoundary } from './older-boundary';
import type { RequestBudget } from './request-budget';
import type { RequestDraft } from './request-draft';

/** History groups kept verbatim on each overflow retry (seed claw-code #2808). */
export const OVERFLOW_KEEP_GROUPS = [4, 2, 1, 0] as const;
/** Share of the target each overflow retry aims at. */
const OVERFLOW_TARGET_SHARE = [0.8, 0.6, 0.4, 0.25] as const;

/** What one request aims at, in raw tokens (see `StageContext`). */
export interface RequestTargets {
  readonly targetTokens: number;
  readonly reductionTargetTokens: number;
  readonly limitTokens: number;
  readonly mustCover: (draft: RequestDraft) => number;
}

/**
 * The targets of a request: the compact threshold (on an overflow retry, a share of it and of what
 * the provider rejected, while only the newest `4 → 2 → 1 → 0` history groups may stay), the lower
 * target a step aims at, and the limit no request may pass (the window, less the output the caller
 * reserved). Raw tokens: calibrated budgets divided by the calibration factor.
 */
export function requestTargets({
  budget,
  window,
  retry,
  rejectedTokens,
  outputTokens,
  estimator,
  model,
}: {
  budget: RequestBudget;
  window: number;
  retry: number | undefined;
  rejectedTokens: number | undefined;
  outputTokens: number;
  estimator: Estimator;
  model: string | undefined;
}): RequestTargets {
  const toRaw = (tokens: number) => tokens / estimator.calibrationFactor(model);
  const step = retry === undefined ? undefined : Math.min(retry, OVERFLOW_KEEP_GROUPS.length) - 1;
  const share = step === undefined ? 1 : OVERFLOW_TARGET_SHARE[step]!;
  // A retry aims under a share of what was rejected too: the provider's count is what matters.
  const target =
    step === undefined
      ? budget.compactTokens
      : Math.min(
          budget.compactTokens * share,
          rejectedTokens === undefined
            ? Number.POSITIVE_INFINITY
            : estimator.calibrated(rejectedTokens, model) * share,
        );
  const keepGroups = step === undefined ? undefined : OVERFLOW_KEEP_GROUPS[step];
  return {
    targetTokens: toRaw(target),
    reductionTargetTokens: toRaw(target * (budget.reductionTargetTokens / budget.compactTokens)),
    limitTokens: toRaw(Math.max(target, window - Math.max(0, outputTokens))),
    mustCover:
      keepGroups === undefined
        ? () => 0
        : (draft) =>
            Math.min(
              draft.originalHistory.length,
              olderBoundary([...draft.originalHistory, ...draft.originalTurn], {
                protectTokens: 0,
                keepGroups,
                estimator,
              }),
            ),
  };
}
