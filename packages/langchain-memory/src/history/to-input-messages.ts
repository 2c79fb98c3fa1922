import { type BaseMessage, HumanMessage, isBaseMessage } from '@langchain/core/messages';
import type { GetPromptMessagesOptions } from './compacting-chat-message-history-options';

/** The input of a prompt as messages: strings become user messages. */
export function toInputMessages(input: GetPromptMessagesOptions['input']): BaseMessage[] {
  if (input === undefined || input === null) return [];
  const list = Array.isArray(input) ? input : [input];
  return list.flatMap((item: unknown) => {
    if (typeof item === 'string') return item === '' ? [] : [new HumanMessage(item)];
    if (isBaseMessage(item)) return [item];
    return [];
  });
}
