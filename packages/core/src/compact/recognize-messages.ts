import { LRUCache } from 'lru-cache';
import { type ContentMemo, createContentMemo, setContentMemo } from '../message/content-memo';
import { listFacts, recordListMemos } from '../message/list-memos';
import type { Message } from '../message/message';
import { sameContent } from '../message/same-content';
import { scopeId } from './scope-id';

/**
 * Characters of recent conversations remembered, in all (least recently used forgotten first). A
 * conversation longer than this is not remembered: its requests cost a full count and hash.
 */
export const RECOGNIZED_CONVERSATION_CHARS = 256_000_000;

/**
 * What is remembered of a conversation: its latest request (each message with its memo stamped),
 * and beside it, index for index, the memos (read without reaching each message object).
 */
interface Remembered {
  messages: readonly Message[];
  memos: readonly ContentMemo[];
  /** Characters of the messages (what it costs to remember them). */
  total: number;
}

const forget = (entry: Remembered) => {
  for (const message of entry.messages) setContentMemo(message, undefined);
};

const conversations = new LRUCache<string, Remembered>({
  maxSize: RECOGNIZED_CONVERSATION_CHARS,
  sizeCalculation: (entry) => Math.max(1, entry.total),
  // Replacing an entry is handled in `recognizeMessages` (the new request keeps some memos).
  noDisposeOnSet: true,
  dispose: forget,
});

/**
 * A per-conversation memo of the latest request. A server deserializes every request into new
 * objects, so per-object memos (token counts, content hashes) would miss on every message of every
 * request. This compares each message with the one at the same position in the conversation's
 * previous request (`sameContent`: exact, content against content, native string comparison, no
 * hashing) and gives an equal one that message's content memo (`contentMemo`), which holds its count
 * and hash. A request costs one structural comparison per message instead of
 * estimating and hashing all its text; new and changed messages get new memos and are counted and
 * hashed as usual.
 *
 * Exactness does not depend on the conversation id: an id shared by two conversations (a derived
 * id) only makes messages compare unequal, never lends a message another's count or hash.
 *
 * Like every per-object memo of the engine, this assumes messages are not mutated after a request
 * (replace a message rather than editing it in place).
 */
export function recognizeMessages(
  messages: readonly Message[],
  {
    conversationId,
    scope = globalScope,
  }: {
    conversationId: string;
    /**
     * Whose conversations these are (a compactor passes its estimator): two compactors in one
     * process that see the same conversation id (derived ids often coincide) keep apart.
     * @default one scope for every caller
     */
    scope?: object;
  },
): void {
  const key = `${scopeId(scope)}\u0000${conversationId}`;
  const previous = conversations.get(key);
  let total = 0;
  let changed = previous === undefined || previous.messages.length !== messages.length;
  const memos = new Array<ContentMemo>(messages.length);
  // What the whole request holds, when every memo knows it already (see `listFacts`).
  let longestToolResult = -1;
  let providerCompaction = false;
  let systemIndexes: number[] | undefined = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    const earlier = previous?.messages[index];
    // An equal message of the previous request lends its memo (also stamped on it when it was
    // recognized, and kept there until it is collected).
    let memo: ContentMemo;
    if (earlier !== undefined && (earlier === message || sameContent(earlier, message))) {
      memo = previous!.memos[index]!;
      if (earlier !== message) {
        setContentMemo(message, memo);
        changed = true;
      }
    } else {
      memo = createContentMemo(contentChars(message, 0), (message as Message | null)?.role);
      setContentMemo(message, memo);
      changed = true;
    }
    memos[index] = memo;
    total += memo.chars;
    longestToolResult = Math.max(longestToolResult, memo.longestToolResult ?? Number.POSITIVE_INFINITY);
    providerCompaction ||= memo.providerCompaction !== false;
    // A memo without a role (not a message): the roles are read where needed.
    if (memo.role === undefined) systemIndexes = undefined;
    else if (memo.role === 'system') systemIndexes?.push(index);
  }
  const facts = listFacts(memos);
  if (longestToolResult !== Number.POSITIVE_INFINITY) facts.longestToolResult = longestToolResult;
  if (!providerCompaction) facts.providerCompaction = false;
  facts.systemIndexes = systemIndexes;
  if (!changed) {
    recordListMemos(messages, previous!.messages, memos);
    return;
  }
  const snapshot = messages.slice();
  recordListMemos(messages, snapshot, memos);
  if (total > RECOGNIZED_CONVERSATION_CHARS) {
    conversations.delete(key);
    return;
  }
  conversations.set(key, { messages: snapshot, memos, total });
}

const globalScope = {};

/** About how many characters a value holds (strings, bytes, and a little per object). */
function contentChars(value: unknown, depth: number): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null || depth > 32) return 8;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (value instanceof ArrayBuffer) return value.byteLength;
  let chars = 16;
  if (Array.isArray(value)) {
    for (const item of value) chars += contentChars(item, depth + 1);
    return chars;
  }
  for (const key in value) {
    if (Object.hasOwn(value, key)) {
      chars += key.length + contentChars((value as Record<string, unknown>)[key], depth + 1);
    }
  }
  return chars;
}
