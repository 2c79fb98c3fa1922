import type { Message } from './message';
import { ReturnGiven } from './return-given';

/**
 * What is memoised for one content (a message's role and content), shared by every message object
 * found to hold exactly it. A server deserializes every request, so each request carries new
 * objects for old messages; the conversation memo (`recognizeMessages`) gives each new object that
 * holds exactly the content of the previous request's message at its position (checked with
 * `sameContent`) that message's memo, so its count and hash are a property read away.
 */
export interface ContentMemo {
  /** A number naming this content, unique in the process (what sequence memos compare). */
  readonly id: number;
  /** About how many characters the content holds (what remembering it costs). */
  readonly chars: number;
  /** The message's role (compared with the content), when the memo was made for a message. */
  readonly role: string | undefined;
  /** The content hash, once computed (`hashMessages`). */
  digest: { readonly high: number; readonly low: number } | undefined;
  /** The token count by the estimator `countedBy` (the first to count this content). */
  count: number;
  /** The estimator whose count `count` is (others keep theirs in their own maps, by this memo). */
  countedBy: object | undefined;
  /**
   * The text characters of the content's longest tool result (`-1`: it holds none), once computed
   * (`capToolResults`, which then skips a message no limit can cut without reading its parts).
   */
  longestToolResult: number | undefined;
  /** Whether the content holds a provider's compaction block or item, once computed. */
  providerCompaction: boolean | undefined;
}

/** A memo for a content nothing has been computed for yet. */
export function createContentMemo(chars = 0, role?: string): ContentMemo {
  return {
    id: nextContentId(),
    chars,
    role,
    digest: undefined,
    count: 0,
    countedBy: undefined,
    longestToolResult: undefined,
    providerCompaction: undefined,
  };
}

let lastContentId = 0;

/**
 * A new number for a content (a memo's, or an object's own when it has no memo): unique in the
 * process, never reused.
 */
export function nextContentId(): number {
  return ++lastContentId;
}

/**
 * Message objects → their content's memo, kept in a private field stamped on the message object.
 * A private field is invisible to everything else: not a key, not a symbol, not copied by a spread,
 * by `structuredClone` or by `JSON.stringify`, not seen by deep-equality checks. Stamping one costs
 * a property store, where a `WeakMap` entry per message of every deserialized request cost several
 * times more and added weak-table work to every garbage collection (issue 26). The memo lives as
 * long as its message object, so the conversation memo never has to take the memos of an earlier
 * request's objects back one by one; it still removes them when it forgets a conversation.
 * A message without one is memoised by its own identity.
 */
class ContentMemoStamp extends ReturnGiven {
  #memo: ContentMemo | undefined;

  private constructor(target: object, memo: ContentMemo | undefined) {
    super(target);
    this.#memo = memo;
  }

  static get(target: object): ContentMemo | undefined {
    if (#memo in target) return (target as ContentMemoStamp).#memo;
    // Only an object that cannot be stamped is in the fallback map.
    return Object.isExtensible(target) ? undefined : fallback.get(target);
  }

  static set(target: object, memo: ContentMemo | undefined): void {
    if (#memo in target) (target as ContentMemoStamp).#memo = memo;
    else if (Object.isExtensible(target)) new ContentMemoStamp(target, memo);
    else if (memo === undefined) fallback.delete(target);
    else fallback.set(target, memo);
  }
}

/** Memos of frozen or sealed messages (a private field cannot be relied on to stamp them). */
const fallback = new WeakMap<object, ContentMemo>();

/** The memo of `message`'s content, when the conversation memo gave it one. */
export function contentMemo(message: Message): ContentMemo | undefined {
  return typeof message === 'object' && message !== null ? ContentMemoStamp.get(message) : undefined;
}

/**
 * Sets (or with `undefined`, removes) the memo of `message`. Only for the conversation memo: it
 * gives a memo only to a message whose content it has checked.
 */
export function setContentMemo(message: Message, memo: ContentMemo | undefined): void {
  if (typeof message !== 'object' || message === null) return;
  ContentMemoStamp.set(message, memo);
}
