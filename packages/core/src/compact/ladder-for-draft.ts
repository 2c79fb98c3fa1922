import { LRUCache } from 'lru-cache';
import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import type { RecallMarks } from '../recall/recall-marks';
import type { ResolvedCompactionOptions } from './compaction-options';
import { type HistoryLadder, historyLadder } from './history-ladder';
import type { LadderMemo } from './ladder-caches';
import type { RequestBudget } from './request-budget';
import { conversationCount, type RequestDraft } from './request-draft';

/** The ladder memos of recent conversations, by estimator (each counts in its own units). */
const LADDER_MEMOS = new WeakMap<object, LRUCache<string, LadderMemo>>();

/** The memo of one conversation's ladder under `key` (conversation, coverage, settings). */
export function ladderMemo(key: string, estimator: Estimator): LadderMemo {
  let memos = LADDER_MEMOS.get(estimator);
  if (memos === undefined) {
    memos = new LRUCache({ max: 200 });
    LADDER_MEMOS.set(estimator, memos);
  }
  let memo = memos.get(key);
  if (memo === undefined) {
    memo = { keys: [], numbers: [], forms: [], structural: new Map(), folds: new Map() };
    memos.set(key, memo);
  }
  return memo;
}

/** The ladder of no-model reductions over a draft's history (after what it dropped). */
export function ladderFor(
  draft: RequestDraft,
  {
    budget,
    options,
    estimator,
    marks,
    keyOf,
    conversationId,
  }: {
    budget: RequestBudget;
    options: ResolvedCompactionOptions;
    estimator: Estimator;
    marks: RecallMarks | undefined;
    keyOf: (message: Message) => object;
    conversationId: string;
  },
): HistoryLadder {
  const history = draft.originalHistory.slice(draft.dropped);
  // The conversation number of each history index (system messages not counted), and of the end.
  // A typed array: its storage is outside the collected heap (this runs on every request).
  const numbers = new Int32Array(history.length + 1);
  let number = draft.coveredCount + conversationCount(draft.originalHistory.slice(0, draft.dropped));
  for (let index = 0; index < history.length; index++) {
    numbers[index] = number;
    if (history[index]!.role !== 'system') number++;
  }
  numbers[history.length] = number;
  // Raw tokens, not calibrated: batch ends must not move when the calibration does.
  const stepTokens = budget.levelGrainTokens;
  const { reduction } = budget;
  return historyLadder(history, {
    estimator,
    previewMinChars: reduction === false ? Number.POSITIVE_INFINITY : reduction.minChars,
    previewKeepChars: reduction === false ? 0 : reduction.keepChars,
    stubResults: reduction !== false,
    blobMinChars: budget.blobMinChars,
    blobKeepChars: budget.blobKeepChars,
    imagePlaceholders: options.imagePlaceholders,
    marks,
    messageRef: (index) => marks?.span(numbers[index]!, numbers[index]! + 1),
    clearBatchTokens: stepTokens,
    foldIdentifierChars: budget.foldIdentifierChars,
    foldBatchTokens: reduction === false ? Number.POSITIVE_INFINITY : stepTokens,
    structure: options.structure,
    spanRef: (start, end) => marks?.span(numbers[start]!, numbers[end]!),
    keyOf,
    numberOf: (index) => numbers[index]!,
    memo: (settingsKey) =>
      ladderMemo(
        `${conversationId}\u0000${draft.coveredCount}\u0000${draft.dropped}\u0000${settingsKey}`,
        estimator,
      ),
  });
}
