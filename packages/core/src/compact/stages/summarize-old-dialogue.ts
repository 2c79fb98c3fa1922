import { SummarizationError } from '../../errors/summarization-error';
import type { Message } from '../../message/message';
import { messageText } from '../../message/message-parts';
import { decisionsOf, type StatedDecision } from '../../summarize/decision-sentences';
import { toolIdentifiersOf } from '../../summarize/tool-identifiers';
import { shortenPastedBlobs } from '../../truncate/shorten-pasted-blobs';
import { isUserTurn } from '../current-turn';
import { olderBoundary } from '../older-boundary';
import { conversationCount, type RequestDraft } from '../request-draft';
import type { Stage, StageContext } from '../stage';
import { summarizeSpan } from '../summarize-span';
import { USER_WORDS_HEADING } from '../user-words-block';
import { fitHistory } from './fit-history';

/**
 * When the dialogue itself no longer fits (every old tool result a stub, old turns folded), the
 * oldest part of it is summarized: the smallest span, from the start of the history to a turn
 * start, after which the rest, tool results as stubs, fits well under the threshold (so a summary
 * buys many turns). The summarizer reads the span with its tool results as stubs — the assistant's
 * text and what the tools were — and the request keeps the user's own words of the span verbatim
 * next to the summary (see `userWordsBlock`). Then the rest is fitted again from the new state.
 */
export const summarizeOldDialogue: Stage = {
  name: 'summarize old dialogue',
  async run(draft, context) {
    if (!context.allowSummarize) return draft;
    if (!dialogueFillsWindow(draft, context)) return draft;
    const end = summaryEnd(draft, context);
    if (end <= 0 || conversationCount(draft.originalHistory.slice(0, end)) === 0) return draft;
    const made = await summarizeHistory(draft, context, end);
    if (made === undefined) return draft;
    return fitHistory(context.draftFor(made), context, 'all');
  },
};

/**
 * Whether the dialogue itself is what no longer fits. A request over its target only because a
 * turn in progress outweighs the whole dialogue before it (a tool loop read a file half the window
 * long), while the dialogue — the history with every turn folded, the summaries and notes, the
 * turn's ask — is under the summary trigger (see `requestBudget`), needs no summary: one stays, and
 * loses words for every request after, for room the turn gives back once it is over (its results
 * are history then, and reducible). That request drops its oldest turns instead, the stored
 * conversation untouched. A manual compaction and an overflow retry summarize regardless.
 */
export function dialogueFillsWindow(draft: RequestDraft, context: StageContext): boolean {
  if (context.reason === 'manual' || context.reason === 'overflow') return true;
  const full = draft.with({ dropped: 0 });
  const ask = draft.originalTurn.slice(0, 1).filter(isUserTurn);
  const dialogue =
    context.count(full.with({ history: [], turn: ask })) + context.ladderOf(full).foldedTokensFrom(0);
  return summaryIsDue({
    dialogue,
    turn: context.estimator.countMessages(draft.originalTurn.slice(ask.length)),
    trigger: context.budget.summaryTriggerTokens / context.estimator.calibrationFactor(context.options.model),
  });
}

/**
 * The rule a summary is made by, at request time (`dialogueFillsWindow`) and in the background
 * (`startBackgroundSummary`), in the same tokens: the dialogue alone is at or over the summary
 * trigger, or the turn in progress (past its ask) does not outweigh it.
 */
export function summaryIsDue({
  dialogue,
  turn,
  trigger,
}: {
  dialogue: number;
  turn: number;
  trigger: number;
}): boolean {
  return dialogue >= trigger || turn <= dialogue;
}

/**
 * Where the summary ends in the draft's history: on a manual or overflow compaction, at least the
 * history before the protected window (or before the groups an overflow retry keeps); otherwise
 * the first turn start after which the rest, with its tool results as stubs, fits the reduction
 * target with a full summary and the user's words beside it.
 */
export function summaryEnd(draft: RequestDraft, context: StageContext): number {
  const ladder = context.ladderOf(draft.with({ dropped: 0 }));
  const end = draft.originalHistory.length;
  const least = context.mustCover(draft);
  if (context.reason === 'manual') {
    const protect = olderBoundary([...draft.originalHistory, ...draft.originalTurn], {
      protectTokens: context.budget.protectTokens,
      keepGroups: undefined,
      estimator: context.estimator,
    });
    return Math.max(least, ladder.turnStarts.filter((start) => start <= protect).at(-1) ?? 0);
  }
  const fixed =
    context.count(draft.with({ history: [], summaries: [], pinnedBlock: true })) +
    context.budget.summaryMaxTokens;
  // The user's words beside the summary: what the new covered prefix holds of them (within their
  // bound), not the bound itself — a bound far over them would make every summary cover the whole
  // history, the newest turns' dialogue too.
  const words = userWordsEstimate(draft, context);
  const target = context.reductionTargetTokens;
  let position = 0;
  for (const start of [...ladder.turnStarts, end]) {
    for (; position < start; position++) words.add(draft.originalHistory[position]!);
    if (start <= 0 || start < least) continue;
    if (fixed + words.tokens() + ladder.stubTokens(start, end) <= target) return start;
  }
  return end;
}

