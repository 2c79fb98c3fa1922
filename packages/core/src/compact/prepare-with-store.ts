import type { CompactionState } from '../store/compaction-state';
import { claimSummary } from './claim-summary';
import type { CompactMessagesResult } from './compact-messages-types';
import type { DistributedFlight } from './distributed-flight';

/**
 * One request's compaction against the store: reads the state, and when the request might summarize
 * claims the conversation across instances first (waiting up to `waitMs` for another instance's
 * summary), then computes and writes the new state with compare-and-set and the lease's fencing
 * token. A failed read means no summary and no write for this request (the request still goes out,
 * shortened without a model).
 */
export async function prepareWithStore<Result extends CompactMessagesResult>({
  flight,
  conversationId,
  allowSummarize,
  needsSummary,
  compute,
  waitMs,
  abortSignal,
}: {
  flight: DistributedFlight;
  conversationId: string;
  allowSummarize: boolean;
  needsSummary: (state: CompactionState | undefined) => boolean;
  compute: (state: CompactionState | undefined, allowSummarize: boolean) => Promise<Result>;
  /** Longest wait for another instance's summary, in milliseconds. */
  waitMs: number;
  abortSignal?: AbortSignal;
}): Promise<Result> {
  const loaded = await flight.read(conversationId);
  const { revision } = loaded;
  if (!allowSummarize || revision === undefined) return compute(loaded.state, false);
  if (!flight.leasing) {
    const result = await compute(loaded.state, true);
    if (result.stateChanged && result.state) await flight.write(conversationId, result.state, { revision });
    return result;
  }
  if (!needsSummary(loaded.state)) return compute(loaded.state, false);
  const claim = await claimSummary(flight, conversationId, {
    loaded: { state: loaded.state, revision },
    stillNeeded: needsSummary,
    wait: { deadline: Date.now() + waitMs, abortSignal },
  });
  if (claim.kind === 'skip') return compute(claim.loaded.state, false);
  try {
    const result = await compute(claim.loaded.state, true);
    if (result.stateChanged && result.state) {
      await flight.write(conversationId, result.state, {
        revision: claim.loaded.revision,
        lease: claim.lease,
      });
    }
    return result;
  } finally {
    await claim.lease?.release();
  }
}
