import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import { providerProfile } from '../provider/provider-profile';
import { createRecallMarks } from '../recall/recall-marks';
import { createRecallScope } from '../recall/recall-scope';
import type { CompactionState } from '../store/compaction-state';
import { announceAfterFirstCut } from './announce-after-first-cut';
import type { CompactMessagesResult, CompactRequestOptions } from './compact-messages-types';
import type { CompactionAction } from './compaction-action';
import type { ResolvedCompactionOptions } from './compaction-options';
import { type CompactionTally, compactionResult } from './compaction-result';
import { deriveConversationId } from './conversation-id';
import { createDraftFactory } from './draft-settings';
import type { HistoryLadder } from './history-ladder';
import { reducesAnything } from './history-level';
import { ladderFor } from './ladder-for-draft';
import { prepareWorking } from './prepare-working';
import {
  type ProviderCompactedSplit,
  providerLiveFrozen,
  providerSplitOf,
  withoutProviderCompacted,
} from './provider-compacted';
import { requestBudget } from './request-budget';
import type { RequestDraft } from './request-draft';
import { requestTargets } from './request-targets';
import type { StageContext } from './stage';
import { STAGES } from './stages';
import { fitHistory } from './stages/fit-history';
import { turnAtFloor } from './stages/shrink-turn';
import { stepEarly } from './stages/step-early';
import { summarizeOldDialogue } from './stages/summarize-old-dialogue';
import { plainRequest, stateApplies } from './stored-state-request';
import { unfittable } from './unfittable';

export { OVERFLOW_KEEP_GROUPS } from './request-targets';

