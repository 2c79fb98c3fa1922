import { ContextOverflowError } from '../errors/context-overflow-error';
import { SummarizationError } from '../errors/summarization-error';
import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import { providerProfile } from '../provider/provider-profile';
import type { CompactionState } from '../store/compaction-state';
import { capToolResults } from '../truncate/cap-tool-results';
import { replaceImages } from '../truncate/replace-images';
import type { TruncationRecord } from '../truncate/truncation-record';
import { boundSummaries } from './bound-summaries';
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
}

/** Options of {@link compactMessages}. */
export type CompactMessagesOptions = CompactionOptions & CompactRequestOptions;

/** A step {@link compactMessages} took, in order. */
export type CompactionAction =
  | 'cap-tool-results'
  | 'tool-result-media'
  | 'apply-summary'
  | 'replace-images'
  | 'supersede-tool-results'
  | 'reduce-tool-results'
  | 'summarize'
  | 'summarize-failed'
  | 'drop-oldest'
  | 'shrink-current-turn';

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
   * Whether `messages` is the smallest request the engine can make (no history left, the current
   * turn shrunk as far as it goes): an overflow retry of it would send the same again.
   */
  minimal: boolean;
}

/** History groups kept verbatim on each overflow retry (seed claw-code #2808). */
export const OVERFLOW_KEEP_GROUPS = [4, 2, 1, 0] as const;
/** Share of the compact budget each overflow retry aims at. */
const OVERFLOW_TARGET_SHARE = [0.8, 0.6, 0.4, 0.25] as const;

const ACTION_ORDER: readonly CompactionAction[] = [
  'cap-tool-results',
  'tool-result-media',
  'apply-summary',
  'replace-images',
  'supersede-tool-results',
  'reduce-tool-results',
  'summarize',
  'summarize-failed',
  'drop-oldest',
  'shrink-current-turn',
];

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
  const rawCount = (list: readonly Message[]) => estimator.countMessages(list) + overheadTokens;
  const countTokens = (list: readonly Message[]) => estimator.calibrated(rawCount(list), model);
  const actions = new Set<CompactionAction>();
  const tokensBefore = countTokens(messages);
  const report = (records: readonly TruncationRecord[]) => {
    if (records.length > 0) onEvent({ type: 'truncation', conversationId, records });
  };
  // Reductions are recomputed from the originals at each stage; only the last set is reported.
  let reduction: { records: TruncationRecord[]; actions: CompactionAction[] } = { records: [], actions: [] };
  let turnRecords: TruncationRecord[] = [];
  const finish = (
    output: Message[],
    state: CompactionState | undefined,
    { stateChanged = false, minimal = false }: { stateChanged?: boolean; minimal?: boolean } = {},
  ): CompactMessagesResult => {
    report([...reduction.records, ...turnRecords]);
    for (const action of reduction.actions) actions.add(action);
    const estimatedTokens = rawCount(output);
    return {
      messages: output,
      state,
      stateChanged,
      tokensBefore,
      tokensAfter: estimator.calibrated(estimatedTokens, model),
      estimatedTokens,
      actions: ACTION_ORDER.filter((action) => actions.has(action)),
      minimal,
    };
  };

  // 1. Storage-time cap, and media a text-only provider could not show.
  const capped = capToolResults(messages, {
    maxChars: options.toolResultMaxChars,
    limits: options.toolResultLimits,
  });
  if (capped.records.length > 0) actions.add('cap-tool-results');
  report(capped.records);
  let working = capped.messages;
  if (options.toolResultMedia === 'placeholder' && providerProfile(provider).toolResultMedia === 'text') {
    const media = replaceImages(working, {
      before: Number.POSITIVE_INFINITY,
      includeFiles: true,
      toolResultsOnly: true,
    });
    if (media.records.length > 0) actions.add('tool-result-media');
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
  if (window === undefined) {
    return finish(plainRequest(working, state, options), state);
  }
  const budget = requestBudget(window, options);
  let draft = newDraft(working, state, budget, estimator, options.summaryPlacement);
  let tokens = countTokens(draft.assemble());
  if (retry === undefined && tokens < budget.compactTokens && !measureOnly) {
    return finish(draft.assemble(), state);
  }

  // Fail fast: when even the smallest request (no history, no summary, the current turn shrunk to
  // its floor) is over the budget, nothing is summarized and no provider call should be made.
  const smallest = draft.with({
    summaries: [],
    note: undefined,
    history: systemOnly(draft.originalHistory),
    turn: shrinkCurrentTurn(draft.originalTurn, {
      estimator,
      targetTokens: 0,
      keepChars: budget.floorChars,
      floorChars: budget.floorChars,
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
      supersede: options.supersedeToolResults,
      reduction: budget.reduction,
    });
    reduction = { records: current.offsetRecords(reduced.records), actions: reduced.actions };
    return current.with({ history: reduced.messages });
  };
  draft = reduceOlder(draft, retry === undefined ? budget.reductionTargetTokens : target);
  tokens = countTokens(draft.assemble());
  if (measureOnly) return finish(draft.assemble(), state);
  if (retry === undefined && tokens < budget.compactTokens) return finish(draft.assemble(), state);

  // The current turn alone (with the system prompt) over the budget: a summary of the history could
  // not make room for it, so it is shrunk first, leaving a protected window's worth of history.
  if (retry === undefined) {
    const withoutHistory = rawCount(
      draft.assemble({ history: systemOnly(draft.history), summaries: [], note: undefined }),
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
      });
      turnRecords = draft.offsetRecords(shrunk.records, draft.originalHistory.length);
      draft = draft.with({ turn: shrunk.messages });
      tokens = countTokens(draft.assemble());
      if (tokens < budget.compactTokens) {
        actions.add('shrink-current-turn');
        return finish(draft.assemble(), state);
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
          newDraft(working, state, budget, estimator, options.summaryPlacement),
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
  if (tokens <= target) return finish(draft.assemble(), state, { stateChanged });

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
    });
    if (dropped.droppedCount > 0) {
      actions.add('drop-oldest');
      draft = draft.with({ history: dropped.kept, note: dropped.note });
      tokens = countTokens(draft.assemble());
      onEvent({
        type: 'emergency-truncation',
        conversationId,
        droppedCount: dropped.droppedCount,
        tokensBefore: tokensBeforeDrop,
        tokensAfter: tokens,
      });
    }
  }
  if (tokens <= target) return finish(draft.assemble(), state, { stateChanged });

  // The history is gone; what is left over the target is the current turn (and the summary).
  const shrinkTurn = (current: Draft, floor: boolean) => {
    const shrunk = shrinkCurrentTurn(current.originalTurn, {
      estimator,
      targetTokens: Math.max(0, toRaw(target) - rawCount(current.assemble({ turn: [] }))),
      keepChars: budget.reduction === false ? budget.floorChars * 4 : budget.reduction.keepChars,
      floorChars: budget.floorChars,
      floor,
    });
    turnRecords = current.offsetRecords(shrunk.records, current.originalHistory.length);
    return current.with({ turn: shrunk.messages });
  };
  draft = shrinkTurn(draft, false);
  tokens = countTokens(draft.assemble());
  if (tokens > target) {
    // The summary and the note give way before the current turn goes to its floor.
    draft = shrinkTurn(draft.with({ summaries: [], note: undefined }), true);
    tokens = countTokens(draft.assemble());
  }
  if (turnRecords.length > 0) actions.add('shrink-current-turn');
  const minimal = draft.summaries.length === 0 && draft.history.every((message) => message.role === 'system');
  if (tokens <= target || (retry !== undefined && tokens <= budget.compactTokens)) {
    return finish(draft.assemble(), state, { stateChanged, minimal });
  }
  throw unfittable(draft, { tokens, budget, overheadTokens, countTokens });
}

