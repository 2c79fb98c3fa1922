import { randomBytes } from 'node:crypto';

/** One kept text. */
export interface StoredResult {
  readonly text: string;
  /** Characters per estimated token of the text, used to size pages. */
  readonly charsPerToken: number;
  /** Token budget of one page of this text (the budget of the tool whose result it was), if known. */
  readonly pageTokens?: number | undefined;
}

/** Options of {@link ResultStore.put}. */
export interface ResultStorePutOptions {
  /**
   * Token budget of one page of this text (the budget of the tool whose result it was).
   * @default undefined (the paging tool's own budget)
   */
  pageTokens?: number | undefined;
  /**
   * Ids that this put must not evict (e.g. the other texts of the same result, whose markers point
   * at them). When the text cannot be kept without evicting one of them, it is not kept.
   * @default []
   */
  keep?: readonly string[];
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

  /**
   * Keeps `text` and returns its id, evicting the least recently used entries (never those in
   * `keep`) to make room; `undefined` when it cannot be kept.
   */
  put(
    text: string,
    charsPerToken: number,
    { pageTokens, keep = [] }: ResultStorePutOptions = {},
  ): string | undefined {
    const kept = keep.filter((id) => this.entries.has(id));
    const keptChars = kept.reduce((sum, id) => sum + (this.entries.get(id)?.text.length ?? 0), 0);
    if (text.length + keptChars > this.maxChars || kept.length + 1 > this.maxEntries) return undefined;
    const id = `r${randomBytes(6).toString('hex')}`;
    this.entries.set(id, { text, charsPerToken, pageTokens });
    this.chars += text.length;
    for (const [oldId, entry] of this.entries) {
      if (this.chars <= this.maxChars && this.entries.size <= this.maxEntries) break;
      if (oldId === id || kept.includes(oldId)) continue;
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
