import { ContextOverflowError } from '../errors/context-overflow-error';
import { SummarizationError } from '../errors/summarization-error';
import type { Estimator } from '../estimate/estimator';
import type { Message, MessagePart, TextPart, ToolResultContentPart } from '../message/message';
import { collectPinnedRules, type PinnedRule } from '../pin/collect-pinned-rules';
import {
  PINNED_RULES_MAX_TOKENS,
  PINNED_RULES_WINDOW_SHARE,
  type PinnedBlock,
  pinnedBlock,
} from '../pin/pinned-block';
import { providerProfile } from '../provider/provider-profile';
import { RECALL_ANNOUNCEMENT } from '../recall/recall-announcement';
import { createRecallMarks, type RecallMarks } from '../recall/recall-marks';
import { createRecallScope } from '../recall/recall-scope';
import type { CompactionState } from '../store/compaction-state';
import { capToolResults } from '../truncate/cap-tool-results';
import { replaceImages } from '../truncate/replace-images';
import type { TruncationRecord } from '../truncate/truncation-record';
import { boundSummaries } from './bound-summaries';
import { ACTION_ORDER, type CompactionAction } from './compaction-action';
import type { CompactionReason } from './compaction-event';
import {
  assembleRequest,
  type ConversationLayout,
  layoutConversation,
  type SummaryPlacement,
  stateMatches,
} from './compaction-layout';
import {
  type CompactionOptions,
  type ResolvedCompactionOptions,
  resolveCompactionOptions,
} from './compaction-options';
import { deriveConversationId } from './conversation-id';
import { currentTurnStart } from './current-turn';
import { dropOldest } from './drop-oldest';
import { recognizeMessages } from './recognize-messages';
import { reduceHistory } from './reduce-history';
import { type RequestBudget, requestBudget } from './request-budget';
import { shrinkCurrentTurn } from './shrink-current-turn';
import { summarizeOlder } from './summarize-older';

/** Per-request options of {@link compactMessages}. */
export interface CompactRequestOptions {
  /** The state a previous compaction of this conversation left (from your store). */
  state?: CompactionState;
  /**
   * Names the conversation in events.
   * @default derived from the conversation's first messages
   */
  conversationId?: string;
  /**
   * Tokens the request carries besides the messages (tool definitions, provider framing), counted
   * on top of the messages.
   * @default 0
   */
  overheadTokens?: number;
  /**
   * The provider rejected the previous attempt as too long: retry number (1, 2, 3, …). Each attempt
   * keeps fewer message groups of the history verbatim (4 → 2 → 1 → 0, where 0 keeps only the
   * current turn) and aims lower (80%, 60%, 40%, 25% of the compact threshold), whatever the
   * estimate says. Works even when the context window is unknown.
   */
  overflowAttempt?: number;
  /**
   * Summarize now when over the compact threshold. The compactor turns this off while a summary of
   * the same conversation is being made elsewhere; the request is then brought under the threshold
   * without a model.
   * @default true
   */
  allowSummarize?: boolean;
  /**
   * Aborts a summarizer that is running for this request at once; the abort reason is thrown.
   */
  abortSignal?: AbortSignal;
  /**
   * The conversation as the framework holds it, message for message, before any storage-time cap
   * the adapter applied itself: references name these originals (what the read-back tool reads).
   * @default messages
   */
  originals?: readonly Message[];
  /**
   * Whether the model has the read-back tool (`spillway_recall`) in this request. When it does and
   * something was cut, one line tells it so (`RECALL_ANNOUNCEMENT`): with the summary, else with the
   * note of dropped messages, else after the first cut. Adapters set it from the request's tools.
   * @default false
   */
  recallTool?: boolean;
}

/** Options of {@link compactMessages}. */
export type CompactMessagesOptions = CompactionOptions & CompactRequestOptions;

