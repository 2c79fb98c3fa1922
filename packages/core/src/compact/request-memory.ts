import type { ReductionLevel } from './reduction-level';

/** The most conversations a compactor remembers its last request of. */
const REMEMBERED_CONVERSATIONS = 1_000;

/** What a compactor remembers of each conversation's last request. */
export interface RequestMemory {
  /** The raw estimate of the last request prepared (what the provider may reject next). */
  estimate(conversationId: string): number | undefined;
  /** How far the last request reduced its history (the next one reduces at least as far). */
  level(conversationId: string): ReductionLevel | undefined;
  /** Tokens the no-model history reductions took off the last request. */
  reduced(conversationId: string): number | undefined;
  remember(
    conversationId: string,
    estimate: number,
    level: ReductionLevel | undefined,
    reduced: number,
  ): void;
}

/** A bounded memory of the last request per conversation (the least recently used forgotten first). */
export function createRequestMemory(): RequestMemory {
  const estimates = new Map<string, number>();
  const levels = new Map<string, ReductionLevel>();
  const reductions = new Map<string, number>();
  const put = <Value>(map: Map<string, Value>, key: string, value: Value) => {
    map.delete(key);
    map.set(key, value);
    if (map.size > REMEMBERED_CONVERSATIONS) map.delete(map.keys().next().value as string);
  };
  return {
    estimate: (conversationId) => estimates.get(conversationId),
    level: (conversationId) => levels.get(conversationId),
    reduced: (conversationId) => reductions.get(conversationId),
    remember(conversationId, estimate, level, reduced) {
      put(estimates, conversationId, estimate);
      put(reductions, conversationId, reduced);
      if (level !== undefined) put(levels, conversationId, level);
    },
  };
}
