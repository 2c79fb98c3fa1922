import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import type { CompactionState } from '../store/compaction-state';
import type { TruncationRecord } from '../truncate/truncation-record';
import type { CompactMessagesResult } from './compact-messages-types';
import { ACTION_ORDER, type CompactionAction } from './compaction-action';
import type { CompactionEventHandler } from './compaction-event';
import type { ReductionLevel } from './reduction-level';
import type { RequestDraft } from './request-draft';
import { stepSavings } from './step-savings';

const ACTION_INDEX = new Map(ACTION_ORDER.map((action, index) => [action, index]));

/** What a request did besides its final draft (the prelude and the stages' own records). */
export interface CompactionTally {
  readonly actions: Set<CompactionAction>;
  /** Raw tokens each action took off, for the actions the draft does not measure itself. */
  readonly saved: Partial<Record<CompactionAction, number>>;
  readonly state: CompactionState | undefined;
  readonly stateChanged: boolean;
  readonly reached: ReductionLevel | undefined;
}

/**
 * The result of a request made of its final draft: reports its truncations and the pinned rules
 * that did not fit (unless `quiet`), assembles the messages, and adds up what each action saved.
 */
export function compactionResult(
  final: RequestDraft,
  {
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
  }: {
    working: readonly Message[];
    tally: CompactionTally;
    tokensBefore: number;
    /** Raw tokens of a list, overhead included. */
    rawOf: (list: readonly Message[]) => number;
    /** The assembled messages as sent (the read-back line after the first cut, when it goes in). */
    finalize: (list: Message[]) => Message[];
    estimator: Estimator;
    model: string | undefined;
    minimal: boolean;
    conversationId: string;
    onEvent: CompactionEventHandler;
    quiet: boolean;
  },
): CompactMessagesResult {
  const { actions } = tally;
  const saved = { ...tally.saved };
  const restOffset = working.length - final.layout.rest.length;
  const records: TruncationRecord[] = [
    ...final.historyRecords.map((record) => ({ ...record, messageIndex: record.messageIndex + restOffset })),
    ...final.turnRecords.map((record) => ({
      ...record,
      messageIndex: record.messageIndex + restOffset + final.originalHistory.length,
    })),
  ];
  if (!quiet) {
    if (records.length > 0) onEvent({ type: 'truncation', conversationId, records });
    for (const rule of final.pinned()?.evicted ?? [])
      onEvent({ type: 'pinned-rule-evicted', conversationId, rule });
  }
  const output = finalize(final.assemble());
  const historySavings = Object.entries(final.historySavings) as [CompactionAction, number][];
  for (const [action, tokens] of historySavings) if (tokens > 0) actions.add(action);
  if (final.turn !== final.originalTurn && final.turnRecords.length > 0) {
    actions.add('shrink-current-turn');
    saved['shrink-current-turn'] =
      estimator.countMessages(final.originalTurn) - estimator.countMessages(final.turn);
  }
  const estimatedTokens = rawOf(output);
  const tokensAfter = estimator.calibrated(estimatedTokens, model);
  return {
    messages: output,
    state: tally.state,
    stateChanged: tally.stateChanged,
    tokensBefore,
    tokensAfter,
    estimatedTokens,
    actions: [...actions].sort(
      (left, right) => (ACTION_INDEX.get(left) ?? 0) - (ACTION_INDEX.get(right) ?? 0),
    ),
    savings: stepSavings(
      actions,
      { ...saved, ...Object.fromEntries(historySavings) },
      { factor: estimator.calibrationFactor(model), total: tokensBefore - tokensAfter },
    ),
    minimal,
    ...(tally.reached === undefined ? {} : { reductionLevel: tally.reached }),
  };
}