/** What {@link compactMessages} returns. */
export interface CompactMessagesResult {
  /** The messages to send. Messages it did not change are the caller's own objects. */
  messages: Message[];
  /**
   * The state in force after this call: a new one when a summary was made (store it), the given
   * one when it still applied, undefined when none applies.
   */
  state: CompactionState | undefined;
  /** Whether `state` is new (a summary was made in this call). */
  stateChanged: boolean;
  /** Calibrated token estimate of the input, overhead included. */
  tokensBefore: number;
  /** Calibrated token estimate of `messages`, overhead included. */
  tokensAfter: number;
  /**
   * Raw (uncalibrated) estimate of `messages` plus overhead: hand it back with the provider's
   * reported input tokens to calibrate the estimator.
   */
  estimatedTokens: number;
  /**
   * What was done, each step once, in pipeline order. Empty when the input went through untouched.
   */
  actions: CompactionAction[];
  /**
   * Tokens each step took off the request (calibrated, like `tokensBefore`), by action: the
   * no-model steps measured message by message; `apply-summary` / `summarize` is what is left of
   * `tokensBefore - tokensAfter` (the covered prefix replaced by the summary). Empty when nothing
   * was done.
   */
  savings: Partial<Record<CompactionAction, number>>;
  /**
   * Whether `messages` is the smallest request the engine can make (no history left, the current
   * turn shrunk as far as it goes): an overflow retry of it would send the same again.
   */
  minimal: boolean;
}

/** History groups kept verbatim on each overflow retry (seed claw-code #2808). */
export const OVERFLOW_KEEP_GROUPS = [4, 2, 1, 0] as const;
/** Share of the compact budget each overflow retry aims at. */
const OVERFLOW_TARGET_SHARE = [0.8, 0.6, 0.4, 0.25] as const;

/**
 * The whole pipeline as one async function, for applications that keep their own state: before a
 * request, give it the conversation and the state your store holds; send the messages it returns
 * and store the state when `stateChanged`.
 *
 * 1. Storage-time cap on tool results (always, even with an unknown context window); media inside
 *    tool results become placeholders for providers that could only send them as text.
 * 2. A stored summary whose covered prefix still hashes the same replaces that prefix.
 * 3. At or over `thresholds.compact`: images older than the protected window become placeholders,
 *    superseded and duplicate tool results become notes, large tool results are shortened oldest
 *    first (head + tail), until the prompt is under `thresholds.background`.
 * 4. Still over: the history older than the protected window is summarized now (merged with the
 *    previous summary) and a new state is returned.
 * 5. Still over (or the summary failed): every older tool result is shortened, the oldest history
 *    groups leave this request (a bounded digest and `[System: N older messages were truncated due
 *    to context limits]` in their place), and only then the current turn is shrunk inside.
 *
 * **The current turn is sacred:** the latest user message and everything after it is never
 * summarized, dropped, digested or replaced; when it alone does not fit, its tool results are
 * shortened oldest first, then its images become placeholders; the user's text is never cut.
 * **Every budget holds:** whenever a fitting request exists, the result is at or under the compact
 * threshold; every summary is within its bound.
 *
 * @throws {ContextOverflowError} before any provider call, when even the smallest request (system
 * prompt and the current turn shrunk, no history) is over the compact threshold, with what could not
 * be shrunk. The input is never mutated.
 */
export async function compactMessages(
  messages: readonly Message[],
  options: CompactMessagesOptions = {},
): Promise<CompactMessagesResult> {
  return runCompaction(messages, resolveCompactionOptions(options), options);
}

