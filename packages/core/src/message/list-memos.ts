import type { ContentMemo } from './content-memo';
import type { Message } from './message';
import { ReturnGiven } from './return-given';

/** What was recorded for a list: its messages then (to see it was not changed since) and memos. */
interface Recorded {
  readonly messages: readonly Message[];
  readonly memos: readonly ContentMemo[];
}

/**
 * Lists → what was recorded for them, in a private field stamped on the list (see `ReturnGiven`):
 * the engine records every request and several slices of it per request, and a `WeakMap` entry per
 * list (with one per memos array for its facts) cost about a sixth of a small request's own time
 * (issue 26). Frozen lists keep theirs in `frozenLists`.
 */
class RecordStamp extends ReturnGiven {
  #recorded: Recorded;

  private constructor(target: object, recorded: Recorded) {
    super(target);
    this.#recorded = recorded;
  }

  static get(list: readonly Message[]): Recorded | undefined {
    if (#recorded in list) return (list as unknown as RecordStamp).#recorded;
    return Object.isExtensible(list) ? undefined : frozenLists.get(list);
  }

  static set(list: readonly Message[], recorded: Recorded): void {
    if (#recorded in list) (list as unknown as RecordStamp).#recorded = recorded;
    else if (Object.isExtensible(list)) new RecordStamp(list, recorded);
    else frozenLists.set(list, recorded);
  }
}

const frozenLists = new WeakMap<readonly Message[], Recorded>();

/**
 * Records the content memos of `list`'s messages, index for index (the conversation memo records
 * each request it recognized). `messages` is a copy of the list as it is now, so that a list changed
 * in place later is not read with memos that are no longer its own.
 */
export function recordListMemos(
  list: readonly Message[],
  messages: readonly Message[],
  memos: readonly ContentMemo[],
): void {
  RecordStamp.set(list, { messages, memos });
}

/**
 * The content memos of `list`'s messages, index for index, when they were recorded for this list and
 * it still holds the same message objects. A pass over a request (the engine makes several) reads
 * this compact array instead of each message object: on a server's fresh copy of a long
 * conversation, reaching every message object again costs more than the pass's own work.
 */
export function listMemos(list: readonly Message[]): readonly ContentMemo[] | undefined {
  const recorded = RecordStamp.get(list);
  if (recorded === undefined || recorded.messages.length !== list.length) return undefined;
  const { messages } = recorded;
  // Identity only: array slots, no message object is read (a slice is its own record).
  if (messages !== list)
    for (let index = 0; index < messages.length; index++)
      if (messages[index] !== list[index]) return undefined;
  return recorded.memos;
}

/**
 * Records `derived` (a new list holding the same message objects as `list`, index for index) with
 * `list`'s memos, when `list` has them.
 */
export function shareListMemos(list: readonly Message[], derived: readonly Message[]): void {
  const recorded = RecordStamp.get(list);
  if (recorded !== undefined) RecordStamp.set(derived, recorded);
}

/**
 * What is known of a whole recorded list, by its memos array (the one array the list and its
 * unchanged copies share; a memo is per content, so these never change): filled by the pass that
 * finds it out, or by `recognizeMessages` when every memo of a request knows it already. A pass
 * over a request the engine runs more than once, or on every request of a conversation, then costs
 * one lookup.
 */
export interface ListFacts {
  /** The text characters of the longest tool result of any message (`-1`: none), once known. */
  longestToolResult: number | undefined;
  /** Whether any message holds a provider's compaction block or item, once known. */
  providerCompaction: boolean | undefined;
  /**
   * The indexes of the list's system messages, ascending (usually none, or the first), once known:
   * a pass that needs only the roles reads this instead of every memo.
   */
  systemIndexes: readonly number[] | undefined;
}

/**
 * Memos arrays → their {@link ListFacts}, stamped on the array (the engine makes every memos array,
 * and never freezes one; a frozen one would keep its facts in `frozenFacts`).
 */
class FactsStamp extends ReturnGiven {
  #facts: ListFacts;

  private constructor(target: object, facts: ListFacts) {
    super(target);
    this.#facts = facts;
  }

  static of(memos: readonly ContentMemo[]): ListFacts {
    if (#facts in memos) return (memos as unknown as FactsStamp).#facts;
    // Only an array that cannot be stamped is looked up in (and added to) the fallback map.
    const stampable = Object.isExtensible(memos);
    let facts = stampable ? undefined : frozenFacts.get(memos);
    if (facts !== undefined) return facts;
    facts = { longestToolResult: undefined, providerCompaction: undefined, systemIndexes: undefined };
    if (stampable) new FactsStamp(memos, facts);
    else frozenFacts.set(memos, facts);
    return facts;
  }
}

const frozenFacts = new WeakMap<readonly ContentMemo[], ListFacts>();

/** The {@link ListFacts} of the list whose memos are `memos` (from `listMemos`). */
export function listFacts(memos: readonly ContentMemo[]): ListFacts {
  return FactsStamp.of(memos);
}

/**
 * `list.slice(from, to)`, recorded with the matching memos when `list` has them (`memos`: what
 * `listMemos(list)` gave the caller already). For the lists the engine makes from a request and does
 * not change (the covered span, the history, the turn): the slice is its own record of its messages.
 */
export function sliceMessages(
  list: readonly Message[],
  from: number,
  to = list.length,
  memos = listMemos(list),
): Message[] {
  const slice = list.slice(from, to);
  if (memos !== undefined) {
    const sliced = memos.slice(from, to);
    RecordStamp.set(slice, { messages: slice, memos: sliced });
    // Where its system messages are, when the list's are known (a few indexes to shift).
    const systems = listFacts(memos).systemIndexes;
    if (systems !== undefined) {
      const end = Math.min(to, list.length);
      listFacts(sliced).systemIndexes = systems
        .filter((index) => index >= from && index < end)
        .map((index) => index - from);
    }
  }
  return slice;
}

/**
 * The role of `list[index]`: from its memo when the list's memos are recorded (`memos`, from
 * `listMemos(list)`), else read from the message.
 */
export function roleAt(
  list: readonly Message[],
  index: number,
  memos: readonly ContentMemo[] | undefined,
): string {
  return memos?.[index]?.role ?? list[index]!.role;
}

/**
 * The indexes of `list`'s system messages, ascending, when its memos (`memos`, from `listMemos`)
 * know them; `undefined` otherwise (read the roles).
 */
export function knownSystemIndexes(memos: readonly ContentMemo[] | undefined): readonly number[] | undefined {
  return memos === undefined ? undefined : listFacts(memos).systemIndexes;
}

/**
 * The indexes of `list`'s system messages, ascending: known from its memos (`memos`, from
 * `listMemos(list)`) when they know them, else read from each role.
 */
export function systemIndexesOf(
  list: readonly Message[],
  memos: readonly ContentMemo[] | undefined,
): readonly number[] {
  const known = knownSystemIndexes(memos);
  if (known !== undefined) return known;
  const systems: number[] = [];
  for (let index = 0; index < list.length; index++)
    if (roleAt(list, index, memos) === 'system') systems.push(index);
  return systems;
}

/** How many of `systems` (ascending indexes) lead the list: the system messages at 0, 1, 2… */
export function leadingCount(systems: readonly number[]): number {
  let leading = 0;
  while (leading < systems.length && systems[leading] === leading) leading++;
  return leading;
}
