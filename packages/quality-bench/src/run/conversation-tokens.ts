import type { Conversation } from '../conversation/conversation';
import { fromLanguageModelPrompt } from '../request/from-language-model-prompt';
import type { TokenCounter } from '../tokens/token-counter';

/** Tokens of a conversation as one request: system prompt and every message. */
export function conversationTokens(conversation: Conversation, counter: TokenCounter): number {
  return counter.request(
    fromLanguageModelPrompt([{ role: 'system', content: conversation.system }, ...conversation.messages]),
  );
}
