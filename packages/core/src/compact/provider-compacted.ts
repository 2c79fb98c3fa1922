import { listFacts, listMemos } from '../message/list-memos';
import type { Message, MessagePart } from '../message/message';
import { safeBoundaries } from '../split/safe-boundaries';

/** Whether a part is a provider's compaction block or item (see `OpaquePart.providerManaged`). */
export function isProviderCompaction(part: MessagePart | undefined): boolean {
  return part?.type === 'opaque' && part.providerManaged === 'compaction';
}

/** Whether a message carries a provider's compaction block or item. */
export function hasProviderCompaction(message: Message): boolean {
  const { content } = message;
  if (typeof content === 'string') return false;
  // A plain loop: this runs over every message of every request.
  for (const part of content)
    if (part?.type === 'opaque' && part.providerManaged === 'compaction') return true;
  return false;
}

/** A conversation cut at the provider's last compaction. */
export interface ProviderCompactedSplit {
  /** How many system messages lead the conversation (they stay where they are, and are live). */
  readonly leading: number;
  /**
   * The end (exclusive) of the frozen span `[leading, end)`: everything up to the message holding
   * the provider's last compaction block, and the tool results answering calls made at or before
   * it (a cut there splits no call from its result). Kept verbatim and in place.
   */
  readonly end: number;
  /** The index of the message holding the provider's last compaction block or item. */
  readonly block: number;
}

/**
 * Where a provider's own compaction left the conversation, or `undefined` when no message carries a
 * provider compaction block or item. The provider continues from its last compaction block: what
 * comes before it is compacted already (Anthropic drops it; OpenAI's compaction item carries its
 * state). So the engine keeps that span verbatim and in place, does not count it, never summarizes
 * it and never compacts it a second time; it counts the block's message (and the results paired
 * with it) and compacts only what follows.
 */
export function splitProviderCompacted(messages: readonly Message[]): ProviderCompactedSplit | undefined {
  let block = -1;
  // This runs over every message of every request: a recognized request's memos remember the
  // answer, so its messages are not read again (nor its memos, when the list's answer is known).
  const memos = listMemos(messages);
  const facts = memos === undefined ? undefined : listFacts(memos);
  if (facts?.providerCompaction === false) return undefined;
  for (let index = messages.length - 1; index >= 0; index--) {
    const memo = memos?.[index];
    if (memo !== undefined) memo.providerCompaction ??= hasProviderCompaction(messages[index]!);
    if (memo === undefined ? hasProviderCompaction(messages[index]!) : memo.providerCompaction) {
      block = index;
      break;
    }
  }
  if (facts !== undefined) facts.providerCompaction = block >= 0;
  if (block < 0) return undefined;
  let leading = 0;
  while (leading < block && messages[leading]!.role === 'system') leading++;
  const safe = safeBoundaries(messages);
  let end = block + 1;
  while (end < messages.length && !safe[end]) end++;
  return { leading, end, block };
}

/**
 * The split of `messages`: `known` when the caller found it already for this request (`null`: no
 * provider compaction block), else found here.
 */
export function providerSplitOf(
  messages: readonly Message[],
  known: ProviderCompactedSplit | null | undefined,
): ProviderCompactedSplit | undefined {
  return known === undefined ? splitProviderCompacted(messages) : (known ?? undefined);
}

/** The messages of a split the provider still reads: system messages, and the block onwards. */
export function providerLiveFrozen(messages: readonly Message[], split: ProviderCompactedSplit): Message[] {
  const live: Message[] = [];
  for (let index = split.leading; index < split.end; index++) {
    const message = messages[index]!;
    if (index >= split.block || message.role === 'system') live.push(message);
  }
  return live;
}

/**
 * The messages the pipeline works on: the conversation without its frozen span (the same array when
 * no message carries a provider compaction block). Stored states cover a prefix of this list.
 * `split` is required: a caller that found none passes `undefined` and nothing is searched again.
 */
export function withoutProviderCompacted(
  messages: readonly Message[],
  split: ProviderCompactedSplit | undefined,
): readonly Message[] {
  if (split === undefined) return messages;
  return [...messages.slice(0, split.leading), ...messages.slice(split.end)];
}
