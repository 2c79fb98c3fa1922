import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { type CompactionEvent, extractiveSummarizer, MemoryCompactionStore } from '@spillway/core';
import { createAgent, fakeModel } from 'langchain';
import { expect, test } from 'vitest';
import { promptTokens } from '../../test/agent-session';
import { gatedSummarizer, stillPendingAfter, summaryStartedBy } from '../../test/background-work';
import { turnText } from '../../test/chat-turns';
import { readState, runTurns, SUMMARIES_ONLY, setup, WINDOW } from '../../test/compaction-agent';
import { compactionMiddleware } from './compaction-middleware';
import { COMPACTION_STATE_KEY } from './compaction-state-schema';

/**
 * Summaries made in the background, after a model call: over the background threshold the next
 * summary is made after the call, not before it; waitUntil is handed each call's background work
 * (for serverless hosts), and a throwing waitUntil is a compaction-failed event, never a failed call.
 */

test('over the background threshold, the next summary is made after the model call, not before it', async () => {
  const session = setup({ ...SUMMARIES_ONLY, thresholds: { background: 0.5 }, trigger: { fraction: 0.9 } });
  await runTurns(session.agent, 'background', 0, 20);
  const reasons = session.events
    .filter((event) => event.type === 'compaction-end')
    .map((event) => event.reason);
  expect(reasons).toContain('background');
  for (const call of session.model.calls) expect(promptTokens(call.messages)).toBeLessThan(WINDOW);
  const state = await readState(session.agent, 'background');
  expect(state.values[COMPACTION_STATE_KEY]?.coveredCount).toBeGreaterThan(0);
});

test('waitUntil is handed the background summary a model call starts: it settles once the summary is stored', async () => {
  const { summarizer, summaryModel, called, open } = gatedSummarizer();
  const store = new MemoryCompactionStore();
  const kept: Promise<unknown>[] = [];
  const events: CompactionEvent[] = [];
  const model = fakeModel();
  for (let turn = 0; turn < 30; turn++) model.respond(new AIMessage(`Answer ${turn}.`));
  const agent = createAgent({
    model,
    tools: [],
    middleware: [
      compactionMiddleware({
        contextWindow: 4000,
        summarizer,
        store,
        waitUntil: (promise) => void kept.push(promise),
        onEvent: (event) => events.push(event),
      }),
    ],
    checkpointer: new MemorySaver(),
  });
  const config = { configurable: { thread_id: 'serverless' } };
  let turn = 0;
  let summarizing = false;
  while (!summarizing && turn < 30) {
    await agent.invoke({ messages: [new HumanMessage(turnText(turn++))] }, config);
    summarizing = await summaryStartedBy(kept.at(-1), called);
  }
  expect(summarizing).toBe(true);
  // One promise per model call, each handed over before the call returned.
  expect(kept).toHaveLength(model.callCount);
  // The invoke is over; the summary is held, and so is the promise waitUntil was given.
  const work = kept.at(-1)!;
  expect(await stillPendingAfter(work, 50)).toBe(true);
  expect(await store.get('thread:serverless')).toBeUndefined();
  expect(events.some((event) => event.type === 'compaction-end')).toBe(false);

  open();
  await work;
  // Settled: the summary was written and stored.
  expect(summaryModel.callCount).toBeGreaterThan(0);
  expect((await store.get('thread:serverless'))?.coveredCount).toBeGreaterThan(0);
  expect(events.find((event) => event.type === 'compaction-end')).toMatchObject({ reason: 'background' });
  // And the next call applies it.
  await agent.invoke({ messages: [new HumanMessage(turnText(turn))] }, config);
  expect(model.calls.at(-1)!.messages[0]!.text).toContain('The user asked to read');
});

test('a throwing waitUntil never fails the model call: a compaction-failed event instead', async () => {
  const events: CompactionEvent[] = [];
  const model = fakeModel().respond(new AIMessage('first')).respond(new AIMessage('second'));
  const agent = createAgent({
    model,
    tools: [],
    middleware: [
      compactionMiddleware({
        contextWindow: WINDOW,
        summarizer: extractiveSummarizer,
        waitUntil: () => {
          throw new Error('waitUntil called outside a request context');
        },
        onEvent: (event) => {
          events.push(event);
          // A handler that throws too changes nothing.
          throw new Error('handler failed');
        },
      }),
    ],
  });
  const first = await agent.invoke({ messages: [new HumanMessage('hi')] });
  expect(first.messages.at(-1)!.text).toBe('first');
  const second = await agent.invoke({ messages: [new HumanMessage('again')] });
  expect(second.messages.at(-1)!.text).toBe('second');
  const failed = events.filter((event) => event.type === 'compaction-failed');
  expect(failed).toHaveLength(2);
  expect(failed[0]).toMatchObject({ reason: 'background', fallback: 'none' });
  expect(String((failed[0] as { error: unknown }).error)).toContain('outside a request context');
});
