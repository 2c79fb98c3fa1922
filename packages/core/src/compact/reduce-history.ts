import type { Estimator } from '../estimate/estimator';
import type { Message, ToolResultPart } from '../message/message';
import type { RecallMarks } from '../recall/recall-marks';
import { clusterResultsWhere } from '../structure/cluster-tool-results';
import {
  collapsedRecord,
  collapseSpan,
  collapsibleSpans,
  type ExchangeSpan,
  exchangeRuns,
} from '../structure/collapse-exchanges';
import type { ResolvedStructureOptions } from '../structure/structure-options';
import { reduceToolResults } from '../truncate/reduce-tool-results';
import { replaceImages } from '../truncate/replace-images';
import { supersedeToolResults } from '../truncate/supersede-tool-results';
import type { TruncationRecord } from '../truncate/truncation-record';
import type { CompactionAction } from './compaction-action';
import { olderBoundary } from './older-boundary';

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
  /**
   * The current turn: its calls count when estimating how far the reductions must reach, but a
   * result in the history is only superseded by a call before the cut (so the reduced prefix
   * depends on itself alone, and prompt caches keep hitting until the cut moves).
   */
  turn: readonly Message[];
  imagePlaceholders: boolean;
  /** The structural stages: supersede, collapse, cluster (each `false` when turned off). */
  structure: ResolvedStructureOptions;
  reduction: { readonly minChars: number; readonly keepChars: number } | false;
  /**
   * Tokens of the protected window (the newest messages, current turn included): collapse and
   * cluster only work before it, from the grid point at or before its start.
   * @default 0
   */
  protectTokens?: number;
  /** On an overflow retry: the history groups kept verbatim instead of the protected window. */
  keepGroups?: number;
  /** References to write next to each cut (see `RecallMarks`). */
  marks?: RecallMarks | undefined;
  /** The reference of history messages `start`..`end` (exclusive), for collapsed exchanges. */
  spanRef?: ((start: number, end: number) => string | undefined) | undefined;
}

/** What {@link reduceHistory} returns. */
export interface ReduceHistoryResult {
  messages: Message[];
  /** Indexes are into the history (a `collapsed` record covers `messageCount` of them). */
  records: TruncationRecord[];
  actions: CompactionAction[];
  /** Raw tokens each stage took off the history. */
  savings: Partial<Record<CompactionAction, number>>;
}

const ACTION_OF: Record<TruncationRecord['kind'], CompactionAction> = {
  image: 'replace-images',
  superseded: 'supersede-tool-results',
  duplicate: 'supersede-tool-results',
  'near-duplicate': 'cluster-tool-results',
  collapsed: 'collapse-exchanges',
  'tool-result': 'reduce-tool-results',
};

/**
 * The reductions that need no model, on the oldest part of the history, in order: images become
 * placeholders; stale and duplicate tool results become notes (supersede); runs of short exchanges
 * become one quoting user message (collapse); near-duplicate results become their line diff
 * (cluster); large tool results keep their head and tail (truncate, oldest first, seed Strands
 * #1545). Everything before one cut point is reduced; the cut point is the earliest grid point (see
 * `gridTurns`) at which the history fits `targetTokens`, or its end when none does — so what is
 * reduced depends on the stable positions of old turns, not on the exact size of the newest
 * message. Collapse and cluster stop at the grid point at or before the protected window, for the
 * same reason. The current turn is never passed here, and never changed.
 */
