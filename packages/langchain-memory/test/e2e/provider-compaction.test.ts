import { ChatAnthropic } from '@langchain/anthropic';
import { type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { estimateTokens, extractiveSummarizer } from '@spillway/core';
import { createAgent } from 'langchain';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { compactionMiddleware } from '../../src/middleware/compaction-middleware';
import { type RecordedRequest, startLoopbackServer } from './loopback-server';
import { anthropic, openai } from './providers';

/**
 * Issue 25 through `@langchain/anthropic`: the user turns on Anthropic's server-side compaction
 * (`contextManagement` on `ChatAnthropic`) next to the middleware. A loopback compacts the way the
 * API documents it (over the trigger, the answer starts with a `compaction` block; the API then
 * reads only what follows the latest block). Every block reaches the API byte-identical and in
 * order, the user's options reach it unchanged, and Spillway's summary never covers a turn the
 * provider compacted. (`@langchain/openai` has no compaction items to carry.)
 */

const WINDOW = 3_000;
const TRIGGER = 1_500;
const TURNS = 24;
const SYSTEM_PROMPT = 'You are a careful assistant. Answer briefly.';

const ask = (turn: number) =>
  `Turn ${turn}: tell me about /docs/topic-${turn}.md. ${'Some context about the topic. '.repeat(25)}`;

// biome-ignore lint/suspicious/noExplicitAny: the API's JSON body
type Body = any;

function blocksIn(body: Body): unknown[] {
  return (body.messages as Body[]).flatMap((message) =>
    Array.isArray(message.content) ? message.content.filter((part: Body) => part.type === 'compaction') : [],
  );
}

function liveTokens(body: Body): number {
  const messages = body.messages as Body[];
  let from = 0;
  messages.forEach((message, index) => {
    if (Array.isArray(message.content) && message.content.some((part: Body) => part.type === 'compaction'))
      from = index;
  });
  return estimateTokens(JSON.stringify([body.system ?? '', ...messages.slice(from)]));
}

describe('@langchain/anthropic: provider compaction next to the middleware', () => {
  let server: Awaited<ReturnType<typeof startLoopbackServer>>;
  const produced: unknown[] = [];
  const seen: { request: RecordedRequest; before: unknown[]; compactedThrough: number }[] = [];
  let turn = 0;
  let compactedThrough = 0;
  beforeAll(async () => {
    server = await startLoopbackServer((request) => {
      seen.push({ request, before: [...produced], compactedThrough });
      const tokens = liveTokens(request.body);
      const block =
        tokens > TRIGGER
          ? {
              type: 'compaction',
              content: `<summary>Compaction ${produced.length + 1}: topics were discussed.</summary>`,
            }
          : undefined;
      if (block) {
        produced.push(block);
        compactedThrough = turn;
      }
      return {
        id: `msg_${seen.length}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [...(block ? [block] : []), { type: 'text', text: `Noted topic ${turn}.` }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: block ? 500 : tokens, output_tokens: 10 },
      };
    });
  });
  afterAll(() => server.close());

  test(`${TURNS} turns on a ${WINDOW}-token window: blocks verbatim and in order, no span summarized twice`, async () => {
    const contextManagement = {
      edits: [
        { type: 'compact_20260112' as const, trigger: { type: 'input_tokens' as const, value: TRIGGER } },
      ],
    };
    const agent = createAgent({
      model: new ChatAnthropic({
        model: 'claude-sonnet-4-5',
        apiKey: 'test-key',
        anthropicApiUrl: server.origin,
        maxRetries: 0,
        contextManagement,
      }),
      tools: [],
      systemPrompt: SYSTEM_PROMPT,
      middleware: [compactionMiddleware({ contextWindow: WINDOW, summarizer: extractiveSummarizer })],
    });
    let messages: BaseMessage[] = [];
    for (turn = 1; turn <= TURNS; turn++) {
      const result = await agent.invoke({ messages: [...messages, new HumanMessage(ask(turn))] });
      messages = result.messages;
    }
    expect(produced.length).toBeGreaterThanOrEqual(2);
    for (const { request, before, compactedThrough: through } of seen) {
      expect(blocksIn(request.body).map((block) => JSON.stringify(block))).toEqual(
        before.map((block) => JSON.stringify(block)),
      );
      expect(request.body.context_management).toEqual({
        edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: TRIGGER } }],
      });
      // Spillway's summary (in the system prompt) names no topic of a turn the provider compacted.
      const system = JSON.stringify(request.body.system ?? '');
      for (let index = 1; index <= through; index++) expect(system).not.toContain(`/docs/topic-${index}.md`);
    }
    const sent = seen.reduce((sum, { request }) => sum + estimateTokens(JSON.stringify(request.body)), 0);
    const read = seen.reduce((sum, { request }) => sum + liveTokens(request.body), 0);
    console.log(
      `[langchain provider compaction] ${seen.length} requests, ${sent} tokens sent, ${read} read by the provider, ${produced.length} provider compactions`,
    );
  });
});

describe("strategy 'provider'", () => {
  let server: Awaited<ReturnType<typeof startLoopbackServer>>;
  beforeAll(async () => {
    server = await startLoopbackServer((request) =>
      request.url.includes('/messages') ? anthropic.answer('Noted.', 100) : openai.answer('Noted.', 100),
    );
  });
  afterAll(() => server.close());

  const run = async (model: ReturnType<typeof anthropic.model>, contextWindow: number) => {
    const from = server.requests.length;
    const agent = createAgent({
      model,
      tools: [],
      systemPrompt: SYSTEM_PROMPT,
      middleware: [
        compactionMiddleware({ contextWindow, summarizer: extractiveSummarizer, strategy: 'provider' }),
      ],
    });
    await agent.invoke({ messages: [new HumanMessage(ask(1))] });
    await agent.invoke({ messages: [new HumanMessage(ask(2))] });
    return server.requests.slice(from).map((request) => request.body);
  };

  test('ChatAnthropic: Spillway’s thresholds as context management, the model itself unchanged', async () => {
    const model = anthropic.model(server.origin) as ChatAnthropic;
    const bodies = await run(model, 200_000);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      expect(body.context_management).toEqual({
        edits: [
          {
            type: 'clear_tool_uses_20250919',
            trigger: { type: 'input_tokens', value: 170_000 },
            keep: { type: 'tool_uses', value: 1 },
            clear_at_least: { type: 'input_tokens', value: 50_000 },
            exclude_tools: ['spillway_recall'],
          },
          { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 190_000 } },
        ],
      });
    }
    expect(model.contextManagement).toBeUndefined();
  });

  test('ChatAnthropic with its own edits: kept first, never overridden', async () => {
    const own = {
      edits: [
        { type: 'compact_20260112' as const, trigger: { type: 'input_tokens' as const, value: 60_000 } },
      ],
    };
    const model = new ChatAnthropic({
      model: 'claude-sonnet-4-5',
      apiKey: 'test-key',
      anthropicApiUrl: server.origin,
      maxRetries: 0,
      contextManagement: own,
    });
    const [body] = await run(model, 200_000);
    expect(body.context_management.edits[0]).toEqual({
      type: 'compact_20260112',
      trigger: { type: 'input_tokens', value: 60_000 },
    });
    expect(body.context_management.edits.map((edit: { type: string }) => edit.type)).toEqual([
      'compact_20260112',
      'clear_tool_uses_20250919',
    ]);
    expect(model.contextManagement).toBe(own);
  });

  test('ChatOpenAI: compacted locally, one warning per middleware', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const bodies = await run(openai.model(server.origin) as never, 200_000);
      expect(bodies).toHaveLength(2);
      for (const body of bodies) expect(body.context_management).toBeUndefined();
      expect(warn.mock.calls.filter((call) => String(call[0]).includes("strategy 'provider'"))).toHaveLength(
        1,
      );
    } finally {
      warn.mockRestore();
    }
  });
});
