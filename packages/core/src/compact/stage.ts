import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import type { RecallMarks } from '../recall/recall-marks';
import type { CompactionState } from '../store/compaction-state';
import type { CompactionAction } from './compaction-action';
import type { CompactionEvent, CompactionReason } from './compaction-event';
import type { ResolvedCompactionOptions } from './compaction-options';
import type { HistoryLadder } from './history-ladder';
import type { ReductionLevel } from './reduction-level';
import type { RequestBudget } from './request-budget';
import type { RequestDraft } from './request-draft';

/**
 * What every stage of one request sees: the options, the budgets, the counts, and what the
 * request has done so far. Counts are raw (uncalibrated) tokens: `targetTokens` and `limitTokens`
 * are already divided by the calibration factor.
 */
export interface StageContext {
  readonly options: ResolvedCompactionOptions;
  readonly budget: RequestBudget;
  readonly estimator: Estimator;
  readonly marks: RecallMarks | undefined;
  readonly conversationId: string;
  readonly reason: CompactionReason;
  /** The conversation as the application has it (the state hashes it). */
  readonly messages: readonly Message[];
  /** The same after the storage-time cap (what the request is made of). */
  readonly working: readonly Message[];
  /** Raw tokens the request aims at (the compact threshold, lower on an overflow retry). */
  readonly targetTokens: number;
  /** Raw tokens a step aims at when the history must be reduced further than before. */
  readonly reductionTargetTokens: number;
  /** Raw tokens the request may never exceed (the window, less the output the caller reserved). */
  readonly limitTokens: number;
  /**
   * On an overflow retry: the history (as an index into `originalHistory`) before which nothing may
   * stay in the request — only the `keepGroups` newest groups are kept.
   */
  readonly mustCover: (draft: RequestDraft) => number;
  readonly allowSummarize: boolean;
  readonly abortSignal: AbortSignal | undefined;
  /** Raw tokens of the request a draft makes, overhead and read-back line included. */
  count(draft: RequestDraft): number;
  /** The ladder of the no-model reductions over a draft's history, after what it dropped (memoised). */
  ladderOf(draft: RequestDraft): HistoryLadder;
  /** Builds the first draft for a state (after a summary is made). */
  draftFor(state: CompactionState | undefined): RequestDraft;
  /** Records what a stage did. */
  act(action: CompactionAction, savedTokens?: number): void;
  emit(event: CompactionEvent): void;
  /**
   * The reduction level the conversation reached on an earlier request (conversation numbers, for
   * the covered count it was reached with): the history is reduced at least that far.
   */
  readonly levelHint: ReductionLevel | undefined;
  /** The level this request's history reached (set by the stages that fit the history). */
  reached: ReductionLevel | undefined;
  /** Set by the summarizing stage. */
  state: CompactionState | undefined;
  stateChanged: boolean;
  /** Whether a summary was needed and could not be made (the drop stage then takes its place). */
  summaryFailed: boolean;
}

/**
 * One step of the pipeline: the draft and the context in, a draft out. A stage that has nothing to
 * do returns the draft it was given. The orchestrator runs the stages in the order of `STAGES` and
 * stops as soon as the request fits.
 */
export interface Stage {
  /** What the stage is called in docs and tests. */
  readonly name: string;
  run(draft: RequestDraft, context: StageContext): RequestDraft | Promise<RequestDraft>;
}
