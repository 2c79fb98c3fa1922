import { type ContentMemo, contentMemo } from './content-memo';
import type { Message } from './message';

/**
 * A memo of what is derived from one part of a message, by content: under the message's content
 * memo and the part's index when the conversation memo gave the message one (`recognizeMessages`:
 * a fresh deserialized copy of an unchanged message finds what the previous request derived), else
 * under the part object itself. Like every memo of the engine, it assumes parts are not mutated.
 */
export interface PartMemo<Value> {
  /** The value of part `partIndex` of `message` (`part`), computed once per content. */
  get(message: Message, partIndex: number, part: object, compute: () => Value): Value;
}

/** A new, empty {@link PartMemo}. */
export function createPartMemo<Value>(): PartMemo<Value> {
  const byContent = new WeakMap<ContentMemo, (Value | undefined)[]>();
  const byPart = new WeakMap<object, Value>();
  return {
    get(message, partIndex, part, compute) {
      const shared = contentMemo(message);
      if (shared === undefined) {
        let value = byPart.get(part);
        if (value === undefined && !byPart.has(part)) {
          value = compute();
          byPart.set(part, value);
        }
        return value as Value;
      }
      let values = byContent.get(shared);
      if (values === undefined) {
        values = [];
        byContent.set(shared, values);
      }
      let value = values[partIndex];
      if (value === undefined) {
        value = compute();
        values[partIndex] = value;
      }
      return value;
    },
  };
}
