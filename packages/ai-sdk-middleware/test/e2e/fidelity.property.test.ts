// biome-ignore-all lint/suspicious/noExplicitAny: one property drives two SDK generations
/**
 * Issue 9's invariants as a property, on the real `@ai-sdk/openai` chat and `@ai-sdk/google`
 * request builders: for any
 * conversation (chat turns, parallel tool results up to 20K characters, screenshots) and any window
 * from 2K up, either `ContextOverflowError` is thrown before any request, or exactly one request
 * goes out that obeys the provider's rules, carries the latest user message verbatim and every call of
 * the current turn with its result, and is at or under the compact threshold by the engine's
 * estimate; so does the next turn's request (with the summary the first one may have left).
 */
import { ContextOverflowError } from '@spillway/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContextUsage, compactionMiddleware } from '../../src/index';
import { screenshotPng, sourceFile, toBase64 } from '../conversation';
import type { Sdk } from '../sdk';
import { expectTurnIntact } from './harness';
import { type RecordedRequest, startLoopbackServer } from './loopback-server';
import { providerTargets } from './provider-targets';

type Turn =
  | { kind: 'chat'; user: string; answer: string }
  | { kind: 'tools'; user: string; results: number[]; answer: string }
  | { kind: 'screenshot'; user: string };

interface Current {
  user: string;
  results: number[];
  screenshot: boolean;
}

const words = fc.lorem({ maxCount: 30 });
const turnArbitrary: fc.Arbitrary<Turn> = fc.oneof(
  fc.record({ kind: fc.constant('chat' as const), user: words, answer: fc.lorem({ maxCount: 200 }) }),
  fc.record({
    kind: fc.constant('tools' as const),
    user: words,
    results: fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 3 }),
    answer: words,
  }),
  fc.record({ kind: fc.constant('screenshot' as const), user: words }),
);
const currentArbitrary: fc.Arbitrary<Current> = fc.record({
  // Up to about 3,000 tokens: alone over the smaller windows' budget.
  user: fc
    .tuple(words, fc.nat({ max: 1_500 }))
    .map(([text, repeat]) => `${text} ${'and more context '.repeat(repeat)}`),
  results: fc.array(fc.integer({ min: 0, max: 30_000 }), { maxLength: 3 }),
  screenshot: fc.boolean(),
});

function image(sdk: Sdk, seed: number) {
  const data = toBase64(screenshotPng(1280, 800, 6_000, seed));
  return sdk.version === 'v3'
    ? { type: 'image-data', data, mediaType: 'image/png' }
    : { type: 'file', mediaType: 'image/png', data: { type: 'data', data } };
}

/** The tool round of `calls` (id, characters of result) and optionally a screenshot. */
function toolRound(sdk: Sdk, prefix: string, sizes: readonly number[], screenshot: boolean) {
  const calls = sizes.map((chars, index) => ({
    id: `${prefix}-${index}`,
    name: 'read_file',
    result: sourceFile(`src/${prefix}-${index}.ts`, chars).slice(0, chars) || '(empty file)',
  }));
  const messages: unknown[] = [
    {
      role: 'assistant',
      content: [
        ...calls.map((call) => ({
          type: 'tool-call',
          toolCallId: call.id,
          toolName: call.name,
          input: { path: `src/${call.id}.ts` },
        })),
        ...(screenshot
          ? [
              {
                type: 'tool-call',
                toolCallId: `${prefix}-shot`,
                toolName: 'screenshot',
                input: { url: 'https://app.local' },
              },
            ]
          : []),
      ],
    },
    {
      role: 'tool',
      content: [
        ...calls.map((call) => ({
          type: 'tool-result',
          toolCallId: call.id,
          toolName: call.name,
          output: { type: 'text', value: call.result },
        })),
        ...(screenshot
          ? [
              {
                type: 'tool-result',
                toolCallId: `${prefix}-shot`,
                toolName: 'screenshot',
                output: {
                  type: 'content',
                  value: [{ type: 'text', text: `Screenshot ${prefix}` }, image(sdk, prefix.length)],
                },
              },
            ]
          : []),
      ],
    },
  ];
  return { calls, messages };
}

