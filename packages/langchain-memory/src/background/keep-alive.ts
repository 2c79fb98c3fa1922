import type { CompactionEvent } from '@spillway/core';

/**
 * Hands background work (the promise `Compactor.afterResponse` returns, which never rejects) to
 * the `waitUntil` option, so a serverless host keeps the function alive until it settles. Without
 * one, the work runs detached. Never throws: the response is complete, and compaction must not turn
 * it into a failure; a throwing `waitUntil` becomes a `compaction-failed` event (reason
 * `background`, fallback `none`), and a throwing event handler is ignored.
 */
export function keepAlive(
  work: Promise<unknown>,
  {
    waitUntil,
    conversationId,
    onEvent,
  }: {
    waitUntil: ((promise: Promise<unknown>) => void) | undefined;
    conversationId: string;
    onEvent: (event: CompactionEvent) => void;
  },
): void {
  if (waitUntil === undefined) return;
  try {
    waitUntil(work);
  } catch (error) {
    try {
      onEvent({ type: 'compaction-failed', conversationId, reason: 'background', error, fallback: 'none' });
    } catch {
      // A throwing handler is ignored.
    }
  }
}
