import type { Message } from './message';

/**
 * What is memoised for one content (a message's role and content), shared by every message object
 * found to hold exactly it. A server deserializes every request, so each request carries new
 * objects for old messages; the conversation memo (`recognizeMessages`) gives each new object that
 * holds exactly the content of the previous request's message at its position (checked with
 * `sameContent`) that message's memo, so its count and hash are a property read away.
 */
export interface ContentMemo {
  /** The content hash, once computed (`hashMessages`). */
  digest: { readonly high: number; readonly low: number } | undefined;
  /** The token count by the estimator `countedBy` (the first to count this content). */
  count: number;
  /** The estimator whose count `count` is (others keep theirs in their own maps, by this memo). */
  countedBy: object | undefined;
}

/** A memo for a content nothing has been computed for yet. */
export function createContentMemo(): ContentMemo {
  return { digest: undefined, count: 0, countedBy: undefined };
}

/**
 * Message objects → their content's memo. Weak: an entry lives as long as its message object (a
 * request's objects are held by the caller for the whole request, whatever it awaits), so the
 * conversation memo never has to take the memos of an earlier request's objects back one by one;
 * it still removes them when it forgets a conversation. A message without one is memoised by its
 * own identity.
 */
const memos = new WeakMap<Message, ContentMemo>();

/** The memo of `message`'s content, when the conversation memo gave it one. */
export function contentMemo(message: Message): ContentMemo | undefined {
  return typeof message === 'object' && message !== null ? memos.get(message) : undefined;
}

/**
 * Sets (or with `undefined`, removes) the memo of `message`. Only for the conversation memo: it
 * gives a memo only to a message whose content it has checked.
 */
export function setContentMemo(message: Message, memo: ContentMemo | undefined): void {
  if (typeof message !== 'object' || message === null) return;
  if (memo === undefined) memos.delete(message);
  else memos.set(message, memo);
}