/** {@link compactMessages} with options already resolved (the compactor resolves them once). */
export async function runCompaction(
  messages: readonly Message[],
  options: ResolvedCompactionOptions,
  {
    state: givenState,
    conversationId = deriveConversationId(messages),
    overheadTokens = 0,
    overflowAttempt,
    allowSummarize = true,
    abortSignal,
    contextWindow = options.contextWindow,
    provider = options.provider,
    measureOnly = false,
    originals = messages,
    recallTool = false,
  }: CompactRequestOptions & {
    contextWindow?: number;
    provider?: string;
    /**
     * Stop after the reductions that need no model and report nothing: what a request would carry
     * before any summary (the compactor decides on background work with it).
     */
    measureOnly?: boolean;
  },
): Promise<CompactMessagesResult> {
  recognizeMessages(messages, { conversationId, scope: options.estimator });
  const { model } = options;
  const onEvent = measureOnly ? () => {} : options.onEvent;
  const estimator = estimatorFor(options.estimator, provider);
  const marks =
    options.recall === false
      ? undefined
      : createRecallMarks({
          scope: createRecallScope({ messages: originals, secret: options.recall.secret }),
          originals,
        });
  const announce = marks !== undefined && recallTool;
  // The read-back line may go after the first cut, outside what the stages count: kept in reserve.
  const announceTokens = announce ? estimator.countText(RECALL_ANNOUNCEMENT) + 8 : 0;
  const rawCount = (list: readonly Message[]) =>
    estimator.countMessages(list) + overheadTokens + announceTokens;
  const countTokens = (list: readonly Message[]) => estimator.calibrated(rawCount(list), model);
  const actions = new Set<CompactionAction>();
  const tokensBefore = countTokens(messages);
  const report = (records: readonly TruncationRecord[]) => {
    if (records.length > 0) onEvent({ type: 'truncation', conversationId, records });
  };
  // Reductions are recomputed from the originals at each stage; only the last set is reported.
  let reduction: {
    records: TruncationRecord[];
    actions: CompactionAction[];
    savings: Partial<Record<CompactionAction, number>>;
  } = { records: [], actions: [], savings: {} };
  let turnRecords: TruncationRecord[] = [];
  /** Raw tokens the steps outside the history reductions took off. */
  const saved: Partial<Record<CompactionAction, number>> = {};
  const finish = (
    assembled: Message[] | Draft,
    state: CompactionState | undefined,
    { stateChanged = false, minimal = false }: { stateChanged?: boolean; minimal?: boolean } = {},
  ): CompactMessagesResult => {
    report([...reduction.records, ...turnRecords]);
    let output = Array.isArray(assembled) ? assembled : assembled.assemble();
    if (!Array.isArray(assembled)) {
      for (const rule of assembled.pinned()?.evicted ?? []) {
        onEvent({ type: 'pinned-rule-evicted', conversationId, rule });
      }
    }
    if (announce) output = announceAfterFirstCut(output);
    for (const action of reduction.actions) actions.add(action);
    const estimatedTokens = rawCount(output);
    const tokensAfter = estimator.calibrated(estimatedTokens, model);
    return {
      messages: output,
      state,
      stateChanged,
      tokensBefore,
      tokensAfter,
      estimatedTokens,
      actions: ACTION_ORDER.filter((action) => actions.has(action)),
      savings: stepSavings(
        actions,
        { ...saved, ...reduction.savings },
        {
          factor: estimator.calibrationFactor(model),
          total: tokensBefore - tokensAfter,
        },
      ),
      minimal,
    };
  };

  // 1. Storage-time cap, and media a text-only provider could not show.
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

  // 2. The stored summary, when it still covers the same prefix and none of the current turn.
  let state = stateApplies(messages, working, givenState) ? givenState : undefined;
  if (state) actions.add('apply-summary');
  const retry = overflowAttempt === undefined ? undefined : Math.max(1, Math.floor(overflowAttempt));
  const window =
    contextWindow ??
    (retry === undefined
      ? undefined
      : // Unknown window on an overflow retry: aim below what was just rejected.
        countTokens(plainRequest(working, state, options)) / options.thresholds.compact);
  // Standing rules, for the pinned block (collected once, when a request first needs the block).
  let rules: PinnedRule[] | undefined;
  const pinnedRules = options.pinnedRules;
  const extras: DraftExtras = {
    marks,
    announce,
    rules:
      pinnedRules === false
        ? undefined
        : () => {
            rules ??= collectPinnedRules(originals, { detect: pinnedRules.detect, pin: options.pin });
            return rules;
          },
    pinnedMaxTokens:
      pinnedRules === false
        ? 0
        : (pinnedRules.maxTokens ??
          Math.min(
            PINNED_RULES_MAX_TOKENS,
            Math.max(1, Math.floor((window ?? Number.POSITIVE_INFINITY) * PINNED_RULES_WINDOW_SHARE)),
          )),
    countText: (text) => estimator.countText(text),
  };
  const makeDraft = (current: CompactionState | undefined, summaryMaxTokens: number | undefined) =>
    newDraft(working, current, summaryMaxTokens, estimator, options.summaryPlacement, extras);
  if (window === undefined) {
    return finish(makeDraft(state, undefined), state);
  }
  const budget = requestBudget(window, options);
  let draft = makeDraft(state, budget.summaryMaxTokens);
  let tokens = countTokens(draft.assemble());
  if (retry === undefined && tokens < budget.compactTokens && !measureOnly) {
    return finish(draft, state);
  }

  // Fail fast: when even the smallest request (no history, no summary, the current turn shrunk to
  // its floor) is over the budget, nothing is summarized and no provider call should be made.
  const smallest = draft.with({
    summaries: [],
    note: undefined,
    pinnedBlock: false,
    history: systemOnly(draft.originalHistory),
    turn: shrinkCurrentTurn(draft.originalTurn, {
      estimator,
      targetTokens: 0,
      keepChars: budget.floorChars,
      floorChars: budget.floorChars,
      marks,
    }).messages,
  });
  const smallestTokens = countTokens(smallest.assemble());
  if (!measureOnly && smallestTokens > budget.compactTokens) {
    throw unfittable(smallest, { tokens: smallestTokens, budget, overheadTokens, countTokens });
  }

  const reason: CompactionReason = retry === undefined ? 'threshold' : 'overflow';
  const keepGroups = retry === undefined ? undefined : OVERFLOW_KEEP_GROUPS[Math.min(retry, 4) - 1];
  const target =
    retry === undefined
      ? budget.compactTokens
      : budget.compactTokens * OVERFLOW_TARGET_SHARE[Math.min(retry, 4) - 1]!;
  const toRaw = (calibrated: number) => calibrated / estimator.calibrationFactor(model);
  /** Raw tokens the draft may give its history to meet a calibrated target. */
  const historyRoom = (current: Draft, calibrated: number) =>
    toRaw(calibrated) - rawCount(current.assemble({ history: [] }));

  // 3. Reductions without a model on the history, oldest first, a few user turns at a time.
  const reduceOlder = (current: Draft, calibrated: number) => {
    const reduced = reduceHistory(current.originalHistory, {
      estimator,
      targetTokens: historyRoom(current, calibrated),
      gridTurns: budget.reductionGridTurns,
      turn: current.originalTurn,
      imagePlaceholders: options.imagePlaceholders,
      structure: options.structure,
      reduction: budget.reduction,
      marks,
      spanRef:
        marks === undefined
          ? undefined
          : (start: number, end: number) => {
              const before = (count: number) =>
                current.coveredCount + conversationCount(current.originalHistory.slice(0, count));
              return marks.span(before(start), before(end));
            },
      protectTokens: budget.protectTokens,
      keepGroups,
    });
    reduction = {
      records: current.offsetRecords(reduced.records),
      actions: reduced.actions,
      savings: reduced.savings,
    };
    return current.with({ history: reduced.messages });
  };
  draft = reduceOlder(draft, retry === undefined ? budget.reductionTargetTokens : target);
  tokens = countTokens(draft.assemble());
  if (measureOnly) return finish(draft.assemble(), state);
  if (retry === undefined && tokens < budget.compactTokens) return finish(draft, state);

  // The current turn alone (with the system prompt) over the budget: a summary of the history could
  // not make room for it, so it is shrunk first, leaving a protected window's worth of history.
  if (retry === undefined) {
    const withoutHistory = rawCount(
      draft.assemble({
        history: systemOnly(draft.history),
        summaries: [],
        note: undefined,
        pinnedBlock: false,
      }),
    );
    if (withoutHistory >= toRaw(budget.compactTokens)) {
      const historyTokens = estimator.countMessages(draft.history);
      const shrunk = shrinkCurrentTurn(draft.originalTurn, {
        estimator,
        targetTokens: Math.max(
          0,
          toRaw(budget.compactTokens) -
            rawCount(draft.assemble({ turn: [], history: [] })) -
            Math.min(historyTokens, toRaw(budget.protectTokens)),
        ),
        keepChars: budget.reduction === false ? budget.floorChars * 4 : budget.reduction.keepChars,
        floorChars: budget.floorChars,
        marks,
      });
      turnRecords = draft.offsetRecords(shrunk.records, draft.originalHistory.length);
      saved['shrink-current-turn'] =
        estimator.countMessages(draft.originalTurn) - estimator.countMessages(shrunk.messages);
      draft = draft.with({ turn: shrunk.messages });
      tokens = countTokens(draft.assemble());
      if (tokens < budget.compactTokens) {
        actions.add('shrink-current-turn');
        return finish(draft, state);
      }
    }
  }

  // 4. Summarize the history older than the protected window.
  let stateChanged = false;
  let fallback = false;
  if (allowSummarize) {
    try {
      const result = await summarizeOlder({
        messages,
        working,
        state,
        options,
        contextWindow: window,
        keepGroups,
        reason,
        conversationId,
        countTokens,
        summaryMaxTokens: budget.summaryMaxTokens,
        timeoutMs: options.summaryTimeouts.foreground,
        abortSignal,
        estimator,
      });
      if (result.state) {
        actions.add('summarize');
        state = result.state;
        stateChanged = true;
        draft = reduceOlder(
          makeDraft(state, budget.summaryMaxTokens),
          retry === undefined ? budget.reductionTargetTokens : target,
        );
        tokens = countTokens(draft.assemble());
      }
    } catch (error) {
      if (abortSignal?.aborted) throw abortSignal.reason ?? error;
      actions.add('summarize-failed');
      fallback = true;
      onEvent({
        type: 'compaction-failed',
        conversationId,
        reason,
        error: SummarizationError.isInstance(error)
          ? error
          : new SummarizationError({ attempts: 1, errors: [error] }),
        fallback: 'drop-oldest',
      });
    }
  }
  if (tokens <= target) return finish(draft, state, { stateChanged });

  // 5. Fit: every older tool result, then the oldest history groups, then inside the current turn.
  draft = reduceOlder(draft, target);
  tokens = countTokens(draft.assemble());
  if (tokens > target || fallback) {
    const tokensBeforeDrop = tokens;
    const dropped = dropOldest(draft.history, {
      budgetTokens: Math.max(0, toRaw(target) - rawCount(draft.assemble({ history: [], note: undefined }))),
      countTokens: (list) => estimator.countMessages(list),
      digestMaxTokens: budget.summaryMaxTokens,
      keepLast: false,
      spanRef: (droppedCount) => marks?.span(draft.coveredCount, draft.coveredCount + droppedCount),
    });
    if (dropped.droppedCount > 0) {
      actions.add('drop-oldest');
      const historyBefore = rawCount(draft.assemble());
      draft = draft.with({ history: dropped.kept, note: dropped.note });
      tokens = countTokens(draft.assemble());
      saved['drop-oldest'] = historyBefore - rawCount(draft.assemble());
      onEvent({
        type: 'emergency-truncation',
        conversationId,
        droppedCount: dropped.droppedCount,
        tokensBefore: tokensBeforeDrop,
        tokensAfter: tokens,
      });
    }
  }
  if (tokens <= target) return finish(draft, state, { stateChanged });

  // The history is gone; what is left over the target is the current turn (and the summary).
  const shrinkTurn = (current: Draft, floor: boolean) => {
    const shrunk = shrinkCurrentTurn(current.originalTurn, {
      estimator,
      targetTokens: Math.max(0, toRaw(target) - rawCount(current.assemble({ turn: [] }))),
      keepChars: budget.reduction === false ? budget.floorChars * 4 : budget.reduction.keepChars,
      floorChars: budget.floorChars,
      floor,
      marks,
    });
    turnRecords = current.offsetRecords(shrunk.records, current.originalHistory.length);
    saved['shrink-current-turn'] =
      estimator.countMessages(current.originalTurn) - estimator.countMessages(shrunk.messages);
    return current.with({ turn: shrunk.messages });
  };
  draft = shrinkTurn(draft, false);
  tokens = countTokens(draft.assemble());
  if (tokens > target) {
    // The summary and the note give way before the current turn goes to its floor, then the
    // pinned block.
    draft = shrinkTurn(draft.with({ summaries: [], note: undefined }), true);
    tokens = countTokens(draft.assemble());
    if (tokens > target && draft.pinned() !== undefined) {
      draft = shrinkTurn(draft.with({ pinnedBlock: false }), true);
      tokens = countTokens(draft.assemble());
    }
  }
  if (turnRecords.length > 0) actions.add('shrink-current-turn');
  const minimal = draft.summaries.length === 0 && draft.history.every((message) => message.role === 'system');
  if (tokens <= target || (retry !== undefined && tokens <= budget.compactTokens)) {
    return finish(draft, state, { stateChanged, minimal });
  }
  throw unfittable(draft, { tokens, budget, overheadTokens, countTokens });
}

