import { APICallError } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { BenchRequest } from '../request/bench-request';
import { fromLanguageModelPrompt } from '../request/from-language-model-prompt';
import type { TokenCounter } from '../tokens/token-counter';

/** The provider's overflow error, as `@ai-sdk/openai` builds it from OpenAI's 400. */
export function overflowError(tokens: number, contextWindow: number): APICallError {
  const message = `This model's maximum context length is ${contextWindow} tokens. However, your messages resulted in ${tokens} tokens.`;
  return new APICallError({
    message,
    url: 'https://api.openai.com/v1/chat/completions',
    requestBodyValues: {},
    statusCode: 400,
    responseBody: JSON.stringify({
      error: { message, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' },
    }),
    isRetryable: false,
  });
}

/** A fake provider for the agent's model, and what it received. */
export interface ProviderModel {
  model: MockLanguageModelV4;
  /** Every request received since the last `take()`, rejected ones included. */
  take(): { sent: BenchRequest[]; delivered: BenchRequest | undefined };
}

/**
 * The agent's model as a provider would behave: it counts every prompt with the benchmark's
 * counter, rejects one over the window with the provider's overflow error, and otherwise answers
 * (the answer is not used: the benchmark appends the scripted one) and reports the usage.
 */
export function createProviderModel({
  contextWindow,
  counter,
}: {
  contextWindow: number;
  counter: TokenCounter;
}): ProviderModel {
  let sent: BenchRequest[] = [];
  let delivered: BenchRequest | undefined;
  const model = new MockLanguageModelV4({
    modelId: 'bench-model',
    doGenerate: async ({ prompt }) => {
      const request = fromLanguageModelPrompt(prompt);
      sent.push(request);
      const tokens = counter.request(request);
      if (tokens > contextWindow) throw overflowError(tokens, contextWindow);
      delivered = request;
      return {
        content: [{ type: 'text', text: 'ok' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: tokens, noCache: tokens, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 20, text: 20, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
  return {
    model,
    take: () => {
      const result = { sent, delivered };
      sent = [];
      delivered = undefined;
      return result;
    },
  };
}
