import type { Message, ToolResultPart } from '../message/message';
import { foldToolSteps } from '../structure/fold-tool-steps';
import { imagePlaceholderWithRef } from '../truncate/image-placeholder';
import { cacheFor, FOLDS, type FoldedTurn, type RememberedFold } from './ladder-caches';
import type { FormLookup } from './ladder-forms';
import type { LadderSettings } from './ladder-settings';
import { scopeId } from './scope-id';

/** Up to this many messages in a folded turn, its members are searched rather than mapped. */
const SEARCHED_MEMBERS = 32;

/** The folded turns of one history (see {@link createFoldLookup}). */
export interface FoldLookup {
  /** Turn `turn` folded: its messages (as made, perhaps for an earlier request) and their tokens. */
  foldOf(turn: number): FoldedTurn;
  /** Turn `turn` folded as it goes out: the messages the fold passes through are this request's own. */
  foldedMessagesOf(turn: number): Message[];
}

/**
 * The folded turns of a history, each made when first asked for: remembered from the conversation's
 * earlier request while the turn's messages are unchanged (`RememberedFold`), else found by content
 * (`FOLDS`: the same stubs, numbers and settings) or made with `foldToolSteps` over the turn's stubs.
 */
export function createFoldLookup(
  history: readonly Message[],
  {
    settings,
    forms,
    turnStarts,
    originalOf,
  }: {
    settings: LadderSettings;
    /** The history's forms: its stubs, and the ladder memo's folds and unchanged prefix. */
    forms: FormLookup;
    /** History indexes where a turn starts (0 first). */
    turnStarts: readonly number[];
    /** The result a structural stage's note stands for (its recall reference is the original's). */
    originalOf: (result: ToolResultPart) => ToolResultPart;
  },
): FoldLookup {
  const { estimator } = settings;
  const { settingsKey, messageOf, folds, unchangedCount } = forms;
  const turnEnd = (turn: number) => turnStarts[turn + 1] ?? history.length;
  const refOf = (result: ToolResultPart) => settings.marks?.toolResult(originalOf(result), 0);
  const reusable = (remembered: RememberedFold | undefined, to: number) =>
    remembered !== undefined &&
    remembered.to === to &&
    to <= unchangedCount &&
    remembered.identifierChars === settings.foldIdentifierChars;
  const turnFolds: (FoldedTurn | undefined)[] = [];
  const foldOf = (turn: number): FoldedTurn => {
    let fold = turnFolds[turn];
    if (fold !== undefined) return fold;
    const from = turnStarts[turn]!;
    const to = turnEnd(turn);
    const remembered = folds.get(from);
    if (reusable(remembered, to)) {
      fold = remembered!.fold;
    } else {
      const members = history.slice(from, to);
      const cache = cacheFor(FOLDS, estimator, settings.keyOf(members[0]!));
      const key = `${settingsKey}|${settings.foldIdentifierChars}|${settings.numberOf(from)}|${members.map((message) => scopeId(settings.keyOf(message))).join(',')}`;
      fold = cache.get(key);
      if (fold === undefined) {
        const stubs = members.map((_, offset) => messageOf(from + offset, 'stub'));
        const messages = foldToolSteps(stubs, {
          refOf,
          identifierChars: settings.foldIdentifierChars,
          mediaOf: (part) => imagePlaceholderWithRef(part, settings.marks?.image(part)),
          originalOf,
        }).messages;
        fold = { messages, tokens: estimator.countMessages(messages), members: stubs };
        cache.set(key, fold);
      }
      folds.set(from, { to, identifierChars: settings.foldIdentifierChars, fold });
    }
    turnFolds[turn] = fold;
    return fold;
  };
  const madeMessages: (Message[] | undefined)[] = [];
  const foldedMessagesOf = (turn: number): Message[] => {
    let made = madeMessages[turn];
    if (made !== undefined) return made;
    const { members, messages } = foldOf(turn);
    const from = turnStarts[turn]!;
    // A turn has a few members: a search each, not a map per turn and request.
    const offsets =
      members.length > SEARCHED_MEMBERS
        ? new Map(members.map((member, offset) => [member, offset]))
        : undefined;
    made = messages.map((message) => {
      const offset = offsets === undefined ? members.indexOf(message) : (offsets.get(message) ?? -1);
      return offset < 0 ? message : messageOf(from + offset, 'stub');
    });
    madeMessages[turn] = made;
    return made;
  };
  return { foldOf, foldedMessagesOf };
}
