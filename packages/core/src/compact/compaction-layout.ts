import type { ContentMemo } from '../message/content-memo';
import {
  knownSystemIndexes,
  leadingCount,
  listMemos,
  roleAt,
  sliceMessages,
  systemIndexesOf,
} from '../message/list-memos';
import type { Message } from '../message/message';
import { contentId, contentIdAt } from '../message/sequence-memo';
import { refAnnotation } from '../recall/recall-ref';
import type { CompactionState } from '../store/compaction-state';
import { hashMessages } from './hash-messages';

/** Where the summary goes in the request. */
export type SummaryPlacement = 'system' | 'user';

/** What the summary message carries besides the summaries (see {@link summaryMessage}). */
export interface SummaryExtras {
  /**
   * The reference of the messages the summaries stand for, and how many they are: written after
   * the summaries as `[Summarized: messages 1–{coveredCount} of this conversation] [ref=s.…]`.
   */
  span?: { readonly ref: string; readonly coveredCount: number } | undefined;
  /** The user's own words of the covered span, verbatim (see `userWordsBlock`), after the reference. */
  userWords?: string | undefined;
  /** The pinned block (standing rules), after the summaries; never given to a summarizer. */
  pinned?: string | undefined;
  /** The one line that tells the model about the read-back tool (last). */
  announcement?: string | undefined;
}

/**
 * The message that carries the summary into the request: the summaries, the reference of what
 * they stand for, the pinned block and the read-back line, each when present (none without any).
 */
export function summaryMessage(
  summaries: readonly string[],
  placement: SummaryPlacement,
  extras: SummaryExtras = {},
): Message | undefined {
  // Every request of a summarized conversation carries the same message: the same object again
  // (its token count and hash memoised with it) instead of a new string to build and count.
  const made = summaryMessages.get(summaries) ?? [];
  const known = made.find((entry) => entry.placement === placement && sameExtras(entry.extras, extras));
  if (known !== undefined) return known.message;
  const message = buildSummaryMessage(summaries, placement, extras);
  // A request measures the summary message without extras and sends it with them: a few per list.
  summaryMessages.set(summaries, [{ placement, extras: { ...extras }, message }, ...made.slice(0, 3)]);
  return message;
}

/** Per list of summaries (a stored state's), the summary messages made for it last. */
const summaryMessages = new WeakMap<
  readonly string[],
  { placement: SummaryPlacement; extras: SummaryExtras; message: Message | undefined }[]
>();

function sameExtras(first: SummaryExtras, second: SummaryExtras): boolean {
  return (
    first.span?.ref === second.span?.ref &&
    first.span?.coveredCount === second.span?.coveredCount &&
    first.userWords === second.userWords &&
    first.pinned === second.pinned &&
    first.announcement === second.announcement
  );
}

function buildSummaryMessage(
  summaries: readonly string[],
  placement: SummaryPlacement,
  { span, userWords, pinned, announcement }: SummaryExtras,
): Message | undefined {
  const blocks: string[] = [];
  if (summaries.length === 1) {
    blocks.push(
      `Summary of the earlier conversation (it stands in for the messages before this point):\n\n${summaries[0]}`,
    );
  } else if (summaries.length > 1) {
    blocks.push(
      `Summaries of the earlier conversation, oldest first (they stand in for the messages before this point):\n\n${summaries
        .map((summary) => `[Compaction Summary]: ${summary}`)
        .join('\n\n')}`,
    );
  }
  if (summaries.length > 0 && span !== undefined) {
    blocks.push(
      `[Summarized: messages 1–${span.coveredCount} of this conversation] ${refAnnotation(span.ref)}`,
    );
  }
  if (summaries.length > 0 && userWords !== undefined) blocks.push(userWords);
  if (pinned !== undefined) blocks.push(pinned);
  if (blocks.length === 0) return undefined;
  if (announcement !== undefined) blocks.push(announcement);
  return { role: placement, content: blocks.join('\n\n') };
}

/** A conversation split at the start of its non-system messages and at the covered prefix. */
export interface ConversationLayout {
  /** System messages before the first conversation message, and those inside the covered span. */
  system: Message[];
  /** The covered conversation messages (to be replaced by the summary). */
  covered: Message[];
  /** Everything after the covered span, system messages in place. */
  rest: Message[];
}

/**
 * Lays out `messages` around the first `coveredCount` conversation (non-system) messages. When fewer
 * conversation messages exist, `covered` holds what there is.
 */
export function layoutConversation(messages: readonly Message[], coveredCount: number): ConversationLayout {
  // Where the covered span ends, and whether system messages are inside it: without any (the usual
  // case), `covered` is one slice of the final length (this runs on every request; where a
  // recognized request's system messages are is known from its memos, nothing read per message).
  const memos = listMemos(messages);
  const systems = systemIndexesOf(messages, memos);
  // Leading system messages (a system prompt) belong to the system block, whatever is covered; the
  // span's end is counted past the system messages inside it.
  const leading = leadingCount(systems);
  let index = leading + (coveredCount > 0 ? Math.ceil(coveredCount) : 0);
  let inside = leading;
  for (; inside < systems.length && systems[inside]! < index; inside++) index++;
  index = Math.min(index, messages.length);
  const system: Message[] = messages.slice(0, leading);
  let covered: Message[];
  if (inside > leading) {
    covered = [];
    for (let at = leading; at < index; at++) (systems.includes(at) ? system : covered).push(messages[at]!);
  } else covered = sliceMessages(messages, leading, index, memos);
  return { system, covered, rest: sliceMessages(messages, index, messages.length, memos) };
}

