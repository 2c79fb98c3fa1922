import type { LanguageModelV4 } from '@ai-sdk/provider';
import { ContextOverflowError } from '@langchain/core/errors';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { fakeModel } from 'langchain';
import { messageTexts, type RequestMessage } from '../request/bench-request';
import { fromLangChainMessages } from '../request/from-langchain-messages';
import { fromLanguageModelPrompt } from '../request/from-language-model-prompt';
import { overflowError } from '../run/provider-model';
import type { TokenCounter } from '../tokens/token-counter';
import { AiSdkChatModel } from './ai-sdk-chat-model';
import type { BenchSummarizer } from './bench-summarizer';

/** A summarizer wrapped as a model, with what it was sent. */
export interface SummaryModelStats {
  calls(): number;
  /** Tokens of every prompt it was sent (o200k). */
  tokens(): number;
}

interface Options {
  summarizer: BenchSummarizer;
  /** Prompts above this many tokens are rejected, as a provider would (the summarizer is a model too). */
  contextWindow: number;
  counter: TokenCounter;
}

/** The scripted summarizer's answer to a request (everything it was sent, as text). */
function scriptedAnswer(summarizer: BenchSummarizer, request: readonly RequestMessage[]): string {
  if (summarizer.summarize === undefined) throw new Error(`summarizer ${summarizer.name} has no script`);
  return summarizer.summarize(request.flatMap(messageTexts).join('\n'));
}

/**
 * The run's summarizer as an AI SDK language model (V4), for frameworks that take a model: the
 * scripted model as a `MockLanguageModelV4`, or the real model wrapped to count what it is sent.
 * Either way a prompt over the run's window is rejected with the provider's overflow error.
 */
export function createSummaryLanguageModel({
  summarizer,
  contextWindow,
  counter,
}: Options): SummaryModelStats & { model: LanguageModelV4 } {
  let calls = 0;
  let tokens = 0;
  const admit = (prompt: readonly unknown[]) => {
    const request = fromLanguageModelPrompt(prompt);
    const count = counter.request(request);
    calls++;
    tokens += count;
    if (count > contextWindow) throw overflowError(count, contextWindow);
    return { request, count };
  };
  if (summarizer.model !== undefined) {
    const model = wrapLanguageModel({
      model: summarizer.model,
      middleware: {
        specificationVersion: 'v4',
        wrapGenerate: async ({ doGenerate, params }) => {
          admit(params.prompt);
          return doGenerate();
        },
        wrapStream: async ({ doStream, params }) => {
          admit(params.prompt);
          return doStream();
        },
      },
    }) as LanguageModelV4;
    return { model, calls: () => calls, tokens: () => tokens };
  }
  const model = new MockLanguageModelV4({
    modelId: 'bench-summarizer',
    doGenerate: async ({ prompt }) => {
      const { request, count } = admit(prompt);
      const text = scriptedAnswer(summarizer, request);
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: count, noCache: count, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: counter.text(text), text: counter.text(text), reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
  return { model, calls: () => calls, tokens: () => tokens };
}

/** How many answers a LangChain summary model has queued; one is used per call. */
const QUEUED_ANSWERS = 20_000;

/**
 * The run's summarizer as a LangChain chat model, for `summarizationMiddleware`: the scripted model
 * as a `fakeModel`, or the real model through {@link AiSdkChatModel} (counted and window-checked
 * like the AI SDK one).
 */
export function createSummaryChatModel({
  summarizer,
  contextWindow,
  counter,
}: Options): SummaryModelStats & { model: BaseChatModel } {
  if (summarizer.model !== undefined) {
    const wrapped = createSummaryLanguageModel({ summarizer, contextWindow, counter });
    return { model: new AiSdkChatModel(wrapped.model), calls: wrapped.calls, tokens: wrapped.tokens };
  }
  let calls = 0;
  let tokens = 0;
  const model = fakeModel();
  const answer = (messages: BaseMessage[]) => {
    const request = fromLangChainMessages(messages);
    const count = counter.request(request);
    calls++;
    tokens += count;
    if (count > contextWindow) {
      return new ContextOverflowError(`prompt is too long: ${count} tokens > ${contextWindow} maximum`);
    }
    return new AIMessage(scriptedAnswer(summarizer, request));
  };
  for (let index = 0; index < QUEUED_ANSWERS; index++) model.respond(answer);
  return { model: model as unknown as BaseChatModel, calls: () => calls, tokens: () => tokens };
}
