import { createRecallRef } from '@spillway/core';
import type { TextValue } from '../large-text/large-text';

/** One kept text. */
export interface RecallEntry {
  /** The reference the marker gave (22 base64url characters, 128 random bits). */
  readonly ref: string;
  readonly text: string;
  /** Characters per estimated token of the text, used to size pages. */
  readonly charsPerToken: number;
  /** Token budget of one page of this text (the budget of the tool whose result it was), if known. */
  readonly pageTokens?: number | undefined;
}

/** Options of {@link RecallStore.put}. */
export interface RecallStorePutOptions {
  /** Characters per estimated token of `text`. */
  charsPerToken: number;
  /**
   * Token budget of one page of this text (the budget of the tool whose result it was).
   * @default undefined (the recall tool's own budget)
   */
  pageTokens?: number | undefined;
  /**
   * References that this put must not evict (e.g. the other texts of the same result, whose markers
   * point at them). When the text cannot be kept without evicting one of them, it is not kept.
   * @default []
   */
  keep?: readonly string[];
}

/** Options of {@link RecallStore}. */
export interface RecallStoreOptions {
  /**
   * Bytes of kept text over all sessions, counted as 2 per UTF-16 code unit (the most a string takes
   * in memory); the least recently used texts are evicted first. A text larger than this is not kept.
   * @default 268435456 (256 MiB, `DEFAULT_RECALL_STORE_MAX_BYTES`)
   */
  maxBytes?: number;
  /**
   * Texts kept over all sessions.
   * @default 10000
   */
  maxEntries?: number;
}

/** Default byte budget of the recall store: 256 MiB. */
export const DEFAULT_RECALL_STORE_MAX_BYTES = 256 * 1024 * 1024;

const BYTES_PER_CHAR = 2;

/**
 * The full texts of cut results, in memory, private to the process and, within it, to the session
 * (`owner`) that produced them: another owner's reference is unknown. Bounded in bytes and entries
 * over all sessions, the least recently used evicted first; a session's texts are released when it
 * ends. References carry 128 random bits.
 */
export class RecallStore {
  private readonly entries = new Map<string, StoredEntry>();
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly maxBytes: number;
  private readonly maxEntries: number;
  private size = 0;

  constructor({ maxBytes = DEFAULT_RECALL_STORE_MAX_BYTES, maxEntries = 10_000 }: RecallStoreOptions = {}) {
    this.maxBytes = maxBytes;
    this.maxEntries = maxEntries;
  }

  /**
   * Keeps `text` for `owner` and returns its reference, evicting the least recently used texts (never
   * those in `keep`) to make room; `undefined` when it cannot be kept.
   */
  put(
    owner: string,
    text: TextValue,
    { charsPerToken, pageTokens, keep = [] }: RecallStorePutOptions,
  ): string | undefined {
    const kept = keep.filter((ref) => this.entries.has(ref));
    const keptBytes = kept.reduce((sum, ref) => sum + bytesOf(this.entries.get(ref)?.text ?? ''), 0);
    if (bytesOf(text) + keptBytes > this.maxBytes || kept.length + 1 > this.maxEntries) return undefined;
    const ref = createRecallRef();
    this.entries.set(ref, { ref, owner, text, charsPerToken, pageTokens });
    let refs = this.byOwner.get(owner);
    if (refs === undefined) {
      refs = new Set();
      this.byOwner.set(owner, refs);
    }
    refs.add(ref);
    this.size += bytesOf(text);
    for (const oldRef of this.entries.keys()) {
      if (this.size <= this.maxBytes && this.entries.size <= this.maxEntries) break;
      if (oldRef === ref || kept.includes(oldRef)) continue;
      this.delete(oldRef);
    }
    return ref;
  }

  /**
   * The text `owner` kept under `ref` (marked recently used), or `undefined` when the reference is
   * unknown, evicted, or another session's. A text kept in pieces is joined on its first reading.
   */
  get(owner: string, ref: string): RecallEntry | undefined {
    const entry = this.entries.get(ref);
    if (entry === undefined || entry.owner !== owner) return undefined;
    this.entries.delete(ref);
    this.entries.set(ref, entry);
    return asEntry(entry);
  }

  /** Every text `owner` has kept, oldest first. */
  list(owner: string): RecallEntry[] {
    const refs = this.byOwner.get(owner);
    if (refs === undefined) return [];
    return [...refs]
      .map((ref) => this.entries.get(ref))
      .filter((entry) => entry !== undefined)
      .map(asEntry);
  }

  /** Forgets every text of `owner` (its session ended). */
  release(owner: string): void {
    for (const ref of [...(this.byOwner.get(owner) ?? [])]) this.delete(ref);
    this.byOwner.delete(owner);
  }

  /** Bytes currently kept (2 per character). */
  get bytes(): number {
    return this.size;
  }

  private delete(ref: string): void {
    const entry = this.entries.get(ref);
    if (entry === undefined) return;
    this.entries.delete(ref);
    this.size -= bytesOf(entry.text);
    const refs = this.byOwner.get(entry.owner);
    refs?.delete(ref);
    if (refs?.size === 0) this.byOwner.delete(entry.owner);
  }
}

/** An entry as kept: its text may be a large text (read in pieces), joined only when read. */
interface StoredEntry {
  readonly ref: string;
  readonly owner: string;
  readonly text: TextValue;
  readonly charsPerToken: number;
  readonly pageTokens?: number | undefined;
}

function asEntry({ ref, text, charsPerToken, pageTokens }: StoredEntry): RecallEntry {
  return { ref, text: text.toString(), charsPerToken, pageTokens };
}

function bytesOf(text: TextValue): number {
  return text.length * BYTES_PER_CHAR;
}
