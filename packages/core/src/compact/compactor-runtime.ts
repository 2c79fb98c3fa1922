import type { Message } from '../message/message';
import type { CompactionState } from '../store/compaction-state';
import type { CompactionStore } from '../store/compaction-store';
import { stateMatches } from './compaction-layout';
import type { ResolvedCompactionOptions } from './compaction-options';
import type { ContextWindows } from './context-windows';
import type { ConversationFlights } from './conversation-flights';
import type { DistributedFlight } from './distributed-flight';
import { splitProviderCompacted, withoutProviderCompacted } from './provider-compacted';
import type { RequestMemory } from './request-memory';
import type { SummaryCooldowns } from './summary-cooldowns';

/** What the steps of a compactor share: its options, its store, and what it remembers. */
export interface CompactorRuntime {
  readonly resolved: ResolvedCompactionOptions;
  readonly store: CompactionStore;
  /** The store as every instance shares it: reads, compare-and-set writes, the lease. */
  readonly shared: DistributedFlight;
  readonly flights: ConversationFlights;
  readonly cooldowns: SummaryCooldowns;
  readonly windows: ContextWindows;
  readonly requests: RequestMemory;
}

/** The options with a per-call model or provider in place of the configured one. */
export function withOverrides(
  resolved: ResolvedCompactionOptions,
  model: string | undefined,
  provider: string | undefined,
): ResolvedCompactionOptions {
  return (model === undefined || model === resolved.model) &&
    (provider === undefined || provider === resolved.provider)
    ? resolved
    : {
        ...resolved,
        ...(model === undefined ? {} : { model }),
        ...(provider === undefined ? {} : { provider }),
      };
}

/** The stored state if it still applies to `messages`. */
export function applicable(
  messages: readonly Message[],
  stored: CompactionState | undefined,
): CompactionState | undefined {
  return stateMatches(withoutProviderCompacted(messages, splitProviderCompacted(messages)), stored)
    ? stored
    : undefined;
}
