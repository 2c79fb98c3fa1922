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
  const identifying: Message[] = [];
  let system: Message | undefined;
  let turns = 0;
  // Only the head of the conversation matters: stop as soon as it is read.
  for (let index = 0; index < messages.length && turns < IDENTIFYING_MESSAGES; index++) {
    const message = messages[index]!;
    if (message.role === 'system') {
      if (system === undefined && index < 8) system = message;
    } else {
      identifying.push(message);
      turns++;
    }
  }
  return `derived:${hashMessages(system === undefined ? identifying : [system, ...identifying])}`;
}
