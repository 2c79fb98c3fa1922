/** A compaction running for a conversation: made for a request, or in the background. */
export interface Flight {
  readonly kind: 'request' | 'background';
  readonly promise: Promise<unknown>;
}

/** The compactions running in this process, one at most per conversation (single-flight). */
export interface ConversationFlights {
  get(conversationId: string): Flight | undefined;
  has(conversationId: string): boolean;
  /** Runs `run` as the conversation's flight until it settles. */
  track<T>(conversationId: string, kind: Flight['kind'], run: () => Promise<T>): Promise<T>;
  /** Resolves when no compaction is running. Always settles. */
  idle(): Promise<void>;
}

/** The single-flight record of one compactor. */
export function createConversationFlights(): ConversationFlights {
  const flights = new Map<string, Flight>();
  return {
    get: (conversationId) => flights.get(conversationId),
    has: (conversationId) => flights.has(conversationId),
    track(conversationId, kind, run) {
      const promise = run().finally(() => {
        if (flights.get(conversationId)?.promise === promise) flights.delete(conversationId);
      });
      flights.set(conversationId, { kind, promise });
      return promise;
    },
    async idle() {
      while (flights.size > 0) {
        await Promise.allSettled([...flights.values()].map((flight) => flight.promise));
      }
    },
  };
}
