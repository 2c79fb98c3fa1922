import { randomBytes } from 'node:crypto';

/** One kept text. */
export interface StoredResult {
  readonly text: string;
  /** Characters per estimated token of the text, used to size pages. */
  readonly charsPerToken: number;
}

/** Options of {@link ResultStore}. */
export interface ResultStoreOptions {
  /**
   * Characters kept over all entries; the least recently used go first. A text longer than this is
   * not kept.
   * @default 100000000
   */
  maxChars?: number;
  /**
   * Entries kept.
   * @default 1000
   */
  maxEntries?: number;
}

/**
 * The full texts of cut results, private to the process, bounded in characters and entries (least
 * recently used evicted first). Ids are random, so one client cannot guess another's.
 */
export class ResultStore {
  private readonly entries = new Map<string, StoredResult>();
  private readonly maxChars: number;
  private readonly maxEntries: number;
  private chars = 0;

  constructor({ maxChars = 100_000_000, maxEntries = 1000 }: ResultStoreOptions = {}) {
    this.maxChars = maxChars;
    this.maxEntries = maxEntries;
  }

  /** Keeps `text` and returns its id, or `undefined` when it is larger than the whole store. */
  put(text: string, charsPerToken: number): string | undefined {
    if (text.length > this.maxChars || this.maxEntries < 1) return undefined;
    const id = `r${randomBytes(6).toString('hex')}`;
    this.entries.set(id, { text, charsPerToken });
    this.chars += text.length;
    for (const [oldId, entry] of this.entries) {
      if (this.chars <= this.maxChars && this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldId);
      this.chars -= entry.text.length;
    }
    return id;
  }

  /** The text kept under `id` (and marks it recently used), or `undefined` when unknown or evicted. */
  get(id: string): StoredResult | undefined {
    const entry = this.entries.get(id);
    if (entry === undefined) return undefined;
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry;
  }

  /** Characters currently kept. */
  get size(): number {
    return this.chars;
  }
}
