import type { Estimator } from '../estimate/estimator';
import { contentMemo } from '../message/content-memo';
import type { Message } from '../message/message';
import { collectPinnedRules, type PinnedRule } from '../pin/collect-pinned-rules';
import { PINNED_RULES_MAX_TOKENS, PINNED_RULES_WINDOW_SHARE } from '../pin/pinned-block';
import { providerProfile } from '../provider/provider-profile';
import { createRecallMarks, type RecallMarks } from '../recall/recall-marks';
import { createRecallScope } from '../recall/recall-scope';
import type { CompactionState } from '../store/compaction-state';
import { capToolResults } from '../truncate/cap-tool-results';
import { replaceImages } from '../truncate/replace-images';
import type { TruncationRecord } from '../truncate/truncation-record';
import { announceAfterFirstCut } from './announce-after-first-cut';
import { boundSummaries } from './bound-summaries';
import { ACTION_ORDER, type CompactionAction } from './compaction-action';
import { assembleRequest, layoutConversation, stateMatches } from './compaction-layout';
import type { ResolvedCompactionOptions } from './compaction-options';
import type { CompactMessagesResult, CompactRequestOptions } from './compact-messages';
import { deriveConversationId } from './conversation-id';
import { currentTurnStart } from './current-turn';
import { LRUCache } from 'lru-cache';
import { type HistoryLadder, historyLadder, type LadderMemo } from './history-ladder';
import { olderBoundary } from './older-boundary';
import { recognizeMessages } from './recognize-messages';
import { type RequestBudget, requestBudget } from './request-budget';
import { conversationCount, createDraft, type DraftSettings, type RequestDraft } from './request-draft';
import { shrinkCurrentTurn } from './shrink-current-turn';
import type { StageContext } from './stage';
import { STAGES } from './stages';
import { fitHistory } from './stages/fit-history';
import { summarizeOldDialogue } from './stages/summarize-old-dialogue';
import { stepSavings } from './step-savings';
import { unfittable } from './unfittable';

/** History groups kept verbatim on each overflow retry (seed claw-code #2808). */
export const OVERFLOW_KEEP_GROUPS = [4, 2, 1, 0] as const;
/** Share of the compact budget each overflow retry aims at. */
const OVERFLOW_TARGET_SHARE = [0.8, 0.6, 0.4, 0.25] as const;

/** Per-request options of {@link runCompaction} beyond the public ones. */
export interface RunCompactionOptions extends CompactRequestOptions {
  contextWindow?: number;
  provider?: string;
  /**
   * `request` (the default): the whole pipeline. `measure`: only the reductions that need no model,
   * nothing reported (the compactor decides on background work with it). `summarize`: make a summary
   * now, whatever the usage (background or manual compaction); the result's state is the new one.
   */
  mode?: 'request' | 'measure' | 'summarize';
  /** Why a `summarize` run summarizes. @default 'background' */
  summarizeReason?: 'background' | 'manual';
}

/**
 * `compactMessages` with options already resolved (the compactor resolves them once): the prelude
 * (storage-time cap, media a text-only provider could not show, the stored summary), then the
 * stages of `STAGES` in order until the request fits, then the result.
 */
