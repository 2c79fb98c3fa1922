import type { CompactionEvent, CompactionEventHandler } from '@spillway/core';

/** The middleware's events: the `onEvent` option plus listeners added with `subscribe`. */
export interface EventHub {
  /** Sends an event to every listener; a listener that throws is ignored. */
  emit(event: CompactionEvent): void;
  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: CompactionEventHandler): () => void;
}

/** The event hub of one middleware, with `onEvent` (when given) as its first, permanent listener. */
export function createEventHub(onEvent: CompactionEventHandler | undefined): EventHub {
  const listeners = new Set<CompactionEventHandler>();
  return {
    emit(event) {
      for (const listener of [onEvent, ...listeners]) {
        try {
          listener?.(event);
        } catch {
          // A listener must never break a request.
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