/**
 * Tokens saved by each step, calibrated: the measured ones as they are, and what is left of the
 * total for the summary (applied or made now).
 */
function stepSavings(
  actions: ReadonlySet<CompactionAction>,
  raw: Partial<Record<CompactionAction, number>>,
  { factor, total }: { factor: number; total: number },
): Partial<Record<CompactionAction, number>> {
  const savings: Partial<Record<CompactionAction, number>> = {};
  let measured = 0;
  for (const action of ACTION_ORDER) {
    const value = raw[action];
    if (value === undefined || !actions.has(action)) continue;
    savings[action] = Math.round(value * factor);
    measured += savings[action]!;
  }
  const summary = actions.has('summarize')
    ? 'summarize'
    : actions.has('apply-summary')
      ? 'apply-summary'
      : undefined;
  if (summary !== undefined) savings[summary] = Math.round(total - measured);
  return savings;
}

/** What every draft of a request shares: references, the read-back line, the pinned rules. */
interface DraftExtras {
  readonly marks: RecallMarks | undefined;
  /** Whether the read-back line goes into the request (the model has the tool). */
  readonly announce: boolean;
  /** The conversation's standing rules; `undefined` when pinning is off. */
  readonly rules: (() => PinnedRule[]) | undefined;
  /** The bound on the pinned block, in tokens. */
  readonly pinnedMaxTokens: number;
  readonly countText: (text: string) => number;
}

