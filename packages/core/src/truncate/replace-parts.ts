import type { Message, MessagePart, ToolResultPart } from '../message/message';

/**
 * A copy of `message` whose parts at the given indexes are replaced; every other part, and every
 * other field of the message, is kept as it is (same objects). Returns `message` itself when there is
 * nothing to replace. Internal to the truncate stage.
 */
export function replaceParts(message: Message, replacements: ReadonlyMap<number, MessagePart>): Message {
  if (replacements.size === 0 || typeof message.content === 'string') return message;
  return { ...message, content: message.content.map((part, index) => replacements.get(index) ?? part) };
}

/**
 * Parts to replace across a message list, gathered by message and part index; `apply` returns the
 * list with each touched message copied by {@link replaceParts} and every other message as it was.
 * Internal to the reduction stages.
 */
export class PartReplacements {
  readonly #byMessage = new Map<number, Map<number, MessagePart>>();

  set(messageIndex: number, partIndex: number, part: MessagePart): void {
    let parts = this.#byMessage.get(messageIndex);
    if (parts === undefined) {
      parts = new Map();
      this.#byMessage.set(messageIndex, parts);
    }
    parts.set(partIndex, part);
  }

  apply(messages: readonly Message[]): Message[] {
    return messages.map((message, messageIndex) => {
      const parts = this.#byMessage.get(messageIndex);
      return parts === undefined ? message : replaceParts(message, parts);
    });
  }
}

/** `result` with `note` as its whole content: a string for string content, else one text part. */
export function withNoteContent(result: ToolResultPart, note: string): ToolResultPart {
  return { ...result, content: typeof result.content === 'string' ? note : [{ type: 'text', text: note }] };
}
