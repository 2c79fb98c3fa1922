import { createRecallMarks, createRecallScope, type Message } from '@spillway/core';
import { SOURCE_MESSAGE, type SourcedMessage } from '../convert/to-neutral-messages';

/**
 * The reference of view messages dropped from a history's view: the span of the stored
 * conversation they come from (found through the stored message each one was converted from,
 * system messages not counted), named over `originals` as every other cut of the view is, so the
 * read-back tool reads them. `undefined` when references are off, or when the messages are not one
 * unbroken run of stored messages.
 */
export function viewSpanRef({
  stored,
  originals,
  secret,
}: {
  /** The stored conversation, as converted (each message knows the stored message it came from). */
  stored: readonly Message[];
  /** The same with archived originals in place of their capped copies (what references name). */
  originals: readonly Message[];
  secret: string | undefined;
}): (dropped: readonly Message[]) => string | undefined {
  if (secret === undefined) return () => undefined;
  let positions: Map<unknown, number> | undefined;
  let marks: ReturnType<typeof createRecallMarks> | undefined;
  return (dropped) => {
    if (positions === undefined) {
      positions = new Map();
      let index = 0;
      for (const message of stored) {
        if (message.role === 'system') continue;
        positions.set((message as SourcedMessage)[SOURCE_MESSAGE] ?? message, index++);
      }
    }
    const indexes = dropped.map((message) =>
      positions!.get((message as SourcedMessage)[SOURCE_MESSAGE] ?? message),
    );
    const from = indexes[0];
    if (from === undefined || indexes.some((index, offset) => index !== from + offset)) return undefined;
    marks ??= createRecallMarks({ scope: createRecallScope({ messages: originals, secret }), originals });
    return marks.span(from, from + indexes.length);
  };
}
