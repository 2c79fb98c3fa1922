import type { Message, MessagePart } from '../message/message';
import type { TruncationRecord } from '../truncate/truncation-record';
import type { TruncationResult } from '../truncate/truncation-result';

/**
 * Prefixes remembered per conversation (a request renders a few levels; older ones are forgotten
 * first).
 */
export const STRUCTURAL_ENTRIES = 8;

/**
 * What a stage made of one message of the prefix: nothing (`undefined`: the message as it is), or a
 * changed message whose parts the stage left alone are holes (`undefined`), filled from the
 * request's own message. A message whose every part the stage replaced (`parts` empty) is kept as
 * the stage made it and sent again as it is; of other messages, no object of the request it was
 * made for is kept.
 */
type Change = { readonly message: Message; readonly parts: readonly (MessagePart | undefined)[] } | undefined;

/**
 * What a structural stage (supersede, cluster) made of a history prefix on an earlier request of
 * the conversation: the prefix it read (its messages' content keys and conversation numbers) and
 * what it changed.
 */
export interface StructuralEntry {
  readonly keys: readonly object[];
  readonly numbers: readonly number[];
  readonly changes: readonly Change[];
  /** Shared by every request that reuses the entry: read, never changed. */
  readonly records: TruncationRecord[];
  /** The options the stage ran with (compared by identity). */
  readonly options: object;
}

/**
 * A structural stage's result over a prefix of the history, remembered per conversation (in its
 * `LadderMemo`): a stage that reads only `input` gives what it gave when every message of the
 * prefix had the same content key (`keyOf`) and conversation number. The prefix is steady between
 * level steps, so a request costs one pass over it instead of the stage's analysis.
 *
 * What comes back is this request's own: messages the stage left alone are `input`'s objects, and
 * in a message it changed, the parts it left alone are `input`'s parts (what `variantOf` and the
 * forms cache compare by identity).
 */
export function rememberedStructural(
  entries: Map<string, StructuralEntry>,
  {
    key,
    input,
    keyOf,
    numberOf,
    options,
  }: {
    key: string;
    /** Messages `0..input.length` of the history, as the stages before this one left them. */
    input: readonly Message[];
    /** The content key of history message `index` (of the history itself, not of `input`). */
    keyOf: (index: number) => object;
    numberOf: (index: number) => number;
    options: object;
  },
  compute: () => TruncationResult,
): TruncationResult {
  const known = entries.get(key);
  if (known !== undefined && known.options === options && known.keys.length === input.length) {
    let same = true;
    for (let index = input.length - 1; same && index >= 0; index--) {
      same = known.keys[index] === keyOf(index) && known.numbers[index] === numberOf(index);
    }
    if (same) {
      // Most recently used last: the oldest entries are the first to go.
      entries.delete(key);
      entries.set(key, known);
      return { messages: applyChanges(known.changes, input), records: known.records };
    }
  }
  const result = compute();
  const keys: object[] = [];
  const numbers: number[] = [];
  for (let index = 0; index < input.length; index++) {
    keys.push(keyOf(index));
    numbers.push(numberOf(index));
  }
  entries.delete(key);
  entries.set(key, {
    keys,
    numbers,
    changes: changesOf(result.messages, input),
    records: result.records,
    options,
  });
  for (const oldest of entries.keys()) {
    if (entries.size <= STRUCTURAL_ENTRIES) break;
    entries.delete(oldest);
  }
  return result;
}

/** What `output` changed of `input`, message by message and part by part. */
function changesOf(output: readonly Message[], input: readonly Message[]): Change[] {
  return output.map((message, index) => {
    const given = input[index];
    if (message === given) return undefined;
    const parts =
      Array.isArray(message.content) && given !== undefined && Array.isArray(given.content)
        ? (message.content as readonly MessagePart[]).map((part, partIndex) =>
            part === (given.content as readonly MessagePart[])[partIndex] ? undefined : part,
          )
        : [];
    // Every part changed (a result replaced by its note): the message itself, made again by no
    // request; otherwise its holes are filled from each request's own parts.
    if (parts.length === 0 || parts.every((part) => part !== undefined)) return { message, parts: [] };
    return { message: { ...message, content: [] }, parts };
  });
}

/** `changes` made again on `input`: holes filled with `input`'s own messages and parts. */
function applyChanges(changes: readonly Change[], input: readonly Message[]): Message[] {
  return changes.map((change, index) => {
    const given = input[index]!;
    if (change === undefined) return given;
    if (change.parts.length === 0) return change.message;
    const own = given.content as readonly MessagePart[];
    const content = change.parts.map((part, partIndex) => part ?? own[partIndex]!);
    return { ...change.message, content } as Message;
  });
}
