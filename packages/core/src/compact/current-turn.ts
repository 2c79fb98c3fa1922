import type { Message } from '../message/message';
import { groupStarts, safeBoundaries } from '../split/safe-boundaries';

/**
 * Where the turn in progress starts: the index of the latest user message (one that carries more
 * than tool results). Everything from there on — the user's message, and the assistant's tool calls,
 * their results and partial answers since — is the current turn, which the engine never summarizes,
 * drops, digests or replaces (it may only shrink tool results and images inside it).
 *
 * A tool call before that message whose result comes after it would be split by the cut, so the
 * start moves back to the nearest boundary that splits no pair. Without any user message the last
 * message group is the current turn. Returns `messages.length` for an empty list.
 */
export function currentTurnStart(messages: readonly Message[]): number {
  if (messages.length === 0) return 0;
  const safe = safeBoundaries(messages);
  for (let index = messages.length - 1; index >= 0; index--) {
    if (!isUserTurn(messages[index]!)) continue;
    let start = index;
    while (start > 0 && !safe[start]) start--;
    return start;
  }
  let leading = 0;
  while (leading < messages.length && messages[leading]!.role === 'system') leading++;
  return groupStarts(safe, leading).at(-1) ?? messages.length;
}

/** A user message that is the user speaking, not only a carrier of tool results. */
export function isUserTurn(message: Message): boolean {
  if (message.role !== 'user') return false;
  if (typeof message.content === 'string') return true;
  return message.content.length === 0 || message.content.some((part) => part.type !== 'tool-result');
}
