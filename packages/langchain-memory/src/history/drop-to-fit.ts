import { type Message, refAnnotation } from '@spillway/core';
import { isEngineMessage } from '../convert/to-prompt-messages';

/** Options of {@link dropToFit}. */
export interface DropToFitOptions {
  /** Tokens the history view may take. */
  budgetTokens: number;
  /** Counts a list of messages, in the unit of the budget. */
  countTokens: (messages: readonly Message[]) => number;
  /**
   * The reference of the messages dropped (the view's oldest conversation messages), written after
   * the note so the read-back tool can read them; `undefined` writes the note without one.
   * @default none
   */
  spanRef?: (dropped: readonly Message[]) => string | undefined;
}

/** What {@link dropToFit} returns. */
export interface DropToFitResult {
  messages: Message[];
  /** Conversation messages dropped from the view. */
  droppedCount: number;
}

/**
 * The last resort for a history view next to a large input: the engine keeps the newest message
 * group of what it is given (for an agent, the turn in progress), but in a history that group is
 * the previous turn, and the input that comes after it is the turn in progress. Drops the view's
 * oldest conversation messages, never a tool result without its call, until the view fits
 * `budgetTokens`, and says so in a note (with the dropped messages' reference, from `spanRef`). Only the view changes; the stored history does not.
 */
export function dropToFit(
  messages: readonly Message[],
  { budgetTokens, countTokens, spanRef }: DropToFitOptions,
): DropToFitResult {
  if (countTokens(messages) <= budgetTokens) return { messages: [...messages], droppedCount: 0 };
  const head = messages.filter((message) => isEngineMessage(message) || message.role === 'system');
  const conversation = messages.filter((message) => !isEngineMessage(message) && message.role !== 'system');
  let start = 0;
  let candidate: Message[] = [...messages];
  while (start < conversation.length && countTokens(candidate) > budgetTokens) {
    start++;
    // Never start on a tool result: its call went with the dropped messages.
    while (start < conversation.length && conversation[start]!.role === 'tool') start++;
    const ref = spanRef?.(conversation.slice(0, start));
    const note: Message = {
      role: 'user',
      content:
        `[System: ${start} older message${start === 1 ? ' was' : 's were'} truncated due to context limits]` +
        (ref === undefined ? '' : ` ${refAnnotation(ref)}`),
    };
    candidate = [...head, note, ...conversation.slice(start)];
  }
  return { messages: candidate, droppedCount: start };
}
