import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { InvalidConfigError } from '@spillway/core';
import { createAgent, fakeModel } from 'langchain';
import { expect, test } from 'vitest';
import { type CompactionMiddlewareOptions, compactionMiddleware } from './compaction-middleware';

/**
 * Checking the middleware's options: a bad one throws InvalidConfigError naming the option and the
 * accepted range, at construction or, when it depends on a window known only from the model's
 * profile, at the first call and before the model is called.
 */

test('bad options throw InvalidConfigError naming the option and the accepted range', () => {
  const cases: [CompactionMiddlewareOptions, RegExp][] = [
    [{ contextWindow: -1 }, /"contextWindow": must be a whole number of tokens, 1 or more \(got -1\)/],
    [{ contextWindow: Number.NaN }, /"contextWindow".*got NaN/],
    [{ contextWindow: '16000' as never }, /"contextWindow".*got "16000"/],
    [{ contextWindows: { 'my-model': -3 } }, /"contextWindows.my-model"/],
    [{ trigger: { messages: 20 } as never }, /"trigger".*message counts are not a size/],
    [{ trigger: { fraction: 2 } }, /"trigger.fraction": must be above 0 and at most 1/],
    [{ keep: { fraction: 0.5, tokens: 10 } }, /"keep"/],
    // Not "protectedRatio", which the user did not write.
    [{ keep: { fraction: 0.9 } }, /"keep.fraction": must keep less than the compact trigger: below 0.85/],
    [{ keep: { fraction: 0.5 }, trigger: { fraction: 0.4 } }, /"keep.fraction".*below 0.4/],
    [{ maxOverflowRetries: -1 }, /"maxOverflowRetries".*whole number, 0 or more/],
    [{ maxOverflowRetries: 1.5 }, /"maxOverflowRetries"/],
    [{ model: {} as never }, /"model"/],
    [{ summarizer: 'extractive' as never }, /"summarizer".*function/],
    [{ waitUntil: 3 as never }, /"waitUntil".*function/],
    [{ tokenCounter: 3 as never }, /"tokenCounter"/],
    [{ store: {} as never }, /"store".*CompactionStore/],
    [{ thresholds: { background: 0.9, compact: 0.85 } }, /"thresholds"/],
    [{ summaryPlacement: 'middle' as never }, /"summaryPlacement"/],
  ];
  for (const [options, message] of cases) {
    expect(() => compactionMiddleware(options)).toThrow(InvalidConfigError);
    expect(() => compactionMiddleware(options)).toThrow(message);
  }
});

test('keep in tokens at or above the trigger is refused naming keep.tokens, once the window is known', async () => {
  expect(() => compactionMiddleware({ contextWindow: 1000, keep: { tokens: 900 } })).toThrow(
    /"keep.tokens": must keep less than the compact trigger: below 0.85 of the window \(850 tokens of 1000\)/,
  );
  // A window known only from the model's profile: refused at the first call.
  const model = fakeModel().respond(new AIMessage('unused'));
  Object.defineProperty(model, 'profile', { value: { maxInputTokens: 1000 } });
  const agent = createAgent({
    model,
    tools: [],
    middleware: [compactionMiddleware({ keep: { tokens: 900 } })],
  });
  const error = await agent.invoke({ messages: [new HumanMessage('hi')] }).catch((caught: unknown) => caught);
  const cause = InvalidConfigError.isInstance(error) ? error : (error as Error).cause;
  expect(InvalidConfigError.isInstance(cause)).toBe(true);
  expect(cause).toMatchObject({ option: 'keep.tokens', value: 900 });
  expect(model.callCount).toBe(0);
});
