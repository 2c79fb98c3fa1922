import { pruneMessages } from 'ai';
import { createAiSdkSession } from './ai-sdk-session';
import type { Strategy } from './strategy';

/** Options of {@link pruneMessagesStrategy}. */
export interface PruneMessagesStrategyOptions {
  /**
   * The row label.
   * @default 'AI SDK pruneMessages'
   */
  name?: string;
  /**
   * `pruneMessages`' `toolCalls` option.
   * @default 'before-last-2-messages' (the AI SDK reference's example)
   */
  toolCalls?: Parameters<typeof pruneMessages>[0]['toolCalls'];
}

/**
 * The AI SDK's own `pruneMessages`, as its reference page uses it before every call (reasoning
 * before the last message, tool calls before the last two messages, empty messages removed). It
 * does not look at the window: a request still over it is rejected by the provider.
 */
export function pruneMessagesStrategy({
  name = 'AI SDK pruneMessages',
  toolCalls = 'before-last-2-messages',
}: PruneMessagesStrategyOptions = {}): Strategy {
  return {
    name,
    summarizes: false,
    readsBack: false,
    async start(context) {
      const session = createAiSdkSession({
        context,
        prepareMessages: (messages) =>
          pruneMessages({ messages, reasoning: 'before-last-message', toolCalls, emptyMessages: 'remove' }),
      });
      return { step: session.step, summarizerCalls: () => 0, summarizerTokens: () => 0 };
    },
  };
}
