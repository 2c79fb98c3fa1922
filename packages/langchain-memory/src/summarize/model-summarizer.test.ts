import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { RunnableLambda } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { MemorySaver } from '@langchain/langgraph';
import { type CompactionEvent, extractiveSummarizer } from '@spillway/core';
import { createAgent } from 'langchain';
import { describe, expect, test } from 'vitest';
import { compactionMiddleware } from '../middleware/compaction-middleware';
import { createModelSummarizer, SUMMARY_RUN_TAG } from './model-summarizer';

const WINDOW = 4000;
const SUMMARY = 'SECRET-SUMMARY-TEXT: the user went over topics zero to nine.';
const ANSWER = 'Here is the answer the user should see.';

/** Ten long turns: over the compact threshold of a 4,000-token window. */
function longHistory(): BaseMessage[] {
  return Array.from({ length: 10 }, (_, turn) => [
    new HumanMessage(`Topic ${turn}: ${'background material for the topic '.repeat(60)}`),
    new AIMessage(`Noted topic ${turn}.`),
  ]).flat();
}

/** A real createAgent whose agent model and summary model both stream their answers token by token. */
function setup() {
  const summaryStarts: { tags: string[]; metadata: Record<string, unknown> }[] = [];
  const summaryModel = new FakeListChatModel({
    responses: Array.from({ length: 10 }, () => SUMMARY),
    // Callbacks of the summary model itself still see its calls (tagged), unlike the run's.
    callbacks: [
      {
        handleChatModelStart: (...args: unknown[]) =>
          void summaryStarts.push({
            tags: (args[5] as string[]) ?? [],
            metadata: (args[6] as Record<string, unknown>) ?? {},
          }),
      },
    ],
  });
  const events: CompactionEvent[] = [];
  const agent = createAgent({
    model: new FakeListChatModel({ responses: Array.from({ length: 10 }, () => ANSWER) }),
    tools: [],
    systemPrompt: 'You are helpful.',
    middleware: [
      compactionMiddleware({
        contextWindow: WINDOW,
        model: summaryModel,
        onEvent: (event) => events.push(event),
      }),
    ],
    checkpointer: new MemorySaver(),
  });
  return { agent, summaryStarts, events };
}

describe('summary calls are invisible to the conversation’s streams', () => {
  test('streamMode "messages": only the agent’s tokens reach the app', async () => {
    const { agent, summaryStarts, events } = setup();
    const streamed: string[] = [];
    const tags: string[][] = [];
    const stream = await agent.stream(
      { messages: [...longHistory(), new HumanMessage('What now?')] },
      { configurable: { thread_id: 'messages-mode' }, streamMode: 'messages' },
    );
    for await (const [chunk, metadata] of stream) {
      streamed.push(String((chunk as BaseMessage).content));
      tags.push(((metadata as { tags?: string[] }).tags ?? []) as string[]);
    }
    // The summary was made during this run, by the summary model...
    expect(events.some((event) => event.type === 'compaction-end')).toBe(true);
    expect(summaryStarts.length).toBeGreaterThan(0);
    expect(summaryStarts[0]!.tags).toEqual(expect.arrayContaining([SUMMARY_RUN_TAG, 'nostream']));
    expect(summaryStarts[0]!.metadata).toMatchObject({ lc_source: SUMMARY_RUN_TAG });
    // ...and the app received the agent's answer, token by token, and nothing of the summary.
    expect(streamed.length).toBeGreaterThan(1);
    expect(streamed.join('')).toBe(ANSWER);
    expect(tags.flat()).not.toContain(SUMMARY_RUN_TAG);
  });

  test('streamEvents: no summary tokens or model runs, Spillway’s own events under their names', async () => {
    const { agent, summaryStarts } = setup();
    const modelStreams: string[] = [];
    const modelStarts: string[][] = [];
    const custom: string[] = [];
    const stream = agent.streamEvents(
      { messages: [...longHistory(), new HumanMessage('What now?')] },
      { configurable: { thread_id: 'stream-events' }, version: 'v2' },
    );
    for await (const event of stream) {
      if (event.event === 'on_chat_model_stream') modelStreams.push(String(event.data.chunk.content));
      if (event.event === 'on_chat_model_start') modelStarts.push(event.tags ?? []);
      if (event.event === 'on_custom_event') custom.push(event.name);
    }
    expect(summaryStarts.length).toBeGreaterThan(0);
    expect(modelStreams.join('')).toBe(ANSWER);
    expect(modelStarts).toHaveLength(1);
    expect(modelStarts.flat()).not.toContain(SUMMARY_RUN_TAG);
    expect(custom).toEqual(expect.arrayContaining(['spillway:compaction-start', 'spillway:compaction-end']));
  });

  test('callbacks passed to the run see only the conversation’s model calls', async () => {
    const { agent, summaryStarts } = setup();
    const tokens: string[] = [];
    let modelStarts = 0;
    await agent.invoke(
      { messages: [...longHistory(), new HumanMessage('What now?')] },
      {
        configurable: { thread_id: 'callbacks' },
        callbacks: [
          {
            handleChatModelStart: () => void modelStarts++,
            handleLLMNewToken: (token: string) => void tokens.push(token),
          },
        ],
      },
    );
    expect(summaryStarts.length).toBeGreaterThan(0);
    expect(modelStarts).toBe(1);
    expect(tokens.join('')).not.toContain('SECRET');
  });

  test('the extractive summarizer needs no model and streams nothing either', async () => {
    const agent = createAgent({
      model: new FakeListChatModel({ responses: [ANSWER] }),
      tools: [],
      middleware: [compactionMiddleware({ contextWindow: WINDOW, summarizer: extractiveSummarizer })],
    });
    const streamed: string[] = [];
    const stream = await agent.stream(
      { messages: [...longHistory(), new HumanMessage('What now?')] },
      { streamMode: 'messages' },
    );
    for await (const [chunk] of stream) streamed.push(String((chunk as BaseMessage).content));
    expect(streamed.join('')).toBe(ANSWER);
  });
});

test('the abort signal of the summary reaches the model call as its signal', async () => {
  let seen: AbortSignal | undefined;
  // Any runnable answering with a message is a summary model; this one shows the config it got.
  const model = RunnableLambda.from((_input: unknown, config?: { signal?: AbortSignal }) => {
    seen = config?.signal;
    return new AIMessage(SUMMARY);
  });
  const controller = new AbortController();
  const summary = await createModelSummarizer(model)({
    system: 'Summarize.',
    prompt: 'Transcript.',
    messages: [],
    previousSummary: undefined,
    transcript: 'Transcript.',
    abortSignal: controller.signal,
  });
  expect(summary).toBe(SUMMARY);
  expect(seen?.aborted).toBe(false);
  controller.abort();
  expect(seen?.aborted).toBe(true);
});

test('a model string is resolved once, lazily, and a non-model is refused naming the option', () => {
  expect(() => createModelSummarizer({} as never)).toThrow(/"model"/);
  expect(() => createModelSummarizer('openai:gpt-4.1-mini')).not.toThrow();
});