/**
 * Whether `state` still describes `live`, the conversation without the span a provider compacted
 * itself (`withoutProviderCompacted`: a state covers a prefix of what follows the provider's own last
 * compaction, when there is one): its first `coveredCount` conversation (non-system) messages exist
 * and hash to `coveredHash`. The engine checks this before applying a state; a state
 * that does not match (the history was edited or branched) is ignored.
 */
export function stateMatches(live: readonly Message[], state: CompactionState | undefined): boolean {
  if (state === undefined || state.coveredCount <= 0) return false;
  // The same contents found to match this state before (one request checks it more than once, and
  // every request of the conversation checks it again): the same object, or a message the
  // conversation memo found equal to it (the same content id), hashes the same again.
  const verified = verifiedPrefixes.get(state);
  if (verified !== undefined && verified.coveredHash === state.coveredHash && samePrefix(live, verified)) {
    // Found by ids (verified on a list whose memos were not recorded): remember this request's
    // memos, so the next request compares them by identity.
    if (verified.memos === undefined && listMemos(live) !== undefined) {
      const memos = listMemos(layoutConversation(live, state.coveredCount).covered);
      if (memos !== undefined) verifiedPrefixes.set(state, { ...verified, memos });
    }
    return true;
  }
  const { covered } = layoutConversation(live, state.coveredCount);
  if (covered.length !== state.coveredCount) return false;
  if (hashMessages(covered) !== state.coveredHash) return false;
  verifiedPrefixes.set(state, {
    coveredHash: state.coveredHash,
    ids: covered.map(contentId),
    memos: listMemos(covered),
  });
  return true;
}

/** The covered messages last found to match a state: their content ids, and memos when recorded. */
interface VerifiedPrefix {
  readonly coveredHash: string;
  readonly ids: readonly number[];
  readonly memos: readonly ContentMemo[] | undefined;
}

/** Whether the first conversation (non-system) messages of `live` hold the contents `verified` names. */
function samePrefix(live: readonly Message[], { ids, memos: verifiedMemos }: VerifiedPrefix): boolean {
  // A recognized request: its memos, not its messages, are read — compared by identity, and its
  // system messages skipped by index, when both are known.
  const memos = listMemos(live);
  const systems = knownSystemIndexes(memos);
  if (systems !== undefined && verifiedMemos !== undefined) {
    let system = 0;
    // The next system message's index (-1: none left; never read past the array's end).
    let nextSystem = systems.length > 0 ? systems[0]! : -1;
    let matched = 0;
    for (let index = 0; index < live.length && matched < ids.length; index++) {
      if (index === nextSystem) {
        system++;
        nextSystem = system < systems.length ? systems[system]! : -1;
        continue;
      }
      if (memos![index] !== verifiedMemos[matched]) return false;
      matched++;
    }
    return matched === ids.length;
  }
  let matched = 0;
  for (let index = 0; index < live.length && matched < ids.length; index++) {
    if (roleAt(live, index, memos) === 'system') continue;
    if (contentIdAt(live, index, memos) !== ids[matched]) return false;
    matched++;
  }
  return matched === ids.length;
}

/** Per state object, the covered messages last found to match it. */
const verifiedPrefixes = new WeakMap<CompactionState, VerifiedPrefix>();

/** The user message put before a compacted conversation that would otherwise open with the assistant. */
export const CONTINUATION_TEXT = '[Continuing the conversation summarized above.]';

/**
 * The request with the covered prefix replaced by the summary message: `[summary, ...system, note,
 * ...rest]` (placement `system`) or `[...system, summary, note, ...rest]` (placement `user`). The
 * note (what an emergency drop left behind) is a user message. When the conversation started with a
 * user message but what follows the summary starts with the assistant, a short user message
 * (`CONTINUATION_TEXT`) goes first: some providers (Anthropic) require the first turn to be the
 * user's.
 */
export function assembleRequest({
  layout,
  summaries,
  placement,
  note,
  rest = layout.rest,
  extras = {},
}: {
  layout: ConversationLayout;
  summaries: readonly string[];
  placement: SummaryPlacement;
  note?: string | undefined;
  rest?: readonly Message[];
  /** The span reference, the pinned block and the read-back line (see {@link summaryMessage}). */
  extras?: SummaryExtras;
}): Message[] {
  const summary = summaryMessage(summaries, placement, extras);
  const head: Message[] = [];
  if (note !== undefined) {
    // Without a summary message, the read-back line goes with the note (what was cut).
    const announced = summary === undefined && extras.announcement !== undefined;
    head.push({ role: 'user', content: announced ? `${note}\n\n${extras.announcement}` : note });
  } else if (needsContinuation(layout, rest, summary))
    head.push({ role: 'user', content: CONTINUATION_TEXT });
  // `concat`: one array of the final length (this runs over every message of every request).
  if (summary === undefined) return layout.system.concat(head, rest);
  return placement === 'system'
    ? [summary].concat(layout.system, head, rest)
    : layout.system.concat(summary, head, rest);
}

function needsContinuation(
  layout: ConversationLayout,
  rest: readonly Message[],
  summary: Message | undefined,
): boolean {
  if (summary?.role === 'user') return false;
  const first = rest.find((message) => message.role !== 'system');
  const originalFirst = layout.covered[0] ?? first;
  return (
    first !== undefined && first !== originalFirst && first.role !== 'user' && originalFirst?.role === 'user'
  );
}
