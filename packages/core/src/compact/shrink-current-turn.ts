import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import type { RecallMarks } from '../recall/recall-marks';
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
 * the order the current-turn rule allows: its tool results oldest first to `keepChars` (head and
 * tail with the marker, never marked as errors), then its images to placeholders oldest first, then
 * its tool results to `floorChars`. The user's text, the assistant's text and tool calls are never
 * cut. With `floor: false` the last step is skipped.
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
  const reduce = (chars: number) => {
    if (tokenCount <= targetTokens) return;
    const reduced = reduceToolResults(messages, {
      estimator,
      targetTokens,
      minChars: chars,
      keepChars: chars,
      ...(marks ? { marks } : {}),
    });
    messages = reduced.messages;
    tokenCount = reduced.tokenCount;
    mergeRecords(records, reduced.records);
  };
  reduce(keepChars);
  for (let before = 1; before <= messages.length && tokenCount > targetTokens; before++) {
    const replaced = replaceImages(messages, { before, ...(marks ? { marks } : {}) });
    if (replaced.records.length === 0) continue;
    messages = replaced.messages;
    tokenCount = estimator.countMessages(messages);
    mergeRecords(records, replaced.records);
  }
  if (floor) reduce(floorChars);
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
