import { sliceMessages } from '../message/list-memos';
import type { Message } from '../message/message';
import { createSequenceMemo } from '../message/sequence-memo';
import type { PinnedRule } from '../pin/collect-pinned-rules';
import { type PinnedBlock, pinnedBlock } from '../pin/pinned-block';
import { RECALL_ANNOUNCEMENT } from '../recall/recall-announcement';
import type { RecallMarks } from '../recall/recall-marks';
import { refAnnotation } from '../recall/recall-ref';
import type { TruncationRecord } from '../truncate/truncation-record';
import type { CompactionAction } from './compaction-action';
import { assembleRequest, type ConversationLayout, type SummaryPlacement } from './compaction-layout';
import { currentTurnStart } from './current-turn';
import { scopeId } from './scope-id';
import { type UserWordsBlock, userWordsBlock, userWordsBound } from './user-words-block';

/** What every draft of one request shares. */
export interface DraftSettings {
  readonly placement: SummaryPlacement;
  readonly marks: RecallMarks | undefined;
  /** Whether the read-back line goes into the request (the model has the tool). */
  readonly announce: boolean;
  /** The conversation's standing rules (detected and named by summaries); `undefined` when pinning is off. */
  readonly rules: (() => readonly PinnedRule[]) | undefined;
  /** The bound on the pinned block, in tokens. */
  readonly pinnedMaxTokens: number;
  /** The bound on each block of the user's own words, in tokens. */
  readonly userWordsMaxTokens: number;
  readonly blobMinChars: number;
  readonly blobKeepChars: number;
  readonly countText: (text: string) => number;
  /** What `countText` and `countMessages` count by (their estimator): blocks of the user's words are remembered under it. */
  readonly countScope: object;
  readonly countMessages: (messages: readonly Message[]) => number;
}

/** The parts of a draft that stages replace. */
export interface DraftParts {
  /** The summaries of the covered prefix (from the state), already within their bound. */
  readonly summaries: readonly string[];
  /** History messages (from the start of `originalHistory`) taken out of this request only. */
  readonly dropped: number;
  /** What the note says of the dropped messages (a digest made without a model). */
  readonly digest: string | undefined;
  /** Whether the note carries the digest and the user's words (`false`: the marker and reference alone). */
  readonly noteDetail: boolean;
  /** Whether the summary carries the user's own words of the covered span. */
  readonly userWords: boolean;
  /** The bound on each block of the user's own words (stages lower it as a last resort). */
  readonly userWordsMaxTokens: number;
  /** The history after `dropped`, as the stages reduced it. */
  readonly history: readonly Message[];
  /** What the reductions of `history` did (`messageIndex` into `originalHistory`). */
  readonly historyRecords: readonly TruncationRecord[];
  /** Raw tokens each reduction of `history` took off it. */
  readonly historySavings: Partial<Record<CompactionAction, number>>;
  readonly turn: readonly Message[];
  /** What shrinking the current turn did (`messageIndex` into the turn). */
  readonly turnRecords: readonly TruncationRecord[];
  /** Whether the pinned block may go in. */
  readonly pinnedBlock: boolean;
}

/** A request in the making: the covered prefix, the history and the current turn, each replaceable. */
export interface RequestDraft extends DraftParts {
  readonly layout: ConversationLayout;
  /** Conversation messages the state's summaries stand for. */
  readonly coveredCount: number;
  readonly originalHistory: readonly Message[];
  readonly originalTurn: readonly Message[];
  /** Conversation (non-system) messages out of the request: covered plus dropped. */
  outOfView(): number;
  with(parts: Partial<DraftParts>): RequestDraft;
  /**
   * The request as it would be sent. Made once per draft and shared by every caller: treat it as
   * read-only (`with` makes a new draft).
   */
  assemble(): Message[];
  /** The pinned block this draft carries, if any. */
  pinned(): PinnedBlock | undefined;
  /**
   * The block of the user's words a summary of `covered` (the conversation from its start) would
   * have beside it in a request like this one: the same bound, counts and references, remembered by
   * content, so the request made after that summary finds it made.
   */
  userWordsBeside(covered: readonly Message[]): UserWordsBlock;
}

