/** A conversation whose summary failed: foreground summarizing waits out some requests. */
export interface Cooldown {
  /** Requests left before summarizing may be tried again in the foreground. */
  remaining: number;
  /** Whether the one background retry after a failure is still to be made. */
  backgroundRetry: boolean;
}

/** The back-off after failed summaries (see the `retrySummaryAfter` option). */
export interface SummaryCooldowns {
  /** A summary failed (in a request, or in the background). */
  noteFailure(conversationId: string, reason: 'request' | 'background'): void;
  /** The conversation's cooldown, if any, with one request counted off. */
  take(conversationId: string): Cooldown | undefined;
  has(conversationId: string): boolean;
  /** A summary was made: the conversation is no longer on hold. */
  clear(conversationId: string): void;
}

/**
 * After a failed summary the next request over the threshold tries once more in the background;
 * if that fails too, `retrySummaryAfter` requests go by before summarizing is tried again. `0`
 * tries on every request.
 */
export function createSummaryCooldowns(retrySummaryAfter: number): SummaryCooldowns {
  const cooldowns = new Map<string, Cooldown>();
  return {
    noteFailure(conversationId, reason) {
      if (retrySummaryAfter === 0) return;
      const previous = cooldowns.get(conversationId);
      // A failed request gets one background retry; a failed background attempt waits it out.
      const backgroundRetry = reason === 'request' && previous?.backgroundRetry !== false;
      cooldowns.set(conversationId, { remaining: retrySummaryAfter, backgroundRetry });
    },
    take(conversationId) {
      const cooldown = cooldowns.get(conversationId);
      if (cooldown === undefined) return undefined;
      if (cooldown.remaining <= 1 && !cooldown.backgroundRetry) cooldowns.delete(conversationId);
      else cooldown.remaining = Math.max(0, cooldown.remaining - 1);
      return cooldown;
    },
    has: (conversationId) => cooldowns.has(conversationId),
    clear: (conversationId) => void cooldowns.delete(conversationId),
  };
}