/** The parts of a draft that can be replaced. */
type DraftFields = Pick<Draft, 'summaries' | 'note' | 'history' | 'turn' | 'pinnedBlock'>;

/**
 * A draft request: the summary, the note, the history, the current turn and the pinned block, each
 * replaceable.
 */
interface Draft {
  readonly layout: ConversationLayout;
  /** `layout.rest`: the history and the current turn as they came in. */
  readonly rest: readonly Message[];
  readonly originalHistory: readonly Message[];
  readonly originalTurn: readonly Message[];
  /** Conversation messages the state covers (what the summary stands for). */
  readonly coveredCount: number;
  readonly summaries: readonly string[];
  readonly note: string | undefined;
  readonly history: readonly Message[];
  readonly turn: readonly Message[];
  /** Whether the pinned block goes in (when there are rules whose messages are out of the request). */
  readonly pinnedBlock: boolean;
  assemble(overrides?: Partial<DraftFields>): Message[];
  with(overrides: Partial<DraftFields>): Draft;
  /** The pinned block this draft carries, if any. */
  pinned(): PinnedBlock | undefined;
  /** Records with indexes into the caller's messages (from indexes into `rest` + `offset`). */
  offsetRecords(records: readonly TruncationRecord[], offset?: number): TruncationRecord[];
}

