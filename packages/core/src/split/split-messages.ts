import { InvalidConfigError } from '../errors/invalid-config-error';
import { defaultEstimator } from '../estimate/default-estimator';
import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import { groupStarts, safeBoundaries } from './safe-boundaries';

/** Share of the context window kept verbatim as recent messages (seed FEAT-011). */
export const PROTECTED_WINDOW_RATIO = 0.25;

/** Options of {@link splitMessages}. */
export interface SplitMessagesOptions {
  /**
   * Token budget of the recent, protected messages (usually `PROTECTED_WINDOW_RATIO` of the
   * context window). Ignored when `keepGroups` is given.
   */
  protectTokens?: number;
  /**
   * Keep exactly this many of the newest message groups instead of a token budget (a group is a
   * user message, or an assistant message together with its tool results). `0` keeps only the last
   * group: the one the model must answer. Used by progressive overflow recovery.
   */
  keepGroups?: number;
  /**
   * Counts tokens.
   * @default the shared default estimator
   */
  estimator?: Estimator;
}

/** What {@link splitMessages} returns. */
export interface SplitMessagesResult {
  /**
   * System messages that are never compacted: the leading ones and any inside the older span, in
   * order.
   */
  system: Message[];
  /** Messages to compact, oldest first. Never contains a tool call whose result is in `recent`. */
  older: Message[];
  /** The newest messages, kept verbatim (system messages among them stay in place). */
  recent: Message[];
  /** Index into the input where `recent` starts. */
  boundary: number;
}

/**
 * Splits a conversation into the part to compact and the recent part to keep verbatim.
 *
 * - `recent` is the newest messages that fit `protectTokens`, but always at least the last message
 *   group (the model must see what it is answering, however large).
 * - The boundary never separates a tool call from its result, including parallel calls in one
 *   assistant message whose results arrive in several messages.
 * - A boundary at the start of a user turn is preferred when it keeps at least half of what the
 *   token budget allows.
 * - An empty list, a single message, or a conversation that fits the budget: `older` is empty.
 */
export function splitMessages(
  messages: readonly Message[],
  { protectTokens, keepGroups, estimator }: SplitMessagesOptions,
): SplitMessagesResult {
  if (keepGroups === undefined) {
    if (protectTokens === undefined || !(protectTokens >= 0)) {
      throw new InvalidConfigError({
        option: 'protectTokens',
        value: protectTokens,
        message: 'must be a number of tokens, 0 or more (or give keepGroups)',
      });
    }
  } else if (!Number.isInteger(keepGroups) || keepGroups < 0) {
    throw new InvalidConfigError({
      option: 'keepGroups',
      value: keepGroups,
      message: 'must be a whole number, 0 or more',
    });
  }

  const boundary = findBoundary(messages, {
    protectTokens: protectTokens ?? 0,
    keepGroups,
    estimator: estimator ?? defaultEstimator(),
  });
  const system: Message[] = [];
  const older: Message[] = [];
  for (let index = 0; index < boundary; index++) {
    const message = messages[index]!;
    (message.role === 'system' ? system : older).push(message);
  }
  return { system, older, recent: messages.slice(boundary), boundary };
}

/** Index of the first recent message; `older` is the non-system messages before it. */
export function findBoundary(
  messages: readonly Message[],
  {
    protectTokens,
    keepGroups,
    estimator,
  }: { protectTokens: number; keepGroups: number | undefined; estimator: Estimator },
): number {
  let leading = 0;
  while (leading < messages.length && messages[leading]!.role === 'system') leading++;
  if (leading >= messages.length) return messages.length;

  const safe = safeBoundaries(messages);
  const starts = groupStarts(safe, leading);
  // The last group is always recent: the model has to see what it is answering.
  const lastGroupStart = starts.at(-1) ?? leading;

  if (keepGroups !== undefined) {
    const index = starts.length - Math.max(keepGroups, 1);
    return index <= 0 ? leading : starts[index]!;
  }

  // Walk back while the newest messages fit the budget.
  let budgetStart = messages.length;
  let used = 0;
  while (budgetStart > leading) {
    const tokens = estimator.countMessage(messages[budgetStart - 1]!);
    if (used + tokens > protectTokens) break;
    used += tokens;
    budgetStart--;
  }
  if (budgetStart >= lastGroupStart) return lastGroupStart;

  // The oldest safe boundary inside the budget, and the oldest user-turn start inside it.
  const firstSafe = starts.find((start) => start >= budgetStart) ?? lastGroupStart;
  const firstUserTurn = starts.find((start) => start >= budgetStart && messages[start]!.role === 'user');
  if (firstUserTurn === undefined || firstUserTurn === firstSafe) return firstSafe;

  const tokensFrom = (start: number) => {
    let total = 0;
    for (let index = start; index < messages.length; index++)
      total += estimator.countMessage(messages[index]!);
    return total;
  };
  return tokensFrom(firstUserTurn) * 2 >= tokensFrom(firstSafe) ? firstUserTurn : firstSafe;
}