/** A draft request: the summary, the note, the history and the current turn, each replaceable. */
interface Draft {
  readonly layout: ConversationLayout;
  /** `layout.rest`: the history and the current turn as they came in. */
  readonly rest: readonly Message[];
  readonly originalHistory: readonly Message[];
  readonly originalTurn: readonly Message[];
  readonly summaries: readonly string[];
  readonly note: string | undefined;
  readonly history: readonly Message[];
  readonly turn: readonly Message[];
  assemble(overrides?: Partial<Pick<Draft, 'summaries' | 'note' | 'history' | 'turn'>>): Message[];
  with(overrides: Partial<Pick<Draft, 'summaries' | 'note' | 'history' | 'turn'>>): Draft;
  /** Records with indexes into the caller's messages (from indexes into `rest` + `offset`). */
  offsetRecords(records: readonly TruncationRecord[], offset?: number): TruncationRecord[];
}

function newDraft(
  working: readonly Message[],
  state: CompactionState | undefined,
  budget: RequestBudget,
  estimator: Estimator,
  placement: SummaryPlacement,
): Draft {
  const layout = layoutConversation(working, state?.coveredCount ?? 0);
  const turnStart = currentTurnStart(layout.rest);
  const restOffset = working.length - layout.rest.length;
  const make = (fields: Pick<Draft, 'summaries' | 'note' | 'history' | 'turn'>): Draft => ({
    layout,
    rest: layout.rest,
    originalHistory: layout.rest.slice(0, turnStart),
    originalTurn: layout.rest.slice(turnStart),
    ...fields,
    assemble(overrides = {}) {
      const { summaries, note, history, turn } = { ...fields, ...overrides };
      return assembleRequest({
        layout,
        summaries,
        placement,
        note,
        rest: [...history, ...turn],
      });
    },
    with(overrides) {
      return make({ ...fields, ...overrides });
    },
    offsetRecords(records, offset = 0) {
      return records.map((record) => ({
        ...record,
        messageIndex: record.messageIndex + offset + restOffset,
      }));
    },
  });
  return make({
    summaries: boundSummaries(state?.summaries ?? [], budget.summaryMaxTokens, estimator),
    note: undefined,
    history: layout.rest.slice(0, turnStart),
    turn: layout.rest.slice(turnStart),
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
