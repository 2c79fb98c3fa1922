import type { Message, ToolResultPart } from '../message/message';
import { safeBoundaries } from '../split/safe-boundaries';
import { clusterResultsWhere } from '../structure/cluster-tool-results';
import {
  collapsedRecord,
  collapseSpan,
  collapsibleSpans,
  exchangeRuns,
} from '../structure/collapse-exchanges';
import { supersedeToolResults } from '../truncate/supersede-tool-results';
import type { TruncationRecord } from '../truncate/truncation-record';
import type { TruncationResult } from '../truncate/truncation-result';
import { batchEnds, toolOutputTokens } from './batch-ends';
import type { CompactionAction } from './compaction-action';
import { isUserTurn } from './current-turn';
import { fitLevels } from './fit-levels';
import type { FormSettings, MessageForm } from './history-forms';
import { type HistoryLevel, NO_LEVEL, type RenderedHistory } from './history-level';
import { historyLookups } from './history-lookups';
import { createFoldLookup } from './ladder-folds';
import { createFormLookup } from './ladder-forms';
import type { LadderSettings } from './ladder-settings';
import { rememberedStructural } from './structural-memo';

/** The reductions of a history, in the order they are taken, and what each level costs. */
export interface HistoryLadder {
  /** Levels from none to the most, each reducing at least as much as the one before. */
  readonly levels: readonly HistoryLevel[];
  /** How many of `levels` (from the first) only clear tool output (the rest also fold turns). */
  readonly clearLevelCount: number;
  /**
   * How many of `levels` are steady: their bounds stay where they are as the conversation grows.
   * The rest (every result stubbed, every turn folded, up to the newest) move with every turn.
   */
  readonly steadyLevelCount: number;
  /** History indexes where a turn starts (0 first): where the history may be cut. */
  readonly turnStarts: readonly number[];
  /** Raw tokens of history messages `from`..`to` with their tool results stubbed. */
  stubTokens(from: number, to: number): number;
  /** Raw tokens of history messages from `from` (a turn start) on, every turn folded. */
  foldedTokensFrom(from: number): number;
  /** A level's bounds as conversation numbers (stable across requests), and back. */
  toNumbers(level: HistoryLevel): HistoryLevel;
  fromNumbers(level: HistoryLevel): HistoryLevel;
  /** History messages `from`..`to` with their tool results stubbed (what a summarizer reads). */
  stubMessages(from: number, to: number): Message[];
  /** Raw tokens of the history at `level`, structural stages not counted (they only save more). */
  estimate(level: HistoryLevel): number;
  render(level: HistoryLevel): RenderedHistory;
  /**
   * The least-reduced level whose history fits `room` raw tokens (with the structural stages, one
   * level lower when that fits), or the most reduced one with `fits: false`.
   */
  fit(
    room: number,
    options?: {
      through?: 'clear' | 'steady' | 'all';
      /** The level the conversation reached: kept while it fits `room`. */
      atLeast?: HistoryLevel | undefined;
      /** Going past `atLeast` (or from nothing), the level aims to fit this much less. @default room */
      lowRoom?: number;
    },
  ): RenderedHistory & {
    fits: boolean;
    /** No step past `atLeast` was needed, or the step got as low as `lowRoom` (see `fitLevels`). */
    low: boolean;
  };
}

export type { RenderedHistory } from './history-level';
/**
 * The ladder of reductions that need no model, over the history (everything before the current
 * turn), oldest first and in batches: first tool results (a batch at a time becomes previews, the
 * batch before it stubs), then finished turns fold their tool steps. Batch ends are turn starts
 * where what the steps free adds up to another `clearBatchTokens` (or `foldBatchTokens`), counted
 * from the start of the history: they depend on the old messages alone, so they stay where they
 * are as the conversation grows, and the request's prefix changes only when a level is passed.
 */
export type { LadderSettings } from './ladder-settings';

