import { ContextOverflowError } from '@langchain/core/errors';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { MockLanguageModelV4 } from 'ai/test';
import { fakeModel } from 'langchain';
import { messageTexts } from '../request/bench-request';
import { fromLangChainMessages } from '../request/from-langchain-messages';
import { fromLanguageModelPrompt } from '../request/from-language-model-prompt';
import { overflowError } from '../run/provider-model';
import type { TokenCounter } from '../tokens/token-counter';
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

/** The run's summarizer as an AI SDK language model (V4), for frameworks that take a model. */
export function createSummaryLanguageModel({
  summarizer,
  contextWindow,
  counter,
}: Options): SummaryModelStats & { model: MockLanguageModelV4 } {
  let calls = 0;
  let tokens = 0;
  const model = new MockLanguageModelV4({
    modelId: 'bench-summarizer',
    doGenerate: async ({ prompt }) => {
      const request = fromLanguageModelPrompt(prompt);
      const count = counter.request(request);
      calls++;
      tokens += count;
      if (count > contextWindow) throw overflowError(count, contextWindow);
      const text = summarizer.summarize(request.flatMap(messageTexts).join('\n'));
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

/** The run's summarizer as a LangChain chat model (`fakeModel`), for `summarizationMiddleware`. */
export function createSummaryChatModel({
  summarizer,
  contextWindow,
  counter,
}: Options): SummaryModelStats & { model: ReturnType<typeof fakeModel> } {
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
    return new AIMessage(summarizer.summarize(request.flatMap(messageTexts).join('\n')));
  };
  for (let index = 0; index < QUEUED_ANSWERS; index++) model.respond(answer);
  return { model, calls: () => calls, tokens: () => tokens };
}