function newDraft(
  working: readonly Message[],
  state: CompactionState | undefined,
  summaryMaxTokens: number | undefined,
  estimator: Estimator,
  placement: SummaryPlacement,
  extras: DraftExtras,
): Draft {
  const coveredCount = state?.coveredCount ?? 0;
  const layout = layoutConversation(working, coveredCount);
  const turnStart = currentTurnStart(layout.rest);
  const restOffset = working.length - layout.rest.length;
  const originalHistory = layout.rest.slice(0, turnStart);
  const historyCount = conversationCount(originalHistory);
  let spanRef: { ref: string | undefined } | undefined;
  const blocks = new Map<number, PinnedBlock | undefined>();
  /** The pinned block when the first `outOfView` conversation messages are not in the request. */
  const blockFor = (outOfView: number): PinnedBlock | undefined => {
    if (extras.rules === undefined || outOfView <= 0) return undefined;
    if (!blocks.has(outOfView)) {
      const carried = extras.rules().filter((rule) => rule.messageNumber < outOfView);
      blocks.set(
        outOfView,
        carried.length === 0
          ? undefined
          : pinnedBlock(carried, { maxTokens: extras.pinnedMaxTokens, countText: extras.countText }),
      );
    }
    return blocks.get(outOfView);
  };
  const blockOf = (fields: DraftFields) =>
    fields.pinnedBlock
      ? blockFor(coveredCount + historyCount - conversationCount(fields.history))
      : undefined;
  const make = (fields: DraftFields): Draft => ({
    layout,
    rest: layout.rest,
    originalHistory,
    originalTurn: layout.rest.slice(turnStart),
    coveredCount,
    ...fields,
    assemble(overrides = {}) {
      const current = { ...fields, ...overrides };
      const { summaries, note, history, turn } = current;
      if (summaries.length > 0 && coveredCount > 0) {
        spanRef ??= { ref: extras.marks?.span(0, coveredCount) };
      }
      const span =
        summaries.length > 0 && spanRef?.ref !== undefined ? { ref: spanRef.ref, coveredCount } : undefined;
      return assembleRequest({
        layout,
        summaries,
        placement,
        note,
        rest: [...history, ...turn],
        extras: {
          span,
          pinned: blockOf(current)?.text,
          announcement: extras.announce ? RECALL_ANNOUNCEMENT : undefined,
        },
      });
    },
    with(overrides) {
      return make({ ...fields, ...overrides });
    },
    pinned() {
      return blockOf(fields);
    },
    offsetRecords(records, offset = 0) {
      return records.map((record) => ({
        ...record,
        messageIndex: record.messageIndex + offset + restOffset,
      }));
    },
  });
  const summaries = state?.summaries ?? [];
  return make({
    summaries:
      summaryMaxTokens === undefined ? summaries : boundSummaries(summaries, summaryMaxTokens, estimator),
    note: undefined,
    history: originalHistory,
    turn: layout.rest.slice(turnStart),
    pinnedBlock: true,
  });
}

