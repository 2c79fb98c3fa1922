import { deriveConversationId, type Message } from '@spillway/core';

/** What this package reads from a LangGraph runtime or run config. */
export interface RuntimeLike {
  configurable?: { thread_id?: unknown; [key: string]: unknown };
}

/**
 * The conversation's key in the store: `thread:<thread_id>` when the run has a thread (a
 * checkpointer), else derived from the conversation's first messages (the covered-prefix hash
 * keeps a collision from ever applying a wrong summary).
 */
export function threadConversationId(threadId: unknown, conversation: readonly Message[]): string {
  return typeof threadId === 'string' || typeof threadId === 'number'
    ? `thread:${threadId}`
    : deriveConversationId(conversation);
}
