import type { Message } from '../message/message';
import { refAnnotation } from '../recall/recall-ref';
import { groupStarts, safeBoundaries } from '../split/safe-boundaries';
import { extractiveDigest } from '../summarize/extractive-summarizer';

/** Options of {@link dropOldest}. */
export interface DropOldestOptions {
  /** Tokens the kept messages and the note may use together. */
  budgetTokens: number;
  /** Counts a list of messages, in the same unit as the budget. */
  countTokens: (messages: readonly Message[]) => number;
  /**
   * Leave a deterministic digest of the dropped messages in the note (no model involved).
   * @default true
   */
  leaveDigest?: boolean;
  /**
   * Longest the digest may be, in characters.
   * @default 2000
   */
  digestMaxChars?: number;
  /**
   * Longest the digest may be, in tokens (by the built-in estimate): the summary bound.
   * @default Infinity
   */
  digestMaxTokens?: number;
  /**
   * Never drop the last message group. The pipeline passes `false` with the history alone (the
   * current turn is kept apart), so the whole history may go.
   * @default true
   */
  keepLast?: boolean;
  /**
   * The reference of the dropped messages, given how many conversation messages (not system
   * messages) are dropped from the start: written after the marker as `[ref=s.…]` so the model can
   * read them back with `spillway_recall`.
   * @default undefined (no reference)
   */
  spanRef?: (droppedCount: number) => string | undefined;
}

/** What {@link dropOldest} returns. */
export interface DropOldestResult {
  /** The messages that stay, oldest first (system messages from the dropped span kept, first). */
  kept: Message[];
  /** How many messages were dropped (system messages are never dropped). */
  droppedCount: number;
  /** The note to put where they were; undefined when nothing was dropped. */
  note: string | undefined;
}

/**
 * Drops the oldest whole message groups (never a tool call without its result, never the last
 * group) until what is left, with a note in place of what was dropped, fits the budget. The note
 * reads `[System: N older messages were truncated due to context limits]` (seed Spacebot), with the
 * dropped span's reference after it when `spanRef` gives one, followed by a digest of what they held. Works on a request only: the caller's conversation is not touched.
 */
export function dropOldest(
  messages: readonly Message[],
  {
    budgetTokens,
    countTokens,
    leaveDigest = true,
    digestMaxChars = 2000,
    digestMaxTokens = Number.POSITIVE_INFINITY,
    keepLast = true,
    spanRef,
  }: DropOldestOptions,
): DropOldestResult {
  if (countTokens(messages) <= budgetTokens) return { kept: [...messages], droppedCount: 0, note: undefined };
  const starts = groupStarts(safeBoundaries(messages), 0);
  if (!keepLast) starts.push(messages.length);
  // Cutting before the first group drops nothing; try each later group start, oldest first.
  let result: DropOldestResult | undefined;
  for (const start of starts.slice(1)) {
    result = cut(messages, start, leaveDigest, digestMaxChars, digestMaxTokens, spanRef);
    if (result.droppedCount === 0) continue;
    const note: Message[] = result.note === undefined ? [] : [{ role: 'user', content: result.note }];
    if (countTokens([...note, ...result.kept]) <= budgetTokens) return result;
  }
  return result ?? { kept: [...messages], droppedCount: 0, note: undefined };
}

function cut(
  messages: readonly Message[],
  start: number,
  leaveDigest: boolean,
  digestMaxChars: number,
  digestMaxTokens: number,
  spanRef: DropOldestOptions['spanRef'],
): DropOldestResult {
  const dropped = messages.slice(0, start).filter((message) => message.role !== 'system');
  const systemKept = messages.slice(0, start).filter((message) => message.role === 'system');
  const ref = dropped.length > 0 ? spanRef?.(dropped.length) : undefined;
  const marker =
    `[System: ${dropped.length} older message${dropped.length === 1 ? ' was' : 's were'} truncated due to context limits]` +
    (ref === undefined ? '' : ` ${refAnnotation(ref)}`);
  const note = leaveDigest
    ? `${marker}\n\nA brief digest of what they held:\n${extractiveDigest(dropped, undefined, {
        maxChars: digestMaxChars,
        maxTokens: Math.max(1, digestMaxTokens - 30),
      })}`
    : marker;
  return { kept: [...systemKept, ...messages.slice(start)], droppedCount: dropped.length, note };
}
