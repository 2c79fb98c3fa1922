import { LRUCache } from 'lru-cache';
import { InvalidConfigError } from '../errors/invalid-config-error';
import type { CompactionState } from './compaction-state';
import type {
  AcquireLeaseOptions,
  AcquireLeaseResult,
  CompactionLease,
  LeasingCompactionStore,
} from './leasing-compaction-store';
import type {
  CompareAndSetOptions,
  CompareAndSetResult,
  VersionedCompactionState,
} from './versioned-compaction-store';

/** Options of {@link MemoryCompactionStore}. */
export interface MemoryCompactionStoreOptions {
  /**
   * How many conversations to remember; the least recently used is forgotten first.
   * @default 1000
   */
  maxConversations?: number;
}

interface Entry {
  state: CompactionState | undefined;
  revision: number;
  /** The token of the last lease granted (0: none). */
  fence: number;
  lease: CompactionLease | undefined;
}

/**
 * The default store: an in-process LRU map. State is lost on restart and not shared between
 * processes; use `@spillway/redis` or `@spillway/postgres` for that. It implements the whole
 * contract (compare-and-set writes and leases), so the same rules hold, and are tested, for every
 * store.
 */
export class MemoryCompactionStore implements LeasingCompactionStore {
  readonly #cache: LRUCache<string, Entry>;
  /** Fencing tokens come from one counter, so a forgotten conversation never reissues a token. */
  #lastToken = 0;

  constructor({ maxConversations = 1000 }: MemoryCompactionStoreOptions = {}) {
    if (!Number.isInteger(maxConversations) || maxConversations < 1) {
      throw new InvalidConfigError({
        option: 'maxConversations',
        value: maxConversations,
        message: 'must be a whole number of at least 1',
      });
    }
    this.#cache = new LRUCache({ max: maxConversations });
  }

  async get(conversationId: string): Promise<CompactionState | undefined> {
    return this.#cache.get(conversationId)?.state;
  }

  async set(conversationId: string, state: CompactionState): Promise<void> {
    const entry = this.#entry(conversationId);
    entry.state = state;
    entry.revision++;
  }

  async delete(conversationId: string): Promise<void> {
    this.#cache.delete(conversationId);
  }

  async read(conversationId: string): Promise<VersionedCompactionState | undefined> {
    const entry = this.#cache.get(conversationId);
    return entry?.state ? { state: entry.state, revision: entry.revision } : undefined;
  }

  async compareAndSet(
    conversationId: string,
    state: CompactionState,
    { expectedRevision, fencingToken }: CompareAndSetOptions,
  ): Promise<CompareAndSetResult> {
    const entry = this.#cache.get(conversationId);
    if (fencingToken !== undefined && (entry === undefined || entry.fence !== fencingToken)) {
      return { ok: false, reason: 'fenced' };
    }
    const current = entry?.state ? entry.revision : 0;
    if (current !== expectedRevision) return { ok: false, reason: 'conflict' };
    const target = entry ?? this.#entry(conversationId);
    target.state = state;
    target.revision++;
    return { ok: true, revision: target.revision };
  }

  async acquireLease(
    conversationId: string,
    { holder, ttlMs }: AcquireLeaseOptions,
  ): Promise<AcquireLeaseResult> {
    const entry = this.#entry(conversationId);
    const now = Date.now();
    if (entry.lease && entry.lease.expiresAt > now) return { acquired: false, current: entry.lease };
    const token = ++this.#lastToken;
    entry.fence = token;
    entry.lease = { token, holder, expiresAt: now + ttlMs };
    return { acquired: true, lease: entry.lease };
  }

  async renewLease(
    conversationId: string,
    { token, ttlMs }: { token: number; ttlMs: number },
  ): Promise<boolean> {
    const lease = this.#cache.get(conversationId)?.lease;
    const now = Date.now();
    if (lease === undefined || lease.token !== token || lease.expiresAt <= now) return false;
    this.#cache.get(conversationId)!.lease = { ...lease, expiresAt: now + ttlMs };
    return true;
  }

  async releaseLease(conversationId: string, { token }: { token: number }): Promise<void> {
    const entry = this.#cache.get(conversationId);
    if (entry?.lease?.token === token) entry.lease = undefined;
  }

  /** How many conversations are held. */
  get size(): number {
    return this.#cache.size;
  }

  #entry(conversationId: string): Entry {
    let entry = this.#cache.get(conversationId);
    if (entry === undefined) {
      entry = { state: undefined, revision: 0, fence: 0, lease: undefined };
      this.#cache.set(conversationId, entry);
    }
    return entry;
  }
}
