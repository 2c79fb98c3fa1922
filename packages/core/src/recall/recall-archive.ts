import { InvalidConfigError } from '../errors/invalid-config-error';

/** One archived original. */
export interface RecallArchiveEntry {
  /** The reference the cut shows (a `t.` reference). */
  readonly ref: string;
  /** The original text, whole. */
  readonly text: string;
}

/**
 * Where originals that exist nowhere else are kept (a tool result capped at storage time by a
 * chat history, whose stored message holds only the head): the read-back tool finds everything
 * else in the conversation the framework hands it. Entries belong to one conversation; a lookup
 * under another conversation's id finds nothing. Methods may return promises (a shared store).
 */
export interface RecallArchive {
  /** Keeps `entry` for `conversationId` (replacing an entry with the same reference). */
  put(conversationId: string, entry: RecallArchiveEntry): void | Promise<void>;
  /** The entry `conversationId` kept under `ref`, or `undefined` (unknown, evicted, another conversation's). */
  get(
    conversationId: string,
    ref: string,
  ): RecallArchiveEntry | undefined | Promise<RecallArchiveEntry | undefined>;
  /** Every entry `conversationId` has kept, oldest first (for searching). */
  list(conversationId: string): readonly RecallArchiveEntry[] | Promise<readonly RecallArchiveEntry[]>;
}

/** Why an archived original was let go. */
export type RecallEvictionReason = 'bytes' | 'age' | 'too-large';

/** What {@link MemoryRecallArchiveOptions.onEvict} receives. */
export interface RecallEviction {
  conversationId: string;
  ref: string;
  /** Characters of the original let go. */
  chars: number;
  /**
   * `bytes`: the archive was over `maxBytes` (least recently used first); `age`: older than
   * `maxAgeMs`; `too-large`: the text alone is over `maxBytes`, so it was never kept.
   */
  reason: RecallEvictionReason;
}

/** Options of {@link MemoryRecallArchive}. */
export interface MemoryRecallArchiveOptions {
  /**
   * Bytes of archived text over all conversations, counted as 2 per UTF-16 code unit (the most a
   * string takes in memory); the least recently used entries are evicted first.
   * @default 67108864 (64 MiB)
   */
  maxBytes?: number;
  /**
   * Milliseconds an entry is kept after it was archived; older entries are evicted.
   * @default 86400000 (24 hours)
   */
  maxAgeMs?: number;
  /** Called for every entry let go (the adapters turn it into a `recall-evicted` event). Errors are ignored. */
  onEvict?: (eviction: RecallEviction) => void;
  /**
   * The clock, in milliseconds.
   * @default Date.now
   */
  now?: () => number;
}

interface Stored extends RecallArchiveEntry {
  readonly conversationId: string;
  readonly storedAt: number;
}

const BYTES_PER_CHAR = 2;

/**
 * A {@link RecallArchive} in memory, bounded in bytes (least recently used first) and in age, with
 * an eviction callback. Private to the process.
 */
export class MemoryRecallArchive implements RecallArchive {
  private readonly entries = new Map<string, Stored>();
  private readonly maxBytes: number;
  private readonly maxAgeMs: number;
  private readonly onEvict: ((eviction: RecallEviction) => void) | undefined;
  private readonly now: () => number;
  private size = 0;

  constructor({
    maxBytes = 64 * 1024 * 1024,
    maxAgeMs = 24 * 60 * 60 * 1000,
    onEvict,
    now = Date.now,
  }: MemoryRecallArchiveOptions = {}) {
    if (typeof maxBytes !== 'number' || !(maxBytes > 0)) {
      throw new InvalidConfigError({
        option: 'maxBytes',
        value: maxBytes,
        message: 'must be a number above 0',
      });
    }
    if (typeof maxAgeMs !== 'number' || !(maxAgeMs > 0)) {
      throw new InvalidConfigError({
        option: 'maxAgeMs',
        value: maxAgeMs,
        message: 'must be a number above 0',
      });
    }
    this.maxBytes = maxBytes;
    this.maxAgeMs = maxAgeMs;
    this.onEvict = onEvict;
    this.now = now;
  }

  put(conversationId: string, { ref, text }: RecallArchiveEntry): void {
    const key = keyOf(conversationId, ref);
    this.remove(key);
    this.expire();
    if (text.length * BYTES_PER_CHAR > this.maxBytes) {
      this.evicted({ conversationId, ref, chars: text.length, reason: 'too-large' });
      return;
    }
    this.entries.set(key, { conversationId, ref, text, storedAt: this.now() });
    this.size += text.length * BYTES_PER_CHAR;
    for (const [oldKey, entry] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.remove(oldKey);
      this.evicted({
        conversationId: entry.conversationId,
        ref: entry.ref,
        chars: entry.text.length,
        reason: 'bytes',
      });
    }
  }

  get(conversationId: string, ref: string): RecallArchiveEntry | undefined {
    this.expire();
    const key = keyOf(conversationId, ref);
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Recently used: moves to the end of the eviction order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return { ref: entry.ref, text: entry.text };
  }

  list(conversationId: string): RecallArchiveEntry[] {
    this.expire();
    const found: RecallArchiveEntry[] = [];
    for (const entry of this.entries.values()) {
      if (entry.conversationId === conversationId) found.push({ ref: entry.ref, text: entry.text });
    }
    return found;
  }

  /** Bytes currently kept (2 per character). */
  get bytes(): number {
    return this.size;
  }

  private expire(): void {
    const oldest = this.now() - this.maxAgeMs;
    for (const [key, entry] of this.entries) {
      if (entry.storedAt > oldest) continue;
      this.remove(key);
      this.evicted({
        conversationId: entry.conversationId,
        ref: entry.ref,
        chars: entry.text.length,
        reason: 'age',
      });
    }
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.size -= entry.text.length * BYTES_PER_CHAR;
  }

  private evicted(eviction: RecallEviction): void {
    try {
      this.onEvict?.(eviction);
    } catch {
      // A listener must never break the archive.
    }
  }
}

function keyOf(conversationId: string, ref: string): string {
  return `${conversationId.length}:${conversationId}\u0000${ref}`;
}
