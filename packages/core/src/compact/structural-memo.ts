import type { Message, MessagePart } from '../message/message';
import type { TruncationResult } from '../truncate/truncation-result';

/**
 * Prefixes remembered per conversation (a request renders a few levels; older ones are forgotten
 * first).
 */
export const STRUCTURAL_ENTRIES = 8;

/**
 * What a structural stage (supersede, cluster) made of a history prefix on an earlier request of
 * the conversation: the prefix it read (its messages, their content keys and conversation numbers)
 * and what it gave back.
 */
export interface StructuralEntry {
  readonly input: readonly Message[];
  readonly keys: readonly object[];
  readonly numbers: readonly number[];
  readonly result: TruncationResult;
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
  if (known !== undefined && known.options === options && known.input.length === input.length) {
    let same = true;
    for (let index = input.length - 1; same && index >= 0; index--) {
      same = known.keys[index] === keyOf(index) && known.numbers[index] === numberOf(index);
    }
    if (same) {
      // Most recently used last: the oldest entries are the first to go.
      entries.delete(key);
      entries.set(key, known);
      return { messages: rebase(known.result.messages, known.input, input), records: known.result.records };
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
  entries.set(key, { input: input.slice(), keys, numbers, result, options });
  for (const oldest of entries.keys()) {
    if (entries.size <= STRUCTURAL_ENTRIES) break;
    entries.delete(oldest);
  }
  return result;
}

/** `output` (made from `before`) with `before`'s objects swapped for `after`'s, message by message. */
function rebase(
  output: readonly Message[],
  before: readonly Message[],
  after: readonly Message[],
): Message[] {
  return output.map((message, index) => {
    const was = before[index]!;
    const now = after[index]!;
    if (message === was) return now;
    if (!Array.isArray(message.content) || !Array.isArray(was.content) || !Array.isArray(now.content))
      return message;
    const wasParts = was.content as readonly MessagePart[];
    const nowParts = now.content as readonly MessagePart[];
    let changed = false;
    const content = (message.content as readonly MessagePart[]).map((part, partIndex) => {
      if (part !== wasParts[partIndex]) return part;
      changed = true;
      return nowParts[partIndex]!;
    });
    return changed ? ({ ...message, content } as Message) : message;
  });
}
