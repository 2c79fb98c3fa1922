import type { CompactionState } from '../store/compaction-state';
import type { DistributedFlight, HeldLease, LoadedState } from './distributed-flight';

/** What {@link claimSummary} decided. */
export type SummaryClaim =
  /** Summarize from `loaded`, then write with `lease` (none when the store has no leases) and release it. */
  | { kind: 'claimed'; loaded: LoadedState & { revision: number }; lease: HeldLease | undefined }
  /** Do not summarize: another instance did (then `loaded` holds its state), is doing it, or the store failed. */
  | { kind: 'skip'; loaded: LoadedState };

/**
 * Makes this compactor the conversation's only summarizer across every instance sharing the store,
 * or says why not. Takes the lease; re-reads the state under it (another instance may have finished
 * just before), and keeps the claim only while `stillNeeded` holds for what is stored. When the
 * lease is held elsewhere: with `wait`, waits for that instance's state (or for its lease to expire,
 * then takes over); without, skips. Without a leasing store every claim succeeds (local
 * single-flight still applies).
 */
export async function claimSummary(
  flight: DistributedFlight,
  conversationId: string,
  {
    loaded,
    stillNeeded,
    wait,
  }: {
    loaded: LoadedState & { revision: number };
    stillNeeded: (state: CompactionState | undefined) => boolean | Promise<boolean>;
    wait?: { deadline: number; abortSignal?: AbortSignal };
  },
): Promise<SummaryClaim> {
  if (!flight.leasing) return { kind: 'claimed', loaded, lease: undefined };
  const taken = await flight.acquire(conversationId);
  if (taken === 'unavailable') return { kind: 'skip', loaded };
  if (taken === 'held') {
    if (wait === undefined) return { kind: 'skip', loaded };
    const outcome = await flight.waitForHolder(conversationId, { revision: loaded.revision, ...wait });
    if (outcome.kind === 'gave-up') return { kind: 'skip', loaded };
    if (outcome.kind === 'state') return { kind: 'skip', loaded: outcome.loaded };
    return keepIfNeeded(outcome.lease, outcome.loaded);
  }
  // Under the lease, read again: another instance may have stored a state since our first read.
  const fresh = await flight.read(conversationId);
  return keepIfNeeded(taken, fresh);

  async function keepIfNeeded(lease: HeldLease, current: LoadedState): Promise<SummaryClaim> {
    if (current.revision === undefined) {
      await lease.release();
      return { kind: 'skip', loaded };
    }
    if (current.revision !== loaded.revision && !(await stillNeeded(current.state))) {
      await lease.release();
      return { kind: 'skip', loaded: current };
    }
    return { kind: 'claimed', loaded: { state: current.state, revision: current.revision }, lease };
  }
}
