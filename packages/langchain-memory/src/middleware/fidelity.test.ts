import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { type CompactionEvent, ContextOverflowError, type Summarizer } from '@spillway/core';
import { createAgent, fakeModel } from 'langchain';
import { expect, test, vi } from 'vitest';
import { z } from 'zod/v4';
import { fileContent, promptTokens, toolPairsIntact } from '../../test/agent-session';
import { compactionMiddleware } from './compaction-middleware';
import { COMPACTION_STATE_KEY } from './compaction-state-schema';

const WINDOW = 16_000;

/** A tool that returns a large file: three of them in parallel exceed the protected window. */
const readFile = tool(
  async ({ path }: { path: string }) => fileContent(path, 11, { minChars: 30_000, maxChars: 30_001 }),
  {
    name: 'read_file',
    description: 'Reads a file.',
    schema: z.object({ path: z.string() }),
  },
);

/** Earlier turns of a plain chat (text only), so the history alone is near the window. */
function history(turns: number): BaseMessage[] {
  return Array.from({ length: turns }, (_, turn) => [
    new HumanMessage(`Earlier question ${turn} about ORD-${100 + turn}: ${'context '.repeat(60)}`),
    new AIMessage(`Earlier answer ${turn}: ${'detail '.repeat(90)}`),
  ]).flat();
}

/**
 * The agent's model: on the user's message it calls read_file three times in parallel; once the
 * three results are in, it answers. Every call's messages are recorded.
 */
function parallelToolModel() {
  const model = fakeModel();
  for (let index = 0; index < 20; index++) {
    model.respond((messages: BaseMessage[]) => {
      const last = messages.at(-1);
      if (last !== undefined && ToolMessage.isInstance(last)) return new AIMessage('All three files read.');
      return new AIMessage({
        content: '',
        tool_calls: ['a', 'b', 'c'].map((name) => ({
          id: `call-${name}`,
          name: 'read_file',
          args: { path: `src/${name}.ts` },
          type: 'tool_call' as const,
        })),
      });
    });
  }
  return model;
}

const QUESTION = 'Compare src/a.ts, src/b.ts and src/c.ts and tell me which one exports the most values.';

test('the current turn is sacred: parallel tool results larger than the protected window never push the question into a summary', async () => {
  const model = parallelToolModel();
  const summarized: BaseMessage[][] = [];
  const summarizer: Summarizer = ({ messages }) => {
    summarized.push(messages as never);
    return `Summary of ${messages.length} earlier messages about orders ORD-100 onwards.`;
  };
  const agent = createAgent({
    model,
    tools: [readFile],
    middleware: [compactionMiddleware({ contextWindow: WINDOW, summarizer })],
  });
  const result = await agent.invoke({ messages: [...history(14), new HumanMessage(QUESTION)] });
  expect(result.messages.at(-1)!.text).toBe('All three files read.');
  expect(model.calls.length).toBe(2);
  for (const call of model.calls) {
    const sent = call.messages;
    // The question itself, verbatim, in every request (never "[Continuing the conversation…]").
    expect(sent.some((message) => HumanMessage.isInstance(message) && message.text === QUESTION)).toBe(true);
    expect(promptTokens(sent)).toBeLessThanOrEqual(WINDOW * 0.85);
    expect(toolPairsIntact(sent.filter((message) => !SystemMessage.isInstance(message)))).toBe(true);
  }
  // The second call carries the current turn whole: the three calls and their three results.
  const second = model.calls[1]!.messages;
  const results = second.filter((message) => ToolMessage.isInstance(message)) as ToolMessage[];
  expect(results.map((message) => message.tool_call_id)).toEqual(['call-a', 'call-b', 'call-c']);
  for (const message of results) expect(message.status).not.toBe('error');
  // Nothing of the current turn ever reached the summarizer.
  const summarizedText = JSON.stringify(summarized);
  expect(summarizedText).not.toContain(QUESTION);
  expect(summarizedText).not.toContain('call-a');
});

test('a user message larger than the window fails before any model call', async () => {
  const model = fakeModel().respond(new AIMessage('never'));
  const agent = createAgent({
    model,
    tools: [],
    middleware: [compactionMiddleware({ contextWindow: 4_000 })],
  });
  const error = await agent
    .invoke({ messages: [new HumanMessage('word '.repeat(20_000))] })
    .catch((caught: unknown) => caught);
  const overflow = ContextOverflowError.isInstance(error) ? error : (error as Error).cause;
  expect(ContextOverflowError.isInstance(overflow)).toBe(true);
  expect((overflow as ContextOverflowError).unshrinkable!.userText).toBeGreaterThan(4_000);
  expect(model.callCount).toBe(0);
});

test('a summarizer that never answers holds no request past the foreground limit, stores nothing, and the call completes', async () => {
  const signals: AbortSignal[] = [];
  const hanging: Summarizer = ({ abortSignal }) => {
    if (abortSignal) signals.push(abortSignal);
    return new Promise<string>(() => {});
  };
  const events: CompactionEvent[] = [];
  const middleware = compactionMiddleware({
    contextWindow: 6_000,
    summarizer: hanging,
    summaryTimeouts: { foreground: 100, background: 150 },
    onEvent: (event) => events.push(event),
  });
  const model = fakeModel().respond(new AIMessage('Answered anyway.'));
  const checkpointer = new MemorySaver();
  const agent = createAgent({ model, tools: [], middleware: [middleware], checkpointer });
  const config = { configurable: { thread_id: 'hang' } };
  const result = await agent.invoke({ messages: [...history(30), new HumanMessage('And now?')] }, config);
  expect(result.messages.at(-1)!.text).toBe('Answered anyway.');
  expect(promptTokens(model.calls[0]!.messages)).toBeLessThanOrEqual(6_000 * 0.85);
  expect(events.some((event) => event.type === 'compaction-failed' && event.fallback === 'drop-oldest')).toBe(
    true,
  );
  expect(signals.length).toBeGreaterThan(0);
  expect(signals.every((signal) => signal.aborted)).toBe(true);
  const state = (await agent.getState(config)) as unknown as { values: Record<string, unknown> };
  expect(state.values[COMPACTION_STATE_KEY]).toBeUndefined();
});

test("the caller's abort ends a running summarizer at once", async () => {
  const signals: AbortSignal[] = [];
  const started = vi.fn();
  const hanging: Summarizer = ({ abortSignal }) => {
    started();
    if (abortSignal) signals.push(abortSignal);
    return new Promise<string>(() => {});
  };
  const model = fakeModel().respond(new AIMessage('never'));
  const agent = createAgent({
    model,
    tools: [],
    middleware: [
      compactionMiddleware({
        contextWindow: 6_000,
        summarizer: hanging,
        summaryTimeouts: { foreground: 60_000 },
      }),
    ],
  });
  const controller = new AbortController();
  const pending = agent.invoke(
    { messages: [...history(30), new HumanMessage('And now?')] },
    { signal: controller.signal },
  );
  await vi.waitFor(() => expect(started).toHaveBeenCalled(), { timeout: 20_000 });
  controller.abort();
  await expect(pending).rejects.toBeDefined();
  expect(signals[0]!.aborted).toBe(true);
  expect(model.callCount).toBe(0);
});