/** Conversation (non-system) messages in a list. */
export function conversationCount(messages: readonly Message[]): number {
  let count = 0;
  for (let index = 0; index < messages.length; index++) if (messages[index]!.role !== 'system') count++;
  return count;
}

/** Blocks of the user's words by span content (see `createSequenceMemo`). */
const userWordsBlocks = createSequenceMemo<UserWordsBlock>();

/** The first draft of a request: the layout around the covered prefix, nothing reduced yet. */
export function createDraft(
  layout: ConversationLayout,
  { coveredCount, summaries }: { coveredCount: number; summaries: readonly string[] },
  settings: DraftSettings,
): RequestDraft {
  const turnStart = currentTurnStart(layout.rest);
  const originalHistory = sliceMessages(layout.rest, 0, turnStart);
  const originalTurn = sliceMessages(layout.rest, turnStart);
  /** The block of the user's words of `messages` (numbered from `from`), remembered by content. */
  const blockOf = (
    from: number,
    messages: readonly Message[],
    maxTokens: number,
    beside: 'summary' | 'note',
  ) => {
    // Remembered by content: a fresh copy of the same span (every request of a server) quotes
    // and counts nothing again — its bound included (a count of the span by the same counter).
    const memoKey = `${scopeId(settings.countScope)}|${from}|${maxTokens}|${settings.blobMinChars}|${settings.blobKeepChars}|${settings.marks?.key ?? '-'}|${beside}`;
    return userWordsBlocks.get(messages, memoKey, () =>
      userWordsBlock(messages, {
        firstNumber: from,
        maxTokens: userWordsBound(messages, maxTokens, settings.countMessages),
        countText: settings.countText,
        blobMinChars: settings.blobMinChars,
        blobKeepChars: settings.blobKeepChars,
        imageRef: settings.marks === undefined ? undefined : (part) => settings.marks?.image(part),
        beside,
      }),
    );
  };
  const blocks = new Map<string, UserWordsBlock>();
  /** `blockOf` for this draft's own spans (the covered prefix, the dropped messages). */
  const wordsOf = (
    from: number,
    messages: readonly Message[],
    maxTokens: number,
    beside: 'summary' | 'note',
  ) => {
    const key = `${from}:${messages.length}:${maxTokens}:${beside}`;
    let block = blocks.get(key);
    if (block === undefined) {
      block = blockOf(from, messages, maxTokens, beside);
      blocks.set(key, block);
    }
    return block;
  };
  const pinnedBlocks = new Map<string, PinnedBlock | undefined>();
  /** The pinned block by what decides it (the messages out of view and the blocks quoting them). */
  const pinnedByParts = new Map<string, PinnedBlock | undefined>();
  let spanRef: string | undefined | null = null;

  const make = (parts: DraftParts): RequestDraft => {
    const droppedMessages = originalHistory.slice(0, parts.dropped);
    const droppedCount = conversationCount(droppedMessages);
    const outOfView = () => coveredCount + droppedCount;
    const coveredWords = (current: DraftParts) =>
      current.userWords && current.summaries.length > 0
        ? wordsOf(0, layout.covered, current.userWordsMaxTokens, 'summary')
        : undefined;
    const droppedWords = (current: DraftParts) =>
      current.noteDetail && current.dropped > 0
        ? wordsOf(coveredCount, droppedMessages, current.userWordsMaxTokens, 'note')
        : undefined;
    const pinnedOf = (current: DraftParts) => {
      // Nothing out of view (no summary, nothing dropped): no rule to carry, none collected.
      if (!current.pinnedBlock || settings.rules === undefined || outOfView() === 0) return undefined;
      const blocks = [coveredWords(current), droppedWords(current)];
      const partsKey = `${current.dropped}|${blocks[0] === undefined ? '-' : 'c'}|${blocks[1] === undefined ? '-' : 'd'}|${current.userWordsMaxTokens}`;
      if (pinnedByParts.has(partsKey)) return pinnedByParts.get(partsKey);
      const block = pinnedFromBlocks(blocks, settings.rules());
      pinnedByParts.set(partsKey, block);
      return block;
    };
    const pinnedFromBlocks = (
      blocks: readonly (UserWordsBlock | undefined)[],
      rules: readonly PinnedRule[],
    ) => {
      // A detected rule is in its message's quote, whole or in part; an explicit pin (the whole
      // message) only in a whole one.
      const inView = (rule: PinnedRule) =>
        blocks.some((block) =>
          (rule.source === 'explicit' ? block?.whole : block?.quoted)?.has(rule.messageNumber),
        );
      const carried = rules.filter((rule) => rule.messageNumber < outOfView() && !inView(rule));
      if (carried.length === 0) return undefined;
      const key = carried.map((rule) => `${rule.messageNumber}:${rule.text.length}`).join(',');
      if (!pinnedBlocks.has(key)) {
        pinnedBlocks.set(
          key,
          pinnedBlock(carried, { maxTokens: settings.pinnedMaxTokens, countText: settings.countText }),
        );
      }
      return pinnedBlocks.get(key);
    };
    const noteOf = (current: DraftParts): string | undefined => {
      // Without the summary, the note stands for the covered messages too: nothing leaves silently.
      const from = current.summaries.length > 0 ? coveredCount : 0;
      const count = coveredCount + droppedCount - from;
      if (count <= 0) return undefined;
      const ref = settings.marks?.span(from, from + count);
      const marker =
        `[System: ${count} older message${count === 1 ? ' was' : 's were'} truncated due to context limits]` +
        (ref === undefined ? '' : ` ${refAnnotation(ref)}`);
      if (droppedCount === 0) return marker;
      if (!current.noteDetail) return marker;
      const words = droppedWords(current)?.text;
      return [
        marker,
        current.digest === undefined ? undefined : `A brief digest of what they held:\n${current.digest}`,
        words,
      ]
        .filter((block) => block !== undefined)
        .join('\n\n');
    };
    const assembleParts = (current: DraftParts): Message[] => {
      if (current.summaries.length > 0 && coveredCount > 0 && spanRef === null) {
        spanRef = settings.marks?.span(0, coveredCount);
      }
      return assembleRequest({
        layout,
        summaries: current.summaries,
        placement: settings.placement,
        note: noteOf(current),
        rest: current.turn.length === 0 ? current.history : current.history.concat(current.turn),
        extras: {
          span:
            current.summaries.length > 0 && typeof spanRef === 'string'
              ? { ref: spanRef, coveredCount }
              : undefined,
          userWords: coveredWords(current)?.text,
          pinned: pinnedOf(current)?.text,
          announcement: settings.announce ? RECALL_ANNOUNCEMENT : undefined,
        },
      });
    };
    /** This draft's request (its parts never change), assembled once: counted, then sent. */
    let assembled: Message[] | undefined;
    // Each part by name, not `...parts` followed by the draft's own members: in V8 that literal cost
    // about a third of a small request's own time (issue 26, measured against the spread in one
    // process). The type lists every part, so a new one cannot be left out.
    return {
      summaries: parts.summaries,
      dropped: parts.dropped,
      digest: parts.digest,
      noteDetail: parts.noteDetail,
      userWords: parts.userWords,
      userWordsMaxTokens: parts.userWordsMaxTokens,
      history: parts.history,
      historyRecords: parts.historyRecords,
      historySavings: parts.historySavings,
      turn: parts.turn,
      turnRecords: parts.turnRecords,
      pinnedBlock: parts.pinnedBlock,
      layout,
      coveredCount,
      originalHistory,
      originalTurn,
      outOfView,
      with: (overrides) => make({ ...parts, ...overrides }),
      pinned: () => pinnedOf(parts),
      userWordsBeside: (covered) => blockOf(0, covered, parts.userWordsMaxTokens, 'summary'),
      assemble() {
        assembled ??= assembleParts(parts);
        return assembled;
      },
    };
  };
  return make({
    summaries,
    dropped: 0,
    digest: undefined,
    noteDetail: true,
    userWords: true,
    userWordsMaxTokens: settings.userWordsMaxTokens,
    history: originalHistory,
    historyRecords: [],
    historySavings: {},
    turn: originalTurn,
    turnRecords: [],
    pinnedBlock: true,
  });
}
