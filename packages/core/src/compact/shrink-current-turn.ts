import type { Estimator } from '../estimate/estimator';
import type { Message, ToolResultPart } from '../message/message';
import { toolResultsOf } from '../message/message-parts';
import type { RecallMarks } from '../recall/recall-marks';
import { RECALL_TOOL_NAME } from '../recall/recall-tool';
import { reduceToolResults } from '../truncate/reduce-tool-results';
import { replaceImages } from '../truncate/replace-images';
import type { TruncationRecord } from '../truncate/truncation-record';

/** What {@link shrinkCurrentTurn} returns. */
export interface ShrinkCurrentTurnResult {
  messages: Message[];
  records: TruncationRecord[];
  /** Raw tokens of `messages`. */
  tokenCount: number;
}

/**
 * Shrinks the turn in progress, only as far as needed to bring its raw count to `targetTokens`, in
 * the order the current-turn rule allows, each step oldest first:
 * 1. the turn's older tool results (all but the newest step's) to `keepChars` (head and tail with
 *    the marker, never marked as errors);
 * 2. its images to placeholders;
 * 3. its older tool results to `floorChars`;
 * 4. the newest step's results to `keepChars`, then (with `floor`) to `floorChars`;
 * 5. last of all, pages the model read back with `spillway_recall` — what it asked for — to
 *    `floorChars` (with `floor` only).
 * The user's text, the assistant's text and tool calls are never cut. With `floor: false` the
 * floor steps are skipped.
 */
export function shrinkCurrentTurn(
  turn: readonly Message[],
  {
    estimator,
    targetTokens,
    keepChars,
    floorChars,
    floor = true,
    marks,
  }: {
    estimator: Estimator;
    targetTokens: number;
    keepChars: number;
    floorChars: number;
    floor?: boolean;
    /** References to write next to each cut (see `RecallMarks`). */
    marks?: RecallMarks | undefined;
  },
): ShrinkCurrentTurnResult {
  let messages = turn.slice();
  const records: TruncationRecord[] = [];
  let tokenCount = estimator.countMessages(messages);
  let newest = messages.length;
  while (newest > 0 && toolResultsOf(messages[newest - 1]!).length === 0) newest--;
  newest = Math.max(0, newest - 1);
  const notReadBack = (result: ToolResultPart) => result.toolName !== RECALL_TOOL_NAME;
  const reduce = (chars: number, before: number, only: (result: ToolResultPart) => boolean) => {
    if (tokenCount <= targetTokens) return;
    const reduced = reduceToolResults(messages, {
      estimator,
      targetTokens,
      minChars: chars,
      keepChars: chars,
      before,
      only,
      mentions: true,
      ...(marks ? { marks } : {}),
    });
    messages = reduced.messages;
    tokenCount = reduced.tokenCount;
    mergeRecords(records, reduced.records);
  };
  reduce(keepChars, newest, notReadBack);
  for (let before = 1; before <= messages.length && tokenCount > targetTokens; before++) {
    const replaced = replaceImages(messages, { before, ...(marks ? { marks } : {}) });
    if (replaced.records.length === 0) continue;
    messages = replaced.messages;
    tokenCount = estimator.countMessages(messages);
    mergeRecords(records, replaced.records);
  }
  if (floor) reduce(floorChars, newest, notReadBack);
  reduce(keepChars, messages.length, notReadBack);
  if (floor) {
    reduce(floorChars, messages.length, notReadBack);
    reduce(floorChars, messages.length, () => true);
  }
  return { messages, records, tokenCount };
}

/** Keeps one record per shortened thing: a later, deeper cut of the same result replaces the earlier. */
function mergeRecords(records: TruncationRecord[], added: readonly TruncationRecord[]): void {
  for (const record of added) {
    const same = records.findIndex(
      (existing) =>
        existing.kind === record.kind &&
        existing.messageIndex === record.messageIndex &&
        existing.toolCallId !== undefined &&
        existing.toolCallId === record.toolCallId,
    );
    if (same === -1) {
      records.push(record);
    } else {
      records[same] = { ...record, charsBefore: records[same]!.charsBefore };
    }
  }
}