/** Conversation (non-system) messages in a list. */
function conversationCount(messages: readonly Message[]): number {
  let count = 0;
  for (const message of messages) if (message.role !== 'system') count++;
  return count;
}

/**
 * The request with the read-back line after its first cut, when neither a summary nor a note carries
 * it already: appended to the first tool result (or placeholder) that shows a reference. The same
 * cut gets the same line on every call.
 */
function announceAfterFirstCut(messages: Message[]): Message[] {
  for (const message of messages) {
    if (typeof message.content === 'string' && message.content.endsWith(RECALL_ANNOUNCEMENT)) return messages;
  }
  for (let index = 0; index < messages.length; index++) {
    const announced = withAnnouncement(messages[index]!);
    if (announced === undefined) continue;
    const output = messages.slice();
    output[index] = announced;
    return output;
  }
  return messages;
}

const SHOWS_REF = /\[ref=[tis]\.[A-Za-z0-9.-]+(?: offset=\d+)?\]/;

function showsRef(text: string): boolean {
  return text.includes('[ref=') && SHOWS_REF.test(text);
}

/** The message with the read-back line after its first reference, or `undefined` when it shows none. */
function withAnnouncement(message: Message): Message | undefined {
  if (!Array.isArray(message.content)) return undefined;
  const line = `\n\n${RECALL_ANNOUNCEMENT}`;
  for (let index = 0; index < message.content.length; index++) {
    const part: MessagePart = message.content[index]!;
    let replaced: MessagePart | undefined;
    if (part.type === 'text' && /^\[(?:image|file)\b/.test(part.text) && showsRef(part.text)) {
      replaced = { ...part, text: part.text + line };
    } else if (part.type === 'tool-result') {
      if (typeof part.content === 'string') {
        if (showsRef(part.content)) replaced = { ...part, content: part.content + line };
      } else if (Array.isArray(part.content)) {
        const at = part.content.findIndex(
          (item: ToolResultContentPart) => item?.type === 'text' && showsRef(item.text),
        );
        if (at !== -1) {
          const items = part.content.slice();
          const item = items[at] as TextPart;
          items[at] = { ...item, text: item.text + line };
          replaced = { ...part, content: items };
        }
      }
    }
    if (replaced === undefined) continue;
    const content = message.content.slice();
    content[index] = replaced;
    return { ...message, content };
  }
  return undefined;
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

function systemOnly(messages: readonly Message[]): Message[] {
  return messages.filter((message) => message.role === 'system');
}

function estimatorFor(estimator: Estimator, provider: string | undefined): Estimator {
  if (provider === undefined || estimator.forProvider === undefined) return estimator;
  return estimator.forProvider(providerProfile(provider));
}

function unfittable(
  draft: Draft,
  {
    tokens,
    budget,
    overheadTokens,
    countTokens,
  }: {
    tokens: number;
    budget: RequestBudget;
    overheadTokens: number;
    countTokens: (list: readonly Message[]) => number;
  },
): ContextOverflowError {
  const systemMessages = [
    ...draft.layout.system,
    ...draft.history.filter((message) => message.role === 'system'),
    ...draft.turn.filter((message) => message.role === 'system'),
  ];
  const raw = (list: readonly Message[]) => Math.max(0, countTokens(list) - countTokens([]));
  const userMessage = draft.turn.find((message) => message.role === 'user');
  const system = raw(systemMessages);
  const userText = userMessage === undefined ? 0 : raw([userMessage]);
  const currentTurn = Math.max(0, raw(draft.turn.filter((message) => message.role !== 'system')) - userText);
  const overhead = countTokens([]);
  const parts = [
    userText > 0 ? `the user's message (about ${userText.toLocaleString('en-US')} tokens)` : undefined,
    system > 0 ? `the system prompt (about ${system.toLocaleString('en-US')})` : undefined,
    currentTurn > 0
      ? `the rest of the current turn at its smallest (about ${currentTurn.toLocaleString('en-US')})`
      : undefined,
    overhead > 0 ? `tool definitions and framing (about ${overhead.toLocaleString('en-US')})` : undefined,
  ].filter((part) => part !== undefined);
  const budgetTokens = Math.floor(budget.compactTokens);
  return new ContextOverflowError({
    message:
      `The request cannot fit the context window: even with no history and the current turn's tool ` +
      `results and images shrunk, it needs about ${tokens.toLocaleString('en-US')} tokens, over the ` +
      `budget of ${budgetTokens.toLocaleString('en-US')} (the compact threshold of a ` +
      `${budget.contextWindow.toLocaleString('en-US')}-token window). What cannot be shrunk: ` +
      `${parts.join(', ')}. Shorten the message or use a model with a larger window. ` +
      `No request was sent.`,
    tokenCount: tokens,
    contextWindow: budget.contextWindow,
    budgetTokens,
    unshrinkable: { system, userText, currentTurn, overhead: overheadTokens },
  });
}
