import type { Message, MessagePart } from '../message/message';

/**
 * A copy of `message` whose parts at the given indexes are replaced; every other part, and every
 * other field of the message, is kept as it is (same objects). Returns `message` itself when there is
 * nothing to replace. Internal to the truncate stage.
 */
export function replaceParts(message: Message, replacements: ReadonlyMap<number, MessagePart>): Message {
  if (replacements.size === 0 || typeof message.content === 'string') return message;
  return { ...message, content: message.content.map((part, index) => replacements.get(index) ?? part) };
}
