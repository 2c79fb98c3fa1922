import type { Message } from '../message/message';
import { providerProfile } from '../provider/provider-profile';
import type { CompactionState } from '../store/compaction-state';
import { capToolResults } from '../truncate/cap-tool-results';
import { assembleRequest, layoutConversation, stateMatches } from './compaction-layout';
import type { ResolvedCompactionOptions } from './compaction-options';
import {
  type ProviderCompactedSplit,
  providerLiveFrozen,
  providerSplitOf,
  withoutProviderCompacted,
} from './provider-compacted';

/**
 * Whether a request might summarize: it is an overflow retry, or with the stored summary applied it
 * is at or over the compact threshold. A superset of the requests `runCompaction` summarizes (it
 * may still get under the threshold by shortening tool results), so a compactor that takes the
 * lease only when this says so never summarizes without it.
 */
export function needsSummary({
  messages,
  state,
  options,
  contextWindow,
  overheadTokens = 0,
  overflowAttempt,
  providerSplit,
}: {
  messages: readonly Message[];
  /** Where a provider's own compaction left `messages` (`null`: nowhere). @default found here */
  providerSplit?: ProviderCompactedSplit | null;
  state: CompactionState | undefined;
  options: ResolvedCompactionOptions;
  contextWindow: number | undefined;
  overheadTokens?: number;
  overflowAttempt?: number;
}): boolean {
  if (overflowAttempt !== undefined) return true;
  if (contextWindow === undefined) return false;
  const { model } = options;
  const estimator =
    options.provider === undefined || options.estimator.forProvider === undefined
      ? options.estimator
      : options.estimator.forProvider(providerProfile(options.provider));
  // What the provider compacted itself is not counted; its block (and its message) is.
  const split = providerSplitOf(messages, providerSplit);
  const frozen = split === undefined ? 0 : estimator.countMessages(providerLiveFrozen(messages, split));
  const live = withoutProviderCompacted(messages, split);
  const working = capToolResults(live, {
    maxChars: options.toolResultMaxChars,
    limits: options.toolResultLimits,
  }).messages;
  const applies = stateMatches(live, state);
  const request = applies
    ? assembleRequest({
        layout: layoutConversation(working, state!.coveredCount),
        summaries: state!.summaries,
        placement: options.summaryPlacement,
      })
    : working;
  const tokens = estimator.calibrated(estimator.countMessages(request) + overheadTokens + frozen, model);
  return tokens >= contextWindow * options.thresholds.compact;
}