function conversation(sdk: Sdk, turns: readonly Turn[], current: Current) {
  const messages: unknown[] = [];
  turns.forEach((turn, index) => {
    messages.push({ role: 'user', content: `Q${index}: ${turn.user}` });
    if (turn.kind === 'chat') {
      messages.push({ role: 'assistant', content: `A${index}: ${turn.answer}` });
    } else {
      const round = toolRound(
        sdk,
        `t${index}`,
        turn.kind === 'tools' ? turn.results : [],
        turn.kind === 'screenshot',
      );
      messages.push(...round.messages, { role: 'assistant', content: `Done ${index}.` });
    }
  });
  const userText = `Now: ${current.user}`;
  messages.push({ role: 'user', content: userText });
  const calls: { id: string; name: string; result: string }[] = [];
  if (current.results.length > 0 || current.screenshot) {
    const round = toolRound(sdk, 'now', current.results, current.screenshot);
    messages.push(...round.messages);
    calls.push(...round.calls);
  }
  return { messages, userText, calls };
}

// OpenAI chat (media in tool results become text) and Gemini (strict turn order, one function
// response per call); the other providers ran 250 cases each while this was written.
describe.each(providerTargets.filter((target) => target.kind === 'openai-chat' || target.kind === 'google'))(
  '$name',
  (target) => {
    const { sdk } = target;
    const violations: string[] = [];
    let server: Awaited<ReturnType<typeof startLoopbackServer>>;
    beforeAll(async () => {
      server = await startLoopbackServer((request: RecordedRequest, index) => {
        try {
          target.validate(request.body);
        } catch (error) {
          violations.push(`request ${index}: ${(error as Error).message}`);
          return { status: 400, body: { error: { message: (error as Error).message } } };
        }
        return target.answer({ text: 'Done.', inputTokens: 100 });
      });
    });
    afterAll(() => server.close());

    it('windows from 2K up: fail fast before any request, or one valid request with the current turn, under the budget', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 2_000, max: 40_000 }),
          fc.array(turnArbitrary, { maxLength: 30, size: 'large' }),
          currentArbitrary,
          async (window, turns, current) => {
            const before = server.requests.length;
            const usages: ContextUsage[] = [];
            const middleware = compactionMiddleware({
              contextWindow: window,
              summarizer: 'extractive',
              onContextUsage: (usage) => usages.push(usage),
            });
            const model = sdk.wrapLanguageModel({ model: target.model(server.baseURL), middleware });
            const { messages, userText, calls } = conversation(sdk, turns, current);
            const send = () =>
              sdk.generateText({ model, system: 'You are a coding agent.', messages, maxRetries: 0 }).then(
                (result: any) => {
                  messages.push(...result.response.messages);
                  return undefined;
                },
                (error: unknown) => error ?? new Error('rejected without a reason'),
              );
            const outcome = await send();
            const sent = server.requests.slice(before);
            if (outcome !== undefined) {
              expect(ContextOverflowError.isInstance(outcome), String(outcome)).toBe(true);
              expect(sent).toHaveLength(0);
              return;
            }
            expect(violations).toEqual([]);
            expect(sent).toHaveLength(1);
            expectTurnIntact(target.read(sent[0]!.body), { userText, calls });
            // The next turn, after any background summary: the stored summary (if any) applies.
            await middleware.compactor.idle();
            messages.push({ role: 'user', content: 'And then?' });
            expect(await send()).toBeUndefined();
            expect(violations).toEqual([]);
            expect(server.requests.slice(before)).toHaveLength(2);
            expectTurnIntact(target.read(server.requests.at(-1)!.body), { userText: 'And then?', calls: [] });
            // At or under the compact threshold, except a first request whose current turn alone is over
            // it: that one is sent as long as it fits the window (refusing a request that fits would
            // be worse). The next turn's request, with that turn now history, is under the threshold.
            expect(usages).toHaveLength(2);
            expect(usages[0]!.tokensAfter).toBeLessThanOrEqual(window);
            expect(usages[1]!.tokensAfter).toBeLessThanOrEqual(0.85 * window);
          },
        ),
        { numRuns: 30 },
      );
    });
  },
);