/**
 * A running estimate of the block of the user's own words beside a summary: the covered prefix's
 * user messages and those `add`ed, pasted blobs shortened, each with its number, within the bound.
 */
function userWordsEstimate(draft: RequestDraft, context: StageContext) {
  const { estimator, budget } = context;
  const perMessage = (message: Message) =>
    isUserTurn(message)
      ? estimator.countMessage(
          shortenPastedBlobs(message, { minChars: budget.blobMinChars, keepChars: budget.blobKeepChars })
            .message,
        ) + MESSAGE_NUMBER_TOKENS
      : 0;
  let sum = estimator.countText(USER_WORDS_HEADING);
  for (const message of draft.layout.covered) sum += perMessage(message);
  return {
    add: (message: Message) => {
      sum += perMessage(message);
    },
    tokens: () => Math.min(draft.userWordsMaxTokens, sum),
  };
}

/** Tokens of the `[message N]` label before each quoted message. */
const MESSAGE_NUMBER_TOKENS = 4;

/** Summarizes history messages `0..end` of the draft; the new state, or `undefined` after a failure. */
async function summarizeHistory(draft: RequestDraft, context: StageContext, end: number) {
  const { options, estimator } = context;
  const ladder = context.ladderOf(draft.with({ dropped: 0 }));
  const span = draft.originalHistory.slice(0, end);
  const input = ladder.stubMessages(0, end).filter((message) => message.role !== 'system');
  const coveredCount = draft.coveredCount + conversationCount(span);
  const calibrated = (raw: number) => estimator.calibrated(raw, options.model);
  try {
    const { state } = await summarizeSpan({
      messages: context.messages,
      state: context.state,
      coveredCount,
      input,
      userTexts: userTextsOf(span, draft.coveredCount),
      toolIdentifiers: options.auditIdentifiers ? toolIdentifiersOf(span) : [],
      decisions: options.auditIdentifiers ? decisionsToKeep(draft, span) : [],
      options,
      contextWindow: context.budget.contextWindow,
      reason: context.reason,
      conversationId: context.conversationId,
      summaryMaxTokens: context.budget.summaryMaxTokens,
      timeoutMs:
        context.reason === 'background'
          ? options.summaryTimeouts.background
          : options.summaryTimeouts.foreground,
      abortSignal: context.abortSignal,
      estimator,
      tokensBefore: calibrated(context.count(draft)),
      tokensAfter: (made) => calibrated(context.count(context.draftFor(made))),
    });
    context.state = state;
    context.stateChanged = true;
    context.act('summarize');
    return state;
  } catch (error) {
    if (context.abortSignal?.aborted) throw context.abortSignal.reason ?? error;
    if (context.reason === 'background' || context.reason === 'manual') throw error;
    context.summaryFailed = true;
    context.act('summarize-failed');
    context.emit({
      type: 'compaction-failed',
      conversationId: context.conversationId,
      reason: context.reason,
      error: SummarizationError.isInstance(error)
        ? error
        : new SummarizationError({ attempts: 1, errors: [error] }),
      fallback: 'drop-oldest',
    });
    return undefined;
  }
}

/**
 * The decisions a summary of `span` must not lose: the assistant's of the span (the summary is the
 * only place its text survives), and the user's of every covered message — the span's and those
 * covered before — that the block of the user's words beside the new summary will leave out for
 * room (a message quoted, whole or in part, keeps its choices there).
 */
function decisionsToKeep(draft: RequestDraft, span: readonly Message[]): StatedDecision[] {
  const covered = [...draft.layout.covered, ...span];
  const block = draft.userWordsBeside(covered);
  const spanStart = draft.layout.covered.length;
  const sources: Message[] = [];
  let number = 0;
  covered.forEach((message, index) => {
    if (message.role === 'system') return;
    const own = number++;
    if (isUserTurn(message) ? !block.quoted.has(own) : index >= spanStart) sources.push(message);
  });
  return decisionsOf(sources);
}

/** The user's words of `messages`, by conversation number. */
function userTextsOf(messages: readonly Message[], firstNumber: number): { number: number; text: string }[] {
  const texts: { number: number; text: string }[] = [];
  let number = firstNumber;
  for (const message of messages) {
    if (message.role === 'system') continue;
    const own = number++;
    if (!isUserTurn(message)) continue;
    texts.push({ number: own, text: messageText(message) });
  }
  return texts;
}
