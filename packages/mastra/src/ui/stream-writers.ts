import type { CompactionDataPart } from '@spillway/ai-sdk-prompt';
import type { CompactionEvent } from '@spillway/core';

/** Mastra's processor stream writer (`args.writer`): `custom` emits a `data-*` chunk. */
export interface StreamWriterLike {
  custom(data: { type: string }): unknown;
}

/** Conversations whose last writer is remembered. */
const REMEMBERED_WRITERS = 256;

/**
 * Routes compaction events to the stream of the run they belong to: each model request registers
 * its run's writer under the conversation's key; an event of that conversation (background work
 * after the response included, while the stream is still open) is written there as a data chunk.
 * Writes to a stream that has closed are ignored.
 */
export function createStreamWriters(toDataPart: (event: CompactionEvent) => CompactionDataPart | undefined) {
  const writers = new Map<string, StreamWriterLike>();
  return {
    register(conversationId: string, writer: StreamWriterLike | undefined) {
      writers.delete(conversationId);
      if (writer === undefined || typeof writer.custom !== 'function') return;
      writers.set(conversationId, writer);
      if (writers.size > REMEMBERED_WRITERS) writers.delete(writers.keys().next().value as string);
    },
    write(event: CompactionEvent) {
      const writer = writers.get(event.conversationId);
      if (writer === undefined) return;
      const part = toDataPart(event);
      if (part === undefined) return;
      try {
        const written = writer.custom(part);
        if (written instanceof Promise) written.catch(() => {});
      } catch {
        // The stream has closed; nothing left to tell.
      }
    },
  };
}
