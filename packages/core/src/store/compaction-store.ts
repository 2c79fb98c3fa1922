import type { CompactionState } from './compaction-state';

/**
 * Where compaction state lives between requests, keyed by conversation. Async so a shared store
 * (Redis, a database) can serve many server instances. Implementations must return what was set
 * (a copy is fine) and may forget entries (then the next request compacts again).
 *
 * This is all a simple store needs. A store shared by several processes should also implement
 * {@link VersionedCompactionStore} (compare-and-set writes: a late writer never overwrites a newer
 * state) and {@link LeasingCompactionStore} (a per-conversation lease: one summarizer run per
 * threshold crossing across all instances). `createCompactor` detects both at runtime.
 *
 * A method may throw or reject (the store is down, a value under the key is not a compaction
 * state): the compactor reports a `store-error` event and the request goes on (while the store is
 * down, with states kept in the process's memory; for an unreadable value, without stored state).
 */
export interface CompactionStore {
  get(conversationId: string): Promise<CompactionState | undefined>;
  set(conversationId: string, state: CompactionState): Promise<void>;
  delete(conversationId: string): Promise<void>;
}
