import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { Command } from '@langchain/langgraph';
import { createEstimator } from '@spillway/core';
import { createAgent, createMiddleware, fakeModel } from 'langchain';
import { expect, test } from 'vitest';
import { promptTokens, userMessage } from '../../test/agent-session';
import { SUMMARIES_ONLY, setup, WINDOW } from '../../test/compaction-agent';
import { compactionMiddleware } from './compaction-middleware';

/**
 * The middleware inside LangChain's run: its events reach the run's callbacks as custom events (even
 * when onEvent throws), the provider's usage_metadata calibrates its estimator, an inner middleware's
 * Command passes through, and the agent's own model writes summaries out of the run's callbacks.
 */

test('events reach LangChain callbacks as custom events named spillway:<type>', async () => {
  const session = setup(SUMMARIES_ONLY);
  const names: string[] = [];
  const callbacks = [{ handleCustomEvent: (name: string) => void names.push(name) }];
  for (let turn = 0; turn < 12; turn++) {
    await session.agent.invoke(
      { messages: [userMessage(turn)] },
      { configurable: { thread_id: 'callbacks' }, callbacks },
    );
  }
  expect(names).toContain('spillway:compaction-start');
  expect(names).toContain('spillway:compaction-end');
  expect(names.every((name) => name.startsWith('spillway:'))).toBe(true);
});

test('an onEvent that throws is ignored, and LangChain callbacks still get every event', async () => {
  const session = setup({
    ...SUMMARIES_ONLY,
    onEvent: () => {
      throw new Error('handler bug');
    },
  });
  const names: string[] = [];
  const callbacks = [{ handleCustomEvent: (name: string) => void names.push(name) }];
  for (let turn = 0; turn < 12; turn++) {
    await session.agent.invoke(
      { messages: [userMessage(turn)] },
      { configurable: { thread_id: 'throwing-handler' }, callbacks },
    );
  }
  expect(names).toContain('spillway:compaction-start');
  expect(names).toContain('spillway:compaction-end');
});

test('usage_metadata.input_tokens calibrates the estimator', async () => {
  const estimator = createEstimator();
  const question = new HumanMessage('x '.repeat(400));
  // The provider counts 30% more than the estimate (inside the plausible band).
  const reported = Math.round(promptTokens([question]) * 1.3);
  const model = fakeModel().respond(
    new AIMessage({
      content: 'ok',
      usage_metadata: { input_tokens: reported, output_tokens: 2, total_tokens: reported + 2 },
    }),
  );
  const agent = createAgent({
    model,
    tools: [],
    middleware: [compactionMiddleware({ contextWindow: WINDOW, estimator })],
  });
  await agent.invoke({ messages: [question] });
  expect(estimator.calibrationFactor()).toBeGreaterThan(1);
  expect(estimator.calibrationFactor()).toBeLessThanOrEqual(1.3);
});

test('an inner middleware answering with a Command (not a message) passes through', async () => {
  const inner = createMiddleware({
    name: 'AnswersWithCommand',
    wrapModelCall: async () =>
      new Command({ update: { messages: [new AIMessage('from a command')] } }) as never,
  });
  const agent = createAgent({
    model: fakeModel().respond(new AIMessage('unused')),
    tools: [],
    middleware: [compactionMiddleware({ contextWindow: WINDOW }), inner],
  });
  const result = await agent.invoke({ messages: [new HumanMessage('hi')] });
  expect(result.messages.map((message) => message.text)).toEqual(['hi', 'from a command']);
});

test("without model or summarizer, the agent's own model writes the summary, out of the run's callbacks", async () => {
  const model = fakeModel();
  for (let index = 0; index < 10; index++) {
    model.respond((messages: BaseMessage[]) =>
      messages[0]?.text.startsWith('You are compacting the earlier part') && messages.length === 2
        ? new AIMessage('SUMMARY: the user asked about topics 0 to 9.')
        : new AIMessage('Here is my answer.'),
    );
  }
  const history = Array.from({ length: 10 }, (_, turn) => [
    new HumanMessage(`Topic ${turn}: ${'background material '.repeat(150)}`),
    new AIMessage(`Noted topic ${turn}.`),
  ]).flat();
  const agent = createAgent({
    model,
    tools: [],
    middleware: [compactionMiddleware({ contextWindow: 4000 })],
  });
  let modelStarts = 0;
  const callbacks = [{ handleChatModelStart: () => void modelStarts++ }];
  const result = await agent.invoke(
    { messages: [...history, new HumanMessage('Summarize our talk.')] },
    { callbacks },
  );
  expect(result.messages.at(-1)!.text).toBe('Here is my answer.');
  const final = model.calls.at(-1)!.messages;
  expect(final[0]!.text).toContain('SUMMARY: the user asked about topics 0 to 9.');
  // The agent's model wrote the summary (in chunks) and the answer; the run's callbacks saw the answer only.
  expect(model.callCount).toBeGreaterThan(1);
  expect(modelStarts).toBe(1);
});
