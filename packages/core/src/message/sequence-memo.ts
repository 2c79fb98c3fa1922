import { LRUCache } from 'lru-cache';
import { type ContentMemo, contentMemo, nextContentId } from './content-memo';
import { listMemos } from './list-memos';
import type { Message } from './message';

/**
 * A memo of what is derived from a whole list of messages, by content: an entry is found again when
 * every message holds the content it held (the same content memo, which `recognizeMessages` gives a
 * fresh deserialized copy of an unchanged message) or is the same object. Checking costs one
 * lookup per message; nothing is reread or hashed.
 */
export interface SequenceMemo<Value> {
  /** The value for `messages` under `key` (what else it depends on), computed when not known. */
  get(messages: readonly Message[], key: string, compute: () => Value): Value;
}

/** A new {@link SequenceMemo} remembering `max` lists (the least recently used forgotten first). */
export function createSequenceMemo<Value extends object>({
  max = 64,
}: {
  max?: number;
} = {}): SequenceMemo<Value> {
  const entries = new LRUCache<string, Entry<Value>>({ max });
  return {
    get(messages, key, compute) {
      const slot = `${key}\u0000${messages.length}`;
      const known = entries.get(slot);
      // A recognized request's memos stand for its messages: compared by identity, nothing read.
      const memos = listMemos(messages);
      // A hit allocates nothing: the contents are compared as they are read.
      if (known !== undefined && sameContents(known, messages, memos)) return known.value;
      // Read before `compute`, which may give the messages memos (and so other ids).
      const ids = memos === undefined ? contentIds(messages) : undefined;
      const value = compute();
      entries.set(slot, { ids, memos, value });
      return value;
    },
  };
}

function contentIds(messages: readonly Message[]): number[] {
  const ids = new Array<number>(messages.length);
  for (let index = 0; index < messages.length; index++) ids[index] = contentId(messages[index]!);
  return ids;
}

/** What a list was remembered by: its memos (a recognized request's), else its content ids. */
interface Entry<Value> {
  readonly ids: readonly number[] | undefined;
  readonly memos: readonly ContentMemo[] | undefined;
  readonly value: Value;
}

const ids = new WeakMap<object, number>();

/**
 * A number for the message's content: its content memo's (a property read), else the object's own.
 */
export function contentId(message: Message): number {
  if (typeof message !== 'object' || message === null) return 0;
  const memo = contentMemo(message);
  if (memo !== undefined) return memo.id;
  let id = ids.get(message);
  if (id === undefined) {
    id = nextContentId();
    ids.set(message, id);
  }
  return id;
}

/**
 * The content id of `list[index]`: its memo's when the list's memos are recorded (`memos`, from
 * `listMemos(list)`), else {@link contentId}.
 */
export function contentIdAt(
  list: readonly Message[],
  index: number,
  memos: readonly ContentMemo[] | undefined,
): number {
  return memos?.[index]?.id ?? contentId(list[index]!);
}

/**
 * Whether `messages` (whose memos, when recorded, are `memos`) hold the contents `known` was
 * remembered by, in order: two memos are the same content exactly when they are the same object.
 */
function sameContents(
  known: Entry<unknown>,
  messages: readonly Message[],
  memos: readonly ContentMemo[] | undefined,
): boolean {
  const length = known.ids?.length ?? known.memos!.length;
  if (length !== messages.length) return false;
  if (known.memos !== undefined && memos !== undefined) {
    for (let index = length - 1; index >= 0; index--) if (known.memos[index] !== memos[index]) return false;
    return true;
  }
  for (let index = length - 1; index >= 0; index--) {
    const id = known.ids === undefined ? known.memos![index]!.id : known.ids[index];
    if (id !== contentIdAt(messages, index, memos)) return false;
  }
  return true;
}
