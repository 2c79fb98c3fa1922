import { LRUCache } from 'lru-cache';
import { InvalidConfigError } from '../errors/invalid-config-error';
import type { CompactionState } from './compaction-state';
import type { CompactionStore } from './compaction-store';

/** Options of {@link MemoryCompactionStore}. */
export interface MemoryCompactionStoreOptions {
  /**
   * How many conversations to remember; the least recently used is forgotten first.
   * @default 1000
   */
  maxConversations?: number;
}

/**
 * The default {@link CompactionStore}: an in-process LRU map. State is lost on restart and not
 * shared between processes; use your own store (Redis, a database) for that.
 */
export class MemoryCompactionStore implements CompactionStore {
  readonly #cache: LRUCache<string, CompactionState>;

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
    return this.#cache.get(conversationId);
  }

  async set(conversationId: string, state: CompactionState): Promise<void> {
    this.#cache.set(conversationId, state);
  }

  async delete(conversationId: string): Promise<void> {
    this.#cache.delete(conversationId);
  }

  /** How many conversations are held. */
  get size(): number {
    return this.#cache.size;
  }
}
