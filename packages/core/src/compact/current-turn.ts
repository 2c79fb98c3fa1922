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
  // The common case, found without a pass over the whole list: every tool result from the latest
  // user message on answers a call made after that message, so no pair crosses it.
  let latestUser = messages.length - 1;
  while (latestUser >= 0 && !isUserTurn(messages[latestUser]!)) latestUser--;
  if (latestUser >= 0 && pairsStayAfter(messages, latestUser)) return latestUser;
  return turnStartByBoundaries(messages);
}

/**
 * {@link currentTurnStart} by its definition, over the whole list: the latest user turn, moved back
 * to the nearest boundary that splits no call from its result (or the last message group). Its
 * answer is the same; it makes a pass over every message.
 */
export function turnStartByBoundaries(messages: readonly Message[]): number {
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

/**
 * Whether every tool result in `messages[from…]` pairs with a call made before it in that range (a
 * result pairs with the latest call of its id before it). Then no call before `from` has its result
 * after it, and a cut before `from` splits no pair.
 */
function pairsStayAfter(messages: readonly Message[], from: number): boolean {
  const called = new Set<string>();
  for (let index = from; index < messages.length; index++) {
    const { content } = messages[index]!;
    if (typeof content === 'string') continue;
    for (const part of content) {
      if (part.type === 'tool-result' && !called.has(part.toolCallId)) return false;
    }
    for (const part of content) if (part.type === 'tool-call') called.add(part.toolCallId);
  }
  return true;
}
