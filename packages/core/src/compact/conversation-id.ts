import type { Message } from '../message/message';
import { hashMessages } from './hash-messages';

/** How many leading messages identify a conversation when the framework gives no id. */
const IDENTIFYING_MESSAGES = 2;

/**
 * A conversation key derived from its first messages (system prompt and first user turn), for
 * frameworks that give no id. Two conversations that start identically share a key; the covered-
 * prefix hash keeps one from ever receiving the other's summary.
 */
export function deriveConversationId(messages: readonly Message[]): string {
  const leadingSystem = messages
    .filter((message, index) => message.role === 'system' && index < 8)
    .slice(0, 1);
  const firstTurns = messages.filter((message) => message.role !== 'system').slice(0, IDENTIFYING_MESSAGES);
  return `derived:${hashMessages([...leadingSystem, ...firstTurns])}`;
}
