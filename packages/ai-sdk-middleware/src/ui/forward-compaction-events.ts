import { type CompactionDataPart, compactionDataPart } from '@spillway/ai-sdk-prompt';
import type { CompactionEvent } from '@spillway/core';
import type { CompactionMiddleware } from '../compaction-middleware';

/** Options of {@link forwardCompactionEvents}. */
export interface ForwardCompactionEventsOptions {
  /** The middleware whose events to forward. */
  middleware: Pick<CompactionMiddleware, 'subscribe'>;
  /** The UI message stream writer (`createUIMessageStream({ execute: ({ writer }) => … })`). */
  writer: { write(part: CompactionDataPart): void };
  /**
   * Forward only this conversation's events (what you pass as `providerOptions.spillway.conversationId`).
   * @default every conversation's events
   */
  conversationId?: string;
  /**
   * Turns an event into the part to write (undefined skips it).
   * @default compactionDataPart
   */
  toDataPart?: (event: CompactionEvent) => CompactionDataPart | undefined;
}

/**
 * Forwards compaction events into a UI message stream as `data-spillway` parts, so a `useChat` UI
 * can show "Optimizing conversation context…" and "Conversation history has been automatically
 * trimmed". Returns the function that stops forwarding (call it when the stream ends; writes after
 * the stream has closed are ignored).
 *
 * @example
 * const stream = createUIMessageStream({
 *   execute: async ({ writer }) => {
 *     const stop = forwardCompactionEvents({ middleware, writer, conversationId: chatId });
 *     const result = streamText({ model, messages, providerOptions: { spillway: { conversationId: chatId } } });
 *     writer.merge(result.toUIMessageStream());
 *     await result.consumeStream();
 *     stop();
 *   },
 * });
 */
export function forwardCompactionEvents({
  middleware,
  writer,
  conversationId,
  toDataPart = compactionDataPart,
}: ForwardCompactionEventsOptions): () => void {
  return middleware.subscribe((event) => {
    if (conversationId !== undefined && event.conversationId !== conversationId) return;
    const part = toDataPart(event);
    if (part === undefined) return;
    try {
      writer.write(part);
    } catch {
      // The stream has closed; nothing left to tell.
    }
  });
}
