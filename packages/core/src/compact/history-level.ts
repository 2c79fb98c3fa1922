import type { Message } from '../message/message';
import type { TruncationRecord } from '../truncate/truncation-record';
import type { CompactionAction } from './compaction-action';

/**
 * How far the history is reduced, as history indexes (each the start of a turn, or the end):
 * turns before `foldTo` have their tool steps folded into one line each; tool results before
 * `stubTo` are stubs; those before `previewTo` previews; the rest is verbatim.
 */
export interface HistoryLevel {
  readonly previewTo: number;
  readonly stubTo: number;
  readonly foldTo: number;
}

/** No reduction at all. */
export const NO_LEVEL: HistoryLevel = { previewTo: 0, stubTo: 0, foldTo: 0 };

/** Whether `level` reduces anything (stubs lie inside previews, so previews and folds tell). */
export function reducesAnything(level: HistoryLevel): boolean {
  return level.previewTo > 0 || level.foldTo > 0;
}

/** `level`, reducing at least as far as `reached` in every zone. */
export function atLeastAs(level: HistoryLevel, reached: HistoryLevel): HistoryLevel {
  if (
    level.previewTo >= reached.previewTo &&
    level.stubTo >= reached.stubTo &&
    level.foldTo >= reached.foldTo
  ) {
    return level;
  }
  return {
    previewTo: Math.max(level.previewTo, reached.previewTo),
    stubTo: Math.max(level.stubTo, reached.stubTo),
    foldTo: Math.max(level.foldTo, reached.foldTo),
  };
}

/** The history at one level. */
export interface RenderedHistory {
  readonly level: HistoryLevel;
  readonly messages: Message[];
  /** Raw tokens of `messages`. */
  readonly tokens: number;
  /** `messageIndex` is the history index (a `folded` or `collapsed` record spans `messageCount`). */
  readonly records: TruncationRecord[];
  /** Raw tokens each action took off the history. */
  readonly savings: Partial<Record<CompactionAction, number>>;
}