export async function runCompaction(
  messages: readonly Message[],
  options: ResolvedCompactionOptions,
  {
    state: givenState,
    conversationId = deriveConversationId(messages),
    overheadTokens = 0,
    outputTokens = 0,
    overflowAttempt,
    allowSummarize = true,
    abortSignal,
    contextWindow = options.contextWindow,
    provider = options.provider,
    mode = 'request',
    summarizeReason = 'background',
    originals = messages,
    recallTool = false,
    reductionLevel,
    rejectedTokens,
  }: RunCompactionOptions,
): Promise<CompactMessagesResult> {
  recognizeMessages(messages, { conversationId, scope: options.estimator });
  const { model } = options;
  const quiet = mode !== 'request';
  const onEvent = quiet && mode === 'measure' ? () => {} : options.onEvent;
  const estimator = estimatorFor(options.estimator, provider);
  const marks =
    options.recall === false
      ? undefined
      : createRecallMarks({ scope: createRecallScope({ messages: originals, secret: options.recall.secret }), originals });
  const announce = marks !== undefined && recallTool;
  const finalize = (list: Message[]) => (announce ? announceAfterFirstCut(list) : list);
  const rawOf = (list: readonly Message[]) => estimator.countMessages(list) + overheadTokens;
  const calibrated = (raw: number) => estimator.calibrated(raw, model);
  const tokensBefore = calibrated(rawOf(messages));
  const saved: Partial<Record<CompactionAction, number>> = {};
  const actions = new Set<CompactionAction>();
  const report = (records: readonly TruncationRecord[]) => {
    if (records.length > 0 && !quiet) onEvent({ type: 'truncation', conversationId, records });
  };

  // The prelude: the storage-time cap, and media a text-only provider could not show.
  const capped = capToolResults(messages, {
    maxChars: options.toolResultMaxChars,
    limits: options.toolResultLimits,
    ...(marks === undefined ? {} : { marks }),
  });
  if (capped.records.length > 0) {
    actions.add('cap-tool-results');
    saved['cap-tool-results'] = estimator.countMessages(messages) - estimator.countMessages(capped.messages);
  }
  report(capped.records);
  let working = capped.messages;
  if (options.toolResultMedia === 'placeholder' && providerProfile(provider).toolResultMedia === 'text') {
    const media = replaceImages(working, {
      before: Number.POSITIVE_INFINITY,
      includeFiles: true,
      toolResultsOnly: true,
      ...(marks === undefined ? {} : { marks }),
    });
    if (media.records.length > 0) {
      actions.add('tool-result-media');
      saved['tool-result-media'] = estimator.countMessages(working) - estimator.countMessages(media.messages);
    }
    report(media.records);
    working = media.messages;
  }

  // The stored summary, when it still covers the same prefix and none of the current turn.
  const stored = stateApplies(messages, working, givenState) ? givenState : undefined;
  const retry = overflowAttempt === undefined ? undefined : Math.max(1, Math.floor(overflowAttempt));
  const window =
    contextWindow ??
    (retry === undefined
      ? undefined
      : // Unknown window on an overflow retry: aim below what was just rejected.
        calibrated(rawOf(plainRequest(working, stored, options))) / options.thresholds.compact);
  // A manual or background summary needs a budget even when the window is unknown: the summary's
  // own bound, and no protected window (everything before the current turn may be covered).
  const budget =
    window !== undefined
      ? requestBudget(window, options)
      : mode === 'summarize'
        ? { ...requestBudget(Number.MAX_SAFE_INTEGER, options), protectTokens: 0, summaryMaxTokens: options.summaryMaxTokens }
        : undefined;
  let rules: PinnedRule[] | undefined;
  const settings: DraftSettings = {
    placement: options.summaryPlacement,
    marks,
    announce,
    rules:
      options.pinnedRules === false
        ? undefined
        : () => {
            rules ??= [
              ...collectPinnedRules(originals, { detect: (options.pinnedRules || { detect: true }).detect, pin: options.pin }),
              ...(context.state?.pinned ?? []).map((quote) => ({ ...quote, source: 'explicit' as const })),
            ];
            return rules;
          },
    pinnedMaxTokens:
      options.pinnedRules === false
        ? 0
        : (options.pinnedRules.maxTokens ??
          Math.min(PINNED_RULES_MAX_TOKENS, Math.max(1, Math.floor((window ?? Number.POSITIVE_INFINITY) * PINNED_RULES_WINDOW_SHARE)))),
    userWordsMaxTokens: budget?.userWordsMaxTokens ?? Number.POSITIVE_INFINITY,
    blobMinChars: budget?.blobMinChars ?? Number.POSITIVE_INFINITY,
    blobKeepChars: budget?.blobKeepChars ?? 0,
    countText: (text) => estimator.countText(text),
  };
  const draftFor = (state: CompactionState | undefined) => {
    rules = undefined;
    return createDraft(
      layoutConversation(working, state?.coveredCount ?? 0),
      {
        coveredCount: state?.coveredCount ?? 0,
        summaries:
          budget === undefined || state === undefined
            ? (state?.summaries ?? [])
            : boundSummaries(state.summaries, budget.summaryMaxTokens, estimator),
      },
      settings,
    );
  };
  const count = (draft: RequestDraft) => rawOf(finalize(draft.assemble()));
  const ladders = new Map<string, HistoryLadder>();
  // Forms are remembered under the original message's content memo (a capped copy is new each time).
  const originalOf = new Map<Message, Message>();
  working.forEach((message, index) => {
    if (message !== messages[index]) originalOf.set(message, messages[index]!);
  });
  const keyOf = (message: Message): object => {
    const original = originalOf.get(message) ?? message;
    return contentMemo(original) ?? original;
  };
  const context: StageContext = {
    options,
    budget: budget!,
    estimator,
    marks,
    conversationId,
    reason: mode === 'summarize' ? summarizeReason : retry === undefined ? 'threshold' : 'overflow',
    messages,
    working,
    targetTokens: 0,
    reductionTargetTokens: 0,
    limitTokens: 0,
    mustCover: () => 0,
    allowSummarize: allowSummarize && mode !== 'measure',
    abortSignal,
    count,
    ladderOf: (draft) => {
      const key = `${draft.coveredCount}:${draft.dropped}`;
      let ladder = ladders.get(key);
      if (ladder === undefined) {
        ladder = ladderFor(draft, budget!, options, estimator, marks, keyOf, (settingsKey) =>
          ladderMemo(`${conversationId}\u0000${draft.coveredCount}\u0000${draft.dropped}\u0000${settingsKey}`, estimator),
        );
        ladders.set(key, ladder);
      }
      return ladder;
    },
    draftFor,
    act: (action, savedTokens) => {
      actions.add(action);
      if (savedTokens !== undefined) saved[action] = (saved[action] ?? 0) + savedTokens;
    },
    emit: onEvent,
    levelHint: reductionLevel,
    reached: undefined,
    state: stored,
    stateChanged: false,
    summaryFailed: false,
  };
  if (stored) actions.add('apply-summary');
  let draft = draftFor(stored);

  const finish = (final: RequestDraft, { minimal = false }: { minimal?: boolean } = {}): CompactMessagesResult => {
    const restOffset = working.length - final.layout.rest.length;
    const records = [
      ...final.historyRecords.map((record) => ({ ...record, messageIndex: record.messageIndex + restOffset })),
      ...final.turnRecords.map((record) => ({
        ...record,
        messageIndex: record.messageIndex + restOffset + final.originalHistory.length,
      })),
    ];
    report(records);
    if (!quiet) for (const rule of final.pinned()?.evicted ?? []) onEvent({ type: 'pinned-rule-evicted', conversationId, rule });
    const output = finalize(final.assemble());
    const historySavings = Object.entries(final.historySavings) as [CompactionAction, number][];
    for (const [action, tokens] of historySavings) if (tokens > 0) actions.add(action);
    if (final.turn !== final.originalTurn && final.turnRecords.length > 0) {
      actions.add('shrink-current-turn');
      saved['shrink-current-turn'] = estimator.countMessages(final.originalTurn) - estimator.countMessages(final.turn);
    }
    const estimatedTokens = rawOf(output);
    const tokensAfter = calibrated(estimatedTokens);
    return {
      messages: output,
      state: context.state,
      stateChanged: context.stateChanged,
      tokensBefore,
      tokensAfter,
      estimatedTokens,
      actions: [...actions].sort((left, right) => order(left) - order(right)),
      savings: stepSavings(actions, { ...saved, ...Object.fromEntries(historySavings) }, {
        factor: estimator.calibrationFactor(model),
        total: tokensBefore - tokensAfter,
      }),
      minimal,
      ...(context.reached === undefined ? {} : { reductionLevel: context.reached }),
    };
  };

  if (budget === undefined || (window === undefined && mode !== 'summarize')) return finish(draft);
  const toRaw = (tokens: number) => tokens / estimator.calibrationFactor(model);
  const share = retry === undefined ? 1 : OVERFLOW_TARGET_SHARE[Math.min(retry, 4) - 1]!;
  // A retry aims under a share of what was rejected too: the provider's count is what matters.
  const target =
    retry === undefined
      ? budget.compactTokens
      : Math.min(
          budget.compactTokens * share,
          rejectedTokens === undefined ? Number.POSITIVE_INFINITY : calibrated(rejectedTokens) * share,
        );
  const keepGroups = retry === undefined ? undefined : OVERFLOW_KEEP_GROUPS[Math.min(retry, 4) - 1];
  Object.assign(context, {
    targetTokens: toRaw(target),
    reductionTargetTokens: toRaw(target * (budget.reductionTargetTokens / budget.compactTokens)),
    limitTokens: toRaw(Math.max(target, window! - Math.max(0, outputTokens))),
    mustCover:
      keepGroups === undefined
        ? () => 0
        : (current: RequestDraft) =>
            Math.min(
              current.originalHistory.length,
              olderBoundary([...current.originalHistory, ...current.originalTurn], {
                protectTokens: 0,
                keepGroups,
                estimator,
              }),
            ),
  });
  const overTarget = (current: RequestDraft) =>
    count(current) > context.targetTokens || context.mustCover(current) > current.dropped;

  if (mode === 'summarize') {
    draft = await summarizeOldDialogue.run(draft, context);
    return finish(draft);
  }
  const hinted =
    reductionLevel !== undefined &&
    reductionLevel.coveredCount === draft.coveredCount &&
    (reductionLevel.previewTo > 0 || reductionLevel.foldTo > 0);
  if (retry === undefined && !overTarget(draft) && mode === 'request' && !hinted) return finish(draft);

  // Fail fast: when even the smallest request (no history, a note in its place, the current turn at
  // its floor) cannot fit the window, nothing is summarized and no provider call should be made.
  const smallest = draft.with({
    summaries: [],
    dropped: draft.originalHistory.length,
    noteDetail: false,
    userWords: false,
    pinnedBlock: false,
    history: [],
    turn: shrinkCurrentTurn(draft.originalTurn, {
      estimator,
      targetTokens: 0,
      keepChars: budget.floorChars,
      floorChars: budget.floorChars,
      marks,
    }).messages,
  });
  const smallestTokens = count(smallest);
  if (mode === 'request' && smallestTokens > context.limitTokens) {
    throw unfittable(smallest, {
      tokens: calibrated(smallestTokens),
      budget,
      limitTokens: calibrated(context.limitTokens),
      overheadTokens,
      countTokens: (list) => calibrated(rawOf(list)),
    });
  }

  if (mode === 'measure') {
    // The most the steady reductions without a model can do, estimated (no request is built).
    const ladder = context.ladderOf(draft);
    const deepest = ladder.levels[Math.max(0, ladder.steadyLevelCount - 1)]!;
    const estimatedTokens = count(draft.with({ history: [] })) + ladder.estimate(deepest);
    return {
      messages: [],
      state: stored,
      stateChanged: false,
      tokensBefore,
      tokensAfter: calibrated(estimatedTokens),
      estimatedTokens,
      actions: [],
      savings: {},
      minimal: false,
    };
  }
  // The level the conversation reached stays, whatever this request needs (see `reductionLevel`).
  if (hinted) draft = fitHistory(draft, context, 'steady');
  for (const stage of STAGES) {
    if (!overTarget(draft)) break;
    draft = await stage.run(draft, context);
  }
  const tokens = count(draft);
  // The smallest request the engine can make (an overflow retry of it would send the same again).
  const minimal = tokens <= smallestTokens;
  if (tokens <= context.limitTokens) return finish(draft, { minimal });
  throw unfittable(draft, {
    tokens: calibrated(tokens),
    budget,
    limitTokens: calibrated(context.limitTokens),
    overheadTokens,
    countTokens: (list) => calibrated(rawOf(list)),
  });
}