export function reduceHistory(
  history: readonly Message[],
  {
    estimator,
    targetTokens,
    gridTurns,
    turn,
    imagePlaceholders,
    structure,
    reduction,
    protectTokens = 0,
    keepGroups,
    marks,
    spanRef,
  }: ReduceHistoryOptions,
): ReduceHistoryResult {
  const end = history.length;
  if (end === 0 || estimator.countMessages(history) <= targetTokens) {
    return { messages: history.slice(), records: [], actions: [], savings: {} };
  }

  // Candidate cut points: every gridTurns-th user turn start, then the end of the history.
  const candidates: number[] = [];
  let userTurns = 0;
  for (let index = 1; index < end; index++) {
    if (history[index]!.role === 'user' && ++userTurns % gridTurns === 0) candidates.push(index);
  }
  candidates.push(end);
  const protectStart = Math.min(
    end,
    olderBoundary([...history, ...turn], { protectTokens, keepGroups, estimator }),
  );
  const structureLimit = [0, ...candidates].filter((point) => point <= protectStart).at(-1) ?? 0;

  // The stages that keep message positions, on the first `limit` messages of the history. The
  // supersede stage sees only those messages (and the current turn when `withTurn`): a result is
  // replaced only for a call before `limit`, so what the prefix looks like depends on the prefix
  // alone and changes only when the cut moves to the next grid point.
  const reduceUpTo = (limit: number, withTurn: boolean) => {
    // The bound (with the turn) only counts tokens: its notes need no references.
    const refs = withTurn || marks === undefined ? {} : { marks };
    const records: TruncationRecord[] = [];
    const changes: { action: CompactionAction; index: number; before: Message; after: Message }[] = [];
    let reduced = history.slice(0, limit);
    const apply = (
      action: CompactionAction,
      result: { messages: Message[]; records: TruncationRecord[] },
    ) => {
      records.push(...result.records);
      result.messages.forEach((message, index) => {
        if (message !== reduced[index])
          changes.push({ action, index, before: reduced[index]!, after: message });
      });
      reduced = result.messages;
    };
    if (imagePlaceholders) apply('replace-images', replaceImages(reduced, { before: limit, ...refs }));
    const replacedResults = new Set<string>();
    if (supersede !== false) {
      const seen = withTurn ? [...reduced, ...turn] : reduced;
      const superseded = supersedeToolResults(seen, { ...supersede, before: limit, ...refs });
      for (const record of superseded.records)
        if (record.toolCallId !== undefined) replacedResults.add(record.toolCallId);
      apply('supersede-tool-results', {
        messages: superseded.messages.slice(0, limit),
        records: superseded.records,
      });
    }
    if (cluster !== false) {
      const intact = (result: ToolResultPart) => !replacedResults.has(result.toolCallId);
      apply(
        'cluster-tool-results',
        clusterResultsWhere(reduced, { ...cluster, before: Math.min(structureLimit, limit) }, intact),
      );
    }
    if (reduction !== false) {
      apply(
        'reduce-tool-results',
        reduceToolResults(reduced, {
          estimator,
          targetTokens: Number.NEGATIVE_INFINITY,
          minChars: reduction.minChars,
          keepChars: reduction.keepChars,
          before: limit,
          ...refs,
        }),
      );
    }
    return { reduced, records, changes };
  };
  const { supersede, collapse, cluster } = structure;
  // Everything, fully reduced, with what the current turn supersedes too: an upper bound on what
  // each cut saves, to find the first cut worth building.
  const { reduced: upperBound } = reduceUpTo(end, true);

  // Collapse folds messages together: its spans are computed for each cut (they end before it).
  const runs = collapse === false ? [] : exchangeRuns(history, collapse.maxChars);
  const collapsed = new Map<string, Message>();
  const spansFor = (cut: number): { span: ExchangeSpan; message: Message; saved: number }[] => {
    if (collapse === false || runs.length === 0) return [];
    return collapsibleSpans(history, runs, Math.min(cut, structureLimit), collapse.minExchanges)
      .map((span) => {
        const key = `${span.start}:${span.end}`;
        let message = collapsed.get(key);
        if (message === undefined) {
          message = collapseSpan(history, span, collapse.assistantChars, spanRef?.(span.start, span.end));
          collapsed.set(key, message);
        }
        const saved =
          estimator.countMessages(history.slice(span.start, span.end)) - estimator.countMessage(message);
        return { span, message, saved };
      })
      .filter(({ saved }) => saved > 0);
  };
  const collapseSaving = (cut: number) => spansFor(cut).reduce((sum, { saved }) => sum + saved, 0);

  const total = estimator.countMessages(history);
  let tokens = total;
  let cut = 0;
  let index = 0;
  let next = 0;
  for (; next < candidates.length; next++) {
    if (tokens - collapseSaving(cut) <= targetTokens) break;
    const point = candidates[next]!;
    for (; index < point; index++) {
      tokens += estimator.countMessage(upperBound[index]!) - estimator.countMessage(history[index]!);
    }
    cut = point;
  }
  // Build the prefix up to the cut from itself alone; when it saves less than the bound said, the
  // cut moves on to the next grid point.
  let built = reduceUpTo(cut, false);
  const builtTokens = (build: typeof built, at: number) =>
    total -
    estimator.countMessages(history.slice(0, at)) +
    estimator.countMessages(build.reduced) -
    collapseSaving(at);
  while (next < candidates.length && builtTokens(built, cut) > targetTokens) {
    cut = candidates[next++]!;
    built = reduceUpTo(cut, false);
  }
  const { reduced, records, changes } = built;

  const spans = spansFor(cut);
  const messages: Message[] = [];
  let position = 0;
  for (const { span, message } of spans) {
    for (; position < span.start; position++) messages.push(reduced[position]!);
    messages.push(message);
    position = span.end;
  }
  for (; position < end; position++) messages.push(position < cut ? reduced[position]! : history[position]!);

  const kept = records.filter((record) => record.messageIndex < cut);
  const savings: Partial<Record<CompactionAction, number>> = {};
  const save = (action: CompactionAction, tokensSaved: number) => {
    savings[action] = (savings[action] ?? 0) + tokensSaved;
  };
  for (const change of changes) {
    if (change.index < cut) {
      save(change.action, estimator.countMessage(change.before) - estimator.countMessage(change.after));
    }
  }
  for (const { span, message, saved } of spans) {
    kept.push(collapsedRecord(history, span, message));
    save('collapse-exchanges', saved);
  }
  const actions = [...new Set(kept.map((record) => ACTION_OF[record.kind]))];
  return { messages, records: kept, actions, savings };
}
