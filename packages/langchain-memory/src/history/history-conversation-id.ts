import { deriveConversationId, type Message } from '@spillway/core';

/**
 * The conversation's key in the compaction store: the `conversationId` option, else derived from
 * the conversation's first messages (system messages left out).
 */
export function historyConversationId(
  conversationId: string | undefined,
  messages: readonly Message[],
): string {
  return conversationId ?? deriveConversationId(messages.filter((message) => message.role !== 'system'));
}
