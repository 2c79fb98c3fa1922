import type { CompactionState } from './compaction-state';

/**
 * Where compaction state lives between requests, keyed by conversation. Async so a shared store
 * (Redis, a database) can serve many server instances. Implementations must return what was set
 * (a copy is fine) and may forget entries (then the next request compacts again).
 */
export interface CompactionStore {
  get(conversationId: string): Promise<CompactionState | undefined>;
  set(conversationId: string, state: CompactionState): Promise<void>;
  delete(conversationId: string): Promise<void>;
}
