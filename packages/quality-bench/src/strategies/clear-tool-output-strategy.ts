import type { ModelMessage, ToolModelMessage } from 'ai';
import { fromLanguageModelPrompt } from '../request/from-language-model-prompt';
import { createAiSdkSession } from './ai-sdk-session';
import type { Strategy } from './strategy';

/** Options of {@link clearToolOutputStrategy}. */
export interface ClearToolOutputStrategyOptions {
  /**
   * The row label.
   * @default 'clear old tool output (naive)'
   */
  name?: string;
  /**
   * What an old tool result is replaced with.
   * @default '[tool result cleared]'
   */
  stub?: string;
}

/**
 * The naive baseline of issue 21: before every call, every tool result older than the latest user
 * message is replaced by a short stub; every text (the user's, the assistant's, the tool calls and
 * their arguments) is kept. If the request is still over the window (counted with the benchmark's
 * counter, system prompt included), the oldest whole turns are dropped (a turn runs from a user
 * message to the next, so a tool call never loses its result) until it fits; the current turn is
 * never dropped, and a request that is still over is sent anyway (and rejected). A stubbed message
 * is made once per original, so an unchanged prefix stays byte-identical between calls.
 */
export function clearToolOutputStrategy({
  name = 'clear old tool output (naive)',
  stub = '[tool result cleared]',
}: ClearToolOutputStrategyOptions = {}): Strategy {
  return {
    name,
    summarizes: false,
    readsBack: false,
    async start(context) {
      const { counter, contextWindow, conversation } = context;
      const budget =
        contextWindow -
        counter.request(fromLanguageModelPrompt([{ role: 'system', content: conversation.system }]));
      const stubbed = new WeakMap<ModelMessage, ModelMessage>();
      const clear = (message: ModelMessage): ModelMessage => {
        if (message.role !== 'tool') return message;
        let cleared = stubbed.get(message);
        if (cleared === undefined) {
          cleared = {
            ...message,
            content: message.content.map((part) =>
              part.type === 'tool-result'
                ? { ...part, output: { type: 'text' as const, value: stub } }
                : part,
            ),
          } as ToolModelMessage;
          stubbed.set(message, cleared);
        }
        return cleared;
      };
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
          let latestUser = messages.length - 1;
          while (latestUser > 0 && messages[latestUser]!.role !== 'user') latestUser--;
          const prepared = messages.map((message, index) => (index < latestUser ? clear(message) : message));
          let total = prepared.reduce((sum, message) => sum + count(message), 0);
          let start = 0;
          while (total > budget && start < latestUser) {
            // Drop the oldest whole turn: up to the next user message.
            let next = start + 1;
            while (next < latestUser && prepared[next]!.role !== 'user') next++;
            for (let index = start; index < next; index++) total -= count(prepared[index]!);
            start = next;
          }
          return start === 0 ? prepared : prepared.slice(start);
        },
      });
      return { step: session.step, summarizerCalls: () => 0, summarizerTokens: () => 0 };
    },
  };
}
