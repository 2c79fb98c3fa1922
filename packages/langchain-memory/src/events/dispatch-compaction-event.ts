import { dispatchCustomEvent } from '@langchain/core/callbacks/dispatch';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { CompactionEvent } from '@spillway/core';

/** Prefix of the custom event names this package sends through LangChain callbacks. */
export const EVENT_NAME_PREFIX = 'spillway:';

/**
 * Sends a compaction event through LangChain's callback system as a custom event named
 * `spillway:<type>` (e.g. `spillway:compaction-end`), seen by `handleCustomEvent` handlers and by
 * `streamEvents` as `on_custom_event`. Outside a run (no callbacks in scope) it does nothing. Never
 * throws and never waits.
 */
export function dispatchCompactionEvent(event: CompactionEvent, config?: RunnableConfig): void {
  try {
    dispatchCustomEvent(`${EVENT_NAME_PREFIX}${event.type}`, event, config).catch(() => {});
  } catch {
    // No run in scope: the callback system has nowhere to send it.
  }
}
