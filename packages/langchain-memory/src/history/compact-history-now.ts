import type { BaseMessage } from '@langchain/core/messages';
import { type Message, stateMatches } from '@spillway/core';
import type { CompactNowResult } from '../compact/compact-now-result';
import { toNeutralMessages } from '../convert/to-neutral-messages';
import { historyConversationId } from './history-conversation-id';
import type { HistoryRuntime } from './history-runtime';

/**
 * Compacts now, whatever the usage: summarizes what is older than the kept window into the summary
 * in force, then reads the new view with `freshView` and reports what was done. The stored messages
 * stay as they are.
 */
export async function compactHistoryNow(
  runtime: HistoryRuntime,
  { signal, freshView }: { signal: AbortSignal | undefined; freshView: () => Promise<BaseMessage[]> },
): Promise<CompactNowResult> {
  const { compactor, contextWindow, modelName } = runtime;
  const neutral = toNeutralMessages(await runtime.history.getMessages());
  const conversationId = historyConversationId(runtime.conversationId, neutral);
  const previous = await compactor.store.get(conversationId).catch(() => undefined);
  const coveredBefore = stateMatches(neutral, previous) ? previous!.coveredCount : 0;
  const state =
    neutral.length === 0
      ? undefined
      : await compactor.compact(neutral, {
          conversationId,
          ...(contextWindow === undefined ? {} : { contextWindow }),
          ...(modelName === undefined ? {} : { model: modelName }),
          ...(signal === undefined ? {} : { abortSignal: signal }),
        });
  const messages = await freshView();
  const coveredCount = stateMatches(neutral, state) ? state!.coveredCount : 0;
  const count = (list: readonly Message[]) =>
    compactor.estimator.calibrated(compactor.estimator.countMessages(list), modelName);
  return {
    compacted: coveredCount > coveredBefore,
    coveredCount,
    newlyCoveredCount: Math.max(0, coveredCount - coveredBefore),
    tokensBefore: count(neutral),
    tokensAfter: count(toNeutralMessages(messages)),
    state: coveredCount > 0 ? state : undefined,
    messages,
  };
}
