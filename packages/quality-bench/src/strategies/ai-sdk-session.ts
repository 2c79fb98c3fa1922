import { isContextOverflowError } from '@spillway/core';
import { generateText, type LanguageModelMiddleware, type ModelMessage, wrapLanguageModel } from 'ai';
import type { ModelCall } from '../conversation/conversation';
import { createProviderModel } from '../run/provider-model';
import type { StepResult, StrategyContext } from './strategy';

/** Options of {@link createAiSdkSession}. */
export interface AiSdkSessionOptions {
  context: StrategyContext;
  /** Middleware the model is wrapped with (`wrapLanguageModel`), if any. */
  middleware?: LanguageModelMiddleware;
  /** What the application does to the history before `generateText`, if anything. */
  prepareMessages?: (messages: ModelMessage[]) => ModelMessage[];
  /** `providerOptions` of every call. */
  providerOptions?: Record<string, Record<string, unknown>>;
  /** Runs after every call (e.g. waits for background work). */
  afterCall?: () => Promise<void>;
  /** Tools of every call (e.g. a read-back tool the application offers the model), if any. */
  tools?: Record<string, unknown>;
}

/**
 * Runs an AI SDK application the way one is written: every model call is a real `generateText`
 * with the conversation so far and the system prompt, through the strategy's middleware and/or
 * message preparation, to a provider that rejects prompts over the window.
 */
export function createAiSdkSession({
  context,
  middleware,
  prepareMessages,
  providerOptions,
  afterCall,
  tools,
}: AiSdkSessionOptions): { step(call: ModelCall): Promise<StepResult> } {
  const provider = createProviderModel({ contextWindow: context.contextWindow, counter: context.counter });
  const model = middleware ? wrapLanguageModel({ model: provider.model, middleware }) : provider.model;
  const { conversation } = context;
  return {
    async step(call) {
      const history = conversation.messages.slice(0, call.historyLength);
      try {
        await generateText({
          model,
          system: conversation.system,
          messages: prepareMessages ? prepareMessages(history) : history,
          maxRetries: 0,
          ...(providerOptions ? { providerOptions: providerOptions as never } : {}),
          ...(tools ? { tools: tools as never } : {}),
        });
      } catch (error) {
        if (!isContextOverflowError(error)) throw error;
      }
      await afterCall?.();
      return provider.take();
    },
  };
}