/** Per-request options of {@link runCompaction} beyond the public ones. */
export interface RunCompactionOptions extends CompactRequestOptions {
  contextWindow?: number;
  /**
   * Where a provider's own compaction left `messages`, when the caller found it already (`null`:
   * no message carries a provider compaction block). @default found here
   */
  providerSplit?: ProviderCompactedSplit | null;
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
 * stages of `STAGES` in order until the request fits, then the result. The caller has given the
 * conversation to `recognizeMessages` (the compactor does when a request comes in): a background
 * check measures other lists (the conversation and the next turn, its dialogue alone), which must
 * not replace the request the next one is compared with.
 *
 * When the provider compacted the conversation itself (a message carries its compaction block or
 * item), the span up to that block stays verbatim and in place, outside the pipeline: the block's
 * message is counted as overhead, the span before it not at all, and only what follows is compacted.
 */
export async function runCompaction(
  messages: readonly Message[],
  options: ResolvedCompactionOptions,
  request: RunCompactionOptions,
): Promise<CompactMessagesResult> {
  const split = providerSplitOf(messages, request.providerSplit);
  if (split === undefined) return runPipeline(messages, options, request);
  const { originals = messages, provider = options.provider, overheadTokens = 0 } = request;
  const live = (list: readonly Message[]) => withoutProviderCompacted(list, split);
  const frozen = messages.slice(split.leading, split.end);
  const counted = estimatorFor(options.estimator, provider).countMessages(
    providerLiveFrozen(messages, split),
  );
  const result = await runPipeline(live(messages), options, {
    ...request,
    conversationId: request.conversationId ?? deriveConversationId(messages),
    originals: live(originals),
    overheadTokens: overheadTokens + counted,
  });
  if (request.mode === 'measure') return result;
  let at = 0;
  while (at < result.messages.length && result.messages[at]!.role === 'system') at++;
  return { ...result, messages: [...result.messages.slice(0, at), ...frozen, ...result.messages.slice(at)] };
}

async function runPipeline(
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
  const { model } = options;
  const quiet = mode !== 'request';
  const onEvent = mode === 'measure' ? () => {} : options.onEvent;
  const estimator = estimatorFor(options.estimator, provider);
  // Measuring sends nothing: no references are needed (nor computed).
  const marks =
    options.recall === false || mode === 'measure'
      ? undefined
      : createRecallMarks({
          scope: createRecallScope({ messages: originals, secret: options.recall.secret }),
          originals,
          originalsKey: originalsKey(messages, originals),
        });
  const announce = marks !== undefined && recallTool;
  const finalize = (list: Message[]) => (announce ? announceAfterFirstCut(list) : list);
  const rawOf = (list: readonly Message[]) => estimator.countMessages(list) + overheadTokens;
  const calibrated = (raw: number) => estimator.calibrated(raw, model);
  const tokensBefore = calibrated(rawOf(messages));

  // The prelude: the storage-time cap, and media a text-only provider could not show.
  const prelude = prepareWorking(messages, {
    options,
    provider,
    marks,
    countMessages: (list) => estimator.countMessages(list),
  });
  const { working } = prelude;
  if (!quiet && prelude.records.length > 0)
    onEvent({ type: 'truncation', conversationId, records: [...prelude.records] });
  const actions = new Set(Object.keys(prelude.saved) as CompactionAction[]);
  const saved = { ...prelude.saved };

  // The stored summary, when it still covers the same prefix and none of the current turn.
  const stored = stateApplies(messages, working, givenState) ? givenState : undefined;
  if (stored) actions.add('apply-summary');
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
        ? {
            ...requestBudget(Number.MAX_SAFE_INTEGER, options),
            protectTokens: 0,
            summaryMaxTokens: options.summaryMaxTokens,
          }
        : undefined;
  const draftFor = createDraftFactory({
    working,
    originals,
    options,
    budget,
    window,
    estimator,
    marks,
    announce,
  });
  // Drafts are immutable: each is counted once, however many stages ask.
  const counts = new WeakMap<RequestDraft, number>();
  const count = (draft: RequestDraft) => {
    let tokens = counts.get(draft);
    if (tokens === undefined) {
      tokens = rawOf(finalize(draft.assemble()));
      counts.set(draft, tokens);
    }
    return tokens;
  };
  const ladders = new Map<string, HistoryLadder>();
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
        ladder = ladderFor(draft, {
          budget: budget!,
          options,
          estimator,
          marks,
          keyOf: prelude.keyOf,
          conversationId,
        });
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
  let draft = draftFor(stored);
  const finish = (final: RequestDraft, minimal = false) => {
    const tally: CompactionTally = {
      actions,
      saved,
      state: context.state,
      stateChanged: context.stateChanged,
      reached: context.reached,
    };
    return compactionResult(final, {
      working,
      tally,
      tokensBefore,
      rawOf,
      finalize,
      estimator,
      model,
      minimal,
      conversationId,
      onEvent,
      quiet,
    });
  };

  if (budget === undefined || (window === undefined && mode !== 'summarize')) return finish(draft);
  Object.assign(
    context,
    requestTargets({
      budget,
      window: window ?? Number.MAX_SAFE_INTEGER,
      retry,
      rejectedTokens,
      outputTokens,
      estimator,
      model,
    }),
  );
  const overTarget = (current: RequestDraft) =>
    count(current) > context.targetTokens || context.mustCover(current) > current.dropped;

  if (mode === 'summarize') return finish(await summarizeOldDialogue.run(draft, context));
  const hinted =
    reductionLevel !== undefined &&
    reductionLevel.coveredCount === draft.coveredCount &&
    reducesAnything(reductionLevel);
  // Under the threshold: at most an early step (one that frees as much as a step at the threshold).
  if (retry === undefined && !overTarget(draft) && mode === 'request' && !hinted)
    return finish(stepEarly(draft, context));

  // Fail fast: when even the smallest request (no history, a note in its place, the current turn at
  // its floor) cannot fit the window, nothing is summarized and no provider call should be made.
  const smallest = draft.with({
    summaries: [],
    dropped: draft.originalHistory.length,
    noteDetail: false,
    userWords: false,
    pinnedBlock: false,
    history: [],
    turn: turnAtFloor(draft.originalTurn, context).messages,
  });
  const smallestTokens = count(smallest);
  const refuse = (current: RequestDraft, tokens: number) =>
    unfittable(current, {
      tokens: calibrated(tokens),
      budget,
      limitTokens: calibrated(context.limitTokens),
      overheadTokens,
      countTokens: (list) => calibrated(rawOf(list)),
    });
  if (mode === 'request' && smallestTokens > context.limitTokens) throw refuse(smallest, smallestTokens);

  if (mode === 'measure') return measured(draft, context, { tokensBefore, stored, calibrated });
  // The level the conversation reached stays, whatever this request needs (see `reductionLevel`).
  // Under the threshold at that level, at most an early step (as for a request with no level above).
  if (hinted) {
    draft = fitHistory(draft, context, 'steady');
    if (retry === undefined && !overTarget(draft)) draft = stepEarly(draft, context);
  }
  for (const stage of STAGES) {
    if (!overTarget(draft)) break;
    draft = await stage.run(draft, context);
  }
  const tokens = count(draft);
  // The smallest request the engine can make: an overflow retry of it would send the same again.
  if (tokens <= context.limitTokens) return finish(draft, tokens <= smallestTokens);
  throw refuse(draft, tokens);
}

/**
 * What the next request would carry with every reduction that needs no model taken (the deepest
 * level: every tool result of the history a stub, every finished turn folded), estimated without
 * building it (the compactor decides on a background summary with it): the dialogue is summarized
 * only when it no longer fits itself.
 */
function measured(
  draft: RequestDraft,
  context: StageContext,
  {
    tokensBefore,
    stored,
    calibrated,
  }: { tokensBefore: number; stored: CompactionState | undefined; calibrated: (raw: number) => number },
): CompactMessagesResult {
  const ladder = context.ladderOf(draft);
  const deepest = ladder.levels.at(-1)!;
  const estimatedTokens = context.count(draft.with({ history: [] })) + ladder.estimate(deepest);
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

/**
 * What tells the originals references name apart: the messages themselves, or originals an adapter
 * restored (archived originals of capped results). Not their number: a capped copy's content names
 * its original (the same tool call, the same head), so forms made for it stay valid as the
 * conversation grows, and the caches of cut text keyed by it are not thrown away every turn.
 */
function originalsKey(messages: readonly Message[], originals: readonly Message[]): string {
  if (originals === messages) return 'same';
  for (let index = 0; index < originals.length; index++) {
    if (originals[index] !== messages[index]) return 'restored';
  }
  return 'same';
}

function estimatorFor(estimator: Estimator, provider: string | undefined): Estimator {
  if (provider === undefined || estimator.forProvider === undefined) return estimator;
  return estimator.forProvider(providerProfile(provider));
}
