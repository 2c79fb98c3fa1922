import type { ModelMessage } from 'ai';
import { fromLanguageModelPrompt } from '../request/from-language-model-prompt';
import { createAiSdkSession } from './ai-sdk-session';
import type { Strategy } from './strategy';

/** Options of {@link slidingWindowStrategy}. */
export interface SlidingWindowStrategyOptions {
  /**
   * The row label.
   * @default 'sliding window'
   */
  name?: string;
  /**
   * Share of the window the kept messages may fill.
   * @default 1
   */
  fill?: number;
}

/**
 * The naive baseline: keep the newest messages that fit the window (counted with the benchmark's
 * counter, system prompt included), starting at a user message so no tool result loses its call.
 * When even the current turn does not fit, it is sent anyway (and rejected).
 */
export function slidingWindowStrategy({
  name = 'sliding window',
  fill = 1,
}: SlidingWindowStrategyOptions = {}): Strategy {
  return {
    name,
    summarizes: false,
    readsBack: false,
    async start(context) {
      const { counter, contextWindow, conversation } = context;
      const budget =
        contextWindow * fill -
        counter.request(fromLanguageModelPrompt([{ role: 'system', content: conversation.system }]));
      const tokensOf = new WeakMap<ModelMessage, number>();
      const count = (message: ModelMessage) => {
        let tokens = tokensOf.get(message);
        if (tokens === undefined) {
          tokens = counter.request(fromLanguageModelPrompt([message]));
          tokensOf.set(message, tokens);
        }
        return tokens;
      };
      const session = createAiSdkSession({
        context,
        prepareMessages: (messages) => {
          // Walk back from the newest message; the current turn is always kept.
          let used = 0;
          let start = -1;
          for (let index = messages.length - 1; index >= 0; index--) {
            used += count(messages[index]!);
            if (used > budget && start !== -1) break;
            if (messages[index]!.role === 'user') start = index;
          }
          return start <= 0 ? messages : messages.slice(start);
        },
      });
      return { step: session.step, summarizerCalls: () => 0, summarizerTokens: () => 0 };
    },
  };
}
