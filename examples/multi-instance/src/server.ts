/**
 * One chat server instance: an HTTP endpoint that answers with the AI SDK (`generateText` over a
 * mock model from `ai/test`, offline) through the Spillway middleware, with its compaction state in
 * the shared Redis at `REDIS_URL`. `LEASE=off` turns the distributed lease off (per-process
 * single-flight only), to show what it prevents.
 *
 * POST /chat { conversationId, messages } → { text }; GET /stats → what this instance did.
 * Prints its port on the first line of stdout.
 */
import { createServer } from 'node:http';
import { compactionMiddleware } from '@spillway/ai-sdk-middleware';
import { RedisCompactionStore } from '@spillway/redis';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { Redis } from 'ioredis';

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

/** The chat model: answers every turn with a short, deterministic reply. */
const chatModel = new MockLanguageModelV4({
  provider: 'mock',
  modelId: 'mock-chat',
  doGenerate: async ({ prompt }) => ({
    content: [{ type: 'text', text: `Noted (${prompt.length} messages in this request).` }],
    finishReason: { unified: 'stop', raw: undefined },
    usage: usage(0, 12),
    warnings: [],
  }),
});

/** The summarizer model: a slow, deterministic summary (a real one takes seconds). */
let summarizerCalls = 0;
let summaries = 0;
const summaryModel = new MockLanguageModelV4({
  provider: 'mock',
  modelId: 'mock-summarizer',
  doGenerate: async () => {
    summarizerCalls++;
    await new Promise((resolve) => setTimeout(resolve, 400));
    return {
      content: [
        {
          type: 'text',
          text: `Summary #${summarizerCalls} by process ${process.pid}: the user is planning a trip to Lisbon in May; budget EUR 2,000; prefers trains.`,
        },
      ],
      finishReason: { unified: 'stop', raw: undefined },
      usage: usage(0, 40),
      warnings: [],
    };
  },
});

const redis = new Redis(process.env.REDIS_URL!);
redis.on('error', () => {});
let applied = 0;
let storeErrors = 0;
const middleware = compactionMiddleware({
  contextWindow: 3_000,
  summarizer: summaryModel,
  summarizerMaxInputTokens: 100_000,
  auditIdentifiers: false,
  store: new RedisCompactionStore({ client: redis, keyPrefix: `example-${process.env.RUN_ID}:` }),
  lease: process.env.LEASE === 'off' ? false : { pollIntervalMs: 25 },
  onEvent: (event) => {
    if (event.type === 'store-error') storeErrors++;
    if (event.type === 'compaction-end') summaries++;
  },
});
const model = wrapLanguageModel({ model: chatModel, middleware });
let requests = 0;

const server = createServer(async (request, response) => {
  try {
    if (request.method === 'GET' && request.url === '/stats') {
      await middleware.compactor.idle();
      response.end(
        JSON.stringify({ pid: process.pid, requests, summaries, summarizerCalls, applied, storeErrors }),
      );
      return;
    }
    let body = '';
    for await (const chunk of request) body += chunk;
    const { conversationId, messages } = JSON.parse(body) as {
      conversationId: string;
      messages: ModelMessage[];
    };
    requests++;
    const result = await generateText({
      model,
      instructions: 'You are a travel planner.',
      messages,
      providerOptions: { spillway: { conversationId } },
    });
    const sent = chatModel.doGenerateCalls.at(-1)?.prompt ?? [];
    if (JSON.stringify(sent).includes('Summary #')) applied++;
    response.end(JSON.stringify({ text: result.text }));
  } catch (error) {
    response.statusCode = 500;
    response.end(JSON.stringify({ error: String(error) }));
  }
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(typeof address === 'object' && address ? address.port : 0);
});
process.stdin.resume();
process.stdin.on('end', () => {
  server.close();
  redis.disconnect();
  process.exit(0);
});
