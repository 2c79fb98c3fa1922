import { AIMessage, BaseMessage, HumanMessage } from '@langchain/core/messages';
import {
  type CompactionEvent,
  createEstimator,
  extractiveSummarizer,
  InvalidConfigError,
} from '@spillway/core';
import { createAgent, fakeModel } from 'langchain';
import { expect, test } from 'vitest';
import { toNeutralMessages } from '../convert/to-neutral-messages';
import { compactionMiddleware } from '../middleware/compaction-middleware';
import { tokenCounterEstimator } from './token-counter-estimator';

/** 30 short turns: a few hundred tokens by any real count, far under a 16,000-token window. */
function shortHistory() {
  return Array.from({ length: 30 }, (_, turn) => [
    new HumanMessage(`Question ${turn}`),
    new AIMessage(`Answer ${turn}`),
  ]).flat();
}

test('the counter decides: 1,000 tokens a message compacts a conversation the estimator finds tiny', async () => {
  const history = shortHistory();
  expect(createEstimator().countMessages(toNeutralMessages(history))).toBeLessThan(16_000 * 0.25);
  const counted: unknown[] = [];
  const tokenCounter = (messages: BaseMessage[]) => {
    counted.push(...messages);
    return messages.length * 1000;
  };
  const events: CompactionEvent[] = [];
  const model = fakeModel().respond(new AIMessage('ok'));
  const agent = createAgent({
    model,
    tools: [],
    middleware: [
      compactionMiddleware({
        contextWindow: 16_000,
        summarizer: extractiveSummarizer,
        tokenCounter,
        // A counter of 1,000 a message would find collapsing the short exchanges enough: summarize.
        collapseExchanges: false,
        onEvent: (event) => events.push(event),
      }),
    ],
  });
  const result = await agent.invoke({ messages: [...history, new HumanMessage('And now?')] });
  expect(result.messages).toHaveLength(history.length + 2);
  const sent = model.calls[0]!.messages;
  // Under the trigger (0.85 of 16,000) by the counter's measure: at most 13 messages, summary included.
  expect(sent.length).toBeLessThanOrEqual(13);
  expect(sent[0]!.text).toContain('Summary of the earlier conversation');
  expect(sent.at(-1)!.text).toBe('And now?');
  expect(events.some((event) => event.type === 'compaction-end')).toBe(true);
  // It was given LangChain messages, the caller's own objects among them.
  expect(counted.every((message) => BaseMessage.isInstance(message))).toBe(true);
  expect(counted).toContain(history[0]);
});

test('a list counts as the sum of its messages, each counted once', () => {
  let calls = 0;
  const estimator = tokenCounterEstimator((messages) => {
    calls++;
    return messages.length * 7;
  }, createEstimator());
  const neutral = toNeutralMessages(shortHistory());
  expect(estimator.countMessages(neutral)).toBe(60 * 7);
  expect(estimator.countMessages(neutral)).toBe(60 * 7);
  expect(calls).toBe(60);
});

test('an async counter, or one that returns no number, is refused naming tokenCounter', async () => {
  const [message] = toNeutralMessages([new HumanMessage('hi')]);
  const asyncCounter = tokenCounterEstimator((async () => 5) as never, createEstimator());
  expect(() => asyncCounter.countMessage(message!)).toThrow(/tokenCounter.*synchronously|synchronously/);
  const nanCounter = tokenCounterEstimator(() => Number.NaN, createEstimator());
  expect(() => nanCounter.countMessage(message!)).toThrow(InvalidConfigError);
  expect(() => compactionMiddleware({ tokenCounter: 'tiktoken' as never })).toThrow(/tokenCounter/);

  const agent = createAgent({
    model: fakeModel().respond(new AIMessage('ok')),
    tools: [],
    middleware: [compactionMiddleware({ contextWindow: 16_000, tokenCounter: (async () => 5) as never })],
  });
  const error = await agent.invoke({ messages: [new HumanMessage('hi')] }).catch((caught: unknown) => caught);
  const cause = (error as Error).cause ?? error;
  expect(InvalidConfigError.isInstance(cause)).toBe(true);
  expect((cause as InvalidConfigError).option).toBe('tokenCounter');
});