function order(action: CompactionAction): number {
  return ACTION_INDEX.get(action) ?? 0;
}

const ACTION_INDEX = new Map(ACTION_ORDER.map((action, index) => [action, index]));

/** The ladder memos of recent conversations, by estimator (each counts in its own units). */
const LADDER_MEMOS = new WeakMap<object, LRUCache<string, LadderMemo>>();

function ladderMemo(key: string, estimator: Estimator): LadderMemo {
  let memos = LADDER_MEMOS.get(estimator);
  if (memos === undefined) {
    memos = new LRUCache({ max: 200 });
    LADDER_MEMOS.set(estimator, memos);
  }
  let memo = memos.get(key);
  if (memo === undefined) {
    memo = { keys: [], numbers: [], forms: [] };
    memos.set(key, memo);
  }
  return memo;
}

/** The ladder of no-model reductions over a draft's history (after what it dropped). */
function ladderFor(
  draft: RequestDraft,
  budget: RequestBudget,
  options: ResolvedCompactionOptions,
  estimator: Estimator,
  marks: RecallMarks | undefined,
  keyOf: (message: Message) => object,
  memo: (settingsKey: string) => LadderMemo,
): HistoryLadder {
  const history = draft.originalHistory.slice(draft.dropped);
  // The conversation number of each history index (system messages not counted), and of the end.
  const numbers: number[] = [];
  let number = draft.coveredCount + conversationCount(draft.originalHistory.slice(0, draft.dropped));
  for (const message of history) {
    numbers.push(number);
    if (message.role !== 'system') number++;
  }
  numbers.push(number);
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
    foldBatchTokens: reduction === false ? Number.POSITIVE_INFINITY : stepTokens,
    structure: options.structure,
    spanRef: (start, end) => marks?.span(numbers[start]!, numbers[end]!),
    keyOf,
    numberOf: (index) => numbers[index]!,
    memo,
  });
}

/** The request with the state applied and nothing else done (no window to work with). */
function plainRequest(
  working: readonly Message[],
  state: CompactionState | undefined,
  options: ResolvedCompactionOptions,
): Message[] {
  if (state === undefined) return working.slice();
  return assembleRequest({
    layout: layoutConversation(working, state.coveredCount),
    summaries: state.summaries,
    placement: options.summaryPlacement,
  });
}

/**
 * A stored state applies when its covered prefix still hashes the same and it covers nothing of
 * the current turn (a state made from a longer branch of the conversation never hides the user's
 * latest message).
 */
function stateApplies(
  messages: readonly Message[],
  working: readonly Message[],
  state: CompactionState | undefined,
): state is CompactionState {
  if (!stateMatches(messages, state)) return false;
  const turnStart = currentTurnStart(working);
  let conversationBefore = 0;
  for (let index = 0; index < turnStart; index++) if (working[index]!.role !== 'system') conversationBefore++;
  return state!.coveredCount <= conversationBefore;
}

function estimatorFor(estimator: Estimator, provider: string | undefined): Estimator {
  if (provider === undefined || estimator.forProvider === undefined) return estimator;
  return estimator.forProvider(providerProfile(provider));
}