export function historyLadder(history: readonly Message[], settings: LadderSettings): HistoryLadder {
  const { estimator } = settings;
  const end = history.length;
  const { callOf, originalOf } = historyLookups(history);
  const formSettings: FormSettings = { ...settings, callOf };
  const safe = safeBoundaries(history);
  const turnStarts = [0];
  for (let index = 1; index < end; index++) {
    if (safe[index] && isUserTurn(history[index]!)) turnStarts.push(index);
  }
  const forms = createFormLookup(history, settings, formSettings);
  const { formOf, messageOf, tokensOf, keys, structural: remembered } = forms;
  // Typed arrays: their storage is outside the collected heap (this runs on every request).
  const prefix = (form: MessageForm) => {
    const sums = new Float64Array(end + 1);
    for (let index = 0; index < end; index++) sums[index + 1] = sums[index]! + tokensOf(index, form);
    return sums;
  };
  const sums = { verbatim: prefix('verbatim'), preview: new Float64Array(0), stub: prefix('stub') };
  const range = (form: MessageForm, from: number, to: number) => {
    if (form === 'preview' && sums.preview.length === 0) sums.preview = prefix('preview');
    return sums[form][to]! - sums[form][from]!;
  };

  const turnEnd = (turn: number) => turnStarts[turn + 1] ?? end;
  // Batches of tool output by its size (text at four characters a token, media at a flat rate):
  // cheap, and the same whatever the forms make of it.
  const clearable = new Float64Array(end);
  for (let index = 0; index < end; index++) clearable[index] = toolOutputTokens(history[index]!);
  const clearBounds = batchEnds(
    turnStarts.map((start, turn) => {
      let sum = 0;
      for (let index = start; index < turnEnd(turn); index++) sum += clearable[index]!;
      return sum;
    }),
    turnEnd,
    settings.clearBatchTokens,
  );
  const levels: HistoryLevel[] = [NO_LEVEL];
  clearBounds.forEach((bound, index) => {
    levels.push({ previewTo: bound, stubTo: index === 0 ? 0 : clearBounds[index - 1]!, foldTo: 0 });
  });
  const lastBound = clearBounds.at(-1) ?? 0;
  const lastStub = clearBounds.at(-2) ?? 0;

  const { foldOf, foldedMessagesOf } = createFoldLookup(history, { settings, forms, turnStarts, originalOf });
  // The turn starting at a history index, if one does (an array, not a map: one slot per index).
  const turnAt = new Int32Array(end + 1).fill(-1);
  turnStarts.forEach((start, index) => {
    turnAt[start] = index;
  });
  const turnIndex = { get: (index: number) => (turnAt[index]! >= 0 ? turnAt[index] : undefined) };
  let steadyLevelCount = levels.length;
  let foldSums: Float64Array | undefined;
  const foldTokens = (to: number) => {
    if (to === 0) return 0;
    if (foldSums === undefined) {
      foldSums = new Float64Array(turnStarts.length + 1);
      for (let turn = 0; turn < turnStarts.length; turn++)
        foldSums[turn + 1] = foldSums[turn]! + foldOf(turn).tokens;
    }
    return foldSums[turnIndex.get(to) ?? turnStarts.length]!;
  };
  if (end > 0 && settings.foldBatchTokens < Number.POSITIVE_INFINITY) {
    const foldBounds = batchEnds(
      turnStarts.map((start, turn) => range('stub', start, turnEnd(turn)) - foldOf(turn).tokens),
      turnEnd,
      settings.foldBatchTokens,
    );
    // Folding on top of the deepest clearing, up to where its stubs reach: the verbatim tail stays.
    for (const bound of foldBounds) {
      if (bound <= lastStub) levels.push({ previewTo: lastBound, stubTo: lastStub, foldTo: bound });
    }
    steadyLevelCount = levels.length;
    // Emergencies: every result of the history stubbed, then every turn folded. Their ends move
    // with every turn, so they are taken only when nothing steadier fits.
    const deepestFold = levels.at(-1)!.foldTo;
    levels.push({ previewTo: end, stubTo: end, foldTo: deepestFold });
    for (const bound of foldBounds)
      if (bound > deepestFold) levels.push({ previewTo: end, stubTo: end, foldTo: bound });
    if (levels.at(-1)!.foldTo < end) levels.push({ previewTo: end, stubTo: end, foldTo: end });
  } else if (end > 0) {
    steadyLevelCount = levels.length;
    levels.push({ previewTo: end, stubTo: end, foldTo: 0 });
  }

  const estimate = (level: HistoryLevel) =>
    foldTokens(level.foldTo) +
    range('stub', level.foldTo, level.stubTo) +
    range('preview', level.stubTo, level.previewTo) +
    range('verbatim', level.previewTo, end);

  const rendered = new Map<string, RenderedHistory>();
  const render = (level: HistoryLevel): RenderedHistory => {
    const key = `${level.previewTo}:${level.stubTo}:${level.foldTo}`;
    let known = rendered.get(key);
    if (known === undefined) {
      known = renderLevel(level);
      rendered.set(key, known);
    }
    return known;
  };
  const renderLevel = (level: HistoryLevel): RenderedHistory => {
    if (level.previewTo === 0) {
      return { level, messages: history.slice(), tokens: sums.verbatim[end]!, records: [], savings: {} };
    }
    const records: TruncationRecord[] = [];
    const savings: Partial<Record<CompactionAction, number>> = {};
    const save = (action: CompactionAction, tokens: number) => {
      if (tokens !== 0) savings[action] = (savings[action] ?? 0) + tokens;
    };
    // Structure first, where results are reduced: stale and duplicate results become notes (only
    // calls before `previewTo` count, so the prefix depends on itself alone), near-duplicates in the
    // preview zone their line diff.
    let reduced = history.slice(0, level.previewTo);
    const { supersede, cluster, collapse } = settings.structure;
    const replaced = new Set<string>();
    const structural = (
      action: CompactionAction,
      result: { messages: Message[]; records: TruncationRecord[] },
    ) => {
      result.messages.forEach((message, index) => {
        if (message !== reduced[index] && index >= level.foldTo) {
          save(action, estimator.countMessage(reduced[index]!) - estimator.countMessage(message));
        }
      });
      records.push(...result.records.filter((record) => record.messageIndex >= level.foldTo));
      reduced = result.messages;
    };
    // Each reads only the prefix before `previewTo`: remembered for the next request while the
    // prefix stays as it is (between level steps it does).
    const prefixStage = (stage: string, options: object, compute: () => TruncationResult) =>
      rememberedStructural(
        remembered,
        {
          key: `${stage}:${level.previewTo}`,
          input: reduced,
          keyOf: (index) => keys[index]!,
          numberOf: settings.numberOf,
          options,
        },
        compute,
      );
    if (supersede !== false) {
      const input = reduced;
      const result = prefixStage('supersede', supersede, () =>
        supersedeToolResults(input, { ...supersede, before: level.previewTo, ...marksOf(settings) }),
      );
      for (const record of result.records)
        if (record.toolCallId !== undefined) replaced.add(record.toolCallId);
      structural('supersede-tool-results', result);
    }
    if (cluster !== false && level.stubTo < level.previewTo) {
      // Representatives may be older (stubbed later); what matters is the diff the newer ones keep.
      const intact = (result: ToolResultPart) => !replaced.has(result.toolCallId);
      const input = reduced;
      structural(
        'cluster-tool-results',
        prefixStage(supersede === false ? 'cluster' : 'cluster-after-supersede', cluster, () =>
          clusterResultsWhere(input, { ...cluster, before: level.previewTo }, intact),
        ),
      );
    }
    const messages: Message[] = [];
    // Folded turns (collapse first: runs of short exchanges become one quoting message).
    const spans =
      collapse === false || level.foldTo === 0
        ? []
        : collapsibleSpans(
            history,
            exchangeRuns(history, collapse.maxChars),
            level.foldTo,
            collapse.minExchanges,
          )
            .map((span) => {
              const message = collapseSpan(
                history,
                span,
                collapse.assistantChars,
                settings.spanRef(span.start, span.end),
              );
              const saved =
                estimator.countMessages(history.slice(span.start, span.end)) -
                estimator.countMessage(message);
              return { span, message, saved };
            })
            .filter(({ saved }) => saved > 0);
    let position = 0;
    for (const { span, message, saved } of spans) {
      while (position < span.start) position = pushFolded(turnIndex.get(position), position, span.start);
      messages.push(message);
      records.push(collapsedRecord(history, span, message));
      save('collapse-exchanges', saved);
      position = span.end;
    }
    while (position < level.foldTo) position = pushFolded(turnIndex.get(position), position, level.foldTo);
    function pushFolded(turn: number | undefined, from: number, limit: number): number {
      const to = Math.min(limit, turn === undefined ? from + 1 : (turnStarts[turn + 1] ?? end));
      if (turn === undefined || to < (turnStarts[turn + 1] ?? end)) {
        // Not a whole turn (a collapsed span ends inside it): its messages as stubs, like a fold's.
        for (let index = from; index < to; index++) pushFormed(index, 'stub', history[index]!);
        return to;
      }
      messages.push(...foldedMessagesOf(turn));
      save('fold-tool-steps', range('verbatim', from, to) - foldOf(turn).tokens);
      records.push({
        kind: 'folded',
        messageIndex: from,
        messageCount: to - from,
        charsBefore: 0,
        charsAfter: 0,
      });
      return to;
    }
    function pushFormed(index: number, form: MessageForm, message = reduced[index] ?? history[index]!) {
      const formed = formOf(index, form, message);
      messages.push(formed.unchanged ? message : formed.message);
      // `for…in`: no array of entries per message and level.
      for (const action in formed.savings)
        save(action as CompactionAction, formed.savings[action as CompactionAction]!);
      for (const record of formed.records) records.push({ ...record, messageIndex: index });
    }
    for (let index = position; index < level.stubTo; index++) pushFormed(index, 'stub');
    for (let index = Math.max(position, level.stubTo); index < level.previewTo; index++)
      pushFormed(index, 'preview');
    for (let index = Math.max(position, level.previewTo); index < end; index++)
      messages.push(history[index]!);
    return { level, messages, tokens: estimator.countMessages(messages), records, savings };
  };

  const clearLevelCount = clearBounds.length + 1;
  return {
    levels,
    clearLevelCount,
    steadyLevelCount,
    turnStarts,
    stubTokens: (from, to) => range('stub', from, to),
    toNumbers: (level) => ({
      previewTo: settings.numberOf(level.previewTo),
      stubTo: settings.numberOf(level.stubTo),
      foldTo: settings.numberOf(level.foldTo),
    }),
    fromNumbers(level) {
      const indexOf = (number: number) => {
        let index = 0;
        while (index < end && settings.numberOf(index) < number) index++;
        return index;
      };
      return {
        previewTo: indexOf(level.previewTo),
        stubTo: indexOf(level.stubTo),
        foldTo: indexOf(level.foldTo),
      };
    },
    foldedTokensFrom: (from) => foldTokens(end) - foldTokens(from),
    stubMessages: (from, to) => history.slice(from, to).map((_, offset) => messageOf(from + offset, 'stub')),
    estimate,
    render,
    fit(room, { through = 'all', atLeast, lowRoom = room } = {}) {
      const last =
        through === 'clear' ? clearLevelCount : through === 'steady' ? steadyLevelCount : levels.length;
      const structured = settings.structure.supersede !== false || settings.structure.cluster !== false;
      return fitLevels(levels.slice(0, last), { estimate, render, structured }, { room, lowRoom, atLeast });
    },
  };
}

function marksOf(settings: LadderSettings) {
  return settings.marks === undefined ? {} : { marks: settings.marks };
}
