import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import type { RecallMarks } from '../recall/recall-marks';
import { reduceToolResults } from '../truncate/reduce-tool-results';
import { replaceImages } from '../truncate/replace-images';
import { supersedeToolResults } from '../truncate/supersede-tool-results';
import type { TruncationRecord } from '../truncate/truncation-record';
import type { CompactionAction } from './compact-messages';

/** Options of {@link reduceHistory}. */
export interface ReduceHistoryOptions {
  estimator: Estimator;
  /** Raw tokens the history may take. */
  targetTokens: number;
  /**
   * Where the reduced prefix may end: the start of every `gridTurns`-th user turn of the history,
   * or its end. The prefix only ever grows to the next of these points, so the request's prefix
   * changes once per few turns, not on every call (prompt caches keep hitting). The newest results
   * (the protected window) are reduced last, as a grid step reaches them.
   */
  gridTurns: number;
  /** The current turn, for the structural stage (a later call there supersedes one in the history). */
  turn: readonly Message[];
  imagePlaceholders: boolean;
  supersede: boolean;
  reduction: { readonly minChars: number; readonly keepChars: number } | false;
  /** References to write next to each cut (see `RecallMarks`). */
  marks?: RecallMarks | undefined;
}

/** What {@link reduceHistory} returns. */
export interface ReduceHistoryResult {
  messages: Message[];
  /** Indexes are into the history. */
  records: TruncationRecord[];
  actions: CompactionAction[];
}

/**
 * The reductions that need no model, on the oldest part of the history: images become
 * placeholders, superseded and duplicate tool results become notes, large tool results keep their
 * head and tail (oldest first, seed Strands #1545). Everything before one cut point is reduced;
 * the cut point is the earliest grid point (see `gridTurns`) at which the history fits
 * `targetTokens`, or its end when none does — so what is reduced depends on the stable positions of
 * old turns, not on the exact size of the newest message. The current turn is never passed here.
 */
export function reduceHistory(
  history: readonly Message[],
  {
    estimator,
    targetTokens,
    gridTurns,
    turn,
    imagePlaceholders,
    supersede,
    reduction,
    marks,
  }: ReduceHistoryOptions,
): ReduceHistoryResult {
  const end = history.length;
  if (end === 0 || estimator.countMessages(history) <= targetTokens) {
    return { messages: history.slice(), records: [], actions: [] };
  }

  // Everything before `end`, fully reduced; the prefix of it up to the chosen cut is used.
  const records: TruncationRecord[] = [];
  const kinds = new Map<TruncationRecord, CompactionAction>();
  const apply = (action: CompactionAction, result: { messages: Message[]; records: TruncationRecord[] }) => {
    for (const record of result.records) kinds.set(record, action);
    records.push(...result.records);
    return result.messages;
  };
  let reduced = history.slice();
  if (imagePlaceholders)
    reduced = apply('replace-images', replaceImages(reduced, { before: end, ...(marks ? { marks } : {}) }));
  if (supersede) {
    const withTurn = supersedeToolResults([...reduced, ...turn], {
      before: end,
      ...(marks ? { marks } : {}),
    });
    reduced = apply('supersede-tool-results', {
      messages: withTurn.messages.slice(0, reduced.length),
      records: withTurn.records,
    });
  }
  if (reduction !== false) {
    reduced = apply(
      'reduce-tool-results',
      reduceToolResults(reduced, {
        estimator,
        targetTokens: Number.NEGATIVE_INFINITY,
        minChars: reduction.minChars,
        keepChars: reduction.keepChars,
        before: end,
        ...(marks ? { marks } : {}),
      }),
    );
  }

  // Candidate cut points: every gridTurns-th user turn start, then the end of the history.
  const candidates: number[] = [];
  let userTurns = 0;
  for (let index = 1; index < end; index++) {
    if (history[index]!.role === 'user' && ++userTurns % gridTurns === 0) candidates.push(index);
  }
  candidates.push(end);

  let tokens = estimator.countMessages(history);
  let cut = 0;
  let index = 0;
  for (const point of candidates) {
    if (tokens <= targetTokens) break;
    for (; index < point; index++) {
      tokens += estimator.countMessage(reduced[index]!) - estimator.countMessage(history[index]!);
    }
    cut = point;
  }
  const messages = [...reduced.slice(0, cut), ...history.slice(cut)];
  const kept = records.filter((record) => record.messageIndex < cut);
  const actions = [...new Set(kept.map((record) => kinds.get(record)!))];
  return { messages, records: kept, actions };
}
