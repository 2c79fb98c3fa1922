import type { Message } from '@spillway/core';

/** What the read-back tool needs of a conversation: its originals, key and reference secret. */
export interface RecalledConversation {
  /** The conversation as Mastra built the request from it, before any cap (system messages too). */
  readonly messages: readonly Message[];
  readonly conversationId: string;
  /** The secret the conversation's references were made with; undefined when recall is off. */
  readonly secret: string | undefined;
}

/** Conversations remembered by key, for a tool run whose request context is not the processor's. */
const RECENT_CONVERSATIONS = 256;

const byRequestContext = new WeakMap<object, RecalledConversation>();
const byConversationId = new Map<string, RecalledConversation>();

/**
 * Notes the conversation a Spillway processor just sent, under the run's request context (Mastra
 * hands the same object to the run's tools) and under its key. The read-back tool reads the
 * originals from here: Mastra gives a tool only the run's new input messages, not the history.
 * Process-local, like the run itself; bounded by key.
 */
export function rememberConversation(requestContext: unknown, conversation: RecalledConversation): void {
  if (typeof requestContext === 'object' && requestContext !== null) {
    byRequestContext.set(requestContext, conversation);
  }
  byConversationId.delete(conversation.conversationId);
  byConversationId.set(conversation.conversationId, conversation);
  if (byConversationId.size > RECENT_CONVERSATIONS) {
    byConversationId.delete(byConversationId.keys().next().value as string);
  }
}

/**
 * The conversation a tool run belongs to: by its request context, else by the conversation key
 * its memory thread maps to. Undefined when no Spillway processor sent it in this process.
 */
export function recalledConversation(
  requestContext: unknown,
  conversationId: string | undefined,
): RecalledConversation | undefined {
  if (typeof requestContext === 'object' && requestContext !== null) {
    const found = byRequestContext.get(requestContext);
    if (found !== undefined) return found;
  }
  return conversationId === undefined ? undefined : byConversationId.get(conversationId);
}
