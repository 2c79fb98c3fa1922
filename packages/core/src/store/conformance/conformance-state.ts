import type { CompactionState } from '../compaction-state';

/** A state with recognisable content for the conformance cases; `tag` makes each one different. */
export function conformanceState(
  tag: number,
  summary = `Summary ${tag}: the user asked for /src/app.ts`,
): CompactionState {
  return {
    version: 1,
    summaries: [summary],
    coveredCount: tag,
    coveredHash: `hash-${tag}`,
    tokensBefore: 1000 + tag,
    tokensAfter: 100 + tag,
    createdAt: 1_700_000_000_000 + tag,
    compactionCount: tag,
  };
}
